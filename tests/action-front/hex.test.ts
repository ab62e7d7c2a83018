import { describe, expect, it } from 'vitest';
import { axisDirection, hexDistance, hexId, hexNeighbours, lineThroughHex, parseHexId } from '../../domain/kernel/hex.js';
import { REPRESENTATIVE_MAPS } from '../../domain/action-front/data/maps.js';
import { REPRESENTATIVE_TABLES as T } from '../../domain/action-front/data/tables.js';
import {
  airDrift,
  airEntryHexes,
  driftCandidates,
  firesUpHill,
  isEdge,
  isPartial,
  leftOrRight,
  mapProblems,
  sightBlocker,
  stepCost,
  type MapCard,
} from '../../domain/action-front/hexmap.js';

const h = (id: string) => parseHexId(id)!;
const ridge = REPRESENTATIVE_MAPS.find((m) => m.id === 'guadalcanal-ridge')!;
const river = REPRESENTATIVE_MAPS.find((m) => m.id === 'river-crossing')!;

describe('kernel hex geometry (printed numbering: column-row, even columns shifted down)', () => {
  it('neighbours of an even (shifted) column reach the same and the next row east and west', () =>
    expect(hexNeighbours(h('0602')).map(hexId)).toEqual(['0601', '0702', '0703', '0603', '0503', '0502']));
  it('neighbours of an odd column reach the same and the previous row', () =>
    expect(hexNeighbours(h('0803')).map(hexId).sort()).toEqual(['0703', '0704', '0802', '0804', '0903', '0904'].sort()));
  it('distance counts hex steps', () =>
    expect([hexDistance(h('0402'), h('0604')), hexDistance(h('0402'), h('0802')), hexDistance(h('0101'), h('0101'))]).toEqual([3, 4, 0]));
  it('a column is a straight hex row; a knight-like offset is not', () =>
    expect([axisDirection(h('0805'), h('0803')), axisDirection(h('0402'), h('0604'))]).toEqual([0, undefined]));
  it('a line along a hexside is inside neither hex; through the middle it is inside', () => {
    expect(lineThroughHex(h('0303'), h('0503'), h('0403'))).toBeUndefined();
    expect(lineThroughHex(h('0303'), h('0503'), h('0402'))).toBeUndefined();
    expect(lineThroughHex(h('0602'), h('0604'), h('0603'))).toBeDefined();
  });
  it('hex ids are four digits', () =>
    expect([parseHexId('0403'), parseHexId('__proto__'), parseHexId('403')]).toEqual([{ col: 4, row: 3 }, undefined, undefined]));
});

/** A map with every kind of blocking terrain (004 Line Of Sight). */
const LOS_MAP: MapCard = {
  id: 'los',
  name: 'line-of-sight test map',
  cols: 10,
  rows: 7,
  terrain: { '0403': 'building', '0603': 'forest', '0405': 'jungle' },
  hills: [['0702', '0703', '0802']],
  rivers: [],
};

describe('line of sight, table-driven (004 Line Of Sight)', () => {
  const cases: [string, string, string | undefined, string[]][] = [
    // [from, to, blocked by (undefined: clear), artillery markers]
    ['0203', '0403', undefined, []], // into a building hex, not beyond
    ['0203', '0603', 'building 0403', []], // through a building
    ['0602', '0603', undefined, []], // into forest
    ['0602', '0604', 'forest 0603', []], // through forest
    ['0404', '0405', undefined, []], // into jungle
    ['0404', '0406', 'jungle 0405', []], // through jungle
    ['0303', '0503', undefined, []], // exactly along the hexside of the building 0403: never blocked
    ['0601', '0703', undefined, []], // one hill hexside (up onto the hill)
    ['0703', '0904', undefined, []], // one hill hexside (off the hill)
    ['0601', '0904', 'two hexsides of hill 1', []], // over the hill: two hexsides of the same hill
    ['0303', '0703', 'artillery marker 0503', ['0503']], // an Artillery marker on the way
    ['0303', '0503', 'artillery marker 0503', ['0503']], // an Artillery marker in the target hex itself (ruling)
    ['0503', '0303', undefined, ['0503']], // … but not in the observer's own hex
    ['0101', '0501', undefined, []], // open ground
  ];
  it('a scenario’s visibility special rule ends every line at that many hexes (0101 → 0601 is five hexes)', () =>
    expect([
      sightBlocker(LOS_MAP, '0101', '0601', { artilleryMarkers: new Set(), visibility: 5 }),
      sightBlocker(LOS_MAP, '0101', '0701', { artilleryMarkers: new Set(), visibility: 5 }),
    ]).toEqual([undefined, 'beyond the visibility of 5 hexes']));
  for (const [from, to, blocked, markers] of cases)
    it(`${from} → ${to}${markers.length ? ` (Artillery marker in ${markers.join()})` : ''}: ${blocked ?? 'clear'}`, () =>
      expect(sightBlocker(LOS_MAP, from, to, { artilleryMarkers: new Set(markers) })).toBe(blocked));
});

describe('movement (Player Aid Card, representative) and hexsides', () => {
  it('clear ground costs 1', () => expect(stepCost(T, ridge, 'leg', '0101', '0102')).toBe(1));
  it('jungle costs Leg 2 and is closed to Tracked', () =>
    expect([stepCost(T, ridge, 'leg', '0402', '0502'), stepCost(T, ridge, 'tracked', '0402', '0502')]).toEqual([2, null]));
  it('climbing a hill hexside costs 1 more, moving along the hill does not', () =>
    expect([stepCost(T, ridge, 'leg', '0504', '0604'), stepCost(T, ridge, 'leg', '0604', '0704')]).toEqual([2, 1]));
  it('a river hexside costs 1 more (a Tracked unit needs 2 MP), Wheeled may not cross', () =>
    expect([
      stepCost(T, river, 'tracked', '0601', '0701'),
      stepCost(T, river, 'wheeled', '0601', '0701'),
      stepCost(T, river, 'tracked', '0603', '0703'),
    ]).toEqual([2, null, 1]));
  it('firing across a hill hexside from below, not from on the hill', () =>
    expect([firesUpHill(ridge, '0402', '0604'), firesUpHill(ridge, '0704', '0604')]).toEqual([true, false]));
  it('the representative maps are sound', () => expect(REPRESENTATIVE_MAPS.flatMap(mapProblems)).toEqual([]));
  it('a club map with a river between hexes that do not touch is refused', () =>
    expect(mapProblems({ ...LOS_MAP, rivers: [['0101', '0303']] })).toEqual(['river 0101/0303 is not a hexside']));
});

describe('partial and edge hexes', () => {
  it('the first and last columns and the bottom hex of a shifted column are half hexes', () =>
    expect(['0101', '1203', '0805', '0705', '0603'].map((x) => isPartial(ridge, x))).toEqual([true, true, true, false, false]));
  it('edge hexes have a neighbour off the map', () => expect(['0601', '0705', '0603'].map((x) => isEdge(ridge, x))).toEqual([true, true, false]));
});

describe('drift (004 Resolving Artillery, step 4; Resolving Air Support, step 4)', () => {
  it('Over 1 from 0602 toward the east edge: two hexes equally near (a card decides)', () =>
    expect(driftCandidates(ridge, '0602', 1, 'east')).toEqual(['0702', '0703']));
  it('Over 2 from 0602: one hex straight across', () => expect(driftCandidates(ridge, '0602', 2, 'east')).toEqual(['0802']));
  it('Short 1 toward the west edge', () => expect(driftCandidates(ridge, '0602', 1, 'west')).toEqual(['0502', '0503']));
  it('a drift off the map lands nowhere', () => expect(driftCandidates(ridge, '0201', 2, 'west')).toEqual([]));
  it('a half-row off the map leaves one hex', () => expect(driftCandidates(ridge, '0301', 1, 'east')).toEqual(['0401']));
  it('facing east, black (left) is north and red (right) south; facing west the other way round', () =>
    expect([
      leftOrRight(['0702', '0703'], 'east', 'right'),
      leftOrRight(['0702', '0703'], 'east', 'left'),
      leftOrRight(['0702', '0703'], 'west', 'right'),
    ]).toEqual(['0703', '0702', '0702']));
  it('air entry hexes are map-edge hexes in the six straight rows through the target', () => {
    const entries = airEntryHexes(ridge, '0803');
    expect(entries).toContain('0805');
    expect(entries).toContain('0801');
    expect(entries).not.toContain('0803');
    expect(entries).not.toContain('0905');
  });
  it('air Short moves toward the entry hex and stops there; Over moves on, off the map it is lost', () =>
    expect([
      airDrift(ridge, '0803', '0805', 'short', 1),
      airDrift(ridge, '0803', '0805', 'short', 3),
      airDrift(ridge, '0803', '0805', 'over', 2),
      airDrift(ridge, '0803', '0805', 'over', 3),
    ]).toEqual(['0804', '0805', '0801', undefined]));
});
