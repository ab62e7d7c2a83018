// What every command of the terminal client shares: its arguments and flags, the server it
// talks to and the login it uses, usage errors, and printing a command's reply.
import { ApiClient } from '../client.js';
import { playerFromToken, type CliConfig, type ServerLogin } from '../config.js';
import { formatEvent, type CommandReply } from '../format.js';

export class UsageError extends Error {}

export interface Ctx {
  readonly args: string[];
  readonly flags: Flags;
  readonly config: CliConfig;
  readonly url: string;
}

export interface Flags {
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

export const out = (s: string) => process.stdout.write(s.endsWith('\n') ? s : s + '\n');

export function arg(ctx: Ctx, i: number, name: string): string {
  const v = ctx.args[i];
  if (v === undefined || v === '') throw new UsageError(`missing <${name}>; see npm run cli -- help`);
  return v;
}

export function client(ctx: Ctx, signedIn = true): ApiClient {
  const login = loginFor(ctx);
  if (signedIn && !login) throw new UsageError(`not signed in at ${ctx.url}: run  npm run cli -- login <player> --url ${ctx.url}`);
  return new ApiClient({ url: ctx.url, ...(login ? { token: login.token } : {}) });
}

/** A token in $FIELDPOST_TOKEN (e.g. a Cognito ID token for a deployed server) wins over a saved login. */
export function loginFor(ctx: Ctx): ServerLogin | undefined {
  const token = process.env['FIELDPOST_TOKEN'];
  if (token) return { token, player: playerFromToken(token) ?? '(from FIELDPOST_TOKEN)' };
  return ctx.config.servers[ctx.url];
}

export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${what} is not valid JSON: ${(e as Error).message}`);
  }
}

export function int(v: string | undefined, what: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`${what} must be a whole number, not ${v}`);
  return Number(v);
}

export const gamePath = (id: string, rest = '') => `/v1/games/${encodeURIComponent(id)}${rest}`;

export function printResult(r: CommandReply, what: string): void {
  out(`${what}: game ${r.gameId} is at version ${r.version}${r.duplicate ? ' (already applied earlier: nothing new was written)' : ''}`);
  for (const e of r.events) out(`  ${formatEvent(e, r.seats)}`);
  // What now: a command can open a phase where its sender must act again at once.
  if (r.next) {
    out(`Next: ${r.next.text.split('\n').join('\n      ')}`);
    if (r.next.yours.length) out(`      See your choices with  npm run cli -- legal ${r.gameId}`);
  }
}

/** The commands of one group, by the word that runs them. */
export type Commands = Record<string, (ctx: Ctx) => Promise<void>>;
