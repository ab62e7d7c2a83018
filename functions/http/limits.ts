import type { Env } from '../environment.js';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ACTIVE_PREFIX, inboxPk, LOBBY_PK, PAGE_PREFIX } from '../projections/keys.js';
import { documentClient, isConditionFailure } from '../store/document-client.js';
import { acceptAtEdge } from './edge.js';
import { LIMIT_NAMES, type LimitName } from './limit-names.js';
import { checks } from './edge-checks.generated.js';
import type { Reply } from './types.js';

/**
 * Fair limits: a player (or, on the routes open without sign-in, an address) that floods the
 * API is answered 429 before it costs the others or the bill. Counters live in the table (one
 * conditional UpdateItem per limited request, fixed windows), so they hold across Lambda
 * instances. The move path (POST /v1/games/{id}/commands) has no counter: it stays one read
 * and one write. A club raises its own limits with FIELDPOST_LIMITS (see limitsFromEnv).
 */
export interface Limit {
  readonly max: number;
  readonly windowSeconds: number;
}

export const DEFAULT_LIMITS: Readonly<Record<LimitName, Limit>> = {
  /** POST /v1/games, per player. */
  create: { max: 30, windowSeconds: 3600 },
  /** GET /v1/games/{id}/export (up to 5.5 MB each), per player. */
  export: { max: 60, windowSeconds: 3600 },
  /** PUT /v1/me/settings (webhooks and addresses), per player. */
  settings: { max: 30, windowSeconds: 3600 },
  /** Mail a request makes the server send (verification mail), per player. */
  mail: { max: 10, windowSeconds: 86_400 },
  /** Every route open without sign-in, per address. */
  public: { max: 300, windowSeconds: 60 },
};

export const LIMITS_RULE = 'Fieldpost platform: fair limits';

/** Games a player may have created that are still waiting for players. */
export const MAX_OPEN_GAMES = 10;
/** Games, open or running, a player may sit in at once. */
export const MAX_SEATS = 50;

/** FIELDPOST_LIMITS='{"create":{"max":100}}' raises (or lowers) single limits; anything malformed is an error at start, not a silent default. */
export function limitsFromEnv(env: Env): Record<LimitName, Limit> {
  const raw = env['FIELDPOST_LIMITS'];
  const given = raw ? override(raw) : {};
  return Object.fromEntries(LIMIT_NAMES.map((n) => [n, { ...DEFAULT_LIMITS[n], ...given[n] }])) as Record<LimitName, Limit>;
}

/** FIELDPOST_LIMITS checked against limitsOverride (http/schemas.ts) by its generated check, which says where and what is wrong. */
function override(raw: string): Partial<Record<LimitName, Partial<Limit>>> {
  const parsed: unknown = JSON.parse(raw);
  const accepted = acceptAtEdge('limitsOverride', parsed);
  if (accepted) return accepted.value;
  const why = checks.limitsOverride.errors?.[0];
  throw new Error(
    `FIELDPOST_LIMITS is not valid: ${why ? `${why.propertyName !== undefined ? `the name "${why.propertyName}"` : why.instancePath || 'the value'} fails ${why.keyword} ${JSON.stringify(why.params)}` : 'refused'}`,
  );
}

export interface LimitVerdict {
  readonly ok: boolean;
  readonly remaining: number;
  /** Seconds until the window resets. */
  readonly reset: number;
}

/** The counters' port: the table in AWS and locally; a test may count in memory. */
export interface LimitCounter {
  take(key: string, limit: Limit, nowMs: number): Promise<LimitVerdict>;
}

/** LIMIT#<name>#<who>/W#<window start>: a fixed-window counter, removed by TTL after its window. */
export class DynamoLimitCounter implements LimitCounter {
  private readonly doc: DynamoDBDocumentClient;
  constructor(
    client: DynamoDBClient,
    private readonly tableName: string,
  ) {
    this.doc = documentClient(client);
  }
  async take(key: string, limit: Limit, nowMs: number): Promise<LimitVerdict> {
    const windowMs = limit.windowSeconds * 1000;
    const start = Math.floor(nowMs / windowMs) * windowMs;
    const reset = Math.max(1, Math.ceil((start + windowMs - nowMs) / 1000));
    try {
      const r = await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: `LIMIT#${key}`, sk: `W#${start}` },
          UpdateExpression: 'ADD n :one SET expiresAt = :exp, #t = :type',
          ConditionExpression: 'attribute_not_exists(n) OR n < :max',
          ExpressionAttributeNames: { '#t': 'type' },
          ExpressionAttributeValues: { ':one': 1, ':max': limit.max, ':exp': Math.ceil((start + windowMs) / 1000) + 60, ':type': 'limit' },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return { ok: true, remaining: Math.max(0, limit.max - Number(r.Attributes?.['n'] ?? limit.max)), reset };
    } catch (e) {
      if (isConditionFailure(e)) return { ok: false, remaining: 0, reset };
      throw e;
    }
  }
}

/** The IETF RateLimit-Policy and RateLimit headers (draft-ietf-httpapi-ratelimit-headers) for one limit. */
export function limitHeaders(name: LimitName, limit: Limit, v: LimitVerdict): Record<string, string> {
  return {
    'ratelimit-policy': `"${name}";q=${limit.max};w=${limit.windowSeconds}`,
    ratelimit: `"${name}";r=${v.remaining};t=${v.reset}`,
  };
}

export function tooMany(name: LimitName, limit: Limit, v: LimitVerdict, who: string): Reply {
  return {
    status: 429,
    body: {
      code: `limit/${name}`,
      message: `Too many requests: ${who} may make ${limit.max} of these every ${limit.windowSeconds} s; try again in ${v.reset} s`,
      rule: LIMITS_RULE,
    },
    headers: { 'retry-after': String(v.reset), ...limitHeaders(name, limit, v) },
  };
}

/** Counts the items of one read-model partition's key range (PAGE# unless told) that match a filter (every page read: a Query COUNT). */
async function countPages(
  doc: DynamoDBDocumentClient,
  tableName: string,
  pk: string,
  filter: string,
  names: Record<string, string>,
  values: Record<string, unknown>,
  prefix = PAGE_PREFIX,
) {
  let n = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const r = await doc.send(
      new QueryCommand({
        TableName: tableName,
        Select: 'COUNT',
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: filter,
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix, ...values },
        ExclusiveStartKey: start,
      }),
    );
    n += r.Count ?? 0;
    start = r.LastEvaluatedKey;
  } while (start);
  return n;
}

/**
 * The player's open games (in the lobby, created by them, seated or not) and the games they sit
 * in, open or running (their inbox): from the read models, so a game created a moment ago may
 * not count yet.
 */
export async function gamesOf(client: DynamoDBClient, tableName: string, player: string): Promise<{ openCreated: number; seated: number }> {
  const doc = documentClient(client);
  const [openCreated, seated, running] = await Promise.all([
    countPages(doc, tableName, LOBBY_PK, 'createdBy = :p', {}, { ':p': player }),
    countPages(doc, tableName, inboxPk(player), '#s IN (:open, :active)', { '#s': 'status' }, { ':open': 'open', ':active': 'active' }),
    // Games not yet over are kept at ACTIVE# (projections/keys.ts); PAGE# may still hold some of a table written before.
    countPages(doc, tableName, inboxPk(player), '#s IN (:open, :active)', { '#s': 'status' }, { ':open': 'open', ':active': 'active' }, ACTIVE_PREFIX),
  ]);
  return { openCreated, seated: seated + running };
}
