import { describe, expect, it } from 'vitest';
import { BUILT_IN_CATALOG, indexCatalog } from '../../domain/frontline-general/data/catalog.js';
import { attackProblem } from '../../domain/spearpoint-map/targets.js';
import { defenseOf, lineOfSight } from '../../domain/spearpoint-map/rules.js';
import { given } from './given.js';

/**
 * 003 §III Combat 8, the LOS example on a "portion of Village Map" with pieces A–F. The figure is
 * not printed in the text, so the positions below are a RECONSTRUCTION that satisfies each pair
 * the key names. The tile art is not printed either: the highlighted edges are given through the
 * `tiles[].edges` option.
 */
const rifle = indexCatalog(BUILT_IN_CATALOG).unit('us-rifle-squad');

describe('003 Combat 8 LOS example (reconstructed positions)', () => {
  it('B–E: blocked by a space holding a friendly unit (B at C1, a friend at C2, E at C3); a mortar fires over it', () => {
    const s = given({
      units: [
        { id: 'B', card: 'us-rifle-squad', at: 'C1' },
        { id: 'friend', card: 'us-rifle-squad', at: 'C2' },
        { id: 'E', card: 'de-rifle-squad', at: 'C3' },
      ],
    });
    expect(lineOfSight(s, 'C1', 'C3', 'us')).toBe(false);
    expect(attackProblem(s, 'us', 'B', 'E', [0])?.code).toBe('combat/no-line-of-sight');
    expect(lineOfSight(s, 'C1', 'C3', 'us', { mortar: true })).toBe(true);
  });
  it('F–C: blocked by the walls of a building between them (F at A1, building A2, C at A3), intact or ruined', () => {
    const units = [
      { id: 'F', card: 'us-rifle-squad', at: 'A1' },
      { id: 'C', card: 'de-rifle-squad', at: 'A3' },
    ];
    expect(lineOfSight(given({ units, tiles: [{ space: 'A2', kind: 'building' }] }), 'A1', 'A3', 'us')).toBe(false);
    expect(lineOfSight(given({ units, tiles: [{ space: 'A2', kind: 'building', intact: false }] }), 'A1', 'A3', 'us')).toBe(false);
  });
  it('E–C: a line across a tile with no blocking element is clear, its highlighted edges ignored (a fountain in B2 between B1 and B3)', () => {
    const s = given({ units: [], tiles: [{ space: 'B2', kind: 'fountain' }] });
    expect(lineOfSight(s, 'B1', 'B3', 'us')).toBe(true);
  });
  it('A–D: D in a tile entered over an un-highlighted portion may be targeted but gains the tile’s defensive bonus (fountain +3)', () => {
    const s = given({
      tiles: [{ space: 'B4', kind: 'fountain' }],
      units: [
        { id: 'A', card: 'us-rifle-squad', at: 'B2' },
        { id: 'D', card: 'de-rifle-squad', at: 'B4' },
      ],
    });
    expect(attackProblem(s, 'us', 'A', 'D', [0])).toBeNull();
    expect(defenseOf(s, 'D', 'B2', false)).toBe(rifle.defense + 3);
  });
  it('D–B, C–D, E–B: a target behind its feature’s highlighted edge is concealed (B in a fountain at B5, green edge west)', () => {
    const s = given({
      tiles: [{ space: 'B5', kind: 'fountain', edges: { west: 'green' } }],
      units: [
        { id: 'D', card: 'us-rifle-squad', at: 'B3' },
        { id: 'B', card: 'de-rifle-squad', at: 'B5' },
      ],
    });
    expect(attackProblem(s, 'us', 'D', 'B', [0])?.code).toBe('combat/concealed');
  });
  it('D–C: a unit fires out over its own green edge (firing from cover); over a red edge it may not', () => {
    const at = (west: string) =>
      given({
        tiles: [{ space: 'B5', kind: 'fountain', edges: { west } }],
        units: [
          { id: 'D', card: 'us-rifle-squad', at: 'B5' },
          { id: 'C', card: 'de-rifle-squad', at: 'B3' },
        ],
      });
    expect(attackProblem(at('green'), 'us', 'D', 'C', [0])).toBeNull();
    expect(attackProblem(at('red'), 'us', 'D', 'C', [0])?.code).toBe('combat/no-line-of-sight');
  });
});
