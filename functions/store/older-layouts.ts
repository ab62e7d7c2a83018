import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EventEnvelope, GameSummary } from '../../domain/kernel/index.js';
import { AppError, ConcurrencyError, DuplicateCommandError, type AppendRequest, type CommandRecord } from '../ports.js';
import {
  batchSkOf,
  cancellationReasons,
  commandSk,
  eventSk,
  gamePk,
  isItemSizeError,
  MAX_BATCH_BYTES,
  TIP,
  unmarshallMaybe,
  type DynamoEventStore,
} from './dynamo-event-store.js';
import { commandKey, decodeCommand, decodeRecent, encodeCommand, encodeRecent, prependRecent } from './event-batch.js';
import { itemSize, MAX_ITEM_BYTES, MAX_TRANSACT_BYTES, MAX_TRANSACT_ITEMS } from './item-size.js';
import type { EncodedSnapshot } from './snapshot-parts.js';
import { toWire } from './wire.js';

/**
 * Appends to games stored before the append layout: the tip layout (HEAD rewritten by every
 * command, its events moved out to batch items with each snapshot) and the item-per-event layout
 * (EV#, CMD# and HEAD in one transaction). Loaded by the store (a dynamic import) only when such
 * a game takes a command, so a function's bundle does not carry it at start.
 */
export class OlderLayouts {
  constructor(private readonly s: DynamoEventStore) {}

  /** The tip layout's append; a game whose HEAD turns out to have no tip gets the item-per-event one. */
  async appendTipOrItems(req: AppendRequest): Promise<void> {
    try {
      await this.appendTip(req);
    } catch (e) {
      // A game this store has not loaded yet may be an older one: its HEAD has no tip.
      if (e instanceof NotATip) return this.appendItems(req);
      throw e;
    }
  }

  /** The tip layout: one conditional PutItem (or UpdateItem), or one transaction that moves the tip out with a new snapshot. */
  private async appendTip(req: AppendRequest): Promise<void> {
    const { gameId, expectedVersion, events, commandId } = req;
    const pk = gamePk(gameId);
    const last = events[events.length - 1]!;
    const record: CommandRecord = { from: events[0]!.seq, to: last.seq };
    const key = commandKey(commandId);
    const known = this.s.seen.get(gameId)?.tip;
    if (known?.version === expectedVersion) {
      const recent = req.recent ?? {};
      const prior = Object.hasOwn(recent, key) ? recent[key] : undefined;
      if (prior) throw new DuplicateCommandError(prior);
      for (const evs of known.decoded) {
        if (evs[0]?.commandId === commandId) throw new DuplicateCommandError({ from: evs[0].seq, to: evs[evs.length - 1]!.seq });
      }
    }
    const batch = encodeCommand(events);
    if (batch.byteLength > MAX_ITEM_BYTES && !req.snapshot) {
      throw new AppError(
        413,
        'store/command-too-large',
        `This command's events come to ${Math.ceil(batch.byteLength / 1024)} KB compressed; one command may write at most ${MAX_ITEM_BYTES / 1024} KB. Nothing was written.`,
      );
    }
    const top = { version: last.seq, hash: last.hash, engine: req.summary.engine, status: req.summary.status, updatedAt: last.at };
    const head = {
      ...top,
      summary: compactSummary(req.summary, top),
      // The recent list as loaded, this command in front; rebuilt from the service's copy when this store did not load it.
      recent:
        known?.version === expectedVersion && known.recent
          ? prependRecent(known.recent, key, record, this.s.recentLimit)
          : encodeRecent(this.s.nextRecent(req.recent ?? {}, key, record)),
    };
    this.s.stats.appends += 1;

    let snap = req.snapshot ? this.s.encodeSnapshot(gameId, req.snapshot) : undefined;
    if (snap && [snap.item, ...snap.parts].some((i) => itemSize(i) > MAX_ITEM_BYTES)) {
      // A snapshot that does not fit is skipped: the tip just keeps the events.
      this.s.stats.snapshotsSkipped += 1;
      snap = undefined;
    }
    if (expectedVersion === 0) return this.createTip(req, head, batch, snap);
    if (!snap) {
      const refusal = { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const };
      try {
        if (known?.version === expectedVersion)
          // The tip as this store loaded it, with this command: the whole item, put over the one
          // it read (the same bytes as an update; an update expression costs DynamoDB more time).
          await this.s.client.send(
            new PutItemCommand({
              TableName: this.s.tableName,
              Item: toWire({ pk, sk: 'HEAD', layout: TIP, ...head, evs: [...known.evs, batch], snapVersion: known.snapVersion }),
              ConditionExpression: '#v = :expected AND layout = :tip',
              ExpressionAttributeNames: { '#v': 'version' },
              ExpressionAttributeValues: { ':expected': { N: String(expectedVersion) }, ':tip': { N: String(TIP) } },
              ...refusal,
            }),
          );
        else
          await this.s.doc.send(
            new UpdateCommand({
              TableName: this.s.tableName,
              Key: { pk, sk: 'HEAD' },
              UpdateExpression:
                'SET #v = :v, #h = :h, engine = :engine, #s = :status, updatedAt = :at, summary = :summary, recent = :recent, evs = list_append(evs, :evs)',
              ConditionExpression: '#v = :expected AND layout = :tip',
              ExpressionAttributeNames: { '#v': 'version', '#h': 'hash', '#s': 'status' },
              ExpressionAttributeValues: {
                ':v': head.version,
                ':h': head.hash,
                ':engine': head.engine,
                ':status': head.status,
                ':at': head.updatedAt,
                ':summary': head.summary,
                ':recent': head.recent,
                ':evs': [batch],
                ':expected': expectedVersion,
                ':tip': TIP,
              },
              ...refusal,
            }),
          );
      } catch (e) {
        throw this.tipRefusal(e, gameId, commandId, expectedVersion);
      }
      if (known?.version === expectedVersion)
        this.s.remember(gameId, 'tip', {
          version: head.version,
          snapVersion: known.snapVersion,
          evs: [...known.evs, batch],
          // The command's events as handed in: the record just encoded from them, not unpacked again.
          decoded: [...known.decoded, events],
          recent: head.recent,
        });
      else this.s.seen.delete(gameId);
      return;
    }

    // A new snapshot: the tip's events and this command's go to batch items, the tip starts empty.
    let tipEvs = known?.version === expectedVersion ? known.evs : undefined;
    const tipDecoded = known?.version === expectedVersion ? known.decoded : undefined;
    if (!tipEvs) {
      this.s.stats.tipRereads += 1;
      const out = await this.s.doc.send(new GetCommand({ TableName: this.s.tableName, Key: { pk, sk: 'HEAD' }, ConsistentRead: true }));
      if (out.Item?.['layout'] !== TIP) throw new NotATip();
      if (out.Item['version'] !== expectedVersion) throw new ConcurrencyError(`game ${gameId} moved on from version ${expectedVersion}`);
      tipEvs = (out.Item['evs'] as Uint8Array[] | undefined) ?? [];
    }
    const batches = batchItems(pk, gameId, [...tipEvs, batch], tipDecoded && [...tipDecoded, events]);
    const items = [
      ...batches.map((Item) => ({ Put: { TableName: this.s.tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' } })),
      ...[snap.item, ...snap.parts].map((Item) => ({ Put: { TableName: this.s.tableName, Item } })),
      {
        // The whole new tip, empty, put over the one read: PutItem only (the deadline function may not update).
        Put: {
          TableName: this.s.tableName,
          Item: { pk, sk: 'HEAD', layout: TIP, ...head, evs: [], snapVersion: snap.item['version'] as number },
          ConditionExpression: '#v = :expected AND layout = :tip',
          ExpressionAttributeNames: { '#v': 'version' },
          ExpressionAttributeValues: { ':expected': expectedVersion, ':tip': TIP },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
        },
      },
    ];
    this.s.checkTransaction([...batches, snap.item, ...snap.parts]);
    try {
      await this.s.doc.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (e) {
      const reasons = cancellationReasons(e);
      const headReason = reasons?.[reasons.length - 1];
      if (headReason?.Code === 'ConditionalCheckFailed')
        throw this.tipRefusal({ name: 'ConditionalCheckFailedException', Item: headReason.Item }, gameId, commandId, expectedVersion);
      if (reasons?.some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict'))
        throw new ConcurrencyError(`game ${gameId} moved on from version ${expectedVersion}`);
      if (!reasons && isItemSizeError(e))
        throw new AppError(413, 'store/command-too-large', 'This command writes more than DynamoDB accepts in one item or transaction. Nothing was written.');
      throw e;
    }
    this.s.stats.snapshotsWritten += 1;
    this.s.stats.calves += 1;
    this.s.remember(
      gameId,
      'tip',
      { version: head.version, snapVersion: snap.item['version'] as number, evs: [], decoded: [], recent: head.recent },
      this.s.storedParts(gameId, snap),
    );
  }

  private async createTip(req: AppendRequest, head: Record<string, unknown>, batch: Uint8Array, snap: EncodedSnapshot | undefined): Promise<void> {
    const { gameId } = req;
    const pk = gamePk(gameId);
    const items: { Put: { TableName: string; Item: Record<string, unknown>; ConditionExpression?: string } }[] = [
      { Put: { TableName: this.s.tableName, Item: { pk, sk: 'SECRET', gameId, seed: req.seed }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ];
    if (snap) {
      items.push(
        ...batchItems(pk, gameId, [batch]).map((Item) => ({ Put: { TableName: this.s.tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' } })),
      );
      items.push(...[snap.item, ...snap.parts].map((Item) => ({ Put: { TableName: this.s.tableName, Item } })));
    }
    const tip = { pk, sk: 'HEAD', layout: TIP, ...head, evs: snap ? [] : [batch], snapVersion: snap ? (snap.item['version'] as number) : 0 };
    items.push({ Put: { TableName: this.s.tableName, Item: tip, ConditionExpression: 'attribute_not_exists(pk)' } });
    this.s.checkTransaction(items.map((i) => i.Put.Item));
    try {
      await this.s.doc.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (e) {
      const reasons = cancellationReasons(e);
      if (reasons?.some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict'))
        throw new ConcurrencyError(`game ${gameId} already exists`);
      throw e;
    }
    if (snap) this.s.stats.snapshotsWritten += 1;
    this.s.remember(
      gameId,
      'tip',
      {
        version: head['version'] as number,
        snapVersion: tip.snapVersion,
        evs: tip.evs,
        decoded: tip.evs.map((b) => decodeCommand(gameId, b)),
        recent: head['recent'] as Uint8Array,
      },
      this.s.storedParts(gameId, snap),
    );
  }

  /** Why a conditional write on the tip failed: this command already applied, an older layout, or another command first. */
  private tipRefusal(e: unknown, gameId: string, commandId: string, expectedVersion: number): Error {
    if ((e as { name?: string }).name !== 'ConditionalCheckFailedException') return e as Error;
    const old = (e as { Item?: Record<string, unknown> }).Item;
    const item = old ? unmarshallMaybe(old) : undefined;
    if (item && item['layout'] !== TIP && item['sk'] === 'HEAD') return new NotATip();
    if (item) {
      const recent = decodeRecent(item['recent'] as Uint8Array | undefined);
      const key = commandKey(commandId);
      const prior = Object.hasOwn(recent, key) ? recent[key] : undefined;
      if (prior) return new DuplicateCommandError(prior);
      for (const b of (item['evs'] as Uint8Array[] | undefined) ?? []) {
        const evs = decodeCommand(gameId, b);
        if (evs[0]?.commandId === commandId) return new DuplicateCommandError({ from: evs[0].seq, to: evs[evs.length - 1]!.seq });
      }
    }
    this.s.seen.delete(gameId);
    return new ConcurrencyError(`game ${gameId} moved on from version ${expectedVersion}`);
  }

  /** The item-per-event layout: CMD, HEAD and every event in one TransactWriteItems. */
  async appendItems(req: AppendRequest): Promise<void> {
    const { gameId, expectedVersion, events, commandId } = req;
    const pk = gamePk(gameId);
    const first = events[0]!;
    const last = events[events.length - 1]!;
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
        recent: this.s.nextRecent(req.recent ?? {}, commandId, record),
      },
      ...(expectedVersion === 0
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: '#v = :expected AND attribute_not_exists(layout)',
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
    let snap: EncodedSnapshot | undefined;
    if (req.snapshot) {
      snap = this.s.encodeSnapshot(gameId, req.snapshot);
      const items = [snap.item, ...snap.parts];
      const size = items.reduce((n, i) => n + itemSize(i), 0);
      // A snapshot that does not fit is skipped: the tail just grows and loads page further.
      if (items.every((i) => itemSize(i) <= MAX_ITEM_BYTES) && puts.length + items.length <= MAX_TRANSACT_ITEMS && total + size <= MAX_TRANSACT_BYTES) {
        puts.push(...items.map((Item) => ({ Item })));
        this.s.stats.snapshotsWritten += 1;
      } else {
        this.s.stats.snapshotsSkipped += 1;
        snap = undefined;
      }
    }

    this.s.stats.appends += 1;
    this.s.remember(gameId, 'item-per-event');
    const parts = this.s.storedParts(gameId, snap);
    try {
      await this.s.doc.send(new TransactWriteCommand({ TransactItems: puts.map((p) => ({ Put: { TableName: this.s.tableName, ...p } })) }));
      if (snap) this.s.remember(gameId, 'item-per-event', undefined, parts);
    } catch (e) {
      const reasons = cancellationReasons(e);
      if (!reasons) {
        if (isItemSizeError(e))
          throw new AppError(413, 'store/command-too-large', 'This command writes more than DynamoDB accepts in one item or transaction. Nothing was written.');
        throw e;
      }
      const cmd = reasons[CMD_INDEX];
      if (cmd?.Code === 'ConditionalCheckFailed') {
        const rec = recordFrom(cmd.Item) ?? (await this.s.getCommand(gameId, commandId));
        if (rec) throw new DuplicateCommandError(rec);
      }
      if (reasons.some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict')) {
        throw new ConcurrencyError(`game ${gameId} moved on from version ${expectedVersion}`);
      }
      throw e;
    }
  }
}

/**
 * The summary as the tip's HEAD stores it: without what HEAD already says (the game's id is in
 * pk; version, hash, engine, status and updatedAt are HEAD's own attributes, used by conditions
 * and scans), so nothing is stored twice. The stream's reader puts them back
 * (projections/stream-image.ts headChange).
 */
function compactSummary(summary: GameSummary, top: Readonly<Record<string, unknown>>): Partial<GameSummary> {
  return Object.fromEntries(Object.entries(summary).filter(([k, v]) => k !== 'gameId' && !(Object.hasOwn(top, k) && top[k] === v)));
}

/** Signals an append to the tip layout that met a HEAD of the older layout. */
class NotATip extends Error {
  override name = 'NotATip';
}

/** The tip's command records as batch items of at most MAX_BATCH_BYTES each, keyed by their first event. `decoded`: the events of the first records, when at hand. */
function batchItems(pk: string, gameId: string, commands: readonly Uint8Array[], decoded?: readonly (readonly EventEnvelope[])[]): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  let group: { evs: Uint8Array[]; first: number; last: number; keys: Set<string>; bytes: number } | undefined;
  const flush = () => {
    if (group) items.push({ pk, sk: batchSkOf(group.first), gameId, first: group.first, last: group.last, cmds: group.keys, evs: group.evs });
    group = undefined;
  };
  for (const [i, b] of commands.entries()) {
    const evs = decoded?.[i] ?? decodeCommand(gameId, b);
    if (group && group.bytes + b.byteLength > MAX_BATCH_BYTES) flush();
    group ??= { evs: [], first: evs[0]!.seq, last: 0, keys: new Set(), bytes: 0 };
    group.evs.push(b);
    group.last = evs[evs.length - 1]!.seq;
    group.keys.add(commandKey(evs[0]!.commandId));
    group.bytes += b.byteLength;
  }
  flush();
  return items;
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
