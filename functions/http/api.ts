import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { EngineCatalog } from '../../domain/kernel/index.js';
import { createDynamoGameService, systemClock } from '../app/adapters.js';
import type { Clock, SeedSource } from '../ports.js';
import type { Authenticator } from './auth.js';
import type { LimitName } from './limit-names.js';
import { DynamoLimitCounter, limitsFromEnv, type Limit } from './limits.js';
import { createRouter, type ApiHandler } from './router.js';
import { lazyRouteModules } from './routes/lazy.js';
import type { ApiDeps, LazyRouteModule, RouteModule } from './types.js';

export interface ApiConfig {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly engines: EngineCatalog;
  readonly authenticate: Authenticator;
  readonly clock?: Clock;
  readonly seeds?: SeedSource;
  /** Default: every module of routes/index.ts, each built on the first request it may serve and all but the game routes imported then (routes/lazy.ts). */
  readonly modules?: readonly (RouteModule | LazyRouteModule)[];
  readonly maxBodyBytes?: number;
  readonly snapshotEvery?: number;
  /** Fair limits (http/limits.ts); default: FIELDPOST_LIMITS over DEFAULT_LIMITS. */
  readonly limits?: Readonly<Record<LimitName, Limit>>;
}

/** Wires store → service → router. Shared by the Lambda handler and the local runtime. */
export function createApi(cfg: ApiConfig): { handler: ApiHandler; deps: ApiDeps } {
  const clock = cfg.clock ?? systemClock;
  const { service } = createDynamoGameService({
    client: cfg.client,
    tableName: cfg.tableName,
    engines: cfg.engines,
    clock,
    ...(cfg.seeds ? { seeds: cfg.seeds } : {}),
    ...(cfg.snapshotEvery !== undefined ? { snapshotEvery: cfg.snapshotEvery } : {}),
  });
  const deps: ApiDeps = { service, engines: cfg.engines, clock, dynamo: { client: cfg.client, tableName: cfg.tableName } };
  const handler = createRouter(cfg.modules ?? lazyRouteModules, deps, {
    authenticate: cfg.authenticate,
    limits: { counter: new DynamoLimitCounter(cfg.client, cfg.tableName), limits: cfg.limits ?? limitsFromEnv(process.env) },
    ...(cfg.maxBodyBytes !== undefined ? { maxBodyBytes: cfg.maxBodyBytes } : {}),
  });
  return { handler, deps };
}
