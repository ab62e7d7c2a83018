import * as z from 'zod';
import { once } from '../kernel/once.js';
import { REPRESENTATIVE_MAPS } from './data/maps.js';
import { REPRESENTATIVE_SCENARIOS, scenarioSchema, type ScenarioCard } from './data/scenarios.js';
import { REPRESENTATIVE_TABLES, tablesSchema, type Tables } from './data/tables.js';
import { REPRESENTATIVE_UNITS, unitTypeSchema, type UnitType } from './data/units.js';
import { BUILDER_POINTS, forceProblem } from './forces.js';
import { joinMaps, mapProblems, mapSchema, onMap, type MapCard } from './hexmap.js';
import { other, SEATS, type Builder, type Seat, type State } from './model.js';

/**
 * Game options: a scenario by id (`scenario`), a club's own scenario card (`scenarioCard`), or
 * the scenario builder (`builder`); the club's own tables, Unit Value Table and maps
 * (`tables`, `units`, `maps`: each replaces the representative one whole); the optional rules
 * (`artilleryRegistration`, `friendlyFire`).
 */
const seat = () => z.enum(SEATS);
const DEFAULT_MAP = 'guadalcanal-ridge';
/** At most this many maps joined, and this many rows on the joined map (hex ids have two digits of row). */
const MAX_JOINED = 4;
const MAX_JOINED_ROWS = 60;
const mapIdSchema = () => z.string().min(1).max(60);
const builderSchema = () =>
  z
    .object({
      type: z.enum(['point-defense', 'meeting-engagement']),
      /** One map (default guadalcanal-ridge) … */
      map: mapIdSchema().optional(),
      /** … or several, laid side by side along the front from north to south; the points are per map (004 Pick Your Forces). */
      maps: z.array(mapIdSchema()).min(1).max(MAX_JOINED).optional(),
      /** Orientation: the side whose map edge is column 1. */
      west: seat().default('allies'),
      /** Point Defense: the defending side (default: the west side). */
      defender: seat().optional(),
      /** Meeting Engagement: the side that moves first (default: the west side). */
      movesFirst: seat().optional(),
      armies: z.object({ allies: z.string(), axis: z.string() }).strict().default({ allies: 'usmc', axis: 'ija' }),
      /** A saved builder scenario: forces already chosen (they are public, and that side picks none in the game). */
      forces: z
        .object({ allies: z.array(z.string()).max(40).optional(), axis: z.array(z.string()).max(40).optional() })
        .strict()
        .optional(),
    })
    .strict();
export type BuilderOptions = z.infer<ReturnType<typeof builderSchema>>;

/** Built on first use (a game's creation, the engine listing): a command never needs it (issue 16). */
export const optionsSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      scenario: z.string().optional(),
      scenarioCard: scenarioSchema().optional(),
      builder: builderSchema().optional(),
      tables: tablesSchema().optional(),
      units: z.array(unitTypeSchema()).min(1).max(200).optional(),
      maps: z.array(mapSchema()).min(1).max(10).optional(),
      artilleryRegistration: z.boolean().default(false),
      friendlyFire: z.boolean().default(false),
    })
    .strict()
    .superRefine((o, ctx) => {
      const chosen = [o.scenario, o.scenarioCard, o.builder].filter((x) => x !== undefined).length;
      if (chosen > 1) ctx.addIssue({ code: 'custom', path: [], message: 'choose one of scenario, scenarioCard or builder' });
      const units = o.units ?? REPRESENTATIVE_UNITS;
      const ids = new Set<string>();
      for (const u of units) {
        if (ids.has(u.id)) ctx.addIssue({ code: 'custom', path: ['units'], message: `unit ${u.id} is listed twice` });
        ids.add(u.id);
      }
      for (const m of o.maps ?? []) for (const p of mapProblems(m)) ctx.addIssue({ code: 'custom', path: ['maps', m.id], message: p });
      const map = (id: string) => mapById(o.maps, id);
      if (o.builder) {
        const b = o.builder;
        if (b.map !== undefined && b.maps !== undefined) ctx.addIssue({ code: 'custom', path: ['builder', 'maps'], message: 'give map or maps, not both' });
        const chosen = builderMaps(b).map((id) => ({ id, card: map(id) }));
        for (const { id, card } of chosen)
          if (!card) ctx.addIssue({ code: 'custom', path: ['builder', b.maps ? 'maps' : 'map'], message: `no map ${id}; maps: ${mapIds(o.maps).join(', ')}` });
        const cards = chosen.flatMap((c) => (c.card ? [c.card] : []));
        if (cards.some((m) => m.cols !== cards[0]!.cols))
          ctx.addIssue({ code: 'custom', path: ['builder', 'maps'], message: 'maps joined along the front need the same number of columns' });
        const rows = cards.reduce((n, m) => n + m.rows, 0);
        if (rows > MAX_JOINED_ROWS)
          ctx.addIssue({ code: 'custom', path: ['builder', 'maps'], message: `the joined maps have ${rows} rows; at most ${MAX_JOINED_ROWS}` });
        for (const side of SEATS)
          if (!units.some((u) => u.army === b.armies[side]))
            ctx.addIssue({ code: 'custom', path: ['builder', 'armies', side], message: `no unit of army ${b.armies[side]} in the Unit Value Table` });
        if (b.type === 'point-defense' && b.movesFirst !== undefined)
          ctx.addIssue({ code: 'custom', path: ['builder', 'movesFirst'], message: 'in a Point Defense the attacker moves first' });
        if (b.type === 'meeting-engagement' && b.defender !== undefined)
          ctx.addIssue({ code: 'custom', path: ['builder', 'defender'], message: 'a Meeting Engagement has no defender' });
        const probe = { builder: builderOf(b), unitTypes: units } as unknown as State;
        for (const side of SEATS) {
          const f = b.forces?.[side];
          const p = f && forceProblem(probe, side, f);
          if (p) ctx.addIssue({ code: 'custom', path: ['builder', 'forces', side], message: p });
        }
        return;
      }
      const card = o.scenarioCard ?? (o.scenario !== undefined ? scenarioById(o.scenario) : REPRESENTATIVE_SCENARIOS[0]);
      if (!card) {
        ctx.addIssue({
          code: 'custom',
          path: ['scenario'],
          message: `no scenario ${o.scenario}; choose one of ${REPRESENTATIVE_SCENARIOS.map((x) => x.id).join(', ')}`,
        });
        return;
      }
      const m = map(card.map);
      if (!m) {
        ctx.addIssue({ code: 'custom', path: ['scenarioCard', 'map'], message: `no map ${card.map}; maps: ${mapIds(o.maps).join(', ')}` });
        return;
      }
      for (const side of SEATS) {
        const forces = card.sides[side].forces;
        if (!forces.some((f) => units.some((u) => u.id === f.unit && u.leader === undefined)))
          ctx.addIssue({ code: 'custom', path: ['scenarioCard', 'sides', side], message: 'each side needs a troop unit' });
        for (const f of forces)
          if (!ids.has(f.unit))
            ctx.addIssue({ code: 'custom', path: ['scenarioCard', 'sides', side, 'forces'], message: `no unit ${f.unit} in the Unit Value Table` });
        for (const [i, m] of card.sides[side].support.entries())
          if (m.fromTurn !== undefined && m.fromTurn > card.turns)
            ctx.addIssue({
              code: 'custom',
              path: ['scenarioCard', 'sides', side, 'support', i, 'fromTurn'],
              message: `${m.name} from turn ${m.fromTurn}: the scenario lasts ${card.turns} turns`,
            });
        for (const h of card.sides[side].entryHexes ?? [])
          if (!onMap(m, h)) ctx.addIssue({ code: 'custom', path: ['scenarioCard', 'sides', side, 'entryHexes'], message: `entry hex ${h} is not on the map` });
      }
      for (const u of card.emplaced ?? [])
        if (!ids.has(u)) ctx.addIssue({ code: 'custom', path: ['scenarioCard', 'emplaced'], message: `no unit ${u} in the Unit Value Table` });
      if (card.victory.kind === 'hold')
        for (const h of card.victory.hexes)
          if (!onMap(m, h)) ctx.addIssue({ code: 'custom', path: ['scenarioCard', 'victory'], message: `objective ${h} is not on the map` });
    }),
);
export type Options = z.infer<ReturnType<typeof optionsSchema>>;

const scenarioById = (id: string): ScenarioCard | undefined => REPRESENTATIVE_SCENARIOS.find((s) => s.id === id);
const mapIds = (club: readonly MapCard[] | undefined) => [...new Set([...(club ?? []), ...REPRESENTATIVE_MAPS].map((m) => m.id))];
/** A club's map of that id first, else the representative one. */
const mapById = (club: readonly MapCard[] | undefined, id: string): MapCard | undefined =>
  (club ?? []).find((m) => m.id === id) ?? REPRESENTATIVE_MAPS.find((m) => m.id === id);

const ARMY_NAMES: ReadonlyMap<string, string> = new Map([
  ['usmc', 'US Marine Corps'],
  ['ija', 'Imperial Japanese Army'],
  ['us-army', 'US Army'],
  ['wehrmacht', 'Wehrmacht'],
]);

/** The builder's maps, north to south. */
const builderMaps = (b: BuilderOptions): readonly string[] => b.maps ?? [b.map ?? DEFAULT_MAP];

/** The builder's sides and budgets: 004's points are per map, so they scale with the maps joined. */
function builderOf(b: BuilderOptions): Builder {
  const maps = builderMaps(b);
  const perMap = (n: number) => n * maps.length;
  if (b.type === 'point-defense') {
    const defender = b.defender ?? b.west;
    const P = BUILDER_POINTS.pointDefense;
    const points = { [defender]: perMap(P.defender), [other(defender)]: perMap(P.attacker) } as Record<Seat, number>;
    return { type: b.type, defender, maps, points, armies: b.armies };
  }
  const P = BUILDER_POINTS.meetingEngagement;
  return { type: b.type, maps, points: { allies: perMap(P), axis: perMap(P) }, armies: b.armies };
}

/** The builder's choices as a scenario card (004 Creating Your Own Scenarios): Point Defense lasts 14 turns (the exit must come before the 15th: ruling), a Meeting Engagement 15. */
function builderCard(b: BuilderOptions, builder: Builder): ScenarioCard {
  const side = (s: Seat) => ({ name: ARMY_NAMES.get(b.armies[s]) ?? b.armies[s], forces: [], setupColumns: 3, support: [] });
  const pd = builder.type === 'point-defense';
  const first = pd ? other(builder.defender!) : (b.movesFirst ?? b.west);
  return {
    id: b.type,
    name: pd ? 'Point Defense (scenario builder)' : 'Meeting Engagement (scenario builder)',
    flavor: pd
      ? 'The attacker must exit a unit off the defender’s edge before the 15th game turn.'
      : 'The side that eliminates more enemy steps by the end of the 15th game turn wins.',
    map: builderMaps(b).join('+'),
    west: b.west,
    setsUpFirst: pd ? builder.defender! : other(first),
    movesFirst: first,
    sides: { allies: side('allies'), axis: side('axis') },
    noDugInAtStart: false,
    turns: pd ? 14 : 15,
    victory: pd ? { kind: 'exit', side: first, count: 1 } : { kind: 'steps' },
  };
}

export interface Resolved {
  readonly scenario: ScenarioCard;
  readonly map: MapCard;
  readonly tables: Tables;
  readonly unitTypes: readonly UnitType[];
  readonly builder: Builder | null;
  readonly presetForces: Readonly<Record<Seat, readonly string[] | null>>;
}

/** The scenario, map and tables a game is played with (options already checked). */
export function resolve(o: Options): Resolved {
  const tables = o.tables ?? REPRESENTATIVE_TABLES;
  const unitTypes = o.units ?? REPRESENTATIVE_UNITS;
  if (o.builder) {
    const builder = builderOf(o.builder);
    const scenario = builderCard(o.builder, builder);
    return {
      scenario,
      map: joinMaps(builder.maps.map((id) => mapById(o.maps, id)!)),
      tables,
      unitTypes,
      builder,
      presetForces: { allies: o.builder.forces?.allies ?? null, axis: o.builder.forces?.axis ?? null },
    };
  }
  const scenario = o.scenarioCard ?? (o.scenario !== undefined ? scenarioById(o.scenario)! : REPRESENTATIVE_SCENARIOS[0]!);
  return { scenario, map: mapById(o.maps, scenario.map)!, tables, unitTypes, builder: null, presetForces: { allies: null, axis: null } };
}
