import { createRegistry } from './kernel/registry.js';
import { frontLine } from './front-line/engine.js';
import { spearpoint } from './spearpoint/index.js';

/** Every game system Fieldpost serves. Adding a game is one line here. */
export const registry = createRegistry([spearpoint, frontLine]);
