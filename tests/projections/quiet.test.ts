import { describe, expect, it } from 'vitest';
import type { GameSummary } from '../../domain/kernel/index.js';
import { spearpoint } from '../../domain/spearpoint/index.js';
import { projectGame, type SummaryModel } from '../../functions/projections/project.js';
import { summariesFromEvents } from '../../functions/projections/rebuild.js';
import { isQuietRecord } from '../../functions/projections/stream-image.js';
import { headOf, isQuiet } from '../../functions/store/head-items.js';
import { CheckedGame, playRandom } from '../spearpoint/harness.js';

/**
 * A quiet append (store/head-items.ts isQuiet) is one the projector and the scheduler are never
 * invoked for (infra STREAM_FILTER): so the read models' projection must leave it exactly as it was.
 */
const T = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();

const active: GameSummary = {
  gameId: 'g1',
  engine: 'spearpoint-1943',
  title: 'Spearpoint',
  status: 'active',
  version: 10,
  hash: 'h10',
  createdBy: 'ann',
  createdAt: T(0),
  updatedAt: T(10),
  seats: [
    { id: 'us', name: 'United States', player: 'ann', joined: true },
    { id: 'de', name: 'Germany', player: 'ben', joined: true },
  ],
  pending: [{ seat: 'us', kind: 'move', prompt: 'Play a card', player: 'ann', since: T(5) }],
};
const next = (s: GameSummary, change: Partial<GameSummary> = {}): GameSummary => ({
  ...s,
  version: s.version + 2,
  hash: `h${s.version + 2}`,
  updatedAt: T(s.version + 2),
  ...change,
});

describe('a quiet append', () => {
  it('is one whose summary differs only in version, hash and time, in a running game that asks someone and runs no clock', () => {
    expect(isQuiet(next(active), active)).toBe(true);
    expect(isQuiet(next(active, { pending: [{ ...active.pending[0]!, prompt: 'Attack' }] }), active)).toBe(false);
    expect(isQuiet(next(active, { pending: [] }), { ...active, pending: [] })).toBe(false);
    expect(isQuiet(next(active, { status: 'ended' }), active)).toBe(false);
    expect(isQuiet(next(active, { wakeAt: T(99) }), active)).toBe(false);
    const timed = { ...active, timeControl: { kind: 'per-move', hours: 24 } } as unknown as GameSummary;
    expect(isQuiet(next(timed), timed)).toBe(false);
    const limited = { ...active, timeLimitHours: 48 };
    expect(isQuiet(next(limited), limited)).toBe(false);
    expect(isQuiet(active, undefined)).toBe(false);
  });

  it('is marked on its item, and the stream reads the mark', () => {
    const last = { seq: 12, hash: 'h12', at: T(12) };
    const quiet = headOf(next(active), last, active).attributes;
    expect(quiet['quiet']).toBe(true);
    expect(headOf(next(active, { pending: [] }), last, active).attributes).not.toHaveProperty('quiet');
    expect(isQuietRecord({ eventName: 'INSERT', dynamodb: { NewImage: { quiet: { BOOL: true } } } } as never)).toBe(true);
    expect(isQuietRecord({ eventName: 'INSERT', dynamodb: { NewImage: {} } } as never)).toBe(false);
  });

  it('leaves the read models as they were, in random Spearpoint games (each append at its own time)', () => {
    let quiet = 0;
    let loud = 0;
    for (let g = 0; g < 4; g++) {
      const game = new CheckedGame('71'.repeat(32), `quiet-${g}`, { checkedEvents: 0, checkedViews: 0, invariantProblems: [], hiddenProblems: [] }, false);
      game.start({ maxTurns: 8 });
      playRandom(game, `${g}`.padStart(64, '0'));
      const summaries = summariesFromEvents(spearpoint, game.events).map((s, i) => ({ ...s, updatedAt: T(i) }));
      let model: SummaryModel | undefined;
      summaries.forEach((s, i) => {
        const p = projectGame(model, s);
        if (isQuiet(s, summaries[i - 1])) {
          quiet++;
          expect(p.summary, `append ${i} of game ${g}`).toBe(model);
        } else loud++;
        model = p.summary;
      });
    }
    // Most moves within a turn are quiet; every turn that passes is not.
    expect(quiet).toBeGreaterThan(50);
    expect(loud).toBeGreaterThan(50);
  });
});
