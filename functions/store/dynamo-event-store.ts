import { gunzipSync, gzipSync } from 'node:zlib';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { EventEnvelope, GameState } from '../../domain/kernel/index.js';
import {
  AppError,
  ConcurrencyError,
  DuplicateCommandError,
  type AppendRequest,
  type CommandRecord,
  type EventStore,
  type LoadedStream,
  type Snapshot,
} from '../ports.js';
import { itemSize, MAX_ITEM_BYTES, MAX_TRANSACT_BYTES, MAX_TRANSACT_ITEMS } from './item-size.js';

/**
 * The event store on the one DynamoDB table (layout in functions/ports.ts). A game is one
 * partition: events EV#<seq>, then HEAD, SECRET and SNAP, which sort after every event, so
 * one reverse Query returns the snapshot, the seed, the head and the newest events; and
 * every append is one TransactWriteItems guarded by the head's version.
 */
export interface DynamoEventStoreOptions {
  readonly client: DynamoDBClient | DynamoDBDocumentClient;
  readonly tableName: string;
  /**
   * The service writes a snapshot once the tail reaches this many events, so a load needs
   * at most this many events plus SNAP, SECRET and HEAD: that is the Query's page size.
   * Must equal the service's `snapshotEvery` (both default to 50).
   */
  readonly snapshotInterval?: number;
  /** How many recent commandIds HEAD remembers. */
  readonly recentLimit?: number;
}

/** Counters a test or the benchmark can read; they never affect behaviour. */
export interface StoreStats {
  loads: number;
  loadQueries: number;
  /** Load queries beyond the first: only when the tail outgrew a page (a skipped snapshot, an old engine version). */
  extraPages: number;
  /** Loads repeated because the Query saw a transaction half-applied. */
  tornReads: number;
  appends: number;
  snapshotsWritten: number;
  snapshotsSkipped: number;
}

export const DEFAULT_SNAPSHOT_INTERVAL = 50;
const DEFAULT_RECENT = 50;
const EV = 'EV#';
const MAX_SEQ_SK = `${EV}9999999999`;

export const gamePk = (gameId: string): string => `GAME#${gameId}`;
export const eventSk = (seq: number): string => `${EV}${String(seq).padStart(10, '0')}`;
export const commandSk = (commandId: string): string => `CMD#${commandId}`;

interface HeadItem {
  version: number;
  hash: string;
  recent?: Record<string, CommandRecord>;
}

export class DynamoEventStore implements EventStore {
  readonly doc: DynamoDBDocumentClient;
  readonly tableName: string;
  readonly snapshotInterval: number;
  readonly recentLimit: number;
  readonly stats: StoreStats = { loads: 0, loadQueries: 0, extraPages: 0, tornReads: 0, appends: 0, snapshotsWritten: 0, snapshotsSkipped: 0 };

  constructor(opts: DynamoEventStoreOptions) {
    this.doc =
      opts.client instanceof DynamoDBDocumentClient
        ? opts.client
        : DynamoDBDocumentClient.from(opts.client, { marshallOptions: { removeUndefinedValues: true } });
    this.tableName = opts.tableName;
    this.snapshotInterval = opts.snapshotInterval ?? DEFAULT_SNAPSHOT_INTERVAL;
    this.recentLimit = opts.recentLimit ?? DEFAULT_RECENT;
  }

  async load(gameId: string): Promise<LoadedStream | undefined> {
    this.stats.loads += 1;
    // A Query is read-committed per item, not per transaction: it can see the events of an
    // append but not its head, or the reverse. We check the result hangs together and read
    // again in that (rare, racing) case.
    for (let attempt = 0; ; attempt++) {
      const r = await this.loadOnce(gameId);
      if (r !== 'torn') return r;
      this.stats.tornReads += 1;
      if (attempt >= 4) throw new Error(`game ${gameId}: the stream did not read consistently after ${attempt + 1} attempts`);
      await new Promise((res) => setTimeout(res, 5 * (attempt + 1)));
    }
  }

  private async loadOnce(gameId: string): Promise<LoadedStream | undefined | 'torn'> {
    let head: HeadItem | undefined;
    let seed: string | undefined;
    let snapshot: Snapshot | undefined;
    /** Newest first. */
    const events: EventEnvelope[] = [];
    let startKey: Record<string, unknown> | undefined;
    let limit = this.snapshotInterval + 3;
    for (let page = 0; ; page++) {
      const out: QueryCommandOutput = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk >= :ev',
          ExpressionAttributeValues: { ':pk': gamePk(gameId), ':ev': EV },
          ConsistentRead: true,
          ScanIndexForward: false,
          Limit: limit,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      this.stats.loadQueries += 1;
      if (page > 0) this.stats.extraPages += 1;
      for (const item of out.Items ?? []) {
        const sk = item['sk'] as string;
        if (sk === 'SNAP') snapshot = decodeSnapshot(item);
        else if (sk === 'SECRET') seed = item['seed'] as string;
        else if (sk === 'HEAD')
          head = {
            version: item['version'] as number,
            hash: item['hash'] as string,
            // Own entries only, whatever the map's keys are.
            recent: Object.fromEntries(Object.entries((item['recent'] as Record<string, CommandRecord> | undefined) ?? {})),
          };
        else if (sk.startsWith(EV)) {
          // Events a half-visible append wrote past the head are not part of this read.
          if (head && (item['seq'] as number) > head.version) continue;
          events.push(JSON.parse(item['envelope'] as string) as EventEnvelope);
        }
      }
      startKey = out.LastEvaluatedKey;
      if (!head) {
        if (!startKey && events.length === 0 && !snapshot && seed === undefined) return undefined;
        if (!startKey) return 'torn';
        continue;
      }
      if (snapshot && snapshot.version > head.version) return 'torn';
      const floor = snapshot?.version ?? 0;
      const lowest = events.length ? events[events.length - 1]!.seq : head.version + 1;
      if (lowest <= floor + 1 || head.version === floor) break;
      if (!startKey) return 'torn';
      // The tail is longer than a snapshot interval: read on in big pages.
      limit = 1000;
    }
    if (seed === undefined) return 'torn';
    const floor = snapshot?.version ?? 0;
    const tail = events.filter((e) => e.seq > floor).reverse();
    for (const [i, e] of tail.entries()) if (e.seq !== floor + i + 1) return 'torn';
    const lastSeq = tail.length ? tail[tail.length - 1]!.seq : floor;
    if (lastSeq !== head.version) return 'torn';
    const lastHash = tail.length ? tail[tail.length - 1]!.hash : snapshot!.state.meta.hash;
    if (lastHash !== head.hash) return 'torn';
    return { gameId, version: head.version, hash: head.hash, seed, ...(snapshot ? { snapshot } : {}), tail, recent: head.recent ?? {} };
  }

  async append(req: AppendRequest): Promise<void> {
    const { gameId, expectedVersion, events, commandId } = req;
    const pk = gamePk(gameId);
    const first = events[0];
    const last = events[events.length - 1];
    if (!first || !last) throw new Error('append needs at least one event');
    events.forEach((e, i) => {
      if (e.seq !== expectedVersion + i + 1 || e.gameId !== gameId)
        throw new Error(`event ${i} of the append is numbered ${e.seq} for game ${e.gameId}, expected ${expectedVersion + i + 1} for ${gameId}`);
    });
    if (expectedVersion === 0 && req.seed === undefined) throw new Error('creating a game needs its seed');
    const record: CommandRecord = { from: first.seq, to: last.seq };

    const puts: {
      Item: Record<string, unknown>;
      ConditionExpression?: string;
      ExpressionAttributeNames?: Record<string, string>;
      ExpressionAttributeValues?: Record<string, unknown>;
      ReturnValuesOnConditionCheckFailure?: 'ALL_OLD';
    }[] = [];
    puts.push({
      Item: { pk, sk: commandSk(commandId), gameId, commandId, ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    const CMD_INDEX = 0;
    puts.push({
      Item: {
        pk,
        sk: 'HEAD',
        gameId,
        version: last.seq,
        hash: last.hash,
        engine: req.summary.engine,
        status: req.summary.status,
        updatedAt: last.at,
        summary: req.summary,
        recent: this.nextRecent(req.recent ?? {}, commandId, record),
      },
      ...(expectedVersion === 0
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: '#v = :expected',
            ExpressionAttributeNames: { '#v': 'version' },
            ExpressionAttributeValues: { ':expected': expectedVersion },
          }),
    });
    if (req.seed !== undefined) puts.push({ Item: { pk, sk: 'SECRET', gameId, seed: req.seed }, ConditionExpression: 'attribute_not_exists(pk)' });
    for (const e of events) {
      const Item = { pk, sk: eventSk(e.seq), gameId, seq: e.seq, type: e.type, envelope: JSON.stringify(e) };
      const size = itemSize(Item);
      if (size > MAX_ITEM_BYTES) {
        throw new AppError(
          413,
          'store/event-too-large',
          `Event ${e.seq} (${e.type}) would take ${Math.ceil(size / 1024)} KB; a stored event must stay under ${MAX_ITEM_BYTES / 1024} KB. Nothing was written.`,
        );
      }
      puts.push({ Item, ConditionExpression: 'attribute_not_exists(pk)' });
    }
    for (const p of puts) {
      const size = itemSize(p.Item);
      if (size > MAX_ITEM_BYTES)
        throw new AppError(
          413,
          'store/item-too-large',
          `The game's ${String(p.Item['sk'])} record would take ${Math.ceil(size / 1024)} KB, over the ${MAX_ITEM_BYTES / 1024} KB limit. Nothing was written.`,
        );
    }
    const total = puts.reduce((s, p) => s + itemSize(p.Item), 0);
    if (puts.length > MAX_TRANSACT_ITEMS) {
      throw new AppError(
        413,
        'store/command-too-large',
        `This command produced ${events.length} events; one command may add at most ${MAX_TRANSACT_ITEMS - (puts.length - events.length)}. Nothing was written.`,
      );
    }
    if (total > MAX_TRANSACT_BYTES) {
      throw new AppError(
        413,
        'store/command-too-large',
        `This command's events come to ${Math.ceil(total / 1024)} KB; one command may write at most ${Math.floor(MAX_TRANSACT_BYTES / 1024)} KB. Nothing was written.`,
      );
    }
    if (req.snapshot) {
      const snap = encodeSnapshot(pk, gameId, req.snapshot);
      const size = itemSize(snap);
      // A snapshot that does not fit is skipped: the tail just grows and loads page further.
      if (size <= MAX_ITEM_BYTES && puts.length < MAX_TRANSACT_ITEMS && total + size <= MAX_TRANSACT_BYTES) {
        puts.push({ Item: snap });
        this.stats.snapshotsWritten += 1;
      } else {
        this.stats.snapshotsSkipped += 1;
      }
    }

    this.stats.appends += 1;
    try {
      await this.doc.send(new TransactWriteCommand({ TransactItems: puts.map((p) => ({ Put: { TableName: this.tableName, ...p } })) }));
    } catch (e) {
      const reasons = cancellationReasons(e);
      if (!reasons) {
        if (isItemSizeError(e))
          throw new AppError(413, 'store/command-too-large', 'This command writes more than DynamoDB accepts in one item or transaction. Nothing was written.');
        throw e;
      }
      const cmd = reasons[CMD_INDEX];
      if (cmd?.Code === 'ConditionalCheckFailed') {
        const rec = recordFrom(cmd.Item) ?? (await this.getCommand(gameId, commandId));
        if (rec) throw new DuplicateCommandError(rec);
      }
      if (reasons.some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict')) {
        throw new ConcurrencyError(`game ${gameId} moved on from version ${expectedVersion}`);
      }
      throw e;
    }
  }

  /**
   * HEAD's `recent` after this command. An id that names a member of Object.prototype is left
   * out: the SDK's marshalling cannot hold it as a map key ('__proto__' sets the map's
   * prototype; a 'constructor' key makes the map look like a class instance and the write
   * fails). recent is only a shortcut: the command's CMD# record still makes a retry a duplicate.
   */
  private nextRecent(prev: Readonly<Record<string, CommandRecord>>, commandId: string, rec: CommandRecord): Record<string, CommandRecord> {
    const keep = (id: string) => !Object.hasOwn(Object.prototype, id);
    const entries = Object.entries(prev).filter(([id]) => id !== commandId && keep(id));
    entries.sort((a, b) => b[1].to - a[1].to);
    return Object.fromEntries([
      ...(keep(commandId) ? [[commandId, { from: rec.from, to: rec.to }]] : []),
      ...entries.slice(0, this.recentLimit - 1).map(([id, r]) => [id, { from: r.from, to: r.to }]),
    ]);
  }

  async getCommand(gameId: string, commandId: string): Promise<CommandRecord | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: gamePk(gameId), sk: commandSk(commandId) }, ConsistentRead: true }));
    return out.Item ? { from: out.Item['from'] as number, to: out.Item['to'] as number } : undefined;
  }

  async readEvents(gameId: string, after: number, limit: number): Promise<EventEnvelope[]> {
    const out: EventEnvelope[] = [];
    if (limit <= 0) return out;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page: QueryCommandOutput = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': gamePk(gameId), ':from': eventSk(Math.max(0, after) + 1), ':to': MAX_SEQ_SK },
          ConsistentRead: true,
          ScanIndexForward: true,
          Limit: Math.min(limit - out.length, 1000),
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      for (const item of page.Items ?? []) out.push(JSON.parse(item['envelope'] as string) as EventEnvelope);
      startKey = page.LastEvaluatedKey;
    } while (startKey && out.length < limit);
    return out;
  }
}

function encodeSnapshot(pk: string, gameId: string, s: Snapshot): Record<string, unknown> {
  return {
    pk,
    sk: 'SNAP',
    gameId,
    version: s.version,
    engineVersion: s.engineVersion,
    kernelVersion: s.kernelVersion,
    state: new Uint8Array(gzipSync(JSON.stringify(s.state))),
  };
}

/** A snapshot that cannot be read is no snapshot: the load then reads the whole stream. */
function decodeSnapshot(item: Record<string, unknown>): Snapshot | undefined {
  try {
    const bytes = item['state'] as Uint8Array;
    const state = JSON.parse(gunzipSync(bytes).toString('utf8')) as GameState;
    const kernelVersion = item['kernelVersion'] as number | undefined;
    return {
      version: item['version'] as number,
      engineVersion: item['engineVersion'] as number,
      ...(kernelVersion !== undefined ? { kernelVersion } : {}),
      state,
    };
  } catch {
    return undefined;
  }
}

interface Reason {
  Code?: string;
  Item?: Record<string, unknown>;
}

function cancellationReasons(e: unknown): Reason[] | undefined {
  if (typeof e !== 'object' || e === null || (e as { name?: string }).name !== 'TransactionCanceledException') return undefined;
  return ((e as { CancellationReasons?: Reason[] }).CancellationReasons ?? []) as Reason[];
}

/** The CMD record returned with the failed condition, raw AttributeValues or plain. */
function recordFrom(item: Record<string, unknown> | undefined): CommandRecord | undefined {
  if (!item) return undefined;
  const num = (v: unknown): number | undefined =>
    typeof v === 'number' ? v : typeof v === 'object' && v !== null && 'N' in v ? Number((v as { N: string }).N) : undefined;
  const from = num(item['from']);
  const to = num(item['to']);
  return from !== undefined && to !== undefined ? { from, to } : undefined;
}

function isItemSizeError(e: unknown): boolean {
  const m = (e as { message?: string } | undefined)?.message ?? '';
  return (e as { name?: string } | undefined)?.name === 'ValidationException' && /size|exceed|too large|4 ?MB/i.test(m);
}
