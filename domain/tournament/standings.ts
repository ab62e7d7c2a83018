import type { PlayerId } from './pairing.js';

/** One finished game of an event: the points each seat scored (1/0, ½/½, 0/1, or 0/0 when both forfeit). */
export interface GameScore {
  readonly round: number;
  readonly seats: readonly [PlayerId, PlayerId];
  readonly points: readonly [number, number];
}

/** A round without a game: a bye (Swiss: a full point; round robin: none, the player rests). */
export interface ByeScore {
  readonly round: number;
  readonly player: PlayerId;
  readonly points: number;
}

export interface Entrant {
  readonly player: PlayerId;
  /** Place in the starting list, 0 for the top seed: the last tiebreak. */
  readonly seed: number;
  readonly withdrawn?: boolean;
}

export type TiebreakSystem = 'round-robin' | 'swiss';

export interface Tiebreaks {
  /** Round robin: points scored against the other players tied on points. */
  readonly headToHead?: number;
  /** Round robin: the sum of the final points of every opponent beaten and half those of every opponent drawn. */
  readonly sonnebornBerger?: number;
  /** Swiss: the sum of the final points of every opponent met. */
  readonly buchholz?: number;
  /** Swiss: Buchholz without the best and the worst opponent's points (with three or more opponents). */
  readonly medianBuchholz?: number;
}

export interface Standing {
  /** 1 for the leader; players equal on points and every tiebreak (seed aside) share a rank. */
  readonly rank: number;
  readonly player: PlayerId;
  readonly points: number;
  readonly played: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  readonly byes: number;
  readonly tiebreaks: Tiebreaks;
  /** Single elimination: the last round played (the champion one more than the final). */
  readonly roundReached?: number;
  readonly withdrawn?: boolean;
}

/** Order of the tiebreaks, after points and before the seed. */
export const TIEBREAKS: Readonly<Record<TiebreakSystem, readonly (keyof Tiebreaks)[]>> = {
  'round-robin': ['headToHead', 'sonnebornBerger'],
  swiss: ['buchholz', 'medianBuchholz'],
};

interface Tally {
  points: number;
  played: number;
  wins: number;
  draws: number;
  losses: number;
  byes: number;
  /** Per game: opponent and own points. */
  games: { opponent: PlayerId; own: number }[];
}

/**
 * The table of a round robin or a Swiss event. Points first; then, for a round robin,
 * head-to-head among the players tied on points and Sonneborn-Berger; for Swiss, Buchholz
 * and median Buchholz; the seed last. Byes bring their points but no opponent, so they add
 * nothing to another player's tiebreaks; a forfeited game counts as played, like any result.
 */
export function computeStandings(system: TiebreakSystem, entrants: readonly Entrant[], games: readonly GameScore[], byes: readonly ByeScore[]): Standing[] {
  const tallies = new Map<PlayerId, Tally>(entrants.map((e) => [e.player, { points: 0, played: 0, wins: 0, draws: 0, losses: 0, byes: 0, games: [] }]));
  const tally = (p: PlayerId): Tally => {
    const t = tallies.get(p);
    if (t === undefined) throw new RangeError(`result for a player not entered: ${p}`);
    return t;
  };
  for (const g of games) {
    for (const side of [0, 1] as const) {
      const t = tally(g.seats[side]);
      const own = g.points[side];
      const other = g.points[side === 0 ? 1 : 0];
      t.points += own;
      t.played += 1;
      if (own > other) t.wins += 1;
      else if (own < other) t.losses += 1;
      else t.draws += 1;
      t.games.push({ opponent: g.seats[side === 0 ? 1 : 0], own });
    }
  }
  for (const b of byes) {
    const t = tally(b.player);
    t.points += b.points;
    t.byes += 1;
  }
  const pointsOf = (p: PlayerId) => tally(p).points;

  const tiebreaks = new Map<PlayerId, Tiebreaks>();
  for (const e of entrants) {
    const t = tally(e.player);
    if (system === 'round-robin') {
      // Sonneborn-Berger: own points in each game times the opponent's final points.
      const sonnebornBerger = t.games.reduce((s, g) => s + g.own * pointsOf(g.opponent), 0);
      const tiedWith = new Set(entrants.filter((o) => o.player !== e.player && pointsOf(o.player) === t.points).map((o) => o.player));
      const headToHead = t.games.filter((g) => tiedWith.has(g.opponent)).reduce((s, g) => s + g.own, 0);
      tiebreaks.set(e.player, { headToHead, sonnebornBerger });
    } else {
      const opp = t.games.map((g) => pointsOf(g.opponent)).sort((a, b) => a - b);
      const buchholz = opp.reduce((s, x) => s + x, 0);
      const medianBuchholz = opp.length >= 3 ? buchholz - opp[0]! - opp[opp.length - 1]! : buchholz;
      tiebreaks.set(e.player, { buchholz, medianBuchholz });
    }
  }

  const order = TIEBREAKS[system];
  const key = (e: Entrant): number[] => [pointsOf(e.player), ...order.map((k) => tiebreaks.get(e.player)![k] ?? 0)];
  const compare = (a: Entrant, b: Entrant): number => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i]! - ka[i]!;
    return 0;
  };
  const sorted = [...entrants].sort((a, b) => compare(a, b) || a.seed - b.seed);
  let rank = 0;
  return sorted.map((e, i) => {
    if (i === 0 || compare(sorted[i - 1]!, e) !== 0) rank = i + 1;
    const t = tally(e.player);
    return {
      rank,
      player: e.player,
      points: t.points,
      played: t.played,
      wins: t.wins,
      draws: t.draws,
      losses: t.losses,
      byes: t.byes,
      tiebreaks: tiebreaks.get(e.player)!,
      ...(e.withdrawn ? { withdrawn: true } : {}),
    };
  });
}
