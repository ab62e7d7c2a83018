export { spearpoint, optionsSchema, resolveDeck } from './engine.js';
export * from './model.js';
export * from './rules.js';
export { BUILT_IN_CATALOG, loadCatalog, indexCatalog, type CatalogError } from './data/catalog.js';
export { PRESET_DECKS, DEFAULT_PRESET } from './data/decks.js';
export { SITUATIONS, STANDARD } from './data/situations.js';
export type * from './data/schema.js';
