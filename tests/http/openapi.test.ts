import { Validator } from '@seriousme/openapi-schema-validator';
import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { registry } from '../../domain/registry.js';
import { buildOpenApi, operationId, routerStatuses, type OpenApiDocument } from '../../functions/http/openapi.js';
import { responsesOf } from '../../functions/http/responses.js';
import { createRouter, OPENAPI_PATH, routeTable } from '../../functions/http/router.js';
import { routeModules } from '../../functions/http/routes/index.js';
import { defineRoute, type RouteModule } from '../../functions/http/types.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { PUBLIC_ROUTES } from '../../infra/api.js';
import { diceRace } from '../fixtures/dice-race.js';
import { contractChecker } from '../support/contract-checker.js';
import { apiEvent, offlineApiDeps } from './support.js';

const deps = offlineApiDeps();
const routes = routeTable(routeModules, deps);
const doc = buildOpenApi(routes, registry);

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (checked by a schema validator of the specification)', async () => {
    const r = await new Validator().validate(doc as never);
    expect(r.errors).toBeUndefined();
    expect(r.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('lists every route the router serves, with its security, body and every status it answers', () => {
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(listed.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    for (const route of routes) {
      const op = doc.paths[route.path]![route.method.toLowerCase()] as { security: unknown[]; requestBody?: unknown; responses: Record<string, unknown> };
      expect(op.security).toEqual(route.auth === 'required' ? [{ bearer: [] }] : []);
      expect(op.requestBody !== undefined, `${route.method} ${route.path} body`).toBe(route.body !== undefined);
      const statuses = Object.keys(op.responses).map(Number);
      // A route answers success somehow, and every status the router adds for it is there.
      expect(
        statuses.some((s) => s >= 200 && s < 300),
        `${route.method} ${route.path} has no 2xx`,
      ).toBe(true);
      for (const s of [...Object.keys(responsesOf(route)).map(Number), ...routerStatuses(route)]) expect(statuses).toContain(s);
    }
  });

  it('describes every error as {code, message, rule?}', () => {
    expect(doc.components.schemas['Error']).toMatchObject({
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, rule: { type: 'string' } },
      additionalProperties: false,
    });
    const op = doc.paths['/v1/games/{id}/commands']!['post'] as { responses: Record<string, { content: Record<string, { schema: unknown }> }> };
    for (const s of ['400', '401', '403', '404', '409', '413', '422', '500'])
      expect(op.responses[s]!.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Error' });
  });

  it("holds every engine's command, options and view schemas, from the registry as it is", () => {
    const engines = createRegistry([...registry.ids().map((id) => registry.get(id)!), diceRace]);
    const more = buildOpenApi(routes, engines);
    expect(more['x-engines'].map((e) => e.id).sort()).toEqual(engines.ids().sort());
    for (const id of engines.ids()) {
      expect(more.components.schemas[`${id}.Command`], id).toBeDefined();
      expect(more['x-engines'].find((e) => e.id === id)?.command).toEqual({ $ref: `#/components/schemas/${id}.Command` });
      expect(more['x-engines'].find((e) => e.id === id)?.view).toEqual({ $ref: `#/components/schemas/${id}.View` });
    }
    // Every engine the server serves has its view described (functions/http/view-schemas.ts); a test engine without one takes any value.
    for (const id of registry.ids()) expect(more.components.schemas[`${id}.View`], id).toMatchObject({ type: 'object', additionalProperties: false });
    expect(more.components.schemas['dice-race.View']).toEqual({ description: 'dice-race has no view schema: any JSON value' });
    // The dice race's commands: one of two types, as its zod schema says.
    expect(JSON.stringify(more.components.schemas['dice-race.Command'])).toContain('"Roll"');
  });

  it('is served without a token, and is a public route in AWS too', async () => {
    const router = createRouter(routeModules, deps, {
      authenticate: () => {
        throw new Error('not called for a public route');
      },
    });
    const r = await router(apiEvent('GET', OPENAPI_PATH));
    expect(r.statusCode).toBe(200);
    expect(JSON.parse(r.body!)).toEqual(JSON.parse(JSON.stringify(doc)));
    expect(PUBLIC_ROUTES.map((p) => `${p.method} ${p.path}`)).toContain(`GET ${OPENAPI_PATH}`);
  });

  it('names operations after their method and path', () => {
    expect(operationId('POST', '/v1/games/{id}/claim-timeout')).toBe('postGamesIdClaimTimeout');
    expect(operationId('GET', '/v1/games/{id}/board.svg')).toBe('getGamesIdBoardSvg');
  });
});

describe('the reply check every end-to-end test runs', () => {
  const check = contractChecker(doc as never);

  it('passes a reply the document describes, and names what is wrong with one it does not', () => {
    const health = JSON.stringify({ ok: true, service: 'fieldpost', time: 'now', engines: ['spearpoint-1943'] });
    expect(check.check('GET', '/v1/health', 200, 'application/json', health)).toBeUndefined();
    expect(check.check('GET', '/v1/health', 200, 'application/json', JSON.stringify({ ok: 'yes' }))).toMatch(/does not match the document/);
    expect(check.check('GET', '/v1/health', 418, 'application/json', '{}')).toMatch(/lists no such status/);
    expect(check.check('GET', '/v1/games/g1/board.svg', 200, 'text/html', '<html>')).toMatch(/content-type/);
    expect(check.check('POST', '/v1/games/g1/commands', 422, 'application/json', JSON.stringify({ code: 'x/y', message: 'no', rule: '001' }))).toBeUndefined();
    expect(check.check('POST', '/v1/games/g1/commands', 422, 'application/json', JSON.stringify({ code: 'x/y' }))).toMatch(/message/);
    expect(check.check('GET', '/v1/nowhere', 404, 'application/json', JSON.stringify({ code: 'http/not-found', message: 'no' }))).toBeUndefined();
    expect(check.check('GET', '/v1/nowhere', 200, 'application/json', '{}')).toMatch(/in no path/);
  });

  describe('against a live local runtime', () => {
    // A route whose reply is not what it declares: the test's own fetch must fail.
    const liar: RouteModule = () => [
      defineRoute({
        method: 'GET',
        path: '/v1/liar',
        summary: 'answers a body its schema does not allow',
        auth: 'none',
        responses: { 200: z.object({ n: z.number() }) },
        handle: async () => ({ status: 200, body: { n: 'not a number' } }),
      }),
    ];
    let rt: LocalRuntime;
    beforeAll(async () => {
      rt = await startLocalRuntime({
        memory: true,
        engines: createRegistry([diceRace]),
        dynamoEndpoint: inject('dynamoEndpoint'),
        tableName: `openapi-${Date.now().toString(36)}`,
        modules: [...routeModules, liar],
        extensions: [],
      });
    });
    afterAll(async () => {
      await rt?.stop();
    });

    it('rejects a test fetch whose reply breaks the document, and lets a good one through', async () => {
      await expect(fetch(`${rt.url}/v1/liar`)).rejects.toThrow(/breaks the API document: GET \/v1\/liar → 200: the body does not match/);
      expect((await fetch(`${rt.url}/v1/health`)).status).toBe(200);
      const served = (await (await fetch(`${rt.url}${OPENAPI_PATH}`)).json()) as OpenApiDocument;
      expect(served['x-engines'].map((e) => e.id)).toEqual(['dice-race']);
    });
  });
});
