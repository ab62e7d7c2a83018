import { deckCounts } from '../kernel/deck.js';
import type { Viewer } from '../kernel/visibility.js';
import type { Side } from '../frontline-general/data/schema.js';
import { SIDES, type State } from './model.js';
import { cardOf } from './rules.js';
import { SPACES } from './map.js';

/**
 * What a seat may see: the whole map, both rear lines, aircraft, attacks and scores; its own hand
 * and Command cards; of the other side only how many cards it holds; of every deck only counts.
 */
export function view(s: State, viewer: Viewer) {
  const me: Side | null = viewer.kind === 'seat' && (viewer.seat === 'us' || viewer.seat === 'de') ? viewer.seat : null;
  return {
    scenario: { id: s.scenario.id, title: s.scenario.title, map: s.scenario.map },
    turn: s.turn,
    phase: s.phase,
    /** In the declaration phase: aircraft and artillery first ('support'), then all other units ('ground'). */
    declarationStep: s.phase === 'declaration' ? s.declStep : null,
    initiative: s.initiative,
    active: s.active,
    weatherClear: s.weatherClear,
    tiles: s.tiles,
    smoke: s.smoke,
    units: Object.values(s.units).map((u) => ({
      id: u.id,
      card: u.convoy ? 'convoy' : u.card,
      title: cardOf(s, u.id).title,
      side: u.side,
      at: u.at,
      crew: u.crew,
      endurance: u.endurance,
      damageCard: u.damageCard,
      path: u.path,
      turnsLeft: u.turnsLeft,
      shaken: u.shakenUntil >= s.turn,
      immobilized: u.immobilized,
      attached: u.attached,
    })),
    attacks: s.attacks,
    lastAttack: s.lastAttack,
    sabotaged: s.sabotaged,
    opportunityFire: s.opfire,
    convoy: { entered: s.convoy.entered, arrived: s.convoy.arrived, destroyed: s.convoy.destroyed },
    seats: Object.fromEntries(
      SIDES.map((side) => {
        const st = s.seats[side];
        const mine = side === me;
        return [
          side,
          {
            score: st.score,
            overrun: st.overrun,
            exited: st.exited,
            initiativeBonus: st.initiativeBonus,
            reserves: st.reserves.length,
            support: st.support.length,
            handCount: st.hand.length,
            commandCount: st.commands.length,
            ...(mine ? { hand: st.hand.map((id) => ({ id, card: s.cards[id]!.card })), commands: [...st.commands] } : {}),
          },
        ];
      }),
    ),
    commandDeck: deckCounts(s.commandDeck),
    damageDeck: deckCounts(s.damageDeck),
    result: s.result,
    /**
     * Once the game is over: its final feature tiles in the shape of the `tiles` option, to carry
     * the village or line over into the next scenario (003 §IV What Now, Sarge?, Gunter's Return,
     * Crimson Snow).
     */
    carryOver: s.result ? { tiles: finalTiles(s) } : null,
  };
}

/** The feature tiles as they stand, in the shape of the `tiles` option (003 §IV carry-over). */
export const finalTiles = (s: State) => SPACES.flatMap((space) => (Object.hasOwn(s.tiles, space) ? [{ space, ...s.tiles[space]! }] : []));
