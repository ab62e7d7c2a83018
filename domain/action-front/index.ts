export { actionFront } from './engine.js';
export type { Command, Event, State } from './model.js';
