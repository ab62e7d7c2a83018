import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { wasCancelled, type EngineRegistry } from '../../domain/kernel/index.js';
import { registry as defaultRegistry } from '../../domain/registry.js';
import { resultInWords, sideAndPlayer } from '../app/names.js';
import { createApi } from '../http/api.js';
import { localClock, oneSweepAtATime, sweepDeadlines, type LocalClock } from './deadlines.js';
import type { Clock } from '../ports.js';
import { localAuthenticator, PLAYER_ID } from '../http/auth.js';
import { signLocalJwt } from '../http/jwt.js';
import { bodyTooLarge, DEFAULT_MAX_BODY_BYTES, type ApiHandler } from '../http/router.js';
import { routeModules } from '../http/routes/index.js';
import type { LimitName } from '../http/limit-names.js';
import type { Limit } from '../http/limits.js';
import { createSettingsRoutes, settingsRoutes } from '../http/routes/settings.js';
import type { ApiDeps, RouteModule } from '../http/types.js';
import type { Mailer } from '../notify/mailer.js';
import { localClient, startDynamoLocal, type RunningDynamo } from '../store/dynamodb-local.js';
import { ensureTable } from '../store/table.js';
import { webClientHandler } from './web-client.js';

/** Something the runtime started and must stop on shutdown (stopped in reverse order). */
export interface Stoppable {
  readonly name: string;
  stop(): Promise<void>;
  /** Optional local-only HTTP endpoints (e.g. /local/mail); answers undefined for paths it does not serve. */
  handle?(method: string, path: string): APIGatewayProxyStructuredResultV2 | undefined;
}

/** What extensions (stream poller, mail sink, ...) get to build on. */
export interface RuntimeContext {
  readonly client: DynamoDBClient;
  readonly endpoint: string;
  readonly tableName: string;
  readonly dataDir: string | null;
  /** The API's base URL: links in local mail point here. */
  readonly url: string;
  readonly deps: ApiDeps;
  readonly log: (line: string) => void;
  /**
   * An extension that runs a mailer (the notifications, with the mail sink) hands it here with
   * the base of its links, so the API's verification mail goes the same way as notices.
   */
  readonly provideMail?: (mail: { mailer: Mailer; appUrl: string }) => void;
  /** An extension with something that runs on the clock (the daily digest) asks POST /local/clock to run it after each move of the clock. */
  readonly afterClock?: (run: () => Promise<unknown>) => void;
}

/** Starts one more local service next to the API; returns how to stop it. */
export type RuntimeExtension = (ctx: RuntimeContext) => Promise<Stoppable>;

/**
 * Local services every startLocalRuntime() starts with the API unless `extensions` says
 * otherwise. Deliberately none: npm start (start.ts) adds the stream poller, projector,
 * notifier and mail sink (notificationsExtension); tests opt in the same way.
 */
export const defaultExtensions: readonly RuntimeExtension[] = [];

export interface LocalRuntimeOptions {
  /** HTTP port on 127.0.0.1; 0 or absent picks a free one. */
  readonly port?: number;
  /** Where DynamoDB Local keeps its files and the local JWT secret lives (default ./.data). */
  readonly dataDir?: string;
  /** Throwaway: DynamoDB in memory, a fresh secret; nothing survives stop(). */
  readonly memory?: boolean;
  readonly engines?: EngineRegistry;
  readonly tableName?: string;
  /** Use an already running DynamoDB (Local) instead of starting one; it is not stopped. */
  readonly dynamoEndpoint?: string;
  readonly jwtSecret?: string;
  readonly tokenTtlSeconds?: number;
  /** Default: the API's routes, with webhook settings that accept local receivers (see allowPrivateWebhooks). */
  readonly modules?: readonly RouteModule[];
  /**
   * Whether players may save webhooks to plain http and private addresses, such as a receiver
   * on 127.0.0.1 (default true: this is a machine-local server). The deployed API never does.
   */
  readonly allowPrivateWebhooks?: boolean;
  readonly extensions?: readonly RuntimeExtension[];
  readonly log?: (line: string) => void;
  /** The service's clock (tests and demos move time with it); the wall clock by default. */
  readonly clock?: Clock;
  /** Fair limits (http/limits.ts); default: FIELDPOST_LIMITS over the deployed defaults. */
  readonly limits?: Readonly<Record<LimitName, Limit>>;
  /** Serve the built web client from this folder at / (npm start: web/dist; see web-client.ts). */
  readonly webRoot?: string;
}

export interface LocalRuntime {
  /** Base URL of the API, e.g. http://127.0.0.1:3000 */
  readonly url: string;
  /** DynamoDB endpoint. */
  readonly endpoint: string;
  readonly tableName: string;
  readonly client: DynamoDBClient;
  readonly deps: ApiDeps;
  /** Process id of DynamoDB Local's java, when this runtime started it. */
  readonly dynamoPid: number | undefined;
  /** A signed local token for a player, as POST /local/token gives. */
  issueToken(player: string, ttlSeconds?: number): string;
  stop(): Promise<void>;
}

export const DEFAULT_TABLE = 'fieldpost';
const DAY = 24 * 3600;

/** The local JWT secret: LOCAL_JWT_SECRET, else one kept in the data folder, else random. */
function localSecret(dataDir: string | null): string {
  const fromEnv = process.env['LOCAL_JWT_SECRET'];
  if (fromEnv) return fromEnv;
  if (!dataDir) return randomBytes(32).toString('hex');
  const file = join(dataDir, 'local-jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/**
 * Stops DynamoDB Local and makes sure its JVM is gone: on Ctrl-C the terminal signals the
 * whole process group, so java may already be exiting by itself; never wait forever.
 */
async function stopJava(dynamo: RunningDynamo): Promise<void> {
  const child = dynamo.process;
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  if (gone()) return;
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  await Promise.race([dynamo.stop(), exited, new Promise((ok) => setTimeout(ok, 8000).unref())]);
  if (!gone()) {
    child.kill('SIGKILL');
    await Promise.race([exited, new Promise((ok) => setTimeout(ok, 2000).unref())]);
  }
}

/**
 * Reads a request body, keeping at most `limit` bytes but counting all of them: `size` is the
 * whole body as sent, so a 413 names its real size rather than the part that was kept.
 */
function readBody(req: IncomingMessage, limit: number): Promise<{ body: Buffer; size: number }> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size - c.length > limit) return; // keep draining and counting, stop storing
      chunks.push(c);
    });
    req.on('end', () => resolveBody({ body: Buffer.concat(chunks), size }));
    req.on('error', reject);
  });
}

/** A node:http request as the API Gateway HTTP API (payload v2) event the Lambda would get. */
export function toApiGatewayEvent(req: IncomingMessage, body: Buffer): APIGatewayProxyEventV2 {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : v;
  // Parameter names are the caller's: collect them in a Map, so ?__proto__= or ?constructor= is a name like any other.
  const params = new Map<string, string>();
  for (const [k, v] of url.searchParams) params.set(k, params.has(k) ? `${params.get(k)},${v}` : v);
  const query = Object.fromEntries(params);
  const now = new Date();
  const method = (req.method ?? 'GET').toUpperCase();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    headers,
    ...(params.size ? { queryStringParameters: query } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers['host'] ?? '127.0.0.1',
      domainPrefix: 'local',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: body.toString('base64'), isBase64Encoded: true } : { isBase64Encoded: false }),
  };
}

function send(res: ServerResponse, r: APIGatewayProxyStructuredResultV2): void {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers ?? {})) headers[k] = String(v);
  const body = r.body === undefined ? Buffer.alloc(0) : r.isBase64Encoded ? Buffer.from(r.body, 'base64') : Buffer.from(r.body, 'utf8');
  headers['content-length'] = String(body.length);
  res.writeHead(r.statusCode ?? 200, headers);
  res.end(body);
}

const json = (status: number, body: unknown): APIGatewayProxyStructuredResultV2 => ({
  statusCode: status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  body: JSON.stringify(body),
});

/** POST /local/token {player}: a token for any player name. Local runtime only, never in AWS. */
function tokenEndpoint(body: Buffer, issue: (player: string) => { token: string; expiresAt: string }): APIGatewayProxyStructuredResultV2 {
  let input: unknown;
  try {
    input = JSON.parse(body.toString('utf8') || '{}');
  } catch {
    return json(400, { code: 'http/malformed-json', message: 'The request body is not valid JSON' });
  }
  const player = (input as { player?: unknown } | null)?.player;
  if (typeof player !== 'string' || !PLAYER_ID.test(player)) {
    return json(400, { code: 'http/invalid-request', message: 'Invalid body: player: a player id (letters, digits and . _ @ + -, at most 128) is required' });
  }
  return json(200, { player, ...issue(player) });
}

const escapeHtml = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * GET /games/{id}: where the links in local mail land. Without the web client (a runtime
 * started with no webRoot, as most tests do), it shows the game's public summary (what any spectator may see) and how to play it from a
 * terminal.
 */
/**
 * POST /local/clock {"advanceHours": n}: moves the local server's clock forward (never back),
 * then runs every deadline that passed, so a reminder or a time-out shows at once. Local only:
 * the deployed API has no such route.
 */
async function clockEndpoint(
  body: Buffer,
  clock: LocalClock,
  ctx: RuntimeContext | undefined,
  after: readonly (() => Promise<unknown>)[],
): Promise<APIGatewayProxyStructuredResultV2> {
  let hours: unknown;
  try {
    hours = (JSON.parse(body.toString('utf8') || '{}') as { advanceHours?: unknown }).advanceHours;
  } catch {
    return json(400, { code: 'http/invalid-json', message: 'The body is not JSON: send {"advanceHours": 48}' });
  }
  if (typeof hours !== 'number' || !Number.isFinite(hours) || hours < 0 || hours > 24 * 366) {
    return json(400, { code: 'http/invalid-request', message: 'advanceHours is a number of hours from 0 to 8784 (the clock never goes back)' });
  }
  const advanceBy = hours * 3_600_000;
  const { now, changed } = ctx
    ? await oneSweepAtATime(ctx, async () => ({ now: clock.advance(advanceBy), changed: await sweepDeadlines(ctx, clock) }))
    : { now: clock.advance(advanceBy), changed: [] };
  for (const run of after) await run();
  return json(200, { now, changed });
}

async function gamePageFor(deps: ApiDeps, gameId: string, base: string): Promise<APIGatewayProxyStructuredResultV2> {
  const html = (status: number, title: string, body: string): APIGatewayProxyStructuredResultV2 => ({
    statusCode: status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    body: `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1>${body}`,
  });
  try {
    const v = await deps.service.view(null, gameId);
    const s = v.summary;
    const seats = s.seats.map((x) => `<li>${escapeHtml(x.name)}: ${escapeHtml(x.player ?? 'open')}</li>`).join('');
    const pending = s.pending.map((p) => `<li>${escapeHtml(sideAndPlayer(s.seats, p.seat))}: ${escapeHtml(p.prompt)}</li>`).join('') || '<li>nobody</li>';
    const result = s.outcome ? `<p>Result: ${escapeHtml(resultInWords(s.outcome, s.seats, wasCancelled(s)))}</p>` : '';
    return html(
      200,
      `${s.title}: ${s.status}`,
      `<ul>${seats}</ul><h2>Waiting for</h2><ul>${pending}</ul>${result}<p>Version ${s.version}, event hash <code>${escapeHtml(s.hash)}</code></p><p>Play it from a terminal:</p><pre>npm run cli -- show ${escapeHtml(gameId)} --url ${escapeHtml(base)}</pre>`,
    );
  } catch (e) {
    const status = (e as { status?: number }).status === 404 ? 404 : 500;
    return html(status, status === 404 ? 'No such game' : 'Something went wrong', `<p>${escapeHtml(gameId)}</p>`);
  }
}

/**
 * GET /verify-email?token=...: where the link in a local verification mail lands. Opening it
 * changes nothing (mail scanners open links too); the Confirm button signs in as the player
 * named in the form (POST /local/token: anyone may do that locally) and sends the token to
 * POST /v1/me/email/verify, which checks it belongs to that player. Deployed, the web client at
 * APP_URL serves this page with the player's real sign-in.
 */
function verifyPageFor(token: string | null, base: string): APIGatewayProxyStructuredResultV2 {
  const page = (status: number, body: string): APIGatewayProxyStructuredResultV2 => ({
    statusCode: status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
    body: `<!doctype html><meta charset="utf-8"><title>Confirm your email address</title><h1>Confirm your email address</h1>${body}`,
  });
  if (!token || !/^[A-Za-z0-9_-]{16,200}$/.test(token))
    return page(400, '<p>This is not a verification link: the token is missing or malformed. Ask for a new mail with POST /v1/me/email/resend.</p>');
  const curl = `curl -s -X POST ${base}/local/token -H 'content-type: application/json' -d '{"player":"YOUR-NAME"}'\ncurl -s -X POST ${base}/v1/me/email/verify -H 'authorization: Bearer TOKEN-FROM-ABOVE' -H 'content-type: application/json' -d '{"token":"${token}"}'`;
  return page(
    200,
    `<p>Press Confirm, signed in as the player who set this address, and Fieldpost starts sending your game notices to it. Opening this page alone changes nothing.</p>
<form id="f"><label>Player <input id="player" name="player" required autocomplete="username"></label> <button type="submit">Confirm</button></form>
<p id="out" role="status"></p>
<p>Or from a terminal:</p><pre>${escapeHtml(curl)}</pre>
<script>
const token = ${JSON.stringify(token)};
document.getElementById('f').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const out = document.getElementById('out');
  const player = document.getElementById('player').value.trim();
  const signIn = await fetch('/local/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ player }) }).then((r) => r.json());
  if (!signIn.token) { out.textContent = signIn.message || 'Could not sign in'; return; }
  const r = await fetch('/v1/me/email/verify', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + signIn.token }, body: JSON.stringify({ token }) });
  const body = await r.json();
  out.textContent = r.ok ? 'Confirmed: ' + body.email + ' now receives your game notices.' : body.message;
});
</script>`,
  );
}

/**
 * Everything `npm start` runs: DynamoDB Local (files under dataDir/dynamodb, or in memory),
 * the table with its stream, the same router the Lambda uses served over node:http on
 * 127.0.0.1, POST /local/token, and any extensions. stop() undoes all of it.
 */
export async function startLocalRuntime(opts: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const log = opts.log ?? (() => {});
  const started: Stoppable[] = [];
  const stopAll = async () => {
    for (const s of started.splice(0).reverse()) {
      try {
        await s.stop();
      } catch (e) {
        log(`stopping ${s.name} failed: ${(e as Error).message}`);
      }
    }
  };
  try {
    const dataDir = opts.memory ? null : resolve(opts.dataDir ?? '.data');
    if (dataDir) mkdirSync(join(dataDir, 'dynamodb'), { recursive: true });

    let endpoint = opts.dynamoEndpoint;
    let dynamoPid: number | undefined;
    if (!endpoint) {
      const dynamo = await startDynamoLocal({ ...(dataDir ? { path: join(dataDir, 'dynamodb') } : {}), log });
      started.push({ name: 'DynamoDB Local', stop: () => stopJava(dynamo) });
      endpoint = dynamo.endpoint;
      dynamoPid = dynamo.process.pid;
    }
    const client = localClient(endpoint);
    started.push({ name: 'DynamoDB client', stop: async () => client.destroy() });
    const tableName = opts.tableName ?? DEFAULT_TABLE;
    await ensureTable(client, tableName);

    const secret = opts.jwtSecret ?? localSecret(dataDir);
    const ttl = opts.tokenTtlSeconds ?? 30 * DAY;
    const issue = (player: string, ttlSeconds = ttl) => {
      const now = Math.floor(Date.now() / 1000);
      return { token: signLocalJwt(secret, player, { nowSeconds: now, ttlSeconds }), expiresAt: new Date((now + ttlSeconds) * 1000).toISOString() };
    };
    // Set by the notifications extension (mail sink) once it runs; until then verification
    // mail is recorded as not sent (the player can resend).
    let mail: { mailer: Mailer | undefined; appUrl: string } = { mailer: undefined, appUrl: process.env['APP_URL'] ?? 'http://127.0.0.1' };
    // The service's clock: POST /local/clock moves it forward (a week in a second, for a demo or a test).
    const clock = localClock(opts.clock);
    // Set once the extensions' context exists; the clock route runs deadlines through it.
    const ready: { ctx?: RuntimeContext } = {};
    const afterClock: (() => Promise<unknown>)[] = [];
    const api = createApi({
      client,
      tableName,
      engines: opts.engines ?? defaultRegistry,
      // A token lives as long as the runtime's lifetime says, whatever exp a caller asked issueToken for.
      authenticate: localAuthenticator(secret, undefined, { maxAgeSeconds: ttl }),
      clock,
      ...(opts.limits ? { limits: opts.limits } : {}),
      modules:
        opts.modules ??
        routeModules.map((m) =>
          m === settingsRoutes ? createSettingsRoutes({ allowPrivateWebhooks: opts.allowPrivateWebhooks ?? true, verificationMail: () => mail }) : m,
        ),
    });
    const handler: ApiHandler = api.handler;
    const web = opts.webRoot ? webClientHandler(opts.webRoot) : undefined;

    const server = createServer((req, res) => {
      void (async () => {
        try {
          const { body, size } = await readBody(req, DEFAULT_MAX_BODY_BYTES);
          const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
          if (size > DEFAULT_MAX_BODY_BYTES) {
            const e = bodyTooLarge(size, DEFAULT_MAX_BODY_BYTES);
            return send(res, json(e.status, { code: e.code, message: e.message }));
          }
          if (path === '/local/token') {
            send(
              res,
              req.method === 'POST'
                ? tokenEndpoint(body, (p) => issue(p))
                : json(405, { code: 'http/method-not-allowed', message: 'Use POST /local/token {"player":"name"}' }),
            );
            return;
          }
          if (path === '/local/clock') {
            send(
              res,
              req.method === 'POST'
                ? await clockEndpoint(body, clock, ready.ctx, afterClock)
                : json(405, { code: 'http/method-not-allowed', message: 'Use POST /local/clock {"advanceHours": 48}' }),
            );
            return;
          }
          const page = web?.(req.method ?? 'GET', path);
          if (page) return send(res, page);
          const gamePage = /^\/games\/([A-Za-z0-9_-]{1,64})$/.exec(path);
          if (gamePage && req.method === 'GET') return send(res, await gamePageFor(api.deps, gamePage[1]!, `http://${req.headers.host ?? '127.0.0.1'}`));
          if (path === '/verify-email' && req.method === 'GET')
            return send(res, verifyPageFor(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('token'), `http://${req.headers.host ?? '127.0.0.1'}`));
          for (const ext of started) {
            const local = ext.handle?.(req.method ?? 'GET', path);
            if (local) return send(res, local);
          }
          send(res, await handler(toApiGatewayEvent(req, body)));
        } catch (e) {
          log(`request failed: ${(e as Error).stack ?? String(e)}`);
          if (!res.headersSent) send(res, json(500, { code: 'internal/error', message: 'Something went wrong on our side' }));
          else res.destroy();
        }
      })();
    });
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(opts.port ?? 0, '127.0.0.1', () => ok());
    });
    started.push({
      name: 'HTTP server',
      stop: () =>
        new Promise<void>((ok) => {
          server.close(() => ok());
          server.closeAllConnections();
        }),
    });
    const port = (server.address() as AddressInfo).port;
    const url = `http://127.0.0.1:${port}`;

    const ctx: RuntimeContext = {
      client,
      endpoint,
      tableName,
      dataDir,
      url,
      deps: api.deps,
      log,
      provideMail: (m) => (mail = m),
      afterClock: (run) => afterClock.push(run),
    };
    ready.ctx = ctx;
    for (const ext of opts.extensions ?? defaultExtensions) started.push(await ext(ctx));

    return {
      url,
      endpoint,
      tableName,
      client,
      deps: api.deps,
      dynamoPid,
      issueToken: (player, ttlSeconds) => issue(player, ttlSeconds).token,
      stop: stopAll,
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
