// Card ids in the scenarios' orders of battle and decks: a side's catalog id, and n copies of one card.
export const us = (card: string) => `us-${card}`;
export const de = (card: string) => `de-${card}`;
export const repeat = (n: number, card: string): string[] => Array.from({ length: n }, () => card);
