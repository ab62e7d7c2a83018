import { gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createRegistry, foldAll, seededRng, verifyLog, type GameState } from '../../domain/kernel/index.js';
import { BUILT_IN_CATALOG, spearpoint } from '../../domain/spearpoint/index.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import type { GameService } from '../../functions/app/game-service.js';
import { DynamoEventStore, gamePk } from '../../functions/store/dynamo-event-store.js';
import { freshTable } from '../support/dynamo.js';

/**
 * The card catalog stored once per game (issue 16): a snapshot leaves the engine's staticState
 * values and large options out, each kept once in the game's partition as an immutable PART#
 * item that the load's one Query returns beside the HEAD# items (the append layout: the snapshot
 * rides in a command's item). Snapshots written before this (the catalog inline, in SNAP) keep loading.
 */
const engines = createRegistry([spearpoint]);
const EVERY = 6;
let client: DynamoDBClient;
let doc: DynamoDBDocumentClient;
let tableName: string;
let service: GameService;
let store: DynamoEventStore;
/** Sort keys of every item written by a TransactWriteItems, in order. */
const transacted: string[] = [];

beforeAll(async () => {
  ({ client, tableName } = await freshTable('parts'));
  doc = DynamoDBDocumentClient.from(client);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand') {
        for (const t of (args.input as { TransactItems: { Put?: { Item: Record<string, { S?: string }> } }[] }).TransactItems)
          if (t.Put) transacted.push(t.Put.Item['sk']?.S ?? '');
      }
      return next(args);
    },
    { step: 'serialize', name: 'partsProbe', override: true },
  );
  ({ service, store } = createDynamoGameService({ client, tableName, engines, snapshotEvery: EVERY, snapshotItems: 2 }));
});

const players: Record<string, string> = { us: 'alice', de: 'bob' };

/** Creates a Spearpoint game and plays seeded random legal commands until it has at least `events` events. */
async function playTo(s: GameService, events: number, options: Record<string, unknown> = {}, tag = 'g'): Promise<string> {
  const { gameId } = await s.create('alice', { engine: 'spearpoint-1943', seat: 'us', options, commandId: `${tag}-create` });
  await s.join('bob', gameId, { commandId: `${tag}-join` });
  await playOn(s, gameId, events, tag);
  return gameId;
}

/** Plays seeded random legal commands, each by a seat the game waits for, until the game has `events` events or ends. */
async function playOn(s: GameService, gameId: string, events: number, tag: string): Promise<void> {
  const pick = seededRng({ seed: 'cd'.repeat(32), gameId: tag, entropy: [], counter: 0 });
  for (let n = 0; ; n++) {
    const { summary } = await s.view('alice', gameId);
    if (summary.version >= events || summary.status !== 'active') return;
    const seat = summary.pending[pick.int(summary.pending.length)]!.seat;
    const v = await s.view(players[seat]!, gameId);
    const command = v.legalCommands[pick.int(v.legalCommands.length)];
    await s.submit(players[seat]!, gameId, { command, commandId: `${tag}-${n}` });
  }
}

async function items(gameId: string): Promise<Record<string, unknown>[]> {
  const out = await doc.send(
    new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': gamePk(gameId) } }),
  );
  return out.Items ?? [];
}

const snapState = (item: Record<string, unknown>) => JSON.parse(gunzipSync(item['snap'] as Uint8Array).toString('utf8')) as GameState<Record<string, unknown>>;
/** The HEAD# items that carry a snapshot, oldest first. */
const snapshotItems = (all: Record<string, unknown>[]) => all.filter((i) => String(i['sk']).startsWith('HEAD#') && i['snap'] !== undefined);

/** The game folded from every stored event, as a server that never saw a snapshot would. */
async function folded(gameId: string): Promise<GameState> {
  const fresh = new DynamoEventStore({ client, tableName, snapshotInterval: EVERY });
  const stream = (await fresh.load(gameId))!;
  return foldAll(spearpoint, await fresh.readEvents(gameId, 0, stream.version))!;
}

describe('the catalog stored once per game', () => {
  it('snapshots leave the catalog out: one PART item per game, written once, and a load is still one Query', async () => {
    transacted.length = 0;
    const gameId = await playTo(service, 3 * EVERY + 1);
    const all = await items(gameId);
    const parts = all.filter((i) => String(i['sk']).startsWith('PART#'));
    const snap = snapshotItems(all).at(-1)!;
    expect(store.stats.snapshotsWritten).toBeGreaterThanOrEqual(2);
    // The catalog and the card list (over 1 KB) are parts; the situation (smaller) stays in the snapshot.
    expect(Object.keys(snap['parts'] as object).sort()).toEqual(['game.cards', 'game.catalog']);
    expect(parts).toHaveLength(2);
    const state = snapState(snap);
    expect(state.game['catalog']).toBeNull();
    expect(state.game['situation']).not.toBeNull();
    expect(gunzipSync(snap['snap'] as Uint8Array).length).toBeLessThan(8 * 1024);
    // Each part went out with the first snapshot only (in its transaction), however many snapshots followed.
    for (const p of parts) expect(transacted.filter((sk) => sk === p['sk'])).toHaveLength(1);
    expect(transacted.filter((sk) => sk.startsWith('HEAD#')).length).toBe(2); // the create (with SECRET) and the first snapshot
    expect(snapshotItems(all).length).toBe(store.stats.snapshotsWritten);

    // A server that never saw the game loads it in one Query, to the state the events fold to.
    const fresh = new DynamoEventStore({ client, tableName, snapshotInterval: EVERY });
    const loaded = (await fresh.load(gameId))!;
    expect(fresh.stats.loadQueries).toBe(1);
    expect(loaded.snapshot!.state).toEqual(foldAll(spearpoint, await fresh.readEvents(gameId, 0, loaded.snapshot!.version)));
    const game = loaded.snapshot!.state.game as { catalog: unknown };
    expect(game.catalog).toEqual(BUILT_IN_CATALOG);
    // Parsed once per server: a second load hands back the same catalog object.
    expect(((await fresh.load(gameId))!.snapshot!.state.game as { catalog: unknown }).catalog).toBe(game.catalog);
  });

  it("a club's catalog in the options is kept once per game too: options and catalog are parts, never in a snapshot", async () => {
    const club = structuredClone(BUILT_IN_CATALOG) as unknown as { units: { title: string }[] };
    club.units[0]!.title = 'Club Rifle Squad';
    const gameId = await playTo(service, 3 * EVERY, { catalog: club }, 'club');
    const all = await items(gameId);
    const snap = snapshotItems(all).at(-1)!;
    expect(Object.keys(snap['parts'] as object).sort()).toEqual(['game.cards', 'game.catalog', 'meta.options']);
    expect(all.filter((i) => String(i['sk']).startsWith('PART#'))).toHaveLength(3);
    const raw = gunzipSync(snap['snap'] as Uint8Array).toString('utf8');
    expect(raw).not.toContain('Club Rifle Squad');
    const fresh = new DynamoEventStore({ client, tableName, snapshotInterval: EVERY });
    const loaded = (await fresh.load(gameId))!;
    expect((loaded.snapshot!.state.meta.options as { catalog: { units: { title: string }[] } }).catalog.units[0]!.title).toBe('Club Rifle Squad');
    expect(loaded.snapshot!.state).toEqual(await folded(gameId));
  });

  it('a game whose snapshot holds the catalog inline (written before parts) keeps loading, playing and verifying', async () => {
    // Stored in the tip layout, whose snapshots are SNAP items.
    const tip = createDynamoGameService({ client, tableName, engines, snapshotEvery: EVERY, newGames: 'tip' });
    const gameId = await playTo(tip.service, 2 * EVERY, {}, 'old');
    // Rewrite the game as the store stored it before: the whole state in SNAP, no parts.
    const snap = (await doc.send(new GetCommand({ TableName: tableName, Key: { pk: gamePk(gameId), sk: 'SNAP' } }))).Item!;
    const full = await folded(gameId);
    const upTo = foldAll(spearpoint, await store.readEvents(gameId, 0, snap['version'] as number))!;
    const { parts: _parts, ...rest } = snap;
    void _parts;
    await doc.send(new PutCommand({ TableName: tableName, Item: { ...rest, state: new Uint8Array(gzipSync(JSON.stringify(upTo))) } }));
    for (const p of (await items(gameId)).filter((i) => String(i['sk']).startsWith('PART#')))
      await doc.send(new DeleteCommand({ TableName: tableName, Key: { pk: gamePk(gameId), sk: p['sk'] } }));

    const older = createDynamoGameService({ client, tableName, engines, snapshotEvery: EVERY });
    const loaded = (await older.store.load(gameId))!;
    expect(loaded.snapshot!.state).toEqual(upTo);
    expect(full.meta.version).toBe(loaded.version);
    // It plays on; its next snapshot is written the new way, with its parts.
    await playOn(older.service, gameId, loaded.version + EVERY + 1, 'old2');
    const after = await items(gameId);
    expect(after.find((i) => i['sk'] === 'SNAP')!['parts']).toBeDefined();
    expect(after.filter((i) => String(i['sk']).startsWith('PART#'))).toHaveLength(2);
    // The log, resigned to its end, verifies: seed, every draw, every hash.
    await older.service.resign('alice', gameId, { commandId: 'old-resign' });
    const log = await older.service.exportLog('alice', gameId);
    expect(verifyLog(log, (id) => engines.get(id))).toMatchObject({ ok: true, problems: [] });
  });
});
