import { beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBClient as Client } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { GameSummary } from '../../domain/kernel/index.js';
import { inboxEntrySk, inboxPageSk, lobbyPageSk } from '../../functions/projections/keys.js';
import { projectGame, projectSequence } from '../../functions/projections/project.js';
import { rebuildReadModels } from '../../functions/projections/rebuild.js';
import { ReadModelStore } from '../../functions/projections/read-model-store.js';
import { documentClient } from '../../functions/store/document-client.js';
import { freshTable } from '../support/dynamo.js';
import { cid, engines, playTurns, service } from './support.js';

/**
 * One item per inbox or lobby entry, keyed by its place in the list (PAGE#...), so the inbox
 * and lobby are listed a page at a time in list order; moving a game moves its item instead of
 * leaving a copy behind, and an entry whose content did not change is not written again.
 */
let client: DynamoDBClient;
let tableName: string;
let endpoint: string;
let models: ReadModelStore;

beforeAll(async () => {
  ({ client, tableName, endpoint } = await freshTable('pages'));
  models = new ReadModelStore(client, tableName);
});

async function partition(pk: string, table = tableName, c = client): Promise<Record<string, any>[]> {
  const r = await documentClient(c).send(
    new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true }),
  );
  return r.Items ?? [];
}

/** The partition holds exactly one item per game, where its entry is kept (keys.ts), and the SUMMARY of each lists it there. */
async function expectOneEach(pk: string, gameIds: readonly string[]): Promise<void> {
  const items = (await partition(pk)).filter((i) => gameIds.includes(i['gameId']) || String(i['sk']).startsWith('GAME#'));
  expect(items.map((g) => g['gameId']).sort()).toEqual([...gameIds].sort());
  for (const item of items) {
    expect(item['sk']).toBe(pk === 'LOBBY' ? lobbyPageSk(item as never) : inboxEntrySk(item as never));
    expect(item['type']).toBe(pk === 'LOBBY' ? 'lobby' : 'inbox');
    const entries = (await models.getSummary(item['gameId']))!.entries!;
    expect(entries.filter((e) => (e.player === undefined ? 'LOBBY' : `INBOX#${e.player}`) === pk).map((e) => e.sk)).toEqual([item['sk']]);
  }
}

const T = (minute: number) => new Date(Date.UTC(2026, 2, 1, 0, minute)).toISOString();

function summary(
  version: number,
  o: { p2: string | null; joined2?: boolean; turn?: 'p1' | 'p2'; status?: GameSummary['status']; updated: number; outcome?: GameSummary['outcome'] },
): GameSummary {
  const seats = [
    { id: 'p1', name: 'North', player: 'ann', joined: true },
    { id: 'p2', name: 'South', player: o.p2, joined: o.joined2 ?? o.p2 !== null },
  ];
  const pending = o.turn ? [{ seat: o.turn, kind: 'move' as const, prompt: 'Roll', player: o.turn === 'p1' ? 'ann' : o.p2 }] : [];
  return {
    gameId: 'g1',
    engine: 'dice-race',
    title: 'Dice race',
    status: o.status ?? 'active',
    version,
    hash: `h${version}`,
    createdBy: 'ann',
    createdAt: T(0),
    updatedAt: T(o.updated),
    seats,
    pending,
    ...(o.outcome ? { outcome: o.outcome } : {}),
  };
}

describe('page items', () => {
  it('follow a game through the lobby, a reserved seat given away, turns and the end', async () => {
    await models.apply(summary(1, { p2: null, status: 'open', updated: 1 }));
    await expectOneEach('LOBBY', ['g1']);
    await expectOneEach('INBOX#ann', ['g1']);

    // Reserved for dee (out of the lobby), then given to nobody (back in), then ben joins.
    await models.apply(summary(2, { p2: 'dee', joined2: false, status: 'open', updated: 2 }));
    await expectOneEach('LOBBY', []);
    await expectOneEach('INBOX#dee', ['g1']);
    await models.apply(summary(3, { p2: null, status: 'open', updated: 3 }));
    await expectOneEach('INBOX#dee', []);
    await expectOneEach('LOBBY', ['g1']);
    await models.apply(summary(4, { p2: 'ben', turn: 'p1', updated: 4 }));
    await expectOneEach('LOBBY', []);

    for (let v = 5; v < 9; v++) {
      await models.apply(summary(v, { p2: 'ben', turn: v % 2 ? 'p2' : 'p1', updated: v * 10 }));
      await expectOneEach('INBOX#ann', ['g1']);
      await expectOneEach('INBOX#ben', ['g1']);
      // A running game's entry stays at one key while its place in the list moves with the turn.
      const ann = (await partition('INBOX#ann')).find((i) => i['gameId'] === 'g1')!;
      expect(ann['sk']).toBe('ACTIVE#g1');
      expect(inboxPageSk(ann as never).startsWith(v % 2 ? 'PAGE#1#' : 'PAGE#0#')).toBe(true);
    }
    await models.apply(summary(9, { p2: 'ben', status: 'ended', updated: 99, outcome: { winners: ['p2'], reason: 'target' } }));
    await expectOneEach('INBOX#ann', ['g1']);
    await expectOneEach('INBOX#ben', ['g1']);
    // Over: at its place in the list for good.
    expect((await partition('INBOX#ann')).find((i) => i['gameId'] === 'g1')!['sk']).toMatch(/^PAGE#1#/);
    // A stale or repeated summary changes nothing.
    expect(await models.apply(summary(8, { p2: 'ben', turn: 'p1', updated: 80 }))).toBe('stale');
    await expectOneEach('INBOX#ann', ['g1']);
  });

  it('a rebuild-style put over older read models moves the entries too', async () => {
    const s = { ...summary(20, { p2: 'ben', turn: 'p2', updated: 200 }), gameId: 'g2' };
    await models.apply({ ...s, version: 19, pending: [{ seat: 'p1', kind: 'move', prompt: 'Roll', player: 'ann' }], updatedAt: T(150) });
    expect(await models.put(projectGame(undefined, s))).toBe('applied');
    await expectOneEach('INBOX#ann', ['g1', 'g2']);
    await expectOneEach('INBOX#ben', ['g1', 'g2']);
    expect(await models.put(projectGame(undefined, { ...s, version: 18 }))).toBe('stale');
  });
});

describe('rebuild and page items', () => {
  it('keeps the live entries, also of a game that moved during the rebuild, and sweeps stray ones', async () => {
    const { client: base, tableName: table } = await freshTable('pages-rebuild');
    const svc = service(base, table);
    const store = new ReadModelStore(base, table);
    const doc = documentClient(base);
    const moving = (await svc.create('amy', { engine: 'dice-race', options: { target: 500 }, seat: 'p1', commandId: cid() })).gameId;
    await svc.join('bo', moving, { commandId: cid() });
    const quiet = (await svc.create('amy', { engine: 'dice-race', options: {}, seat: 'p1', commandId: cid() })).gameId;
    for (const id of [moving, quiet]) await store.apply((await svc.view(null, id)).summary);
    // An item no SUMMARY lists (say, left by a crash of older code): stray.
    await doc.send(new PutCommand({ TableName: table, Item: { pk: 'INBOX#amy', sk: 'PAGE#1#stale#' + moving, type: 'inbox-page', gameId: moving } }));

    // When the sweep starts, the moving game takes a turn and the live projector applies it.
    const sweepClient = new Client({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    let moved = false;
    sweepClient.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { FilterExpression?: string };
        if (!moved && context.commandName === 'ScanCommand' && input.FilterExpression?.includes(':inbox')) {
          moved = true;
          await playTurns(svc, moving, 1);
          await store.apply((await svc.view(null, moving)).summary);
        }
        return next(args);
      },
      { step: 'initialize', name: 'moveDuringSweep' },
    );
    const report = await rebuildReadModels({ client: sweepClient, sourceTable: table, engines });
    expect(moved).toBe(true);
    expect(report.removed).toBe(1);
    const live = (await store.getSummary(moving))!;
    expect(live.version).toBe((await svc.view(null, moving)).summary.version);

    const pagesOf = async (pk: string) => {
      const r = await doc.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ConsistentRead: true,
        }),
      );
      return (r.Items ?? []).map((i) => `${String(i['gameId'])}@v${String(i['version'])}`).sort();
    };
    expect(await pagesOf('INBOX#amy')).toEqual([`${moving}@v${live.version}`, `${quiet}@v${(await store.getSummary(quiet))!.version}`].sort());
    expect(await pagesOf('INBOX#bo')).toEqual([`${moving}@v${live.version}`]);
    expect(await pagesOf('LOBBY')).toEqual([`${quiet}@v${(await store.getSummary(quiet))!.version}`]);
  });
});

describe('the rebuild sweep and a live write under way', () => {
  it('leaves an entry the live projector wrote for a newer version whose SUMMARY is not written yet', async () => {
    const t = await freshTable('pages-sweep-race');
    const svc = service(t.client, t.tableName);
    const store = new ReadModelStore(t.client, t.tableName);
    const doc = documentClient(t.client);
    const gameId = (await svc.create('amy', { engine: 'dice-race', options: {}, seat: 'p1', commandId: cid() })).gameId;
    await svc.join('bo', gameId, { commandId: cid() });
    await store.apply((await svc.view(null, gameId)).summary);
    const live = (await store.getSummary(gameId))!;
    // The live projector, mid-write for the next version: its new entry is in, its SUMMARY not yet.
    const ahead = { pk: 'INBOX#amy', sk: `PAGE#0#9999#${gameId}`, type: 'inbox', gameId, player: 'amy', version: live.version + 1 };
    await doc.send(new PutCommand({ TableName: t.tableName, Item: ahead }));
    // And a stray entry of an older version, listed nowhere: swept.
    await doc.send(new PutCommand({ TableName: t.tableName, Item: { ...ahead, sk: `PAGE#0#0000#${gameId}`, version: live.version - 1 } }));

    const report = await rebuildReadModels({ client: t.client, sourceTable: t.tableName, engines });
    expect(report.removed).toBe(1);
    const sks = (await partition('INBOX#amy', t.tableName, t.client)).map((i) => i['sk']);
    expect(sks).toContain(ahead.sk);
    expect(sks).not.toContain(`PAGE#0#0000#${gameId}`);
    expect(sks).toContain(live.entries!.find((e) => e.player === 'amy')!.sk);
  });
});

describe('a rebuild write that keeps losing races', () => {
  it('throws (the rebuild reports the game failed) instead of claiming a newer version was kept', async () => {
    const svc = service(client, tableName);
    const { gameId } = await svc.create('alice', { engine: 'dice-race', options: { target: 50 }, seat: 'p1', commandId: cid('contended') });
    const summary = (await svc.view('alice', gameId)).summary;
    const store = new ReadModelStore(client, tableName);
    // Every write loses its condition, as when the live projector writes first each time.
    (store as unknown as { write: () => Promise<void> }).write = async () => {
      throw Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
    };
    await expect(store.put(projectGame(undefined, summary))).rejects.toThrow(/kept changing its read models/);
  });
});

describe('the projector writes each item on its own', () => {
  it('no transaction, no lobby item read or written for a game outside the lobby, and a write cut short is finished by the retry', async () => {
    const t = await freshTable('pages-units');
    const calls: { name: string; pk?: string }[] = [];
    t.client.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Key?: { pk?: { S?: string } }; Item?: { pk?: { S?: string } } };
        const pk = input.Key?.pk?.S ?? input.Item?.pk?.S;
        calls.push({ name: context.commandName ?? '', ...(pk !== undefined ? { pk } : {}) });
        return next(args);
      },
      { step: 'serialize', name: 'projectorCalls', priority: 'low' },
    );
    const store = new ReadModelStore(t.client, t.tableName);
    const g = (version: number, o: Parameters<typeof summary>[1]) => ({ ...summary(version, o), gameId: 'g9' });
    await store.apply(g(1, { p2: null, updated: 1 }));
    await store.apply(g(2, { p2: 'ben', turn: 'p1', updated: 2 }));
    calls.length = 0;
    expect(await store.apply(g(3, { p2: 'ben', turn: 'p2', updated: 3 }))).toBe('applied');
    expect(calls.map((c) => c.name)).not.toContain('TransactWriteItemsCommand');
    expect(calls.filter((c) => c.pk === 'LOBBY')).toEqual([]);
    expect(calls.filter((c) => c.pk === 'INBOX#ann').length).toBeGreaterThan(0);
    // One read (the SUMMARY says where the entries are); both entries changed (the move passed):
    // each written over at its one key, no delete, then the summary.
    expect(calls.filter((c) => c.name === 'GetItemCommand')).toEqual([{ name: 'GetItemCommand', pk: 'SUMMARY#g9' }]);
    expect(
      calls
        .filter((c) => c.name !== 'GetItemCommand')
        .map((c) => c.name)
        .sort(),
    ).toEqual(['PutItemCommand', 'PutItemCommand', 'PutItemCommand']);

    // The next write stops before its SUMMARY item (a crash): the entries are written.
    const doc = (store as unknown as { doc: { send: (c: unknown) => Promise<unknown> } }).doc;
    const send = doc.send.bind(doc);
    doc.send = async (c: unknown) => {
      const item = (c as { input?: { Item?: { sk?: string } } }).input?.Item;
      if (c instanceof PutCommand && item?.sk === 'SUMMARY') throw new Error('crash before the summary');
      return send(c);
    };
    await expect(store.apply(g(4, { p2: 'ben', turn: 'p1', updated: 4 }))).rejects.toThrow(/crash/);
    doc.send = send;
    // The stream delivers the record again: the same items, once each, and the summary.
    expect(await store.apply(g(4, { p2: 'ben', turn: 'p1', updated: 4 }))).toBe('applied');
    expect((await store.getSummary('g9'))!.version).toBe(4);
    const pages = async (pk: string) =>
      (
        await documentClient(t.client).send(
          new QueryCommand({ TableName: t.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true }),
        )
      ).Items ?? [];
    for (const pk of ['INBOX#ann', 'INBOX#ben']) {
      const items = await pages(pk);
      expect(items.map((i) => `${String(i['sk']).split('#')[0]}@v${String(i['version'])}`)).toEqual(['ACTIVE@v4']);
    }
    expect(await pages('LOBBY')).toEqual([]);
    // An older record arriving after writes nothing.
    calls.length = 0;
    expect(await store.apply(g(3, { p2: 'ben', turn: 'p2', updated: 3 }))).toBe('stale');
    expect(calls.map((c) => c.name)).toEqual(['GetItemCommand']);
  });

  it('a write cut short before its SUMMARY, then applied with the next change at once, leaves no entry behind where the cut write put it', async () => {
    const t = await freshTable('pages-cut');
    const store = new ReadModelStore(t.client, t.tableName);
    const g = (version: number, o: Parameters<typeof summary>[1]) => ({ ...summary(version, o), gameId: 'g8' });
    await store.apply(g(1, { p2: null, status: 'open', updated: 1 }));
    // Version 2 (the free seat reserved for dee) stops before its SUMMARY: dee's entry is written.
    const doc = (store as unknown as { doc: { send: (c: unknown) => Promise<unknown> } }).doc;
    const send = doc.send.bind(doc);
    doc.send = async (c: unknown) => {
      if (c instanceof PutCommand && (c as PutCommand).input.Item?.['sk'] === 'SUMMARY') throw new Error('crash before the summary');
      return send(c);
    };
    const reserved = g(2, { p2: 'dee', joined2: false, status: 'open', updated: 2 });
    await expect(store.apply(reserved)).rejects.toThrow(/crash/);
    doc.send = send;
    expect(await partition('INBOX#dee', t.tableName, t.client)).toHaveLength(1);
    // The retry comes with the game's next change in the same batch (2 and 3 folded into one write): the reservation is withdrawn.
    expect(await store.apply(g(3, { p2: null, status: 'open', updated: 3 }), [reserved])).toBe('applied');
    expect(await partition('INBOX#dee', t.tableName, t.client)).toEqual([]);
    const items = await partition('INBOX#ann', t.tableName, t.client);
    expect(items).toHaveLength(1);
    expect(items[0]!['sk']).toBe((await store.getSummary('g8'))!.entries!.find((e) => e.player === 'ann')!.sk);
  });
});

describe('an entry whose content did not change', () => {
  it('is not written again: it keeps the stamp of the append that last changed it, and the rebuild gives the same', async () => {
    const t = await freshTable('pages-unchanged');
    const writes: string[] = [];
    t.client.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Key?: { pk?: { S?: string } }; Item?: { pk?: { S?: string } } };
        if (context.commandName !== 'GetItemCommand') writes.push(`${context.commandName} ${input.Key?.pk?.S ?? input.Item?.pk?.S}`);
        return next(args);
      },
      { step: 'serialize', name: 'projectorWrites', priority: 'low' },
    );
    const store = new ReadModelStore(t.client, t.tableName);
    const g = (version: number, o: Parameters<typeof summary>[1]) => ({ ...summary(version, o), gameId: 'g7' });
    const history = [g(1, { p2: null, status: 'open', updated: 1 }), g(2, { p2: 'ben', turn: 'p1', updated: 2 })];
    for (const s of history) await store.apply(s);
    const entriesAt2 = async () => [...(await partition('INBOX#ann', t.tableName, t.client)), ...(await partition('INBOX#ben', t.tableName, t.client))];
    const before = await entriesAt2();
    expect(before.map((i) => i['version'])).toEqual([2, 2]);

    // Ann still to move, nothing else changed but the version, hash and time: nothing is written,
    // not even the SUMMARY, which keeps the version of the last change a reader sees.
    for (const v of [3, 4, 5]) {
      history.push(g(v, { p2: 'ben', turn: 'p1', updated: v }));
      writes.length = 0;
      expect(await store.apply(history.at(-1)!)).toBe('applied');
      expect(writes).toEqual([]);
    }
    expect(await entriesAt2()).toEqual(before);
    expect((await store.getSummary('g7'))!.version).toBe(2);
    // A record of those appends seen again is applied as a no-op as well; one from before the SUMMARY is stale.
    writes.length = 0;
    expect(await store.apply(history[3]!)).toBe('applied');
    expect(await store.apply(history[0]!)).toBe('stale');
    expect(writes).toEqual([]);

    // The turn passes: both entries change, and carry this append's stamp.
    history.push(g(6, { p2: 'ben', turn: 'p2', updated: 6 }));
    writes.length = 0;
    await store.apply(history.at(-1)!);
    expect(writes.filter((w) => w.startsWith('PutItemCommand INBOX#')).sort()).toEqual(['PutItemCommand INBOX#ann', 'PutItemCommand INBOX#ben']);
    const after = await entriesAt2();
    expect(after.map((i) => [i['version'], i['hash'], i['updatedAt']])).toEqual([
      [6, 'h6', T(6)],
      [6, 'h6', T(6)],
    ]);
    // The rebuild's fold of the same summaries gives the same items (stamps included).
    const rebuilt = projectSequence(history)!;
    expect([...rebuilt.inbox].sort((a, b) => a.player.localeCompare(b.player))).toEqual(after);
    expect(rebuilt.summary.entries).toEqual((await store.getSummary('g7'))!.entries);
    expect(rebuilt.summary.version).toBe(6);
  });
});

describe('a table written before one item per entry', () => {
  it("loses a game's GAME# items and old twins at its next change, and the rebuild sweeps those of games that did not change", async () => {
    const t = await freshTable('pages-legacy');
    const doc = documentClient(t.client);
    const store = new ReadModelStore(t.client, t.tableName);
    // The old layout: a SUMMARY without entries; per entry a GAME# item and its PAGE# twin.
    const writeOld = async (s: GameSummary) => {
      const p = projectGame(undefined, s);
      const { entries: _entries, ...oldSummary } = p.summary;
      for (const i of [...p.inbox, ...(p.lobby ? [p.lobby] : [])]) {
        await doc.send(new PutCommand({ TableName: t.tableName, Item: { ...i, sk: `GAME#${s.gameId}` } }));
        const twin = i.type === 'inbox' ? inboxPageSk(i) : i.sk;
        await doc.send(new PutCommand({ TableName: t.tableName, Item: { ...i, sk: twin, type: `${i.type}-page` } }));
      }
      await doc.send(new PutCommand({ TableName: t.tableName, Item: oldSummary }));
    };
    const moving = { ...summary(4, { p2: 'ben', turn: 'p1', updated: 4 }), gameId: 'old-moving' };
    await writeOld(moving);
    await writeOld({ ...summary(3, { p2: null, status: 'open', updated: 3 }), gameId: 'old-open' });
    const keys = async (pk: string) => (await partition(pk, t.tableName, t.client)).map((i) => `${String(i['sk']).split('#')[0]} ${i['gameId']}`).sort();
    expect(await keys('INBOX#ann')).toEqual(['GAME old-moving', 'GAME old-open', 'PAGE old-moving', 'PAGE old-open']);

    // The listing reads the PAGE# items, as it did.
    expect((await store.inbox('ann')).map((i) => i.gameId).sort()).toEqual(['old-moving', 'old-open']);
    expect(await store.apply({ ...moving, version: 5, pending: [{ seat: 'p2', kind: 'move', prompt: 'Roll', player: 'ben' }], updatedAt: T(5) })).toBe(
      'applied',
    );
    expect(await keys('INBOX#ann')).toEqual(['ACTIVE old-moving', 'GAME old-open', 'PAGE old-open']);
    expect(await keys('INBOX#ben')).toEqual(['ACTIVE old-moving']);

    const report = await rebuildReadModels({ client: t.client, sourceTable: t.tableName, engines });
    // No events in this table: both games' read models are strays to the rebuild, swept whole.
    expect(report.games).toBe(0);
    for (const pk of ['INBOX#ann', 'INBOX#ben', 'LOBBY', 'SUMMARY#old-moving', 'SUMMARY#old-open']) expect(await keys(pk)).toEqual([]);
  });

  it('the rebuild of a game whose read models are in the old layout leaves one item per entry', async () => {
    const t = await freshTable('pages-legacy-rebuild');
    const svc = service(t.client, t.tableName);
    const doc = documentClient(t.client);
    const gameId = (await svc.create('amy', { engine: 'dice-race', options: {}, seat: 'p1', commandId: cid() })).gameId;
    await svc.join('bo', gameId, { commandId: cid() });
    const p = projectGame(undefined, (await svc.view(null, gameId)).summary);
    const { entries: _entries, ...oldSummary } = p.summary;
    for (const i of p.inbox) {
      await doc.send(new PutCommand({ TableName: t.tableName, Item: { ...i, sk: `GAME#${gameId}` } }));
      await doc.send(new PutCommand({ TableName: t.tableName, Item: { ...i, sk: inboxPageSk(i), type: 'inbox-page' } }));
    }
    await doc.send(new PutCommand({ TableName: t.tableName, Item: oldSummary }));
    await rebuildReadModels({ client: t.client, sourceTable: t.tableName, engines });
    for (const pk of ['INBOX#amy', 'INBOX#bo']) {
      const items = await partition(pk, t.tableName, t.client);
      expect(items.map((i) => [String(i['sk']).split('#')[0], i['type']])).toEqual([['ACTIVE', 'inbox']]);
    }
  });
});

describe('a table written before running games kept their entries at ACTIVE#', () => {
  it("lists a running game's entry at its listing key once, and moves it to ACTIVE# at the game's next change", async () => {
    const t = await freshTable('pages-before-active');
    const doc = documentClient(t.client);
    const store = new ReadModelStore(t.client, t.tableName);
    // As the projector wrote it before: each entry at its listing key, and the SUMMARY saying so.
    const s = { ...summary(4, { p2: 'ben', turn: 'p1', updated: 4 }), gameId: 'was-placed' };
    const p = projectGame(undefined, s);
    const placed = p.inbox.map((i) => ({ ...i, sk: inboxPageSk(i) }));
    for (const i of placed) await doc.send(new PutCommand({ TableName: t.tableName, Item: i }));
    const entries = p.summary.entries!.map((e) => ({ ...e, sk: placed.find((i) => i.player === e.player)!.sk }));
    await store.put({ ...p, summary: { ...p.summary, entries }, inbox: placed });
    const keys = async (pk: string) => (await partition(pk, t.tableName, t.client)).map((i) => String(i['sk']).split('#')[0]);
    expect(await keys('INBOX#ann')).toEqual(['PAGE']);
    expect((await store.inboxPage('ann', { limit: 10 })).items.map((i) => i.gameId)).toEqual(['was-placed']);
    expect((await store.inboxPage('ann', { limit: 10 })).runningYourMove).toBe(0);
    expect(await store.placedYourMoveCount('ann')).toBe(1);

    expect(await store.apply({ ...s, version: 5, pending: [{ seat: 'p2', kind: 'move', prompt: 'Roll', player: 'ben' }], updatedAt: T(5) })).toBe('applied');
    for (const pk of ['INBOX#ann', 'INBOX#ben']) expect(await keys(pk)).toEqual(['ACTIVE']);
    expect((await store.inboxPage('ann', { limit: 10 })).items.map((i) => i.gameId)).toEqual(['was-placed']);
    expect((await store.inboxPage('ben', { limit: 10 })).runningYourMove).toBe(1);
    expect(await store.placedYourMoveCount('ben')).toBe(0);
  });
});
