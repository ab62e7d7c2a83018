/**
 * What every format's pairing function returns: who plays whom and on which side, and who
 * sits the round out. Seat 0 and seat 1 are the two sides of a two-player game (the engine
 * decides what they mean: Axis and Allies, first and second player).
 */
export type PlayerId = string;
export type Side = 0 | 1;

export interface Pair {
  /** seats[0] takes side 0, seats[1] side 1. */
  readonly seats: readonly [PlayerId, PlayerId];
}

export interface RoundPlan {
  readonly pairs: readonly Pair[];
  /** Players without a game this round (an odd field, or a bracket bye). */
  readonly byes: readonly PlayerId[];
}

/** Side balance so far: sides played, oldest first. */
export const sideBalance = (sides: readonly Side[]): number => sides.reduce<number>((d, s) => d + (s === 0 ? 1 : -1), 0);

/**
 * Which of two players takes side 0, so sides alternate fairly: the one who has played
 * side 0 less often; on equal balance the one who played side 1 most recently where their
 * histories differ; otherwise the first argument (the caller passes the higher-ranked
 * player first).
 */
export function orderSides(a: PlayerId, sidesA: readonly Side[], b: PlayerId, sidesB: readonly Side[]): readonly [PlayerId, PlayerId] {
  const da = sideBalance(sidesA);
  const db = sideBalance(sidesB);
  if (da !== db) return da < db ? [a, b] : [b, a];
  for (let i = 1; i <= Math.max(sidesA.length, sidesB.length); i++) {
    const la = sidesA[sidesA.length - i];
    const lb = sidesB[sidesB.length - i];
    if (la !== undefined && lb !== undefined && la !== lb) return la === 1 ? [a, b] : [b, a];
    if (la === undefined || lb === undefined) break;
  }
  return [a, b];
}

/**
 * The side a player should have next, and how strongly: absolute after two of the same side
 * in a row or a balance of two, mild otherwise; undefined before a first game.
 */
export function sideWanted(sides: readonly Side[]): { side: Side; absolute: boolean } | undefined {
  if (sides.length === 0) return undefined;
  const d = sideBalance(sides);
  const last = sides[sides.length - 1]!;
  const twice = sides.length >= 2 && sides[sides.length - 2] === last;
  if (d >= 2 || (twice && last === 0)) return { side: 1, absolute: true };
  if (d <= -2 || (twice && last === 1)) return { side: 0, absolute: true };
  if (d !== 0) return { side: d > 0 ? 1 : 0, absolute: false };
  return { side: last === 0 ? 1 : 0, absolute: false };
}
