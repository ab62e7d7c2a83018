import type { components, paths } from './api-types.js';

/**
 * The bodies the API answers, as its OpenAPI document describes them (GET /v1/openapi.json;
 * `npm run api-types` writes api-types.ts from it, and a test fails when that file is stale).
 * The pages type what they receive with these, so a reply that changes shape breaks `tsc -p web`
 * instead of a page at run time.
 */
type Ok<Op> = Op extends { responses: infer R }
  ? R extends { 200: { content: { 'application/json': infer T } } }
    ? T
    : R extends { 201: { content: { 'application/json': infer T } } }
      ? T
      : never
  : never;

/** The JSON body of a route's success (200, or 201 for a creation). */
export type Reply<P extends keyof paths, M extends 'get' | 'post' | 'put' | 'delete'> = Ok<paths[P][M]>;

/** GET /v1/games/{id} and POST /v1/games/{id}/preview. */
export type GameView = components['schemas']['GameView'];
/** One event as GET /v1/games/{id}/events and the export show it. */
export type ApiEvent = components['schemas']['Event'];
/** One engine of GET /v1/engines. */
export type EngineInfo = Reply<'/v1/engines', 'get'>['engines'][number];
