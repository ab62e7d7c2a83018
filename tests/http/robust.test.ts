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

describe("a player's strings that name Object's own members", () => {
  const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype'];

  it('work as commandIds on every command: applied once, then answered as duplicates', async () => {
    for (const id of NAMES) {
      const c = await api.post('/v1/games', alice, { engine: 'tally', seat: 'a', commandId: id });
      expect([id, c.status, c.body.duplicate]).toEqual([id, 201, false]);
      const again = await api.post('/v1/games', alice, { engine: 'tally', seat: 'a', commandId: id });
      expect([id, again.status, again.body.duplicate, again.body.gameId]).toEqual([id, 200, true, c.body.gameId]);

      const other = await api.post('/v1/games', alice, { engine: 'tally', seat: 'a', commandId: cid() });
      const gameId = other.body.gameId as string;
      const j = await api.post(`/v1/games/${gameId}/join`, bob, { commandId: id });
      expect([id, j.status, j.body.duplicate]).toEqual([id, 200, false]);
      expect((await api.post(`/v1/games/${gameId}/join`, bob, { commandId: id })).body.duplicate).toBe(true);
      const v = j.body.version as number;
      const add = await api.post(`/v1/games/${gameId}/commands`, alice, { commandId: `${id}.add`, command: { type: 'Add', n: 2 } });
      expect([id, add.status, add.body.duplicate, add.body.version > v]).toEqual([id, 200, false, true]);
      // Bob's id, sent by alice: not hers to reuse.
      const taken = await api.post(`/v1/games/${gameId}/commands`, alice, { commandId: id, command: { type: 'Add', n: 2 } });
      expect([id, taken.status, taken.body.code]).toEqual([id, 409, 'command/id-in-use']);

      const third = await tallyGame();
      const first = await api.post(`/v1/games/${third}/commands`, alice, { commandId: id, command: { type: 'Add', n: 3 } });
      expect([id, first.status, first.body.duplicate]).toEqual([id, 200, false]);
      const retry = await api.post(`/v1/games/${third}/commands`, alice, { commandId: id, command: { type: 'Add', n: 3 } });
      expect([id, retry.status, retry.body.duplicate, retry.body.version]).toEqual([id, 200, true, first.body.version]);
      const r = await api.post(`/v1/games/${third}/resign`, bob, { commandId: id + '!' });
      expect([id, r.status, r.body.duplicate]).toEqual([id, 200, false]);
      expect((await api.post(`/v1/games/${third}/resign`, bob, { commandId: id + '!' })).body.duplicate).toBe(true);
      const view = await api.get(`/v1/games/${third}`, alice);
      expect([id, view.status, view.body.summary.status]).toEqual([id, 200, 'ended']);
    }
  });

  it('as a game id, a seat or a reserved seat: 4xx, never 500', async () => {
    const gameId = await tallyGame();
    // The refused creations come from a player with no open games, so the open-games cap (limits.ts) never answers first.
    const prober = rt.issueToken('prober');
    for (const name of NAMES) {
      for (const path of [`/v1/games/${name}`, `/v1/games/${name}/events`, `/v1/games/${encodeURIComponent(name)}/export`]) {
        const r = await api.get(path, alice);
        expect([path, r.status]).toEqual([path, 404]);
      }
      const join = await api.post(`/v1/games/${name}/join`, bob, { commandId: cid() });
      expect([name, join.status]).toEqual([name, 404]);
      const seat = await api.get(`/v1/games/${gameId}?seat=${name}`, alice);
      expect([name, seat.status]).toEqual([name, 403]);
      const events = await api.get(`/v1/games/${gameId}/events?seat=${name}`, alice);
      expect([name, events.status]).toEqual([name, 403]);
      const cmd = await api.post(`/v1/games/${gameId}/commands`, alice, { commandId: cid(), seat: name, command: { type: 'Add', n: 1 } });
      expect([name, cmd.status]).toEqual([name, 403]);
      const create = await api.call('POST', '/v1/games', {
        token: prober,
        raw: `{"engine":"tally","seat":${JSON.stringify(name)},"commandId":"${cid()}"}`,
      });
      expect([name, create.status < 500, create.status]).toEqual([name, true, 422]);
      // Raw JSON, so "__proto__" arrives as an own key, as a client would send it.
      const reserve = await api.call('POST', '/v1/games', {
        token: prober,
        raw: `{"engine":"tally","reserve":{${JSON.stringify(name)}:"bob"},"commandId":"${cid()}"}`,
      });
      // Refused, never quietly created without the reservation (the validator would drop a '__proto__' key).
      expect([name, reserve.status, reserve.body.code]).toEqual(name === '__proto__' ? [name, 400, 'http/malformed-json'] : [name, 422, 'seat/unknown']);
      const options = await api.call('POST', '/v1/games', { token: prober, raw: `{"engine":"tally","options":{"${name}":{}},"commandId":"${cid()}"}` });
      expect([name, options.status]).toEqual([name, 400]);
      const query = await api.get(`/v1/me/games?${name}=1&${name}=2`, alice);
      // The listing's query is strict: an unknown parameter is named, whatever it is called.
      expect([name, query.status, query.body.message]).toEqual([name, 400, `Invalid query: Unrecognized key: "${name}"`]);
      expect((await api.get(`/v1/games/${gameId}?${name}=1`, alice)).status).toBe(200);
    }
  });

  it('as a player name or a webhook id: the player plays, saves settings and lists games; the webhook id is refused', async () => {
    const token = rt.issueToken('constructor');
    const c = await api.post('/v1/games', token, { engine: 'tally', seat: 'a', commandId: cid() });
    expect(c.status).toBe(201);
    const mine = await api.get('/v1/me/games', token);
    expect(mine.status).toBe(200);
    const put = await api.call('PUT', '/v1/me/settings', { token, body: { webhooks: [{ url: 'http://127.0.0.1:9/hook' }] } });
    expect(put.status).toBe(200);
    expect((await api.get('/v1/me/settings', token)).body.webhooks).toHaveLength(1);
    for (const id of NAMES) {
      const r = await api.call('PUT', '/v1/me/settings', { token, body: { webhooks: [{ id, url: 'http://127.0.0.1:9/hook' }] } });
      expect([id, r.status]).toEqual([id, 400]);
    }
    expect((await api.get('/v1/me/deliveries', token)).status).toBe(200);
    for (const name of NAMES) {
      const t = await api.post('/local/token', undefined, { player: name });
      expect([name, t.status]).toEqual([name, /^[A-Za-z0-9]/.test(name) ? 200 : 400]);
    }
  });
});
