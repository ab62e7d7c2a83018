import { describe, expect, it } from 'vitest';
import { scriptedRng } from '../../domain/kernel/index.js';
import { attackTargets, columnFor, diceFor, unitById } from '../../domain/front-line/board.js';
import { frontLine } from '../../domain/front-line/engine.js';
import type { State } from '../../domain/front-line/model.js';
import { given } from './given.js';
import { play } from './harness.js';

/**
 * The worked examples EX0–EX9 (002 p.5). Their figures (p.6) are not in the text: each position
 * here is a RECONSTRUCTION on the (representative) Main battlefield from the example's words,
 * with the example's letters as unit names:
 *
 *      ABCDEFGHIJ
 *    1 b.hm.m.dh.
 *    2 pAh.o.b..m
 *    3 .W.d.dh.Ih      Green's cities B2 (Air Base), B3 (Capital), B4 (Industry);
 *    4 hI.hd.d.W.      Red's I3 (Industry), I4 (Capital), I5 (Air Base).
 *    5 m..b.o.hAp
 *    6 .hd.m.mh.b
 */
const legal = (s: State, seat: string) => frontLine.legalCommands(s, seat);
const moveTo = (s: State, seat: string, unit: string) => legal(s, seat).flatMap((c) => (c.type === 'Move' && c.unit === unit ? [c.to] : []));

describe('EX0–EX9 (002 p.5), reconstructed positions', () => {
  it('EX0: B may move into its own city; A may not move into the empty unfriendly city', () => {
    const { s, ids } = given(
      [
        { seat: 'green', kind: 'infantry', sq: 'H3', as: 'A' },
        { seat: 'red', kind: 'infantry', sq: 'J3', as: 'B' },
      ],
      { mover: 'green', stack: 'capital' },
    );
    expect(moveTo(s, 'green', ids.A!)).not.toContain('I3');
    expect(moveTo(s, 'green', ids.A!)).toContain('H4');
    const red = { ...s, first: s.order.indexOf('red') };
    expect(moveTo(red, 'red', ids.B!)).toContain('I3');
  });

  it('EX1: A moves amphibiously to the enemy Port, then attacks B at range 1', () => {
    const { s, ids } = given(
      [
        { seat: 'green', kind: 'tank', sq: 'A2', as: 'A' },
        { seat: 'red', kind: 'infantry', sq: 'I6', as: 'B' },
      ],
      { mover: 'green', stack: 'capital', leadership: { red: 'exhausted' } },
    );
    expect(legal(s, 'green')).toContainEqual({ type: 'AmphibiousMove', unit: ids.A, to: 'J5' });
    const landed = play(s, 'green', { type: 'AmphibiousMove', unit: ids.A!, to: 'J5' }).s;
    expect(unitById(landed, ids.A!)!.sq).toBe('J5');
    expect(legal(landed, 'green')).toContainEqual({ type: 'Attack', unit: ids.A, target: 'I6' });
    // The same Regular action never twice: no second Amphibious Move for A this turn.
    expect(legal(landed, 'green').some((c) => c.type === 'AmphibiousMove' && c.unit === ids.A)).toBe(false);
  });

  it('EX2: A (range 3) can attack any Green, C (range 2) any Red; an empty city only from one square', () => {
    const { s, ids } = given([
      { seat: 'red', kind: 'artillery', sq: 'D3', as: 'A' },
      { seat: 'green', kind: 'infantry', sq: 'C2' },
      { seat: 'green', kind: 'infantry', sq: 'B5' },
      { seat: 'green', kind: 'infantry', sq: 'A4' },
      { seat: 'green', kind: 'tank', sq: 'F4', as: 'C' },
      { seat: 'red', kind: 'infantry', sq: 'G5' },
      { seat: 'red', kind: 'infantry', sq: 'H6' },
    ]);
    expect(attackTargets(s, unitById(s, ids.A!)!).sort()).toEqual(['A4', 'B5', 'C2', 'F4']);
    expect(attackTargets(s, unitById(s, ids.C!)!).sort()).toEqual(['D3', 'G5', 'H6']);
    // Green's empty Capital B3 is two squares from A: not a target.
    expect(attackTargets(s, unitById(s, ids.A!)!)).not.toContain('B3');
  });

  it('EX3: A attacks the adjacent empty city; on a hit it must enter, and the city falls', () => {
    const { s, ids } = given([{ seat: 'green', kind: 'infantry', sq: 'H3', as: 'A' }], { mover: 'green', stack: 'capital' });
    expect(legal(s, 'green')).toContainEqual({ type: 'Attack', unit: ids.A, target: 'I3' });
    const hit = play(s, 'green', { type: 'Attack', unit: ids.A!, target: 'I3' }, scriptedRng([2])).s;
    expect(unitById(hit, ids.A!)!.sq).toBe('I3');
    expect(hit.fallen).toEqual(['I3']);
    expect(hit.seats.find((x) => x.id === 'red')!.stacks.industry).toMatchObject({ n: 1, fallen: true });
    const miss = play(s, 'green', { type: 'Attack', unit: ids.A!, target: 'I3' }, scriptedRng([5])).s;
    expect(unitById(miss, ids.A!)!.sq).toBe('H3');
    expect(miss.fallen).toEqual([]);
  });

  it('EX4: E, higher, rolls both dice on the range 1 column against C and G; Artillery G rolls one die on range 1 against E', () => {
    const { s } = given([
      { seat: 'red', kind: 'infantry', sq: 'D1', as: 'E' },
      { seat: 'green', kind: 'infantry', sq: 'C1', as: 'C' },
      { seat: 'green', kind: 'artillery', sq: 'E2', as: 'G' },
    ]);
    expect([diceFor(s, 'D1', 'C1'), columnFor(s, 'infantry', 'D1', 'C1')]).toEqual([2, 1]);
    expect([diceFor(s, 'D1', 'E2'), columnFor(s, 'infantry', 'D1', 'E2')]).toEqual([2, 1]);
    expect([diceFor(s, 'E2', 'D1'), columnFor(s, 'artillery', 'E2', 'D1')]).toEqual([1, 1]);
    // An Infantry where G stands would be disadvantaged: one column right.
    expect(columnFor(s, 'infantry', 'E2', 'D1')).toBe(2);
  });

  it('EX5: a Rout on a beach or desert disrupts with no retreat; F may retreat, only to the valley between C and G', () => {
    const places = [
      { seat: 'red', kind: 'tank', sq: 'F5', as: 'B' },
      { seat: 'green', kind: 'infantry', sq: 'D5', as: 'D' },
      { seat: 'green', kind: 'infantry', sq: 'E4', as: 'E' },
      { seat: 'green', kind: 'infantry', sq: 'D6', as: 'F' },
      { seat: 'green', kind: 'infantry', sq: 'C6', as: 'C' },
      { seat: 'green', kind: 'infantry', sq: 'C4', as: 'G' },
    ] as const;
    const { s, ids } = given(places, { mover: 'red', stack: 'capital', leadership: { green: 'exhausted' } });
    // White 4 on the range 2 column: Rout (its Soldier icon does not save Infantry on low ground).
    for (const who of ['D', 'E'] as const) {
      const r = play(s, 'red', { type: 'Attack', unit: ids.B!, target: who === 'D' ? 'D5' : 'E4' }, scriptedRng([who === 'D' ? 4 : 2])).s;
      expect(unitById(r, ids[who]!)).toMatchObject({ active: false, sq: who === 'D' ? 'D5' : 'E4' });
      expect(r.question).toBeNull();
    }
    const routed = play(s, 'red', { type: 'Attack', unit: ids.B!, target: 'D6' }, scriptedRng([4])).s;
    expect(routed.question).toMatchObject({ topic: 'rout', seat: 'green' });
    expect(legal(routed, 'green')).toEqual([{ type: 'Retreat' }, { type: 'Hold' }]);
    const retreated = play(routed, 'green', { type: 'Retreat' }).s;
    expect(unitById(retreated, ids.F!)).toMatchObject({ sq: 'C5', active: true });
    const held = play(routed, 'green', { type: 'Hold' }).s;
    expect(unitById(held, ids.F!)).toMatchObject({ sq: 'D6', active: false });
  });

  it('EX6: B, higher, rolls two dice against every target; a white 4 (Dug In) misses Infantry D and F on hills', () => {
    const { s, ids } = given(
      [
        { seat: 'red', kind: 'artillery', sq: 'D1', as: 'B' },
        { seat: 'green', kind: 'tank', sq: 'E2', as: 'A' },
        { seat: 'green', kind: 'infantry', sq: 'D3', as: 'C' },
        { seat: 'green', kind: 'infantry', sq: 'C1', as: 'D' },
        { seat: 'green', kind: 'tank', sq: 'B1', as: 'E' },
        { seat: 'green', kind: 'infantry', sq: 'C2', as: 'F' },
      ],
      { mover: 'red', stack: 'capital', leadership: { green: 'exhausted' } },
    );
    for (const t of ['E2', 'D3', 'C1', 'B1', 'C2']) expect(diceFor(s, 'D1', t)).toBe(2);
    for (const [who, sq] of [
      ['D', 'C1'],
      ['F', 'C2'],
    ] as const) {
      const r = play(s, 'red', { type: 'Attack', unit: ids.B!, target: sq }, scriptedRng([4, 3]));
      expect(r.events).toContainEqual(expect.objectContaining({ type: 'AttackResolved', result: 'miss', note: 'Dug In' }));
      expect(unitById(r.s, ids[who]!)!.active).toBe(true);
    }
    // The same white 4 against Tank A (not Infantry) is a Disrupt.
    expect(unitById(play(s, 'red', { type: 'Attack', unit: ids.B!, target: 'E2' }, scriptedRng([4, 3])).s, ids.A!)!.active).toBe(false);
  });

  it('EX7: after E paratroops onto the mountain, C or G may Opportunity Fire at it; a task draws no fire', () => {
    const { s, ids } = given(
      [
        { seat: 'red', kind: 'infantry', sq: 'I5', as: 'E' },
        { seat: 'red', kind: 'tank', sq: 'F5' },
        { seat: 'green', kind: 'infantry', sq: 'D6', as: 'C' },
        { seat: 'green', kind: 'artillery', sq: 'C4', as: 'G' },
      ],
      { mover: 'red', stack: 'air' },
    );
    expect(legal(s, 'red')).toContainEqual({ type: 'Paratroop', unit: ids.E, to: 'E6' });
    const dropped = play(s, 'red', { type: 'Paratroop', unit: ids.E!, to: 'E6' }).s;
    expect(dropped.question).toMatchObject({ topic: 'opportunity-fire', seat: 'green', unit: ids.E, action: 'Paratroop' });
    const fire = legal(dropped, 'green').flatMap((c) => (c.type === 'OpportunityFire' ? [c.unit] : []));
    expect(fire.sort()).toEqual([ids.C!, ids.G!].sort());
    const p = frontLine.pending(dropped)[0]!;
    expect(p).toMatchObject({ seat: 'green', kind: 'reaction', window: { topic: 'opportunity-fire', blocking: true, default: { type: 'Pass' } } });
    // A Maneuver (a task, no supply) opens no window.
    const maneuvered = play({ ...dropped, question: null }, 'red', { type: 'Maneuver', unit: ids.E!, to: 'F6' }).s;
    expect(maneuvered.question).toBeNull();
  });

  it('EX8: B may Maneuver into its own city (diagonally); E may Maneuver into the square between B and D', () => {
    const { s, ids } = given(
      [
        { seat: 'red', kind: 'infantry', sq: 'H2', as: 'B' },
        { seat: 'green', kind: 'infantry', sq: 'H4', as: 'A' },
      ],
      { mover: 'red' },
    );
    expect(legal(s, 'red')).toContainEqual({ type: 'Maneuver', unit: ids.B, to: 'I3' });
    const green = { ...s, first: s.order.indexOf('green') };
    expect(
      legal(green, 'green')
        .filter((c) => c.type === 'Maneuver' && c.unit === ids.A)
        .map((c) => (c as { to: string }).to),
    ).not.toContain('I3');
    const fig4 = given(
      [
        { seat: 'green', kind: 'infantry', sq: 'E3', as: 'B' },
        { seat: 'green', kind: 'infantry', sq: 'E5', as: 'D' },
        { seat: 'green', kind: 'infantry', sq: 'D3', as: 'E' },
      ],
      { mover: 'green' },
    );
    expect(legal(fig4.s, 'green')).toContainEqual({ type: 'Maneuver', unit: fig4.ids.E, to: 'E4' });
  });

  it('EX9: E and F may swap by Relieve, and so may B and C (diagonal); two disrupted units may not', () => {
    const { s, ids } = given(
      [
        { seat: 'green', kind: 'infantry', sq: 'C3', as: 'E' },
        { seat: 'green', kind: 'tank', sq: 'C4', as: 'F', active: false },
        { seat: 'green', kind: 'artillery', sq: 'A5', as: 'B' },
        { seat: 'green', kind: 'infantry', sq: 'B6', as: 'C' },
        { seat: 'green', kind: 'infantry', sq: 'E6', as: 'X', active: false },
        { seat: 'green', kind: 'infantry', sq: 'D6', as: 'Y', active: false },
      ],
      { mover: 'green' },
    );
    const relieves = legal(s, 'green').filter((c) => c.type === 'Relieve');
    const pair = (a: string, b: string) => ({ type: 'Relieve', unit: a < b ? a : b, with: a < b ? b : a });
    expect(relieves).toContainEqual(pair(ids.E!, ids.F!));
    expect(relieves).toContainEqual(pair(ids.B!, ids.C!));
    expect(relieves).not.toContainEqual(pair(ids.X!, ids.Y!));
    const swapped = play(s, 'green', pair(ids.E!, ids.F!) as never).s;
    expect([unitById(swapped, ids.E!)!.sq, unitById(swapped, ids.F!)!.sq]).toEqual(['C4', 'C3']);
    expect(swapped.seats.find((x) => x.id === 'green')!.leadership).toBe('exhausted');
  });
});
