import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runScript } from '../support/run-script.js';
import { createRegistry, type EventEnvelope } from '../../domain/kernel/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { gameRoutes } from '../../functions/http/routes/games.js';
import { routeModules } from '../../functions/http/routes/index.js';
import { diceRace } from '../fixtures/dice-race.js';

/**
 * A log longer than one response can carry (Lambda answers at most 6 MB) gets 413
 * export/too-large; the terminal client then reads it through the event feed, in pages, into
 * the same file, which verifies. The limit is made tiny here so a short game exceeds it.
 */
let rt: LocalRuntime;
let dir: string;

beforeAll(async () => {
  const modules = routeModules.map((m) =>
    m === gameRoutes ? (deps: Parameters<typeof gameRoutes>[0]) => gameRoutes({ ...deps, exportLimitBytes: 2_000 }) : m,
  );
  rt = await startLocalRuntime({
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `export-${Date.now().toString(36)}`,
    engines: createRegistry([diceRace]),
    modules,
  });
  dir = mkdtempSync(join(tmpdir(), 'fieldpost-export-'));
});
afterAll(async () => {
  await rt?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('exporting a long log', () => {
  it('413 export/too-large from the route; the CLI reads the log in pages and it verifies', async () => {
    const service = rt.deps.service;
    const created = await service.create('alice', { engine: 'dice-race', options: { target: 30 }, seat: 'p1', commandId: 'x-create' });
    const gameId = created.gameId;
    await service.join('bob', gameId, { commandId: 'x-join' });
    for (let i = 0; i < 200; i++) {
      const v = await service.view('alice', gameId);
      if (v.summary.status === 'ended') break;
      const player = v.pending[0]!.player!;
      await service.submit(player, gameId, { command: { type: 'Roll' }, commandId: `x-${i}` });
    }
    const full: EventEnvelope[] = await service.exportLog('alice', gameId);
    expect(full.length).toBeGreaterThan(10);

    const res = await fetch(`${rt.url}/v1/games/${gameId}/export`, { headers: { authorization: `Bearer ${rt.issueToken('alice')}` } });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe('export/too-large');

    const env = { FIELDPOST_HOME: join(dir, 'alice'), FIELDPOST_URL: rt.url, FIELDPOST_TOKEN: rt.issueToken('alice') };
    const file = join(dir, 'game.json');
    const exported = await runScript('functions/cli/main.ts', ['export', gameId, file, '--limit', '7'], env);
    expect(exported.code, exported.err).toBe(0);
    expect(exported.out).toContain(`Wrote ${full.length} events`);
    const log = JSON.parse(readFileSync(file, 'utf8')) as { format: string; version: number; finalHash: string; events: EventEnvelope[] };
    expect(log.events).toEqual(full);
    expect(log).toMatchObject({ format: 'fieldpost-log/1', version: full.at(-1)!.seq, finalHash: full.at(-1)!.hash });
    const verified = await runScript('functions/cli/main.ts', ['verify', file, '--engines', 'tests/fixtures/dice-race.ts'], env);
    expect(verified.code, verified.out + verified.err).toBe(0);
  }, 60_000);
});
