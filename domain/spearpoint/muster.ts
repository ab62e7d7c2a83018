import type { Ctx } from '../kernel/engine.js';
import type { Rng } from '../kernel/random.js';
import { violation, type RuleViolation } from '../kernel/errors.js';
import { err, ok, type Result } from '../kernel/result.js';
import { onlySeats } from '../kernel/visibility.js';
import type { Side } from '../frontline-general/data/schema.js';
import { atLeast, cardEntry, SEATS, type Command, type OrderStep, type State } from './model.js';
import { draftOrder } from './orders.js';
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

/** How many units the seat's muster order must pick: the rest of a hand of 4, or what is left in its deck. */
export const picksWanted = (s: State, seat: Side): number => Math.max(0, Math.min(STARTING_HAND - s.seats[seat].hand.length, s.seats[seat].reserves.length));

/** Rules version 3: a PickStartingUnit step of the sealed muster order (no dice: which copy is drawn at the seal). */
export function checkPickStep(s: State, seat: Side, c: Extract<Command, { type: 'PickStartingUnit' }>): Result<OrderStep, RuleViolation> {
  if (s.phase !== 'muster') return err(violation('phase/not-muster', 'Starting hands are picked before the first turn', RULE.setup));
  const order = s.seats[seat].order;
  const picks = order.filter((x) => x.kind === 'pick');
  if (picks.length >= picksWanted(s, seat)) return err(violation('muster/hand-full', `Your starting hand is ${STARTING_HAND} units; seal it`, RULE.setup));
  const copies = pickable(s, seat).filter((u) => cardEntry(s, u)!.card === c.card).length;
  if (copies <= picks.filter((x) => x.kind === 'pick' && x.card === c.card).length)
    return err(violation('muster/not-in-deck', `No ${c.card} is left in your Reserves deck`, RULE.setup));
  return ok({ kind: 'pick', card: c.card });
}

/**
 * Rules version 3: the muster order is sealed. Each pick takes a copy of its card with the
 * secret dice; AutoPickHand then fills the rest. Whatever was picked, the other side sees one
 * private event per unit of the hand and the public StartingHandReady: nothing tells a pick
 * from the server's choice.
 */
export function sealMuster(s: State, seat: Side, order: readonly OrderStep[], ctx: Ctx, auto: boolean): Decision {
  const picks = order.flatMap((x) => (x.kind === 'pick' ? [x.card] : []));
  const wanted = picksWanted(s, seat);
  if (!auto && picks.length < wanted)
    return no(
      'muster/hand-incomplete',
      `Pick ${wanted} units for your starting hand (you picked ${picks.length}), or let AutoPickHand pick the rest`,
      RULE.setup,
    );
  const out = new Out(s);
  out.emit({ type: 'OrderFinalized', seat, steps: [...order] }, onlySeats(seat));
  for (const card of picks) out.emit({ type: 'StartingUnitPicked', seat, unit: pickCopy(out.s, seat, card, ctx.rng)! }, onlySeats(seat));
  if (auto) for (const unit of autoHand(out.s, seat, ctx.rng)) out.emit({ type: 'StartingUnitPicked', seat, unit }, onlySeats(seat));
  out.emit({ type: 'StartingHandReady', seat });
  if (SEATS.every((x) => out.s.seats[x].handReady)) out.emit({ type: 'TurnBegan', turn: 1 });
  return ok(out.list);
}

/** PickStartingUnit (version 2) or AutoPickHand: the starting hand, picked privately; the first turn begins when both hands are ready. */
export function decideMuster(s: State, seat: Side, c: Extract<Command, { type: 'PickStartingUnit' | 'AutoPickHand' }>, ctx: Ctx): Decision {
  const me = s.seats[seat];
  if (s.phase !== 'muster') return no('phase/not-muster', 'Starting hands are picked before the first turn', RULE.setup);
  if (me.handReady) return no('muster/hand-ready', 'Your starting hand is complete', RULE.setup);
  if (atLeast(s, 3) && c.type === 'AutoPickHand') {
    const drafted = draftOrder(s, seat, c.steps);
    if (!drafted.ok) return drafted;
    return sealMuster(s, seat, drafted.value.seats[seat].order, ctx, true);
  }
  if (c.type === 'AutoPickHand' && c.steps !== undefined) return no('muster/no-steps', 'Under these rules (version 2) units are picked one by one', RULE.setup);
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
