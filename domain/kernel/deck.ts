import type { Rng } from './random.js';

/**
 * A deck of cards for any engine: a face-down draw pile (top first) and a face-up discard pile
 * (newest last). Pure values and functions: `decide` plans with the committed dice and writes
 * what happened into events (the new order of a shuffle, hidden; the cards drawn, seen by whoever
 * may see them), and `evolve` applies those events with the same functions, so replay never
 * rolls. Everyone may know how many cards each pile holds (deckCounts); only the order is secret.
 */
export interface Deck {
  readonly draw: readonly string[];
  readonly discard: readonly string[];
}

export const deckOf = (cards: readonly string[]): Deck => ({ draw: [...cards], discard: [] });

/** The counts every seat may see, and the face-up top of the discard pile. */
export const deckCounts = (d: Deck): { draw: number; discard: number; topDiscard?: string } => {
  const top = d.discard[d.discard.length - 1];
  return { draw: d.draw.length, discard: d.discard.length, ...(top !== undefined ? { topDiscard: top } : {}) };
};

/** The top `n` cards without drawing them: for an event only their owner sees. */
export const peek = (d: Deck, n: number): string[] => d.draw.slice(0, Math.max(0, n));

/** The draw pile in a new order (from a shuffle event): every card already in it, nothing else. */
export function withOrder(d: Deck, order: readonly string[]): Deck {
  return { ...d, draw: [...order] };
}

/** The discard pile shuffled under an empty draw pile: `order` is the shuffled discards. */
export function reshuffled(d: Deck, order: readonly string[]): Deck {
  const back = new Set(order);
  return { draw: [...d.draw, ...order], discard: d.discard.filter((c) => !back.has(c)) };
}

/** Takes the named cards out of the draw pile (a draw, once its cards are known). */
export function drawn(d: Deck, cards: readonly string[]): Deck {
  const gone = new Set(cards);
  return { ...d, draw: d.draw.filter((c) => !gone.has(c)) };
}

export const discarded = (d: Deck, cards: readonly string[]): Deck => ({ ...d, discard: [...d.discard, ...cards] });

/** What a draw of `n` cards will do, planned in decide: the reshuffle it needs first (if any) and the cards it yields. */
export interface DrawPlan {
  /** The discards shuffled back under the draw pile before (or while) drawing, when it ran out; record it hidden. */
  readonly reshuffle?: readonly string[];
  /** The cards drawn, top first; fewer than asked when both piles run out. */
  readonly cards: readonly string[];
}

/**
 * Plans a draw of `n` cards. With `reshuffle: 'when-empty'` the discard pile is shuffled into
 * a new draw pile when the draw pile runs out (once per draw); with 'never' the draw stops short.
 */
export function planDraw(d: Deck, n: number, rng: Rng, opts: { reshuffle: 'when-empty' | 'never' }): DrawPlan {
  const first = d.draw.slice(0, n);
  if (first.length === n || opts.reshuffle === 'never' || d.discard.length === 0) return { cards: first };
  const order = rng.shuffle(d.discard);
  return { reshuffle: order, cards: [...first, ...order.slice(0, n - first.length)] };
}

/** A deck after a planned draw: the reshuffle applied, then the cards taken. */
export const afterDraw = (d: Deck, plan: DrawPlan): Deck => drawn(plan.reshuffle ? reshuffled(d, plan.reshuffle) : d, plan.cards);
