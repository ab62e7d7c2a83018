import { createRegistry } from './kernel/registry.js';

/** Every game system Fieldpost serves. Adding a game is one line here. */
export const registry = createRegistry([]);
