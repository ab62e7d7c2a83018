import { describe, expect, it } from 'vitest';
import { verifyLog, createRegistry } from '../../domain/kernel/index.js';
import { spearpoint } from '../../domain/spearpoint/index.js';
import { CheckedGame, playRandom, type HiddenStats } from './harness.js';

const SEED = '5e'.repeat(32);
const OPTIONS = [{}, { situation: 'tiger-hunt' }, { situation: 'hold-the-line' }, { us: { preset: 'us-armor' }, de: { preset: 'de-armor' } }];

/**
 * Plays games [from, to) with random legal commands through the kernel (decideCreate/Join/Play,
 * chain, fold), checking invariants and hidden information after every event; every
 * `verifyEvery`-th log goes through the verifier.
 */
export function fuzzSuite(name: string, from: number, to: number, verifyEvery = 25) {
  describe(`spearpoint fuzz ${name}: ${to - from} random legal games`, () => {
    it('each finishes with no exception, no stall, invariants and hidden information intact', () => {
      const stats: HiddenStats = { checkedEvents: 0, checkedViews: 0 };
      const reasons = new Map<string, number>();
      const titles = new Set<string>();
      let verified = 0;
      for (let g = from; g < to; g++) {
        const game = new CheckedGame(SEED, `fuzz-${g}`, stats);
        game.start({ ...OPTIONS[g % OPTIONS.length], maxTurns: 25 });
        playRandom(game, `${g}`.padStart(64, '0'));
        const outcome = game.state!.meta.outcome!;
        expect(outcome.reason).toBeTruthy();
        reasons.set(outcome.reason.replace(/\d+/g, 'N'), (reasons.get(outcome.reason.replace(/\d+/g, 'N')) ?? 0) + 1);
        for (const t of game.titlesPlayed) titles.add(t);
        if ((g - from) % verifyEvery === 0) {
          const report = verifyLog(game.events, createRegistry([spearpoint]).get);
          expect(report.problems).toEqual([]);
          expect(report.ok).toBe(true);
          verified++;
        }
      }
      expect(verified).toBeGreaterThan(0);
      expect(stats.checkedEvents).toBeGreaterThan(1000);
      // Games end in more than one way, and every command card title was played (each has a working effect).
      expect(reasons.size).toBeGreaterThan(1);
      expect([...titles].sort()).toEqual([...new Set(spearpoint.initialState({ situation: 'standard', maxTurns: 40 }).catalog.commandCards.map((c) => c.title))].sort());
    }, 120_000);
  });
}
