// Finding and managing games: the engines a server plays, the lobby and your games, creating and
// joining, leaving (cancel, resign, claim on time), and a local server's clock.
import { randomBytes } from 'node:crypto';
import type { EngineDescription } from '../../../domain/kernel/index.js';
import { ApiError, newCommandId } from '../client.js';
import { formatEngine, formatInbox, formatLobby, type CommandReply } from '../format.js';
import { arg, client, gamePath, int, loginFor, out, parseJson, printResult, UsageError, type Commands, type Ctx, type Flags } from './context.js';

/**
 * Every page of a paged listing (GET /v1/me/games, /v1/lobby): the server sends a bounded
 * page and a nextCursor, and `games` and `lobby` follow it to show everything. A server
 * without paging sends no nextCursor: its one page is the whole list.
 */
async function allPages(ctx: Ctx, path: string): Promise<unknown> {
  const api = client(ctx);
  const paged = (v: unknown): v is { games: unknown[]; nextCursor?: unknown } =>
    typeof v === 'object' && v !== null && Array.isArray((v as { games?: unknown }).games);
  const first = await api.request<unknown>('GET', path);
  if (!paged(first)) return first;
  const games = [...first.games];
  let next = first.nextCursor;
  for (let pages = 1; typeof next === 'string' && next !== '' && pages < 10_000; pages++) {
    const page = await api.request<unknown>('GET', `${path}?limit=100&cursor=${encodeURIComponent(next)}`);
    if (!paged(page)) break;
    games.push(...page.games);
    next = page.nextCursor;
  }
  return { ...first, games, nextCursor: null };
}

/** --time per-move:3 or bank:30+3 (days, fractions allowed); the server checks the numbers. */
function timeControlOf(v: string): unknown {
  const perMove = /^per-move:(\d+(?:\.\d+)?)$/.exec(v);
  if (perMove) return { kind: 'per-move', days: Number(perMove[1]) };
  const bank = /^bank:(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/.exec(v);
  if (bank) return { kind: 'bank', days: Number(bank[1]), incrementDays: Number(bank[2]) };
  throw new UsageError(`--time is per-move:DAYS or bank:DAYS+DAYS (e.g. per-move:3, bank:30+3), not ${v}`);
}

/** A share of the time limit: a number above 0 and at most 1. */
function share(v: string): number {
  const n = Number(v);
  if (!(n > 0 && n <= 1)) throw new UsageError(`--window-share is a number above 0 and at most 1 (a quarter is 0.25), not ${v}`);
  return n;
}

/**
 * Each seat's entropy is mixed into every die of the game, so a player who adds their own
 * randomness need not trust the server's seed alone. The client adds some unless told.
 */
const entropyOf = (flags: Flags): string => flags.entropy ?? randomBytes(16).toString('hex');

export const gameCommands: Commands = {
  async engines(ctx) {
    const r = await client(ctx).request<{ engines: EngineDescription[] }>('GET', '/v1/engines');
    out(ctx.flags.json ? JSON.stringify(r, null, 2) : r.engines.map(formatEngine).join('\n\n'));
  },

  async lobby(ctx) {
    try {
      const r = await allPages(ctx, '/v1/lobby');
      out(ctx.flags.json ? JSON.stringify(r, null, 2) : formatLobby(r));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && e.code === 'http/not-found') throw new UsageError('this server has no lobby (GET /v1/lobby)');
      throw e;
    }
  },

  async games(ctx) {
    try {
      const r = await allPages(ctx, '/v1/me/games');
      out(ctx.flags.json ? JSON.stringify(r, null, 2) : formatInbox(r, loginFor(ctx)!.player));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && e.code === 'http/not-found') {
        throw new UsageError(`this server does not list games yet (no GET /v1/me/games); use  npm run cli -- show <gameId>`);
      }
      throw e;
    }
  },

  async create(ctx) {
    const engine = arg(ctx, 0, 'engine');
    const reserve: Record<string, string> = {};
    for (const r of ctx.flags.reserve ?? []) {
      const m = /^([^=]+)=(.+)$/.exec(r);
      if (!m) throw new UsageError(`--reserve takes seat=player, not ${r}`);
      reserve[m[1]!] = m[2]!;
    }
    const body = {
      engine,
      commandId: newCommandId(),
      ...(ctx.flags.options ? { options: parseJson(ctx.flags.options, '--options') } : {}),
      ...(Object.keys(reserve).length ? { reserve } : {}),
      ...(ctx.flags.seat ? { seat: ctx.flags.seat, entropy: entropyOf(ctx.flags) } : {}),
      ...(ctx.flags['time-limit'] !== undefined ? { timeLimitHours: int(ctx.flags['time-limit'], '--time-limit') } : {}),
      ...(ctx.flags['window-share'] !== undefined ? { windowShare: share(ctx.flags['window-share']) } : {}),
      ...(ctx.flags.time !== undefined ? { timeControl: timeControlOf(ctx.flags.time) } : {}),
      ...(ctx.flags['weekends-off'] ? { weekendsOff: true } : {}),
      ...(ctx.flags.rated ? { rated: true } : {}),
    };
    const r = await client(ctx).request<CommandReply>('POST', '/v1/games', body);
    printResult(r, 'Created');
    out(`\nGame id: ${r.gameId}\nOthers join with:  npm run cli -- join ${r.gameId}\nSee it with:       npm run cli -- show ${r.gameId}`);
  },

  async join(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const body = { commandId: newCommandId(), entropy: entropyOf(ctx.flags), ...(ctx.flags.seat ? { seat: ctx.flags.seat } : {}) };
    printResult(await client(ctx).request<CommandReply>('POST', gamePath(gameId, '/join'), body), 'Joined');
  },

  async cancel(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    printResult(await client(ctx).request<CommandReply>('POST', gamePath(gameId, '/cancel'), { commandId: newCommandId() }), 'Cancelled');
  },

  async resign(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const body = { commandId: newCommandId(), ...(ctx.flags.seat ? { seat: ctx.flags.seat } : {}) };
    printResult(await client(ctx).request<CommandReply>('POST', gamePath(gameId, '/resign'), body), 'Resigned');
  },

  async claim(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const body = { commandId: newCommandId(), ...(ctx.flags.seat ? { seat: ctx.flags.seat } : {}) };
    printResult(await client(ctx).request<CommandReply>('POST', gamePath(gameId, '/claim-timeout'), body), 'Claimed');
  },

  async clock(ctx) {
    const m = /^\+?(\d+(?:\.\d+)?)([hd])$/.exec(arg(ctx, 0, '+N h or +N d'));
    if (!m) throw new UsageError('clock takes a step forward such as +48h or +7d');
    const advanceHours = Number(m[1]) * (m[2] === 'd' ? 24 : 1);
    const r = await client(ctx).request<{ now: string; changed: string[] }>('POST', '/local/clock', { advanceHours });
    out(`The server's clock now reads ${r.now}.${r.changed.length ? ` Deadlines passed in: ${r.changed.join(', ')}.` : ''}`);
  },
};
