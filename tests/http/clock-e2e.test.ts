import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRegistry, verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import { deadlinesExtension } from '../../functions/local/deadlines.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { diceRace } from '../fixtures/dice-race.js';
import { runScript } from '../support/run-script.js';
import { cid, http } from './support.js';

/**
 * Clocks that run themselves, on your machine: a game with a time control, the local clock
 * moved forward with POST /local/clock (and the CLI's `clock`), and the game ended on time by
 * the local scheduler with nobody claiming it; its export verifies.
 */
let rt: LocalRuntime;
let api: ReturnType<typeof http>;
let dir: string;
const token: Record<string, string> = {};

beforeAll(async () => {
  rt = await startLocalRuntime({
    memory: true,
    engines: createRegistry([diceRace]),
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `clock-${Date.now().toString(36)}`,
    // Swept every 20 ms: a periodic sweep is nearly always under way when the clock moves (the report must not lose what it takes).
    extensions: [deadlinesExtension(20)],
  });
  api = http(rt.url);
  for (const p of ['ann', 'bob']) token[p] = rt.issueToken(p);
  dir = mkdtempSync(join(tmpdir(), 'fieldpost-clock-'));
});
afterAll(async () => {
  await rt?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cli = (player: string, ...args: string[]) =>
  runScript('functions/cli/main.ts', args, { FIELDPOST_HOME: join(dir, player), FIELDPOST_URL: rt.url, FIELDPOST_TOKEN: token[player]! });

describe('clocks that run themselves', () => {
  it('refuses a bad time control at creation, naming the field', async () => {
    const r = await api.post('/v1/games', token['ann'], { engine: 'dice-race', timeControl: { kind: 'bank', days: 30 }, commandId: cid('create') });
    expect(r).toMatchObject({ status: 400, body: { code: 'game/bad-time-control', message: expect.stringContaining('incrementDays') } });
    const cliBad = await cli('ann', 'create', 'dice-race', '--time', 'three days');
    expect(cliBad.code).toBe(2);
    expect(cliBad.err).toContain('--time is per-move:DAYS or bank:DAYS+DAYS');
  });

  it('a move that runs out ends the game on time without a claim, and the log verifies', { timeout: 120_000 }, async () => {
    const created = await cli('ann', 'create', 'dice-race', '--seat', 'p1', '--time', 'per-move:1', '--weekends-off');
    expect(created.code, created.err).toBe(0);
    const gameId = /Game id: (\S+)/.exec(created.out)![1]!;
    expect((await api.post(`/v1/games/${gameId}/join`, token['bob'], { commandId: cid('join') })).status).toBe(200);
    const view = (await api.get(`/v1/games/${gameId}`, token['bob'])).body;
    expect(view.pending[0]).toMatchObject({ seat: 'p1', deadline: expect.any(String) });

    const bad = await api.post('/local/clock', undefined, { advanceHours: -1 });
    expect(bad).toMatchObject({ status: 400, body: { code: 'http/invalid-request' } });
    // A week on: whatever day it is, a one-day move with weekends off has run out.
    const moved = await cli('bob', 'clock', '+7d');
    expect(moved.code, moved.err).toBe(0);
    expect(moved.out).toContain(`Deadlines passed in: ${gameId}`);

    const after = (await api.get(`/v1/games/${gameId}`, token['bob'])).body;
    expect(after.summary).toMatchObject({ status: 'ended', outcome: { winners: ['p2'], reason: expect.stringContaining('p1 ran out of time') } });
    const log = (await api.get(`/v1/games/${gameId}/export`, token['bob'])).body.events as EventEnvelope[];
    expect(log.find((e) => e.type === 'Game.TimedOut')).toMatchObject({ player: null, actor: null, data: { claimedBy: null } });
    expect(verifyLog(log, createRegistry([diceRace]).get)).toMatchObject({ ok: true });
  });
});
