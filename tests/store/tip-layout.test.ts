import { randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { headChange } from '../../functions/projections/stream-image.js';
import { chain, GENESIS, PUBLIC, type EventEnvelope, type GameState, type GameSummary } from '../../domain/kernel/index.js';
import { ConcurrencyError, DuplicateCommandError } from '../../functions/ports.js';
import { DynamoEventStore, gamePk } from '../../functions/store/dynamo-event-store.js';
import { commandKey, decodeCommand, decodeRecent, encodeCommand, encodeRecent, prependRecent } from '../../functions/store/event-batch.js';
import { commandEnds } from '../../functions/store/head-items.js';
import { itemSize, MAX_ITEM_BYTES } from '../../functions/store/item-size.js';
import { CheckedGame, playRandom } from '../spearpoint/harness.js';
import { freshTable } from '../support/dynamo.js';
import { countCalls, type CallCounter } from './call-counter.js';

/**
 * The tip layout (functions/store/dynamo-event-store.ts): HEAD holds the head and the events
 * after the snapshot, so a load is one Query of SNAP, SECRET and HEAD, and an append one
 * conditional write (a PutItem of the tip it loaded, or an UpdateItem), or one TransactWriteItems
 * when a new snapshot moves the tip out.
 */
const SEED = 'ab'.repeat(32);
const AT = '2026-01-01T00:00:00.000Z';

const summary = (gameId: string, version: number, hash: string): GameSummary => ({
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
  pending: [],
});

function events(gameId: string, head: { version: number; hash: string }, n: number, commandId: string, data: unknown = { x: 1 }): EventEnvelope[] {
  const evs = Array.from({ length: n }, (_, i) => ({
    type: i === 0 && head.version === 0 ? 'Game.Created' : 'Thing',
    data,
    visibility: i % 3 === 2 ? { to: 'seats' as const, seats: ['p1'] } : PUBLIC,
    actor: null,
  }));
  return chain(head, evs, { gameId, commandId, at: AT, player: 'alice', seed: SEED });
}

const stateAt = (last: EventEnvelope, extra: unknown = {}): GameState => ({
  meta: { version: last.seq, hash: last.hash, engine: 'dice-race' } as GameState['meta'],
  game: extra,
});

let store: DynamoEventStore;
let calls: CallCounter;
let client: Parameters<typeof countCalls>[0];
let tableName: string;
let n = 0;
const newGame = () => `tip${++n}-${randomBytes(3).toString('hex')}`;

/**
 * Appends `commands` commands of `perCommand` events through `s`, as the service does: load,
 * then append with the loaded recent list and a snapshot once `every` events have gathered.
 */
async function play(s: DynamoEventStore, gameId: string, commands: number, perCommand = 1, every = 10, each?: () => void): Promise<EventEnvelope[]> {
  const all: EventEnvelope[] = [];
  let snapVersion = 0;
  for (let c = 0; c < commands; c++) {
    const loaded = c === 0 ? undefined : await s.load(gameId);
    const head = all.length ? { version: all.length, hash: all[all.length - 1]!.hash } : GENESIS;
    const evs = events(gameId, head, perCommand, `c${c}`);
    const last = evs[evs.length - 1]!;
    const snap = last.seq - snapVersion >= every;
    await s.append({
      gameId,
      expectedVersion: head.version,
      events: evs,
      commandId: `c${c}`,
      summary: summary(gameId, last.seq, last.hash),
      recent: loaded?.recent ?? {},
      ...(c === 0 ? { seed: SEED } : {}),
      ...(snap ? { snapshot: { version: last.seq, engineVersion: 1, state: stateAt(last, { at: last.seq }) } } : {}),
    });
    if (snap) snapVersion = last.seq;
    all.push(...evs);
    each?.();
  }
  return all;
}

beforeAll(async () => {
  const t = await freshTable('tip');
  ({ client, tableName } = t);
  calls = countCalls(t.client);
  store = new DynamoEventStore({ client: t.client, tableName: t.tableName, snapshotInterval: 10, newGames: 'tip' });
});

describe('the tip layout', () => {
  it('a command record decodes to the same events, byte for byte, salts kept; a changed event is caught on every read', () => {
    const evs = events('g', GENESIS, 5, 'cmd');
    expect(decodeCommand('g', encodeCommand(evs), true)).toEqual(evs);
    expect(JSON.stringify(decodeCommand('g', encodeCommand(evs)))).toBe(JSON.stringify(evs));
    expect(evs.some((e) => e.salt !== undefined)).toBe(true);
    // Only the last hash is stored: a changed event no longer chains to it, checked or not.
    const forged = evs.map((e, i) => (i === 2 ? { ...e, data: { x: 2 } } : e));
    expect(() => decodeCommand('g', encodeCommand(forged))).toThrow(/stored events 1 to 5 do not match their hash/);
    expect(() => decodeCommand('g', encodeCommand(forged), true)).toThrow(/do not match their hash/);
    // The last hash itself is stored once, not a hash per event: the record is smaller by about one per event but the last.
    const record = JSON.parse(inflateRawSync(encodeCommand(evs)).toString('utf8')) as { t: string; e: unknown[][] };
    expect(record.t).toBe(evs[4]!.hash);
    expect(record.e.flat().filter((x) => typeof x === 'string' && evs.some((e) => e.hash === x))).toEqual([]);
    expect(commandEnds(encodeCommand(evs)).last).toEqual({ seq: 5, hash: evs[4]!.hash, at: AT });
  });

  it('a record written before, with a hash per event, reads as it did: the stored hashes, checked when asked', () => {
    const evs = events('g', GENESIS, 5, 'cmd');
    const before = (list: readonly EventEnvelope[]) =>
      new Uint8Array(
        deflateRawSync(
          JSON.stringify({
            c: 'cmd',
            a: AT,
            p: 'alice',
            s: 1,
            h: GENESIS.hash,
            e: list.map((e) => [e.type, e.data, e.visibility, e.actor, e.hash, ...(e.salt !== undefined ? [e.salt] : [])]),
          }),
        ),
      );
    expect(JSON.stringify(decodeCommand('g', before(evs), true))).toBe(JSON.stringify(evs));
    expect(commandEnds(before(evs)).last).toEqual({ seq: 5, hash: evs[4]!.hash, at: AT });
    expect(encodeCommand(evs).byteLength).toBeLessThan(before(evs).byteLength - 3 * 30);
    const forged = evs.map((e, i) => (i === 2 ? { ...e, data: { x: 2 } } : e));
    expect(decodeCommand('g', before(forged))[2]!.data).toEqual({ x: 2 });
    expect(() => decodeCommand('g', before(forged), true)).toThrow(/event 3 does not match its hash/);
  });

  it('creates in one transaction (HEAD, SECRET), then every load is one Query and every append one write', async () => {
    const gameId = newGame();
    calls.reset();
    let i = 0;
    const all = await play(store, gameId, 60, 2, 10, () => {
      const { QueryCommand, ...writes } = calls.counts;
      if (i++ > 0) expect(QueryCommand, `command ${i}`).toBe(1);
      expect(Object.values(writes)).toEqual([1]);
      calls.reset();
    });
    const loaded = (await store.load(gameId))!;
    expect(calls.counts).toEqual({ QueryCommand: 1 });
    // 120 events, a snapshot every 10: the tip holds none after the last one.
    expect(loaded).toMatchObject({ version: 120, hash: all[119]!.hash, seed: SEED });
    expect(loaded.snapshot?.version).toBe(120);
    expect(loaded.tail).toEqual([]);
    expect(store.stats.calves).toBeGreaterThanOrEqual(12);
    expect(await store.readEvents(gameId, 0, 1000)).toEqual(all);
    expect((await store.readEvents(gameId, 33, 5)).map((e) => e.seq)).toEqual([34, 35, 36, 37, 38]);
  });

  it('between snapshots the tip carries the events after the snapshot; an ordinary append is one PutItem of the tip it loaded, or one UpdateItem from a store that did not load it (after one Query finding no append-layout item)', async () => {
    const gameId = newGame();
    const all = await play(store, gameId, 8, 2, 10); // snapshot at 10, then 6 events in the tip
    calls.reset();
    const loaded = (await store.load(gameId))!;
    expect(loaded.snapshot?.version).toBe(10);
    expect(loaded.tail).toEqual(all.slice(10));
    const next = events(gameId, { version: 16, hash: all[15]!.hash }, 1, 'one');
    await store.append({ gameId, expectedVersion: 16, events: next, commandId: 'one', summary: summary(gameId, 17, next[0]!.hash), recent: loaded.recent });
    expect(calls.counts).toEqual({ QueryCommand: 1, PutItemCommand: 1 });
    const head = async () =>
      (await store.doc.send(new GetCommand({ TableName: tableName, Key: { pk: gamePk(gameId), sk: 'HEAD' }, ConsistentRead: true }))).Item!;
    const put = await head();

    // The same command from a store that has not loaded the game: it finds no HEAD# item (one Query), then one UpdateItem, and the same item.
    const other = newGame();
    const twin = await play(store, other, 8, 2, 10);
    const fresh = new DynamoEventStore({ client, tableName, snapshotInterval: 10, newGames: 'tip' });
    const recent = (await store.load(other))!.recent;
    const evs = events(other, { version: 16, hash: twin[15]!.hash }, 1, 'one');
    calls.reset();
    await fresh.append({ gameId: other, expectedVersion: 16, events: evs, commandId: 'one', summary: summary(other, 17, evs[0]!.hash), recent });
    expect(calls.counts).toEqual({ QueryCommand: 1, UpdateItemCommand: 1 });
    const updated = (await fresh.doc.send(new GetCommand({ TableName: tableName, Key: { pk: gamePk(other), sk: 'HEAD' }, ConsistentRead: true }))).Item!;
    const strip = (item: Record<string, unknown>) => ({
      ...item,
      pk: undefined,
      evs: (item['evs'] as Uint8Array[]).length,
      summary: undefined,
      hash: undefined,
    });
    expect(strip(updated)).toEqual(strip(put));
    expect(Object.keys(updated).sort()).toEqual(Object.keys(put).sort());
    expect((await store.load(gameId))!.tail.map((e) => e.seq)).toEqual([11, 12, 13, 14, 15, 16, 17]);
    expect((await store.load(gameId))!.tail).toEqual([...all.slice(10), ...next]);
  });

  it('reads events after a version newest first and stops at the batch that holds the next one: a feed of the newest events reads no older batch', async () => {
    const gameId = newGame();
    const all = await play(store, gameId, 30, 2, 10); // 60 events: 6 batch items, an empty tip
    let scanned = 0;
    client.middlewareStack.add(
      (next) => async (args) => {
        const out = await next(args);
        scanned += (out.output as { ScannedCount?: number }).ScannedCount ?? 0;
        return out;
      },
      { step: 'initialize', name: 'scannedItems' },
    );
    try {
      const fresh = new DynamoEventStore({ client, tableName, snapshotInterval: 10, newGames: 'tip' });
      await fresh.readEvents(gameId, 0, 1); // learns the layout
      scanned = 0;
      expect(await fresh.readEvents(gameId, 55, 100)).toEqual(all.slice(55));
      expect(scanned).toBe(2); // HEAD and the batch of 51-60
      scanned = 0;
      expect(await fresh.readEvents(gameId, 60, 100)).toEqual([]);
      expect(scanned).toBeLessThanOrEqual(2);
      expect(await fresh.readEvents(gameId, 0, 1000)).toEqual(all);
      expect((await fresh.readEvents(gameId, 19, 3)).map((e) => e.seq)).toEqual([20, 21, 22]);
    } finally {
      client.middlewareStack.remove('scannedItems');
    }
  });

  it('accepts a command of 500 events (one batch item, no item or transaction limit reached)', async () => {
    const gameId = newGame();
    const all = await play(store, gameId, 1, 3);
    const loaded = (await store.load(gameId))!;
    const big = events(gameId, { version: 3, hash: all[2]!.hash }, 500, 'big', { unit: 'us-014', roll: [3, 5], text: 'a representative payload' });
    const last = big[499]!;
    calls.reset();
    await store.append({
      gameId,
      expectedVersion: 3,
      events: big,
      commandId: 'big',
      summary: summary(gameId, 503, last.hash),
      recent: loaded.recent,
      snapshot: { version: 503, engineVersion: 1, state: stateAt(last) },
    });
    expect(calls.counts).toEqual({ TransactWriteItemsCommand: 1 });
    expect((await store.load(gameId))!.version).toBe(503);
    expect(await store.readEvents(gameId, 0, 1000)).toEqual([...all, ...big]);
    // And without a snapshot, the 500 events ride in the tip itself.
    const g2 = newGame();
    const first = await play(store, g2, 1, 3);
    const l2 = (await store.load(g2))!;
    const big2 = events(g2, { version: 3, hash: first[2]!.hash }, 500, 'big');
    await store.append({ gameId: g2, expectedVersion: 3, events: big2, commandId: 'big', summary: summary(g2, 503, big2[499]!.hash), recent: l2.recent });
    expect((await store.load(g2))!.tail).toHaveLength(503);
  });

  it('refuses a stale version with ConcurrencyError and a used commandId with DuplicateCommandError, writing nothing', async () => {
    const gameId = newGame();
    const all = await play(store, gameId, 4, 2);
    const stale = events(gameId, { version: 6, hash: all[5]!.hash }, 1, 'late');
    await expect(
      store.append({ gameId, expectedVersion: 6, events: stale, commandId: 'late', summary: summary(gameId, 7, stale[0]!.hash) }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    const loaded = (await store.load(gameId))!;
    const again = events(gameId, { version: 8, hash: all[7]!.hash }, 1, 'c1');
    const e = await store
      .append({ gameId, expectedVersion: 8, events: again, commandId: 'c1', summary: summary(gameId, 9, again[0]!.hash), recent: loaded.recent })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DuplicateCommandError);
    expect((e as DuplicateCommandError).record).toEqual({ from: 3, to: 4 });
    // A store that never loaded the game learns it from the refused condition.
    const cold = new DynamoEventStore({ client, tableName, snapshotInterval: 10, newGames: 'tip' });
    const e2 = await cold
      .append({ gameId, expectedVersion: 6, events: stale, commandId: 'c2', summary: summary(gameId, 7, stale[0]!.hash) })
      .catch((x: unknown) => x);
    expect(e2).toBeInstanceOf(DuplicateCommandError);
    expect((await store.load(gameId))!.version).toBe(8);
  });

  it('isCurrent says whether any event is stored past a version, in every layout, from a store that loaded the game or not', async () => {
    for (const layout of ['tip', 'item-per-event', 'append'] as const) {
      const writer = new DynamoEventStore({ client, tableName, snapshotInterval: 10, newGames: layout });
      const gameId = newGame();
      await play(writer, gameId, 3, 2);
      for (const s of [writer, new DynamoEventStore({ client, tableName, snapshotInterval: 10 })]) {
        // Three commands of two events each: versions 2, 4 and 6 are the ones a load can return.
        expect(await s.isCurrent(gameId, 6), layout).toBe(true);
        expect(await s.isCurrent(gameId, 4), layout).toBe(false);
        expect(await s.isCurrent(gameId, 2), layout).toBe(false);
      }
    }
  });

  it('finds a command by id in the tip, in HEAD recent list, and in a batch item long after', async () => {
    const gameId = newGame();
    const small = new DynamoEventStore({ client, tableName, snapshotInterval: 10, recentLimit: 3, newGames: 'tip' });
    await play(small, gameId, 30, 1, 10);
    expect(await small.getCommand(gameId, 'c29')).toEqual({ from: 30, to: 30 });
    expect(await small.getCommand(gameId, 'c27')).toEqual({ from: 28, to: 28 });
    expect(await small.getCommand(gameId, 'c3')).toEqual({ from: 4, to: 4 });
    expect(await small.getCommand(gameId, 'never')).toBeUndefined();
  });

  it('a recent list gains a command in front without being unpacked: the same key moves up, the oldest drops past the limit', () => {
    const recent = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [commandKey(`c${4 - i}`), { from: 10 - 2 * i, to: 11 - 2 * i }]));
    const bytes = encodeRecent(recent);
    const next = decodeRecent(prependRecent(bytes, commandKey('new'), { from: 12, to: 14 }, 5));
    expect(Object.keys(next)).toEqual([commandKey('new'), commandKey('c4'), commandKey('c3'), commandKey('c2'), commandKey('c1')]);
    expect(next[commandKey('new')]).toEqual({ from: 12, to: 14 });
    const again = decodeRecent(prependRecent(bytes, commandKey('c2'), { from: 12, to: 12 }, 50));
    expect(Object.keys(again)).toEqual([commandKey('c2'), commandKey('c4'), commandKey('c3'), commandKey('c1'), commandKey('c0')]);
    // The same bytes as the whole list encoded anew in that order, and decoding gives back what was encoded.
    const { [commandKey('c0')]: dropped, ...kept } = recent;
    expect(dropped).toEqual({ from: 2, to: 3 });
    expect(prependRecent(bytes, commandKey('new'), { from: 12, to: 14 }, 5)).toEqual(encodeRecent({ [commandKey('new')]: { from: 12, to: 14 }, ...kept }));
    expect(decodeRecent(bytes)).toEqual(recent);
    expect(prependRecent(new Uint8Array(0), commandKey('new'), { from: 1, to: 1 }, 50)).toEqual(encodeRecent({ [commandKey('new')]: { from: 1, to: 1 } }));
  });

  it('a load unpacks only the command records this store has not unpacked before', async () => {
    const gameId = newGame();
    const s = new DynamoEventStore({ client, tableName, snapshotInterval: 50, newGames: 'tip' });
    await play(s, gameId, 6, 2, 50);
    const unpacked = s.stats.recordsUnpacked;
    const mine = (await s.load(gameId))!;
    expect(s.stats.recordsUnpacked).toBe(unpacked);
    const other = new DynamoEventStore({ client, tableName, snapshotInterval: 50, newGames: 'tip' });
    const theirs = (await other.load(gameId))!;
    expect(other.stats.recordsUnpacked).toBe(6);
    expect(mine.tail).toEqual(theirs.tail);
    expect(mine.recent).toEqual(theirs.recent);
  });

  it('HEAD without its events stays under 1 KB with 50 recent commands (their ids kept as 5-byte keys)', async () => {
    const gameId = newGame();
    await play(store, gameId, 60, 1, 10);
    const head = (await store.doc.send(new GetCommand({ TableName: tableName, Key: { pk: gamePk(gameId), sk: 'HEAD' }, ConsistentRead: true }))).Item!;
    const { evs: _evs, ...rest } = head;
    expect(Object.keys((await store.load(gameId))!.recent)).toHaveLength(50);
    expect(itemSize(rest)).toBeLessThan(1024);
  });

  it('HEAD stores nothing twice: the summary leaves out the id and HEAD own attributes, and the stream reader puts them back', async () => {
    const gameId = newGame();
    const evs = await play(store, gameId, 3, 1, 10);
    const last = evs[evs.length - 1]!;
    const wire = (await client.send(new GetItemCommand({ TableName: tableName, Key: { pk: { S: gamePk(gameId) }, sk: { S: 'HEAD' } }, ConsistentRead: true })))
      .Item!;
    expect(wire['gameId']).toBeUndefined();
    expect(Object.keys(wire['summary']!.M!).sort()).toEqual(['createdAt', 'createdBy', 'pending', 'seats', 'title']);
    const change = headChange({ eventName: 'MODIFY', dynamodb: { Keys: { pk: wire['pk'], sk: wire['sk'] }, NewImage: wire, SequenceNumber: '1' } });
    expect(change!.next).toEqual(summary(gameId, last.seq, last.hash));
    expect(change!.gameId).toBe(gameId);
  });

  it('a game stored in the item-per-event layout keeps loading and appending in it, one Query per load', async () => {
    const gameId = newGame();
    const old = new DynamoEventStore({ client, tableName, snapshotInterval: 10, newGames: 'item-per-event' });
    const all = await play(old, gameId, 12, 2);
    // A store of today, which makes new games in the tip layout, meets it cold.
    const today = new DynamoEventStore({ client, tableName, snapshotInterval: 10, newGames: 'tip' });
    const next = events(gameId, { version: 24, hash: all[23]!.hash }, 2, 'today');
    await today.append({ gameId, expectedVersion: 24, events: next, commandId: 'today', summary: summary(gameId, 26, next[1]!.hash) });
    calls.reset();
    const loaded = (await today.load(gameId))!;
    expect(calls.counts).toEqual({ QueryCommand: 1 });
    expect(loaded.version).toBe(26);
    expect([...(loaded.snapshot ? [] : all.slice(0, 20)), ...loaded.tail].map((e) => e.seq).slice(-6)).toEqual([21, 22, 23, 24, 25, 26]);
    expect(await today.readEvents(gameId, 0, 1000)).toEqual([...all, ...next]);
    expect(await today.getCommand(gameId, 'c0')).toEqual({ from: 1, to: 2 });
  });
});

describe('Spearpoint commands against the limits', () => {
  it('the largest command of 6 seeded random games stays far inside one item (under 1/20 of it)', () => {
    let largest = 0;
    let most = 0;
    for (let g = 0; g < 6; g++) {
      const game = new CheckedGame('5e'.repeat(32), `limits-${g}`, { checkedEvents: 0, checkedViews: 0, invariantProblems: [], hiddenProblems: [] }, false);
      game.start({ maxTurns: 12 });
      playRandom(game, `${g}`.padStart(64, '7'));
      const byCommand = new Map<string, EventEnvelope[]>();
      for (const e of game.events) byCommand.set(e.commandId, [...(byCommand.get(e.commandId) ?? []), e]);
      for (const evs of byCommand.values()) {
        largest = Math.max(largest, encodeCommand(evs).byteLength);
        most = Math.max(most, evs.length);
      }
    }
    expect(most).toBeGreaterThan(3);
    expect(largest).toBeLessThan(MAX_ITEM_BYTES / 20);
  });
});
