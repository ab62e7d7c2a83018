import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRegistry, foldAll, verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import { spearpoint, type State } from '../../domain/spearpoint/index.js';

/**
 * A short Tiger Hunt game (turn limit 2, random legal moves) played and exported under rules
 * version 2, before the version-3 rules fixes. Games made then must still fold, and their
 * exported logs verify, under every later release that still plays version 2.
 */
const read = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as { events: EventEnvelope[] };

/**
 * A second one, played with the us-armor and de-armor presets (an M7 Priest in the US deck), has
 * a tied Initiative roll: version 3 decides those differently, so it pins version 2's re-roll.
 */
for (const [name, log] of [
  ['spearpoint-v2-log.json', read('spearpoint-v2-log.json')],
  ['spearpoint-v2-tie-log.json', read('spearpoint-v2-tie-log.json')],
] as const)
  describe(`a game played under Spearpoint rules version 2 (${name})`, () => {
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
