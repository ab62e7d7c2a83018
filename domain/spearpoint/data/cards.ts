/** The card game's Command and Damage decks live in the shared Frontline General core. */
export { COMMAND_CARDS, DAMAGE_CARDS } from '../../frontline-general/data/cards.js';
