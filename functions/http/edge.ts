import type { output } from 'zod/v4/core';
import type { EDGE_SCHEMAS } from './edge-checks.js';
import { checks, shapes, type Check } from './edge-checks.generated.js';
import type * as schemas from './schemas.js';

/**
 * A request schema of functions/http/schemas.ts, named for the router, which checks it with the
 * function generated from it (functions/http/edge-checks.ts) and loads zod only to explain a
 * refusal: a game's requests are served without building a zod schema (issue 16).
 */
export type EdgeName = (typeof EDGE_SCHEMAS)[number];
export interface EdgeSchema<K extends EdgeName = EdgeName> {
  readonly edge: K;
}
/** What the zod schema of that name parses a value to. */
export type EdgeOutput<K extends EdgeName> = output<(typeof schemas)[K]>;

export const edge = <K extends EdgeName>(name: K): EdgeSchema<K> => ({ edge: name });

export const isEdge = (schema: object): schema is EdgeSchema => typeof (schema as { edge?: unknown }).edge === 'string';

/** The value as zod would parse it, when the generated checks accept it; undefined when they refuse it. */
export function acceptAtEdge<K extends EdgeName>(name: K, value: unknown): { value: EdgeOutput<K> } | undefined {
  if (!checks[name](value)) return undefined;
  const shape = shapes[name];
  if (!shape) return { value: value as EdgeOutput<K> };
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = shape.keep ? {} : { ...source };
  for (const k of shape.keep ?? []) if (Object.hasOwn(source, k)) out[k] = source[k];
  for (const k of shape.numbers ?? []) if (out[k] !== undefined) out[k] = Number(out[k]);
  // Numbers taken from text meet the output's bounds too (eventsAfter of at most 1e9, say).
  const outputCheck = (checks as unknown as Record<string, Check | undefined>)[`${name}Output`];
  return !outputCheck || outputCheck(out) ? { value: out as EdgeOutput<K> } : undefined;
}

/** What a schema says is wrong, as Standard Schema puts it (zod's issues, or any other library's). */
export type Issues = readonly { readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined; readonly message: string }[];

/** Why the checks refused the value: zod's issues (the schema imported and built now), or its output should zod accept it after all. */
export type Explained = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: Issues };

/**
 * A refusal of the generated checks, explained by the zod schema they were generated from
 * (imported on the first refusal), so the message is zod's. Should zod accept what the checks
 * refused, zod is right, the request goes on, and the error log says the checks are stale.
 */
export async function explainAtEdge(name: EdgeName, value: unknown): Promise<Explained> {
  const r = await (await import('./schemas.js'))[name]['~standard'].validate(value);
  if (r.issues) return { ok: false, issues: r.issues };
  console.error(JSON.stringify({ level: 'error', error: `the generated check ${name} refused what its zod schema accepts: run npm run api-types` }));
  return { ok: true, value: r.value };
}
