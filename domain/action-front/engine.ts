import type { z } from 'zod';
import type { Emitted, GameEngine } from '../kernel/engine.js';
import { ok } from '../kernel/result.js';
import { HIDDEN } from '../kernel/visibility.js';
import { FULL_DECK } from './data/cards.js';
import { REPRESENTATIVE_SCENARIOS } from './data/scenarios.js';
import { decide } from './decide.js';
import { evolve, newUnit } from './evolve.js';
import { beginSetup } from './flow.js';
import { legalCommands, pending } from './legal.js';
import { commandSchema, SEATS, type Command, type Event, type Mission, type Seat, type State, type UnitState } from './model.js';
import { optionsSchema, resolve, type Options } from './options.js';
import { Out } from './out.js';
import { scene } from './scene.js';
import { view } from './view.js';

/**
 * Action Front! (rulebook 004) as a Fieldpost engine: hex maps, a 52-card deck instead of dice,
 * scenario cards, indirect fire and air support with drift, actions with leaders, assault,
 * suppression, digging in, line of sight, the optional rules and the scenario builder.
 *
 * Flow: (optional) both sides write their registered hexes in secret; (builder) both choose
 * forces in secret, revealed together; set-up in the scenario's order; then each game turn the
 * first player's Indirect Fire and Action Phases (the Assault and Marker Phases run by
 * themselves when it ends its actions), the second player's, and the End of Game Turn (victory,
 * reinforcements placed by their owners, the whole deck reshuffled). Readings in RULINGS.md.
 */
function initialState(o: Options): State {
  const r = resolve(o);
  const units: UnitState[] = [];
  const steps = (type: string) => r.unitTypes.find((t) => t.id === type)!.steps;
  for (const seat of SEATS) {
    let n = 0;
    const add = (type: string, entry: number) => units.push(newUnit(`${seat}-${String(++n).padStart(2, '0')}`, type, seat, entry, steps(type)));
    if (r.builder) for (const type of r.presetForces[seat] ?? []) add(type, 0);
    else for (const f of r.scenario.sides[seat].forces) for (let i = 0; i < f.count; i++) add(f.unit, f.entry);
  }
  const missions = (seat: Seat): Mission[] => r.scenario.sides[seat].support.map((m, i) => ({ id: `${seat}-m${i + 1}`, ...m, used: false }));
  const hasArtillery = (seat: Seat) => r.scenario.sides[seat].support.some((m) => m.kind === 'artillery');
  const registration = o.artilleryRegistration && SEATS.some(hasArtillery);
  const chosenForces = r.builder ? r.presetForces : { allies: [], axis: [] };
  const needForces = SEATS.some((x) => chosenForces[x] === null);
  return {
    scenario: r.scenario,
    map: r.map,
    tables: r.tables,
    unitTypes: r.unitTypes,
    builder: r.builder,
    friendlyFire: o.friendlyFire,
    registration: o.artilleryRegistration,
    phase: registration ? 'registration' : needForces ? 'forces' : 'setup',
    turn: 0,
    active: r.scenario.setsUpFirst,
    placement: null,
    units,
    markers: [],
    missions: { allies: missions('allies'), axis: missions('axis') },
    offMapUsed: false,
    airUsed: false,
    deck: { draw: [...FULL_DECK], discard: [] },
    lastCards: [],
    registered: { allies: [], axis: [] },
    registrationDone: { allies: !registration || !hasArtillery('allies'), axis: !registration || !hasArtillery('axis') },
    chosenForces,
    stepsLost: { allies: 0, axis: 0 },
    exited: { allies: 0, axis: 0 },
    result: null,
  };
}

export const actionFront: GameEngine<State, Command, Event, Options> = {
  id: 'action-front',
  title: 'Action Front!',
  version: 1,
  get optionsSchema() {
    return optionsSchema() as unknown as z.ZodType<Options>;
  },
  commandSchema,
  seats: (o) => {
    const { scenario } = resolve(o);
    return SEATS.map((id) => ({ id, name: scenario.sides[id].name }));
  },
  listing: {
    seats: [2],
    sides: [
      { id: 'allies', name: 'Allies' },
      { id: 'axis', name: 'Axis' },
    ],
    scenarios: {
      option: 'scenario',
      choices: REPRESENTATIVE_SCENARIOS.map((s) => ({
        id: s.id,
        title: s.name,
        description: `${s.flavor} ${s.turns} turns. (Or {"builder":{"type":"point-defense"}} / {"builder":{"type":"meeting-engagement"}} for the scenario builder, with "maps": [...] for several maps.)`,
      })),
    },
  },
  initialState,
  setup(state, ctx) {
    // One shuffled deck per game (004 Introduction), its order hidden; then set-up begins unless secret choices come first.
    const out = new Out(state, ctx);
    out.emit({ type: 'DeckShuffled', order: ctx.rng.shuffle(FULL_DECK) }, HIDDEN);
    if (out.s.phase === 'setup') beginSetup(out, ctx);
    return ok(out.list as readonly Emitted<Event>[]);
  },
  evolve,
  decide,
  view,
  pending,
  outcome(s) {
    if (!s.result) return undefined;
    return { winners: s.result.winners, reason: s.result.reason, score: { allies: s.stepsLost.axis, axis: s.stepsLost.allies } };
  },
  legalCommands,
  scene,
};
