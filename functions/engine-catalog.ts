import { createLazyCatalog } from '../domain/kernel/registry.js';

/**
 * The engines of domain/registry.ts, each imported when a game of it is first touched: what the
 * Lambda handlers serve, so a cold start loads no engine and the first request loads one
 * (esbuild splits each into its own chunk). A test holds this list to the registry's.
 */
export const engineCatalog = createLazyCatalog({
  'spearpoint-1943': async () => (await import('../domain/spearpoint/engine.js')).spearpoint,
  'spearpoint-1943-map': async () => (await import('../domain/spearpoint-map/engine.js')).spearpointMap,
  'front-line': async () => (await import('../domain/front-line/engine.js')).frontLine,
  'action-front': async () => (await import('../domain/action-front/engine.js')).actionFront,
});
