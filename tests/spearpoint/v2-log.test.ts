import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRegistry, foldAll, verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import { spearpoint, type State } from '../../domain/spearpoint/index.js';

/**
 * A short Tiger Hunt game (turn limit 2, random legal moves) played and exported under rules
 * version 2, before the version-3 rules fixes. Games made then must still fold, and their
 * exported logs verify, under every later release that still plays version 2.
 */
const log = JSON.parse(readFileSync(new URL('../fixtures/spearpoint-v2-log.json', import.meta.url), 'utf8')) as { events: EventEnvelope[] };

describe('a game played under Spearpoint rules version 2', () => {
  it('was created under version 2 and ended', () => {
    expect((log.events[0]!.data as { engineVersion: number }).engineVersion).toBe(2);
    expect(log.events.at(-1)!.type).toBe('Game.Ended');
  });
  it('folds to its recorded end, under the version-2 rules', () => {
    const end = foldAll(spearpoint, log.events)!;
    expect(end.meta.status).toBe('ended');
    expect(end.meta.hash).toBe(log.events.at(-1)!.hash);
    expect((end.game as State).result).not.toBeNull();
  });
  it('verifies: every roll and shuffle re-derived, every command decided again to the same events', () => {
    const report = verifyLog(log.events, createRegistry([spearpoint]).get);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
