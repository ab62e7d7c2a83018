import type { GameSummary } from '../../domain/kernel/index.js';

type Entry = GameSummary['pending'][number];

/** What a pending entry asks, without its deadline (which moves with every append). */
const askKey = (p: Pick<Entry, 'seat' | 'kind' | 'prompt'>) => `${p.seat}\u0000${p.kind}\u0000${p.prompt}`;

/**
 * The seats a game newly asks to act in `next`: the one definition the "your move" notices and
 * the inbox's since-when share. A seat is newly asked when it is pending now and
 *   - was not pending before, or
 *   - is asked something it was not asked before (a new phase asks the same seat again: the
 *     player whose own command closed the Draw Phase must now give a Commitment order), or
 *   - a new simultaneous round opened: within one sealed round seats only drop out as they
 *     seal, so a sealed ask that was not there before means a fresh round, and every seat with
 *     a sealed ask, the one whose seal closed the last round included, must act again.
 * A seat that stays pending with the same ask (one step of an order, one draw of three) is not.
 */
export function newlyAsked(old: GameSummary | undefined, next: GameSummary): Set<string> {
  const before = new Set((old?.pending ?? []).map(askKey));
  const wasPending = new Set((old?.pending ?? []).map((p) => p.seat));
  const fresh = next.pending.filter((p) => !before.has(askKey(p)));
  const newRound = fresh.some((p) => p.kind === 'sealed');
  const out = new Set<string>();
  for (const p of next.pending) {
    if (!wasPending.has(p.seat) || fresh.includes(p) || (newRound && p.kind === 'sealed')) out.add(p.seat);
  }
  return out;
}
