import { describe, expect, it } from 'vitest';
import { createRegistry, verifyLog } from '../../domain/kernel/index.js';
import { spearpoint } from '../../domain/spearpoint/index.js';
import { CheckedGame } from './harness.js';

/**
 * A client that always sends the first command offered (as a simple bot or an end-to-end test
 * would) still plays a game to its end: legalCommands lists order steps before sealing and
 * progress before the commands that change nothing.
 */
/** Fixture results for this seed: a rules change that alters play shows up here (update them on purpose). */
// Updated when muster picks began to draw from the secret dice (muster.ts): every later roll moved.
// Then one event more in each Situation game: its friendly-fire pause now records the held +1 cards (BoostsHeld).
// Rules version 3: the same games, twelve events more each, as the starting hands became a sealed order (a step each, a seal each).
const FIXTURES = [
  { options: {}, outcome: { winners: ['de'], score: { us: 6, de: 17 } }, events: 434 },
  { options: { situation: 'tiger-hunt' }, outcome: { winners: ['de'], score: { us: 14, de: 17 } }, events: 671 },
  { options: { situation: 'hold-the-line' }, outcome: { winners: ['us'], score: { us: 14, de: 17 } }, events: 494 },
];

describe('always taking the first legal command', () => {
  for (const { options, outcome, events } of FIXTURES) {
    it(`finishes a ${JSON.stringify(options)} game, and its log verifies`, () => {
      const game = new CheckedGame('7a'.repeat(32), 'first-offer', { checkedEvents: 0, checkedViews: 0 });
      game.start(options);
      let commands = 0;
      while (game.state!.meta.status === 'active') {
        const seat = spearpoint.pending(game.state!.game)[0]!.seat as 'us' | 'de';
        game.play(seat, spearpoint.legalCommands(game.state!.game, seat)[0]);
        expect(++commands).toBeLessThan(1000);
      }
      expect(game.state!.meta.outcome).toMatchObject(outcome);
      expect(game.state!.meta.outcome!.reason).toMatch(/overran/);
      expect(game.events).toHaveLength(events);
      expect(verifyLog(game.events, createRegistry([spearpoint]).get).problems).toEqual([]);
    });
  }
});
