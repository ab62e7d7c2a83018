import { performance } from 'node:perf_hooks';
import { pairSwiss } from '../../domain/tournament/swiss.js';
import { entrants, simulateSwiss } from './simulate.js';

/**
 * Time to pair one round of a 500-player Swiss in mid-event: round 5, after four rounds of
 * seeded random results (so score groups, colour histories and rematch constraints are real).
 * Several fields (even and odd sizes, different seeds), each paired a few times; reports the
 * median and the worst.
 */
export function benchSwissPairing(): { swissPair500Ms: number; worstMs: number; runs: number } {
  const times: number[] = [];
  for (const [n, seed] of [
    [500, 1],
    [500, 2],
    [501, 3],
    [500, 4],
  ] as const) {
    const { field } = simulateSwiss(n, 4, seed);
    const input = entrants(field);
    pairSwiss(input); // warm-up
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      pairSwiss(input);
      times.push(performance.now() - t0);
    }
  }
  times.sort((a, b) => a - b);
  return { swissPair500Ms: Number(times[Math.floor(times.length / 2)]!.toFixed(2)), worstMs: Number(times[times.length - 1]!.toFixed(2)), runs: times.length };
}
