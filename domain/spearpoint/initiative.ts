import type { Ctx } from '../kernel/engine.js';
import { onlySeats } from '../kernel/visibility.js';
import type { Side } from '../frontline-general/data/schema.js';
import { atLeast, other, SEATS, type OrderStep, type State } from './model.js';
import type { Out } from './out.js';
import { initiativeModifier, initiativeWinner } from './rules.js';

/**
 * 001 Combat Phase: Initiative. After the declarations each side rolls 1d10 plus its modifiers
 * (Ambush!, and a Command card discarded for +1), ties rolled again; the winner resolves the
 * first attack, then the sides alternate (attack.ts).
 *
 * A card discarded for +1 improves the one roll it was discarded before (001 Gameplay: Command
 * cards). From rules version 3 a re-roll after a tie is a roll of its own: the 'initiative'
 * phase asks each side, sealed, whether to discard a card for +1 on it (a side with no card in
 * hand, a public count, is not asked). Version 2 rolled every re-roll at once with the first
 * roll's +1 still counted.
 */

/** Discards the +1 cards the orders set aside (still in hand) and gives each side's modifier for the next roll. */
function modifiersFor(out: Out, orders: Record<Side, readonly OrderStep[]>): { us: number; de: number } {
  const boost = { us: 0, de: 0 };
  for (const seat of SEATS) {
    for (const st of orders[seat]) {
      if (st.kind !== 'initiativeBoost' || !out.s.seats[seat].commands.includes(st.card)) continue;
      out.emit({ type: 'CommandCardDiscardedForBonus', seat, card: st.card, roll: 'initiative' });
      boost[seat] = 1;
    }
  }
  return { us: initiativeModifier(out.s, 'us') + boost.us, de: initiativeModifier(out.s, 'de') + boost.de };
}

/** Rolls Initiative for the revealed orders and begins the combat with the winner's choice. */
export function rollInitiative(out: Out, ctx: Ctx, orders: Record<Side, OrderStep[]>): void {
  const modifiers = modifiersFor(out, orders);
  if (atLeast(out.s, 3)) return rollOnce(out, ctx, modifiers);
  const rolls: { us: number; de: number }[] = [];
  let winner: Side | null = null;
  while (winner === null) {
    const r = { us: ctx.rng.die(10), de: ctx.rng.die(10) };
    rolls.push(r);
    winner = initiativeWinner(r.us + modifiers.us, r.de + modifiers.de);
  }
  out.emit({ type: 'InitiativeRolled', rolls, modifiers, winner });
  out.emit({ type: 'CombatBegan', chooser: nextChooser(out.s, winner) });
}

/** Both sides have answered the tie (version 3): their +1 cards are discarded and Initiative is rolled again. */
export function rerollInitiative(out: Out, ctx: Ctx): void {
  const orders = { us: [...out.s.seats.us.order], de: [...out.s.seats.de.order] };
  rollOnce(out, ctx, modifiersFor(out, orders));
}

function rollOnce(out: Out, ctx: Ctx, modifiers: { us: number; de: number }): void {
  const r = { us: ctx.rng.die(10), de: ctx.rng.die(10) };
  const winner = initiativeWinner(r.us + modifiers.us, r.de + modifiers.de);
  if (winner !== null) {
    out.emit({ type: 'InitiativeRolled', rolls: [...out.s.initiativeTies, r], modifiers, winner });
    out.emit({ type: 'CombatBegan', chooser: nextChooser(out.s, winner) });
    return;
  }
  out.emit({ type: 'InitiativeTied', roll: r, modifiers });
  // A side without a Command card has nothing to discard: its answer is given for it.
  for (const seat of SEATS) {
    if (out.s.seats[seat].commands.length > 0) continue;
    out.emit({ type: 'OrderFinalized', seat, steps: [] }, onlySeats(seat));
    out.emit({ type: 'OrderSealed', seat });
  }
  if (SEATS.every((x) => out.s.seats[x].sealed)) rerollInitiative(out, ctx);
}

/** The seat to resolve the next attack: the one whose turn it is if it has attacks left, else the other; null when none remain. */
export function nextChooser(s: State, preferred: Side): Side | null {
  const has = (seat: Side) => s.attacks.some((a) => a.seat === seat && a.status === 'pending');
  return has(preferred) ? preferred : has(other(preferred)) ? other(preferred) : null;
}
