import type { AnyEngine } from './engine.js';

/** A lookup of engines by id; built once from a list, never mutated. */
export interface EngineRegistry {
  get(id: string): AnyEngine | undefined;
  ids(): string[];
}

export function createRegistry(engines: readonly AnyEngine[]): EngineRegistry {
  const byId = new Map<string, AnyEngine>();
  for (const e of engines) {
    if (byId.has(e.id)) throw new Error(`engine id ${e.id} registered twice`);
    byId.set(e.id, e);
  }
  return { get: (id) => byId.get(id), ids: () => [...byId.keys()] };
}
