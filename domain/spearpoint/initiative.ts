import type { Ctx } from '../kernel/engine.js';
import type { Side } from './data/schema.js';
import { other, SEATS, type OrderStep, type State } from './model.js';
import type { Out } from './out.js';
import { initiativeModifier, initiativeWinner } from './rules.js';

/**
 * 001 Combat Phase: Initiative. After the declarations each side rolls 1d10 plus its modifiers
 * (Ambush!, and a Command card discarded for +1), ties rolled again; the winner resolves the
 * first attack, then the sides alternate (attack.ts).
 */

/** Rolls Initiative for the revealed orders and begins the combat with the winner's choice. */
export function rollInitiative(out: Out, ctx: Ctx, orders: Record<Side, OrderStep[]>): void {
  const boost = { us: 0, de: 0 };
  for (const seat of SEATS) {
    for (const st of orders[seat]) {
      if (st.kind !== 'initiativeBoost' || !out.s.seats[seat].commands.includes(st.card)) continue;
      out.emit({ type: 'CommandCardDiscardedForBonus', seat, card: st.card, roll: 'initiative' });
      boost[seat] = 1;
    }
  }
  const modifiers = { us: initiativeModifier(out.s, 'us') + boost.us, de: initiativeModifier(out.s, 'de') + boost.de };
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

/** The seat to resolve the next attack: the one whose turn it is if it has attacks left, else the other; null when none remain. */
export function nextChooser(s: State, preferred: Side): Side | null {
  const has = (seat: Side) => s.attacks.some((a) => a.seat === seat && a.status === 'pending');
  return has(preferred) ? preferred : has(other(preferred)) ? other(preferred) : null;
}
