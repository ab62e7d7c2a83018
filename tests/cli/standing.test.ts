import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { relayRaid } from '../fixtures/relay-raid.js';
import { runScript } from '../support/run-script.js';

/**
 * Engines, standing orders and lapses from the terminal: a player reads what the server plays,
 * creates a four-seat game with a window share, leaves a standing order, sees it listed with the
 * ones offered, and another player lapses a question whose time ran out.
 */
let now = Date.parse('2026-07-01T09:00:00.000Z');
const clock = { now: () => new Date(now).toISOString() };
let rt: LocalRuntime;
let dir: string;

beforeAll(async () => {
  rt = await startLocalRuntime({
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `cli-so-${Date.now().toString(36)}`,
    engines: createRegistry([relayRaid]),
    clock,
  });
  dir = mkdtempSync(join(tmpdir(), 'fieldpost-cli-so-'));
});
afterAll(async () => {
  await rt?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cli = (player: string, ...args: string[]) =>
  runScript('functions/cli/main.ts', args, { FIELDPOST_HOME: join(dir, player), FIELDPOST_URL: rt.url, FIELDPOST_TOKEN: rt.issueToken(player) });
const command = (gameId: string, player: string, type: string) =>
  fetch(`${rt.url}/v1/games/${gameId}/commands`, {
    method: 'POST',
    headers: { authorization: `Bearer ${rt.issueToken(player)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ commandId: `${type}-${Math.random()}`, command: { type } }),
  });

describe('terminal client: engines, standing orders, lapses', () => {
  it('lists engines, sets and shows standing orders, and lapses an overdue question', { timeout: 120_000 }, async () => {
    const engines = await cli('ann', 'engines');
    expect(engines.code, engines.err).toBe(0);
    expect(engines.out).toContain('Relay Raid (test fixture)  (create relay-raid)');
    expect(engines.out).toContain('seats: 2 or 4; sides: North (north), South (south)');
    expect(engines.out).toContain('{"topic":"intercept","rule":"never"}: Let every advance through');

    const bad = await cli('ann', 'create', 'relay-raid', '--seat', 'n1', '--time-limit', '24', '--window-share', '2');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--window-share is a number above 0 and at most 1');
    const created = await cli('ann', 'create', 'relay-raid', '--seat', 'n1', '--time-limit', '24', '--window-share', '0.5');
    expect(created.code, created.err).toBe(0);
    const gameId = /Game id: (\S+)/.exec(created.out)![1]!;
    for (const [seat, p] of [
      ['s1', 'sam'],
      ['n2', 'ned'],
      ['s2', 'sue'],
    ] as const)
      expect((await cli(p, 'join', gameId, '--seat', seat)).code).toBe(0);

    const set = await cli('sam', 'standing', gameId, '--set', '[{"topic":"intercept","rule":"when-behind"}]');
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain('Standing orders set');
    const shown = await cli('sam', 'standing', gameId);
    expect(shown.out).toContain('1. intercept/when-behind: Intercept only while the other side leads');
    expect(shown.out).toContain('{"topic":"intercept","rule":"always"}');
    const refused = await cli('sam', 'standing', gameId, '--set', '[{"topic":"intercept","rule":"sometimes"}]');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('standing/unknown-rule');
    expect((await cli('sam', 'standing', gameId, '--clear')).out).toContain('Standing orders cleared');
    expect((await cli('sam', 'standing', gameId)).out).toContain('You have no standing orders');

    expect((await command(gameId, 'ann', 'Advance')).status).toBe(200);
    const early = await cli('ned', 'lapse', gameId, 'intercept-1');
    expect(early.code).toBe(1);
    expect(early.err).toContain('time/not-yet');
    now += 12 * 3_600_000;
    const lapsed = await cli('ned', 'lapse', gameId, 'intercept-1');
    expect(lapsed.code, lapsed.err).toBe(0);
    expect(lapsed.out).toContain('Game.WindowLapsed');
    expect(lapsed.out).toContain('LetThrough');
  });
});
