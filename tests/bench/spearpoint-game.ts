import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { PutItemCommand, QueryCommand, TransactWriteItemsCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createRegistry, seededRng } from '../../domain/kernel/index.js';
import { spearpoint } from '../../domain/spearpoint/index.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import type { NotifyJob } from '../../functions/notify/decide.js';
import { ReadModelStore } from '../../functions/projections/read-model-store.js';
import { processStreamRecords } from '../../functions/projections/stream.js';
import { isQuietRecord, type StreamRecordLike } from '../../functions/projections/stream-image.js';
import { gamePk } from '../../functions/store/dynamo-event-store.js';
import { HEAD_PREFIX } from '../../functions/store/head-items.js';
import { rawSize, type CapacityMeter } from './capacity.js';

/**
 * A whole Spearpoint game through the real service and store on DynamoDB Local, each command
 * chosen at random (seeded) from the acting player's view, with the requests the web client
 * (web/src/pages/game.tsx) makes for it: a player whose page does not show the game's current
 * version loads it (GET the view with the events after the last one it shows, `eventsAfter`: one request);
 * the player chooses among the legal commands and POSTs the command; the reply carries the
 * command's events and the player's view after it, so the page reads nothing again: that view is
 * current for the player's next command unless someone else moves first. Then the projector runs on the item the
 * command added (its INSERT stream record, as DynamoDB Streams delivers it), unless the stream mapping's filter holds it back (a quiet append). Left out, as time-dependent: the 2 s polling of the events feed while a
 * game's page is open, and the load an open page makes when that poll sees another player's move
 * (a correspondence player's page is mostly closed: opening it is the load counted here). Measured:
 * DynamoDB's own read and write units for each, the time of each, the bytes stored, and per command
 * a raw baseline that reads and writes the same items (same bytes) with no decoding, folding or rules.
 */
export interface SpearpointGameFigures {
  readonly commands: number;
  readonly events: number;
  readonly views: number;
  /** Commands whose reply's view the page showed instead of reading the view again (before issue 16, one GET each). */
  readonly repliesWithView: number;
  /** Loads (view and events feed) by a player whose page did not show the current version. */
  readonly loads: number;
  readonly turns: number;
  readonly command: { readonly rru: number; readonly wru: number; readonly ms: number[]; readonly calls: number };
  readonly view: { readonly rru: number; readonly ms: number[] };
  /** The events-feed reads (GET /v1/games/{id}/events?after=), one beside each view. */
  readonly feeds: number;
  readonly feed: { readonly rru: number; readonly ms: number[] };
  /** The projector's invocations: one per record the stream mapping's filter passes (quiet appends pass none: infra STREAM_FILTER). */
  readonly projector: { readonly rru: number; readonly wru: number; readonly ms: number[]; readonly jobs: number; readonly invocations: number };
  readonly baselineMs: number[];
  readonly storedBytes: number;
  readonly eventBytes: number;
  readonly headBytes: number;
  readonly snapBytes: number;
  /** The PART# items: the catalog and the card list, stored once for the game. */
  readonly partBytes: number;
  /** The stream records of the items the game's commands added, in order (for the projector simulation). */
  readonly records: readonly StreamRecordLike[];
  readonly gameId: string;
}

type Raw = Record<string, AttributeValue>;

export async function playSpearpointGame(
  client: DynamoDBClient,
  tableName: string,
  meter: CapacityMeter,
  seed = 'spearpoint-bench',
  snapshotEvery?: number,
): Promise<SpearpointGameFigures> {
  const engines = createRegistry([spearpoint]);
  // The same secret seed and ids every run, so every run plays the same game (same dice, same
  // length) and its figures compare from one version to the next.
  let ids = 0;
  const seeds = {
    newSeed: () => createHash('sha256').update(`${seed}-secret`).digest('hex'),
    newId: () => `${seed}-${String(++ids).padStart(6, '0')}`,
  };
  const { service, store } = createDynamoGameService({ client, tableName, engines, seeds, ...(snapshotEvery !== undefined ? { snapshotEvery } : {}) });
  const jobs: NotifyJob[] = [];
  const deps = {
    readModels: new ReadModelStore(client, tableName),
    queue: { enqueue: async (js: readonly NotifyJob[]) => void jobs.push(...js) },
    log: () => {},
  };
  const pick = seededRng({ seed: 'be'.repeat(32), gameId: seed, entropy: [], counter: 0 });
  const players = { us: 'alice', de: 'bob' } as Record<string, string>;
  const f = {
    commands: 0,
    views: 0,
    repliesWithView: 0,
    feeds: 0,
    loads: 0,
    command: { rru: 0, wru: 0, ms: [] as number[], calls: 0 },
    view: { rru: 0, ms: [] as number[] },
    feed: { rru: 0, ms: [] as number[] },
    projector: { rru: 0, wru: 0, ms: [] as number[], jobs: 0, invocations: 0 },
    baselineMs: [] as number[],
  };
  let n = 0;
  const records: StreamRecordLike[] = [];
  const mirror = `GAME#baseline-${seed}`;
  /** The mirror's items, as last written (wire JSON), by sort key. */
  const mirrored = new Map<string, string>();

  /** Times one service call, metering its units into `into`. */
  const metered = async <T>(into: { rru: number; wru?: number; ms: number[] }, call: () => Promise<T>): Promise<T> => {
    meter.reset();
    const t0 = performance.now();
    const out = await call();
    into.ms.push(performance.now() - t0);
    into.rru += meter.read;
    if (into.wru !== undefined) into.wru += meter.write;
    return out;
  };

  /** After a command (untimed: reads what it wrote), project the item it added and run the raw baseline. */
  const after = async (gameId: string) => {
    // Every item the game's load range holds (sk >= EV#: SECRET, the parts, the HEAD# items).
    const held = (
      await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND sk >= :ev',
          ExpressionAttributeValues: { ':pk': { S: gamePk(gameId) }, ':ev': { S: 'EV#' } },
          ConsistentRead: true,
        }),
      )
    ).Items!;
    const heads = held.filter((x) => x['sk']!.S!.startsWith(HEAD_PREFIX));
    const head = heads[heads.length - 1]!;
    // The stream record DynamoDB Streams delivers for the command's new item: an INSERT with its new image.
    const record: StreamRecordLike = {
      eventName: 'INSERT',
      dynamodb: { Keys: { pk: head['pk']!, sk: head['sk']! }, NewImage: head, SequenceNumber: String(++n).padStart(21, '0') },
    } as StreamRecordLike;
    records.push(record);
    const before = jobs.length;
    // The stream mapping's filter passes no quiet append: the projector is not invoked for it.
    if (!isQuietRecord(record)) {
      await metered(f.projector, () => processStreamRecords([record], deps));
      f.projector.invocations++;
    }
    f.projector.jobs += jobs.length - before;
    // The raw floor: the same Query the store loads with (its page: snapshotItems HEAD# items, SECRET
    // and the parts), and a conditional write of the same bytes the command wrote: its new item, and
    // at the create SECRET, at a first snapshot its parts, in one transaction.
    const extra: Raw[] = [];
    for (const x of held) {
      const bytes = JSON.stringify(x);
      if (mirrored.get(x['sk']!.S!) === bytes) continue;
      mirrored.set(x['sk']!.S!, bytes);
      extra.push({ ...x, pk: { S: mirror } });
    }
    const parts = held.filter((x) => x['sk']!.S!.startsWith('PART#')).length;
    const t0 = performance.now();
    await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk >= :ev',
        ExpressionAttributeValues: { ':pk': { S: mirror }, ':ev': { S: 'EV#' } },
        // As a command's first load reads (functions/app/game-service.ts run).
        ConsistentRead: false,
        ScanIndexForward: false,
        Limit: store.snapshotItems + 1 + parts,
      }),
    );
    const isNew = { ConditionExpression: 'attribute_not_exists(pk)' };
    if (extra.length > 1)
      await client.send(new TransactWriteItemsCommand({ TransactItems: extra.map((Item) => ({ Put: { TableName: tableName, Item, ...isNew } })) }));
    else await client.send(new PutItemCommand({ TableName: tableName, Item: extra[0]!, ...isNew }));
    f.baselineMs.push(performance.now() - t0);
  };

  let r = await metered(f.command, () => service.create('alice', { engine: 'spearpoint-1943', seat: 'us', options: {}, commandId: `${seed}-create` }));
  const gameId = r.gameId;
  await after(gameId);
  r = await metered(f.command, () => service.join('bob', gameId, { commandId: `${seed}-join` }));
  await after(gameId);
  f.commands = 2;
  let turns = 0;
  /** By player: the version of the game their page's log is complete up to, and the view it shows. */
  const seen = new Map<string, number>();
  const shown = new Map<string, Awaited<ReturnType<typeof service.view>>>();
  while (r.next.status === 'active') {
    const acting = [...r.next.yours, ...r.next.waitingFor];
    const p = acting[pick.int(acting.length)]!;
    const player = players[p.seat]!;
    let v = shown.get(player);
    if (v?.summary.version !== r.version) {
      // The page loads: the view with the events after the last one it shows (one request), and the feed if more follow.
      f.loads++;
      const opened = await metered(f.view, () => service.view(player, gameId, { eventsAfter: seen.get(player) ?? 0 }));
      v = opened;
      f.views++;
      let page = opened.log!;
      while (page.next !== undefined) {
        const after = page.next;
        page = await metered(f.feed, () => service.events(player, gameId, { after, limit: 1000 }));
        f.feeds++;
      }
      seen.set(player, page.version);
    }
    const legal = v.legalCommands;
    const command = legal[pick.int(legal.length)];
    if (command === undefined) throw new Error(`${player} must act in game ${gameId} but has no legal command`);
    // The web client asks for the view after the command (?view=true): it is computed within the command's time.
    r = await metered(f.command, async () => {
      const sent = await service.submit(player, gameId, { command, commandId: `${seed}-${f.commands}`, expectedVersion: v!.summary.version });
      void sent.view;
      return sent;
    });
    f.commands++;
    turns = (v.view as { turn?: number }).turn ?? turns;
    // The reply carries the command's events and the view after it: the page reads neither again.
    seen.set(player, r.version);
    shown.set(player, r.view);
    f.repliesWithView++;
    await after(gameId);
    if (f.commands > 5000) throw new Error('the bench game did not end in 5000 commands');
  }

  /** Every item of a partition, by sort key. */
  const partition = async (pk: string): Promise<Map<string, Raw>> => {
    const items = new Map<string, Raw>();
    let start: Raw | undefined;
    do {
      const page = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: pk } },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of page.Items ?? []) items.set(item['sk']!.S!, item);
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  };
  // What the game keeps: every item of its partition.
  const kept = await partition(gamePk(gameId));
  // The baseline read and wrote the same items as the commands: its partition ends holding them, byte for byte.
  const baselineKept = await partition(mirror);
  const bytesOf = (item: Raw | undefined) =>
    item && JSON.stringify({ ...item, pk: null }, (_, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v));
  const differ = [...new Set([...kept.keys(), ...baselineKept.keys()])].filter((sk) => bytesOf(kept.get(sk)) !== bytesOf(baselineKept.get(sk)));
  if (differ.length) throw new Error(`the raw baseline's items differ from the game's: ${differ.join(', ')}`);
  let storedBytes = 0;
  let eventBytes = 0;
  let headBytes = 0;
  let snapBytes = 0;
  let partBytes = 0;
  let items = 0;
  for (const [sk, item] of kept) {
    const size = rawSize(item);
    storedBytes += size;
    if (sk.startsWith('PART#')) partBytes += size;
    if (sk.startsWith(HEAD_PREFIX)) {
      // A command's item: its record (events and the head after them), and every snapshotItems commands a snapshot.
      const { snap, recent, parts, engineVersion, kernelVersion, ...rest } = item;
      eventBytes += rawSize({ ev: rest['ev']! });
      headBytes += rawSize(rest);
      items++;
      if (snap)
        snapBytes = rawSize({
          snap,
          ...(recent ? { recent } : {}),
          ...(parts ? { parts } : {}),
          engineVersion: engineVersion!,
          ...(kernelVersion ? { kernelVersion } : {}),
        });
    }
  }
  // A command's item without a snapshot, on average: its events and the head after them.
  headBytes = Math.round(headBytes / items);
  const events = r.version;
  return { ...f, events, turns, storedBytes, eventBytes, headBytes, snapBytes, partBytes, records, gameId };
}

/**
 * The projector over a synthetic stream: `copies` games, each a copy of one played game's stream
 * records under its own id, interleaved and delivered in batches of 100 as the stream mapping
 * does. Returns the wall time, the events they stand for, and the units the read models cost.
 */
export async function simulateProjector(
  client: DynamoDBClient,
  tableName: string,
  meter: CapacityMeter,
  game: Pick<SpearpointGameFigures, 'records' | 'gameId' | 'events'>,
  copies: number,
): Promise<{ records: number; events: number; ms: number; rru: number; wru: number; jobs: number }> {
  // Copied through JSON: the snapshot and the recent list stay out (the projector reads neither); the
  // command record, which it reads for its ends, goes as base64, as a Lambda event carries binary.
  const strip = (image: Record<string, { B?: Uint8Array }> | undefined) =>
    image &&
    Object.fromEntries(
      Object.entries(image)
        .filter(([k]) => k !== 'snap' && k !== 'recent')
        .map(([k, v]) => [k, v.B ? { B: Buffer.from(v.B).toString('base64') } : v]),
    );
  const template = JSON.stringify(
    game.records.map((r) => ({
      ...r,
      dynamodb: {
        ...r.dynamodb,
        NewImage: strip(r.dynamodb?.NewImage as Record<string, { B?: Uint8Array }> | undefined),
        OldImage: strip(r.dynamodb?.OldImage as Record<string, { B?: Uint8Array }> | undefined),
      },
    })),
  );
  const streams = Array.from(
    { length: copies },
    (_, c) => JSON.parse(template.split(game.gameId).join(`sim${String(c).padStart(5, '0')}-${game.gameId.slice(8)}`)) as StreamRecordLike[],
  );
  const all: StreamRecordLike[] = [];
  for (let i = 0; i < game.records.length; i++) for (const s of streams) all.push(s[i]!);
  let jobs = 0;
  const deps = {
    readModels: new ReadModelStore(client, tableName),
    queue: { enqueue: async (js: readonly NotifyJob[]) => void (jobs += js.length) },
    log: () => {},
  };
  meter.reset();
  const t0 = performance.now();
  let failed = 0;
  for (let i = 0; i < all.length; i += 100) failed += (await processStreamRecords(all.slice(i, i + 100), deps)).batchItemFailures.length;
  if (failed) throw new Error(`the projector failed ${failed} of the simulated records`);
  return { records: all.length, events: game.events * copies, ms: performance.now() - t0, rru: meter.read, wru: meter.write, jobs };
}
