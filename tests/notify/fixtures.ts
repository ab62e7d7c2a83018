import type { Notice } from '../../functions/notify/decide.js';

export const NOW = '2026-11-21T10:00:00.000Z';

let n = 0;

/** A "your turn" notice for bob (seat p2) in a dice-race game; each call names a new game. */
export const turnNotice = (prefix = 'g', over: Partial<Notice> = {}): Notice => {
  n += 1;
  return {
    key: `${prefix}${n}#turn#p2#5`,
    kind: 'turn',
    gameId: `${prefix}${n}`,
    title: 'Dice Race (test fixture)',
    engine: 'dice-race',
    player: 'bob',
    seats: ['p2'],
    sides: ['Player 2'],
    asked: [{ seat: 'p2', name: 'Player 2', kind: 'move', prompt: 'Roll a die or play your card' }],
    opponents: [{ seat: 'p1', name: 'Player 1', player: 'alice' }],
    version: 5,
    hash: 'f0'.repeat(32),
    at: NOW,
    ...over,
  };
};

/**
 * An email address as stored once its owner confirmed it (the notifier mails only verified
 * addresses): for setups whose subject is delivery, not verification (email-verification.test.ts).
 */
export const verifiedEmail = (email: string) => ({ email, emailVerifiedAt: NOW });
