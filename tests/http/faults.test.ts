import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { createApi } from '../../functions/http/api.js';
import { OPENAPI_PATH } from '../../functions/http/router.js';
import { freshTable } from '../support/dynamo.js';
import { contractChecker } from '../support/contract-checker.js';
import { diceRace } from '../fixtures/dice-race.js';
import { apiEvent, cid, itemCount } from './support.js';

/**
 * DynamoDB faults injected at the store's port (a middleware inside the SDK client's retry loop,
 * on DynamoDB Local): throttling the client retries away, throttling that outlasts the retries
 * (503 with Retry-After, nothing written), and a write that succeeded but whose reply was lost.
 * Whatever happens, a command resent with its commandId is in the game's log exactly once.
 */
type Fault = 'throttle' | 'lost-reply';
let client: DynamoDBClient;
let tableName: string;
let api: ReturnType<typeof createApi>['handler'];
let checker: ReturnType<typeof contractChecker> | undefined;
/** Faults still to inject, each on the next matching call. */
const pending: { fault: Fault; matches: (command: string) => boolean }[] = [];
const injected: Record<Fault, number> = { throttle: 0, 'lost-reply': 0 };

beforeAll(async () => {
  ({ client, tableName } = await freshTable('faults'));
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const i = pending.findIndex((f) => f.matches(context.commandName ?? ''));
      const fault = i >= 0 ? pending.splice(i, 1)[0]!.fault : undefined;
      if (fault === 'throttle') {
        injected.throttle++;
        throw Object.assign(new Error('Rate of requests exceeds the allowed throughput'), { name: 'ThrottlingException', $fault: 'client', $metadata: {} });
      }
      const out = await next(args);
      if (fault === 'lost-reply') {
        injected['lost-reply']++;
        throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError', code: 'ECONNRESET', $metadata: {} });
      }
      return out;
    },
    { step: 'deserialize', name: 'injectFaults' },
  );
  api = createApi({ client, tableName, engines: createRegistry([diceRace]), authenticate: (e) => e.headers['x-player']! }).handler;
  checker = contractChecker(JSON.parse((await call('GET', OPENAPI_PATH, 'x')).body));
});

async function call(method: string, path: string, player: string, body?: unknown): Promise<{ status: number; body: string; headers: Record<string, string> }> {
  const r = (await api(
    apiEvent(method, path, { headers: { 'x-player': player }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }),
  )) as APIGatewayProxyStructuredResultV2;
  const reply = { status: r.statusCode!, body: String(r.body ?? ''), headers: (r.headers ?? {}) as Record<string, string> };
  if (checker) expect(checker.check(method, path, reply.status, reply.headers['content-type'] ?? '', reply.body)).toBeUndefined();
  return reply;
}

const inject = (fault: Fault, times: number, matches: (command: string) => boolean = () => true) => {
  for (let i = 0; i < times; i++) pending.push({ fault, matches });
};

async function startedRace(): Promise<{ gameId: string; mover: string; version: number }> {
  const c = JSON.parse((await call('POST', '/v1/games', 'alice', { engine: 'dice-race', seat: 'p1', commandId: cid('create') })).body);
  const j = JSON.parse((await call('POST', `/v1/games/${c.gameId}/join`, 'bob', { commandId: cid('join') })).body);
  const first = [...j.next.yours, ...j.next.waitingFor][0].seat;
  return { gameId: c.gameId, mover: j.seats.find((s: { id: string }) => s.id === first).player, version: j.version };
}

/** The Rolled events in the game's log: one per applied Roll. */
const rolls = async (gameId: string, player: string) =>
  (JSON.parse((await call('GET', `/v1/games/${gameId}/events`, player)).body).events as { type: string }[]).filter((e) => e.type === 'Rolled').length;

describe('DynamoDB faults at the store port', () => {
  it('throttling the client retries away (backoff and jitter) is not seen by the player', async () => {
    const { gameId, mover, version } = await startedRace();
    inject('throttle', 2);
    const r = await call('POST', `/v1/games/${gameId}/commands`, mover, { commandId: cid('roll'), command: { type: 'Roll' }, expectedVersion: version });
    expect(r.status).toBe(200);
    expect(pending).toHaveLength(0);
  });

  it('throttling that outlasts the retries is answered 503 with Retry-After, writes nothing, and the resend is applied once', async () => {
    const { gameId, mover, version } = await startedRace();
    const before = await itemCount(client, tableName);
    const commandId = cid('roll');
    inject('throttle', 20);
    const r = await call('POST', `/v1/games/${gameId}/commands`, mover, { commandId, command: { type: 'Roll' }, expectedVersion: version });
    pending.length = 0;
    expect(r.status).toBe(503);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(r.body).code).toBe('store/unavailable');
    expect(await itemCount(client, tableName)).toBe(before);
    const again = await call('POST', `/v1/games/${gameId}/commands`, mover, { commandId, command: { type: 'Roll' }, expectedVersion: version });
    expect(again.status).toBe(200);
    expect(await rolls(gameId, mover)).toBe(1);
  });

  it('a write that succeeded but whose reply was lost: the resend with the same commandId is a duplicate, applied once', async () => {
    const { gameId, mover, version } = await startedRace();
    const commandId = cid('roll');
    // The command's one write (the append), whatever the store sends it as.
    inject('lost-reply', 1, (c) => /Put|Update|TransactWrite/.test(c));
    const r = await call('POST', `/v1/games/${gameId}/commands`, mover, { commandId, command: { type: 'Roll' }, expectedVersion: version });
    expect(injected['lost-reply']).toBe(1);
    // The client's own retry finds the command already written: either answered now, or 503 and the resend answers.
    expect([200, 503]).toContain(r.status);
    const again = await call('POST', `/v1/games/${gameId}/commands`, mover, { commandId, command: { type: 'Roll' }, expectedVersion: version });
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body).duplicate).toBe(true);
    expect(await rolls(gameId, mover)).toBe(1);
  });
});
