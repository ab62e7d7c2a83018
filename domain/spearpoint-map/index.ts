export { spearpointMap } from './engine.js';
