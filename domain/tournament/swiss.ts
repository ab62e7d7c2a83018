import { augmentMatching } from './matching.js';
import { orderSides, sideWanted, type Pair, type PlayerId, type RoundPlan, type Side } from './pairing.js';

/** A player still in a Swiss event, as the pairing sees them before a round. */
export interface SwissEntrant {
  readonly id: PlayerId;
  readonly score: number;
  /** Place in the starting list, 0 for the top seed (by rating at the start). */
  readonly seed: number;
  /** Everyone already met (forfeited games count: the pair was made once). */
  readonly opponents: readonly PlayerId[];
  /** Sides played, oldest first. */
  readonly sides: readonly Side[];
  /** Byes already received. */
  readonly byes: number;
}

/** How many of the lowest-ranked bye candidates are tried one by one before the matching decides. */
const BYE_TRIES = 8;

interface Field {
  readonly ranked: readonly SwissEntrant[];
  readonly allowed: Uint8Array;
}

/**
 * Pairs one Swiss round. Rules, in order of priority:
 *   1. no rematch while any pairing of the round avoids one (and then as few as possible);
 *   2. an odd field gives one bye, to the lowest-ranked player who has not had one and whose
 *      absence leaves a field that can still be paired without rematches;
 *   3. players meet others of their own score group, the top half against the bottom half
 *      (1 v n/2+1, 2 v n/2+2, ...), the odd one out floating down to the next group;
 *   4. sides alternate: two players who both must have the same side are not paired while
 *      another opponent will do, and within a pair the side goes to whoever is owed it.
 * Fast on large fields: a greedy pass over score groups (O(n²)), then Edmonds' blossom
 * algorithm repairs whatever the greedy pass left unpaired along augmenting paths, so rule 1
 * holds without exponential backtracking.
 */
export function pairSwiss(entrants: readonly SwissEntrant[]): RoundPlan {
  const ranked = [...entrants].sort((a, b) => b.score - a.score || a.seed - b.seed || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const n = ranked.length;
  if (n === 0) return { pairs: [], byes: [] };
  const index = new Map(ranked.map((e, i) => [e.id, i]));
  const allowed = new Uint8Array(n * n).fill(1);
  for (let i = 0; i < n; i++) {
    allowed[i * n + i] = 0;
    for (const o of ranked[i]!.opponents) {
      const j = index.get(o);
      if (j !== undefined) {
        allowed[i * n + j] = 0;
        allowed[j * n + i] = 0;
      }
    }
  }
  const field: Field = { ranked, allowed };
  const everyone = ranked.map((_, i) => i);
  if (n % 2 === 0) return plan(field, pairActive(field, everyone).mate, []);

  const fewest = Math.min(...ranked.map((e) => e.byes));
  const candidates = everyone.filter((i) => ranked[i]!.byes === fewest).reverse();
  for (const c of candidates.slice(0, BYE_TRIES)) {
    const result = pairActive(field, without(everyone, c), c);
    if (result.perfect) return plan(field, result.mate, [c]);
  }
  // Let the matching choose the bye among the remaining candidates: a phantom vertex n stands for it.
  const rest = candidates.slice(BYE_TRIES);
  if (rest.length > 0) {
    const m = n + 1;
    const withBye = new Uint8Array(m * m);
    for (let i = 0; i < n; i++) withBye.set(allowed.subarray(i * n, i * n + n), i * m);
    for (const c of rest) {
      withBye[c * m + n] = 1;
      withBye[n * m + c] = 1;
    }
    const mate = augmentMatching(m, withBye, new Int32Array(m).fill(-1), [n, ...everyone.slice().reverse()]);
    if (mate.every((x) => x !== -1)) {
      const bye = mate[n]!;
      return plan(
        field,
        mate.subarray(0, n).map((x) => (x === n ? -1 : x)),
        [bye],
      );
    }
  }
  // No bye leaves a rematch-free field: the lowest candidate sits out, rematches kept to the fewest.
  const c = candidates[0]!;
  return plan(field, pairActive(field, without(everyone, c), c).mate, [c]);
}

const without = (xs: readonly number[], x: number): number[] => xs.filter((y) => y !== x);

/**
 * Pairs more of a score group among itself (the group's own matching, grown along augmenting
 * paths over pairs that are no rematch and no side clash); answers who is left to float.
 */
function regroup(group: readonly number[], mate: Int32Array, fits: (a: number, b: number) => boolean): number[] {
  const g = group.length;
  const local = new Map(group.map((x, i) => [x, i]));
  if (group.every((x) => mate[x] !== -1)) return [];
  const sub = new Uint8Array(g * g);
  for (let i = 0; i < g; i++) for (let j = 0; j < g; j++) sub[i * g + j] = i !== j && fits(group[i]!, group[j]!) ? 1 : 0;
  const start = new Int32Array(g).fill(-1);
  group.forEach((x, i) => {
    const m = mate[x]!;
    if (m !== -1) start[i] = local.get(m) ?? -1;
  });
  const order = group.map((_, i) => i).reverse();
  const grown = augmentMatching(g, sub, start, order);
  group.forEach((x, i) => (mate[x] = grown[i] === -1 ? -1 : group[grown[i]!]!));
  return group.filter((x) => mate[x] === -1);
}

/** Greedy score-group pairing, blossom repair, then (only if unavoidable) rematches among the rest. */
function pairActive(field: Field, active: readonly number[], bye?: number): { mate: Int32Array; perfect: boolean } {
  const { ranked } = field;
  const n = ranked.length;
  let allowed = field.allowed;
  if (bye !== undefined) {
    allowed = Uint8Array.from(allowed);
    for (let j = 0; j < n; j++) {
      allowed[bye * n + j] = 0;
      allowed[j * n + bye] = 0;
    }
  }
  const mate = new Int32Array(n).fill(-1);
  const wanted = ranked.map((e) => sideWanted(e.sides));
  // 0: sides fit; 1: both mildly want the same side; 2: one must have the side the other wants too.
  const clash = (a: number, b: number): number => {
    const wa = wanted[a];
    const wb = wanted[b];
    if (wa === undefined || wb === undefined || wa.side !== wb.side) return 0;
    return wa.absolute || wb.absolute ? 2 : 1;
  };
  // Score groups top-down (active is in rank order), floaters joining the group below.
  let floaters: number[] = [];
  let start = 0;
  while (start < active.length) {
    let end = start;
    const score = ranked[active[start]!]!.score;
    while (end < active.length && ranked[active[end]!]!.score === score) end++;
    const group = [...floaters, ...active.slice(start, end)];
    const half = Math.floor(group.length / 2);
    for (let gi = 0; gi < group.length; gi++) {
      const x = group[gi]!;
      if (mate[x] !== -1) continue;
      // S1 player i looks first at S2 from position i on, then the rest of S2, then anyone below.
      const order = gi < half ? [...group.slice(gi + half), ...group.slice(half, gi + half), ...group.slice(gi + 1, half)] : group.slice(gi + 1);
      const free = order.filter((y) => mate[y] === -1 && allowed[x * n + y] === 1);
      const y = free.find((c) => clash(x, c) === 0) ?? free.find((c) => clash(x, c) === 1) ?? free[0];
      if (y !== undefined) {
        mate[x] = y;
        mate[y] = x;
      }
    }
    // Within the group, exchange partners along augmenting paths before anyone floats down (a
    // transposition: 2 v 6 and 5 v 4 where 5 v 6 would be a rematch), so the greedy order never
    // sends down a player the group itself can pair.
    floaters = regroup(group, mate, (a, b) => allowed[a * n + b] === 1 && clash(a, b) < 2);
    start = end;
  }
  const bottomFirst = [...active].reverse();
  const repaired = floaters.length === 0 ? mate : augmentMatching(n, allowed, mate, bottomFirst);
  const left = active.filter((i) => repaired[i] === -1);
  const perfect = left.length === 0;
  repairSides(repaired, active, allowed, n, clash, ranked);
  // Unavoidable rematches: pair what is left in rank order (the matching above was maximum, so these are the fewest).
  for (let k = 0; k + 1 < left.length; k += 2) {
    repaired[left[k]!] = left[k + 1]!;
    repaired[left[k + 1]!] = left[k]!;
  }
  return { mate: repaired, perfect };
}

/**
 * Where the score groups (or the blossom repair) left two players together who both must have
 * the same side, swap partners with another pair if that removes the clash without a rematch
 * and moves the scores of the two pairs apart by at most a point in all.
 */
function repairSides(
  mate: Int32Array,
  active: readonly number[],
  allowed: Uint8Array,
  n: number,
  clash: (a: number, b: number) => number,
  ranked: readonly SwissEntrant[],
): void {
  const score = (i: number) => ranked[i]!.score;
  for (const a of active) {
    const b = mate[a]!;
    if (b === -1 || b < a || clash(a, b) < 2) continue;
    for (const c of active) {
      const d = mate[c]!;
      if (d === -1 || c === a || c === b || d < c) continue;
      for (const [x, y] of [
        [c, d],
        [d, c],
      ] as const) {
        // a takes x, b takes y: scores stay as close (within a point in all), no rematch, no clash left.
        const before = Math.abs(score(a) - score(b)) + Math.abs(score(c) - score(d));
        if (Math.abs(score(a) - score(x)) + Math.abs(score(b) - score(y)) > before + 1) continue;
        if (!allowed[a * n + x] || !allowed[b * n + y] || clash(a, x) === 2 || clash(b, y) === 2) continue;
        mate[a] = x;
        mate[x] = a;
        mate[b] = y;
        mate[y] = b;
        break;
      }
      if (mate[a] !== b) break;
    }
  }
}

function plan(field: Field, mate: Int32Array, byes: number[]): RoundPlan {
  const { ranked } = field;
  const pairs: Pair[] = [];
  for (let i = 0; i < ranked.length; i++) {
    const j = mate[i]!;
    if (j > i) {
      const a = ranked[i]!;
      const b = ranked[j]!;
      // Before anyone has a history (round one), the higher-ranked player's side alternates board by board.
      const fresh = a.sides.length === 0 && b.sides.length === 0 && pairs.length % 2 === 1;
      pairs.push({ seats: fresh ? [b.id, a.id] : orderSides(a.id, a.sides, b.id, b.sides) });
    }
  }
  return { pairs, byes: byes.map((i) => ranked[i]!.id) };
}
