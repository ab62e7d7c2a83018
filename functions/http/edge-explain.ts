import * as z from '../../domain/kernel/zod-mini.js';
import type { EdgeName, Explained } from './edge.js';
import * as schemas from './schemas.js';

/**
 * A refusal of the generated checks, explained by the zod schema they were generated from
 * (imported on the first refusal): the message is zod's. Should zod accept what the checks
 * refused, zod is right, the request goes on, and the error log says the checks are stale.
 */
export function explain(name: EdgeName, value: unknown): Explained {
  const r = z.safeParse(schemas[name], value);
  if (r.success) {
    console.error(JSON.stringify({ level: 'error', error: `the generated check ${name} refused what its zod schema accepts: run npm run api-types` }));
    return { ok: true, value: r.data };
  }
  return { ok: false, issues: r.error.issues };
}
