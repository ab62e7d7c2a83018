import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { createHmac } from 'node:crypto';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { diceRace } from '../fixtures/dice-race.js';
import { tally } from '../app/tally.js';
import { cid, http, itemCount } from './support.js';

/**
 * Issue 9, robustness and security, over real HTTP against the local runtime: oversize bodies
 * are reported at their real size, and player-chosen strings never reach a 500.
 */
const engines = createRegistry([diceRace, tally]);
let rt: LocalRuntime;
let api: ReturnType<typeof http>;
let alice: string;
let bob: string;

beforeAll(async () => {
  rt = await startLocalRuntime({ memory: true, engines, dynamoEndpoint: inject('dynamoEndpoint'), tableName: `robust-${Date.now().toString(36)}` });
  api = http(rt.url);
  alice = rt.issueToken('alice');
  bob = rt.issueToken('bob');
});
afterAll(async () => {
  await rt?.stop();
});

async function tallyGame(): Promise<string> {
  const c = await api.post('/v1/games', alice, { engine: 'tally', seat: 'a', commandId: cid('create') });
  expect(c.status).toBe(201);
  expect((await api.post(`/v1/games/${c.body.gameId}/join`, bob, { commandId: cid('join') })).status).toBe(200);
  return c.body.gameId as string;
}

describe('a too-large body', () => {
  it('is refused with 413 naming its real size and the limit', async () => {
    const gameId = await tallyGame();
    const before = await itemCount(rt.client, rt.tableName);
    const body = JSON.stringify({ commandId: cid(), command: { type: 'Add', n: 1, pad: 'x'.repeat(300 * 1024) } });
    const sent = Buffer.byteLength(body);
    const r = await api.call('POST', `/v1/games/${gameId}/commands`, { token: alice, raw: body });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('http/body-too-large');
    expect(r.body.message).toContain(`${sent} bytes`);
    expect(r.body.message).toContain('the limit is 65536 bytes (64.0 KiB)');
    expect(await itemCount(rt.client, rt.tableName)).toBe(before);
  });
});

describe('local tokens', () => {
  const SECRET = 'robust-test-secret-0123456789';
  const forge = (claims: Record<string, unknown>) => {
    const h = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    const p = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${h}.${p}.${createHmac('sha256', SECRET).update(`${h}.${p}`).digest('base64url')}`;
  };
  it('are refused when another issuer made them or they are issued in the future (401)', async () => {
    const local = await startLocalRuntime({
      memory: true,
      engines,
      dynamoEndpoint: inject('dynamoEndpoint'),
      tableName: `robust-t-${Date.now().toString(36)}`,
      jwtSecret: SECRET,
    });
    try {
      const me = http(local.url);
      const now = Math.floor(Date.now() / 1000);
      expect((await me.get('/v1/me/games', local.issueToken('alice'))).status).toBe(200);
      const foreign = await me.get('/v1/me/games', forge({ sub: 'alice', iat: now, exp: now + 600, iss: 'https://elsewhere.example' }));
      expect([foreign.status, foreign.body.code]).toEqual([401, 'auth/invalid-token']);
      const future = await me.get('/v1/me/games', forge({ sub: 'alice', iat: now + 7200, exp: now + 9000, iss: 'fieldpost-local' }));
      expect([future.status, future.body.code]).toEqual([401, 'auth/token-not-yet-valid']);
      const ancient = await me.get('/v1/me/games', forge({ sub: 'alice', iat: now - 400 * 86400, exp: now + 600, iss: 'fieldpost-local' }));
      expect([ancient.status, ancient.body.code]).toEqual([401, 'auth/token-expired']);
    } finally {
      await local.stop();
    }
  });
});
