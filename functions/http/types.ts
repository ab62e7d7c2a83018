import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { $ZodType, output } from 'zod/v4/core';
import type { EngineCatalog } from '../../domain/kernel/index.js';
import type { EdgeName, EdgeOutput, EdgeSchema } from './edge.js';
import type { Clock } from '../ports.js';
import type { GameService } from '../app/game-service.js';
import type { LimitName } from './limit-names.js';
import type { ReplySchemas } from './responses.js';

/** What every route module may use. Built once per Lambda container (or local runtime). */
export interface ApiDeps {
  readonly service: GameService;
  readonly engines: EngineCatalog;
  readonly clock: Clock;
  /** The one table, for read-model routes (inbox, lobby, settings) that query it directly. */
  readonly dynamo: { readonly client: DynamoDBClient; readonly tableName: string };
  /** Largest export answered in one response (default EXPORT_LIMIT_BYTES, under Lambda's 6 MB). */
  readonly exportLimitBytes?: number;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface Reply {
  readonly status: number;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** A body that is not JSON (an SVG picture), sent as it is: set its content-type in `headers`. */
  readonly text?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface RouteContext<P, Q, B> {
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  /** The signed-in player; never null on routes with auth 'required'. */
  readonly player: string;
  readonly requestId: string;
  readonly deps: ApiDeps;
}

/** A reply that is not JSON (board.svg): its content type, described in the document as a string body. */
export interface TextResponse {
  readonly contentType: string;
}

/**
 * Every status a route answers itself, with the schema of its body (errors: errorBody in
 * http/responses.ts). The router adds the statuses it answers for every route (400 for bad
 * params, query or body, 401 without sign-in, 413, 429, 500, 503), so a route lists only its
 * own. GET /v1/openapi.json is built from these, and every reply the end-to-end tests receive
 * is checked against it: a status or body that is not listed here fails a test.
 */
export type Responses = Readonly<Record<number, $ZodType | TextResponse>>;

/** A route's replies: as they are, or named from the shared reply schemas (http/responses.ts), built only when the document is. */
export type RouteResponses = Responses | ((replies: ReplySchemas) => Responses);

/** One endpoint. Path segments in braces are parameters: '/v1/games/{id}/join'. */
export interface Route {
  readonly method: Method;
  readonly path: string;
  /** One line for the API document. */
  readonly summary: string;
  /** 'required': a verified player (401 otherwise). 'none': public (health). */
  readonly auth: 'required' | 'none';
  readonly params?: RequestSchema;
  readonly query?: RequestSchema;
  readonly body?: RequestSchema;
  readonly responses: RouteResponses;
  /** The per-player limit this route counts against (http/limits.ts); routes open without sign-in all count against 'public', per address. */
  readonly limit?: LimitName;
  handle(ctx: RouteContext<unknown, unknown, unknown>): Promise<Reply>;
}

/** A group of routes built from the shared dependencies; list it in routes/index.ts. */
export type RouteModule = (deps: ApiDeps) => readonly Route[];

/**
 * A route module loaded (imported, in routes/lazy.ts, unless it came with the handler) and its
 * routes built on the first request it may serve: one whose path is one of `prefixes` or starts
 * with one of them and a '/'.
 */
export interface LazyRouteModule {
  readonly prefixes: readonly string[];
  load(): Promise<RouteModule>;
}

/** What a request's params, query or body must fit: a zod schema, or one of the edge's by name (http/edge.ts). */
export type RequestSchema = $ZodType | EdgeSchema;

type Out<S> = S extends $ZodType ? output<S> : S extends EdgeSchema<infer K extends EdgeName> ? EdgeOutput<K> : undefined;

/** Declares a route with its handler typed by its schemas. */
export function defineRoute<
  PS extends RequestSchema | undefined = undefined,
  QS extends RequestSchema | undefined = undefined,
  BS extends RequestSchema | undefined = undefined,
>(r: {
  method: Method;
  path: string;
  summary: string;
  auth: 'required' | 'none';
  responses: RouteResponses;
  limit?: LimitName;
  params?: PS;
  query?: QS;
  body?: BS;
  handle(ctx: RouteContext<Out<PS>, Out<QS>, Out<BS>>): Promise<Reply>;
}): Route {
  return r as unknown as Route;
}
