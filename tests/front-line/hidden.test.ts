import { describe, expect, it } from 'vitest';
import { renderSvg, renderText, seededRng, type Viewer } from '../../domain/kernel/index.js';
import { frontLine, scene } from '../../domain/front-line/engine.js';
import type { State } from '../../domain/front-line/model.js';
import { given } from './given.js';
import { fresh, play } from './harness.js';

/**
 * Hidden information (RULINGS): Front Line is open play except the set-up, where each seat
 * places in private until every seat has finished. Supply stacks, Leadership, the Edge and every
 * die are public. Property: through a random set-up, no other viewer's view, scene or event
 * stream shows where a seat placed a unit, while the seat itself sees all of its own.
 */
const viewers = (s: State): Viewer[] => [
  ...s.order.map((seat) => ({ kind: 'seat' as const, seat, side: s.seats.find((x) => x.id === seat)!.color })),
  { kind: 'spectator' },
];

function homeSeat(s: State, unit: string): string {
  const u = s.units.find((x) => x.id === unit)!;
  return s.seats.find((x) => x.color === u.color && x.board === u.home)!.id;
}

describe('hidden information: the set-up', () => {
  for (const options of [{}, { allies: true }]) {
    it(`no viewer sees another seat's placements before every seat finishes ${JSON.stringify(options)}`, () => {
      let s = fresh(options);
      const pick = seededRng({ seed: '11'.repeat(32), gameId: 'hidden', entropy: [], counter: 0 });
      let checked = 0;
      let own = 0;
      while (s.phase === 'setup') {
        const p = frontLine.pending(s);
        const seat = p[pick.int(p.length)]!.seat;
        const legal = frontLine.legalCommands(s, seat);
        const c =
          legal.find((x) => x.type === 'FinishSetup') ??
          legal.filter((x) => x.type === 'PlaceUnit')[pick.int(legal.filter((x) => x.type === 'PlaceUnit').length)]!;
        const r = frontLine.decide(s, c, seat, { rng: pick, now: '' });
        if (!r.ok) throw new Error(r.error.message);
        for (const e of r.value) {
          s = frontLine.evolve(s, e.event);
          if (e.event.type === 'UnitPlaced') expect(e.visibility).toEqual({ to: 'seats', seats: [seat] });
        }
        if (s.phase !== 'setup') break;
        for (const v of viewers(s)) {
          const view = frontLine.view(s, v) as ReturnType<typeof frontLine.view> & { units: { id: string; square: string | null }[] };
          const pic = renderText(scene(s, v));
          for (const u of s.units) {
            if (u.sq === null) continue;
            const mine = v.kind === 'seat' && homeSeat(s, u.id) === v.seat;
            const shown = view.units.find((x) => x.id === u.id)!.square;
            if (mine) {
              expect(shown).toBe(u.sq);
              own++;
            } else {
              expect(shown).toBeNull();
              expect(pic).not.toContain(u.id);
              checked++;
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(100);
      expect(own).toBeGreaterThan(100);
      // Once revealed, every viewer sees every unit.
      const view = frontLine.view(s, { kind: 'spectator' }) as { units: { square: string | null }[] };
      expect(view.units.filter((u) => u.square !== null)).toHaveLength(15 * s.seats.length);
    });
  }
});

describe('the picture', () => {
  it('draws each battlefield with heights, cities, units and their face, supply, the Edge and the last action', () => {
    const { s, ids } = given(
      [
        { seat: 'green', kind: 'infantry', sq: 'H3', as: 'A' },
        { seat: 'red', kind: 'tank', sq: 'J4', active: false },
      ],
      { mover: 'green', stack: 'capital' },
    );
    const after = play(s, 'green', { type: 'Move', unit: ids.A!, to: 'H2' }).s;
    const sc = scene(after, { kind: 'seat', seat: 'red', side: 'red' });
    expect(sc.rows[0]).toHaveLength(1);
    const grid = sc.rows[0]![0]!;
    expect(grid).toMatchObject({ kind: 'grid', cols: 10, rows: 6 });
    const cells = grid.kind === 'grid' ? grid.cells : [];
    expect(cells.find((c) => c.col === 7 && c.row === 1)).toMatchObject({ highlight: true, pieces: [expect.objectContaining({ id: ids.A, highlight: true })] });
    expect(cells.find((c) => c.col === 3 && c.row === 0)).toMatchObject({ terrain: 'mountain', height: 2 });
    expect(cells.find((c) => c.col === 9 && c.row === 3)!.pieces[0]!.markers).toEqual([{ label: 'Disrupted', tone: 'bad' }]);
    expect(cells.find((c) => c.col === 8 && c.row === 2)!.markers[0]!.label).toBe('red industry');
    const text = renderText(sc);
    expect(text).toContain('Edge');
    expect(text).toContain('Stack in use: capital, 2 chit(s) left');
    expect(renderSvg(sc)).toContain('<svg');
    const allies = scene(given([], { options: { allies: true } }).s, { kind: 'spectator' });
    expect(allies.rows[0]!.map((r) => r.id)).toEqual(['battlefield-1', 'battlefield-2']);
  });
});
