import { createHash } from 'node:crypto';
import * as z from 'zod';
import { AppError } from '../../ports.js';
import type { InboxModel } from '../../projections/project.js';
import { PAGE_PREFIX } from '../../projections/keys.js';
import { inboxPagePrefix, ReadModelStore } from '../../projections/read-model-store.js';
import { defineRoute, type RouteModule } from '../types.js';

const strip = <T extends { pk: string; sk: string; type: string }>({ pk: _pk, sk: _sk, type: _t, ...rest }: T) => rest;

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 100;

/** Paging parameters of both listings: a page size, and the nextCursor of the page before. */
const paging = {
  limit: z
    .string()
    .regex(/^\d{1,3}$/, 'a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(MAX_PAGE_LIMIT))
    .optional(),
  // Judged by decodeCursor, so any bad cursor (too long too) is http/invalid-cursor.
  cursor: z.string().optional(),
};

export const inboxQuery = z.strictObject({
  status: z.enum(['open', 'active', 'ended']).optional(),
  yourMove: z.enum(['true', 'false']).optional(),
  ...paging,
});
export const lobbyQuery = z.strictObject({ engine: z.string().max(64).optional(), ...paging });

/**
 * A cursor is base64url of {v, l: listing, o: owner, f: filters, k: the sort key to start
 * after}. It holds no partition key: the partition always comes from the signed-in player, so
 * no cursor, however made, can read another player's inbox. The owner (a hash of the player)
 * and the filters are there so a cursor used by someone else or with other filters is refused
 * (400) rather than silently starting at an unrelated place.
 */
const cursorShape = z.strictObject({
  v: z.literal(1),
  l: z.enum(['inbox', 'lobby']),
  o: z.string().max(64),
  f: z.string().max(200),
  k: z.string().min(1).max(1024),
});
type Cursor = z.infer<typeof cursorShape>;

const ownerTag = (player: string) => createHash('sha256').update(`inbox-cursor:${player}`).digest('base64url').slice(0, 16);

export function encodeCursor(c: Omit<Cursor, 'v'>): string {
  return Buffer.from(JSON.stringify({ v: 1, ...c }), 'utf8').toString('base64url');
}

const badCursor = (why: string) =>
  new AppError(400, 'http/invalid-cursor', `The cursor ${why}: start again without one and follow nextCursor from page to page`);

/** The sort key a cursor starts after, if it is well formed and was issued for this listing, player and filters. */
/** Cursors this server hands out are far shorter; anything longer is refused before decoding. */
const MAX_CURSOR_LENGTH = 1400;

export function decodeCursor(raw: string | undefined, want: { l: Cursor['l']; o: string; f: string; prefix: string }): string | undefined {
  if (raw === undefined) return undefined;
  if (raw.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(raw)) throw badCursor('is not one this server handed out');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badCursor('is not one this server handed out');
  }
  const c = cursorShape.safeParse(parsed);
  if (!c.success || !c.data.k.startsWith(want.prefix) || c.data.l !== want.l) throw badCursor('is not one this server handed out');
  if (c.data.o !== want.o) throw badCursor('belongs to another player');
  if (c.data.f !== want.f) throw badCursor('was made for other filters');
  return c.data.k;
}

/** Your move first (longest waiting first), then the rest, most recently changed first. */
export function inboxOrder(a: InboxModel, b: InboxModel): number {
  if (a.yourMove !== b.yourMove) return a.yourMove ? -1 : 1;
  if (a.yourMove) return a.since < b.since ? -1 : a.since > b.since ? 1 : 0;
  return a.updatedAt > b.updatedAt ? -1 : a.updatedAt < b.updatedAt ? 1 : 0;
}

/**
 * Read models built by the projector from the table's stream: the caller's games with
 * "your move" flags, and the lobby of open games. Eventually consistent with commands
 * (the stream usually lags by well under a second). Both are paged: `limit` (1-100, default
 * 50) items in list order and a `nextCursor` (null on the last page) to pass as `cursor`.
 * A game that moves while a client pages may show up on two pages or on none of the rest.
 */
export const inboxRoutes: RouteModule = ({ dynamo, clock }) => {
  const models = new ReadModelStore(dynamo.client, dynamo.tableName);
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/me/games',
      summary: 'Your games, your move first, in pages',
      responses: (r) => ({ 200: r.inboxBody }),
      auth: 'required',
      query: inboxQuery,
      async handle({ player, query }) {
        const yourMove = query.yourMove === undefined ? undefined : query.yourMove === 'true';
        const want = { l: 'inbox' as const, o: ownerTag(player), f: `${query.status ?? ''}|${query.yourMove ?? ''}` };
        const after = decodeCursor(query.cursor, { ...want, prefix: inboxPagePrefix(yourMove) });
        const page = await models.inboxPage(player, { limit: query.limit ?? DEFAULT_PAGE_LIMIT, after, yourMove, status: query.status });
        const games = page.items;
        // "Your move" games come first, so a first page that reaches past them, or is the last
        // page, has counted them all; otherwise they are the running games' (all read for the
        // page) and those a table written before keeps at PAGE#0# (a COUNT Query).
        const counted = after === undefined && (page.next === undefined || games.some((g) => !g.yourMove));
        const yourMoveCount =
          yourMove === false
            ? 0
            : counted
              ? games.filter((g) => g.yourMove).length
              : page.runningYourMove + (await models.placedYourMoveCount(player, query.status));
        const nextCursor = page.next === undefined ? null : encodeCursor({ ...want, k: page.next });
        // Time left on each deadline, at the server's time (the read model holds the deadline only).
        const now = Date.parse(clock.now());
        const left = <T extends { deadline?: string }>(a: T) => (a.deadline === undefined ? a : { ...a, leftMs: Math.max(0, Date.parse(a.deadline) - now) });
        const withLeft = games.map(strip).map((g) => ({ ...g, whoseMove: g.whoseMove.map(left), ...(g.clocks ? { clocks: g.clocks.map(left) } : {}) }));
        return { status: 200, body: { player, yourMoveCount, games: withLeft, nextCursor } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/lobby',
      summary: 'Open games with free seats, in pages',
      responses: (r) => ({ 200: r.lobbyBody }),
      auth: 'required',
      query: lobbyQuery,
      async handle({ query }) {
        const want = { l: 'lobby' as const, o: '', f: query.engine ?? '' };
        const after = decodeCursor(query.cursor, { ...want, prefix: PAGE_PREFIX });
        const page = await models.lobbyPage({ limit: query.limit ?? DEFAULT_PAGE_LIMIT, after, engine: query.engine });
        const nextCursor = page.next === undefined ? null : encodeCursor({ ...want, k: page.next });
        return { status: 200, body: { games: page.items.map(strip), nextCursor } };
      },
    }),
  ];
};
