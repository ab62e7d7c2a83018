import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRegistry, foldAll, verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import { spearpoint, type State } from '../../domain/spearpoint/index.js';

/**
 * A short Tiger Hunt game (turn limit 3, random legal moves) played and exported under rules
 * version 3, before version 4 made friendly fire a kernel decision window and moved the decks
 * onto the kernel's Deck. The United States left the engine-level standing order
 * SetStandingOrders {friendlyFire: 'highest-cost'}, and it answered a friendly-fire roll inside
 * the engine. Games made then must still fold, and their exported logs verify, the same way.
 */
const log = JSON.parse(readFileSync(new URL('../fixtures/spearpoint-v3-log.json', import.meta.url), 'utf8')) as { events: EventEnvelope[] };

describe('a game played under Spearpoint rules version 3 (spearpoint-v3-log.json)', () => {
  it('was created under version 3, used SetStandingOrders, and ended', () => {
    expect((log.events[0]!.data as { engineVersion: number }).engineVersion).toBe(3);
    const commands = log.events.filter((e) => e.type === 'Game.CommandAccepted').map((e) => (e.data as { command: { type: string } }).command.type);
    expect(commands).toContain('SetStandingOrders');
    expect(log.events.some((e) => e.type === 'FriendlyFireVictimChosen' && (e.data as { automatic: boolean }).automatic)).toBe(true);
    expect(log.events.at(-1)!.type).toBe('Game.Ended');
  });
  it('folds to its recorded end, under the version-3 rules (decks, standing order and all)', () => {
    const end = foldAll(spearpoint, log.events)!;
    expect(end.meta.status).toBe('ended');
    expect(end.meta.hash).toBe(log.events.at(-1)!.hash);
    const s = end.game as State;
    expect(s.rulesVersion).toBe(3);
    expect(s.result).not.toBeNull();
    expect(s.seats.us.friendlyFire).toBe('highest-cost');
  });
  it('verifies: every roll and shuffle re-derived, every command decided again to the same events', () => {
    const report = verifyLog(log.events, createRegistry([spearpoint]).get);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
