import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createRouter } from '../../functions/http/router.js';
import { defineRoute, type ApiDeps, type RouteModule } from '../../functions/http/types.js';

/**
 * JSON allows numbers like 1e400 that parse to Infinity. Event data is hashed as canonical
 * JSON, which has no Infinity, so such a number reaching an engine that accepts free-form
 * data (options or a command field typed unknown) would fail deep in the service with a 500.
 * It is a malformed request: 400 at the edge, before any handler runs.
 */
const reached: unknown[] = [];
const deps = {} as ApiDeps;
const freeForm: RouteModule = () => [
  defineRoute({
    method: 'POST',
    path: '/v1/free',
    auth: 'none',
    summary: 'test route',
    responses: { 200: z.unknown() },
    body: z.looseObject({ commandId: z.string() }),
    handle: async ({ body }) => {
      reached.push(body);
      return { status: 200, body: { ok: true } };
    },
  }),
];

const post = (body: string) =>
  ({
    version: '2.0',
    rawPath: '/v1/free',
    headers: {},
    requestContext: { requestId: 'r', stage: '$default', http: { method: 'POST', path: '/v1/free' } },
    body,
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

describe('numbers JSON cannot carry into an event', () => {
  const router = createRouter([freeForm], deps, { authenticate: () => 'alice', logError: () => {} });

  it('1e400 and -1e400 anywhere in the body are 400 http/malformed-json and reach no handler', async () => {
    for (const body of ['{"commandId":"a","n":1e400}', '{"commandId":"a","deep":{"list":[1,-1e400]}}']) {
      const r = await router(post(body));
      expect(r.statusCode).toBe(400);
      expect(JSON.parse(r.body!)).toMatchObject({ code: 'http/malformed-json' });
    }
    expect(reached).toEqual([]);
  });

  it('a body nested 30 000 levels deep is checked without overflowing the stack', async () => {
    const deep = `{"commandId":"d","x":${'['.repeat(30_000)}1e400${']'.repeat(30_000)}}`;
    const r = await router(post(deep));
    expect(r.statusCode).toBe(400);
    reached.length = 0;
  });

  it('ordinary large and small numbers still pass', async () => {
    const r = await router(post('{"commandId":"a","n":1e300,"m":-0.5}'));
    expect(r.statusCode).toBe(200);
    expect(reached).toEqual([{ commandId: 'a', n: 1e300, m: -0.5 }]);
  });
});
