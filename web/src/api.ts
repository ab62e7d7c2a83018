/**
 * The browser's side of the HTTP API (functions/http/routes): JSON in and out with the
 * player's bearer token, errors as {status, code, message}, and conditional GETs (ETag /
 * If-None-Match) for polling without downloading what has not changed.
 */

export interface Session {
  readonly player: string;
  readonly token: string;
  readonly expiresAt?: string;
}

const SESSION_KEY = 'fieldpost.session';

export function loadSession(): Session | undefined {
  try {
    const s = JSON.parse(localStorage.getItem(SESSION_KEY) ?? 'null') as Session | null;
    if (!s || typeof s.token !== 'string' || typeof s.player !== 'string') return undefined;
    if (s.expiresAt && Date.parse(s.expiresAt) < Date.now()) return undefined;
    return s;
  } catch {
    return undefined;
  }
}

export function saveSession(s: Session | undefined): void {
  if (s) localStorage.setItem(SESSION_KEY, JSON.stringify(s));
  else localStorage.removeItem(SESSION_KEY);
}

/** An error the API answered ({code, message, rule?}), or a network failure (status 0). */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly rule?: string,
  ) {
    super(message);
  }
}

/** Called when the server says the token is no longer good (401): the app signs out. */
let onUnauthorized: () => void = () => {};
export const whenUnauthorized = (f: () => void) => void (onUnauthorized = f);

async function call(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...extra };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = loadSession()?.token;
  if (token) headers['authorization'] = `Bearer ${token}`;
  try {
    return await fetch(path, { method, headers, cache: 'no-store', ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  } catch (e) {
    throw new ApiError(0, 'network/unreachable', `The server cannot be reached (${(e as Error).message}); try again in a moment`);
  }
}

async function fail(res: Response): Promise<never> {
  let p: { code?: string; message?: string; rule?: string } = {};
  try {
    p = (await res.json()) as typeof p;
  } catch {
    // not JSON: the status says enough
  }
  if (res.status === 401) onUnauthorized();
  throw new ApiError(res.status, p.code ?? `http/${res.status}`, p.message ?? res.statusText, p.rule);
}

/** Times a 503, or a request that got no reply, is answered by sending the same request again. */
const RESENDS = 2;
/** The wait before a request that got no reply (the server restarting, a dropped connection) is sent again. */
const UNREACHABLE_WAIT_MS = 1000;

/**
 * JSON in and out. A 503 (the store busy after the server's own retries; nothing was applied, or
 * the command's commandId makes the resend a duplicate) is waited out for its Retry-After (at
 * most 10 s) and the same request sent again, for reads and for commands only. So is a request
 * that got no reply at all (the server was restarting, or the connection dropped): it may have
 * been applied, and the same commandId makes the resend a duplicate rather than a second move.
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const safe = method === 'GET' || (typeof body === 'object' && body !== null && 'commandId' in body);
  for (let i = 0; ; i++) {
    let res: Response;
    try {
      res = await call(method, path, body);
    } catch (e) {
      if (!safe || i >= RESENDS) throw e;
      await new Promise((r) => setTimeout(r, UNREACHABLE_WAIT_MS));
      continue;
    }
    if (safe && res.status === 503 && i < RESENDS) {
      const after = Number(res.headers.get('retry-after'));
      await new Promise((r) => setTimeout(r, Math.min(10, Number.isFinite(after) && after > 0 ? after : 1) * 1000));
      continue;
    }
    if (!res.ok) return fail(res);
    return (await res.json()) as T;
  }
}

/** The SVG text of a picture route (GET /v1/games/{id}/board.svg): an <img> cannot send the token. */
export async function text(path: string): Promise<string> {
  const res = await call('GET', path, undefined, { accept: 'image/svg+xml' });
  if (!res.ok) return fail(res);
  return res.text();
}

/**
 * A conditional GET: with the ETag of the last answer, the server answers 304 when nothing
 * changed, and this returns undefined. Otherwise the new body and its ETag.
 */
export async function poll<T>(path: string, etag: string | undefined): Promise<{ body: T; etag: string | undefined } | undefined> {
  const res = await call('GET', path, undefined, etag ? { 'if-none-match': etag } : {});
  if (res.status === 304) return undefined;
  if (!res.ok) return fail(res);
  return { body: (await res.json()) as T, etag: res.headers.get('etag') ?? undefined };
}

export const newCommandId = (): string => `web-${crypto.randomUUID()}`;

export const gamePath = (id: string, rest = '') => `/v1/games/${encodeURIComponent(id)}${rest}`;
