import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { createApi } from '../../functions/http/api.js';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { LimitName } from '../../functions/http/limit-names.js';
import { DEFAULT_LIMITS, gamesOf, limitsFromEnv, MAX_OPEN_GAMES, MAX_SEATS, type Limit } from '../../functions/http/limits.js';
import { documentClient } from '../../functions/store/document-client.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { startLocalNotifications } from '../../functions/local/stream-poller.js';
import { diceRace } from '../fixtures/dice-race.js';
import { waitFor } from '../support/wait.js';
import { apiEvent, cid, http, itemCount } from './support.js';

/**
 * Fair limits on the local runtime (DynamoDB Local): small limits so a test can reach them.
 * Every reply here is also checked against the API document (tests/support/contract.ts).
 */
/** Fewer creations an hour than the cap on open games, so the first test meets the rate limit, not the cap. */
const LIMITS: Record<LimitName, Limit> = {
  ...DEFAULT_LIMITS,
  create: { max: MAX_OPEN_GAMES - 2, windowSeconds: 3600 },
  settings: { max: 2, windowSeconds: 3600 },
  mail: { max: 2, windowSeconds: 86_400 },
  export: { max: 2, windowSeconds: 3600 },
  public: { max: 8, windowSeconds: 60 },
};
/** The runtime's clock: the cap test moves it on an hour, to a fresh window of the create limit. */
let offsetMs = 0;
let rt: LocalRuntime;
let api: ReturnType<typeof http>;

beforeAll(async () => {
  rt = await startLocalRuntime({
    memory: true,
    engines: createRegistry([diceRace]),
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `limits-${Date.now().toString(36)}`,
    limits: LIMITS,
    clock: { now: () => new Date(Date.now() + offsetMs).toISOString() },
    // The projector keeps the inbox and lobby the open-games and seats caps count from.
    extensions: [(ctx) => startLocalNotifications(ctx, { pollIntervalMs: 100 })],
  });
  api = http(rt.url);
});
afterAll(async () => {
  await rt?.stop();
});

/** Games nobody else joins: alice's stay open, so her cap on open games is raised for this runtime's first test by using few. */
const create = (player: string) => api.post('/v1/games', rt.issueToken(player), { engine: 'dice-race', commandId: cid('create') });

describe('fair limits', () => {
  it('answer a player who creates too many games 429 with Retry-After and the IETF RateLimit headers, writing nothing', async () => {
    const first = await create('alice');
    expect(first.status).toBe(201);
    expect(first.headers.get('ratelimit-policy')).toBe(`"create";q=${LIMITS.create.max};w=3600`);
    expect(first.headers.get('ratelimit')).toMatch(new RegExp(`^"create";r=${LIMITS.create.max - 1};t=\\d+$`));
    for (let i = 1; i < LIMITS.create.max; i++) expect((await create('alice')).status).toBe(201);
    const before = await itemCount(rt.client, rt.tableName);
    const refused = await create('alice');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'limit/create', rule: 'Fieldpost platform: fair limits' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit')).toMatch(/^"create";r=0;t=\d+$/);
    expect(await itemCount(rt.client, rt.tableName)).toBe(before);
  });

  it('hold across API instances: a second instance on the same table counts the same', async () => {
    const other = createApi({ client: rt.client, tableName: rt.tableName, engines: createRegistry([diceRace]), authenticate: () => 'alice', limits: LIMITS });
    const r = await other.handler(apiEvent('POST', '/v1/games', { body: JSON.stringify({ engine: 'dice-race', commandId: cid('create') }) }));
    expect(r.statusCode).toBe(429);
    expect(JSON.parse(r.body!).code).toBe('limit/create');
  });

  it("do not slow another player's requests while one player floods", async () => {
    const bob = rt.issueToken('bob');
    const timed = async () => {
      const t = performance.now();
      const r = await api.get('/v1/me/games', bob);
      expect(r.status).toBe(200);
      return performance.now() - t;
    };
    const quiet: number[] = [];
    for (let i = 0; i < 5; i++) quiet.push(await timed());
    // alice floods (each answered 429 from one conditional write) while bob keeps working.
    const flood = Promise.all(Array.from({ length: 40 }, () => create('alice')));
    const busy: number[] = [];
    for (let i = 0; i < 5; i++) busy.push(await timed());
    const flooded = await flood;
    expect(flooded.every((r) => r.status === 429)).toBe(true);
    expect((await create('bob')).status).toBe(201);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Generous on a shared two-core machine: bob is not queued behind alice's forty requests.
    expect(median(busy)).toBeLessThan(median(quiet) * 5 + 500);
  });

  it('cap the open games a player may have created', async () => {
    const olga = rt.issueToken('olga');
    for (let i = 0; i < MAX_OPEN_GAMES; i++) {
      // The rate limit counts per hour: an hour later olga may create more, up to the cap.
      if (i === LIMITS.create.max) offsetMs += 3600_000;
      expect((await create('olga')).status).toBe(201);
    }
    // The cap counts from the lobby read model, which the projector fills a moment later.
    await waitFor('the lobby to list olga’s open games', async () => {
      const r = await api.get('/v1/lobby?limit=100', olga);
      return r.body.games.filter((g: { createdBy: string }) => g.createdBy === 'olga').length >= MAX_OPEN_GAMES ? true : undefined;
    });
    const refused = await create('olga');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('limit/open-games');
    expect(refused.headers.get('retry-after')).toBe('3600');
  });

  it('cap the games a player sits in: joining or creating one more is refused, ended games do not count', async () => {
    // Sam already sits in MAX_SEATS - 1 running games and has finished five more: their inbox
    // items are written here as the projector writes them (the cap counts the inbox's page items).
    const doc = documentClient(rt.client);
    const inboxItem = (n: number, status: 'active' | 'ended') => ({
      pk: 'INBOX#sam',
      sk: `PAGE#1#${String(n).padStart(4, '0')}#seeded-${status}-${n}`,
      type: 'inbox-page',
      gameId: `seeded-${status}-${n}`,
      player: 'sam',
      status,
      yourMove: false,
      version: 3,
    });
    for (let n = 0; n < MAX_SEATS - 1; n++) await doc.send(new PutCommand({ TableName: rt.tableName, Item: inboxItem(n, 'active') }));
    for (let n = 0; n < 5; n++) await doc.send(new PutCommand({ TableName: rt.tableName, Item: inboxItem(n, 'ended') }));
    expect(await gamesOf(rt.client, rt.tableName, 'sam')).toEqual({ openCreated: 0, seated: MAX_SEATS - 1 });

    // One seat left: sam may create a game (the fiftieth seat)...
    const sam = rt.issueToken('sam');
    const seated = () => api.post('/v1/games', sam, { engine: 'dice-race', seat: 'p1', commandId: cid('create') });
    expect((await seated()).status).toBe(201);
    await waitFor('the projector to list sam’s new game', async () => ((await gamesOf(rt.client, rt.tableName, 'sam')).seated >= MAX_SEATS ? true : undefined));
    // ...and then neither join another nor create one more; the refusal writes nothing.
    const tom = await create('tom');
    expect(tom.status).toBe(201);
    const before = await itemCount(rt.client, rt.tableName);
    const joined = await api.post(`/v1/games/${tom.body.gameId}/join`, sam, { commandId: cid('join') });
    expect(joined.status).toBe(429);
    expect(joined.body).toMatchObject({ code: 'limit/seats', rule: 'Fieldpost platform: fair limits' });
    const created = await seated();
    expect(created.status).toBe(429);
    expect(created.body.code).toBe('limit/seats');
    expect(await itemCount(rt.client, rt.tableName)).toBe(before);
    // Another player may still take the seat sam could not.
    expect((await api.post(`/v1/games/${tom.body.gameId}/join`, rt.issueToken('uma'), { commandId: cid('join') })).status).toBe(200);
  });

  it('count settings changes, mail the server sends, and exports per player, whatever each request answers', async () => {
    const pia = rt.issueToken('pia');
    const cases: [string, () => Promise<{ status: number; body: { code: string } }>][] = [
      ['settings', () => api.call('PUT', '/v1/me/settings', { token: pia, body: { emailOff: [] } })],
      ['mail', () => api.call('POST', '/v1/me/email/resend', { token: pia })],
      ['export', () => api.get('/v1/games/no-such-game/export', pia)],
    ];
    for (const [name, send] of cases) {
      for (let i = 0; i < 2; i++) expect((await send()).status, name).not.toBe(429);
      const refused = await send();
      expect(refused.status, name).toBe(429);
      expect(refused.body.code).toBe(`limit/${name}`);
    }
    // Another player's counters are their own.
    expect((await api.get('/v1/games/no-such-game/export', rt.issueToken('quinn'))).status).toBe(404);
  });

  it('limit the routes open without sign-in per address', async () => {
    // The document the reply check reads (GET /v1/openapi.json) counts too, so one of the eight may be used already.
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.public.max + 1; i++) statuses.push((await api.get('/v1/engines')).status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(LIMITS.public.max - 1);
    expect(statuses.at(-1)).toBe(429);
  });

  it('are set by a club through FIELDPOST_LIMITS, and a malformed setting is an error', () => {
    expect(limitsFromEnv({ FIELDPOST_LIMITS: '{"create":{"max":100}}' }).create).toEqual({ max: 100, windowSeconds: 3600 });
    expect(limitsFromEnv({}).export).toEqual(DEFAULT_LIMITS.export);
    expect(() => limitsFromEnv({ FIELDPOST_LIMITS: '{"create":{"max":0}}' })).toThrow();
    expect(() => limitsFromEnv({ FIELDPOST_LIMITS: '{"moves":{"max":5}}' })).toThrow();
  });
});
