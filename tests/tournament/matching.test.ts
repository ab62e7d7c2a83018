import { describe, expect, it } from 'vitest';
import { augmentMatching } from '../../domain/tournament/matching.js';
import { seeded } from '../support/seeded.js';

/** Size of a maximum matching by exhaustive search (small graphs only). */
function bruteForce(n: number, adj: Uint8Array): number {
  const best = (free: number[]): number => {
    if (free.length < 2) return 0;
    const [x, ...rest] = free as [number, ...number[]];
    let b = best(rest); // x stays unmatched
    rest.forEach((y, i) => {
      if (adj[x * n + y]) b = Math.max(b, 1 + best([...rest.slice(0, i), ...rest.slice(i + 1)]));
    });
    return b;
  };
  return best(Array.from({ length: n }, (_, i) => i));
}

describe('blossom matching', () => {
  it('finds a maximum matching on 400 random graphs (odd cycles included), from an empty or a greedy start', () => {
    const random = seeded(7);
    for (let t = 0; t < 400; t++) {
      const n = 2 + Math.floor(random() * 10);
      const density = 0.15 + random() * 0.6;
      const adj = new Uint8Array(n * n);
      for (let i = 0; i < n; i++)
        for (let j = i + 1; j < n; j++)
          if (random() < density) {
            adj[i * n + j] = 1;
            adj[j * n + i] = 1;
          }
      const start = new Int32Array(n).fill(-1);
      if (t % 2 === 1)
        for (let i = 0; i < n; i++)
          for (let j = i + 1; j < n; j++)
            if (adj[i * n + j] && start[i] === -1 && start[j] === -1) {
              start[i] = j;
              start[j] = i;
            }
      const mate = augmentMatching(
        n,
        adj,
        start,
        Array.from({ length: n }, (_, i) => i),
      );
      let size = 0;
      for (let i = 0; i < n; i++) {
        const j = mate[i]!;
        if (j !== -1) {
          expect(mate[j]).toBe(i);
          expect(adj[i * n + j]).toBe(1);
          if (j > i) size++;
        }
      }
      expect(size).toBe(bruteForce(n, adj));
    }
  });
});
