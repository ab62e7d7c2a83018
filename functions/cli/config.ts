import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the terminal client keeps its tokens: $FIELDPOST_HOME, else ~/.fieldpost. */
export function cliHome(env: NodeJS.ProcessEnv = process.env): string {
  return env['FIELDPOST_HOME'] || join(homedir(), '.fieldpost');
}

export interface ServerLogin {
  readonly player: string;
  readonly token: string;
  readonly expiresAt?: string;
}

export interface CliConfig {
  /** The server used when neither --url nor FIELDPOST_URL says otherwise (the last login). */
  defaultUrl?: string;
  /** One login per server URL. */
  servers: Record<string, ServerLogin>;
}

export const DEFAULT_URL = 'http://127.0.0.1:3000';

export const normalizeUrl = (u: string): string => u.replace(/\/+$/, '');

export function loadConfig(home = cliHome()): CliConfig {
  const file = join(home, 'config.json');
  if (!existsSync(file)) return { servers: {} };
  try {
    const c = JSON.parse(readFileSync(file, 'utf8')) as Partial<CliConfig>;
    return { ...(c.defaultUrl ? { defaultUrl: c.defaultUrl } : {}), servers: c.servers ?? {} };
  } catch {
    throw new Error(`${file} is not valid JSON; fix or delete it and log in again`);
  }
}

/** Written atomically and readable by the owner only: it holds bearer tokens. */
export function saveConfig(config: CliConfig, home = cliHome()): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = join(home, 'config.json');
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** --url, then FIELDPOST_URL, then the last server logged in to, then the local default. */
export function resolveUrl(flag: string | undefined, config: CliConfig, env: NodeJS.ProcessEnv = process.env): string {
  return normalizeUrl(flag || env['FIELDPOST_URL'] || config.defaultUrl || DEFAULT_URL);
}

/** The legal commands a player was last shown (by show or legal): what `play <n>` numbers refer to. */
export interface Listing {
  readonly url: string;
  readonly gameId: string;
  readonly seat: string | null;
  readonly version: number;
  readonly commands: readonly unknown[];
  /** Steps in the private draft the list was computed with (a new step changes the list, not the version). */
  readonly draft?: number;
}

export function saveListing(listing: Listing, home = cliHome()): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(join(home, 'last-listing.json'), JSON.stringify(listing) + '\n', { mode: 0o600 });
}

/** Forgets the last list: a number typed next then means the current list, as on a fresh terminal. */
export function clearListing(home = cliHome()): void {
  rmSync(join(home, 'last-listing.json'), { force: true });
}

export function loadListing(home = cliHome()): Listing | undefined {
  try {
    return JSON.parse(readFileSync(join(home, 'last-listing.json'), 'utf8')) as Listing;
  } catch {
    return undefined;
  }
}

/** The player a bearer token names (its payload is not verified here: the server does that). */
export function playerFromToken(token: string): string | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const name = claims['cognito:username'] ?? claims['username'] ?? claims['sub'];
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Orders drafted in private (the server's /preview): kept on this computer until sealed, so
 * the other side learns nothing of them, not even how many steps they have, until the reveal.
 */
export interface Draft {
  readonly steps: readonly unknown[];
}

const draftKey = (url: string, gameId: string, seat: string | undefined) => `${url} ${gameId} ${seat ?? ''}`;

function loadDrafts(home: string): Record<string, Draft> {
  try {
    return JSON.parse(readFileSync(join(home, 'drafts.json'), 'utf8')) as Record<string, Draft>;
  } catch {
    return {};
  }
}

export function loadDraft(url: string, gameId: string, seat: string | undefined, home = cliHome()): Draft | undefined {
  return loadDrafts(home)[draftKey(url, gameId, seat)];
}

/**
 * Saves a draft; undefined removes it. An empty draft is kept: it means "start the order over"
 * (a ClearOrder), so the seal replaces steps sent earlier with nothing.
 */
export function saveDraft(url: string, gameId: string, seat: string | undefined, draft: Draft | undefined, home = cliHome()): void {
  const all = loadDrafts(home);
  const key = draftKey(url, gameId, seat);
  if (draft) all[key] = draft;
  else delete all[key];
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(join(home, 'drafts.json'), JSON.stringify(all, null, 2) + '\n', { mode: 0o600 });
}
