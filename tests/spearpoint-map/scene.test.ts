import { describe, expect, it } from 'vitest';
import { renderSvg, renderText, type Region } from '../../domain/kernel/index.js';
import { given, run } from './given.js';
import { engine } from './play.js';

describe('spearpoint-1943-map picture: the 3×9 map, tiles, unit status, the last attack’s line, hands as the viewer may see them', () => {
  const s0 = given({
    scenario: 'gunters-return',
    tiles: [
      { space: 'A5', kind: 'building' },
      { space: 'B6', kind: 'crops', intact: false },
    ],
    units: [
      { id: 'sherman', card: 'us-m4a1-sherman', crew: 'us-tank-crew', at: 'C5' },
      { id: 'g', card: 'de-rifle-squad', at: 'B5' },
    ],
  });
  const attacked = run(
    { ...run(s0, { type: 'DeclareAttack', attacker: 'sherman', target: 'g', weapons: [0] }).state, phase: 'resolution' },
    {
      type: 'ResolveAttack',
      attackId: 'atk-1',
    },
    'us',
    [3, 4],
  ).state;
  const hand = {
    ...attacked,
    seats: { ...attacked.seats, us: { ...attacked.seats.us, hand: ['us-p01'] } },
    cards: { ...attacked.cards, 'us-p01': { card: 'us-sniper', owner: 'us' as const } },
  };

  it('draws the map as a 3×9 grid with its tiles and the units in their spaces, with status markers', () => {
    const scene = engine.scene!(hand, { kind: 'seat', seat: 'us' });
    const grid = scene.rows.flat().find((r) => r.kind === 'grid') as Extract<Region, { kind: 'grid' }>;
    expect([grid.rows, grid.cols]).toEqual([3, 9]);
    const cell = (row: number, col: number) => grid.cells.find((c) => c.row === row && c.col === col);
    expect(cell(0, 4)!.terrain).toBe('building');
    expect(cell(1, 5)!.terrain).toBe('crops (ruined)');
    expect(cell(2, 4)!.pieces.map((p) => p.id)).toEqual(['sherman']);
    const g = cell(1, 4)!.pieces.find((p) => p.id === 'g');
    expect(g?.details[0]).toMatch(/^Endurance \d+$/);
  });
  it('marks a bunker’s or trench’s entry/exit arrows and its highlighted edges on its space', () => {
    const s = given({ tiles: [{ space: 'A5', kind: 'bunker', arrows: ['south', 'west'], edges: { north: 'red', south: 'green', east: 'none' } }], units: [] });
    const grid = engine.scene!(s, { kind: 'spectator' })
      .rows.flat()
      .find((r) => r.kind === 'grid') as Extract<Region, { kind: 'grid' }>;
    expect(grid.cells.find((c) => c.row === 0 && c.col === 4)!.markers).toEqual([
      { label: 'entry/exit south, west', tone: 'info' },
      { label: 'red edge north', tone: 'bad' },
      { label: 'green edge south', tone: 'good' },
    ]);
  });
  it('draws the line of sight of the last attack, from the attacker to its target', () => {
    const scene = engine.scene!(hand, { kind: 'seat', seat: 'de' });
    expect(scene.links).toEqual([expect.objectContaining({ from: { piece: 'sherman' }, kind: 'sight', highlight: true })]);
    expect(renderSvg(scene)).toContain('<svg');
    expect(renderText(scene)).toContain('Sherman');
  });
  it('shows a hand face up to its owner and as a face-down count to the other side', () => {
    const lane = (seat: 'us' | 'de') => {
      const sc = engine.scene!(hand, { kind: 'seat', seat });
      const area = sc.rows.flat().find((r) => r.kind === 'area' && r.id === 'lines-us') as Extract<Region, { kind: 'area' }>;
      return area.lanes.find((l) => l.label === 'Hand')!.pieces;
    };
    expect(lane('us').map((p) => p.label)).toEqual(['Sniper']);
    expect(lane('de')).toEqual([expect.objectContaining({ faceDown: true, count: 1 })]);
    expect(JSON.stringify(lane('de'))).not.toContain('sniper');
  });
});
