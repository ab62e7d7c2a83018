import type { Ctx } from '../kernel/engine.js';
import { planDraw } from '../kernel/deck.js';
import { ok } from '../kernel/result.js';
import { HIDDEN, onlySeats } from '../kernel/visibility.js';
import type { Side } from '../frontline-general/data/schema.js';
import type { Command, State } from './model.js';
import { no, Out, type Decision } from './out.js';
import { HAND_LIMIT_COMMANDS, HAND_LIMIT_UNITS, RULE } from './rules.js';

/**
 * 003 §III Draw Phase Functions: one Command card, then any two more cards (Command or Unit; Man
 * vs. Beast: one); over 5 Command or 7 Unit cards at the end, discard (a unit under the Reserves
 * deck, a Command card out of the game). Epiphany draws units from the Infantry deck until it is
 * empty, then from the Support deck.
 */

export const overLimit = (s: State, seat: Side): boolean => s.seats[seat].hand.length > HAND_LIMIT_UNITS || s.seats[seat].commands.length > HAND_LIMIT_COMMANDS;
const unitsLeft = (s: State, seat: Side): number => s.seats[seat].reserves.length + s.seats[seat].support.length;

export function decideDraw(s: State, seat: Side, c: Extract<Command, { type: 'Draw' }>, ctx: Ctx): Decision {
  if (s.seats[seat].drawn) return no('draw/done', 'You have drawn this turn', RULE.draw);
  if (c.extra.length !== s.scenario.extraDraws) return no('draw/count', `Draw ${s.scenario.extraDraws} extra card(s) after the Command card`, RULE.draw);
  if (c.extra.filter((x) => x === 'reserves').length > unitsLeft(s, seat)) return no('draw/reserves-empty', 'Your Reserves deck has too few cards', RULE.draw);
  const out = new Out(s);
  for (const kind of ['command', ...c.extra] as const) {
    if (kind === 'command') {
      const plan = planDraw(out.s.commandDeck, 1, ctx.rng, { reshuffle: 'when-empty' });
      if (plan.reshuffle) out.emit({ type: 'CommandDeckReshuffled', order: [...plan.reshuffle] }, HIDDEN);
      const card = plan.cards[0];
      if (card === undefined) continue;
      out.emit({ type: 'CardDrawn', seat, kind, card }, onlySeats(seat));
      out.emit({ type: 'DrawCounted', seat, kind });
    } else {
      const me = out.s.seats[seat];
      const card = me.reserves[0] ?? me.support[0];
      if (card === undefined) continue;
      out.emit({ type: 'CardDrawn', seat, kind: 'unit', card }, onlySeats(seat));
      out.emit({ type: 'DrawCounted', seat, kind: 'unit' });
    }
  }
  if (!out.s.seats[seat].drawn) out.emit({ type: 'DrawCounted', seat, kind: 'command' });
  return ok(out.list);
}

export function decideDiscard(s: State, seat: Side, c: Extract<Command, { type: 'Discard' }>): Decision {
  const me = s.seats[seat];
  const out = new Out(s);
  if (me.hand.includes(c.card) && me.hand.length > HAND_LIMIT_UNITS) {
    out.emit({ type: 'UnitDiscarded', seat, card: c.card }, onlySeats(seat));
    out.emit({ type: 'UnitDiscardCounted', seat });
  } else if (me.commands.includes(c.card) && me.commands.length > HAND_LIMIT_COMMANDS) out.emit({ type: 'CommandDiscarded', seat, card: c.card });
  else return no('draw/no-discard', 'Discard only a card of a kind you hold too many of', RULE.draw);
  return ok(out.list);
}
