import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../support/run-script.js';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { GameSummary } from '../../domain/kernel/index.js';
import { createRouter } from '../../functions/http/router.js';
import { encodeCursor, inboxOrder, inboxRoutes } from '../../functions/http/routes/inbox.js';
import type { ApiDeps } from '../../functions/http/types.js';
import type { InboxModel } from '../../functions/projections/project.js';
import { ReadModelStore } from '../../functions/projections/read-model-store.js';
import { localClient } from '../../functions/store/dynamodb-local.js';
import { freshTable } from '../support/dynamo.js';
import { apiEvent } from './support.js';

/**
 * Paging of the inbox and the lobby against DynamoDB Local: read models written by the
 * projector's own store (apply), listed through the router with a player named per request.
 */
let client: DynamoDBClient;
let tableName: string;
let models: ReadModelStore;
let queries = 0;
let router: ReturnType<typeof createRouter>;

const AT = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

/** A two-seat game summary: p1 is `a`, p2 is `b` (null: a free seat), `turn` is pending. */
function summary(
  gameId: string,
  o: { a: string; b: string | null; turn?: 'p1' | 'p2'; status?: GameSummary['status']; created: number; updated: number; engine?: string },
): GameSummary {
  const seats = [
    { id: 'p1', name: 'North', player: o.a, joined: true },
    { id: 'p2', name: 'South', player: o.b, joined: o.b !== null },
  ];
  const pending = o.turn ? [{ seat: o.turn, kind: 'move' as const, prompt: 'Roll', player: o.turn === 'p1' ? o.a : o.b }] : [];
  return {
    gameId,
    engine: o.engine ?? 'dice-race',
    title: 'Dice race',
    status: o.status ?? 'active',
    version: 2,
    hash: 'h',
    createdBy: o.a,
    createdAt: AT(o.created),
    updatedAt: AT(o.updated),
    seats,
    pending,
  };
}

async function inParallel<T>(xs: readonly T[], f: (x: T) => Promise<unknown>, width = 8): Promise<void> {
  for (let i = 0; i < xs.length; i += width) await Promise.all(xs.slice(i, i + width).map(f));
}

async function get(path: string, player: string, query: Record<string, string> = {}) {
  const r = await router(apiEvent('GET', path, { headers: { 'x-player': player }, query }));
  return { status: r.statusCode, body: JSON.parse(r.body ?? 'null') };
}

/** Follows nextCursor to the end; returns every page's body. */
async function allPages(path: string, player: string, query: Record<string, string> = {}) {
  const pages = [];
  let cursor: string | undefined;
  do {
    const r = await get(path, player, { ...query, ...(cursor ? { cursor } : {}) });
    expect(r.status).toBe(200);
    pages.push(r.body);
    cursor = r.body.nextCursor ?? undefined;
  } while (cursor && pages.length < 100);
  return pages;
}

const ALICE_GAMES = 120;
const LOBBY_GAMES = 25;
const aliceIds: string[] = [];

beforeAll(async () => {
  let endpoint: string;
  ({ client, tableName, endpoint } = await freshTable('paging'));
  models = new ReadModelStore(client, tableName);
  // The routes get their own client, so the test can count the Queries one request makes.
  const routeClient = localClient(endpoint);
  routeClient.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand') queries++;
      return next(args);
    },
    { step: 'initialize', name: 'countQueries' },
  );
  const deps = { dynamo: { client: routeClient, tableName }, clock: { now: () => AT(200) } } as unknown as ApiDeps;
  router = createRouter([inboxRoutes], deps, { authenticate: (e) => e.headers['x-player'] ?? 'nobody', logError: () => {} });

  // Alice: 120 games against 10 opponents. Every 4th waits for her (some with equal
  // since-times, so ties are ordered too), every 10th has ended, the rest wait for the other.
  const games: GameSummary[] = [];
  for (let n = 0; n < ALICE_GAMES; n++) {
    const id = `g${String((n * 37) % ALICE_GAMES).padStart(3, '0')}`; // ids not in time order
    aliceIds.push(id);
    const ended = n % 10 === 9;
    const mine = !ended && n % 4 === 0;
    games.push(
      summary(id, {
        a: 'alice',
        b: `opp${n % 10}`,
        ...(ended ? { status: 'ended' as const } : { turn: mine ? ('p1' as const) : ('p2' as const) }),
        created: n,
        updated: mine ? 200 + Math.floor(n / 8) : 300 + (n % 45),
      }),
    );
  }
  // Erin: 100 games, all over.
  for (let n = 0; n < 100; n++)
    games.push(summary(`e${String(n).padStart(3, '0')}`, { a: 'erin', b: `opp${n % 10}`, status: 'ended', created: n, updated: 400 + n }));
  // Bob: 3 games of his own, one with Alice.
  games.push(summary('b1', { a: 'bob', b: 'carol', turn: 'p1', created: 1, updated: 5 }));
  games.push(summary('b2', { a: 'bob', b: 'dave', turn: 'p2', created: 2, updated: 6 }));
  // The lobby: 25 open games with a free seat (some created at the same time), 5 of them for another engine.
  for (let n = 0; n < LOBBY_GAMES; n++)
    games.push(
      summary(`open${String(n).padStart(2, '0')}`, {
        a: `host${n % 7}`,
        b: null,
        status: 'open',
        created: 1000 + (n % 20),
        updated: 1000 + n,
        engine: n % 5 === 3 ? 'spearpoint-1943' : 'dice-race',
      }),
    );
  await inParallel(games, (s) => models.apply(s), 16);
}, 60_000);

describe('GET /v1/me/games, paged', () => {
  it('120 games come in pages of 50, 50 and 20, in the unpaged order, with no duplicates or gaps', async () => {
    const unpaged = (await models.inbox('alice')).sort(inboxOrder).map((g) => g.gameId);
    expect(unpaged.length).toBe(ALICE_GAMES);
    const pages = await allPages('/v1/me/games', 'alice');
    expect(pages.map((p) => p.games.length)).toEqual([50, 50, 20]);
    expect(pages.map((p) => p.nextCursor === null)).toEqual([false, false, true]);
    const listed = pages.flatMap((p) => p.games.map((g: InboxModel) => g.gameId));
    expect(listed).toEqual(unpaged);
    expect(new Set(listed).size).toBe(ALICE_GAMES);
    expect(new Set(listed)).toEqual(new Set(aliceIds));
    // "Your move" flags and count are kept, and the same on every page.
    const mine = pages.flatMap((p) => p.games).filter((g: InboxModel) => g.yourMove);
    expect(mine.length).toBe(30);
    expect(pages.map((p) => p.yourMoveCount)).toEqual([30, 30, 30]);
    expect(pages[0].games.slice(0, 30).every((g: InboxModel) => g.yourMove)).toBe(true);
    // The items are the read model without its keys.
    expect(pages[0].games[0]).not.toHaveProperty('pk');
    expect(pages[0].games[0]).not.toHaveProperty('sk');
    expect(pages[0].games[0]).not.toHaveProperty('type');
    expect(pages[0].player).toBe('alice');
  });

  it("the first page is two Queries at once: the running games' entries and a page of the ended ones", async () => {
    queries = 0;
    const r = await get('/v1/me/games', 'alice', { limit: '40' });
    expect(r.body.games.length).toBe(40);
    expect(queries).toBe(2);
    expect(r.body.yourMoveCount).toBe(30);
  });

  it('a page full of "your move" games still reports how many there are (one COUNT Query more, for a table written before ACTIVE#)', async () => {
    queries = 0;
    const r = await get('/v1/me/games', 'alice', { limit: '30' });
    expect(r.body.games.length).toBe(30);
    expect(r.body.games.every((g: InboxModel) => g.yourMove)).toBe(true);
    expect(r.body.yourMoveCount).toBe(30);
    expect(queries).toBe(3);
  });

  it('pages exactly filling the list end without an empty page', async () => {
    const pages = await allPages('/v1/me/games', 'alice', { limit: '60' });
    expect(pages.map((p) => p.games.length)).toEqual([60, 60]);
    expect(pages[1].nextCursor).toBeNull();
  });

  it('limit: 1 and 100 are accepted, the default is 50', async () => {
    expect((await get('/v1/me/games', 'alice', { limit: '1' })).body.games.length).toBe(1);
    expect((await get('/v1/me/games', 'alice', { limit: '100' })).body.games.length).toBe(100);
    expect((await get('/v1/me/games', 'alice')).body.games.length).toBe(50);
    const bob = await get('/v1/me/games', 'bob', { limit: '100' });
    expect(bob.body.games.map((g: InboxModel) => g.gameId)).toEqual(['b1', 'b2']);
    expect(bob.body.nextCursor).toBeNull();
  });

  it.each(['0', '101', '-1', '1.5', 'abc', '', '1e2', '0050'])('limit=%j is refused with 400', async (limit) => {
    const r = await get('/v1/me/games', 'alice', { limit });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('http/invalid-request');
    expect(r.body.message).toMatch(/limit/);
  });

  it('filters page too: yourMove=true, yourMove=false and status=ended', async () => {
    const unpaged = (await models.inbox('alice')).sort(inboxOrder);
    for (const [query, keep] of [
      [{ yourMove: 'true' }, (g: InboxModel) => g.yourMove],
      [{ yourMove: 'false' }, (g: InboxModel) => !g.yourMove],
      [{ status: 'ended' }, (g: InboxModel) => g.status === 'ended'],
      [{ status: 'active', yourMove: 'false' }, (g: InboxModel) => g.status === 'active' && !g.yourMove],
    ] as const) {
      const pages = await allPages('/v1/me/games', 'alice', { ...query, limit: '7' });
      const expected = unpaged.filter(keep).map((g) => g.gameId);
      expect(pages.flatMap((p) => p.games.map((g: InboxModel) => g.gameId))).toEqual(expected);
      expect(pages.every((p) => p.games.length <= 7)).toBe(true);
      expect(pages[0].yourMoveCount).toBe(query.yourMove === 'false' || query.status === 'ended' ? 0 : 30);
    }
  });

  it('a filter that matches nothing stops after a bounded number of Queries per request and hands back a cursor', async () => {
    queries = 0;
    // Erin's 100 games are over: all at PAGE#, read through 8 items a Query.
    const pages = await allPages('/v1/me/games', 'erin', { status: 'open', limit: '1' });
    expect(pages.flatMap((p) => p.games)).toEqual([]);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.at(-1).nextCursor).toBeNull();
    // At most 8 listing Queries per request, plus the running games' entries and the COUNT of "your move" games.
    expect(queries).toBeLessThanOrEqual(pages.length * 10);
  });
});

describe('cursors', () => {
  const firstCursor = async (player: string, query: Record<string, string> = {}) =>
    (await get('/v1/me/games', player, { limit: '2', ...query })).body.nextCursor as string;

  it.each([
    ['not base64url', 'abc$%'],
    ['base64url of no JSON', Buffer.from('hello').toString('base64url')],
    ['JSON of the wrong shape', Buffer.from(JSON.stringify({ v: 1, k: 'PAGE#1#x' })).toString('base64url')],
    ['a key outside the listing', encodeCursor({ l: 'inbox', o: 'x', f: '|', k: 'GAME#g001' })],
    ['too long', 'A'.repeat(2000)],
  ])('%s → 400 http/invalid-cursor', async (_what, cursor) => {
    const r = await get('/v1/me/games', 'alice', { cursor });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('http/invalid-cursor');
    expect(r.body.message).toMatch(/not one this server handed out/);
  });

  it("player A's cursor used by player B is refused, and never shows A's games", async () => {
    const cursor = await firstCursor('alice');
    const r = await get('/v1/me/games', 'bob', { cursor });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'http/invalid-cursor', message: expect.stringMatching(/another player/) });
  });

  it("a cursor forged with B's owner still reads only B's own partition", async () => {
    // Take Alice's position and rewrite the owner to Bob's (as a tamperer could): the page
    // comes from Bob's inbox, because the partition is always the signed-in player's.
    const bobs = JSON.parse(Buffer.from(await firstCursor('bob', { limit: '1' }), 'base64url').toString('utf8'));
    const alices = JSON.parse(Buffer.from(await firstCursor('alice'), 'base64url').toString('utf8'));
    const forged = encodeCursor({ l: 'inbox', o: bobs.o, f: bobs.f, k: alices.k });
    const r = await get('/v1/me/games', 'bob', { cursor: forged });
    expect(r.status).toBe(200);
    for (const g of r.body.games as InboxModel[]) expect(g.player).toBe('bob');
    expect(r.body.games.map((g: InboxModel) => g.gameId).filter((id: string) => aliceIds.includes(id))).toEqual([]);
  });

  it('a cursor used with other filters, or on the other listing, is refused', async () => {
    const cursor = await firstCursor('alice');
    expect((await get('/v1/me/games', 'alice', { cursor, status: 'active' })).body.code).toBe('http/invalid-cursor');
    expect((await get('/v1/me/games', 'alice', { cursor, yourMove: 'true' })).status).toBe(400);
    expect((await get('/v1/lobby', 'alice', { cursor })).status).toBe(400);
    const lobbyCursor = (await get('/v1/lobby', 'alice', { limit: '2' })).body.nextCursor;
    expect((await get('/v1/me/games', 'alice', { cursor: lobbyCursor })).status).toBe(400);
  });
});

describe('GET /v1/lobby, paged', () => {
  it('pages the open games newest first, as the unpaged list was sorted', async () => {
    const unpaged = (await models.lobby()).sort((a, b) => (a.createdAt > b.createdAt ? -1 : a.createdAt < b.createdAt ? 1 : 0)).map((g) => g.gameId);
    expect(unpaged.length).toBe(LOBBY_GAMES);
    const pages = await allPages('/v1/lobby', 'bob', { limit: '10' });
    expect(pages.map((p) => p.games.length)).toEqual([10, 10, 5]);
    expect(pages.flatMap((p) => p.games.map((g: { gameId: string }) => g.gameId))).toEqual(unpaged);
    expect(pages[0].games[0]).toMatchObject({ freeSeats: [{ id: 'p2', name: 'South' }] });
    expect(pages[0].games[0]).not.toHaveProperty('sk');
  });

  it('the engine filter pages too, the default page size holds them all, and bad limits are 400', async () => {
    const pages = await allPages('/v1/lobby', 'bob', { engine: 'spearpoint-1943', limit: '2' });
    expect(pages.map((p) => p.games.length)).toEqual([2, 2, 1]);
    const engines = pages.flatMap((p) => p.games.map((g: { engine: string }) => g.engine));
    expect(engines).toEqual(Array(5).fill('spearpoint-1943'));
    const all = await get('/v1/lobby', 'bob');
    expect(all.body.games.length).toBe(LOBBY_GAMES);
    expect(all.body.nextCursor).toBeNull();
    const bad = await get('/v1/lobby', 'bob', { limit: '500' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('http/invalid-request');
  });

  it('a game that fills leaves the lobby pages', async () => {
    const s = summary('open00', { a: 'host0', b: 'zed', turn: 'p1', created: 1000, updated: 2000 });
    expect(await models.apply({ ...s, version: 3 })).toBe('applied');
    const listed = (await allPages('/v1/lobby', 'bob', { limit: '100' })).flatMap((p) => p.games.map((g: { gameId: string }) => g.gameId));
    expect(listed.length).toBe(LOBBY_GAMES - 1);
    expect(listed).not.toContain('open00');
  });
});

describe('terminal client', () => {
  // The routes above behind a loopback HTTP server; the bearer token is the player's name.
  let server: Server;
  let url: string;
  let home: string;
  beforeAll(async () => {
    const cliRouter = createRouter([inboxRoutes], { dynamo: { client, tableName }, clock: { now: () => AT(200) } } as unknown as ApiDeps, {
      authenticate: (e) => (e.headers['authorization'] ?? '').replace(/^Bearer /, ''),
      logError: () => {},
    });
    server = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      void cliRouter(apiEvent(req.method ?? 'GET', u.pathname, { headers, query: Object.fromEntries(u.searchParams) })).then((r) => {
        res.writeHead(r.statusCode ?? 500, r.headers as Record<string, string>);
        res.end(r.body ?? '');
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const addr = server.address();
    url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    home = mkdtempSync(join(tmpdir(), 'fieldpost-paging-'));
  });
  afterAll(async () => {
    await new Promise((ok) => server?.close(ok));
    if (home) rmSync(home, { recursive: true, force: true });
  });

  const cli = (player: string, ...args: string[]) =>
    runScript('functions/cli/main.ts', args, { FIELDPOST_HOME: home, FIELDPOST_URL: url, FIELDPOST_TOKEN: player });

  it('`games` follows the cursors and prints every game once, in list order, with the "your move" count', async () => {
    const unpaged = (await models.inbox('alice')).sort(inboxOrder);
    const r = await cli('alice', 'games');
    expect(r.code).toBe(0);
    // One line per game (its details, opponent, what is asked and until when, on an indented second line).
    const lines = r.out
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('    '));
    expect(lines.length).toBe(ALICE_GAMES + 1);
    expect(lines.slice(0, ALICE_GAMES).map((l) => l.slice(2).split(/\s+/)[0])).toEqual(unpaged.map((g) => g.gameId));
    expect(lines.slice(0, ALICE_GAMES).filter((l) => l.startsWith('*')).length).toBe(30);
    expect(lines.at(-1)).toBe('30 games waiting for your move.');
  }, 30_000);

  it('`lobby` follows the cursors too', async () => {
    const unpaged = (await models.lobby()).sort((a, b) => (a.createdAt > b.createdAt ? -1 : a.createdAt < b.createdAt ? 1 : 0)).map((g) => g.gameId);
    const r = await cli('bob', 'lobby');
    expect(r.code).toBe(0);
    expect(
      r.out
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(unpaged);
  }, 30_000);
});
