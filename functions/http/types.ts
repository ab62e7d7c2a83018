import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { z } from 'zod';
import type { EngineRegistry } from '../../domain/kernel/index.js';
import type { Clock } from '../ports.js';
import type { GameService } from '../app/game-service.js';

/** What every route module may use. Built once per Lambda container (or local runtime). */
export interface ApiDeps {
  readonly service: GameService;
  readonly engines: EngineRegistry;
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

/** One endpoint. Path segments in braces are parameters: '/v1/games/{id}/join'. */
export interface Route {
  readonly method: Method;
  readonly path: string;
  /** 'required': a verified player (401 otherwise). 'none': public (health). */
  readonly auth: 'required' | 'none';
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  handle(ctx: RouteContext<unknown, unknown, unknown>): Promise<Reply>;
}

/** A group of routes built from the shared dependencies; list it in routes/index.ts. */
export type RouteModule = (deps: ApiDeps) => readonly Route[];

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** Declares a route with its handler typed by its zod schemas. */
export function defineRoute<
  PS extends z.ZodType | undefined = undefined,
  QS extends z.ZodType | undefined = undefined,
  BS extends z.ZodType | undefined = undefined,
>(r: {
  method: Method;
  path: string;
  auth: 'required' | 'none';
  params?: PS;
  query?: QS;
  body?: BS;
  handle(ctx: RouteContext<Out<PS>, Out<QS>, Out<BS>>): Promise<Reply>;
}): Route {
  return r as unknown as Route;
}
