import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { GetItemCommand, PutItemCommand, QueryCommand, TransactWriteItemsCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createRegistry, seededRng } from '../../domain/kernel/index.js';
import { spearpoint } from '../../domain/spearpoint/index.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import type { NotifyJob } from '../../functions/notify/decide.js';
import { ReadModelStore } from '../../functions/projections/read-model-store.js';
import { processStreamRecords } from '../../functions/projections/stream.js';
import type { StreamRecordLike } from '../../functions/projections/stream-image.js';
import { gamePk } from '../../functions/store/dynamo-event-store.js';
import { rawSize, type CapacityMeter } from './capacity.js';

/**
 * A whole Spearpoint game through the real service and store on DynamoDB Local, each command
 * chosen at random (seeded) from the acting player's view, with the requests the web client
 * (web/src/pages/game.tsx) makes for it: a player whose page does not show the game's current
 * version loads it (GET the view and, in parallel, GET the events after the last one it shows);
 * the player chooses among the legal commands and POSTs the command; the reply carries the
 * command's events, so the page then reads only the view again, which is current for that
 * player's next command unless someone else moves first. Then the projector runs on the HEAD
 * change the command made (the stream record built from the item before and after, as DynamoDB
 * Streams delivers it). Left out, as time-dependent: the 2 s polling of the events feed while a
 * game's page is open, and the load an open page makes when that poll sees another player's move
 * (a correspondence player's page is mostly closed: opening it is the load counted here). Measured:
 * DynamoDB's own read and write units for each, the time of each, the bytes stored, and per command
 * a raw baseline that reads and writes the same items (same bytes) with no decoding, folding or rules.
 */
export interface SpearpointGameFigures {
  readonly commands: number;
  readonly events: number;
  readonly views: number;
  /** Loads (view and events feed) by a player whose page did not show the current version. */
  readonly loads: number;
  readonly turns: number;
  readonly command: { readonly rru: number; readonly wru: number; readonly ms: number[]; readonly calls: number };
  readonly view: { readonly rru: number; readonly ms: number[] };
  /** The events-feed reads (GET /v1/games/{id}/events?after=), one beside each view. */
  readonly feeds: number;
  readonly feed: { readonly rru: number; readonly ms: number[] };
  readonly projector: { readonly rru: number; readonly wru: number; readonly ms: number[]; readonly jobs: number };
  readonly baselineMs: number[];
  readonly storedBytes: number;
  readonly eventBytes: number;
  readonly headBytes: number;
  readonly snapBytes: number;
  /** The PART# items: the catalog and the card list, stored once for the game. */
  readonly partBytes: number;
  /** The HEAD stream records the game made, in order (for the projector simulation). */
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
  const { service } = createDynamoGameService({ client, tableName, engines, seeds, ...(snapshotEvery !== undefined ? { snapshotEvery } : {}) });
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
    feeds: 0,
    loads: 0,
    command: { rru: 0, wru: 0, ms: [] as number[], calls: 0 },
    view: { rru: 0, ms: [] as number[] },
    feed: { rru: 0, ms: [] as number[] },
    projector: { rru: 0, wru: 0, ms: [] as number[], jobs: 0 },
    baselineMs: [] as number[],
  };
  let n = 0;
  let prevHead: Raw | undefined;
  const records: StreamRecordLike[] = [];
  const headKey = (gameId: string) => ({ pk: { S: gamePk(gameId) }, sk: { S: 'HEAD' } });
  const mirror = `GAME#baseline-${seed}`;
  let mirrorVersion = 0;
  /** The mirror's items other than HEAD, as last written (wire JSON), by sort key. */
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

  /** After a command (untimed: reads what it wrote), project its HEAD change and run the raw baseline. */
  const after = async (gameId: string) => {
    const head = (await client.send(new GetItemCommand({ TableName: tableName, Key: headKey(gameId), ConsistentRead: true }))).Item!;
    const record: StreamRecordLike = {
      eventName: prevHead ? 'MODIFY' : 'INSERT',
      dynamodb: { Keys: headKey(gameId), NewImage: head, ...(prevHead ? { OldImage: prevHead } : {}), SequenceNumber: String(++n).padStart(21, '0') },
    } as StreamRecordLike;
    prevHead = head;
    records.push(record);
    const before = jobs.length;
    await metered(f.projector, () => processStreamRecords([record], deps));
    f.projector.jobs += jobs.length - before;
    // The raw floor: the same Query the store loads with, returning the same items (SNAP, SECRET,
    // the PART# items, HEAD), and a conditional write of the same bytes the command wrote: HEAD,
    // and when it moved the tip out, the snapshot, any new part and the batch.
    const version = Number(head['version']!.N);
    const snapVersion = Number(head['snapVersion']?.N ?? 0);
    const extra: Raw[] = [];
    const tip = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk >= :ev',
        ExpressionAttributeValues: { ':pk': { S: gamePk(gameId) }, ':ev': { S: 'EV#' } },
        ConsistentRead: true,
      }),
    );
    for (const x of tip.Items ?? []) {
      const sk = x['sk']!.S!;
      const bytes = JSON.stringify(x);
      if (sk === 'HEAD' || mirrored.get(sk) === bytes) continue;
      mirrored.set(sk, bytes);
      extra.push({ ...x, pk: { S: mirror } });
    }
    if (snapVersion === version) {
      const batch = (
        await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :b)',
            ExpressionAttributeValues: { ':pk': { S: gamePk(gameId) }, ':b': { S: 'B#' } },
            ScanIndexForward: false,
            Limit: 1,
          }),
        )
      ).Items?.[0];
      if (batch) extra.push({ ...batch, pk: { S: mirror } });
    }
    const item = { ...head, pk: { S: mirror } };
    const t0 = performance.now();
    await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk >= :ev',
        ExpressionAttributeValues: { ':pk': { S: mirror }, ':ev': { S: 'EV#' } },
        ConsistentRead: true,
        ScanIndexForward: false,
        Limit: 61,
      }),
    );
    const cond = mirrorVersion
      ? { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': { N: String(mirrorVersion) } } }
      : { ConditionExpression: 'attribute_not_exists(pk)' };
    if (extra.length)
      await client.send(
        new TransactWriteItemsCommand({
          TransactItems: [...extra.map((Item) => ({ Put: { TableName: tableName, Item } })), { Put: { TableName: tableName, Item: item, ...cond } }],
        }),
      );
    else await client.send(new PutItemCommand({ TableName: tableName, Item: item, ...cond }));
    f.baselineMs.push(performance.now() - t0);
    mirrorVersion = version;
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
      // The page loads: the view and, beside it, the events after the last one it shows.
      f.loads++;
      v = await metered(f.view, () => service.view(player, gameId));
      f.views++;
      let page = await metered(f.feed, () => service.events(player, gameId, { after: seen.get(player) ?? 0, limit: 1000 }));
      f.feeds++;
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
    r = await metered(f.command, () => service.submit(player, gameId, { command, commandId: `${seed}-${f.commands}`, expectedVersion: v.summary.version }));
    f.commands++;
    turns = (v.view as { turn?: number }).turn ?? turns;
    // The reply carries the command's events: the page reads the view again, not the feed.
    seen.set(player, r.version);
    shown.set(player, await metered(f.view, () => service.view(player, gameId)));
    f.views++;
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
  for (const [sk, item] of kept) {
    const size = rawSize(item);
    storedBytes += size;
    if (sk.startsWith('B#')) eventBytes += size;
    if (sk === 'SNAP') snapBytes = size;
    if (sk.startsWith('PART#')) partBytes += size;
    if (sk === 'HEAD') {
      const { evs, ...rest } = item;
      headBytes = rawSize(rest);
      eventBytes += size - headBytes;
      void evs;
    }
  }
  const events = r.version;
  return { ...f, events, turns, storedBytes, eventBytes, headBytes, snapBytes, partBytes, records, gameId };
}

/**
 * The projector over a synthetic stream: `copies` games, each a copy of one played game's HEAD
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
  // Copied through JSON: the binary attributes (the tip's events, the recent list) stay out; the projector reads neither.
  const strip = (image: unknown) => (image ? Object.fromEntries(Object.entries(image).filter(([k]) => k !== 'evs' && k !== 'recent')) : undefined);
  const template = JSON.stringify(
    game.records.map((r) => ({ ...r, dynamodb: { ...r.dynamodb, NewImage: strip(r.dynamodb?.NewImage), OldImage: strip(r.dynamodb?.OldImage) } })),
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
