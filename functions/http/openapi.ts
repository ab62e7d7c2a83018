import * as z from 'zod';
import type { $ZodType } from 'zod/v4/core';
import type { EngineRegistry } from '../../domain/kernel/index.js';
import { replySchemas, responsesOf } from './responses.js';
import { isEdge } from './edge.js';
import * as edgeSchemas from './schemas.js';
import type { Method, RequestSchema, Route, TextResponse } from './types.js';
import viewSchemas from './view-schemas.json' with { type: 'json' };
import type { ViewSchemas } from './view-schemas.js';

/**
 * GET /v1/openapi.json: the API as an OpenAPI 3.1 document, built from the router's own route
 * table, so it cannot list a route the router does not serve nor miss one it does. Every
 * request and reply schema is the route's zod schema turned into JSON Schema by zod's own
 * z.toJSONSchema (the converter GET /v1/engines already uses for engine options): OpenAPI 3.1
 * takes JSON Schema 2020-12 as it is, so a registry of named schemas and a thin walk over the
 * routes is all a builder needs, with no second library that must keep up with zod's versions.
 */

type Json = Record<string, unknown>;

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly paths: Record<string, Record<string, Json>>;
  readonly components: { readonly schemas: Record<string, Json>; readonly securitySchemes: Record<string, Json> };
  readonly security: readonly Json[];
  readonly 'x-engines': readonly { readonly id: string; readonly command: Json; readonly options: Json; readonly view: Json }[];
}

/** Statuses the router itself answers, added to a route's own by what the route takes. */
export function routerStatuses(route: Pick<Route, 'auth' | 'params' | 'query' | 'body' | 'limit'>): number[] {
  return [
    ...(route.params || route.query || route.body ? [400] : []),
    ...(route.auth === 'required' ? [401] : []),
    ...(route.body ? [413] : []),
    // A fair limit (http/limits.ts): per player on a limited route, per address on every route open without sign-in.
    ...(route.limit || route.auth === 'none' ? [429] : []),
    500,
    // The store busy or unreachable after the client's retries (router.ts isTransient).
    503,
  ];
}

/** The headers a 429 carries: when to try again, and the IETF draft's RateLimit fields. */
const TOO_MANY_HEADERS: Json = {
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } },
  RateLimit: {
    description: 'draft-ietf-httpapi-ratelimit-headers: the limit that answered, remaining requests (r) and seconds to reset (t)',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': { description: 'draft-ietf-httpapi-ratelimit-headers: the quota (q) per window (w, seconds)', schema: { type: 'string' } },
};

const REASONS: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad request: the params, query or body are not valid (code http/invalid-request, http/malformed-json, or the rule refused)',
  401: 'Not signed in: a bearer token is missing, expired or not valid',
  403: 'Forbidden: not your seat or not yours to do',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict: the state changed meanwhile, or the game is not in a state for this',
  410: 'Gone',
  413: 'Too large',
  422: 'Refused by the rules: the code and rule say which',
  429: 'Too many requests: wait Retry-After seconds',
  500: 'Internal error: sending the same request again with the same commandId is safe',
  503: 'Unavailable for a moment: nothing was written; send the same request again after Retry-After seconds',
};

export const operationId = (method: Method, path: string): string =>
  method.toLowerCase() +
  path
    .split('/')
    .filter((s) => s && s !== 'v1')
    .map((s) => s.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase()))
    .map((s) => s.charAt(0).toUpperCase() + s.slice(1))
    .join('');

const isText = (r: $ZodType | TextResponse): r is TextResponse => 'contentType' in r && typeof r.contentType === 'string';
const ref = (id: string): Json => ({ $ref: `#/components/schemas/${id}` });

/** The zod schema of a route's params, query or body: the edge's by name (http/edge.ts), or itself. */
const zodOf = (schema: RequestSchema): $ZodType => (isEdge(schema) ? edgeSchemas[schema.edge] : schema);

/** A route's params or query schema as OpenAPI parameters (each property one parameter). */
function parameters(given: RequestSchema | undefined, where: 'path' | 'query'): Json[] {
  if (!given) return [];
  const schema = zodOf(given);
  const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (js.required ?? []).includes(name),
    schema: s,
  }));
}

/** `views`: each engine's view and the scene as JSON Schema (functions/http/view-schemas.ts), functions/http/view-schemas.json unless given. */
export function buildOpenApi(routes: readonly Route[], engines: EngineRegistry, views: ViewSchemas = viewSchemas as ViewSchemas): OpenApiDocument {
  const registry = z.registry<{ id: string }>();
  const ids = new Map<$ZodType, string>();
  const name = (schema: $ZodType, id: string): string => {
    const known = ids.get(schema);
    if (known) return known;
    ids.set(schema, id);
    registry.add(schema, { id });
    return id;
  };
  const { errorBody, sharedSchemas } = replySchemas();
  for (const [id, schema] of Object.entries(sharedSchemas)) name(schema, id);

  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const op = operationId(route.method, route.path);
    const responses: Record<string, Json> = {};
    const own = responsesOf(route);
    const all: [number, $ZodType | TextResponse][] = [
      ...Object.entries(own).map(([s, r]) => [Number(s), r] as [number, $ZodType | TextResponse]),
      ...routerStatuses(route)
        .filter((s) => !Object.hasOwn(own, s))
        .map((s) => [s, errorBody] as [number, $ZodType]),
    ];
    for (const [status, r] of all.sort((a, b) => a[0] - b[0])) {
      const description = REASONS[status] ?? `Status ${status}`;
      responses[String(status)] = isText(r)
        ? { description, content: { [r.contentType]: { schema: { type: 'string' } } } }
        : {
            description,
            ...(status === 429 ? { headers: TOO_MANY_HEADERS } : status === 503 ? { headers: { 'Retry-After': TOO_MANY_HEADERS['Retry-After'] } } : {}),
            content: { 'application/json': { schema: ref(name(r, `${op}.${status}`)) } },
          };
    }
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      operationId: op,
      summary: route.summary,
      security: route.auth === 'required' ? [{ bearer: [] }] : [],
      parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(name(zodOf(route.body), `${op}.body`)) } } } } : {}),
      responses,
    };
  }

  const perEngine = engines.ids().flatMap((id) => {
    const engine = engines.get(id);
    return engine
      ? [{ id, command: ref(name(engine.commandSchema, `${id}.Command`)), options: ref(name(engine.optionsSchema, `${id}.Options`)), view: ref(`${id}.View`) }]
      : [];
  });

  const converted = z.toJSONSchema(registry, { io: 'input', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` }).schemas;
  const schemas: Record<string, Json> = {};
  for (const [id, s] of Object.entries(converted)) {
    // Each is embedded in this one document: its own $schema and fragment $id would only confuse validators.
    const { $schema: _s, $id: _i, ...rest } = s as Json;
    schemas[id] = rest;
  }
  // Each engine's view (functions/http/view-schemas.ts: the type of its `view` function).
  // A GameView's `view` is its engine's (summary.engine): the reply check of the tests validates it against that one.
  for (const { id } of perEngine)
    schemas[`${id}.View`] = Object.hasOwn(views.engines, id) ? views.engines[id]! : { description: `${id} has no view schema: any JSON value` };
  // The picture of a view is the kernel's Scene, whatever the engine.
  schemas['Scene'] = views.scene;
  const gameView = schemas['GameView'] as { properties: Record<string, Json> };
  gameView.properties['scene'] = { $ref: '#/components/schemas/Scene', description: gameView.properties['scene']?.['description'] };

  return {
    openapi: '3.1.0',
    info: {
      title: 'Fieldpost',
      version: '1',
      description:
        'Play-by-web wargames: every move a command, every command answered with the events it caused. Each engine (x-engines) has its own command and options schemas; a command the engine refuses is answered 422 with the rule.',
    },
    paths,
    components: {
      schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A Cognito ID token in AWS; POST /local/token locally' } },
    },
    security: [{ bearer: [] }],
    'x-engines': perEngine,
  };
}
