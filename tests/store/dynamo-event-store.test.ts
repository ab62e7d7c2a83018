import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { chain, GENESIS, PUBLIC, type EventEnvelope, type GameState, type GameSummary } from '../../domain/kernel/index.js';
import { AppError, ConcurrencyError, DuplicateCommandError } from '../../functions/ports.js';
import { DynamoEventStore, eventSk, gamePk } from '../../functions/store/dynamo-event-store.js';
import { freshTable } from '../support/dynamo.js';
import { countCalls, type CallCounter } from './call-counter.js';

const SEED = 'cd'.repeat(32);
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

/** `n` events after `head`, all from one command; `data` lets a test make them big. */
function events(gameId: string, head: { version: number; hash: string }, n: number, commandId: string, data: unknown = { x: 1 }): EventEnvelope[] {
  const evs = Array.from({ length: n }, (_, i) => ({ type: i === 0 && head.version === 0 ? 'Game.Created' : 'Thing', data, visibility: PUBLIC, actor: null }));
  return chain(head, evs, { gameId, commandId, at: AT, player: 'alice' });
}

const stateAt = (last: EventEnvelope, extra: unknown = {}): GameState => ({
  meta: { version: last.seq, hash: last.hash, engine: 'dice-race' } as GameState['meta'],
  game: extra,
});

let store: DynamoEventStore;
let calls: CallCounter;
let n = 0;
const newGame = () => `g${++n}-${randomBytes(3).toString('hex')}`;

/** Appends `commands` commands of `perCommand` events each; returns all events. */
async function grow(s: DynamoEventStore, gameId: string, commands: number, perCommand = 1): Promise<EventEnvelope[]> {
  const all: EventEnvelope[] = [];
  for (let c = 0; c < commands; c++) {
    const head = all.length ? { version: all.length, hash: all[all.length - 1]!.hash } : GENESIS;
    const evs = events(gameId, head, perCommand, `c${c}`);
    await s.append({
      gameId,
      expectedVersion: head.version,
      events: evs,
      commandId: `c${c}`,
      summary: summary(gameId, head.version + perCommand, evs[evs.length - 1]!.hash),
      ...(c === 0 ? { seed: SEED } : {}),
    });
    all.push(...evs);
  }
  return all;
}

beforeAll(async () => {
  const t = await freshTable('store');
  calls = countCalls(t.client);
  // Games stored in the item-per-event layout (before the tip): they keep loading and appending as they did.
  store = new DynamoEventStore({ client: t.client, tableName: t.tableName, snapshotInterval: 10, recentLimit: 5, newGames: 'item-per-event' });
});

describe('DynamoEventStore, games in the item-per-event layout', () => {
  it('loads nothing for a game that does not exist, in one Query', async () => {
    calls.reset();
    expect(await store.load('nope')).toBeUndefined();
    expect(calls.counts).toEqual({ QueryCommand: 1 });
  });

  it('appends in one TransactWriteItems and loads back byte-exact events, the seed and the head', async () => {
    const gameId = newGame();
    const evs = events(gameId, GENESIS, 3, 'create');
    calls.reset();
    await store.append({ gameId, expectedVersion: 0, events: evs, commandId: 'create', summary: summary(gameId, 3, evs[2]!.hash), seed: SEED });
    expect(calls.counts).toEqual({ TransactWriteItemsCommand: 1 });
    calls.reset();
    const loaded = await store.load(gameId);
    expect(calls.counts).toEqual({ QueryCommand: 1 });
    expect(loaded).toMatchObject({ gameId, version: 3, hash: evs[2]!.hash, seed: SEED, recent: { create: { from: 1, to: 3 } } });
    expect(loaded!.snapshot).toBeUndefined();
    expect(loaded!.tail).toEqual(evs);
    expect(await store.getCommand(gameId, 'create')).toEqual({ from: 1, to: 3 });
    expect(await store.getCommand(gameId, 'other')).toBeUndefined();
  });

  it('refuses a stale expectedVersion with ConcurrencyError and writes nothing', async () => {
    const gameId = newGame();
    const all = await grow(store, gameId, 3);
    const stale = events(gameId, { version: 2, hash: all[1]!.hash }, 1, 'late');
    await expect(
      store.append({ gameId, expectedVersion: 2, events: stale, commandId: 'late', summary: summary(gameId, 3, stale[0]!.hash) }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    // A head that skips ahead of the real one is refused the same way.
    const ahead = events(gameId, { version: 5, hash: all[2]!.hash }, 1, 'ahead');
    await expect(
      store.append({ gameId, expectedVersion: 5, events: ahead, commandId: 'ahead', summary: summary(gameId, 6, ahead[0]!.hash) }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect((await store.load(gameId))!.version).toBe(3);
    expect(await store.getCommand(gameId, 'late')).toBeUndefined();
    expect(await store.readEvents(gameId, 0, 100)).toHaveLength(3);
  });

  it('refuses a commandId already used with DuplicateCommandError carrying the first range', async () => {
    const gameId = newGame();
    const all = await grow(store, gameId, 2, 2);
    const again = events(gameId, { version: 4, hash: all[3]!.hash }, 1, 'c1');
    const e = await store
      .append({ gameId, expectedVersion: 4, events: again, commandId: 'c1', summary: summary(gameId, 5, again[0]!.hash) })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DuplicateCommandError);
    expect((e as DuplicateCommandError).record).toEqual({ from: 3, to: 4 });
    expect((await store.load(gameId))!.version).toBe(4);
  });

  it('creating an existing game is refused (head, secret and first event all exist)', async () => {
    const gameId = newGame();
    await grow(store, gameId, 1);
    const evs = events(gameId, GENESIS, 1, 'other-create');
    await expect(
      store.append({ gameId, expectedVersion: 0, events: evs, commandId: 'other-create', summary: summary(gameId, 1, evs[0]!.hash), seed: 'ee'.repeat(32) }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect((await store.load(gameId))!.seed).toBe(SEED);
  });

  it('keeps HEAD.recent bounded to the newest commands', async () => {
    const gameId = newGame();
    let recent = {};
    let all: EventEnvelope[] = [];
    for (let c = 0; c < 8; c++) {
      const head = all.length ? { version: all.length, hash: all[all.length - 1]!.hash } : GENESIS;
      const evs = events(gameId, head, 1, `r${c}`);
      await store.append({
        gameId,
        expectedVersion: head.version,
        events: evs,
        commandId: `r${c}`,
        summary: summary(gameId, head.version + 1, evs[0]!.hash),
        recent,
        ...(c === 0 ? { seed: SEED } : {}),
      });
      all = [...all, ...evs];
      recent = (await store.load(gameId))!.recent;
    }
    expect(Object.keys(recent).sort()).toEqual(['r3', 'r4', 'r5', 'r6', 'r7']);
    expect(recent).toMatchObject({ r7: { from: 8, to: 8 } });
  });

  it('a snapshot bounds the load to one Query however long the stream', async () => {
    const gameId = newGame();
    const all = await grow(store, gameId, 25);
    // Snapshot at 25, then a tail of 9 (one less than the interval).
    const more = events(gameId, { version: 25, hash: all[24]!.hash }, 1, 'snap');
    await store.append({
      gameId,
      expectedVersion: 25,
      events: more,
      commandId: 'snap',
      summary: summary(gameId, 26, more[0]!.hash),
      snapshot: { version: 26, engineVersion: 1, state: stateAt(more[0]!, { big: 'y'.repeat(1000) }) },
    });
    let prev = more[0]!;
    for (let i = 0; i < 9; i++) {
      const e = events(gameId, { version: prev.seq, hash: prev.hash }, 1, `t${i}`);
      await store.append({ gameId, expectedVersion: prev.seq, events: e, commandId: `t${i}`, summary: summary(gameId, prev.seq + 1, e[0]!.hash) });
      prev = e[0]!;
    }
    calls.reset();
    const before = { ...store.stats };
    const loaded = (await store.load(gameId))!;
    expect(calls.counts).toEqual({ QueryCommand: 1 });
    expect(store.stats.extraPages).toBe(before.extraPages);
    expect(loaded.version).toBe(35);
    expect(loaded.snapshot).toMatchObject({ version: 26, engineVersion: 1, state: { game: { big: 'y'.repeat(1000) } } });
    expect(loaded.tail.map((e) => e.seq)).toEqual([27, 28, 29, 30, 31, 32, 33, 34, 35]);
  });

  it('without a snapshot a long tail is read in further pages, and counted', async () => {
    const gameId = newGame();
    const all = await grow(store, gameId, 30);
    calls.reset();
    const before = store.stats.extraPages;
    const loaded = (await store.load(gameId))!;
    expect(loaded.tail).toEqual(all);
    expect(calls.counts.QueryCommand).toBe(2);
    expect(store.stats.extraPages - before).toBe(1);
  });

  it('pages on when big items overflow the 1 MB Query page, and counts it', async () => {
    const gameId = newGame();
    const all = await grow(store, gameId, 1);
    const snapEv = events(gameId, { version: 1, hash: all[0]!.hash }, 1, 'snap-1mb')[0]!;
    // ~285 KB gzipped (random base64 barely compresses), then six events of 300 KB: about 2 MB, two pages.
    const noise = randomBytes(280 * 1024).toString('base64');
    await store.append({
      gameId,
      expectedVersion: 1,
      events: [snapEv],
      commandId: 'snap-1mb',
      summary: summary(gameId, 2, snapEv.hash),
      snapshot: { version: 2, engineVersion: 1, state: stateAt(snapEv, { noise }) },
    });
    let prev = snapEv;
    for (let i = 0; i < 6; i++) {
      const e = events(gameId, { version: prev.seq, hash: prev.hash }, 1, `fat-${i}`, { blob: 'w'.repeat(300 * 1024) })[0]!;
      await store.append({ gameId, expectedVersion: prev.seq, events: [e], commandId: `fat-${i}`, summary: summary(gameId, e.seq, e.hash) });
      prev = e;
    }
    const before = store.stats.extraPages;
    calls.reset();
    const loaded = (await store.load(gameId))!;
    expect(loaded.snapshot?.version).toBe(2);
    expect(loaded.tail.map((e) => e.seq)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(calls.counts.QueryCommand).toBe(2);
    expect(store.stats.extraPages - before).toBe(1);
  });

  it('ignores events a half-visible append left past the head', async () => {
    const gameId = newGame();
    const all = await grow(store, gameId, 3);
    const stray = events(gameId, { version: 3, hash: all[2]!.hash }, 1, 'stray')[0]!;
    await store.doc.send(
      new PutCommand({
        TableName: store.tableName,
        Item: { pk: gamePk(gameId), sk: eventSk(4), gameId, seq: 4, type: stray.type, envelope: JSON.stringify(stray) },
      }),
    );
    const loaded = (await store.load(gameId))!;
    expect(loaded.version).toBe(3);
    expect(loaded.tail.map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it('refuses to return a stream with a hole (head ahead of its events) after re-reading it', async () => {
    const gameId = newGame();
    await grow(store, gameId, 3);
    await store.doc.send(new DeleteCommand({ TableName: store.tableName, Key: { pk: gamePk(gameId), sk: eventSk(3) } }));
    const torn = store.stats.tornReads;
    await expect(store.load(gameId)).rejects.toThrow(/did not read consistently/);
    expect(store.stats.tornReads - torn).toBe(5);
  });

  it('reads events after a sequence number in pages, in order', async () => {
    const gameId = newGame();
    const all = await grow(store, gameId, 12, 2);
    expect(await store.readEvents(gameId, 0, 1000)).toEqual(all);
    expect((await store.readEvents(gameId, 5, 4)).map((e) => e.seq)).toEqual([6, 7, 8, 9]);
    expect(await store.readEvents(gameId, 24, 10)).toEqual([]);
    expect(await store.readEvents(gameId, 3, 0)).toEqual([]);
  });

  describe('item-size limits', () => {
    it('refuses an event over ~380 KB with 413 store/event-too-large and writes nothing', async () => {
      const gameId = newGame();
      const all = await grow(store, gameId, 1);
      const big = events(gameId, { version: 1, hash: all[0]!.hash }, 1, 'big', { blob: 'z'.repeat(390 * 1024) });
      calls.reset();
      const e = await store
        .append({ gameId, expectedVersion: 1, events: big, commandId: 'big', summary: summary(gameId, 2, big[0]!.hash) })
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(AppError);
      expect(e).toMatchObject({ status: 413, code: 'store/event-too-large' });
      expect(calls.counts.TransactWriteItemsCommand).toBeUndefined();
      expect((await store.load(gameId))!.version).toBe(1);
    });

    it('an event just under the limit is stored and read back intact', async () => {
      const gameId = newGame();
      const all = await grow(store, gameId, 1);
      const big = events(gameId, { version: 1, hash: all[0]!.hash }, 1, 'big', { blob: 'z'.repeat(370 * 1024) });
      await store.append({ gameId, expectedVersion: 1, events: big, commandId: 'big', summary: summary(gameId, 2, big[0]!.hash) });
      expect((await store.load(gameId))!.tail[1]).toEqual(big[0]);
    });

    it('refuses a command of more than 97 events (100 transaction items) with 413', async () => {
      const gameId = newGame();
      const evs = events(gameId, GENESIS, 98, 'huge');
      const e = await store
        .append({ gameId, expectedVersion: 0, events: evs, commandId: 'huge', summary: summary(gameId, 98, evs[97]!.hash), seed: SEED })
        .catch((x: unknown) => x);
      expect(e).toMatchObject({ status: 413, code: 'store/command-too-large' });
      expect((e as Error).message).toContain('at most 97');
      expect(await store.load(gameId)).toBeUndefined();
      // 97 events + CMD + HEAD + SECRET = exactly 100 items: accepted.
      const ok = events(gameId, GENESIS, 97, 'most');
      await store.append({ gameId, expectedVersion: 0, events: ok, commandId: 'most', summary: summary(gameId, 97, ok[96]!.hash), seed: SEED });
      expect((await store.readEvents(gameId, 0, 1000)).length).toBe(97);
    });

    it('refuses a command whose events exceed the 4 MB transaction limit with 413', async () => {
      const gameId = newGame();
      const all = await grow(store, gameId, 1);
      const evs = events(gameId, { version: 1, hash: all[0]!.hash }, 12, 'fat', { blob: 'q'.repeat(360 * 1024) });
      calls.reset();
      const e = await store
        .append({ gameId, expectedVersion: 1, events: evs, commandId: 'fat', summary: summary(gameId, 13, evs[11]!.hash) })
        .catch((x: unknown) => x);
      expect(e).toMatchObject({ status: 413, code: 'store/command-too-large' });
      expect(calls.counts.TransactWriteItemsCommand).toBeUndefined();
      expect((await store.load(gameId))!.version).toBe(1);
    });

    it('skips a snapshot too big even gzipped: the append lands, the tail just grows', async () => {
      const gameId = newGame();
      const all = await grow(store, gameId, 1);
      const next = events(gameId, { version: 1, hash: all[0]!.hash }, 1, 'snap-big');
      const skipped = store.stats.snapshotsSkipped;
      // Random bytes do not compress: ~600 KB of base64 stays well over 380 KB gzipped.
      const noise = randomBytes(450 * 1024).toString('base64');
      await store.append({
        gameId,
        expectedVersion: 1,
        events: next,
        commandId: 'snap-big',
        summary: summary(gameId, 2, next[0]!.hash),
        snapshot: { version: 2, engineVersion: 1, state: stateAt(next[0]!, { noise }) },
      });
      expect(store.stats.snapshotsSkipped).toBe(skipped + 1);
      const loaded = (await store.load(gameId))!;
      expect(loaded.snapshot).toBeUndefined();
      expect(loaded.version).toBe(2);
      expect(loaded.tail.map((e) => e.seq)).toEqual([1, 2]);
    });
  });
});
