/** The card game's catalogs live in the shared Frontline General core. */
export { BUILT_IN_CATALOG_V2 } from '../../frontline-general/data/catalog.js';
