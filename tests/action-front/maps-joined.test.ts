import { describe, expect, it } from 'vitest';
import { scriptedRng } from '../../domain/kernel/index.js';
import { actionFront, type State } from '../../domain/action-front/index.js';
import { REPRESENTATIVE_MAPS } from '../../domain/action-front/data/maps.js';
import { REPRESENTATIVE_TABLES } from '../../domain/action-front/data/tables.js';
import { evolve } from '../../domain/action-front/evolve.js';
import { forceProblem } from '../../domain/action-front/forces.js';
import { allZone, quota } from '../../domain/action-front/flow.js';
import { airEntryHexes, isEdge, isPartial, joinMaps, neighbours, sightBlocker, stepCost, terrainOf, type MapCard } from '../../domain/action-front/hexmap.js';
import { view } from '../../domain/action-front/view.js';
import { fresh } from './given.js';

/**
 * The scenario builder on several maps (004 Creating Your Own Scenarios: "one or more" maps,
 * the points "per map"): the maps joined along the front (ruling), the budgets scaled, the joined
 * map's geometry and line of sight across the join, the set-up zones and reinforcement limits.
 */
const messages = (o: unknown) => {
  const r = actionFront.optionsSchema.safeParse(o);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};
const started = (options: unknown): State => {
  const s = fresh(options);
  const r = actionFront.setup(s, { rng: scriptedRng([]), now: '' });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.map((e) => e.event).reduce(evolve, s);
};
const [RIDGE, BOCAGE] = [REPRESENTATIVE_MAPS[0]!, REPRESENTATIVE_MAPS[1]!];
/** 112 points of USMC: over one map's 80 for a defender, within two maps' 160. */
const DEFENDER_112 = [
  'usmc-rifle',
  'usmc-rifle',
  'usmc-rifle',
  'usmc-rifle',
  'usmc-raider',
  'usmc-raider',
  'usmc-engineer',
  'usmc-engineer',
  'm2-hmg',
  'm2-hmg',
];

describe('budgets scale with the maps (004 Pick Your Forces: points per map)', () => {
  it('Point Defense on two maps: defender 160, attacker 320; on one map 80 and 160', () => {
    expect(fresh({ builder: { type: 'point-defense', defender: 'allies', maps: ['guadalcanal-ridge', 'normandy-bocage'] } }).builder?.points).toEqual({
      allies: 160,
      axis: 320,
    });
    expect(fresh({ builder: { type: 'point-defense', defender: 'axis', maps: ['guadalcanal-ridge'] } }).builder?.points).toEqual({ allies: 160, axis: 80 });
  });
  it('Meeting Engagement on three maps: 360 each', () =>
    expect(fresh({ builder: { type: 'meeting-engagement', maps: ['river-crossing', 'guadalcanal-ridge', 'river-crossing'] } }).builder?.points).toEqual({
      allies: 360,
      axis: 360,
    }));
  it('a force is checked against the scaled budget: 112 points is too much for one map’s defender, within two maps’', () => {
    const one = fresh({ builder: { type: 'point-defense', defender: 'allies' } });
    const two = fresh({ builder: { type: 'point-defense', defender: 'allies', maps: ['guadalcanal-ridge', 'guadalcanal-ridge'] } });
    expect(forceProblem(one, 'allies', DEFENDER_112)).toBe('the force costs 112 points; you have 80');
    expect(forceProblem(two, 'allies', DEFENDER_112)).toBeUndefined();
    expect(messages({ builder: { type: 'point-defense', defender: 'allies', forces: { allies: DEFENDER_112 } } })).toEqual([
      'builder.forces.allies: the force costs 112 points; you have 80',
    ]);
    expect(
      messages({ builder: { type: 'point-defense', defender: 'allies', maps: ['guadalcanal-ridge', 'normandy-bocage'], forces: { allies: DEFENDER_112 } } }),
    ).toEqual([]);
  });
});

describe('choosing the maps: clear errors', () => {
  it('unknown maps (hostile ids too), map and maps together, maps of different widths, too many rows', () => {
    expect(messages({ builder: { type: 'meeting-engagement', maps: ['guadalcanal-ridge', '__proto__'] } })).toEqual([
      'builder.maps: no map __proto__; maps: guadalcanal-ridge, normandy-bocage, river-crossing',
    ]);
    expect(messages({ builder: { type: 'meeting-engagement', map: 'normandy-bocage', maps: ['guadalcanal-ridge'] } })).toEqual([
      'builder.maps: give map or maps, not both',
    ]);
    const narrow = { id: 'narrow', name: 'Narrow', cols: 8, rows: 5, terrain: {}, hills: [], rivers: [] };
    expect(messages({ maps: [narrow], builder: { type: 'meeting-engagement', maps: ['guadalcanal-ridge', 'narrow'] } })).toEqual([
      'builder.maps: maps joined along the front need the same number of columns',
    ]);
    const tall = { id: 'tall', name: 'Tall', cols: 12, rows: 25, terrain: {}, hills: [], rivers: [] };
    expect(messages({ maps: [tall], builder: { type: 'meeting-engagement', maps: ['tall', 'tall', 'tall'] } })).toEqual([
      'builder.maps: the joined maps have 75 rows; at most 60',
    ]);
    expect(messages({ builder: { type: 'meeting-engagement', maps: [] } })[0]).toMatch(/^builder\.maps: /);
    expect(messages({ builder: { type: 'meeting-engagement', maps: Array(5).fill('guadalcanal-ridge') } })[0]).toMatch(/^builder\.maps: /);
  });
});

describe('the joined map (maps side by side along the front)', () => {
  const joined = joinMaps([RIDGE, BOCAGE]);
  it('keeps the columns, adds the rows; the second map’s hexes renumber below the first’s', () => {
    expect(joined).toMatchObject({ id: 'guadalcanal-ridge+normandy-bocage', cols: 12, rows: 11 });
    // Ridge 0502 jungle stays; bocage 0302 forest becomes 0307; the ridge's hill stays, bocage's hexes move down five rows.
    expect([terrainOf(joined, '0502'), terrainOf(joined, '0307'), terrainOf(joined, '0302')]).toEqual(['jungle', 'forest', 'clear']);
    expect(joined.hills[0]).toEqual(['0604', '0704', '0705']);
    expect([BOCAGE.terrain['0606'], terrainOf(joined, '0611')]).toEqual(['building', 'building']);
  });
  it('hexes at the join are neighbours across it, and the half hexes of the join are whole', () => {
    // Odd column: 0105 (the ridge's last row) touches 0106 (bocage's first). Even column: 0205 touches 0106 and 0306.
    expect(neighbours(joined, '0105')).toContain('0106');
    expect(neighbours(joined, '0205')).toEqual(expect.arrayContaining(['0206', '0106', '0306']));
    expect(neighbours(RIDGE, '0205')).not.toContain('0106');
    expect([isPartial(RIDGE, '0205'), isPartial(joined, '0205'), isPartial(joined, '0211')]).toEqual([true, false, true]);
    // The join is no map edge: an air strike cannot enter there, a unit does not leave there.
    expect([isEdge(RIDGE, '0605'), isEdge(joined, '0605'), isEdge(joined, '0611')]).toEqual([true, false, true]);
    expect(airEntryHexes(joined, '0603')).not.toContain('0605');
  });
  it('moving across the join pays the terrain of the other map', () => {
    // 0307 is bocage's forest 0302: entering it costs what forest costs, from the ridge side of the join too.
    expect(stepCost(REPRESENTATIVE_TABLES, joined, 'leg', '0306', '0307')).toBe(REPRESENTATIVE_TABLES.terrain.forest.move.leg);
    expect(stepCost(REPRESENTATIVE_TABLES, joined, 'leg', '0305', '0306')).toBe(REPRESENTATIVE_TABLES.terrain.clear.move.leg);
  });
  it('line of sight across the join: blocked by the other map’s terrain, clear without it, a hill still counts', () => {
    const plain = (id: string): MapCard => ({ id, name: id, cols: 6, rows: 4, terrain: {}, hills: [], rivers: [] });
    const south = { ...plain('south'), terrain: { '0301': 'jungle' as const } };
    const across = joinMaps([plain('north'), south]);
    const none = { artilleryMarkers: new Set<string>() };
    // 0303 (north) to 0307 (south) runs straight down the column through 0305, the south map's 0301.
    expect(sightBlocker(across, '0303', '0307', none)).toBe('jungle 0305');
    expect(sightBlocker(joinMaps([plain('north'), plain('south')]), '0303', '0307', none)).toBeUndefined();
    // Into the jungle, not beyond: the jungle hex itself is seen from the other map.
    expect(sightBlocker(across, '0303', '0305', none)).toBeUndefined();
    // An Artillery marker on the join blocks the same way.
    expect(sightBlocker(joinMaps([plain('north'), plain('south')]), '0303', '0307', { artilleryMarkers: new Set(['0304']) })).toBe('artillery marker 0304');
    // A hill on the south map: a line from the north map over it crosses two of its hexsides.
    const hill = joinMaps([plain('north'), { ...plain('south'), hills: [['0302']] }]);
    expect(sightBlocker(hill, '0302', '0308', none)).toBe('two hexsides of hill 1');
  });
});

describe('set-up zones and reinforcements on joined maps (004 Set Up)', () => {
  const maps = ['guadalcanal-ridge', 'guadalcanal-ridge'];
  it('Point Defense: the defender anywhere farther than four hexes from the attacker’s edge, on every map; the attacker within three of its edge, up to five', () => {
    const defender = started({ builder: { type: 'point-defense', defender: 'allies', maps, forces: { allies: DEFENDER_112, axis: ['ija-infantry'] } } });
    expect(defender.placement).toMatchObject({ seat: 'allies', kind: 'setup', min: 10, max: 10 });
    const zone = allZone(defender, defender.placement!);
    expect(zone).toHaveLength(8 * 10);
    expect(zone).toEqual(expect.arrayContaining(['0101', '0810', '0806']));
    expect(zone).not.toContain('0901');
    const attacker = { ...defender, placement: { seat: 'axis' as const, kind: 'setup' as const, min: 1, max: 5, placed: 0 } };
    const theirs = allZone(attacker, attacker.placement);
    expect(theirs).toHaveLength(3 * 10);
    expect(theirs).toEqual(expect.arrayContaining(['1001', '1210', '1106']));
  });
  it('reinforcements: at most five a turn whatever the number of maps (004 prints the five without "per map"), anywhere on one’s own edge of the joined map', () => {
    const s = started({
      builder: { type: 'meeting-engagement', maps, forces: { allies: DEFENDER_112, axis: Array(6).fill('ija-infantry').concat(['ija-hmg', 'ija-hmg']) } },
    });
    expect(s.placement).toMatchObject({ seat: 'axis', kind: 'setup', min: 5, max: 5 });
    expect(quota(s, 'allies', 'reinforce', 2)).toEqual({ min: 1, max: 5 });
    const edge = allZone(s, { seat: 'allies', kind: 'reinforce', min: 1, max: 5, placed: 0 });
    expect(edge).toEqual(['0101', '0102', '0103', '0104', '0105', '0106', '0107', '0108', '0109', '0110']);
  });
  it('the picture draws the joined map: the second map’s terrain under its new numbers', () => {
    const s = started({
      builder: { type: 'meeting-engagement', maps: ['guadalcanal-ridge', 'normandy-bocage'], forces: { allies: ['usmc-rifle'], axis: ['ija-infantry'] } },
    });
    const grid = actionFront.scene!(s, { kind: 'spectator' }).rows[0]![0]!;
    const cells = grid.kind === 'hex' ? grid.cells : [];
    const cell = (hex: string) => cells.find((c) => c.markers?.some((m) => m.label === `hex ${hex}`));
    expect(cell('0307')).toMatchObject({ col: 6, row: 2, terrain: 'forest' });
    expect(cell('0302')).toBeUndefined();
  });
  it('the saved builder scenario names the maps, and passed back plays on the same joined map', () => {
    const s = started({ builder: { type: 'meeting-engagement', maps, forces: { allies: ['usmc-rifle'], axis: ['ija-infantry'] } } });
    const saved = view(s, { kind: 'seat', seat: 'allies' }).savedBuilder!;
    expect(saved).toMatchObject({ maps, forces: { allies: ['usmc-rifle'], axis: ['ija-infantry'] } });
    expect(saved).not.toHaveProperty('map');
    const again = started({ builder: saved });
    expect(again.map).toEqual(s.map);
    expect(again.builder?.points).toEqual({ allies: 240, axis: 240 });
    expect(
      view(started({ builder: { type: 'meeting-engagement', forces: { allies: ['usmc-rifle'], axis: ['ija-infantry'] } } }), { kind: 'auditor' }).savedBuilder,
    ).toMatchObject({
      map: 'guadalcanal-ridge',
    });
  });
});
