import { describe, expect, it } from 'vitest';
import { createRegistry, verifyLog } from '../../domain/kernel/index.js';
import { spearpoint } from '../../domain/spearpoint/index.js';
import { CheckedGame } from './harness.js';

/**
 * A client that always sends the first command offered (as a simple bot or an end-to-end test
 * would) still plays a game to its end: legalCommands lists order steps before sealing and
 * progress before the commands that change nothing.
 */
describe('always taking the first legal command', () => {
  for (const options of [{}, { situation: 'tiger-hunt' }, { situation: 'hold-the-line' }]) {
    it(`finishes a ${JSON.stringify(options)} game, and its log verifies`, () => {
      const game = new CheckedGame('7a'.repeat(32), 'first-offer', { checkedEvents: 0, checkedViews: 0 });
      game.start(options);
      let commands = 0;
      while (game.state!.meta.status === 'active') {
        const seat = spearpoint.pending(game.state!.game)[0]!.seat as 'us' | 'de';
        game.play(seat, spearpoint.legalCommands(game.state!.game, seat)[0]);
        expect(++commands).toBeLessThan(1000);
      }
      expect(game.state!.meta.outcome?.reason).toBeTruthy();
      expect(verifyLog(game.events, createRegistry([spearpoint]).get).problems).toEqual([]);
    });
  }
});
