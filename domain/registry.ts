import { createRegistry } from './kernel/registry.js';
import { actionFront } from './action-front/index.js';
import { frontLine } from './front-line/engine.js';
import { spearpoint } from './spearpoint/index.js';
import { spearpointMap } from './spearpoint-map/index.js';

/** Every game system Fieldpost serves. Adding a game is one line here and one in functions/engine-catalog.ts (the lazy list the Lambda handlers load). */
export const registry = createRegistry([spearpoint, spearpointMap, frontLine, actionFront]);
