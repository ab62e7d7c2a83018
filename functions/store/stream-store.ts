import { DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { canonicalJson } from '../../domain/kernel/canonical.js';
import { sha256Hex } from '../../domain/kernel/sha256.js';
import { ConcurrencyError, DuplicateCommandError, type CommandRecord } from '../ports.js';
import { documentClient } from './document-client.js';
import { commandSk, eventSk } from './dynamo-event-store.js';

/**
 * The event store for the streams that are not games: a club (`CLUB#<id>`), a tournament
 * (`TOURNAMENT#<id>`) and an engine's ratings (`RATINGS#<engine>`), in the same table and with
 * the same item layout as a game's partition (ports.ts): events `EV#<seq>`, a `HEAD` holding
 * the version, and a `CMD#<commandId>` record per command, all written in one
 * TransactWriteItems guarded by the head's version. Events are hash-chained as a game's are, so
 * a club's or a tournament's history is auditable too. These heads carry no `summary` and no
 * `status`: the projector and the deadline sweep, which read game heads, pass them by.
 */

export interface StoredEvent<E> {
  readonly seq: number;
  readonly at: string;
  /** Who sent the command: a player, or null for the system (a game's end, a timeout). */
  readonly actor: string | null;
  readonly commandId: string;
  readonly event: E;
  readonly prevHash: string;
  /** SHA-256 of prevHash and the canonical JSON of the rest. */
  readonly hash: string;
}

export interface LoadedAggregate<E> {
  readonly version: number;
  readonly hash: string;
  readonly events: readonly StoredEvent<E>[];
}

export const STREAM_GENESIS = '0'.repeat(64);

export const streamEventHash = (prevHash: string, e: Omit<StoredEvent<unknown>, 'hash' | 'prevHash'>): string =>
  sha256Hex(`${prevHash}\n${canonicalJson({ seq: e.seq, at: e.at, actor: e.actor, commandId: e.commandId, event: e.event })}`);

export class DynamoStreamStore {
  readonly doc: DynamoDBDocumentClient;
  constructor(
    client: DynamoDBClient | DynamoDBDocumentClient,
    readonly tableName: string,
  ) {
    this.doc = client instanceof DynamoDBDocumentClient ? client : documentClient(client);
  }

  /** Every event of the stream and its head (undefined when the stream does not exist). */
  async load<E>(pk: string): Promise<LoadedAggregate<E> | undefined> {
    const events: StoredEvent<E>[] = [];
    let head: { version: number; hash: string } | undefined;
    let startKey: Record<string, unknown> | undefined;
    do {
      const out: QueryCommandOutput = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :ev AND :head',
          ExpressionAttributeValues: { ':pk': pk, ':ev': 'EV#', ':head': 'HEAD' },
          ConsistentRead: true,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      for (const item of out.Items ?? []) {
        if (item['sk'] === 'HEAD') head = { version: item['version'] as number, hash: item['hash'] as string };
        else events.push(JSON.parse(item['event'] as string) as StoredEvent<E>);
      }
      startKey = out.LastEvaluatedKey;
    } while (startKey);
    if (!head) return undefined;
    // Events a racing append wrote past the head it read are not part of this read.
    const upTo = events.filter((e) => e.seq <= head.version);
    return { version: head.version, hash: head.hash, events: upTo };
  }

  async getCommand(pk: string, commandId: string): Promise<CommandRecord | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk: commandSk(commandId) }, ConsistentRead: true }));
    return out.Item ? { from: out.Item['from'] as number, to: out.Item['to'] as number } : undefined;
  }

  /**
   * Appends one command's events after `expected` (version and hash as loaded; version 0 creates
   * the stream). `index` items (listings, links) are written in the same transaction.
   * Throws DuplicateCommandError when the commandId was used before, ConcurrencyError when
   * another append got in first.
   */
  async append<E>(req: {
    pk: string;
    expected: { version: number; hash: string };
    events: readonly E[];
    commandId: string;
    actor: string | null;
    at: string;
    index?: readonly Record<string, unknown>[];
  }): Promise<StoredEvent<E>[]> {
    const { pk, expected, commandId } = req;
    const stored: StoredEvent<E>[] = [];
    let prevHash = expected.hash;
    for (const [i, event] of req.events.entries()) {
      const base = { seq: expected.version + i + 1, at: req.at, actor: req.actor, commandId, event };
      const hash = streamEventHash(prevHash, base);
      stored.push({ ...base, prevHash, hash });
      prevHash = hash;
    }
    const last = stored[stored.length - 1];
    if (!last) return [];
    const record: CommandRecord = { from: stored[0]!.seq, to: last.seq };
    const items = [
      { Put: { TableName: this.tableName, Item: { pk, sk: commandSk(commandId), commandId, ...record }, ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Put: {
          TableName: this.tableName,
          Item: { pk, sk: 'HEAD', stream: pk.slice(0, pk.indexOf('#')), version: last.seq, hash: last.hash, updatedAt: req.at },
          ...(expected.version === 0
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : { ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': 'version' }, ExpressionAttributeValues: { ':v': expected.version } }),
        },
      },
      ...stored.map((e) => ({
        Put: {
          TableName: this.tableName,
          Item: { pk, sk: eventSk(e.seq), seq: e.seq, type: (e.event as { type?: string }).type, event: JSON.stringify(e) },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      })),
      ...(req.index ?? []).map((Item) => ({ Put: { TableName: this.tableName, Item } })),
    ];
    try {
      await this.doc.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (e) {
      const reasons =
        (e as { name?: string; CancellationReasons?: { Code?: string }[] }).name === 'TransactionCanceledException'
          ? (e as { CancellationReasons?: { Code?: string }[] }).CancellationReasons
          : undefined;
      if (!reasons) throw e;
      if (reasons[0]?.Code === 'ConditionalCheckFailed') {
        const rec = await this.getCommand(pk, commandId);
        if (rec) throw new DuplicateCommandError(rec);
      }
      if (reasons.some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict'))
        throw new ConcurrencyError(`${pk} moved on from version ${expected.version}`);
      throw e;
    }
    return stored;
  }
}
