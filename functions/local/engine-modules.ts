import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRegistry, type AnyEngine, type EngineRegistry } from '../../domain/kernel/index.js';

const looksLikeEngine = (x: unknown): x is AnyEngine =>
  typeof x === 'object' &&
  x !== null &&
  typeof (x as AnyEngine).id === 'string' &&
  typeof (x as AnyEngine).decide === 'function' &&
  typeof (x as AnyEngine).evolve === 'function' &&
  typeof (x as AnyEngine).setup === 'function';

/**
 * Engines exported by extra modules (`--engines tests/fixtures/dice-race.ts`): lets the local
 * runtime and the verifier serve an engine under development, or the test fixture, without
 * registering it in domain/registry.ts.
 */
export async function loadEngineModules(paths: readonly string[]): Promise<AnyEngine[]> {
  const out: AnyEngine[] = [];
  for (const p of paths) {
    const mod = (await import(pathToFileURL(resolve(p)).href)) as Record<string, unknown>;
    const found = Object.values(mod).filter(looksLikeEngine);
    if (found.length === 0) throw new Error(`${p} exports no game engine`);
    out.push(...found);
  }
  return out;
}

/** The base registry plus extra engines (an extra with a known id replaces nothing: it is an error). */
export function withEngines(base: EngineRegistry, extra: readonly AnyEngine[]): EngineRegistry {
  const all = base.ids().map((id) => base.get(id)!);
  for (const e of extra) if (!all.includes(e)) all.push(e);
  return createRegistry(all);
}
