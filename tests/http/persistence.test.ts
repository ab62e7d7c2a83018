import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { diceRace } from '../fixtures/dice-race.js';
import { http } from './support.js';

/** Without --memory, games and the local signing secret survive a restart; stop() ends DynamoDB Local. */
const dir = mkdtempSync(join(tmpdir(), 'fieldpost-data-'));
let rt: LocalRuntime | undefined;
afterAll(async () => {
  await rt?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('local data folder', () => {
  it('keeps games and tokens across a restart', async () => {
    const engines = createRegistry([diceRace]);
    rt = await startLocalRuntime({ dataDir: dir, engines });
    const api1 = http(rt.url);
    const token = (await api1.post('/local/token', undefined, { player: 'alice' })).body.token as string;
    const created = await api1.post('/v1/games', token, { engine: 'dice-race', seat: 'p1', commandId: 'persist-1' });
    expect(created.status).toBe(201);
    expect(statSync(join(dir, 'local-jwt-secret')).mode & 0o777).toBe(0o600);
    const javaPid = rt.dynamoPid!;
    expect(() => process.kill(javaPid, 0)).not.toThrow();
    await rt.stop();
    // stop() ends the JVM it started and closes the API.
    expect(() => process.kill(javaPid, 0)).toThrow();
    await expect(fetch(`${rt.url}/v1/health`)).rejects.toThrow();

    rt = await startLocalRuntime({ dataDir: dir, engines });
    const api2 = http(rt.url);
    const view = await api2.get(`/v1/games/${created.body.gameId}`, token);
    expect(view.status).toBe(200);
    expect(view.body.summary.seats[0]).toMatchObject({ id: 'p1', player: 'alice', joined: true });
  }, 120_000);
});
