import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { registry } from '../../domain/registry.js';
import type { ApiDeps } from '../../functions/http/types.js';

/** A minimal JSON client for the end-to-end tests: status and parsed body, nothing hidden. */
export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export function http(base: string) {
  const call = async (method: string, path: string, opts: { token?: string; body?: unknown; raw?: string } = {}): Promise<Res> => {
    const headers: Record<string, string> = {};
    if (opts.token) headers['authorization'] = `Bearer ${opts.token}`;
    if (opts.body !== undefined || opts.raw !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(opts.raw !== undefined ? { body: opts.raw } : opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
  return {
    call,
    get: (path: string, token?: string) => call('GET', path, token ? { token } : {}),
    post: (path: string, token: string | undefined, body: unknown) => call('POST', path, { ...(token ? { token } : {}), body }),
  };
}

/**
 * Every event-store item in the table (all GAME# partitions: events, heads, seeds, snapshots,
 * idempotency records): the strongest "nothing was written" check. Read models (INBOX#, LOBBY,
 * ...) are left out because the runtime's stream poller keeps projecting earlier commands.
 */
export async function itemCount(client: DynamoDBClient, tableName: string): Promise<number> {
  let n = 0;
  let start: Record<string, any> | undefined;
  do {
    const r = await client.send(
      new ScanCommand({
        TableName: tableName,
        Select: 'COUNT',
        ConsistentRead: true,
        FilterExpression: 'begins_with(pk, :g)',
        ExpressionAttributeValues: { ':g': { S: 'GAME#' } },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    n += r.Count ?? 0;
    start = r.LastEvaluatedKey;
  } while (start);
  return n;
}

let counter = 0;
export const cid = (label = 'c'): string => `${label}-${Date.now().toString(36)}-${++counter}`;

/** An API Gateway HTTP API (payload v2) event as the Lambda receives it, for handler and router tests. */
export function apiEvent(
  method: string,
  path: string,
  opts: {
    body?: string;
    headers?: Record<string, string>;
    query?: Record<string, string>;
    claims?: Record<string, string>;
    stage?: string;
    base64?: boolean;
  } = {},
): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: opts.headers ?? {},
    ...(opts.query ? { queryStringParameters: opts.query } : {}),
    requestContext: {
      accountId: '1',
      apiId: 'a',
      domainName: 'd',
      domainPrefix: 'd',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '1.2.3.4', userAgent: 't' },
      requestId: 'req-1',
      routeKey: '$default',
      stage: opts.stage ?? '$default',
      time: '',
      timeEpoch: 0,
      ...(opts.claims ? { authorizer: { jwt: { claims: opts.claims, scopes: [] } } } : {}),
    },
    ...(opts.body !== undefined
      ? { body: opts.base64 ? Buffer.from(opts.body).toString('base64') : opts.body, isBase64Encoded: !!opts.base64 }
      : { isBase64Encoded: false }),
  } as APIGatewayProxyEventV2;
}

/** What the route table is built from, with nothing behind it: building the routes touches no network, so a client that is never called is enough. */
export const offlineApiDeps = (): ApiDeps =>
  ({
    service: {},
    engines: registry,
    clock: { now: () => '2026-01-01T00:00:00.000Z' },
    dynamo: { client: new DynamoDBClient({ region: 'eu-west-1' }), tableName: 't' },
  }) as unknown as ApiDeps;
