import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../functions/http/router.js';
import { defineRoute, type ApiDeps, type RouteModule } from '../../functions/http/types.js';

/**
 * Conditional GETs, which the web client's polling relies on: a 200 GET carries an ETag of its
 * body, and If-None-Match with it answers 304 with no body until the body changes.
 */
let version = 1;
const routes: RouteModule = () => [
  defineRoute({
    method: 'GET',
    path: '/v1/feed',
    summary: 'test route',
    auth: 'none',
    responses: {},
    handle: async () => ({ status: 200, body: { version } }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/feed',
    summary: 'test route',
    auth: 'none',
    responses: {},
    handle: async () => ({ status: 200, body: { version } }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/missing',
    summary: 'test route',
    auth: 'none',
    responses: {},
    handle: async () => ({ status: 404, body: { code: 'x/none', message: 'none' } }),
  }),
];
const router = createRouter([routes], {} as ApiDeps, { authenticate: () => 'alice', logError: () => {} });
const request = (method: string, path: string, headers: Record<string, string> = {}) =>
  router({
    version: '2.0',
    rawPath: path,
    headers,
    requestContext: { requestId: 'r', stage: '$default', http: { method, path } },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2);

describe('conditional GET', () => {
  it('answers 304 with no body while the body is unchanged, and 200 with a new ETag once it changes', async () => {
    const first = await request('GET', '/v1/feed');
    const etag = String(first.headers!['etag']);
    expect(first.statusCode).toBe(200);
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    const same = await request('GET', '/v1/feed', { 'if-none-match': etag });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBeUndefined();
    expect(same.headers!['etag']).toBe(etag);
    expect(same.headers!['content-type']).toBeUndefined();
    // A list of tags, or the strong form of the same tag, matches too.
    expect((await request('GET', '/v1/feed', { 'if-none-match': `"other", ${etag.slice(2)}` })).statusCode).toBe(304);
    version = 2;
    const changed = await request('GET', '/v1/feed', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(JSON.parse(changed.body!)).toEqual({ version: 2 });
    expect(changed.headers!['etag']).not.toBe(etag);
  });

  it('leaves other methods and error answers alone', async () => {
    const post = await request('POST', '/v1/feed');
    expect(post.headers!['etag']).toBeUndefined();
    const missing = await request('GET', '/v1/missing');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers!['etag']).toBeUndefined();
  });
});
