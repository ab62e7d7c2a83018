import type { Ctx } from '../kernel/engine.js';
import type { Rng } from '../kernel/random.js';
import { ok } from '../kernel/result.js';
import { onlySeats } from '../kernel/visibility.js';
import type { Side } from './data/schema.js';
import { cardEntry, SEATS, type Command, type State } from './model.js';
import { no, Out, type Decision } from './out.js';
import { cardOf, RULE, STARTING_HAND } from './rules.js';

/**
 * The muster: each side takes its starting hand of 4 units from its Reserves deck
 * (001 Two-Player Standard Game Setup). The deck lists are public (they are the game's
 * options), so nothing here may pick by deck-list position: the other side could read the
 * hand, or which copy of identical cards was taken, straight off the list. Picks are made
 * with the secret dice instead, and never by the shuffled order (taking the first copy in
 * the deck would tell the picker that the other copies lie deeper).
 */

/** Units of the seat's deck still available for the starting hand, sorted by id (for listing, never for choosing). */
export const pickable = (s: State, seat: Side): string[] => [...s.seats[seat].reserves].sort();

/**
 * The copy a PickStartingUnit of this catalog card takes: one of the identical copies, at
 * random. Always exactly one draw, however many copies there are, so the dice counter says
 * nothing about the deck either.
 */
export function pickCopy(s: State, seat: Side, card: string, rng: Rng): string | undefined {
  const copies = pickable(s, seat).filter((u) => cardEntry(s, u)!.card === card);
  if (copies.length === 0) return undefined;
  return copies[rng.int(copies.length)];
}

/**
 * The starting hand the server picks (AutoPickHand), at random from what is left: units that
 * need no crew first, then crewed units each with a matching crew, then anything.
 */
export function autoHand(s: State, seat: Side, rng: Rng): string[] {
  const need = Math.max(0, STARTING_HAND - s.seats[seat].hand.length);
  const pool = rng.shuffle(pickable(s, seat));
  const hand: string[] = [];
  const take = (u: string) => {
    hand.push(u);
    pool.splice(pool.indexOf(u), 1);
  };
  for (const u of pool.filter((x) => cardOf(s, x).crew === 'none' && cardOf(s, x).type !== 'crew')) if (hand.length < need) take(u);
  for (const u of [...pool]) {
    if (need - hand.length < 2) break;
    const card = cardOf(s, u);
    if (card.type === 'crew' || card.crew === 'none' || !pool.includes(u)) continue;
    const crew = pool.find((x) => cardOf(s, x).type === 'crew' && cardOf(s, x).crewKind === card.crew);
    if (crew === undefined) continue;
    take(u);
    take(crew);
  }
  while (hand.length < need && pool.length > 0) take(pool[0]!);
  return hand;
}

/** PickStartingUnit or AutoPickHand: the starting hand, picked privately; the first turn begins when both hands are ready. */
export function decideMuster(s: State, seat: Side, c: Extract<Command, { type: 'PickStartingUnit' | 'AutoPickHand' }>, ctx: Ctx): Decision {
  const me = s.seats[seat];
  if (s.phase !== 'muster') return no('phase/not-muster', 'Starting hands are picked before the first turn', RULE.setup);
  if (me.handReady) return no('muster/hand-ready', 'Your starting hand is complete', RULE.setup);
  const out = new Out(s);
  if (c.type === 'PickStartingUnit') {
    const unit = pickCopy(s, seat, c.card, ctx.rng);
    if (!unit) return no('muster/not-in-deck', `No ${c.card} is left in your Reserves deck`, RULE.setup);
    out.emit({ type: 'StartingUnitPicked', seat, unit }, onlySeats(seat));
  } else {
    for (const unit of autoHand(s, seat, ctx.rng)) out.emit({ type: 'StartingUnitPicked', seat, unit }, onlySeats(seat));
  }
  if (out.s.seats[seat].hand.length >= STARTING_HAND || out.s.seats[seat].reserves.length === 0) {
    out.emit({ type: 'StartingHandReady', seat });
    if (SEATS.every((x) => out.s.seats[x].handReady)) out.emit({ type: 'TurnBegan', turn: 1 });
  }
  return ok(out.list);
}
