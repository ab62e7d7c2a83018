import { PutItemCommand, QueryCommand as WireQueryCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { EventEnvelope, GameSummary } from '../../domain/kernel/index.js';
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
import { documentClient } from './document-client.js';
import { commandKey, decodeCommand, decodeRecent, encodeCommand, encodeRecent } from './event-batch.js';
import { commandEnds, firstSeqOf, HEAD_ITEMS_END, HEAD_PREFIX, headItemSk, headOf, summaryOfItem } from './head-items.js';
import { itemSize, MAX_ITEM_BYTES, MAX_TRANSACT_BYTES, MAX_TRANSACT_ITEMS } from './item-size.js';
import type { OlderLayouts } from './older-layouts.js';
import { PART, SnapshotCodec, type EncodedSnapshot } from './snapshot-parts.js';
import { fromWire, toWire, type WireItem } from './wire.js';

/**
 * The event store on the one DynamoDB table (layout in functions/ports.ts). A game is one
 * partition. New games use the append layout (store/head-items.ts): every command puts one new
 * HEAD#<first seq> item with its events and the head after them, on condition that the key is
 * new; every snapshotItems commands the item carries a snapshot too. A load is one Query of
 * SECRET, the parts and the HEAD# items from the newest snapshot on; an append one PutItem.
 * Games created before it, in the tip layout (after Equinox's DynamoStore): HEAD is the tip and
 * holds, besides the head, the events after the snapshot (one compressed record per command);
 * SNAP holds the snapshot, its large constant values (the card catalog) are PART# items written
 * once per game (store/snapshot-parts.ts), and SECRET holds the seed. A load is one Query
 * returning SNAP, SECRET, the parts and HEAD; an append is one conditional PutItem of HEAD (the tip this store loaded, with
 * the command added; an UpdateItem when this store has not loaded it), or, when the service hands a new
 * snapshot, one TransactWriteItems that moves the tip's events out to batch items (B#<first seq>),
 * writes SNAP and empties the tip. Games written in the item-per-event layout (EV#<seq> items,
 * a CMD# item per command) keep loading and appending as they were: the same Query returns
 * their newest events after HEAD.
 */
export interface DynamoEventStoreOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /**
   * The service writes a snapshot once the tail reaches this many events, so a load needs
   * at most this many events plus SNAP, SECRET and HEAD: that is the Query's page size.
   * Must equal the service's `snapshotEvery` (both default to DEFAULT_SNAPSHOT_INTERVAL).
   */
  readonly snapshotInterval?: number;
  /** How many recent commandIds HEAD remembers. */
  readonly recentLimit?: number;
  /**
   * Append layout: at most this many HEAD# items make a load (the newest snapshot's and those
   * after it); the load asks for a snapshot with the next append once they would be more. Sets
   * the load's page size.
   */
  readonly snapshotItems?: number;
  /** The layout new games are created in: 'append' (default), or the older 'tip' and 'item-per-event' (tests of games stored before). */
  readonly newGames?: Layout;
}

type Layout = 'append' | 'tip' | 'item-per-event';

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
  /** Appends that moved the tip's events out to batch items. */
  calves: number;
  /** Appends that had to read the tip first (no load of it by this store at that version). */
  tipRereads: number;
  /** Command records a load of the tip unpacked (those this store had unpacked before are reused). */
  recordsUnpacked: number;
}

/**
 * 25, not 50: every command rewrites the tip, whose size grows with the events since the snapshot,
 * so a shorter tip costs fewer write and read units. Measured on the bench's Spearpoint game: 50
 * gave 6.6 WRU + 3.1 RRU per command and 1.55 RRU per view, 25 gave 5.4 + 2.7 and 1.34; 15 gained
 * little more (5.3 + 2.5) for twice the snapshot writes.
 */
export const DEFAULT_SNAPSHOT_INTERVAL = 25;
const DEFAULT_RECENT = 50;
/**
 * See DynamoEventStoreOptions.snapshotItems. Measured on the bench's Spearpoint game (388 commands),
 * write / read units per command and read units per view: 4 items 1.76 / 2.97 / 1.49, 5: 1.67 / 2.98 /
 * 1.50, 6: 1.60 / 3.22 / 1.63, 8: 1.52 / 3.91 / 1.96, 10: 1.47 / 4.01 / 2.01, 12: 1.43 / 4.63 / 2.34.
 * 5 and 6 cost the same in dollars (a write unit costs five read units); 6 stores less per event.
 */
export const DEFAULT_SNAPSHOT_ITEMS = 6;
const EV = 'EV#';
/** Batch items of the tip layout sort before CMD# and EV#, outside the load's range. */
const BATCH = 'B#';
export const TIP = 2;
/** Room in the load's first page for the PART# items beside SNAP, SECRET and HEAD. */
const PART_ROOM = 8;
/** Stay under DynamoDB's 400 KB per item with room for the head's own attributes. */
export const MAX_BATCH_BYTES = 300 * 1024;
const MAX_SEQ_SK = `${EV}9999999999`;

export const gamePk = (gameId: string): string => `GAME#${gameId}`;
export const eventSk = (seq: number): string => `${EV}${String(seq).padStart(10, '0')}`;
export const commandSk = (commandId: string): string => `CMD#${commandId}`;
export const batchSkOf = (firstSeq: number): string => `${BATCH}${String(firstSeq).padStart(10, '0')}`;

/**
 * What this store saw of a tip-layout game's tip, so an append that moves it out need not read it
 * again, and a load or an append need not unpack again the command records it already unpacked.
 */
interface TipSeen {
  readonly version: number;
  /** The version of the snapshot the tip's events follow. */
  readonly snapVersion: number;
  readonly evs: readonly Uint8Array[];
  /** The events of each record of `evs`, unpacked. */
  readonly decoded: readonly (readonly EventEnvelope[])[];
  /** HEAD's recent list at `version`, as stored. */
  readonly recent: Uint8Array | undefined;
  /** The same, unpacked, when it was. */
  readonly recentDecoded?: Readonly<Record<string, CommandRecord>>;
}

/** What this store saw of an append-layout game: its head, and the HEAD# items of its last load or append, unpacked. */
interface HeadsSeen {
  readonly version: number;
  readonly summary: GameSummary;
  /** Sort key -> the item's command record and its events, for the items a load needs. */
  readonly decoded: ReadonlyMap<string, { readonly bytes: Uint8Array; readonly events: readonly EventEnvelope[] }>;
}

/** The last snapshot this store decoded of a game, and the stored bytes it came from. */
interface SnapSeen {
  readonly bytes: Uint8Array;
  readonly snapshot: Snapshot;
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a === b || (a.byteLength === b.byteLength && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b));

interface HeadItem {
  version: number;
  hash: string;
  recent?: Record<string, CommandRecord>;
}

export class DynamoEventStore implements EventStore {
  readonly doc: DynamoDBDocumentClient;
  /** The plain client, for the calls every command makes (the load's Query, the tip's PutItem): attribute values written and read directly (store/wire.ts). */
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly snapshotInterval: number;
  readonly recentLimit: number;
  readonly snapshotItems: number;
  readonly newGames: Layout;
  readonly stats: StoreStats = {
    loads: 0,
    loadQueries: 0,
    extraPages: 0,
    tornReads: 0,
    appends: 0,
    snapshotsWritten: 0,
    snapshotsSkipped: 0,
    calves: 0,
    tipRereads: 0,
    recordsUnpacked: 0,
  };
  /** Layout and tip by game, from this store's own loads and appends (bounded; a miss costs one read). */
  readonly seen = new Map<string, { layout: Layout; tip?: TipSeen; heads?: HeadsSeen; parts?: ReadonlySet<string>; snap?: SnapSeen }>();
  private readonly snapshots = new SnapshotCodec();

  constructor(opts: DynamoEventStoreOptions) {
    this.client = opts.client;
    this.doc = documentClient(opts.client);
    this.tableName = opts.tableName;
    this.snapshotInterval = opts.snapshotInterval ?? DEFAULT_SNAPSHOT_INTERVAL;
    this.recentLimit = opts.recentLimit ?? DEFAULT_RECENT;
    this.snapshotItems = opts.snapshotItems ?? DEFAULT_SNAPSHOT_ITEMS;
    if (!Number.isInteger(this.snapshotItems) || this.snapshotItems < 2)
      throw new Error(`snapshotItems must be a whole number of 2 or more, got ${this.snapshotItems}`);
    this.newGames = opts.newGames ?? 'append';
  }

  /** `parts`: the PART# hashes the partition holds; left out, those remembered before are kept. */
  remember(gameId: string, layout: Layout, tip?: TipSeen, parts?: ReadonlySet<string>, heads?: HeadsSeen): void {
    const before = this.seen.get(gameId);
    const known = parts ?? before?.parts;
    this.seen.delete(gameId);
    this.seen.set(gameId, {
      layout,
      ...(tip ? { tip } : {}),
      ...(heads ? { heads } : {}),
      ...(known ? { parts: known } : {}),
      ...(before?.snap ? { snap: before.snap } : {}),
    });
    if (this.seen.size > 512) this.seen.delete(this.seen.keys().next().value!);
  }

  async load(gameId: string, opts: { readonly consistent?: boolean } = {}): Promise<LoadedStream | undefined> {
    this.stats.loads += 1;
    // A Query is read-committed per item, not per transaction: it can see the events of an
    // append but not its head, or the reverse. We check the result hangs together and read
    // again in that (rare, racing) case. An eventually consistent read that came back torn, or
    // found no game (one created a moment ago), is repeated as a strongly consistent one.
    for (let attempt = 0; ; attempt++) {
      const consistent = opts.consistent !== false || attempt > 0;
      const r = await this.loadOnce(gameId, consistent);
      if (r === undefined && !consistent) continue;
      if (r !== 'torn') return r;
      this.stats.tornReads += 1;
      if (attempt >= 4) throw new Error(`game ${gameId}: the stream did not read consistently after ${attempt + 1} attempts`);
      await new Promise((res) => setTimeout(res, 5 * (attempt + 1)));
    }
  }

  private async loadOnce(gameId: string, consistent: boolean): Promise<LoadedStream | undefined | 'torn'> {
    let head: HeadItem | undefined;
    let seed: string | undefined;
    let snapshot: Snapshot | undefined;
    let snapItem: Record<string, unknown> | undefined;
    const parts = new Map<string, Uint8Array>();
    /** Newest first. */
    const events: EventEnvelope[] = [];
    let tipHead: Record<string, unknown> | undefined;
    /** Append layout: the HEAD# items, newest first. */
    const heads: Record<string, unknown>[] = [];
    let startKey: WireItem | undefined;
    const known = this.seen.get(gameId);
    // An append-layout game this store knows needs SECRET, its parts and at most snapshotItems HEAD# items.
    let limit =
      known?.layout === 'append'
        ? this.snapshotItems + 1 + (known.parts?.size ?? PART_ROOM)
        : Math.max(this.snapshotInterval + 3, this.snapshotItems + 1) + PART_ROOM;
    for (let page = 0; ; page++) {
      const out = await this.client.send(
        new WireQueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk >= :ev',
          ExpressionAttributeValues: { ':pk': { S: gamePk(gameId) }, ':ev': { S: EV } },
          ConsistentRead: consistent,
          ScanIndexForward: false,
          Limit: limit,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      this.stats.loadQueries += 1;
      if (page > 0) this.stats.extraPages += 1;
      for (const wire of out.Items ?? []) {
        const item = fromWire(wire);
        const sk = item['sk'] as string;
        if (sk === 'SNAP') snapItem = item;
        else if (sk.startsWith(PART)) parts.set(sk.slice(PART.length), item['value'] as Uint8Array);
        else if (sk === 'SECRET') seed = item['seed'] as string;
        else if (sk.startsWith(HEAD_PREFIX)) heads.push(item);
        else if (sk === 'HEAD' && item['layout'] === TIP) tipHead = item;
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
      // SNAP, SECRET, the parts and HEAD sort last: they all come in the first page.
      if (page === 0) snapshot = snapItem ? this.decodeSnapshot(gameId, snapItem, parts) : undefined;
      // A tip-layout game is whole in the first page.
      if (tipHead) return this.fromTip(gameId, tipHead, seed, snapshot, new Set(parts.keys()));
      if (heads.length) return this.fromHeads(gameId, heads, startKey, seed, parts, consistent);
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
    this.remember(gameId, 'item-per-event', undefined, new Set(parts.keys()));
    return { gameId, version: head.version, hash: head.hash, seed, ...(snapshot ? { snapshot } : {}), tail, recent: head.recent ?? {} };
  }

  private fromTip(
    gameId: string,
    item: Record<string, unknown>,
    seed: string | undefined,
    snapshot: Snapshot | undefined,
    parts: ReadonlySet<string>,
  ): LoadedStream | 'torn' {
    const version = item['version'] as number;
    const hash = item['hash'] as string;
    const snapVersion = (item['snapVersion'] as number | undefined) ?? 0;
    // SNAP and HEAD are written together; a Query may see one transaction's SNAP and another's HEAD.
    if (seed === undefined || (snapshot?.version ?? 0) !== snapVersion) return 'torn';
    const evs = (item['evs'] as Uint8Array[] | undefined) ?? [];
    // A record this store unpacked before (the same bytes) is not unpacked again.
    const before = this.seen.get(gameId)?.tip;
    const decoded = evs.map((b, i) => {
      const old = before?.evs[i];
      if (old && sameBytes(old, b)) return before.decoded[i]!;
      this.stats.recordsUnpacked += 1;
      return decodeCommand(gameId, b);
    });
    const tail = decoded.flat();
    for (const [i, e] of tail.entries()) if (e.seq !== snapVersion + i + 1) return 'torn';
    const lastHash = tail.length ? tail[tail.length - 1]!.hash : snapshot?.state.meta.hash;
    if ((tail.length ? tail[tail.length - 1]!.seq : snapVersion) !== version || lastHash !== hash) {
      throw new Error(`game ${gameId}: the tip's events do not end at its head (version ${version}); the stored game is damaged`);
    }
    const recent = item['recent'] as Uint8Array | undefined;
    const recentDecoded = before?.recentDecoded && before.recent && recent && sameBytes(before.recent, recent) ? before.recentDecoded : decodeRecent(recent);
    this.remember(gameId, 'tip', { version, snapVersion, evs, decoded, recent, recentDecoded }, parts);
    return { gameId, version, hash, seed, ...(snapshot ? { snapshot } : {}), tail, recent: recentDecoded };
  }

  /**
   * An append-layout game from its HEAD# items (newest first, as the load's Query returned them):
   * down to the newest one holding a snapshot, or the game's first. Reads on when the page
   * stopped short of it (a snapshot skipped or lost, or a page that had less room than the game
   * has parts). Every item is checked to follow the one before: seq and hash.
   */
  private async fromHeads(
    gameId: string,
    heads: Record<string, unknown>[],
    startKey: WireItem | undefined,
    seed: string | undefined,
    parts: ReadonlyMap<string, Uint8Array>,
    consistent: boolean,
  ): Promise<LoadedStream | 'torn'> {
    const isBase = (item: Record<string, unknown>) => item['snap'] !== undefined || firstSeqOf(item['sk'] as string) === 1;
    let base = heads.findIndex(isBase);
    while (base < 0 && startKey) {
      const out = await this.client.send(
        new WireQueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': { S: gamePk(gameId) }, ':from': { S: HEAD_PREFIX }, ':to': { S: HEAD_ITEMS_END } },
          ConsistentRead: consistent,
          ScanIndexForward: false,
          Limit: 100,
          ExclusiveStartKey: startKey,
        }),
      );
      this.stats.loadQueries += 1;
      this.stats.extraPages += 1;
      for (const wire of out.Items ?? []) heads.push(fromWire(wire));
      startKey = out.LastEvaluatedKey;
      base = heads.findIndex(isBase);
    }
    if (base < 0) throw new Error(`game ${gameId}: no snapshot and no first command found under its newest item; the stored game is damaged`);
    // SECRET and the first item are written together: a Query may see the one but not yet the other.
    if (seed === undefined) return 'torn';
    const chain = heads.slice(0, base + 1).reverse();
    const before = this.seen.get(gameId)?.heads?.decoded;
    const decoded = new Map<string, { bytes: Uint8Array; events: readonly EventEnvelope[] }>();
    let prev: EventEnvelope | undefined;
    for (const item of chain) {
      const sk = item['sk'] as string;
      const bytes = item['ev'] as Uint8Array;
      const old = before?.get(sk);
      const events = old && sameBytes(old.bytes, bytes) ? old.events : decodeCommand(gameId, bytes);
      if (events !== old?.events) this.stats.recordsUnpacked += 1;
      const first = events[0]!;
      if (first.seq !== firstSeqOf(sk) || (prev && (first.seq !== prev.seq + 1 || first.prevHash !== prev.hash)))
        throw new Error(`game ${gameId}: item ${sk} does not follow the one before it (seq or hash); the stored game is damaged`);
      decoded.set(sk, { bytes, events });
      prev = events[events.length - 1]!;
    }
    const baseItem = chain[0]!;
    const snapshot =
      baseItem['snap'] !== undefined ? this.decodeSnapshot(gameId, snapItemOf(baseItem, decoded.get(baseItem['sk'] as string)!.events), parts) : undefined;
    if (baseItem['snap'] !== undefined && !snapshot)
      throw new Error(`game ${gameId}: the snapshot in ${String(baseItem['sk'])} cannot be read; the stored game is damaged`);
    const tail = chain.slice(snapshot ? 1 : 0).flatMap((item) => decoded.get(item['sk'] as string)!.events);
    const recent: Record<string, CommandRecord> = { ...decodeRecent(baseItem['recent'] as Uint8Array | undefined) };
    for (const item of chain.slice(snapshot ? 1 : 0)) {
      const evs = decoded.get(item['sk'] as string)!.events;
      recent[commandKey(evs[0]!.commandId)] = { from: evs[0]!.seq, to: evs[evs.length - 1]!.seq };
    }
    const top = chain[chain.length - 1]!;
    const topEvents = decoded.get(top['sk'] as string)!.events;
    const last = topEvents[topEvents.length - 1]!;
    const summary = summaryOfItem(gameId, top, commandEnds(top['ev'] as Uint8Array));
    this.remember(gameId, 'append', undefined, new Set(parts.keys()), { version: last.seq, summary, decoded });
    return {
      gameId,
      version: last.seq,
      hash: last.hash,
      seed,
      ...(snapshot ? { snapshot } : {}),
      tail,
      recent,
      // The next append makes the load read one item more: it carries a snapshot when that would pass snapshotItems.
      snapshotDue: chain.length + 1 > this.snapshotItems,
    };
  }

  async append(req: AppendRequest): Promise<void> {
    const { gameId, expectedVersion, events } = req;
    events.forEach((e, i) => {
      if (e.seq !== expectedVersion + i + 1 || e.gameId !== gameId)
        throw new Error(`event ${i} of the append is numbered ${e.seq} for game ${e.gameId}, expected ${expectedVersion + i + 1} for ${gameId}`);
    });
    if (!events.length) throw new Error('append needs at least one event');
    if (expectedVersion === 0 && req.seed === undefined) throw new Error('creating a game needs its seed');
    const layout = expectedVersion === 0 ? this.newGames : this.seen.get(gameId)?.layout;
    if (layout === 'item-per-event') return (await this.olderLayouts()).appendItems(req);
    // A game this store has not loaded is looked up: its newest HEAD# item, or an older layout's HEAD.
    if ((layout === 'append' || layout === undefined) && (await this.appendHead(req))) return;
    return (await this.olderLayouts()).appendTipOrItems(req);
  }

  private older: OlderLayouts | undefined;
  /** The appends of the layouts before this one, loaded when a game stored in one of them first takes a command. */
  private async olderLayouts(): Promise<OlderLayouts> {
    this.older ??= new (await import('./older-layouts.js')).OlderLayouts(this);
    return this.older;
  }

  /**
   * The append layout: one new HEAD# item, put on condition that its key is new (a TransactWriteItems
   * with SECRET when creating, or with the parts a first snapshot refers to). False when the game
   * is stored in an older layout (no HEAD# item).
   */
  private async appendHead(req: AppendRequest): Promise<boolean> {
    const { gameId, expectedVersion, events, commandId } = req;
    const pk = gamePk(gameId);
    const first = events[0]!;
    const last = events[events.length - 1]!;
    let before = this.seen.get(gameId)?.heads;
    if (expectedVersion > 0 && before?.version !== expectedVersion) {
      this.stats.tipRereads += 1;
      const out = await this.client.send(
        new WireQueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': { S: pk }, ':from': { S: HEAD_PREFIX }, ':to': { S: HEAD_ITEMS_END } },
          ConsistentRead: true,
          ScanIndexForward: false,
          Limit: 1,
        }),
      );
      const wire = out.Items?.[0];
      if (!wire) return false;
      const item = fromWire(wire);
      const evs = decodeCommand(gameId, item['ev'] as Uint8Array);
      const top = evs[evs.length - 1]!;
      const ends = commandEnds(item['ev'] as Uint8Array);
      if (top.seq !== expectedVersion) {
        // This command sent again, if it made the newest item; any older one the service finds in the stream it reloads.
        if (evs[0]!.commandId === commandId && evs[0]!.seq === expectedVersion + 1) throw new DuplicateCommandError({ from: evs[0]!.seq, to: top.seq });
        throw new ConcurrencyError(`game ${gameId} moved on from version ${expectedVersion}`);
      }
      before = { version: top.seq, summary: summaryOfItem(gameId, item, ends), decoded: new Map() };
    }
    const head = headOf(req.summary, last, before?.summary);
    const ev = encodeCommand(events, head.record);
    const item: Record<string, unknown> = { pk, sk: headItemSk(first.seq), ...head.attributes, ev };
    if (itemSize(item) > MAX_ITEM_BYTES) {
      throw new AppError(
        413,
        'store/command-too-large',
        `This command's events come to ${Math.ceil(itemSize(item) / 1024)} KB compressed; one command may write at most ${MAX_ITEM_BYTES / 1024} KB. Nothing was written.`,
      );
    }
    let snap: EncodedSnapshot | undefined;
    if (req.snapshot) {
      snap = req.snapshot.version === last.seq ? this.encodeSnapshot(gameId, req.snapshot) : undefined;
      const recent = encodeRecent(this.nextRecent(req.recent ?? {}, commandKey(commandId), { from: first.seq, to: last.seq }));
      const withSnap = snap && { ...item, ...snapFieldsOf(snap.item), recent };
      if (snap && withSnap && itemSize(withSnap) <= MAX_ITEM_BYTES && snap.parts.every((p) => itemSize(p) <= MAX_ITEM_BYTES)) Object.assign(item, withSnap);
      else {
        // A snapshot that does not fit is skipped: the next loads read further back, and the next append carries one.
        this.stats.snapshotsSkipped += 1;
        snap = undefined;
      }
    }
    const others = [...(expectedVersion === 0 ? [{ pk, sk: 'SECRET', gameId, seed: req.seed }] : []), ...(snap?.parts ?? [])];
    this.stats.appends += 1;
    const condition = { ConditionExpression: 'attribute_not_exists(pk)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const };
    try {
      if (!others.length) await this.client.send(new PutItemCommand({ TableName: this.tableName, Item: toWire(item), ...condition }));
      else {
        this.checkTransaction([item, ...others]);
        await this.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: this.tableName, Item: item, ...condition } },
              ...others.map((Item) => ({
                Put: { TableName: this.tableName, Item, ...(Item['sk'] === 'SECRET' ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}) },
              })),
            ],
          }),
        );
      }
    } catch (e) {
      throw this.headRefusal(e, gameId, commandId, expectedVersion);
    }
    if (snap) this.stats.snapshotsWritten += 1;
    // What the next load reads again: the items since the snapshot (none when this one holds it), this one.
    const decoded = new Map(snap ? [] : (before?.decoded ?? []));
    decoded.set(item['sk'] as string, { bytes: ev, events });
    this.remember(gameId, 'append', undefined, this.storedParts(gameId, snap), { version: last.seq, summary: req.summary, decoded });
    return true;
  }

  /** Why a new HEAD# item was refused: this command already made it, or another command came first. */
  private headRefusal(e: unknown, gameId: string, commandId: string, expectedVersion: number): Error {
    const reasons = cancellationReasons(e);
    const refused =
      (e as { name?: string }).name === 'ConditionalCheckFailedException'
        ? (e as { Item?: Record<string, unknown> }).Item
        : reasons?.[0]?.Code === 'ConditionalCheckFailed'
          ? reasons[0].Item
          : undefined;
    const ev = refused ? unmarshallMaybe(refused)['ev'] : undefined;
    if (ev instanceof Uint8Array) {
      const evs = decodeCommand(gameId, ev);
      if (evs[0]?.commandId === commandId) return new DuplicateCommandError({ from: evs[0].seq, to: evs[evs.length - 1]!.seq });
    }
    if (
      (e as { name?: string }).name === 'ConditionalCheckFailedException' ||
      reasons?.some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict')
    ) {
      this.seen.delete(gameId);
      return new ConcurrencyError(expectedVersion === 0 ? `game ${gameId} already exists` : `game ${gameId} moved on from version ${expectedVersion}`);
    }
    if (!reasons && isItemSizeError(e))
      return new AppError(413, 'store/command-too-large', 'This command writes more than DynamoDB accepts in one item or transaction. Nothing was written.');
    return e as Error;
  }

  /** A SNAP item as a snapshot; the one decoded last time when its bytes have not changed (a snapshot is a value nothing changes). */
  private decodeSnapshot(gameId: string, item: Record<string, unknown>, parts: ReadonlyMap<string, Uint8Array>): Snapshot | undefined {
    const seen = this.seen.get(gameId);
    const bytes = item['state'] as Uint8Array;
    if (seen?.snap && sameBytes(seen.snap.bytes, bytes) && seen.snap.snapshot.version === item['version']) return seen.snap.snapshot;
    const snapshot = this.snapshots.decode(item, parts);
    if (snapshot && seen) this.seen.set(gameId, { ...seen, snap: { bytes, snapshot } });
    return snapshot;
  }

  /** The snapshot's SNAP item and the PART# items it needs that this game's partition is not known to hold. */
  encodeSnapshot(gameId: string, s: Snapshot): EncodedSnapshot {
    return this.snapshots.encode(gamePk(gameId), gameId, s, this.seen.get(gameId)?.parts ?? new Set());
  }

  /** The parts the partition holds once `snap` is written (those known before, and the ones it refers to). */
  storedParts(gameId: string, snap: EncodedSnapshot | undefined): ReadonlySet<string> | undefined {
    const before = this.seen.get(gameId)?.parts;
    return snap ? new Set([...(before ?? []), ...snap.refs]) : before;
  }

  /** Every item within DynamoDB's item limit, and the whole within the transaction's; 413 otherwise. */
  checkTransaction(items: readonly Record<string, unknown>[]): void {
    let total = 0;
    for (const item of items) {
      const size = itemSize(item);
      total += size;
      if (size > MAX_ITEM_BYTES)
        throw new AppError(
          413,
          'store/item-too-large',
          `The game's ${String(item['sk'])} record would take ${Math.ceil(size / 1024)} KB, over the ${MAX_ITEM_BYTES / 1024} KB limit. Nothing was written.`,
        );
    }
    if (items.length > MAX_TRANSACT_ITEMS || total > MAX_TRANSACT_BYTES)
      throw new AppError(
        413,
        'store/command-too-large',
        `This command's events come to ${Math.ceil(total / 1024)} KB compressed; one command may write at most ${Math.floor(MAX_TRANSACT_BYTES / 1024)} KB. Nothing was written.`,
      );
  }

  /**
   * HEAD's `recent` after this command. An id that names a member of Object.prototype is left
   * out: the SDK's marshalling cannot hold it as a map key ('__proto__' sets the map's
   * prototype; a 'constructor' key makes the map look like a class instance and the write
   * fails). recent is only a shortcut: the command's CMD# record still makes a retry a duplicate.
   */
  nextRecent(prev: Readonly<Record<string, CommandRecord>>, commandId: string, rec: CommandRecord): Record<string, CommandRecord> {
    const keep = (id: string) => !Object.hasOwn(Object.prototype, id);
    const entries = Object.entries(prev).filter(([id]) => id !== commandId && keep(id));
    entries.sort((a, b) => b[1].to - a[1].to);
    return Object.fromEntries([
      ...(keep(commandId) ? [[commandId, { from: rec.from, to: rec.to }]] : []),
      ...entries.slice(0, this.recentLimit - 1).map(([id, r]) => [id, { from: r.from, to: r.to }]),
    ]);
  }

  /**
   * Where a command's events are. Tip layout: the head's recent commands, then the tip's events,
   * then the batch items' command keys (a Query with a filter: only for retries of old commands).
   */
  async getCommand(gameId: string, commandId: string): Promise<CommandRecord | undefined> {
    // An append-layout game has neither CMD# items nor HEAD: a store that loaded it goes straight to its HEAD# items.
    if (this.seen.get(gameId)?.layout === 'append') return this.findInHeads(gameId, commandId);
    const pk = gamePk(gameId);
    const cmd = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk: commandSk(commandId) }, ConsistentRead: true }));
    if (cmd.Item) return { from: cmd.Item['from'] as number, to: cmd.Item['to'] as number };
    const head = (await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk: 'HEAD' }, ConsistentRead: true }))).Item;
    if (!head) return this.findInHeads(gameId, commandId);
    if (head['layout'] !== TIP) return undefined;
    const key = commandKey(commandId);
    const recent = decodeRecent(head['recent'] as Uint8Array | undefined);
    const hit = Object.hasOwn(recent, key) ? recent[key] : undefined;
    const candidates: Uint8Array[] = [...((head['evs'] as Uint8Array[] | undefined) ?? [])];
    let startKey: Record<string, unknown> | undefined;
    if (!hit) {
      do {
        const page: QueryCommandOutput = await this.doc.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :b)',
            FilterExpression: 'contains(cmds, :k)',
            ExpressionAttributeValues: { ':pk': pk, ':b': BATCH, ':k': key },
            ConsistentRead: true,
            ...(startKey ? { ExclusiveStartKey: startKey } : {}),
          }),
        );
        for (const item of page.Items ?? []) candidates.push(...((item['evs'] as Uint8Array[] | undefined) ?? []));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    }
    // The key is a hash: the events themselves say whether it is this command.
    for (const b of candidates) {
      const evs = decodeCommand(gameId, b);
      if (evs[0]?.commandId === commandId) return { from: evs[0].seq, to: evs[evs.length - 1]!.seq };
    }
    return hit;
  }

  async isCurrent(gameId: string, version: number): Promise<boolean> {
    const pk = gamePk(gameId);
    // The older layouts keep the version on HEAD; a game with no HEAD is in the append layout.
    if (this.seen.get(gameId)?.layout !== 'append') {
      const head = await this.doc.send(
        new GetCommand({ TableName: this.tableName, Key: { pk, sk: 'HEAD' }, ProjectionExpression: 'version', ConsistentRead: true }),
      );
      if (head.Item) return head.Item['version'] === version;
    }
    // Append layout: a command's HEAD# key is its first event's seq, so any key past `version` is a newer command.
    const newer = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': headItemSk(version + 1), ':to': HEAD_ITEMS_END },
        ProjectionExpression: 'sk',
        ConsistentRead: true,
        Limit: 1,
      }),
    );
    return (newer.Items ?? []).length === 0;
  }

  /** An append-layout game's command by id: every HEAD# item read, newest first (only for retries of old commands). */
  private async findInHeads(gameId: string, commandId: string): Promise<CommandRecord | undefined> {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page: QueryCommandOutput = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': gamePk(gameId), ':from': HEAD_PREFIX, ':to': HEAD_ITEMS_END },
          ProjectionExpression: 'ev',
          ConsistentRead: true,
          ScanIndexForward: false,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        const evs = decodeCommand(gameId, item['ev'] as Uint8Array);
        if (evs[0]?.commandId === commandId) return { from: evs[0].seq, to: evs[evs.length - 1]!.seq };
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return undefined;
  }

  async readEvents(
    gameId: string,
    after: number,
    limit: number,
    opts: { readonly upTo?: number; readonly consistent?: boolean } = {},
  ): Promise<EventEnvelope[]> {
    const out: EventEnvelope[] = [];
    if (limit <= 0) return out;
    let layout = this.seen.get(gameId)?.layout;
    if (!layout) {
      const head = await this.doc.send(
        new GetCommand({ TableName: this.tableName, Key: { pk: gamePk(gameId), sk: 'HEAD' }, ProjectionExpression: 'layout', ConsistentRead: true }),
      );
      // A game with no HEAD is in the append layout (or does not exist: then it has no HEAD# item either).
      layout = !head.Item ? 'append' : head.Item['layout'] === TIP ? 'tip' : 'item-per-event';
    }
    if (layout === 'tip') return this.readTipEvents(gameId, after, limit);
    if (layout === 'append') {
      // Eventually consistent only when asked, up to a known event, and only if what it gives runs
      // unbroken from `after` to there (a replica a moment behind may miss an item); else read again, consistent.
      if (opts.consistent === false && opts.upTo !== undefined) {
        const seen = await this.readHeadEvents(gameId, after, limit, opts.upTo, false);
        if (seen.length === Math.min(limit, opts.upTo - after) && seen.every((e, i) => e.seq === after + 1 + i)) return seen;
      }
      return this.readHeadEvents(gameId, after, limit, opts.upTo);
    }
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

  /**
   * The append layout's events after `after`: HEAD# items read newest first (from the one holding
   * event `upTo`, when given) down to the one that holds event `after` + 1, a small page first (a
   * feed asks for the newest events), then pages sized by the events per item read so far
   * (DynamoDB bills every item a Query reads).
   */
  private async readHeadEvents(gameId: string, after: number, limit: number, upTo?: number, consistent = true): Promise<EventEnvelope[]> {
    const items: Uint8Array[] = [];
    let startKey: Record<string, unknown> | undefined;
    let pageSize = 4;
    let top: number | undefined;
    let lowest = 0;
    reading: do {
      const page: QueryCommandOutput = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          // An item's key is its first event's seq: the one holding `upTo` is the newest at or below it.
          ExpressionAttributeValues: { ':pk': gamePk(gameId), ':from': HEAD_PREFIX, ':to': upTo === undefined ? HEAD_ITEMS_END : headItemSk(upTo) },
          ProjectionExpression: 'sk, ev',
          ConsistentRead: consistent,
          ScanIndexForward: false,
          Limit: pageSize,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        items.push(item['ev'] as Uint8Array);
        lowest = firstSeqOf(item['sk'] as string);
        top ??= commandEnds(item['ev'] as Uint8Array).last.seq;
        if (lowest <= after + 1) break reading;
      }
      startKey = page.LastEvaluatedKey;
      const perItem = top === undefined ? 1 : (top - lowest + 1) / items.length;
      pageSize = Math.min(100, Math.ceil((lowest - after - 1) / perItem) + 1);
    } while (startKey);
    const out: EventEnvelope[] = [];
    for (const b of items.reverse()) {
      for (const e of decodeCommand(gameId, b, true)) if (e.seq > after && (upTo === undefined || e.seq <= upTo) && out.length < limit) out.push(e);
      if (out.length >= limit) break;
    }
    return out;
  }

  /**
   * The tip layout's events after `after`. Read newest first, from HEAD (which sorts after every
   * batch) down to the batch item that holds event `after` + 1, in small pages: a feed that asks
   * for the newest events reads the tip and perhaps a batch or two, not the whole game (DynamoDB
   * bills every item a Query reads, filtered out or not).
   */
  private async readTipEvents(gameId: string, after: number, limit: number): Promise<EventEnvelope[]> {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    let pageSize = 2;
    reading: do {
      const page: QueryCommandOutput = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :b AND :head',
          ExpressionAttributeValues: { ':pk': gamePk(gameId), ':b': BATCH, ':head': 'HEAD' },
          ConsistentRead: true,
          ScanIndexForward: false,
          Limit: pageSize,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        const sk = item['sk'] as string;
        if (sk === 'HEAD') {
          items.push(item);
          // The tip holds the events after its snapshot.
          if (((item['snapVersion'] as number | undefined) ?? 0) <= after) break reading;
        } else if (sk.startsWith(BATCH)) {
          items.push(item);
          if ((item['first'] as number) <= after + 1) break reading;
        }
      }
      startKey = page.LastEvaluatedKey;
      pageSize = 25;
    } while (startKey);
    const out: EventEnvelope[] = [];
    for (const item of items.reverse()) {
      for (const b of (item['evs'] as Uint8Array[] | undefined) ?? []) {
        for (const e of decodeCommand(gameId, b, true)) if (e.seq > after && out.length < limit) out.push(e);
        if (out.length >= limit) return out;
      }
    }
    return out;
  }
}

/** A SNAP item's snapshot fields as a HEAD# item carries them: `snap` is the state; the version is the item's. */
function snapFieldsOf(snap: Record<string, unknown>): Record<string, unknown> {
  const { state, engineVersion, kernelVersion, parts } = snap;
  return { snap: state, engineVersion, ...(kernelVersion !== undefined ? { kernelVersion } : {}), ...(parts !== undefined ? { parts } : {}) };
}

/** The snapshot a HEAD# item carries, as the SNAP item SnapshotCodec reads. */
function snapItemOf(item: Record<string, unknown>, events: readonly EventEnvelope[]): Record<string, unknown> {
  const { snap, engineVersion, kernelVersion, parts } = item;
  return { version: events[events.length - 1]!.seq, state: snap, engineVersion, kernelVersion, parts };
}

/** An item as the SDK returns it with a failed condition (AttributeValues), or already plain. */
export function unmarshallMaybe(item: Record<string, unknown>): Record<string, unknown> {
  const value = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null || v instanceof Uint8Array) return v;
    const av = v as Record<string, unknown>;
    if ('S' in av) return av['S'];
    if ('N' in av) return Number(av['N']);
    if ('B' in av) return av['B'];
    if ('BOOL' in av) return av['BOOL'];
    if ('NULL' in av) return null;
    if ('L' in av) return (av['L'] as unknown[]).map(value);
    if ('M' in av) return unmarshallMaybe(av['M'] as Record<string, unknown>);
    return v;
  };
  return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, value(v)]));
}

interface Reason {
  Code?: string;
  Item?: Record<string, unknown>;
}

export function cancellationReasons(e: unknown): Reason[] | undefined {
  if (typeof e !== 'object' || e === null || (e as { name?: string }).name !== 'TransactionCanceledException') return undefined;
  return ((e as { CancellationReasons?: Reason[] }).CancellationReasons ?? []) as Reason[];
}

export function isItemSizeError(e: unknown): boolean {
  const m = (e as { message?: string } | undefined)?.message ?? '';
  return (e as { name?: string } | undefined)?.name === 'ValidationException' && /size|exceed|too large|4 ?MB/i.test(m);
}
