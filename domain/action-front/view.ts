import { deckCounts } from '../kernel/deck.js';
import type { Viewer } from '../kernel/visibility.js';
import { isPartial } from './hexmap.js';
import { pending } from './legal.js';
import { SEATS, type Seat, type State, type UnitState } from './model.js';
import { typeOf } from './rules.js';

/**
 * What one viewer may see. Everything on the table is public: the map, every unit and marker,
 * the scenario card and its fire support, the cards drawn (face up) and how many are left. A seat
 * also sees its own registered hexes and, while forces are being chosen, its own chosen force;
 * the other side's stay hidden until the forces are revealed (registered hexes: until the end).
 * The auditor (after the end) also sees the deck's order.
 */
export function view(s: State, viewer: Viewer) {
  const auditor = viewer.kind === 'auditor';
  const sees = (seat: Seat) => auditor || (viewer.kind === 'seat' && viewer.seat === seat);
  const forcesOpen = s.phase !== 'registration' && s.phase !== 'forces';
  const unitView = (u: UnitState) => {
    const t = typeOf(s, u);
    return {
      id: u.id,
      type: t.id,
      name: t.name,
      owner: u.owner,
      hex: u.hex,
      status: u.status,
      ...(u.entry > 1 ? { entersOnTurn: u.entry } : {}),
      steps: u.steps,
      suppressed: u.suppressed,
      dugIn: u.dugIn,
      actionsTaken: u.actions,
      twoActions: u.twoActions,
      firedIndirect: u.firedIndirect,
      counter: {
        class: t.class,
        infantry: t.infantry,
        ...(t.leader !== undefined ? { leaderBonus: t.leader } : {}),
        rateOfFire: t.rateOfFire,
        hard: t.hard,
        soft: t.soft,
        range: t.range,
        training: t.training,
        ...(t.armor !== undefined ? { armor: t.armor } : {}),
        transport: t.transport,
        indirect: t.indirect,
        points: t.points,
      },
    };
  };
  return {
    scenario: s.scenario,
    map: { ...s.map, partialHexes: partials(s) },
    builder: s.builder,
    optionalRules: { artilleryRegistration: s.registration, friendlyFire: s.friendlyFire },
    representative:
      'The Combat Results Tables, Player Aid Card, Unit Value Table, maps and scenario cards are representative stand-ins: 004 does not print them.',
    tables: s.tables,
    unitValueTable: s.builder ? s.unitTypes.filter((t) => t.army === s.builder!.armies.allies || t.army === s.builder!.armies.axis) : [],
    phase: s.phase,
    turn: s.turn,
    active: s.active,
    placement: s.placement,
    units: s.units.map(unitView),
    markers: s.markers,
    missions: s.missions,
    offMapUsed: s.offMapUsed,
    airUsed: s.airUsed,
    deck: { ...deckCounts(s.deck), discardPile: s.deck.discard, ...(auditor ? { deckOrder: s.deck.draw } : {}) },
    lastCards: s.lastCards,
    registeredHexes: Object.fromEntries(SEATS.filter(sees).map((x) => [x, s.registered[x]])),
    forces: Object.fromEntries(SEATS.map((x) => [x, { sealed: s.chosenForces[x] !== null, ...(forcesOpen || sees(x) ? { units: s.chosenForces[x] } : {}) }])),
    ...(s.builder && forcesOpen ? { savedBuilder: savedBuilder(s) } : {}),
    stepsLost: s.stepsLost,
    exited: s.exited,
    pending: pending(s),
    result: s.result,
  };
}

const partials = (s: State): string[] => {
  const out: string[] = [];
  for (let col = 1; col <= s.map.cols; col++)
    for (let row = 1; row <= s.map.rows; row++) {
      const h = `${String(col).padStart(2, '0')}${String(row).padStart(2, '0')}`;
      if (isPartial(s.map, h)) out.push(h);
    }
  return out;
};

/** The builder scenario with both forces filled in: pass it back as `options.builder` to play it again (004 Creating Your Own Scenarios). */
function savedBuilder(s: State) {
  const b = s.builder!;
  return {
    type: b.type,
    ...(b.maps.length > 1 ? { maps: b.maps } : { map: b.maps[0] }),
    west: s.scenario.west,
    ...(b.type === 'point-defense' ? { defender: b.defender } : { movesFirst: s.scenario.movesFirst }),
    armies: b.armies,
    forces: { allies: s.chosenForces.allies, axis: s.chosenForces.axis },
  };
}
