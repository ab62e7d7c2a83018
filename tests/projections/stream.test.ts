import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { createProjectorHandler } from '../../functions/handlers/projector.js';
import { StreamPoller } from '../../functions/local/stream-poller.js';
import type { NotifyJob } from '../../functions/notify/decide.js';
import type { NotifyQueue } from '../../functions/notify/queue.js';
import { rebuildReadModels } from '../../functions/projections/rebuild.js';
import { ReadModelStore } from '../../functions/projections/read-model-store.js';
import { processStreamRecords, type RecordOutcome } from '../../functions/projections/stream.js';
import type { StreamRecordLike } from '../../functions/projections/stream-image.js';
import { ensureTable } from '../../functions/store/table.js';
import type { GameService } from '../../functions/app/game-service.js';
import { freshTable } from '../support/dynamo.js';
import { cid, engines, playTurns, readModelItems, service, streamsClient } from './support.js';
import { waitFor } from '../support/wait.js';
import { wire } from './wire.js';

let client: DynamoDBClient;
let tableName: string;
let endpoint: string;
let svc: GameService;
let models: ReadModelStore;
const jobs: NotifyJob[] = [];
const queue: NotifyQueue = { enqueue: async (js) => void jobs.push(...js) };
let outcomes: RecordOutcome[] = [];
let poller: StreamPoller;
const games: { running: string; open: string; ended: string; invite: string } = { running: '', open: '', ended: '', invite: '' };

beforeAll(async () => {
  ({ client, tableName, endpoint } = await freshTable('proj'));
  svc = service(client, tableName);
  models = new ReadModelStore(client, tableName);
  poller = new StreamPoller({
    client,
    endpoint,
    tableName,
    intervalMs: 100,
    onRecords: async (records) => {
      const r = await processStreamRecords(records, { readModels: models, queue, log: () => {} });
      outcomes.push(...r.outcomes);
      return r;
    },
  });

  games.running = (await svc.create('alice', { engine: 'dice-race', options: { target: 50 }, seat: 'p1', commandId: cid() })).gameId;
  await svc.join('bob', games.running, { commandId: cid() });
  await playTurns(svc, games.running, 3);

  games.open = (await svc.create('carol', { engine: 'dice-race', options: {}, seat: 'p1', commandId: cid() })).gameId;

  games.ended = (await svc.create('alice', { engine: 'dice-race', options: { target: 5 }, seat: 'p1', commandId: cid() })).gameId;
  await svc.join('bob', games.ended, { commandId: cid() });
  await playTurns(svc, games.ended, 40);

  games.invite = (await svc.create('alice', { engine: 'dice-race', options: {}, seat: 'p1', reserve: { p2: 'dave' }, commandId: cid() })).gameId;

  poller.start();
  await waitFor('the invite game to be projected', async () => ((await models.getSummary(games.invite)) ? true : undefined));
  await poller.nextPass();
}, 60_000);

afterAll(async () => {
  await poller.stop();
});

describe('projector on the DynamoDB Local stream', () => {
  it('builds each player\'s inbox with "your move" flags', async () => {
    const alice = await models.inbox('alice');
    const bob = await models.inbox('bob');
    const running = (await svc.view(null, games.running)).summary;
    const mover = running.pending[0]!.player;
    const a = alice.find((g) => g.gameId === games.running)!;
    const b = bob.find((g) => g.gameId === games.running)!;
    expect(a.yourMove).toBe(mover === 'alice');
    expect(b.yourMove).toBe(mover === 'bob');
    expect(a.version).toBe(running.version);
    expect(a.whoseMove[0]).toMatchObject({ player: mover, since: running.updatedAt });
    expect(alice.find((g) => g.gameId === games.ended)).toMatchObject({ status: 'ended', yourMove: false });
    expect(['won', 'lost']).toContain(alice.find((g) => g.gameId === games.ended)!.outcome!.result);
    expect((await models.inbox('dave')).map((g) => [g.gameId, g.invited])).toEqual([[games.invite, true]]);
  });

  it('lists only open games with a free seat in the lobby', async () => {
    const lobby = (await models.lobby()).map((g) => g.gameId);
    expect(lobby).toEqual([games.open]);
  });

  it('queued the notices: invitation, start, and a "your turn" for each pass of the move', async () => {
    const forGame = (id: string) => jobs.filter((j) => j.notice.gameId === id).map((j) => `${j.notice.kind}:${j.notice.player}`);
    expect(forGame(games.invite)).toEqual(['invited:dave']);
    expect(forGame(games.open)).toEqual([]);
    const r = forGame(games.running);
    // A start is game.started for everyone (with what it asks of the first mover), never a separate "your turn".
    expect(r.slice(0, 2).sort()).toEqual(['started:alice', 'started:bob']);
    expect(r.slice(2)).toEqual(['turn:bob', 'turn:alice', 'turn:bob']);
    expect(
      forGame(games.ended)
        .filter((k) => k.startsWith('ended:'))
        .sort(),
    ).toEqual(['ended:alice', 'ended:bob']);
  });

  it('replaying the whole stream twice changes no read model and applies nothing', async () => {
    const before = await readModelItems(client, tableName);
    outcomes = [];
    const replayed = await poller.replay();
    await poller.replay();
    expect(replayed).toBeGreaterThan(10);
    expect(outcomes.filter((o) => o.readModels === 'applied')).toEqual([]);
    expect(outcomes.filter((o) => o.readModels === 'stale').length).toBeGreaterThan(0);
    expect(await readModelItems(client, tableName)).toEqual(before);
  });

  it('an older summary arriving late is refused', async () => {
    const current = (await models.getSummary(games.running))!;
    const older = { ...current.summary, version: current.version - 1, pending: [] };
    expect(await models.apply(older)).toBe('stale');
    expect((await models.getSummary(games.running))!.summary).toEqual(current.summary);
  });

  it("a rebuild from the events into a fresh table gives exactly the stream path's read models", async () => {
    const target = `${tableName}-rebuilt`;
    await ensureTable(client, target);
    const report = await rebuildReadModels({ client, sourceTable: tableName, targetTable: target, engines });
    expect(report).toMatchObject({ games: 4, written: 4, keptNewer: 0, failed: [] });
    const streamed = await readModelItems(client, tableName);
    expect(streamed.length).toBeGreaterThan(8);
    expect(await readModelItems(client, target)).toEqual(streamed);
  });

  it('a rebuild in place changes nothing and removes stray read-model items', async () => {
    const before = await readModelItems(client, tableName);
    await models.put({
      ...(await (async () => {
        const s = (await models.getSummary(games.open))!;
        return { summary: { ...s, pk: 'SUMMARY#ghost', gameId: 'ghost' }, inbox: [], lobby: undefined, dropInbox: [] };
      })()),
    });
    const report = await rebuildReadModels({ client, sourceTable: tableName, engines });
    expect(report.removed).toBe(1);
    expect(await readModelItems(client, tableName)).toEqual(before);
  });
});

describe('projector Lambda handler', () => {
  it('reports a bad record and the later records of its game, and still projects other games', async () => {
    const good = (await models.getSummary(games.open))!.summary;
    const rec = (seq: string, pk: string, summary: unknown): StreamRecordLike => ({
      eventName: 'MODIFY',
      dynamodb: {
        SequenceNumber: seq,
        Keys: { pk: { S: pk }, sk: { S: 'HEAD' } },
        NewImage: { pk: { S: pk }, sk: { S: 'HEAD' }, summary: wire(summary) as object },
      },
    });
    const fresh = { ...good, gameId: 'other-game', version: 1 };
    const seen: NotifyJob[] = [];
    const handler = createProjectorHandler({
      readModels: models,
      queue: { enqueue: async (js) => void seen.push(...js) },
      streams: streamsClient(endpoint),
      log: () => {},
    });
    const event = {
      Records: [
        rec('100', 'GAME#broken', { gameId: 'broken' }),
        rec('101', 'GAME#broken', { ...good, gameId: 'broken', version: 2 }),
        rec('102', 'GAME#other-game', fresh),
        { eventName: 'INSERT', dynamodb: { SequenceNumber: '103', Keys: { pk: { S: 'GAME#x' }, sk: { S: 'EV#0000000001' } } } },
      ],
    } as unknown as DynamoDBStreamEvent;
    const r = await handler(event);
    expect(r.batchItemFailures).toEqual([{ itemIdentifier: '100' }, { itemIdentifier: '101' }]);
    expect((await models.getSummary('other-game'))?.version).toBe(1);
    expect(await models.getSummary('broken')).toBeUndefined();
  });
});

describe('a batch of many games', () => {
  it('works on several games at once, writes each game once from its records in stream order, and lists outcomes and failures in batch order', async () => {
    const good = (await models.getSummary(games.open))!.summary;
    const rec = (seq: string, gameId: string, version: number): StreamRecordLike => ({
      eventName: 'MODIFY',
      dynamodb: {
        SequenceNumber: seq,
        Keys: { pk: { S: `GAME#${gameId}` }, sk: { S: 'HEAD' } },
        NewImage: { pk: { S: `GAME#${gameId}` }, sk: { S: 'HEAD' }, summary: wire({ ...good, gameId, version }) as object },
      },
    });
    const records = [rec('1', 'a', 1), rec('2', 'b', 1), rec('3', 'a', 2), rec('4', 'c', 1), rec('5', 'b', 2), rec('6', 'b', 3)];
    const writes: string[] = [];
    let running = 0;
    let most = 0;
    const readModels = {
      apply: async (s: { gameId: string; version: number }, before: readonly { version: number }[] = []) => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 20));
        running--;
        if (s.gameId === 'b') throw new Error('b fails');
        writes.push(`${s.gameId}:${[...before, s].map((x) => x.version).join(',')}`);
        return 'applied' as const;
      },
    };
    const r = await processStreamRecords(records, { readModels, queue: { enqueue: async () => {} }, log: () => {} });
    expect(most).toBe(3);
    // One write per game, from all its summaries oldest first.
    expect(writes.sort()).toEqual(['a:1,2', 'c:1']);
    expect(r.outcomes.map((o) => `${o.sequence}:${o.readModels}`)).toEqual(['1:applied', '2:failed', '3:applied', '4:applied', '5:skipped', '6:skipped']);
    expect(r.batchItemFailures).toEqual([{ itemIdentifier: '2' }, { itemIdentifier: '5' }, { itemIdentifier: '6' }]);
  });
});
