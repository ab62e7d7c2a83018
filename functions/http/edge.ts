import type { output } from 'zod/v4/core';
import type { EDGE_SCHEMAS } from './edge-checks.js';
import * as checks from './edge-checks.generated.js';
import type { Check } from './edge-checks.generated.js';
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
  const shape = checks.shapes[name];
  if (!shape) return { value: value as EdgeOutput<K> };
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = shape.keep ? {} : { ...source };
  for (const k of shape.keep ?? []) if (Object.hasOwn(source, k)) out[k] = source[k];
  for (const k of shape.numbers ?? []) if (out[k] !== undefined) out[k] = Number(out[k]);
  // Numbers taken from text meet the output's bounds too (eventsAfter of at most 1e9, say).
  const outputCheck = (checks as unknown as Record<string, Check | undefined>)[`${name}Output`];
  return !outputCheck || outputCheck(out) ? { value: out as EdgeOutput<K> } : undefined;
}

/** Why the checks refused the value: zod's issues (the schema imported and built now), or its output should zod accept it after all. */
export type Explained =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: readonly { path: readonly PropertyKey[]; message: string }[] };

export async function explainAtEdge(name: EdgeName, value: unknown): Promise<Explained> {
  const { explain } = await import('./edge-explain.js');
  return explain(name, value);
}
