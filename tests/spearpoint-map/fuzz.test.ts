import { afterAll, describe, expect, it } from 'vitest';
import { verifyLog, seededRng } from '../../domain/kernel/index.js';
import { SCENARIO_IDS } from '../../domain/spearpoint-map/data/scenarios.js';
import { indexCatalog } from '../../domain/frontline-general/data/catalog.js';
import type { Command, State } from '../../domain/spearpoint-map/model.js';
import { engine, newGame, playRandom, stateOf } from './play.js';

/** Names Object.prototype answers to: a player's id must never reach them. */
const HOSTILE = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
const ID_FIELDS = ['unit', 'crew', 'from', 'to', 'at', 'path', 'attacker', 'target', 'spotter', 'attackId', 'boostWith', 'card', 'extra', 'by'];

/** Command-card plays seen across the fuzz games (printed at the end; the card rules are tested in card-plays.test.ts). */
const PLAY_EVENTS = new Set([
  'CommandPlayed',
  'SmokeLaid',
  'CommandUsed',
  'UnitWithdrawn',
  'UnitRepaired',
  'UnitSabotaged',
  'CaptureRolled',
  'UnitCapturedKept',
]);
const played = new Map<string, number>();
/**
 * Ambush!'s function (a unit brought in during the Combat Phase) is rarely listed in a random game:
 * a side holding an Initiative card keeps it and its units in hand for the Combat Phase, and plays
 * the function whenever it is listed.
 */
function ambushFunction(legal: readonly Command[], s: State, seat: string): readonly Command[] {
  const held = s.seats[seat as 'us' | 'de'].commands.filter((c) => indexCatalog(s.catalog).command(c).effect.kind === 'initiative');
  if (!held.length) return [];
  const bring = legal.filter((c) => c.type === 'PlayCommand' && c.at !== undefined);
  if (bring.length) return bring;
  return legal.filter((c) => c.type !== 'Commit' && !(c.type === 'PlayCommand' && held.includes(c.card)));
}

describe('spearpoint-1943-map fuzz: random legal games of every scenario to the end', () => {
  afterAll(() => {
    console.info('command-card plays in the fuzz games:', Object.fromEntries(played));
    // Ambush! was played both ways: for its bonus and for its function (003 l.456-458).
    expect(played.get('CommandUsed:initiative')).toBeGreaterThan(0);
    expect(played.get('CommandUsed:ambush')).toBeGreaterThan(0);
  });
  for (const [i, scenario] of SCENARIO_IDS.entries()) {
    it(`${scenario}: a seeded game ends, every listed command accepted, hostile ids refused as values, logs verify`, () => {
      for (let n = 0; n < 1; n++) {
        const g = newGame({ scenario, maxTurns: 10 }, `fuzz-${scenario}-${n}`);
        const pick = seededRng({ seed: 'c3'.repeat(32), gameId: `${scenario}-${n}`, entropy: [], counter: 0 });
        let probes = 0;
        playRandom(
          g,
          pick,
          6000,
          (game, seat, legal) => {
            if (probes++ % 7 !== 0) return;
            const c = legal[pick.int(legal.length)]!;
            for (const field of ID_FIELDS) {
              const hostile = { ...c, [field]: HOSTILE[pick.int(HOSTILE.length)] };
              const parsed = engine.commandSchema.safeParse(hostile);
              if (!parsed.success) continue;
              const r = engine.decide(stateOf(game), parsed.data, seat, { rng: pick, now: '' });
              if (r.ok && JSON.stringify(parsed.data) !== JSON.stringify(c)) throw new Error(`hostile ${JSON.stringify(hostile)} accepted`);
              if (!r.ok) expect(r.error.code).toMatch(/^[a-z-]+\/[a-z-]+$/);
            }
          },
          i % 2 ? ambushFunction : undefined,
        );
        const s = stateOf(g);
        expect(s.result).not.toBeNull();
        expect(engine.outcome(s)).toBeDefined();
        for (const e of g.events) {
          if (!PLAY_EVENTS.has(e.type)) continue;
          const key = e.type === 'CommandUsed' ? `CommandUsed:${(e.data as { effect: string }).effect}` : e.type;
          played.set(key, (played.get(key) ?? 0) + 1);
        }
        const report = verifyLog(g.events, () => engine);
        expect(report.ok, JSON.stringify(report).slice(0, 400)).toBe(true);
      }
    }, 180_000);
  }
});
