import { describe, expect, it } from 'vitest';
import { BUILT_IN_CATALOG, indexCatalog } from '../../domain/frontline-general/data/catalog.js';
import { attackProblem } from '../../domain/spearpoint-map/targets.js';
import { sidesCrossed } from '../../domain/spearpoint-map/map.js';
import { concealedByEdges, defenseOf, lineOfSight } from '../../domain/spearpoint-map/rules.js';
import { finalTiles } from '../../domain/spearpoint-map/view.js';
import { given } from './given.js';
import { engine } from './play.js';

/** 003 §III Combat 8 (l.655–663): red and green highlighted tile edges, the `tiles[].edges` option. */
const rifle = indexCatalog(BUILT_IN_CATALOG).unit('us-rifle-squad');

describe('the sides a centre-to-centre line leaves a space by (map.ts sidesCrossed)', () => {
  it.each([
    ['B5', 'B7', ['east']],
    ['B5', 'B3', ['west']],
    ['B5', 'A5', ['north']],
    ['B5', 'C5', ['south']],
    ['B5', 'A6', ['north', 'east']], // through the corner: both sides
    ['B5', 'C4', ['south', 'west']],
    ['B5', 'A7', ['east']], // flatter than 45°
    ['A1', 'C2', ['south']], // steeper than 45°
    ['B5', 'B5', []],
  ])('%s → %s leaves by %j', (from, to, sides) => {
    expect(sidesCrossed(from, to)).toEqual(sides);
  });
});

describe('LOS into a feature tile: red or green edges conceal, un-highlighted sides give the tile bonus', () => {
  // D in a fountain at B5 (bonus 3), its west side green and its north side red; the other sides plain.
  const at = (space: string) =>
    given({
      tiles: [{ space: 'B5', kind: 'fountain', edges: { west: 'green', north: 'red', east: 'none' } }],
      units: [
        { id: 'a', card: 'us-rifle-squad', at: space },
        { id: 'D', card: 'de-rifle-squad', at: 'B5' },
      ],
    });
  it.each([
    ['B3', 'combat/concealed'], // across the green west edge
    ['A3', 'combat/concealed'], // flatter than 45°: the west edge
    ['A5', 'combat/concealed'], // across the red north edge
    ['A4', 'combat/concealed'], // through the north-west corner
    ['C4', 'combat/concealed'], // through the south-west corner: touches the green west edge
    ['C5', null], // the plain south side
    ['B7', null], // the east side, named 'none'
    ['C6', null], // the south-east corner, both plain
  ])('an attacker in %s: %s', (space, code) => {
    const s = at(space);
    expect(concealedByEdges(s, space, 'B5')).toBe(code !== null);
    expect(attackProblem(s, 'us', 'a', 'D', [0])?.code ?? null).toBe(code);
    if (code === null) expect(defenseOf(s, 'D', space, false)).toBe(rifle.defense + 3);
  });
  it('a mortar’s attack on the whole space is not stopped by the edges', () => {
    const s = given({
      tiles: [{ space: 'B5', kind: 'fountain', edges: { north: 'green', south: 'green', east: 'green', west: 'green' } }],
      units: [
        { id: 'm', card: 'us-mortar-squad', at: 'B1' },
        { id: 'D', card: 'de-rifle-squad', at: 'B5' },
      ],
    });
    expect(attackProblem(s, 'us', 'm', 'space:B5', [0])).toBeNull();
  });
  it('units fighting within the tile ignore its edges; a ruined tile has none', () => {
    const raid = given({
      tiles: [{ space: 'B5', kind: 'fountain', edges: { south: 'red', north: 'red', east: 'red', west: 'red' } }],
      units: [
        { id: 'a', card: 'us-rifle-squad', at: 'B5' },
        { id: 'D', card: 'de-rifle-squad', at: 'B5' },
      ],
    });
    expect(attackProblem(raid, 'us', 'a', 'D', [0])).toBeNull();
    // A ruined building: REPRESENTATIVE default edges belong to its intact side only.
    const ruined = given({
      tiles: [{ space: 'B5', kind: 'building', intact: false }],
      units: [
        { id: 'a', card: 'us-rifle-squad', at: 'C5' },
        { id: 'D', card: 'de-rifle-squad', at: 'B5' },
      ],
    });
    expect(attackProblem(ruined, 'us', 'a', 'D', [0])).toBeNull();
  });
  it('REPRESENTATIVE defaults keep buildings, bunkers and Panzernests closed to direct attack from every side', () => {
    for (const kind of ['building', 'bunker', 'panzernest'])
      for (const space of ['B3', 'A5', 'C5', 'B7', 'A6']) {
        const s = given({
          tiles: [{ space: 'B5', kind }],
          units: [
            { id: 'a', card: 'us-rifle-squad', at: space },
            { id: 'D', card: 'de-rifle-squad', at: 'B5' },
          ],
        });
        expect(concealedByEdges(s, space, 'B5')).toBe(true);
        expect(attackProblem(s, 'us', 'a', 'D', [0])?.code).toMatch(/^combat\/(impervious|concealed)$/);
      }
  });
  it('a bunker stays impervious across a side a club leaves plain', () => {
    const s = given({
      tiles: [{ space: 'B5', kind: 'bunker', edges: { south: 'none' } }],
      units: [
        { id: 'a', card: 'us-rifle-squad', at: 'C5' },
        { id: 'D', card: 'de-rifle-squad', at: 'B5' },
      ],
    });
    expect(concealedByEdges(s, 'C5', 'B5')).toBe(false);
    expect(attackProblem(s, 'us', 'a', 'D', [0])?.code).toBe('combat/impervious');
  });
});

describe('LOS out of a feature tile: blocked over a red edge, allowed over green (firing from cover) and plain sides', () => {
  const from = (target: string) =>
    given({
      tiles: [{ space: 'B5', kind: 'fountain', edges: { east: 'red', west: 'green' } }],
      units: [
        { id: 'a', card: 'us-rifle-squad', at: 'B5' },
        { id: 'T', card: 'de-rifle-squad', at: target },
      ],
    });
  it.each([
    ['B7', false], // over the red east edge
    ['A6', false], // the north-east corner touches the red edge
    ['A7', false], // flatter than 45°: the east edge
    ['B3', true], // over the green west edge
    ['C5', true], // the plain south side
    ['A5', true], // the plain north side
  ])('a unit in B5 at a target in %s: clear %s', (target, clear) => {
    const s = from(target);
    expect(lineOfSight(s, 'B5', target, 'us')).toBe(clear);
    expect(attackProblem(s, 'us', 'a', 'T', [0])?.code ?? null).toBe(clear ? null : 'combat/no-line-of-sight');
  });
  it('a red edge also stops a spotter in the tile from seeing out', () => {
    const s = from('B7');
    expect(lineOfSight(s, 'B5', 'B8', 'us')).toBe(false);
    expect(lineOfSight(s, 'B5', 'B2', 'us')).toBe(true);
  });
});

describe('the `tiles[].edges` option and the listed commands', () => {
  const parse = (tile: object) => engine.optionsSchema.safeParse({ tiles: [{ space: 'B5', kind: 'fountain', ...tile }] });
  it.each([
    [{ edges: { north: 'blue' } }, 'tiles.0.edges.north'],
    [{ edges: { up: 'red' } }, 'tiles.0.edges'],
    [{ edges: { north: 'red' }, intact: false }, 'tiles.0.edges'],
  ])('refuses %j at %s', (tile, path) => {
    const r = parse(tile);
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join('.'))).toContain(path);
  });
  it('stores only the highlighted sides, and carries them over', () => {
    const s = given({ tiles: [{ space: 'B5', kind: 'fountain', edges: { north: 'none', east: 'red' } }], units: [] });
    expect(s.tiles.B5).toEqual({ kind: 'fountain', intact: true, edges: { east: 'red' } });
    expect(finalTiles(s)).toEqual([{ space: 'B5', kind: 'fountain', intact: true, edges: { east: 'red' } }]);
    expect(parse({ edges: { north: 'none', east: 'red', south: 'green', west: 'none' } }).success).toBe(true);
  });
  it('legalCommands offers no attack on a concealed unit, and offers it across a plain side', () => {
    const at = (edges: Record<string, string>) =>
      given({
        tiles: [{ space: 'B5', kind: 'fountain', edges }],
        units: [
          { id: 'a', card: 'us-rifle-squad', at: 'B3' },
          { id: 'D', card: 'de-rifle-squad', at: 'B5' },
        ],
      });
    const aims = (edges: Record<string, string>) =>
      engine.legalCommands(at(edges), 'us').filter((c) => c.type === 'DeclareAttack' && c.attacker === 'a' && c.target === 'D');
    expect(aims({ west: 'green' })).toEqual([]);
    expect(aims({ east: 'green' }).length).toBeGreaterThan(0);
  });
});
