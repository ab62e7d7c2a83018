import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { chain, GENESIS, PUBLIC, type EventEnvelope, type GameState, type GameSummary } from '../../domain/kernel/index.js';
import { headChange, isHeadRecord } from '../../functions/projections/stream-image.js';
import { ConcurrencyError, DuplicateCommandError, type LoadedStream } from '../../functions/ports.js';
import { DynamoEventStore, gamePk } from '../../functions/store/dynamo-event-store.js';
import { commandKey } from '../../functions/store/event-batch.js';
import { itemSize } from '../../functions/store/item-size.js';
import { toWire } from '../../functions/store/wire.js';
import { freshTable } from '../support/dynamo.js';
import { countCalls, type CallCounter } from './call-counter.js';

/**
 * The append layout (functions/store/head-items.ts): every command puts one new HEAD#<first seq>
 * item, on condition that its key is new, and every snapshotItems commands that item carries a
 * snapshot; a load is one Query returning SECRET, the parts and the HEAD# items from the newest
 * snapshot on.
 */
const SEED = 'ef'.repeat(32);
const AT = '2026-01-01T00:00:00.000Z';
const ITEMS = 4;

const summary = (gameId: string, version: number, hash: string, pending: GameSummary['pending'] = []): GameSummary => ({
  gameId,
  engine: 'dice-race',
  title: 'Dice Race (test fixture)',
  status: 'active',
  version,
  hash,
  createdBy: 'alice',
  createdAt: AT,
  updatedAt: AT,
  seats: [],
  pending,
});

function events(gameId: string, head: { version: number; hash: string }, n: number, commandId: string): EventEnvelope[] {
  const evs = Array.from({ length: n }, (_, i) => ({
    type: i === 0 && head.version === 0 ? 'Game.Created' : 'Thing',
    data: { x: i },
    visibility: i % 3 === 2 ? { to: 'seats' as const, seats: ['p1'] } : PUBLIC,
    actor: null,
  }));
  return chain(head, evs, { gameId, commandId, at: AT, player: 'alice', seed: SEED });
}

const stateAt = (last: EventEnvelope): GameState => ({
  meta: { version: last.seq, hash: last.hash, engine: 'dice-race' } as GameState['meta'],
  game: { at: last.seq },
});

let store: DynamoEventStore;
let calls: CallCounter;
let client: Parameters<typeof countCalls>[0];
let tableName: string;
let n = 0;
const newGame = () => `app${++n}-${randomBytes(3).toString('hex')}`;

/** One command as the service makes it: the loaded stream's recent list, a snapshot when the store asks for one. */
async function command(s: DynamoEventStore, gameId: string, loaded: LoadedStream | undefined, perCommand: number, commandId: string): Promise<EventEnvelope[]> {
  const head = loaded ? { version: loaded.version, hash: loaded.hash } : GENESIS;
  const evs = events(gameId, head, perCommand, commandId);
  const last = evs[evs.length - 1]!;
  await s.append({
    gameId,
    expectedVersion: head.version,
    events: evs,
    commandId,
    summary: summary(gameId, last.seq, last.hash, [{ seat: last.seq % 2 ? 'p1' : 'p2', kind: 'move', prompt: 'roll', player: null }]),
    recent: loaded?.recent ?? {},
    ...(loaded ? {} : { seed: SEED }),
    ...(loaded?.snapshotDue ? { snapshot: { version: last.seq, engineVersion: 1, state: stateAt(last) } } : {}),
  });
  return evs;
}

async function play(s: DynamoEventStore, gameId: string, commands: number, perCommand = 1, each?: () => void): Promise<EventEnvelope[]> {
  const all: EventEnvelope[] = [];
  for (let c = 0; c < commands; c++) {
    all.push(...(await command(s, gameId, c === 0 ? undefined : await s.load(gameId), perCommand, `c${c}`)));
    each?.();
  }
  return all;
}

const headItems = async (gameId: string) =>
  (
    await store.doc.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :h)',
        ExpressionAttributeValues: { ':pk': gamePk(gameId), ':h': 'HEAD#' },
      }),
    )
  ).Items ?? [];

beforeAll(async () => {
  const t = await freshTable('append');
  ({ client, tableName } = t);
  calls = countCalls(t.client);
  store = new DynamoEventStore({ client: t.client, tableName: t.tableName, snapshotInterval: 100, snapshotItems: ITEMS });
});

describe('the append layout', () => {
  it('creates in one transaction (SECRET, the first item), then every load is one Query and every append one PutItem of a new item', async () => {
    const gameId = newGame();
    calls.reset();
    let i = 0;
    const all = await play(store, gameId, 30, 2, () => {
      const { QueryCommand: queries, ...writes } = calls.counts;
      if (i++ === 0) expect(writes).toEqual({ TransactWriteItemsCommand: 1 });
      else {
        expect(queries, `command ${i}`).toBe(1);
        expect(writes, `command ${i}`).toEqual({ PutItemCommand: 1 });
      }
      calls.reset();
    });
    const items = await headItems(gameId);
    // One item per command, never rewritten; every ITEMS-th carries a snapshot (and the recent command keys).
    expect(items.map((x) => x['sk'])).toEqual(Array.from({ length: 30 }, (_, c) => `HEAD#${String(2 * c + 1).padStart(10, '0')}`));
    expect(items.filter((x) => x['snap'] !== undefined).map((x) => x['sk'])).toEqual([
      'HEAD#0000000009',
      'HEAD#0000000017',
      'HEAD#0000000025',
      'HEAD#0000000033',
      'HEAD#0000000041',
      'HEAD#0000000049',
      'HEAD#0000000057',
    ]);
    const loaded = (await store.load(gameId))!;
    expect(loaded).toMatchObject({ version: 60, hash: all[59]!.hash, seed: SEED });
    expect(loaded.snapshot?.version).toBe(58);
    expect(loaded.tail).toEqual(all.slice(58));
    expect(await store.readEvents(gameId, 0, 1000)).toEqual(all);
    expect((await store.readEvents(gameId, 33, 5)).map((e) => e.seq)).toEqual([34, 35, 36, 37, 38]);
  });

  it('a load reads only SECRET and the items from the newest snapshot on (its page is snapshotItems + 1 + the parts it knows)', async () => {
    const gameId = newGame();
    await play(store, gameId, 12, 1);
    let limit: unknown;
    client.middlewareStack.add(
      (next) => async (args) => {
        limit = (args.input as { Limit?: number }).Limit;
        return next(args);
      },
      { step: 'initialize', name: 'limitProbe', override: true },
    );
    try {
      const loaded = (await store.load(gameId))!;
      // Snapshots in the 5th and the 9th command's items: the load needs HEAD#9 and the three after it.
      expect(loaded.snapshot?.version).toBe(9);
      expect(loaded.tail.map((e) => e.seq)).toEqual([10, 11, 12]);
      expect(limit).toBe(ITEMS + 1);
      expect(loaded.snapshotDue).toBe(true);
    } finally {
      client.middlewareStack.remove('limitProbe');
    }
  });

  it('two commands decided on the same version: exactly one lands, the other is a ConcurrencyError; the same command again is a DuplicateCommandError', async () => {
    const gameId = newGame();
    const all = await play(store, gameId, 3, 2);
    const loaded = (await store.load(gameId))!;
    const other = new DynamoEventStore({ client, tableName, snapshotItems: ITEMS });
    const otherLoaded = (await other.load(gameId))!;
    const results = await Promise.allSettled([command(store, gameId, loaded, 3, 'left'), command(other, gameId, otherLoaded, 1, 'right')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected')!;
    expect(refused.reason).toBeInstanceOf(ConcurrencyError);
    const after = (await new DynamoEventStore({ client, tableName, snapshotItems: ITEMS }).load(gameId))!;
    const winner = results[0]!.status === 'fulfilled' ? 'left' : 'right';
    expect(after.version).toBe(6 + (winner === 'left' ? 3 : 1));
    expect(after.tail.slice(0, 6)).toEqual(all);
    expect(new Set(after.tail.slice(6).map((e) => e.commandId))).toEqual(new Set([winner]));
    // The winner's command sent again (on the version it was decided on): the item it made says so.
    const again = await command(winner === 'left' ? other : store, gameId, winner === 'left' ? loaded : otherLoaded, winner === 'left' ? 3 : 1, winner).catch(
      (e: unknown) => e,
    );
    expect(again).toBeInstanceOf(DuplicateCommandError);
    expect((again as DuplicateCommandError).record).toEqual({ from: 7, to: after.version });
  });

  it('remembers commands for idempotent retries without a write of its own: the tail, then the snapshot item’s recent keys, then every item', async () => {
    const gameId = newGame();
    await play(store, gameId, 40, 1);
    const loaded = (await store.load(gameId))!;
    // c39 is in the tail; c30 only in the newest snapshot's recent list; c0 in neither.
    expect(loaded.recent[commandKey('c39')]).toEqual({ from: 40, to: 40 });
    expect(loaded.tail.some((e) => e.commandId === 'c30')).toBe(false);
    expect(loaded.recent[commandKey('c30')]).toEqual({ from: 31, to: 31 });
    expect(Object.keys(loaded.recent)).toHaveLength(40);
    // A store that loaded the game reads its HEAD# items (one Query here) and nothing else; one that did not first asks for a CMD# item and a HEAD (older layouts).
    calls.reset();
    expect(await store.getCommand(gameId, 'c0')).toEqual({ from: 1, to: 1 });
    expect(calls.counts).toEqual({ QueryCommand: 1 });
    expect(await store.getCommand(gameId, 'nope')).toBeUndefined();
    calls.reset();
    const cold = new DynamoEventStore({ client, tableName });
    expect(await cold.getCommand(gameId, 'c0')).toEqual({ from: 1, to: 1 });
    expect(calls.counts).toEqual({ GetItemCommand: 2, QueryCommand: 1 });
  });

  it('stores a command of 500 events in one item', async () => {
    const gameId = newGame();
    const all = await play(store, gameId, 2, 1);
    const loaded = (await store.load(gameId))!;
    calls.reset();
    const big = await command(store, gameId, loaded, 500, 'big');
    expect(calls.counts).toEqual({ PutItemCommand: 1 });
    expect((await store.load(gameId))!.version).toBe(502);
    expect(await store.readEvents(gameId, 0, 1000)).toEqual([...all, ...big]);
  });

  it('an ordinary item is under 1 KB (one write unit), and a store that did not load the game appends with one Query more', async () => {
    const gameId = newGame();
    await play(store, gameId, 6, 3);
    const items = await headItems(gameId);
    for (const item of items.filter((x) => x['snap'] === undefined)) expect(itemSize(item)).toBeLessThan(1024);
    const fresh = new DynamoEventStore({ client, tableName, snapshotItems: ITEMS });
    const loaded = (await store.load(gameId))!;
    calls.reset();
    await command(fresh, gameId, { ...loaded, snapshotDue: false }, 1, 'cold');
    expect(calls.counts).toEqual({ QueryCommand: 1, PutItemCommand: 1 });
    expect((await store.load(gameId))!.version).toBe(19);
  });

  it('the stream record of a new item gives the summary before and after its command, as the service computed them', async () => {
    const gameId = newGame();
    await play(store, gameId, 3, 2);
    const items = await headItems(gameId);
    const record = (item: Record<string, unknown>) => ({
      eventName: 'INSERT',
      dynamodb: { Keys: { pk: { S: gamePk(gameId) }, sk: { S: item['sk'] as string } }, NewImage: toWire(item), SequenceNumber: '1' },
    });
    expect(isHeadRecord(record(items[0]!))).toBe(true);
    const first = headChange(record(items[0]!))!;
    expect(first.old).toBeUndefined();
    const second = headChange(record(items[1]!))!;
    const third = headChange(record(items[2]!))!;
    expect(third.next).toEqual(summary(gameId, 6, third.next.hash, [{ seat: 'p2', kind: 'move', prompt: 'roll', player: null }]));
    // The summary before is the one the item before stated, the hash chain's link included.
    expect(third.old).toEqual(second.next);
    expect(second.old).toEqual(first.next);
    // The Lambda event form: binary as base64.
    const ev = items[2]!['ev'] as Uint8Array;
    const lambda = record(items[2]!);
    (lambda.dynamodb.NewImage as Record<string, unknown>)['ev'] = { B: Buffer.from(ev).toString('base64') };
    expect(headChange(lambda)).toEqual(third);
  });
});
