import { describe, expect, it } from 'vitest';
import { renderSvg, renderText, scriptedRng } from '../../domain/kernel/index.js';
import { actionFront, type State } from '../../domain/action-front/index.js';
import { REPRESENTATIVE_SCENARIOS } from '../../domain/action-front/data/scenarios.js';
import { REPRESENTATIVE_TABLES } from '../../domain/action-front/data/tables.js';
import { evolve } from '../../domain/action-front/evolve.js';
import { forceProblem } from '../../domain/action-front/forces.js';
import { inZone, quota } from '../../domain/action-front/flow.js';
import { fireTargets, seenBy } from '../../domain/action-front/rules.js';
import { fresh, play, position, refused } from './given.js';

/** Scenario cards, club-replaceable data, the scenario builder, and the picture. */
const parse = (o: unknown) => actionFront.optionsSchema.safeParse(o);
const messages = (o: unknown) => {
  const r = parse(o);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};
/** A game after its set-up has run (the deck shuffled in its printed order). */
const started = (options: unknown): State => {
  const s = fresh(options);
  const r = actionFront.setup(s, { rng: scriptedRng([]), now: '' });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.map((e) => e.event).reduce(evolve, s);
};

describe('options', () => {
  it('three scenarios, the Pacific one first, each listed with a name and a description', () => {
    expect(actionFront.listing.scenarios?.choices.map((c) => c.id)).toEqual(['edsons-ridge', 'bocage', 'river-crossing']);
    expect(actionFront.listing.scenarios?.choices.every((c) => c.title && c.description.length > 20)).toBe(true);
  });
  it('an unknown scenario is refused with the choices', () =>
    expect(messages({ scenario: '__proto__' })).toEqual(['scenario: no scenario __proto__; choose one of edsons-ridge, bocage, river-crossing']));
  it('one of scenario, scenarioCard or builder', () =>
    expect(messages({ scenario: 'bocage', builder: { type: 'point-defense' } })).toContain(': choose one of scenario, scenarioCard or builder'));
  it('unknown keys are refused', () => expect(parse({ scenario: 'bocage', constructor: 1 }).success).toBe(false));
  it('a club scenario card naming a unit the table lacks is refused', () => {
    const card = {
      ...REPRESENTATIVE_SCENARIOS[1]!,
      sides: { ...REPRESENTATIVE_SCENARIOS[1]!.sides, axis: { ...REPRESENTATIVE_SCENARIOS[1]!.sides.axis, forces: [{ unit: 'tiger', count: 1, entry: 1 }] } },
    };
    expect(messages({ scenarioCard: card })).toEqual(
      expect.arrayContaining([
        'scenarioCard.sides.axis: each side needs a troop unit',
        'scenarioCard.sides.axis.forces: no unit tiger in the Unit Value Table',
      ]),
    );
  });
  it('a club scenario card whose reinforcements enter off the map is refused', () => {
    const card = {
      ...REPRESENTATIVE_SCENARIOS[1]!,
      sides: { ...REPRESENTATIVE_SCENARIOS[1]!.sides, allies: { ...REPRESENTATIVE_SCENARIOS[1]!.sides.allies, entryHexes: ['1307'] } },
    };
    expect(messages({ scenarioCard: card })).toEqual(['scenarioCard.sides.allies.entryHexes: entry hex 1307 is not on the map']);
  });
  it('a club’s own scenario card is played as given', () => {
    const card = { ...REPRESENTATIVE_SCENARIOS[1]!, id: 'club-duel', name: 'Club Duel', turns: 3 };
    expect(fresh({ scenarioCard: card }).scenario).toMatchObject({ id: 'club-duel', turns: 3 });
  });
  it('a club’s own tables replace the representative ones whole', () => {
    const tables = { ...REPRESENTATIVE_TABLES, movementPoints: { leg: 4, towed: 1, tracked: 5, wheeled: 6 } };
    expect(fresh({ scenario: 'bocage', tables }).tables.movementPoints.leg).toBe(4);
    expect(messages({ tables: { ...REPRESENTATIVE_TABLES, suppression: ['X'] } }).length).toBeGreaterThan(0);
  });
  it('a club’s own map is used by id', () => {
    const map = { id: 'guadalcanal-ridge', name: 'Club ridge', cols: 12, rows: 5, terrain: {}, hills: [['0604']], rivers: [] };
    expect(fresh({ scenario: 'edsons-ridge', maps: [map] }).map.name).toBe('Club ridge');
  });
  it('seats are named by the scenario', () =>
    expect(actionFront.seats(actionFront.optionsSchema.parse({ scenario: 'edsons-ridge' }))).toEqual([
      { id: 'allies', name: 'US Marine Corps' },
      { id: 'axis', name: 'Imperial Japanese Army' },
    ]));
  it('the optional rules are off unless chosen', () =>
    expect([fresh({}).friendlyFire, fresh({}).registration, fresh({ friendlyFire: true }).friendlyFire]).toEqual([false, false, true]));
});

describe('set-up (004 Setting Up The Game)', () => {
  it('the scenario’s first side sets up first, in its zone, with every unit of turn 1; later units wait for their turn', () => {
    const s = started({ scenario: 'edsons-ridge' });
    expect(s.placement).toEqual({ seat: 'allies', kind: 'setup', min: 6, max: 6, placed: 0 });
    expect([inZone(s, 'allies', 'setup', '0604'), inZone(s, 'allies', 'setup', '0704')]).toEqual([true, false]);
    expect(actionFront.legalCommands(s, 'allies').some((c) => c.type === 'PlaceUnit' && c.unit === 'allies-07')).toBe(false);
  });
  it('units may set up Dug In at the owner’s option, Leg and Towed only, unless the scenario forbids it', () => {
    const s = started({ scenario: 'edsons-ridge' });
    const placed = play(s, 'allies', { type: 'PlaceUnit', unit: 'allies-01', hex: '0101', dugIn: true }).state;
    expect(placed.units.find((u) => u.id === 'allies-01')).toMatchObject({ hex: '0101', dugIn: true, status: 'map' });
    expect(actionFront.legalCommands(started({ scenario: 'river-crossing' }), 'axis').some((c) => c.type === 'PlaceUnit' && c.dugIn)).toBe(false);
  });
  it('reinforcements arrive in the hexes the scenario card indicates (Edson’s Ridge: the IJA second wave in 1201–1203)', () => {
    const s = position({ options: { scenario: 'edsons-ridge' }, at: { 'axis-01': '1001', 'allies-01': '0101' }, phase: 'reinforce', active: 'axis' });
    const placing = { ...s, placement: { seat: 'axis' as const, kind: 'reinforce' as const, min: 2, max: 2, placed: 0 } };
    const hexes = new Set(actionFront.legalCommands(placing, 'axis').flatMap((c) => (c.type === 'PlaceUnit' ? [c.hex] : [])));
    expect([...hexes].sort()).toEqual(['1201', '1202', '1203']);
    expect(refused(placing, 'axis', { type: 'PlaceUnit', unit: 'axis-08', hex: '1204' })).toBe('placement/bad-hex');
    expect(play(placing, 'axis', { type: 'PlaceUnit', unit: 'axis-08', hex: '1202' }).state.units.find((u) => u.id === 'axis-08')?.hex).toBe('1202');
  });
  it('Edson’s Ridge special rule, a night attack: no unit sees or fires farther than five hexes', () => {
    const s = position({ options: { scenario: 'edsons-ridge' }, at: { 'allies-04': '0103', 'axis-01': '0603', 'axis-02': '0703' } });
    expect(s.scenario.visibility).toBe(5);
    expect(
      fireTargets(
        s,
        s.units.find((u) => u.id === 'allies-04')!,
      ).map((u) => u.id),
    ).toEqual(['axis-01']);
    expect([seenBy(s, 'allies', '0603'), seenBy(s, 'allies', '0703')]).toEqual([true, false]);
    // Control: with no visibility rule the same line is clear (the map does not block it).
    expect(
      fireTargets(
        { ...s, scenario: { ...s.scenario, visibility: undefined } },
        s.units.find((u) => u.id === 'allies-04')!,
      ).map((u) => u.id),
    ).toEqual(['axis-01', 'axis-02']);
  });
  it('partial edge hexes may be set up in', () =>
    expect(actionFront.legalCommands(started({ scenario: 'edsons-ridge' }), 'allies')).toContainEqual({ type: 'PlaceUnit', unit: 'allies-01', hex: '0101' }));
});

describe('the scenario builder (004 Creating Your Own Scenarios)', () => {
  const pd = fresh({ builder: { type: 'point-defense', defender: 'allies' } });
  const me = fresh({ builder: { type: 'meeting-engagement', movesFirst: 'axis' } });
  it('Point Defense: defender 80 points, attacker 160; the attacker moves first and must exit a unit within 14 turns', () => {
    expect(pd.builder?.points).toEqual({ allies: 80, axis: 160 });
    expect(pd.scenario).toMatchObject({ movesFirst: 'axis', setsUpFirst: 'allies', turns: 14, victory: { kind: 'exit', side: 'axis', count: 1 } });
  });
  it('Meeting Engagement: 120 points each, most enemy steps eliminated after 15 turns; the other side sets up first', () => {
    expect(me.builder?.points).toEqual({ allies: 120, axis: 120 });
    expect(me.scenario).toMatchObject({ movesFirst: 'axis', setsUpFirst: 'allies', turns: 15, victory: { kind: 'steps' } });
  });
  it('forces are checked: points, counters in the box, the side’s own army, a troop unit', () => {
    expect(forceProblem(pd, 'allies', ['usmc-rifle', 'usmc-rifle'])).toBeUndefined();
    expect(forceProblem(pd, 'allies', Array(9).fill('usmc-rifle'))).toBe('only 4 counter(s) of USMC Rifle Platoon');
    expect(forceProblem(pd, 'allies', ['m2a2-105', 'm3-stuart', 'm3-stuart', 'usmc-raider', 'usmc-raider', 'usmc-leader'])).toBe(
      'the force costs 86 points; you have 80',
    );
    expect(forceProblem(pd, 'allies', ['ija-infantry'])).toBe('ija-infantry is not a unit of the usmc Unit Value Table');
    expect(forceProblem(pd, 'allies', ['edson'])).toBe('a force needs at least one troop unit');
    expect(forceProblem(pd, 'allies', ['__proto__'])).toBe('__proto__ is not a unit of the usmc Unit Value Table');
  });
  it('a bad saved force is refused when the game is created', () =>
    expect(messages({ builder: { type: 'meeting-engagement', forces: { allies: ['edson'] } } })).toEqual([
      'builder.forces.allies: a force needs at least one troop unit',
    ]));
  it('set-up: the Point Defense defender anywhere farther than four hexes from the attacker’s edge and all its units; the attacker up to five within three hexes of its edge', () => {
    const s = {
      ...pd,
      units: [...Array(8)].map((_, i) => ({
        ...pd.units[0]!,
        id: `u${i}`,
        owner: i < 4 ? ('allies' as const) : ('axis' as const),
        type: 'usmc-rifle',
        status: 'waiting' as const,
        entry: 0,
        hex: null,
      })),
    };
    expect(quota(s, 'allies', 'setup', 1)).toEqual({ min: 4, max: 4 });
    expect(quota(s, 'axis', 'setup', 1)).toEqual({ min: 1, max: 4 });
    // The attacker (axis) holds the east edge (column 12): the defender may use columns 1–8.
    expect([inZone(s, 'allies', 'setup', '0805'), inZone(s, 'allies', 'setup', '0901')]).toEqual([true, false]);
    expect([inZone(s, 'axis', 'setup', '1001'), inZone(s, 'axis', 'setup', '0901')]).toEqual([true, false]);
  });
  it('Meeting Engagement set-up: five units each; reinforcements at most five a turn, on one’s own edge', () => {
    const s = {
      ...me,
      units: [...Array(14)].map((_, i) => ({
        ...me.units[0]!,
        id: `u${i}`,
        owner: i < 7 ? ('allies' as const) : ('axis' as const),
        type: 'usmc-rifle',
        status: 'waiting' as const,
        entry: 0,
        hex: null,
      })),
    };
    expect(quota(s, 'allies', 'setup', 1)).toEqual({ min: 5, max: 5 });
    expect(quota(s, 'axis', 'reinforce', 2)).toEqual({ min: 1, max: 5 });
    expect([inZone(s, 'axis', 'reinforce', '1203'), inZone(s, 'axis', 'reinforce', '1103')]).toEqual([true, false]);
  });
  it('a saved builder scenario (forces filled in) is played again with no secret choice', () => {
    const saved = { type: 'meeting-engagement' as const, forces: { allies: ['usmc-rifle', 'm2-hmg'], axis: ['ija-infantry', 'ija-infantry'] } };
    const s = started({ builder: saved });
    expect(s.phase).toBe('setup');
    expect(s.units.map((u) => u.type)).toEqual(['usmc-rifle', 'm2-hmg', 'ija-infantry', 'ija-infantry']);
  });
});

describe('the picture (scene)', () => {
  const s = position({
    options: { scenario: 'edsons-ridge' },
    at: { 'allies-01': '0703', 'allies-06': '0402', 'axis-01': '0602' },
    units: { 'allies-01': { suppressed: true }, 'axis-01': { dugIn: true } },
    markers: [
      { kind: 'artillery', hex: '0703', owner: 'allies' },
      { kind: 'air', hex: '0803', owner: 'allies' },
    ],
  });
  const drawn = evolve(s, { type: 'CardsDrawn', purpose: 'fire on axis-01', cards: ['JC', 'AH'], fresh: true });
  const scene = actionFront.scene!(drawn, { kind: 'seat', seat: 'allies' });
  const text = renderText(scene);
  it('draws the hex map with terrain, units with steps and markers, Artillery and Air markers', () => {
    const map = scene.rows[0]![0]!;
    expect(map.kind).toBe('hex');
    expect(text).toContain('hex 0502');
    expect(text).toContain('jungle');
    expect(text).toContain('Suppressed');
    expect(text).toContain('Dug In');
    expect(text).toContain('Artillery marker');
    expect(text).toContain('Air Support marker');
    expect(text).toContain('USMC Raider Company');
  });
  it('shows the turn track and the cards drawn in the last action', () => {
    expect(text).toContain('Turn track: [1] 2 3 4 5 6');
    expect(text).toContain('Drawn for fire on axis-01: JC AH');
    expect(text).toContain('Special rule: no line of sight beyond 5 hexes');
  });
  it('is well-formed SVG', () => expect(renderSvg(scene)).toMatch(/^<svg[\s\S]*<\/svg>$/));
});
