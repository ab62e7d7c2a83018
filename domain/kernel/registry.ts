import type { AnyEngine } from './engine.js';

/**
 * Engines by id, each loaded when first asked for: what the application services take. A Lambda
 * bundle loads an engine's code, data and schemas only when a game of it is first touched
 * (functions/engine-catalog.ts); a registry has them all loaded.
 */
export interface EngineCatalog {
  ids(): string[];
  load(id: string): Promise<AnyEngine | undefined>;
}

/** A lookup of engines by id, all loaded; built once from a list, never mutated. */
export interface EngineRegistry extends EngineCatalog {
  get(id: string): AnyEngine | undefined;
}

export function createRegistry(engines: readonly AnyEngine[]): EngineRegistry {
  const byId = new Map<string, AnyEngine>();
  for (const e of engines) {
    if (byId.has(e.id)) throw new Error(`engine id ${e.id} registered twice`);
    byId.set(e.id, e);
  }
  return { get: (id) => byId.get(id), ids: () => [...byId.keys()], load: async (id) => byId.get(id) };
}

/**
 * A catalog that imports each engine's module on the first `load` of its id and keeps it. A
 * failed import is not kept, so the next `load` tries again; an engine whose id is not the one it
 * is listed under is an error, not a silent mix-up.
 */
export function createLazyCatalog(loaders: Readonly<Record<string, () => Promise<AnyEngine>>>): EngineCatalog {
  const loading = new Map<string, Promise<AnyEngine>>();
  const load = (id: string): Promise<AnyEngine | undefined> => {
    if (!Object.hasOwn(loaders, id)) return Promise.resolve(undefined);
    let p = loading.get(id);
    if (!p) {
      p = loaders[id]!().then((engine) => {
        if (engine.id !== id) throw new Error(`the engine listed as ${id} calls itself ${engine.id}`);
        return engine;
      });
      loading.set(id, p);
      p.catch(() => loading.delete(id));
    }
    return p;
  };
  return { ids: () => Object.keys(loaders), load };
}

/** Every engine of a catalog loaded, as a registry (the engine listing and the OpenAPI document need them all). */
export async function loadAll(catalog: EngineCatalog): Promise<EngineRegistry> {
  const engines = await Promise.all(catalog.ids().map((id) => catalog.load(id)));
  return createRegistry(engines.filter((e) => e !== undefined));
}
