import { beforeAll, describe, expect, it } from 'vitest';
import { ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { canonicalJson, createRegistry, foldAll, verifyLog, type AnyEngine, type EventEnvelope } from '../../domain/kernel/index.js';
import { AppError } from '../../functions/ports.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import type { GameService } from '../../functions/app/game-service.js';
import type { DynamoEventStore } from '../../functions/store/dynamo-event-store.js';
import { diceRace } from '../fixtures/dice-race.js';
import { freshTable } from '../support/dynamo.js';
import { countCalls, type CallCounter } from '../store/call-counter.js';
import { tally } from './tally.js';

const engines = createRegistry([diceRace, tally]);

let client: DynamoDBClient;
let tableName: string;
let svc: GameService;
let store: DynamoEventStore;
let calls: CallCounter;
let ids = 0;
const cid = (p = 'c') => `${p}-${++ids}`;

beforeAll(async () => {
  const t = await freshTable('app');
  client = t.client;
  tableName = t.tableName;
  calls = countCalls(client);
  ({ service: svc, store } = createDynamoGameService({ client, tableName, engines, snapshotEvery: 20 }));
});

const itemCount = async () => (await client.send(new ScanCommand({ TableName: tableName, Select: 'COUNT' }))).Count ?? 0;

async function caught(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

/** A dice-race game with alice in p1 and bob in p2, started. */
async function started(target = 10_000, s: GameService = svc): Promise<string> {
  const { gameId } = await s.create('alice', { engine: 'dice-race', options: { target }, seat: 'p1', entropy: 'alice-says-hi', commandId: cid('create') });
  await s.join('bob', gameId, { entropy: 'bob-too', commandId: cid('join') });
  return gameId;
}

/** Plays `n` rolls in turn order (alice in p1 first unless told), as alice and bob. */
async function rolls(gameId: string, n: number, s: GameService = svc, each?: () => void, first: 'alice' | 'bob' = 'alice'): Promise<void> {
  const other = first === 'alice' ? 'bob' : 'alice';
  for (let i = 0; i < n; i++) {
    await s.submit(i % 2 === 0 ? first : other, gameId, { command: { type: 'Roll' }, commandId: cid('roll') });
    each?.();
  }
}

const playerFor = (seat: string) => (seat === 'p1' ? 'alice' : 'bob');

/** Plays a short race to its end, choosing each move from the view's legal commands. */
async function playToEnd(gameId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const v = await svc.view(null, gameId);
    if (v.summary.status !== 'active') return;
    const seat = v.pending[0]!.seat;
    const mine = await svc.view(playerFor(seat), gameId);
    const cmd = mine.legalCommands[i % mine.legalCommands.length];
    await svc.submit(playerFor(seat), gameId, { command: cmd, commandId: cid('move') });
  }
  throw new Error('game did not end');
}

describe('creating and joining', () => {
  it('creates a game, seats the creator in the same command, and starts when the last seat joins', async () => {
    const before = await itemCount();
    calls.reset();
    const created = await svc.create('alice', { engine: 'dice-race', options: { target: 30 }, seat: 'p1', commandId: 'create-once' });
    expect(calls.counts).toEqual({ TransactWriteItemsCommand: 1 });
    expect(created).toMatchObject({ version: 2, duplicate: false });
    expect(created.events.map((e) => e.type)).toEqual(['Game.Created', 'Game.SeatJoined']);
    expect(await itemCount()).toBe(before + 2); // HEAD (the tip, with both events) and SECRET
    const joined = await svc.join('bob', created.gameId, { commandId: cid() });
    expect(joined.events.map((e) => e.type)).toEqual(['Game.SeatJoined', 'Game.Started', 'CardDealt']);
    const v = await svc.view('alice', created.gameId);
    expect(v.seat).toBe('p1');
    expect(v.summary).toMatchObject({ status: 'active', version: 7 });
    expect(v.pending).toMatchObject([{ seat: 'p1', player: 'alice', kind: 'move' }]);
    expect(v.legalCommands).toEqual([{ type: 'Roll' }, { type: 'PlayCard' }]);
    expect((await svc.view('bob', created.gameId)).legalCommands).toEqual([]);
  });

  it('the same create sent 5 times, one after another and at once, makes one game', async () => {
    const first = await svc.create('carol', { engine: 'dice-race', seat: 'p2', commandId: 'carol-create' });
    const again = await Promise.all(Array.from({ length: 4 }, () => svc.create('carol', { engine: 'dice-race', seat: 'p2', commandId: 'carol-create' })));
    for (const r of again) expect(r).toMatchObject({ gameId: first.gameId, version: 2, duplicate: true, events: first.events });
    expect(await store.readEvents(first.gameId, 0, 100)).toHaveLength(2);
    // Another player with the same commandId gets a game of their own.
    const dave = await svc.create('dave', { engine: 'dice-race', commandId: 'carol-create' });
    expect(dave.gameId).not.toBe(first.gameId);
  });

  it('an unknown engine is 400 engine/unknown and writes nothing', async () => {
    const before = await itemCount();
    const e = await caught(svc.create('alice', { engine: 'chess', commandId: cid() }));
    expect(e).toMatchObject({ status: 400, code: 'engine/unknown' });
    expect(e.message).toContain('dice-race');
    expect(await itemCount()).toBe(before);
  });

  it('bad options are 400 game/bad-options and a bad commandId is 400 command/bad-id; nothing written', async () => {
    const before = await itemCount();
    expect(await caught(svc.create('alice', { engine: 'dice-race', options: { target: 'lots' }, commandId: cid() }))).toMatchObject({
      status: 400,
      code: 'game/bad-options',
    });
    expect(await caught(svc.create('alice', { engine: 'dice-race', commandId: 'has space' }))).toMatchObject({ status: 400, code: 'command/bad-id' });
    expect(await caught(svc.create('alice', { engine: 'dice-race', commandId: '' }))).toMatchObject({ status: 400, code: 'command/bad-id' });
    expect(await itemCount()).toBe(before);
  });

  it('an unknown game is 404 game/not-found', async () => {
    expect(await caught(svc.view('alice', 'no-such-game'))).toMatchObject({ status: 404, code: 'game/not-found' });
    expect(await caught(svc.submit('alice', 'no/such', { command: { type: 'Roll' }, commandId: cid() }))).toMatchObject({ status: 404 });
    expect(await caught(svc.join('alice', 'x'.repeat(500), { commandId: cid() }))).toMatchObject({ status: 404 });
  });
});

describe('commands', () => {
  it('an unknown command type is 400 command/malformed and writes nothing', async () => {
    const gameId = await started();
    const before = await itemCount();
    const e = await caught(svc.submit('alice', gameId, { command: { type: 'Teleport' }, commandId: cid() }));
    expect(e).toMatchObject({ status: 400, code: 'command/malformed' });
    expect(await caught(svc.submit('alice', gameId, { command: 'Roll', commandId: cid() }))).toMatchObject({ status: 400, code: 'command/malformed' });
    expect(await itemCount()).toBe(before);
  });

  it('a seat cannot act for another: 403 for a seat not held, 422 out of turn, nothing written', async () => {
    const gameId = await started();
    const before = await itemCount();
    expect(await caught(svc.submit('bob', gameId, { command: { type: 'Roll' }, seat: 'p1', commandId: cid() }))).toMatchObject({
      status: 403,
      code: 'action/not-your-seat',
    });
    expect(await caught(svc.submit('mallory', gameId, { command: { type: 'Roll' }, commandId: cid() }))).toMatchObject({
      status: 403,
      code: 'action/not-seated',
    });
    expect(await caught(svc.submit('bob', gameId, { command: { type: 'Roll' }, commandId: cid() }))).toMatchObject({
      status: 422,
      code: 'action/inactive-player',
      rule: 'Dice Race: turns',
    });
    expect(await caught(svc.resign('mallory', gameId, { commandId: cid() }))).toMatchObject({ status: 403, code: 'action/not-seated' });
    expect(await caught(svc.view('bob', gameId, { seat: 'p1' }))).toMatchObject({ status: 403, code: 'action/not-your-seat' });
    expect(await caught(svc.events('bob', gameId, { seat: 'p1' }))).toMatchObject({ status: 403, code: 'action/not-your-seat' });
    expect(await itemCount()).toBe(before);
    expect((await svc.view(null, gameId)).summary.version).toBe(7);
  });

  it('two concurrent commands on one version with expectedVersion: exactly one lands, the other gets 409 and succeeds on retry', async () => {
    const { gameId } = await svc.create('alice', { engine: 'tally', seat: 'a', commandId: cid() });
    await svc.join('bob', gameId, { commandId: cid() });
    const v = (await svc.view('alice', gameId)).summary.version;
    const results = await Promise.allSettled([
      svc.submit('alice', gameId, { command: { type: 'Add', n: 2 }, expectedVersion: v, commandId: 'race-a' }),
      svc.submit('bob', gameId, { command: { type: 'Add', n: 3 }, expectedVersion: v, commandId: 'race-b' }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.flatMap((r, i) => (r.status === 'rejected' ? [{ i, e: r.reason as AppError }] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.e).toMatchObject({ status: 409, code: 'version/conflict' });
    expect((await svc.view(null, gameId)).summary.version).toBe(v + 2);
    const loser = lost[0]!.i === 0 ? { player: 'alice', n: 2, id: 'race-a' } : { player: 'bob', n: 3, id: 'race-b' };
    const retry = await svc.submit(loser.player, gameId, { command: { type: 'Add', n: loser.n }, expectedVersion: v + 2, commandId: loser.id });
    expect(retry).toMatchObject({ version: v + 4, duplicate: false });
    expect((await svc.view(null, gameId)).view).toEqual({ total: 5 });
  });

  it('without expectedVersion, concurrent commands are all applied (the loser reloads and decides again)', async () => {
    const { gameId } = await svc.create('alice', { engine: 'tally', seat: 'a', commandId: cid() });
    await svc.join('bob', gameId, { commandId: cid() });
    const v = (await svc.view('alice', gameId)).summary.version;
    const rs = await Promise.all([1, 2, 3, 4].map((n) => svc.submit(n % 2 ? 'alice' : 'bob', gameId, { command: { type: 'Add', n }, commandId: cid('free') })));
    expect(rs.map((r) => r.version).sort((a, b) => a - b)).toEqual([v + 2, v + 4, v + 6, v + 8]);
    expect((await svc.view(null, gameId)).view).toEqual({ total: 10 });
  });

  it('a stale expectedVersion is 409 even when the command would be legal', async () => {
    const { gameId } = await svc.create('alice', { engine: 'tally', seat: 'a', commandId: cid() });
    const e = await caught(svc.submit('alice', gameId, { command: { type: 'Add', n: 1 }, expectedVersion: 0, commandId: cid() }));
    expect(e).toMatchObject({ status: 409, code: 'version/conflict' });
  });

  it('the same commandId sent 5 times in a row gives one set of events and the first result', async () => {
    const gameId = await started();
    const first = await svc.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'roll-seq' });
    expect(first.duplicate).toBe(false);
    calls.reset();
    for (let i = 0; i < 4; i++) {
      // Even with a stale expectedVersion, a retry of an applied command is recognised.
      const again = await svc.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'roll-seq', expectedVersion: 6 });
      // Nothing moved since: the view after it is the first answer's.
      expect(again).toEqual({ ...first, duplicate: true, next: expect.objectContaining({ status: 'active' }) });
    }
    expect(calls.counts).toEqual({ QueryCommand: 4 });
    const log = await store.readEvents(gameId, 0, 1000);
    expect(log.filter((e) => e.commandId === 'roll-seq')).toHaveLength(2);
    expect(log).toHaveLength(9);
  });

  it('the same commandId sent 5 times at once gives one set of events', async () => {
    const gameId = await started();
    const rs = await Promise.all(Array.from({ length: 5 }, () => svc.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'roll-par' })));
    expect(rs.filter((r) => !r.duplicate)).toHaveLength(1);
    for (const r of rs) expect(r.events).toEqual(rs[0]!.events);
    const log = await store.readEvents(gameId, 0, 1000);
    expect(log.filter((e) => e.commandId === 'roll-par').map((e) => e.type)).toEqual(['Game.CommandAccepted', 'Rolled']);
    expect((await svc.view(null, gameId)).summary.version).toBe(9);
  });

  it('a command older than the snapshot and the recent list is still recognised (CMD record, item-per-event layout)', async () => {
    const t = await freshTable('old');
    const { service, store: s2 } = createDynamoGameService({ client: t.client, tableName: t.tableName, engines, snapshotEvery: 5, newGames: 'item-per-event' });
    (s2 as { recentLimit: number }).recentLimit = 2;
    const gameId = await started(10_000, service);
    const first = await service.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'ancient' });
    await rolls(gameId, 10, service, undefined, 'bob'); // ends with alice: bob (p2) to move
    // Out of turn now: decision fails, but the CMD record says it was applied.
    // What to do next, and the view, are told as of now, not as of the first answer.
    const same = async () => ({ ...first, duplicate: true, next: expect.objectContaining({ status: 'active' }), view: await service.view('alice', gameId) });
    expect(await service.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'ancient' })).toEqual(await same());
    await service.submit('bob', gameId, { command: { type: 'Roll' }, commandId: cid() });
    // In turn again: decision succeeds, the conditional write refuses the commandId.
    expect(await service.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'ancient' })).toEqual(await same());
    // A client retrying with the version it first decided on gets the same answer, not a 409.
    expect(await service.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'ancient', expectedVersion: 7 })).toEqual(await same());
    expect((await s2.readEvents(gameId, 0, 1000)).filter((e) => e.commandId === 'ancient')).toHaveLength(2);
  });
});

describe('retries in the tip layout', () => {
  it('a retry is a duplicate while its command is among the last 50 (recentLimit), legal or not; older ones by their batch when not legal or sent with expectedVersion', async () => {
    const t = await freshTable('tipold');
    const { service, store: s2 } = createDynamoGameService({ client: t.client, tableName: t.tableName, engines, snapshotEvery: 5 });
    (s2 as { recentLimit: number }).recentLimit = 6;
    const gameId = await started(10_000, service);
    const first = await service.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'recent' });
    await rolls(gameId, 4, service, undefined, 'bob'); // 4 more commands, 8 events: 'recent' is in no tip, only in HEAD's recent list
    // The first answer, with what to do next and the view as of now.
    const same = async () => ({ ...first, duplicate: true, next: expect.objectContaining({ status: 'active' }), view: await service.view('alice', gameId) });
    await service.submit('bob', gameId, { command: { type: 'Roll' }, commandId: cid() });
    // In turn: the decision succeeds, HEAD's recent list answers.
    expect(await service.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'recent' })).toEqual(await same());
    await rolls(gameId, 9, service, undefined, 'alice'); // ends with alice: bob to move
    // Out of recent now: out of turn it is found in its batch item; with its old version too.
    expect(await service.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'recent' })).toEqual(await same());
    expect(await service.submit('alice', gameId, { command: { type: 'Roll' }, commandId: 'recent', expectedVersion: 7 })).toEqual(await same());
    expect((await s2.readEvents(gameId, 0, 1000)).filter((e) => e.commandId === 'recent')).toHaveLength(2);
  });
});

describe('a long game', () => {
  it('every command costs exactly one Query and one write (a PutItem of its new item, or TransactWriteItems when that carries new parts), however long the game', async () => {
    const gameId = await started();
    const stats = { ...store.stats };
    let i = 0;
    calls.reset();
    await rolls(gameId, 300, svc, () => {
      i++;
      const { QueryCommand, ...writes } = calls.counts;
      expect(QueryCommand, `command ${i}`).toBe(1);
      expect(writes, `command ${i}`).toSatisfy(
        (w: Record<string, number>) => Object.keys(w).length === 1 && (w['PutItemCommand'] === 1 || w['TransactWriteItemsCommand'] === 1),
      );
      calls.reset();
    });
    calls.reset();
    expect(store.stats.extraPages).toBe(stats.extraPages);
    expect(store.stats.tornReads).toBe(stats.tornReads);
    // 600 events: one every 20 events at least, and every snapshotItems commands when that is sooner (each command one item).
    expect(store.stats.snapshotsWritten - stats.snapshotsWritten).toBe(Math.floor(300 / Math.min(10, store.snapshotItems)));
    const v = await svc.view('alice', gameId);
    expect(calls.counts).toEqual({ QueryCommand: 1 });
    expect(v.summary.version).toBe(607);

    // The snapshot plus tail folds to exactly what folding every event from the start gives.
    const loaded = (await store.load(gameId))!;
    expect(loaded.snapshot).toBeDefined();
    expect(loaded.tail.length).toBeLessThan(20);
    const fromSnapshot = foldAll(diceRace, loaded.tail, loaded.snapshot!.state);
    const full = foldAll(diceRace, await store.readEvents(gameId, 0, 10_000));
    expect(canonicalJson(fromSnapshot)).toBe(canonicalJson(full));
  }, 120_000);

  it('a snapshot from an older engine version is ignored and replaced', async () => {
    const gameId = await started();
    await rolls(gameId, 15);
    const bumped: AnyEngine = { ...diceRace, version: 2 };
    const { service: v2, store: s2 } = createDynamoGameService({ client, tableName, engines: createRegistry([bumped]), snapshotEvery: 20 });
    expect((await s2.load(gameId))!.snapshot?.engineVersion).toBe(1);
    expect((await v2.view('alice', gameId)).view).toEqual((await svc.view('alice', gameId)).view);
    await v2.submit('bob', gameId, { command: { type: 'Roll' }, commandId: cid() });
    const after = (await s2.load(gameId))!;
    expect(after.snapshot).toMatchObject({ engineVersion: 2, version: after.version });
    expect(after.tail).toEqual([]);
  });

  it('events() pages through a long log, with older pages read past the snapshot', async () => {
    const gameId = await started();
    await rolls(gameId, 30);
    const seen: EventEnvelope[] = [];
    let after = 0;
    for (let page = 0; page < 20; page++) {
      const r = await svc.events(null, gameId, { after, limit: 25 });
      expect(r.version).toBe(67);
      seen.push(...r.events);
      if (r.next === undefined) break;
      after = r.next;
    }
    expect(after).toBe(50);
    // Spectators see only public events: no hidden deck, no private hand, no accepted commands.
    expect(seen.some((e) => e.type === 'DeckShuffled' || e.type === 'CardDealt' || e.type === 'Game.CommandAccepted')).toBe(false);
    expect(seen.filter((e) => e.type === 'Rolled')).toHaveLength(30);
  });
});

describe('hidden information and audit', () => {
  it('hidden events are not returned to the other seat by events(), view() or command results; the seed stays secret', async () => {
    const created = await svc.create('alice', { engine: 'dice-race', options: { target: 12 }, seat: 'p1', commandId: cid() });
    const { gameId } = created;
    const joined = await svc.join('bob', gameId, { commandId: cid() });
    const seed = (await store.load(gameId))!.seed;
    const dealtTo = (evs: EventEnvelope[]) => evs.filter((e) => e.type === 'CardDealt').map((e) => (e.data as { seat: string }).seat);

    expect(dealtTo(joined.events)).toEqual(['p2']);
    expect(joined.events.some((e) => e.type === 'DeckShuffled')).toBe(false);
    const alice = await svc.events('alice', gameId);
    const bob = await svc.events('bob', gameId);
    const anyone = await svc.events(null, gameId);
    expect(dealtTo(alice.events)).toEqual(['p1']);
    expect(dealtTo(bob.events)).toEqual(['p2']);
    expect(dealtTo(anyone.events)).toEqual([]);
    for (const r of [alice, bob, anyone]) expect(r.events.some((e) => e.type === 'DeckShuffled')).toBe(false);

    const aliceView = (await svc.view('alice', gameId)).view as { hands: Record<string, unknown>; deck?: unknown };
    const bobView = (await svc.view('bob', gameId)).view as { hands: Record<string, unknown>; deck?: unknown };
    expect(typeof aliceView.hands['p1']).toBe('number');
    expect(aliceView.hands['p2']).toBe('hidden');
    expect(bobView.hands['p1']).toBe('hidden');
    expect(bobView.deck).toBeUndefined();

    const played = await svc.submit('alice', gameId, { command: { type: 'PlayCard' }, commandId: cid() });
    expect(played.events.map((e) => e.type)).toEqual(['Game.CommandAccepted', 'CardPlayed', 'CardDealt']);
    const bobAfter = await svc.events('bob', gameId, { after: 7 });
    expect(bobAfter.events.map((e) => e.type)).toEqual(['CardPlayed']);

    const outputs = JSON.stringify([created, joined, alice, bob, anyone, played, bobAfter, await svc.view('alice', gameId), await svc.view(null, gameId)]);
    expect(outputs).not.toContain(seed);
    expect(await caught(svc.exportLog('alice', gameId))).toMatchObject({ status: 409, code: 'game/not-ended' });

    // After the end everything opens, the seed included.
    const end = await svc.resign('bob', gameId, { commandId: cid() });
    expect(end.events.map((e) => e.type)).toEqual(['Game.Resigned', 'Game.Ended']);
    expect((end.events[1]!.data as { seed: string }).seed).toBe(seed);
    const all = await svc.events('bob', gameId, { limit: 1000 });
    expect(dealtTo(all.events)).toEqual(['p1', 'p2', 'p1']);
    expect(all.events.some((e) => e.type === 'DeckShuffled')).toBe(true);
    expect(((await svc.view('bob', gameId)).view as { deck?: unknown }).deck).toBeDefined();
  });

  it('the export of an ended game passes verifyLog, and a one-byte tamper fails', async () => {
    const gameId = await started(25);
    await playToEnd(gameId);
    const v = await svc.view('bob', gameId);
    expect(v.summary.status).toBe('ended');
    expect(v.legalCommands).toEqual([]);
    const log = await svc.exportLog(null, gameId);
    expect(log.length).toBe(v.summary.version);
    const report = verifyLog(log, (id) => engines.get(id));
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.finalHash).toBe(v.summary.hash);

    const text = JSON.stringify(log);
    const at = text.search(/"die":[1-6]/) + '"die":'.length;
    const digit = text[at]!;
    const tampered = text.slice(0, at) + (digit === '6' ? '5' : String(Number(digit) + 1)) + text.slice(at + 1);
    expect(tampered.length).toBe(text.length);
    const bad = verifyLog(JSON.parse(tampered) as EventEnvelope[], (id) => engines.get(id));
    expect(bad.ok).toBe(false);
    expect(bad.problems.join(' ')).toMatch(/hash/);

    // Commands on an ended game are refused.
    expect(await caught(svc.submit('alice', gameId, { command: { type: 'Roll' }, commandId: cid() }))).toMatchObject({ status: 422, code: 'game/over' });
  });
});
