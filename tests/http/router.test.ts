import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { cognitoAuthenticator, localAuthenticator } from '../../functions/http/auth.js';
import { signLocalJwt } from '../../functions/http/jwt.js';
import { createRouter } from '../../functions/http/router.js';
import { routeModules } from '../../functions/http/routes/index.js';
import { defineRoute, type ApiDeps, type RouteModule } from '../../functions/http/types.js';
import { AppError } from '../../functions/ports.js';
import { apiEvent } from './support.js';

/** Router unit tests: no database, a dummy service that must never be reached. */
const unreachable = new Proxy({}, { get: () => () => Promise.reject(new Error('service must not be called')) });
// Route modules may build read-model clients up front; this one points nowhere and is never called.
const nowhere = new DynamoDBClient({ region: 'local', endpoint: 'http://127.0.0.1:9', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
const deps = {
  service: unreachable,
  engines: { get: () => undefined, ids: () => ['x'] },
  clock: { now: () => '2026-01-01T00:00:00.000Z' },
  dynamo: { client: nowhere, tableName: 'none' },
} as unknown as ApiDeps;

const event = apiEvent;

const json = (r: { body?: string }) => JSON.parse(r.body ?? 'null');

const echo: RouteModule = () => [
  defineRoute({
    method: 'POST',
    path: '/v1/things/{id}',
    auth: 'required',
    summary: 'test route',
    responses: { 200: z.unknown() },
    params: z.object({ id: z.string().regex(/^\d+$/) }),
    query: z.object({ flag: z.enum(['on', 'off']).optional() }),
    body: z.strictObject({ n: z.number().int() }),
    handle: async ({ params, query, body, player }) => ({ status: 200, body: { id: params.id, flag: query.flag ?? null, n: body.n, player } }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/things/{id}',
    auth: 'none',
    summary: 'test route',
    responses: { 200: z.unknown() },
    handle: async () => ({ status: 200, body: { ok: 1 } }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/boom/{kind}',
    auth: 'none',
    summary: 'test route',
    responses: { 200: z.unknown() },
    params: z.object({ kind: z.string() }),
    handle: async ({ params }) => {
      if (params.kind === 'app') throw new AppError(422, 'rule/x', 'Not allowed', 'Rulebook 1.2');
      throw new Error('secret table name tbl-prod-123 exploded');
    },
  }),
];

const alwaysAlice = () => 'alice';

describe('router', () => {
  const router = createRouter([echo], deps, { authenticate: alwaysAlice, logError: () => {} });

  it('routes with params, query and body validated', async () => {
    const r = await router(event('POST', '/v1/things/42', { body: '{"n":3}', query: { flag: 'on' } }));
    expect(r.statusCode).toBe(200);
    expect(json(r)).toEqual({ id: '42', flag: 'on', n: 3, player: 'alice' });
    expect(r.headers?.['content-type']).toMatch(/application\/json/);
    expect(r.headers?.['x-request-id']).toBe('req-1');
  });

  it('decodes base64 bodies and strips a named stage from the path', async () => {
    const r = await router(event('POST', '/prod/v1/things/7', { body: '{"n":1}', base64: true, stage: 'prod' }));
    expect(r.statusCode).toBe(200);
    expect(json(r).id).toBe('7');
  });

  it('unknown path → 404 http/not-found', async () => {
    const r = await router(event('GET', '/v1/nothing-here'));
    expect(r.statusCode).toBe(404);
    expect(json(r)).toEqual({ code: 'http/not-found', message: 'No such endpoint: /v1/nothing-here' });
  });

  it('known path, wrong method → 405 with Allow', async () => {
    const r = await router(event('DELETE', '/v1/things/1'));
    expect(r.statusCode).toBe(405);
    expect(json(r).code).toBe('http/method-not-allowed');
    expect(r.headers?.['allow']).toBe('POST, GET');
  });

  it('names the failing field for params, query and body', async () => {
    const p = await router(event('POST', '/v1/things/abc', { body: '{"n":1}' }));
    expect([p.statusCode, json(p).code]).toEqual([400, 'http/invalid-request']);
    expect(json(p).message).toMatch(/^Invalid path: id:/);
    const q = await router(event('POST', '/v1/things/1', { body: '{"n":1}', query: { flag: 'maybe' } }));
    expect(json(q).message).toMatch(/^Invalid query: flag:/);
    const b = await router(event('POST', '/v1/things/1', { body: '{"n":1.5}' }));
    expect(json(b).message).toMatch(/^Invalid body: n:/);
    const missing = await router(event('POST', '/v1/things/1', { body: '' }));
    expect(json(missing).message).toMatch(/n: Invalid input/);
  });

  it('malformed JSON → 400, oversize → 413 before parsing', async () => {
    const bad = await router(event('POST', '/v1/things/1', { body: '{"n":' }));
    expect([bad.statusCode, json(bad).code]).toEqual([400, 'http/malformed-json']);
    const small = createRouter([echo], deps, { authenticate: alwaysAlice, maxBodyBytes: 10 });
    const big = await small(event('POST', '/v1/things/1', { body: '{"n":1}      ' }));
    expect([big.statusCode, json(big).code]).toEqual([413, 'http/body-too-large']);
    // Counted in bytes, not characters.
    const multibyte = await small(event('POST', '/v1/things/1', { body: '"ééééé"' }));
    expect(multibyte.statusCode).toBe(413);
  });

  it('maps AppError, and hides internals on 500 (a lost race never reaches the router: the service retries or answers 409 version/conflict)', async () => {
    const a = await router(event('GET', '/v1/boom/app'));
    expect([a.statusCode, json(a)]).toEqual([422, { code: 'rule/x', message: 'Not allowed', rule: 'Rulebook 1.2' }]);
    const logged = vi.fn();
    const r500 = await createRouter([echo], deps, { authenticate: alwaysAlice, logError: logged })(event('GET', '/v1/boom/other'));
    expect(r500.statusCode).toBe(500);
    expect(json(r500).code).toBe('internal/error');
    expect(r500.body).not.toMatch(/tbl-prod|exploded|stack/);
    expect(r500.body).toMatch(/req-1/);
    expect(logged).toHaveBeenCalledOnce();
  });

  it('authenticates before reading the body', async () => {
    const strict = createRouter([echo], deps, { authenticate: localAuthenticator('a-local-secret-for-tests-0123456789'), maxBodyBytes: 5 });
    const r = await strict(event('POST', '/v1/things/1', { body: 'not json and too long' }));
    expect([r.statusCode, json(r).code]).toEqual([401, 'auth/missing-token']);
    expect(r.headers?.['www-authenticate']).toBe('Bearer');
    const basic = await strict(event('POST', '/v1/things/1', { headers: { authorization: 'Basic abc' } }));
    expect(json(basic).code).toBe('auth/invalid-token');
  });

  it('refuses two routes with the same method and shape', () => {
    const twice: RouteModule = () => [
      defineRoute({
        method: 'GET',
        path: '/v1/a/{x}',
        auth: 'none',
        summary: 'test route',
        responses: { 200: z.unknown() },
        handle: async () => ({ status: 200 }),
      }),
      defineRoute({
        method: 'GET',
        path: '/v1/a/{y}',
        auth: 'none',
        summary: 'test route',
        responses: { 200: z.unknown() },
        handle: async () => ({ status: 200 }),
      }),
    ];
    expect(() => createRouter([twice], deps, { authenticate: alwaysAlice })).toThrow(/declared twice/);
  });
});

describe('the real route table', () => {
  const router = createRouter(routeModules, deps, { authenticate: localAuthenticator('a-local-secret-for-tests-0123456789'), logError: () => {} });
  const token = signLocalJwt('a-local-secret-for-tests-0123456789', 'alice', { nowSeconds: Math.floor(Date.now() / 1000), ttlSeconds: 60 });
  const auth = { authorization: `Bearer ${token}` };

  it('serves health without a token', async () => {
    const r = await router(event('GET', '/v1/health'));
    expect(r.statusCode).toBe(200);
    expect(json(r)).toMatchObject({ ok: true, engines: ['x'] });
  });

  it('404 for unknown routes, 405 for wrong methods, and never serves /local/token', async () => {
    expect((await router(event('GET', '/v1/games/abc/nope', { headers: auth }))).statusCode).toBe(404);
    expect((await router(event('POST', '/local/token', { body: '{"player":"mallory"}' }))).statusCode).toBe(404);
    expect((await router(event('PUT', '/v1/games/abc', { headers: auth }))).statusCode).toBe(405);
    expect((await router(event('GET', '/v1/games/abc/commands', { headers: auth }))).statusCode).toBe(405);
  });

  it('validates query numbers and game ids at the edge, before the service', async () => {
    const r = await router(event('GET', '/v1/games/abc/events', { headers: auth, query: { after: '-1' } }));
    expect([r.statusCode, json(r).message]).toEqual([400, expect.stringMatching(/after/)]);
    const lim = await router(event('GET', '/v1/games/abc/events', { headers: auth, query: { limit: '5000' } }));
    expect(json(lim).message).toMatch(/limit/);
    const id = await router(event('GET', '/v1/games/a%20b', { headers: auth }));
    expect([id.statusCode, json(id).message]).toEqual([400, expect.stringMatching(/id/)]);
  });
});

describe('cognito authenticator', () => {
  const auth = cognitoAuthenticator();
  it('takes the player from the authorizer claims', () => {
    expect(auth(event('GET', '/', { claims: { 'cognito:username': 'alice', sub: 'uuid-1' } }))).toBe('alice');
    expect(auth(event('GET', '/', { claims: { username: 'bob', sub: 'uuid-2' } }))).toBe('bob');
    expect(auth(event('GET', '/', { claims: { sub: 'uuid-3' } }))).toBe('uuid-3');
  });
  it('401 without claims (no authorizer ran) or with an unusable id', () => {
    const status = (e: APIGatewayProxyEventV2) => {
      try {
        auth(e);
        return 'no error';
      } catch (x) {
        return x instanceof AppError ? `${x.status} ${x.code}` : String(x);
      }
    };
    expect(status(event('GET', '/'))).toBe('401 auth/missing-token');
    // A bearer header alone proves nothing in cognito mode: only the authorizer's claims count.
    expect(status(event('GET', '/', { headers: { authorization: 'Bearer forged' } }))).toBe('401 auth/missing-token');
    expect(() => auth(event('GET', '/', { claims: { sub: 'has space' } }))).toThrow(/valid player/);
  });
});
