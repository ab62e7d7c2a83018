import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditFile } from '../../functions/cli/audit.js';
import { diceRace } from '../fixtures/dice-race.js';
import { MemoryGame } from '../kernel/play.js';

/** The export file states the game, its version and its final hash: the verifier must hold the events to them. */
const FIXTURE = 'tests/fixtures/dice-race.ts';

function finishedLog() {
  const g = new MemoryGame(diceRace, 'ef'.repeat(32), 'audit-game');
  g.create({ target: 12 });
  g.join('alice', 'p1');
  g.join('bob');
  for (let i = 0; i < 200 && g.state!.meta.status === 'active'; i++) {
    const s = g.state!.game as { seats: string[]; turn: number };
    g.play(s.seats[s.turn % 2] === 'p1' ? 'alice' : 'bob', { type: 'Roll' });
  }
  const last = g.events[g.events.length - 1]!;
  return { format: 'fieldpost-log/1', gameId: g.gameId, version: last.seq, finalHash: last.hash, events: g.events };
}

describe('verify CLI: the export wrapper', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fieldpost-audit-'));
  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  it('an honest export verifies', async () => {
    const r = await auditFile(write('ok.json', JSON.stringify(finishedLog(), null, 2)), [FIXTURE]);
    expect(r.text).toMatch(/^OK: /);
    expect(r.ok).toBe(true);
  });

  it('one byte changed in the stated final hash, version or game id fails', async () => {
    const log = finishedLog();
    const text = JSON.stringify(log, null, 2);
    const hashAt = text.indexOf(`"finalHash": "`) + `"finalHash": "`.length;
    const flip = (t: string, at: number) => t.slice(0, at) + (t[at] === 'a' ? 'b' : 'a') + t.slice(at + 1);
    const versionAt = text.indexOf(`"version": `) + `"version": `.length;
    const badVersion = text.slice(0, versionAt) + String((Number(text[versionAt]) % 9) + 1) + text.slice(versionAt + 1);
    const gameAt = text.indexOf(`"gameId": "`) + `"gameId": "`.length;
    for (const [name, t] of [
      ['hash.json', flip(text, hashAt)],
      ['version.json', badVersion],
      ['game.json', flip(text, gameAt)],
    ] as const) {
      expect(t.length).toBe(text.length);
      const r = await auditFile(write(name, t), [FIXTURE]);
      expect(r.ok, `${name}: ${r.text}`).toBe(false);
      expect(r.text).toMatch(/^FAILED/);
    }
  });
});
