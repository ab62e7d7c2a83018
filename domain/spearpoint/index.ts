export { spearpoint, optionsSchema } from './engine.js';
export * from './model.js';
export * from './rules.js';
export { BUILT_IN_CATALOG, loadCatalog, indexCatalog } from '../frontline-general/data/catalog.js';
export { PRESET_DECKS } from './data/decks.js';
export type * from '../frontline-general/data/schema.js';
