import { deckCounts, planDraw } from '../kernel/deck.js';
import type { Ctx } from '../kernel/engine.js';
import { violation, type RuleViolation } from '../kernel/errors.js';
import { err, ok } from '../kernel/result.js';
import { HIDDEN, onlySeats } from '../kernel/visibility.js';
import type { Side } from '../frontline-general/data/schema.js';
import { SEATS, type Command, type State } from './model.js';
import { no, Out, type Decision } from './out.js';
import { DRAWS_PER_TURN, HAND_LIMIT_COMMANDS, HAND_LIMIT_UNITS, RULE } from './rules.js';

/**
 * 001 Draw Phase: each side draws one Command card, then any two cards (Command or Reserves),
 * then keeps at most 7 units (the rest under its Reserves deck) and 5 Command cards.
 */

/** DrawCard, or DrawCards: several draws in one move, all or nothing. */
export function decideDraw(s: State, seat: Side, c: Extract<Command, { type: 'DrawCard' | 'DrawCards' }>, ctx: Ctx): Decision {
  const out = new Out(s);
  if (c.type === 'DrawCard') {
    const refused = drawOne(out, ctx, seat, c.from);
    return refused ? err(refused) : ok(out.list);
  }
  // The same draws as that many DrawCard commands, in one move; all or nothing.
  for (const [i, from] of c.from.entries()) {
    const refused = drawOne(out, ctx, seat, from);
    if (refused) return err({ ...refused, message: `Draw ${i + 1} (${from}): ${refused.message}` });
  }
  return ok(out.list);
}

/** DiscardUnit or DiscardCommand, down to the hand limits after the three draws. */
export function decideDiscard(s: State, seat: Side, c: Extract<Command, { type: 'DiscardUnit' | 'DiscardCommand' }>): Decision {
  const me = s.seats[seat];
  const out = new Out(s);
  if (s.phase !== 'draw' || me.drawDone || me.drawsTaken < DRAWS_PER_TURN)
    return no('draw/not-discarding', 'Discards to the hand limit come after your three draws', RULE.draw);
  if (c.type === 'DiscardUnit') {
    if (!me.hand.includes(c.card)) return no('draw/not-in-hand', `${c.card} is not in your hand`, RULE.draw);
    if (me.hand.length <= HAND_LIMIT_UNITS) return no('draw/within-limit', `You hold ${HAND_LIMIT_UNITS} unit cards or fewer`, RULE.draw);
    out.emit({ type: 'UnitDiscarded', seat, card: c.card }, onlySeats(seat));
    out.emit({ type: 'UnitDiscardCounted', seat });
  } else {
    if (!me.commands.includes(c.card)) return no('draw/not-in-hand', `${c.card} is not in your hand`, RULE.draw);
    if (me.commands.length <= HAND_LIMIT_COMMANDS) return no('draw/within-limit', `You hold ${HAND_LIMIT_COMMANDS} command cards or fewer`, RULE.draw);
    out.emit({ type: 'CommandDiscarded', seat, card: c.card });
  }
  finishDraw(out, seat);
  return ok(out.list);
}

/** Command cards left to draw: the deck and the discards a reshuffle would bring back. */
export function commandCardsLeft(s: State): number {
  const n = deckCounts(s.commandDeck);
  return n.draw + n.discard;
}

export function drawCommand(out: Out, ctx: Ctx, seat: Side): boolean {
  // An empty Command deck is reshuffled from its discards (001 Draw Phase).
  const plan = planDraw(out.s.commandDeck, 1, ctx.rng, { reshuffle: 'when-empty' });
  if (plan.reshuffle) out.emit({ type: 'CommandDeckReshuffled', order: [...plan.reshuffle] }, HIDDEN);
  const top = plan.cards[0];
  if (top === undefined) return false;
  out.emit({ type: 'CardDrawn', seat, kind: 'command', card: top }, onlySeats(seat));
  return true;
}

/** One draw of the Draw Phase (001 Draw Phase): a Command card first, then any; refused as a value. */
function drawOne(out: Out, ctx: Ctx, seat: Side, from: 'command' | 'reserves'): RuleViolation | undefined {
  const s = out.s;
  const me = s.seats[seat];
  if (s.phase !== 'draw' || me.drawDone) return violation('phase/not-draw', 'You are not drawing now', RULE.draw);
  if (me.drawsTaken >= DRAWS_PER_TURN) return violation('draw/no-more', 'You have drawn your three cards this turn', RULE.draw);
  const commandsLeft = commandCardsLeft(s) > 0;
  if (me.drawsTaken === 0 && from === 'reserves' && commandsLeft)
    return violation('draw/command-first', 'The first card drawn each turn is a Command card', RULE.draw);
  if (from === 'command') {
    if (!commandsLeft) return violation('draw/command-deck-empty', 'No Command cards are left to draw', RULE.draw);
    drawCommand(out, ctx, seat);
  } else {
    const top = me.reserves[0];
    if (top === undefined) return violation('draw/reserves-empty', 'Your Reserves deck is empty', RULE.draw);
    out.emit({ type: 'CardDrawn', seat, kind: 'unit', card: top }, onlySeats(seat));
  }
  out.emit({ type: 'DrawCounted', seat, kind: from === 'command' ? 'command' : 'unit' });
  finishDraw(out, seat);
  return undefined;
}

/** A seat's draw phase ends after three draws (or when nothing is left to draw) and within the hand limits. */
export function finishDraw(out: Out, seat: Side): void {
  const me = out.s.seats[seat];
  if (me.drawDone || out.s.phase !== 'draw') return;
  const nothingLeft = me.reserves.length === 0 && commandCardsLeft(out.s) === 0;
  if (me.drawsTaken < DRAWS_PER_TURN && nothingLeft) out.emit({ type: 'DrawsSkipped', seat });
  const now = out.s.seats[seat];
  if (now.drawsTaken < DRAWS_PER_TURN || now.hand.length > HAND_LIMIT_UNITS || now.commands.length > HAND_LIMIT_COMMANDS) return;
  out.emit({ type: 'DrawFinished', seat });
  if (SEATS.every((x) => out.s.seats[x].drawDone)) out.emit({ type: 'TurnBegan', turn: out.s.turn + 1 });
}
