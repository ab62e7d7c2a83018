/** The card game's unit cards live in the shared Frontline General core. */
export { DE_UNITS, US_UNITS } from '../../frontline-general/data/units.js';
