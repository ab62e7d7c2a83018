import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { loadAll, zodSummary } from '../../domain/kernel/index.js';
import { AppError } from '../ports.js';
import type { Authenticator } from './auth.js';
import { acceptAtEdge, explainAtEdge, isEdge, type Issues } from './edge.js';
import type { LimitName } from './limit-names.js';
import { limitHeaders, tooMany, type Limit, type LimitCounter } from './limits.js';
import type { OpenApiDocument } from './openapi.js';
import { defineRoute, type ApiDeps, type LazyRouteModule, type Method, type Reply, type RequestSchema, type Route, type RouteModule } from './types.js';

/** Bodies above this are refused with 413 before they are parsed. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export interface RouterOptions {
  readonly authenticate: Authenticator;
  /** Fair limits (http/limits.ts): counted in the table, so they hold across instances. Absent: nothing is limited (unit tests). */
  readonly limits?: { readonly counter: LimitCounter; readonly limits: Readonly<Record<LimitName, Limit>> };
  readonly maxBodyBytes?: number;
  /** Where unexpected errors are reported (CloudWatch via console.error by default). */
  readonly logError?: (err: unknown, requestId: string) => void;
}

export type ApiHandler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

interface Compiled {
  readonly route: Route;
  readonly segments: readonly ({ param: string } | { literal: string })[];
}

function compile(route: Route): Compiled {
  const segments = route.path
    .split('/')
    .filter(Boolean)
    .map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : { literal: s }));
  return { route, segments };
}

function match(c: Compiled, parts: readonly string[]): Record<string, string> | undefined {
  if (c.segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, seg] of c.segments.entries()) {
    const part = parts[i]!;
    if ('literal' in seg) {
      if (seg.literal !== part) return undefined;
    } else {
      try {
        params[seg.param] = decodeURIComponent(part);
      } catch {
        return undefined;
      }
    }
  }
  return params;
}

/** rawPath without the stage prefix (named stages put it there) and trailing slashes. */
function pathOf(event: APIGatewayProxyEventV2): string {
  let p = event.rawPath || '/';
  const stage = event.requestContext?.stage;
  if (stage && stage !== '$default' && (p === `/${stage}` || p.startsWith(`/${stage}/`))) p = p.slice(stage.length + 1) || '/';
  return p;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

function respond(reply: Reply, requestId: string): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: reply.status,
    headers: { ...JSON_HEADERS, 'x-request-id': requestId, ...reply.headers },
    ...(reply.text !== undefined ? { body: reply.text } : reply.body === undefined ? {} : { body: JSON.stringify(reply.body) }),
  };
}

/**
 * Conditional GETs: every 200 answer to a GET carries an ETag (a hash of its body), and a
 * request whose If-None-Match names it gets 304 with no body. Clients that poll (the web
 * client's live updates) then download nothing while nothing has changed.
 */
function conditional(event: APIGatewayProxyEventV2, method: Method, r: APIGatewayProxyStructuredResultV2): APIGatewayProxyStructuredResultV2 {
  if (method !== 'GET' || r.statusCode !== 200 || typeof r.body !== 'string') return r;
  const etag = `W/"${createHash('sha256').update(r.body).digest('base64url').slice(0, 27)}"`;
  const headers: Record<string, string | number | boolean> = { ...r.headers, etag };
  const asked = event.headers?.['if-none-match'];
  if (asked !== undefined && asked.split(',').some((t) => t.trim() === etag || t.trim() === etag.slice(2))) {
    delete headers['content-type'];
    return { statusCode: 304, headers };
  }
  return { ...r, headers };
}

export function errorReply(status: number, code: string, message: string, rule?: string, headers?: Record<string, string>): Reply {
  return { status, body: rule === undefined ? { code, message } : { code, message, rule }, ...(headers ? { headers } : {}) };
}

function invalid(where: string, issues: Issues): AppError {
  const plain = issues.map((i) => ({ path: (i.path ?? []).map((p) => (typeof p === 'object' ? p.key : p)), message: i.message }));
  return new AppError(400, 'http/invalid-request', `Invalid ${where}: ${zodSummary({ issues: plain })}`);
}

/**
 * A value through a route's schema: one of the edge's by its generated check (zod, imported then,
 * explains a refusal: http/edge.ts), any other by zod itself, through its Standard Schema face.
 */
async function parse(schema: RequestSchema | undefined, value: unknown, where: string): Promise<unknown> {
  if (!schema) return value;
  if (isEdge(schema)) {
    const accepted = acceptAtEdge(schema.edge, value);
    if (accepted) return accepted.value;
    const explained = await explainAtEdge(schema.edge, value);
    if (!explained.ok) throw invalid(where, explained.issues);
    return explained.value;
  }
  const r = await schema['~standard'].validate(value);
  if (r.issues) throw invalid(where, r.issues);
  return r.value;
}

const size = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`;

/** The 413 for a body of `bytes` bytes (the whole body as sent, never only the part read) over `max`. */
export function bodyTooLarge(bytes: number, max: number): AppError {
  return new AppError(
    413,
    'http/body-too-large',
    `The request body is ${bytes} bytes (${size(bytes)}); the limit is ${max} bytes (${size(max)}). Send less: a draft or options this large are not accepted`,
  );
}

function readBody(event: APIGatewayProxyEventV2, max: number): unknown {
  const raw = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.length > max) throw bodyTooLarge(bytes.length, max);
  const text = bytes.toString('utf8').trim();
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new AppError(400, 'http/malformed-json', `The request body is not valid JSON: ${(e as Error).message}`);
  }
  const bad = unusable(parsed);
  // 1e400 parses to Infinity, which canonical JSON (and so an event's hash) cannot hold.
  if (bad === 'non-finite') throw new AppError(400, 'http/malformed-json', 'The request body holds a number too large to represent (such as 1e400)');
  // JSON.parse keeps "__proto__" as an own key, but the validators and the SDK turn it into a prototype or drop it without a word.
  if (bad === 'proto-key')
    throw new AppError(400, 'http/malformed-json', 'The request body uses "__proto__" as a key; no field, seat or id may be called that');
  return parsed;
}

/** Iterative: a body may nest tens of thousands of levels deep within the size limit. */
function unusable(root: unknown): 'non-finite' | 'proto-key' | undefined {
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'number' && !Number.isFinite(v)) return 'non-finite';
    if (v !== null && typeof v === 'object') {
      if (!Array.isArray(v) && Object.hasOwn(v, '__proto__')) return 'proto-key';
      for (const x of Object.values(v)) stack.push(x);
    }
  }
  return undefined;
}

export const OPENAPI_PATH = '/v1/openapi.json';

/**
 * GET /v1/openapi.json, the document of `all()` (every route the router serves, this one too),
 * built on its first request from that very table, so it cannot drift from it. The builder,
 * the engines' view schemas and every engine are imported then, not at a cold start.
 */
function openApiRoute(deps: ApiDeps, all: () => Promise<readonly Route[]>): Route {
  let doc: Promise<OpenApiDocument> | undefined;
  const build = async () => {
    const [{ buildOpenApi }, engines, routes] = await Promise.all([import('./openapi.js'), loadAll(deps.engines), all()]);
    return buildOpenApi(routes, engines);
  };
  return defineRoute({
    method: 'GET',
    path: OPENAPI_PATH,
    summary: 'This document: every /v1 route, its security, request body and every status it answers',
    auth: 'none',
    responses: (r) => ({ 200: r.openApiDocument }),
    handle: async () => ({ status: 200, body: await (doc ??= build()), headers: { 'cache-control': 'public, max-age=300' } }),
  });
}

/** Every route the router serves: the modules' routes and GET /v1/openapi.json. */
export function routeTable(modules: readonly RouteModule[], deps: ApiDeps): Route[] {
  const routes = modules.flatMap((m) => m(deps));
  const all: Route[] = [...routes, openApiRoute(deps, async () => all)];
  return all;
}

/** A module's routes, compiled: at once for a module, on the first request it may serve for a lazy one. */
interface RouteGroup {
  serves(parts: readonly string[]): boolean;
  routes(): Promise<readonly Compiled[]>;
}

/**
 * A small router over API Gateway HTTP API (payload v2) events: path matching with
 * {params}, authentication, a body size limit, validation of params, query and body (http/edge.ts),
 * and one error shape {code, message, rule?} for everything that goes wrong. A lazy module
 * (routes/lazy.ts) is imported, and its routes and their schemas built, on the first request
 * whose path it may serve.
 */
export function createRouter(modules: readonly (RouteModule | LazyRouteModule)[], deps: ApiDeps, opts: RouterOptions): ApiHandler {
  const seen = new Set<string>();
  const compileAll = (routes: readonly Route[]): Compiled[] =>
    routes.map((route) => {
      const c = compile(route);
      const key = `${route.method} ${c.segments.map((s) => ('literal' in s ? s.literal : '{}')).join('/')}`;
      if (seen.has(key)) throw new Error(`route ${route.method} ${route.path} is declared twice`);
      seen.add(key);
      return c;
    });
  const group = (m: RouteModule | LazyRouteModule): RouteGroup => {
    if (typeof m === 'function') {
      const compiled = Promise.resolve(compileAll(m(deps)));
      return { serves: () => true, routes: () => compiled };
    }
    let loading: Promise<readonly Compiled[]> | undefined;
    return {
      serves: (parts) => {
        const path = `/${parts.join('/')}`;
        return m.prefixes.some((p) => path === p || path.startsWith(`${p}/`));
      },
      routes: () =>
        (loading ??= m
          .load()
          .then((module) => compileAll(module(deps)))
          .catch((e: unknown) => {
            loading = undefined;
            throw e;
          })),
    };
  };
  const groups = modules.map(group);
  const everyRoute = async (): Promise<Route[]> => [...(await Promise.all(groups.map((g) => g.routes()))).flat().map((c) => c.route), openapi];
  const openapi = openApiRoute(deps, everyRoute);
  const openapiCompiled = compileAll([openapi]);
  const max = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const logError =
    opts.logError ??
    ((err, id) =>
      console.error(
        JSON.stringify({
          level: 'error',
          requestId: id,
          error: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err),
        }),
      ));

  return async (event) => {
    const requestId = event.requestContext?.requestId ?? 'local';
    const method = (event.requestContext?.http?.method ?? 'GET').toUpperCase() as Method;
    const parts = pathOf(event).split('/').filter(Boolean);
    try {
      const compiled = [...(await Promise.all(groups.filter((g) => g.serves(parts)).map((g) => g.routes()))).flat(), ...openapiCompiled];
      const candidates = compiled.map((c) => ({ c, params: match(c, parts) })).filter((x) => x.params !== undefined);
      if (candidates.length === 0) throw new AppError(404, 'http/not-found', `No such endpoint: ${pathOf(event)}`);
      const hit = candidates.find((x) => x.c.route.method === method);
      if (!hit) {
        const allow = [...new Set(candidates.map((x) => x.c.route.method))].join(', ');
        return respond(
          errorReply(405, 'http/method-not-allowed', `${method} is not allowed on ${pathOf(event)}; use ${allow}`, undefined, { allow }),
          requestId,
        );
      }
      const { route } = hit.c;
      const player = route.auth === 'required' ? await opts.authenticate(event) : '';
      // Counted before anything is parsed or read: a flood costs one conditional write per request.
      let limited: Record<string, string> = {};
      const name: LimitName | undefined = route.auth === 'none' ? 'public' : route.limit;
      if (opts.limits && name) {
        const address = event.requestContext?.http?.sourceIp ?? 'unknown';
        const limit = opts.limits.limits[name];
        const v = await opts.limits.counter.take(`${name}#${route.auth === 'none' ? address : player}`, limit, Date.parse(deps.clock.now()));
        if (!v.ok) return respond(tooMany(name, limit, v, route.auth === 'none' ? `the address ${address}` : player), requestId);
        limited = limitHeaders(name, limit, v);
      }
      const params = await parse(route.params, hit.params, 'path');
      const query = await parse(route.query, event.queryStringParameters ?? {}, 'query');
      const body = route.body ? await parse(route.body, readBody(event, max), 'body') : undefined;
      const reply = await route.handle({ params, query, body, player, requestId, deps });
      return conditional(event, method, respond({ ...reply, headers: { ...limited, ...reply.headers } }, requestId));
    } catch (e) {
      return respond(toErrorReply(e, requestId, logError), requestId);
    }
  };
}

/** Seconds a client waits after a 503 before sending the same request again. */
export const RETRY_AFTER_SECONDS = 2;

/** DynamoDB's own "try again" answers, and a connection that timed out or dropped (the write may or may not have happened). */
const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TransactionConflictException',
  'TimeoutError',
  'RequestTimeout',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
]);
export function isTransient(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  return TRANSIENT.has(e.name) || (typeof code === 'string' && TRANSIENT.has(code)) || (e as { $retryable?: unknown }).$retryable !== undefined;
}

export function toErrorReply(e: unknown, requestId: string, logError: (err: unknown, requestId: string) => void): Reply {
  if (e instanceof AppError) {
    if (e.status === 500) logError(e, requestId);
    // A cap (open games, seats) frees up as games start or end: an hour is a fair time to look again.
    const headers: Record<string, string> | undefined =
      e.status === 401 ? { 'www-authenticate': 'Bearer' } : e.status === 429 ? { 'retry-after': '3600' } : undefined;
    return errorReply(e.status, e.code, e.message, e.rule, headers);
  }
  logError(e, requestId);
  if (isTransient(e))
    // The store's client has already retried with backoff and jitter (the AWS SDK's standard mode).
    return errorReply(
      503,
      'store/unavailable',
      `The game store is busy or unreachable for a moment (request ${requestId}); send the same request again, with the same commandId, after Retry-After seconds: a command is never applied twice`,
      undefined,
      { 'retry-after': String(RETRY_AFTER_SECONDS) },
    );
  // Never leak internals: the request id lets an operator find the logged error.
  return errorReply(
    500,
    'internal/error',
    `Something went wrong on our side (request ${requestId}). Sending the same request again with the same commandId is safe`,
  );
}
