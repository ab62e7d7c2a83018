import type { PlayerId } from './pairing.js';

/**
 * Single elimination, seeded by rating. The bracket has the next power of two slots; the
 * missing players are byes, and they fall to the top seeds (seed 1 meets the last slot, which
 * is empty first). Standard bracket order keeps seeds 1 and 2 apart until the final.
 *
 * A drawn game: the higher seed advances (no replay: a play-by-web game can take weeks). A
 * director who wants otherwise adjudicates the pairing instead.
 */

/** Seeds (1-based) in bracket order for a bracket of `size` slots: 1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight. */
export function bracketOrder(size: number): number[] {
  let order = [1];
  while (order.length < size) {
    const n = order.length * 2;
    order = order.flatMap((s) => [s, n + 1 - s]);
  }
  return order;
}

/** The first round's line-up: slot pairs (0,1), (2,3), ...; null is a bye. */
export function firstLineup(seeds: readonly PlayerId[]): (PlayerId | null)[] {
  let size = 1;
  while (size < seeds.length) size *= 2;
  if (seeds.length < 2) return [...seeds];
  return bracketOrder(size).map((s) => seeds[s - 1] ?? null);
}

/** The higher seed of two (lower index in the starting list). */
export const higherSeed = (seeds: readonly PlayerId[], a: PlayerId, b: PlayerId): PlayerId => (seeds.indexOf(a) <= seeds.indexOf(b) ? a : b);

/**
 * Who goes through from one match: the winner; on a draw the higher seed; nobody if both
 * forfeited (0-0), which gives the next opponent a bye.
 */
export function advancing(seeds: readonly PlayerId[], seats: readonly [PlayerId, PlayerId], points: readonly [number, number]): PlayerId | null {
  if (points[0] > points[1]) return seats[0];
  if (points[1] > points[0]) return seats[1];
  if (points[0] === 0) return null;
  return higherSeed(seeds, seats[0], seats[1]);
}

/** Places in a finished bracket: champion, finalist, then by the round each went out in, seed within. */
export function eliminationPlaces(
  seeds: readonly PlayerId[],
  wentOutIn: ReadonlyMap<PlayerId, number>,
  champion: PlayerId | null,
): { player: PlayerId; rank: number; round: number }[] {
  const last = Math.max(0, ...wentOutIn.values());
  const roundOf = (p: PlayerId) => (p === champion ? last + 1 : (wentOutIn.get(p) ?? 0));
  const sorted = [...seeds].sort((a, b) => roundOf(b) - roundOf(a) || seeds.indexOf(a) - seeds.indexOf(b));
  let rank = 0;
  return sorted.map((player, i) => {
    if (i === 0 || roundOf(sorted[i - 1]!) !== roundOf(player)) rank = i + 1;
    return { player, rank, round: roundOf(player) };
  });
}
