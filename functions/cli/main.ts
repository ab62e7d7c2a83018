import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { canonicalJson, type EngineDescription, type EventEnvelope } from '../../domain/kernel/index.js';
import { ApiClient, ApiError, newCommandId } from './client.js';
import {
  cliHome,
  clearListing,
  loadConfig,
  loadDraft,
  loadListing,
  playerFromToken,
  resolveUrl,
  saveConfig,
  saveDraft,
  saveListing,
  type CliConfig,
  type ServerLogin,
} from './config.js';
import { auditFile } from './audit.js';
import { maskDashWords } from './args.js';
import { CLUB_HELP, ClubUsageError, clubCommand, playerCommand, ratingsCommand, tournamentCommand } from './tournament.js';
import { NOTICE_KINDS } from '../notify/decide.js';
import { REMINDER_LEVELS } from '../../domain/kernel/index.js';
import {
  explainCommand,
  formatEngine,
  formatStandingOrders,
  staleChoice,
  formatBoard,
  formatEvent,
  formatGame,
  formatInbox,
  formatLegal,
  formatLobby,
  formatSettings,
  glossary,
  type CommandReply,
  type GameViewBody,
} from './format.js';

const HELP = `Fieldpost terminal client.  npm run cli -- <command> [args] [--url URL]

  login <player>                      get a local token (npm start serves /local/token) and remember it
  whoami                              who you are signed in as, and where
  engines                             the game systems this server plays: seats, sides,
                                      scenarios, options and the standing orders they offer
  create <engine> [--options JSON] [--seat S] [--reserve seat=player ...] [--entropy X]
         [--time per-move:DAYS | bank:DAYS+DAYS] [--weekends-off] [--window-share F] [--rated]
                                      (--seat: you take that seat at once; --rated: a two-player
                                      game that counts for both players' ratings; --time: days per move,
                                      or a bank plus an increment a move, e.g. bank:30+3; a seat
                                      whose time runs out loses; --weekends-off: clocks rest on
                                      Saturdays and Sundays; --window-share: the share of a move's
                                      time a question on another's turn stays open)
  join <gameId> [--seat S] [--entropy X]   (entropy: your randomness mixed into every die;
                                      random by default)
  games                               your games, "YOUR MOVE" first: whom you play, what is asked, until when
  lobby                               open games with free seats
  show <gameId> [--seat S] [--json]   the board as you see it, what changed since your last move,
                                      the last turn, who must act, your legal commands (--json:
                                      the raw view)
  board <gameId> [--seat S]           just the board, as text
  legal <gameId> [--seat S]           your legal commands, numbered
  play <gameId> <n> [--seat S]        send the n-th command of the list you last saw (refused if
                                      the game has moved on and the n-th command changed); a step
                                      of a sealed order goes into your private draft instead
  draft <gameId> [--clear] [--seat S] the order you are drafting: kept on this computer, sent
                                      whole when you seal it, so the other side learns nothing
  do <gameId> '<command JSON>' [--seat S] [--expect VERSION]   (alias: send; with a draft on this
                                      computer, the seal carries it and other order commands are refused)
  events <gameId> [--after N] [--limit N] [--seat S]
  standing <gameId> [--set JSON | --clear] [--seat S]   your standing orders: answers the
                                      server gives for you when a question is put to you, e.g.
                                      --set '[{"topic":"intercept","rule":"never"}]'
  lapse <gameId> <windowId> [--seat S]   take the default answer of a question whose time ran out
  resign <gameId> [--seat S]
  cancel <gameId>                     withdraw a game you created that has not started
  claim <gameId> [--seat S]           win on time: the others let the game's time limit pass
  export <gameId> [file] [--limit N]  the full log of a finished game (stdout without file); a
                                      log too long for one response is read in pages of N events
  verify <file> [--engines MODULE]    audit an exported log
  settings                            your notification channels: email, webhooks, which notices are mailed
  settings email <address|none>       mail your notices there (a code is mailed to confirm it: verify-email)
  settings add-webhook <url> [--format json|discord|slack] [--secret S]
                                      post notices there (a JSON receiver gets a signing secret, shown once)
  settings remove-webhook <id>        stop posting to that webhook
  settings mail <${NOTICE_KINDS.join('|')}> on|off   which notices are mailed
  settings reminder <${REMINDER_LEVELS.join('|')}> on|off   which reminders are sent (half, 80% of your move time gone, a day left)
  settings digest <hour> [--tz Zone]  one mail a day at that hour (UTC unless --tz) listing your games on move, instead of each "your move"
  settings digest off                 back to one mail per move
  verify-email <code>                 confirm your notification email with the code mailed to it
  vacation [on [days] | off]          your yearly leave (30 days unless the server says otherwise):
                                      your clocks stop in every game until it ends or you are back
  clock +<N>h | +<N>d                 move a local server's clock forward (npm start only): deadlines
                                      that pass are run at once
${CLUB_HELP}

Server: --url, else $FIELDPOST_URL, else the last login (default http://127.0.0.1:3000).
Token: $FIELDPOST_TOKEN (e.g. a Cognito ID token for a deployed server), else the saved login.
Tokens live in $FIELDPOST_HOME or ~/.fieldpost. Commands are retried with the same commandId.`;

class UsageError extends Error {}

interface Ctx {
  readonly args: string[];
  readonly flags: Flags;
  readonly config: CliConfig;
  readonly url: string;
}

interface Flags {
  url?: string | undefined;
  /** settings digest: the time zone of the hour. */
  tz?: string | undefined;
  options?: string | undefined;
  seat?: string | undefined;
  reserve?: string[] | undefined;
  entropy?: string | undefined;
  after?: string | undefined;
  limit?: string | undefined;
  expect?: string | undefined;
  engines?: string[] | undefined;
  json?: boolean | undefined;
  clear?: boolean | undefined;
  'time-limit'?: string | undefined;
  'window-share'?: string | undefined;
  time?: string | undefined;
  'weekends-off'?: boolean | undefined;
  set?: string | undefined;
  format?: string | undefined;
  secret?: string | undefined;
  description?: string | undefined;
  code?: string | undefined;
  role?: string | undefined;
  club?: string | undefined;
  rounds?: string | undefined;
  cycles?: string | undefined;
  data?: string | undefined;
  unrated?: boolean | undefined;
  rated?: boolean | undefined;
  max?: string | undefined;
  starts?: string | undefined;
  status?: string | undefined;
  vacation?: string | undefined;
  reason?: string | undefined;
}

const out = (s: string) => process.stdout.write(s.endsWith('\n') ? s : s + '\n');

function arg(ctx: Ctx, i: number, name: string): string {
  const v = ctx.args[i];
  if (v === undefined || v === '') throw new UsageError(`missing <${name}>; see npm run cli -- help`);
  return v;
}

function client(ctx: Ctx, signedIn = true): ApiClient {
  const login = loginFor(ctx);
  if (signedIn && !login) throw new UsageError(`not signed in at ${ctx.url}: run  npm run cli -- login <player> --url ${ctx.url}`);
  return new ApiClient({ url: ctx.url, ...(login ? { token: login.token } : {}) });
}

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

/** A token in $FIELDPOST_TOKEN (e.g. a Cognito ID token for a deployed server) wins over a saved login. */
function loginFor(ctx: Ctx): ServerLogin | undefined {
  const token = process.env['FIELDPOST_TOKEN'];
  if (token) return { token, player: playerFromToken(token) ?? '(from FIELDPOST_TOKEN)' };
  return ctx.config.servers[ctx.url];
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${what} is not valid JSON: ${(e as Error).message}`);
  }
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

function int(v: string | undefined, what: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`${what} must be a whole number, not ${v}`);
  return Number(v);
}

/**
 * Each seat's entropy is mixed into every die of the game, so a player who adds their own
 * randomness need not trust the server's seed alone. The client adds some unless told.
 */
const entropyOf = (flags: Flags): string => flags.entropy ?? randomBytes(16).toString('hex');

const gamePath = (id: string, rest = '') => `/v1/games/${encodeURIComponent(id)}${rest}`;
const seatQuery = (seat?: string) => (seat ? `?seat=${encodeURIComponent(seat)}` : '');

function printResult(r: CommandReply, what: string): void {
  out(`${what}: game ${r.gameId} is at version ${r.version}${r.duplicate ? ' (already applied earlier: nothing new was written)' : ''}`);
  for (const e of r.events) out(`  ${formatEvent(e, r.seats)}`);
  // What now: a command can open a phase where its sender must act again at once.
  if (r.next) {
    out(`Next: ${r.next.text.split('\n').join('\n      ')}`);
    if (r.next.yours.length) out(`      See your choices with  npm run cli -- legal ${r.gameId}`);
  }
}

async function send(ctx: Ctx, gameId: string, command: unknown, expectedVersion?: number, draft?: readonly unknown[]): Promise<void> {
  const body = {
    commandId: newCommandId(),
    command,
    ...(ctx.flags.seat ? { seat: ctx.flags.seat } : {}),
    ...(expectedVersion !== undefined ? { expectedVersion } : {}),
    ...(draft !== undefined ? { draft } : {}),
  };
  printResult(await client(ctx).request<CommandReply>('POST', gamePath(gameId, '/commands'), body), 'Sent');
}

const preview = (ctx: Ctx, gameId: string, steps: readonly unknown[]) =>
  client(ctx).request<GameViewBody>('POST', gamePath(gameId, '/preview'), { steps, ...(ctx.flags.seat ? { seat: ctx.flags.seat } : {}) });

/** The caller's view and legal commands, with their private draft (if any) tried on it by the server. */
async function legalOf(ctx: Ctx, gameId: string): Promise<GameViewBody> {
  const draft = loadDraft(ctx.url, gameId, ctx.flags.seat);
  if (draft) {
    let why: string;
    try {
      const v = await preview(ctx, gameId, draft.steps);
      if (v.drafting?.sealChoices.length) return v;
      why = 'you have no open order';
    } catch (e) {
      // The game moved on (the order was sealed elsewhere, the phase ended).
      if (!(e instanceof ApiError) || (e.status !== 400 && e.status !== 422)) throw e;
      why = e.message;
    }
    saveDraft(ctx.url, gameId, ctx.flags.seat, undefined);
    if (draft.steps.length) out(`Your draft no longer fits this game (${why}), so it was dropped. Its steps were:\n  ${JSON.stringify(draft.steps)}`);
  }
  return client(ctx).request<GameViewBody>('GET', gamePath(gameId, seatQuery(ctx.flags.seat)));
}

/**
 * A log too long for one response, read through the event feed (everything is open once the
 * game has ended) into the same file the export route gives.
 */
async function exportInPages(
  ctx: Ctx,
  gameId: string,
): Promise<{ format: string; gameId: string; version: number; finalHash: string | null; events: EventEnvelope[] }> {
  const events: EventEnvelope[] = [];
  const limit = int(ctx.flags.limit, '--limit') ?? 1000;
  for (let after = 0; ;) {
    const page = await client(ctx).request<{ events: EventEnvelope[]; version: number; next?: number }>(
      'GET',
      gamePath(gameId, `/events?after=${after}&limit=${limit}`),
    );
    events.push(...page.events);
    if (page.next === undefined) break;
    after = page.next;
  }
  const last = events[events.length - 1];
  return { format: 'fieldpost-log/1', gameId, version: last?.seq ?? 0, finalHash: last?.hash ?? null, events };
}

/** Events `show` reads back to find your last move and the last whole turn: a few turns of Spearpoint. */
const RECENT_EVENTS = 400;

/** The last RECENT_EVENTS events of the game that you may see. */
async function recentEvents(ctx: Ctx, gameId: string, version: number): Promise<EventEnvelope[]> {
  const q = new URLSearchParams({ after: String(Math.max(0, version - RECENT_EVENTS)), limit: String(RECENT_EVENTS) });
  if (ctx.flags.seat) q.set('seat', ctx.flags.seat);
  return (await client(ctx).request<{ events: EventEnvelope[] }>('GET', gamePath(gameId, `/events?${q}`))).events;
}

const listingOf = (ctx: Ctx, gameId: string, v: GameViewBody) => ({
  url: ctx.url,
  gameId,
  seat: v.seat,
  version: v.summary.version,
  commands: v.legalCommands,
  draft: v.drafting?.steps.length ?? 0,
});

/**
 * Remembers the numbered list a player has just been shown, so `play <n>` can tell when it went
 * stale. After "Nothing to do" the old list is forgotten: a number typed from it means nothing.
 */
function remember(ctx: Ctx, gameId: string, v: GameViewBody): void {
  if (v.legalCommands.length) saveListing(listingOf(ctx, gameId, v));
  else clearListing();
}

/** `play <n>` numbers refer to the list the player last saw; see staleChoice. */
function staleListing(ctx: Ctx, gameId: string, v: GameViewBody, n: number): string | undefined {
  return staleChoice(loadListing(), listingOf(ctx, gameId, v), n);
}

function describeDraft(steps: readonly unknown[], view: unknown): string[] {
  const names = glossary(view);
  return steps.map((c, i) => {
    const why = explainCommand(c, names);
    return `  ${i + 1}. ${JSON.stringify(c)}${why ? `\n     (${why})` : ''}`;
  });
}

const commands: Record<string, (ctx: Ctx) => Promise<void>> = {
  async help() {
    out(HELP);
  },

  async login(ctx) {
    const player = arg(ctx, 0, 'player');
    const r = await client(ctx, false).request<{ player: string; token: string; expiresAt: string }>('POST', '/local/token', { player });
    const config: CliConfig = {
      ...ctx.config,
      defaultUrl: ctx.url,
      servers: { ...ctx.config.servers, [ctx.url]: { player: r.player, token: r.token, expiresAt: r.expiresAt } },
    };
    saveConfig(config);
    out(`Signed in as ${r.player} at ${ctx.url} (token saved in ${cliHome()}, valid until ${r.expiresAt}).`);
  },

  async whoami(ctx) {
    const login = loginFor(ctx);
    if (!login) throw new UsageError(`not signed in at ${ctx.url}: run  npm run cli -- login <player>`);
    out(`${login.player} at ${ctx.url}${login.expiresAt ? ` (token valid until ${login.expiresAt})` : ''}`);
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

  async lobby(ctx) {
    try {
      const r = await allPages(ctx, '/v1/lobby');
      out(ctx.flags.json ? JSON.stringify(r, null, 2) : formatLobby(r));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && e.code === 'http/not-found') throw new UsageError('this server has no lobby (GET /v1/lobby)');
      throw e;
    }
  },

  async show(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const v = await legalOf(ctx, gameId);
    remember(ctx, gameId, v);
    if (ctx.flags.json) return void out(JSON.stringify(v, null, 2));
    out(formatGame(v, loginFor(ctx)!.player, await recentEvents(ctx, gameId, v.summary.version)));
  },

  async board(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    out(formatBoard(await legalOf(ctx, gameId)));
  },

  async legal(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const v = await legalOf(ctx, gameId);
    remember(ctx, gameId, v);
    if (v.legalCommands.length === 0) {
      out(v.summary.status === 'ended' ? 'The game is over.' : 'Nothing to do now: it is not your move.');
      return;
    }
    for (const line of formatLegal(v.legalCommands, v.view)) out(line);
    out(`Send one with:  npm run cli -- play ${gameId} <n>`);
    const d = v.drafting;
    if (d && d.stepChoices.length) {
      out(
        `Order steps go into your private draft${d.steps.length ? ` (now ${d.steps.length} step${d.steps.length === 1 ? '' : 's'}: npm run cli -- draft ${gameId})` : ''}; sealing sends it whole.`,
      );
    }
  },

  async play(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const n = int(arg(ctx, 1, 'n'), '<n>')!;
    const v = await legalOf(ctx, gameId);
    const chosen = v.legalCommands[n - 1];
    const stale = staleListing(ctx, gameId, v, n);
    if (stale) throw new UsageError(stale);
    if (chosen === undefined)
      throw new UsageError(
        v.legalCommands.length ? `choose 1 to ${v.legalCommands.length}; see  npm run cli -- legal ${gameId}` : 'you have no legal command now',
      );
    const why = explainCommand(chosen, glossary(v.view));
    const drafting = v.drafting;
    if (drafting?.stepChoices.includes(n - 1)) {
      // A step of a sealed order: tried by the server, kept here, sent only with the seal.
      const after = await preview(ctx, gameId, [...drafting.steps, chosen]);
      // The server tidies the draft (a step that starts the order over drops the ones before it).
      const steps = after.drafting?.steps ?? [...drafting.steps, chosen];
      saveDraft(ctx.url, gameId, ctx.flags.seat, { steps });
      remember(ctx, gameId, after);
      out(`Drafted ${JSON.stringify(chosen)}${why ? `\n  (${why})` : ''}`);
      out(
        steps.length
          ? `Your draft has ${steps.length} step${steps.length === 1 ? '' : 's'}, kept on this computer: the other side learns nothing of it until you seal it.`
          : 'Your draft is empty: sealing now sends an empty order (it replaces any steps sent before).',
      );
      out(`See it with  npm run cli -- draft ${gameId};  next steps and the seal with  npm run cli -- legal ${gameId}`);
      return;
    }
    // A local draft, even an empty one, goes with the seal; with none, the seal is sent alone.
    const local = loadDraft(ctx.url, gameId, ctx.flags.seat);
    const draft = local && drafting?.sealChoices.includes(n - 1) ? drafting.steps : undefined;
    const withDraft =
      draft === undefined ? '' : draft.length ? ` with your draft of ${draft.length} step${draft.length === 1 ? '' : 's'}` : ' with your empty draft';
    out(`Playing ${JSON.stringify(chosen)}${withDraft}${why ? `\n  (${why})` : ''}`);
    // The choice was made on this version: if the game moved on meanwhile, refuse (409) rather than guess.
    await send(ctx, gameId, chosen, v.summary.version, draft);
    if (draft !== undefined) saveDraft(ctx.url, gameId, ctx.flags.seat, undefined);
  },

  async draft(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    if (ctx.flags.clear) {
      saveDraft(ctx.url, gameId, ctx.flags.seat, undefined);
      out('Draft dropped; nothing was ever sent.');
      return;
    }
    const v = await legalOf(ctx, gameId);
    const steps = v.drafting?.steps ?? [];
    if (!loadDraft(ctx.url, gameId, ctx.flags.seat)) {
      out(`No draft. Steps you choose with  npm run cli -- play ${gameId} <n>  collect here until you seal them.`);
      return;
    }
    if (!steps.length) {
      out(`Your draft is empty: sealing now sends an empty order. Drop it with  npm run cli -- draft ${gameId} --clear`);
      return;
    }
    out(`Your draft (on this computer only; sent whole when you seal it):`);
    for (const line of describeDraft(steps, v.view)) out(line);
    out(`Seal it with the SealOrder line of  npm run cli -- legal ${gameId};  start over with  npm run cli -- draft ${gameId} --clear`);
  },

  async do(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const command = parseJson(arg(ctx, 1, 'command JSON'), 'the command');
    const expected = int(ctx.flags.expect, '--expect');
    if (loadDraft(ctx.url, gameId, ctx.flags.seat)) {
      // A private draft is waiting on this computer: a seal sent without it would seal an
      // order without its steps, and a step sent on its own would be replaced by the draft at
      // the seal. So the plain seal carries the draft (as play does), and anything else that
      // would leave the draft out is refused with the reason and the ways on.
      const v = await legalOf(ctx, gameId); // drops a draft that no longer fits, and says so
      const local = loadDraft(ctx.url, gameId, ctx.flags.seat);
      const d = v.drafting;
      if (local && d) {
        const same = (i: number) => canonicalJson(v.legalCommands[i]) === canonicalJson(command);
        const steps = d.steps.length;
        const draftWords = steps ? `your draft of ${steps} step${steps === 1 ? '' : 's'}` : 'your empty draft';
        if (d.sealChoices.some(same)) {
          out(`Sealing with ${draftWords} (kept on this computer until now): ${JSON.stringify(command)}`);
          await send(ctx, gameId, command, expected ?? v.summary.version, d.steps);
          saveDraft(ctx.url, gameId, ctx.flags.seat, undefined);
          return;
        }
        const type = (command as { type?: unknown } | null)?.type;
        const sealType = d.sealChoices.some((i) => (v.legalCommands[i] as { type?: unknown }).type === type);
        if (!d.stepChoices.some(same) && !sealType) {
          // Not part of the order (a standing order, say): sent as it is; the draft waits.
          process.stderr.write(
            `Note: ${draftWords} stays on this computer and is not part of this command (seal it with play, or drop it with  npm run cli -- draft ${gameId} --clear).\n`,
          );
          await send(ctx, gameId, command, expected);
          return;
        }
        const plainSeal = d.sealChoices.map((i) => v.legalCommands[i]).find((c) => Object.keys(c as object).length === 1);
        throw new UsageError(
          [
            `Not sent: you have ${draftWords} on this computer, and ${d.stepChoices.some(same) ? 'a step sent on its own would be replaced by it when you seal' : 'this command would leave it out'}.`,
            d.stepChoices.some(same)
              ? `Add the step to your draft with  npm run cli -- play ${gameId} <n>  (see  npm run cli -- legal ${gameId}).`
              : `Seal your draft with  npm run cli -- do ${gameId} '${JSON.stringify(plainSeal ?? { type: 'SealOrder' })}'  (or play the seal's number from  npm run cli -- legal ${gameId}).`,
            `See it with  npm run cli -- draft ${gameId};  drop it with  npm run cli -- draft ${gameId} --clear  and send this command again.`,
          ].join('\n'),
        );
      }
    }
    await send(ctx, gameId, command, expected);
  },

  async events(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const q = new URLSearchParams();
    if (ctx.flags.after) q.set('after', String(int(ctx.flags.after, '--after')));
    if (ctx.flags.limit) q.set('limit', String(int(ctx.flags.limit, '--limit')));
    if (ctx.flags.seat) q.set('seat', ctx.flags.seat);
    const qs = q.toString();
    const r = await client(ctx).request<{ events: CommandReply['events']; version: number; next?: number; seats?: CommandReply['seats'] }>(
      'GET',
      gamePath(gameId, `/events${qs ? `?${qs}` : ''}`),
    );
    if (ctx.flags.json) {
      out(JSON.stringify(r, null, 2));
      return;
    }
    for (const e of r.events) out(formatEvent(e, r.seats));
    out(`(game version ${r.version}${r.next !== undefined ? `; more with --after ${r.next}` : ''})`);
  },

  async clock(ctx) {
    const m = /^\+?(\d+(?:\.\d+)?)([hd])$/.exec(arg(ctx, 0, '+N h or +N d'));
    if (!m) throw new UsageError('clock takes a step forward such as +48h or +7d');
    const advanceHours = Number(m[1]) * (m[2] === 'd' ? 24 : 1);
    const r = await client(ctx).request<{ now: string; changed: string[] }>('POST', '/local/clock', { advanceHours });
    out(`The server's clock now reads ${r.now}.${r.changed.length ? ` Deadlines passed in: ${r.changed.join(', ')}.` : ''}`);
  },

  async vacation(ctx) {
    // vacation | vacation on [days] | vacation off: your yearly leave; your clocks stop in every game.
    const action = ctx.args[0];
    type Vacation = {
      allowanceDays: number;
      usedDays: number;
      leftDays: number;
      away: boolean;
      until?: string;
      games?: { gameId: string; recorded: boolean; reason?: string }[];
    };
    let r: Vacation;
    if (action === undefined || action === 'show') r = await client(ctx).request<Vacation>('GET', '/v1/me/vacation');
    else if (action === 'on') {
      const days = ctx.args[1] === undefined ? undefined : Number(ctx.args[1]);
      if (days !== undefined && !(days > 0)) throw new UsageError('vacation on [days]: days is a number above 0 (all you have left when left out)');
      r = await client(ctx).request<Vacation>('PUT', '/v1/me/vacation', { away: true, ...(days !== undefined ? { days } : {}) });
    } else if (action === 'off') r = await client(ctx).request<Vacation>('PUT', '/v1/me/vacation', { away: false });
    else throw new UsageError('vacation [on [days] | off]');
    if (ctx.flags.json) return void out(JSON.stringify(r, null, 2));
    const lines = [
      r.away ? `On vacation until ${r.until}: your clocks stand still in every game, and your opponents see it.` : 'Not on vacation: your clocks run.',
      `Allowance this year: ${r.allowanceDays} days, ${r.usedDays} used, ${r.leftDays} left.`,
    ];
    for (const g of r.games ?? []) lines.push(`  ${g.gameId}: ${g.recorded ? 'recorded' : `not recorded (${g.reason})`}`);
    out(lines.join('\n'));
  },

  async engines(ctx) {
    const r = await client(ctx).request<{ engines: EngineDescription[] }>('GET', '/v1/engines');
    out(ctx.flags.json ? JSON.stringify(r, null, 2) : r.engines.map(formatEngine).join('\n\n'));
  },

  async standing(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const seat = ctx.flags.seat ? { seat: ctx.flags.seat } : {};
    if (ctx.flags.set !== undefined || ctx.flags.clear) {
      const orders = ctx.flags.clear ? [] : parseJson(ctx.flags.set!, '--set');
      const r = await client(ctx).request<CommandReply>('PUT', gamePath(gameId, '/standing-orders'), { commandId: newCommandId(), orders, ...seat });
      printResult(r, ctx.flags.clear ? 'Standing orders cleared' : 'Standing orders set');
      return;
    }
    const v = await client(ctx).request<GameViewBody & { standingOrders?: { topic: string; rule: string; params?: unknown }[] }>(
      'GET',
      gamePath(gameId, ctx.flags.seat ? `?seat=${encodeURIComponent(ctx.flags.seat)}` : ''),
    );
    const { engines } = await client(ctx).request<{ engines: EngineDescription[] }>('GET', '/v1/engines');
    const offered = engines.find((e) => e.id === v.summary.engine)?.standingOrders ?? [];
    out(formatStandingOrders(v.standingOrders ?? [], offered, gameId));
  },

  async lapse(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const body = { commandId: newCommandId(), window: arg(ctx, 1, 'windowId'), ...(ctx.flags.seat ? { seat: ctx.flags.seat } : {}) };
    printResult(await client(ctx).request<CommandReply>('POST', gamePath(gameId, '/lapse'), body), 'Lapsed');
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

  async cancel(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    printResult(await client(ctx).request<CommandReply>('POST', gamePath(gameId, '/cancel'), { commandId: newCommandId() }), 'Cancelled');
  },

  async export(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    let r: { events: unknown[] };
    try {
      r = await client(ctx).request<{ events: unknown[] }>('GET', gamePath(gameId, '/export'));
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 'export/too-large')) throw e;
      r = await exportInPages(ctx, gameId);
    }
    const text = JSON.stringify(r, null, 2) + '\n';
    const file = ctx.args[1];
    if (!file) return void process.stdout.write(text);
    writeFileSync(file, text);
    out(`Wrote ${r.events.length} events to ${file}. Audit it with:  npm run verify -- ${file}`);
  },

  async settings(ctx) {
    const api = client(ctx);
    const [action, value] = [ctx.args[0], ctx.args[1]];
    type Settings = Parameters<typeof formatSettings>[0];
    let body: Record<string, unknown> | undefined;
    switch (action) {
      case undefined:
      case 'show':
        break;
      case 'email': {
        if (!value) throw new UsageError('settings email <address>  (or  settings email none  to stop mail)');
        body = { email: value === 'none' ? null : value };
        break;
      }
      case 'add-webhook': {
        if (!value) throw new UsageError('settings add-webhook <url> [--format json|discord|slack] [--secret S]');
        const format = ctx.flags.format ?? 'json';
        if (!['json', 'discord', 'slack'].includes(format)) throw new UsageError(`--format is json, discord or slack, not ${format}`);
        // A receiver checks each delivery's signature, so it needs the secret: the server makes
        // one (whsec_...) unless --secret gives one, and shows it in this reply only.
        const current = await api.request<Settings>('GET', '/v1/me/settings');
        body = {
          webhooks: [...current.webhooks.map((w) => ({ id: w.id })), { url: value, format, ...(ctx.flags.secret ? { secret: ctx.flags.secret } : {}) }],
        };
        break;
      }
      case 'remove-webhook': {
        if (!value) throw new UsageError('settings remove-webhook <id>  (the ids are in  npm run cli -- settings)');
        const current = await api.request<Settings>('GET', '/v1/me/settings');
        if (!current.webhooks.some((w) => w.id === value))
          throw new UsageError(`You have no webhook ${value}; yours: ${current.webhooks.map((w) => w.id).join(', ') || 'none'}`);
        body = { webhooks: current.webhooks.filter((w) => w.id !== value).map((w) => ({ id: w.id })) };
        break;
      }
      case 'mail': {
        // settings mail <kind> on|off: which notices are mailed (the mails' unsubscribe link turns one off too).
        const kinds: readonly string[] = NOTICE_KINDS;
        const onOff = ctx.args[2];
        if (!value || !kinds.includes(value) || (onOff !== 'on' && onOff !== 'off')) throw new UsageError(`settings mail <${kinds.join('|')}> on|off`);
        const current = await api.request<Settings>('GET', '/v1/me/settings');
        const off = new Set(current.emailOff ?? []);
        if (onOff === 'off') off.add(value);
        else off.delete(value);
        body = { emailOff: [...off] };
        break;
      }
      case 'reminder': {
        // settings reminder <50%|80%|24h> on|off: which reminders are sent (by mail and webhook).
        const levels: readonly string[] = REMINDER_LEVELS;
        const onOff = ctx.args[2];
        if (!value || !levels.includes(value) || (onOff !== 'on' && onOff !== 'off')) throw new UsageError(`settings reminder <${levels.join('|')}> on|off`);
        const current = await api.request<Settings>('GET', '/v1/me/settings');
        const off = new Set(current.remindersOff ?? []);
        if (onOff === 'off') off.add(value);
        else off.delete(value);
        body = { remindersOff: [...off] };
        break;
      }
      case 'digest': {
        // settings digest <hour> [--tz Zone] | off: one mail a day at that hour instead of each "your move".
        const usage = 'settings digest <hour 0-23> [--tz Europe/Paris] | off   (one mail a day listing your games on move; UTC unless --tz)';
        if (value === 'off') body = { digest: null };
        else if (value !== undefined && /^\d{1,2}$/.test(value) && Number(value) <= 23)
          body = { digest: { hour: Number(value), ...(ctx.flags.tz ? { timeZone: ctx.flags.tz } : {}) } };
        else throw new UsageError(usage);
        break;
      }
      default:
        throw new UsageError(
          'settings [show] | email <address|none> | add-webhook <url> [--format json|discord|slack] [--secret S] | remove-webhook <id> | mail <kind> on|off | reminder <level> on|off | digest <hour> [--tz Zone] | off',
        );
    }
    const r = body ? await api.request<Settings>('PUT', '/v1/me/settings', body) : await api.request<Settings>('GET', '/v1/me/settings');
    if (ctx.flags.json) return void out(JSON.stringify(r, null, 2));
    const secret = r.webhooks.find((w) => w.secret)?.secret;
    if (secret)
      out(`Webhook secret (shown only now; your receiver checks each delivery's webhook-signature with it, as Standard Webhooks says):\n  ${secret}\n`);
    out(formatSettings(r, loginFor(ctx)!.player));
  },

  async 'verify-email'(ctx) {
    const token = arg(ctx, 0, 'code');
    await client(ctx).request('POST', '/v1/me/email/verify', { token });
    out('Email address confirmed: game notices will be mailed to it.');
  },

  async verify(ctx) {
    const file = arg(ctx, 0, 'file');
    const r = await auditFile(file, ctx.flags.engines ?? []);
    out(r.text);
    if (!r.ok) process.exitCode = 1;
  },

  async club(ctx) {
    out(await clubCommand(client(ctx), ctx.args, ctx.flags));
  },

  async tournament(ctx) {
    out(await tournamentCommand(client(ctx), ctx.args, ctx.flags));
  },

  async ratings(ctx) {
    out(await ratingsCommand(client(ctx), arg(ctx, 0, 'engine'), ctx.flags.json === true));
  },

  async player(ctx) {
    out(await playerCommand(client(ctx), arg(ctx, 0, 'player'), ctx.flags.json === true));
  },
};
commands['send'] = commands['do']!;

async function main(argv: string[]): Promise<number> {
  let parsed;
  const masked = maskDashWords(argv);
  try {
    parsed = parseArgs({
      args: masked.args,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        options: { type: 'string' },
        seat: { type: 'string' },
        reserve: { type: 'string', multiple: true },
        entropy: { type: 'string' },
        after: { type: 'string' },
        limit: { type: 'string' },
        expect: { type: 'string' },
        engines: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        clear: { type: 'boolean' },
        'time-limit': { type: 'string' },
        'window-share': { type: 'string' },
        time: { type: 'string' },
        'weekends-off': { type: 'boolean' },
        set: { type: 'string' },
        format: { type: 'string' },
        secret: { type: 'string' },
        tz: { type: 'string' },
        description: { type: 'string' },
        code: { type: 'string' },
        role: { type: 'string' },
        club: { type: 'string' },
        rounds: { type: 'string' },
        cycles: { type: 'string' },
        data: { type: 'string' },
        unrated: { type: 'boolean' },
        rated: { type: 'boolean' },
        max: { type: 'string' },
        starts: { type: 'string' },
        status: { type: 'string' },
        vacation: { type: 'string' },
        reason: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${HELP}`);
    return 2;
  }
  parsed = {
    positionals: parsed.positionals.map(masked.unmask),
    values: Object.fromEntries(Object.entries(parsed.values).map(([k, v]) => [k, masked.unmask(v)])) as typeof parsed.values,
  };
  const [name = 'help', ...args] = parsed.positionals;
  const cmd = parsed.values.help ? commands['help'] : Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!cmd) {
    console.error(`unknown command "${name}"\n\n${HELP}`);
    return 2;
  }
  try {
    const config = loadConfig();
    await cmd({ args, flags: parsed.values, config, url: resolveUrl(parsed.values.url, config) });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof ClubUsageError) {
      console.error(e.message);
      return 2;
    }
    if (e instanceof ApiError) {
      const hint = e.status === 401 ? `\n  Sign in again:  npm run cli -- login <player>${parsed.values.url ? ` --url ${parsed.values.url}` : ''}` : '';
      console.error(`${e.status ? `Refused (${e.status} ${e.code})` : 'Failed'}: ${e.message}${e.rule ? `\n  Rule: ${e.rule}` : ''}${hint}`);
      return 1;
    }
    console.error(e instanceof Error ? e.message : String(e));
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
