import { describe, expect, it } from 'vitest';
import { afterDraw, deckCounts, deckOf, discarded, drawn, peek, planDraw, reshuffled, scriptedRng, seededRng, withOrder } from '../../domain/kernel/index.js';

/** The kernel deck: planned in decide with the committed dice, applied in evolve from what the events say. */
const reverse = <T>(items: readonly T[]): T[] => [...items].reverse();

describe('kernel deck', () => {
  it('draws from the top and counts both piles; only the discard top is face up', () => {
    const d = discarded(drawn(deckOf(['a', 'b', 'c', 'd']), ['a']), ['a']);
    expect(d).toEqual({ draw: ['b', 'c', 'd'], discard: ['a'] });
    expect(deckCounts(d)).toEqual({ draw: 3, discard: 1, topDiscard: 'a' });
    expect(deckCounts(deckOf([]))).toEqual({ draw: 0, discard: 0 });
    expect(peek(d, 2)).toEqual(['b', 'c']);
    expect(peek(d, 9)).toEqual(['b', 'c', 'd']);
  });

  it('plans a draw without touching the dice while the draw pile lasts', () => {
    const rng = scriptedRng([]);
    const plan = planDraw(deckOf(['a', 'b', 'c']), 2, rng, { reshuffle: 'when-empty' });
    expect(plan).toEqual({ cards: ['a', 'b'] });
    expect(rng.counter).toBe(0);
  });

  it('reshuffles the discards under an empty draw pile, once, and draws through', () => {
    const d = { draw: ['x'], discard: ['p', 'q', 'r'] };
    const plan = planDraw(d, 3, scriptedRng([], reverse), { reshuffle: 'when-empty' });
    expect(plan).toEqual({ reshuffle: ['r', 'q', 'p'], cards: ['x', 'r', 'q'] });
    expect(afterDraw(d, plan)).toEqual({ draw: ['p'], discard: [] });
  });

  it('stops short when it may not reshuffle, or nothing is left to reshuffle', () => {
    expect(planDraw({ draw: ['x'], discard: ['p'] }, 3, scriptedRng([]), { reshuffle: 'never' })).toEqual({ cards: ['x'] });
    expect(planDraw({ draw: ['x'], discard: [] }, 3, scriptedRng([]), { reshuffle: 'when-empty' })).toEqual({ cards: ['x'] });
  });

  it('a shuffle with the committed dice is a permutation, and replays to the same order', () => {
    const cards = Array.from({ length: 52 }, (_, i) => `c${i}`);
    const input = { seed: 'ab'.repeat(32), gameId: 'g', entropy: ['', ''], counter: 0 };
    const a = planDraw({ draw: [], discard: cards }, 5, seededRng(input), { reshuffle: 'when-empty' });
    const b = planDraw({ draw: [], discard: cards }, 5, seededRng(input), { reshuffle: 'when-empty' });
    expect(a).toEqual(b);
    expect([...a.reshuffle!].sort()).toEqual([...cards].sort());
    expect(a.cards).toEqual(a.reshuffle!.slice(0, 5));
    expect(withOrder(deckOf(cards), a.reshuffle!).draw).toEqual(a.reshuffle);
    expect(reshuffled({ draw: [], discard: cards }, a.reshuffle!).discard).toEqual([]);
  });
});
