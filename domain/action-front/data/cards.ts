/**
 * The standard 52-card deck that Action Front! uses instead of dice (004 Introduction: jokers
 * removed). A card id is its rank then its suit letter: "AH" (Ace of Hearts), "10D", "KC".
 */
export const SUITS = ['C', 'D', 'H', 'S'] as const;
export type Suit = (typeof SUITS)[number];
const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'] as const;

/** The 52 cards in a fixed order (suit by suit); the game shuffles them with the committed dice. */
export const FULL_DECK: readonly string[] = SUITS.flatMap((s) => RANKS.map((r) => `${r}${s}`));

export const suitOf = (card: string): Suit => card.slice(-1) as Suit;
const rankOf = (card: string): string => card.slice(0, -1);

/** Jack, Queen, King: automatic misses in combat (004 Resolving Artillery and Naval Fire, step 5). */
export const isFace = (card: string): boolean => ['J', 'Q', 'K'].includes(rankOf(card));

/**
 * A card's number: Ace 1 (ruling: 004 never states it; the M2 HMG example hits with an Ace
 * at Soft Attack 4), 2–10 as printed; face cards have no value (undefined).
 */
export function cardValue(card: string): number | undefined {
  const r = rankOf(card);
  if (r === 'A') return 1;
  if (isFace(card)) return undefined;
  return Number(r);
}

/** Hearts and diamonds: the cards counted in an Assault (004 Resolving Assaults). */
export const isRed = (card: string): boolean => suitOf(card) === 'H' || suitOf(card) === 'D';

/** Clubs and spades point left in a drift tie-break, hearts and diamonds right (004 Resolving Artillery, step 4). */
export const tieBreakSide = (card: string): 'left' | 'right' => (isRed(card) ? 'right' : 'left');
