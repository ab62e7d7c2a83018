import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTable } from '../support/dynamo.js';
import { apiEvent } from './support.js';

/**
 * The Lambda entry itself (functions/handlers/api.ts) in cognito mode against DynamoDB Local:
 * env → client → service → router, with claims as API Gateway's JWT authorizer passes them.
 */
let handler: (e: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;
const saved = { ...process.env };

beforeAll(async () => {
  const { tableName, endpoint } = await freshTable('api');
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    AUTH_MODE: 'cognito',
    DYNAMODB_ENDPOINT: endpoint,
    AWS_REGION: 'local',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
  handler = (await import('../../functions/handlers/api.js')).handler;
});
afterAll(() => {
  process.env = saved;
});

const ev = (method: string, path: string, body?: unknown, claims?: Record<string, string>): APIGatewayProxyEventV2 =>
  apiEvent(method, path, { ...(body !== undefined ? { body: JSON.stringify(body) } : {}), ...(claims ? { claims } : {}) });

describe('Lambda api handler (AUTH_MODE=cognito)', () => {
  const claims = { 'cognito:username': 'alice', sub: '0000-1111' };
  it('answers health, and 401 without the authorizer claims', async () => {
    expect((await handler(ev('GET', '/v1/health'))).statusCode).toBe(200);
    const r = await handler(ev('POST', '/v1/games', { engine: 'x', commandId: 'c1' }));
    expect(r.statusCode).toBe(401);
  });
  it('reaches DynamoDB with the claims player: unknown game 404, unknown engine 400', async () => {
    const missing = await handler(ev('GET', '/v1/games/nosuchgame', undefined, claims));
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body!).code).toBe('game/not-found');
    const engine = await handler(ev('POST', '/v1/games', { engine: 'no-such-engine', commandId: 'c1' }, claims));
    expect(engine.statusCode).toBe(400);
    expect(JSON.parse(engine.body!).code).toBe('engine/unknown');
  });
  it('never serves /local/token', async () => {
    const r = await handler(ev('POST', '/local/token', { player: 'mallory' }));
    expect(r.statusCode).toBe(404);
  });
});
