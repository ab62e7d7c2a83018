import { describe, expect, it } from 'vitest';
import { scriptedRng } from '../../domain/kernel/index.js';
import { moveTargets, occupationPoints, paratroopTargets, readTable, retreatSquares, unitById } from '../../domain/front-line/board.js';
import { BATTLEFIELDS, RESULTS_TABLE } from '../../domain/front-line/data.js';
import { finalScore } from '../../domain/front-line/rounds.js';
import { frontLine } from '../../domain/front-line/engine.js';
import { optionsSchema, type Command, type State } from '../../domain/front-line/model.js';
import { given } from './given.js';
import { fresh, play } from './harness.js';

/** One test per rule (002 section in each title): each fails if the rule were implemented wrong. */
const legal = (s: State, seat: string) => frontLine.legalCommands(s, seat);
const has = (s: State, seat: string, c: Command) => legal(s, seat).some((l) => JSON.stringify(l) === JSON.stringify(c));
const seat = (s: State, id: string) => s.seats.find((x) => x.id === id)!;

describe('set-up (002 p.1)', () => {
  it('free set-up: 9 Infantry, 4 Tanks, 2 Artillery, one a square, only in your own country; Finish only when all are placed', () => {
    let s = fresh();
    const offered = legal(s, 'green').filter((c) => c.type === 'PlaceUnit') as { square: string }[];
    expect(new Set(offered.map((c) => c.square[0]))).toEqual(new Set(['A', 'B', 'C']));
    expect(has(s, 'green', { type: 'FinishSetup' })).toBe(false);
    for (let i = 0; i < 9; i++)
      s = play(
        s,
        'green',
        legal(s, 'green').find((c) => c.type === 'PlaceUnit' && c.kind === 'infantry')!,
      ).s;
    expect(legal(s, 'green').some((c) => c.type === 'PlaceUnit' && c.kind === 'infantry')).toBe(false);
    const occupied = s.units.filter((u) => u.sq).map((u) => u.sq);
    expect(legal(s, 'green').some((c) => c.type === 'PlaceUnit' && occupied.includes(c.square))).toBe(false);
    for (let i = 0; i < 6; i++)
      s = play(
        s,
        'green',
        legal(s, 'green').find((c) => c.type === 'PlaceUnit')!,
      ).s;
    expect(has(s, 'green', { type: 'FinishSetup' })).toBe(true);
    expect(
      s.units
        .filter((u) => u.color === 'green' && u.sq === null)
        .map((u) => u.kind)
        .sort(),
    ).toEqual(['artillery', 'infantry', 'infantry', 'tank', 'tank']);
  });

  it('the recommended set-up is offered on Main only, and the die gives the first-player choice to Red on 1–3, Green on 4–6', () => {
    expect(has(fresh({ battlefield: 'lake-nogo' }), 'green', { type: 'PlaceRecommended' })).toBe(false);
    let s = fresh();
    for (const x of ['green', 'red']) s = play(play(s, x, { type: 'PlaceRecommended' }).s, x, { type: 'FinishSetup' }, scriptedRng([3])).s;
    expect(s.phase).toBe('first');
    expect(s.decider).toBe('red');
    expect(unitById(s, 'green-infantry-1')!.sq).toBe('B2');
    expect(s.units.find((u) => u.color === 'red' && u.sq === 'I5')!.kind).toBe('infantry');
    let t = fresh();
    for (const x of ['green', 'red']) t = play(play(t, x, { type: 'PlaceRecommended' }).s, x, { type: 'FinishSetup' }, scriptedRng([4])).s;
    expect(t.decider).toBe('green');
    const started = play(t, 'green', { type: 'ChooseFirst', seat: 'red' }).s;
    expect(frontLine.pending(started)[0]).toMatchObject({ seat: 'red', kind: 'move' });
    expect(seat(started, 'green').stacks).toEqual({
      air: { n: 3, max: 3, fallen: false, used: false },
      capital: { n: 3, max: 3, fallen: false, used: false },
      industry: { n: 4, max: 4, fallen: false, used: false },
    });
  });
});

describe('turns and supply (002 p.2)', () => {
  it('a turn uses one chosen stack; unused chits are lost at the end; each stack once a round', () => {
    const { s } = given([{ seat: 'green', kind: 'infantry', sq: 'C3' }], { mover: 'green' });
    const chosen = play(s, 'green', { type: 'ChooseSupply', stack: 'air' }).s;
    expect(legal(chosen, 'green').some((c) => c.type === 'ChooseSupply')).toBe(false);
    const ended = play(chosen, 'green', { type: 'EndTurn' });
    expect(ended.events).toContainEqual({ type: 'TurnEnded', seat: 'green', discarded: 3 });
    const back = play(ended.s, 'red', { type: 'EndTurn' }).s;
    expect(legal(back, 'green').filter((c) => c.type === 'ChooseSupply')).toEqual([
      { type: 'ChooseSupply', stack: 'capital' },
      { type: 'ChooseSupply', stack: 'industry' },
    ]);
  });

  it('4 rounds of 6 turns, then the game ends on Occupation Points', () => {
    let { s } = given([{ seat: 'green', kind: 'infantry', sq: 'H1' }]);
    const months: string[] = [];
    for (let i = 0; i < 24; i++) {
      const r = play(s, frontLine.pending(s)[0]!.seat, { type: 'EndTurn' });
      s = r.s;
      for (const e of r.events) if (e.type === 'RoundStarted') months.push(e.month);
    }
    expect(months).toEqual(['October', 'November', 'December']);
    expect(frontLine.outcome(s)).toMatchObject({ winners: ['green'], score: { green: 1, red: 0 } });
  });

  it('at most two actions a unit a turn, never the same Regular action twice', () => {
    const { s, ids } = given([{ seat: 'green', kind: 'tank', sq: 'C3', as: 'T' }], { mover: 'green', stack: 'industry' });
    const moved = play(s, 'green', { type: 'Move', unit: ids.T!, to: 'D3' }).s;
    expect(legal(moved, 'green').some((c) => c.type === 'Move' && c.unit === ids.T)).toBe(false);
    const { s: s2, ids: i2 } = given(
      [
        { seat: 'green', kind: 'tank', sq: 'A3', as: 'T' },
        { seat: 'red', kind: 'infantry', sq: 'A1' },
      ],
      { mover: 'green', stack: 'industry', leadership: { red: 'exhausted' } },
    );
    const after = play(
      play(s2, 'green', { type: 'Move', unit: i2.T!, to: 'A2' }).s,
      'green',
      { type: 'Attack', unit: i2.T!, target: 'A1' },
      scriptedRng([1]),
    ).s;
    // Tasks (Maneuver) are not actions; no action is left for the tank.
    expect(legal(after, 'green').some((c) => 'unit' in c && c.unit === i2.T && c.type !== 'Maneuver')).toBe(false);
  });

  it('Fallen supply (a single chit) pays Regular actions but no Mission', () => {
    const { s } = given(
      [
        { seat: 'green', kind: 'infantry', sq: 'B2', active: false },
        { seat: 'green', kind: 'infantry', sq: 'C5' },
      ],
      {
        mover: 'green',
        fallen: ['B4'],
      },
    );
    expect(seat(s, 'green').stacks.industry).toMatchObject({ n: 1, fallen: true });
    const chosen = play(s, 'green', { type: 'ChooseSupply', stack: 'industry' }).s;
    expect(legal(chosen, 'green').some((c) => c.type === 'Build')).toBe(false);
    expect(legal(chosen, 'green').some((c) => c.type === 'Move')).toBe(true);
  });
});

describe('movement (002 p.2)', () => {
  it('two squares orthogonally; Tanks diagonally too; through own units, never through enemy units', () => {
    const open = ['..........', '.A......A.', '.W......W.', '.I......I.', '..........', '..........'];
    const { s, ids } = given(
      [
        { seat: 'green', kind: 'infantry', sq: 'D3', as: 'I' },
        { seat: 'green', kind: 'infantry', sq: 'D2', as: 'own' },
        { seat: 'red', kind: 'infantry', sq: 'E3', as: 'enemy' },
        { seat: 'green', kind: 'tank', sq: 'B6', as: 'T' },
      ],
      { options: { layout: open } },
    );
    const inf = moveTargets(s, unitById(s, ids.I!)!);
    expect(inf).toContain('D1'); // through the own unit on D2
    const steps = (a: string, b: string) => Math.abs(a.charCodeAt(0) - b.charCodeAt(0)) + Math.abs(Number(a[1]) - Number(b[1]));
    expect(inf.every((t) => steps('D3', t) <= 2)).toBe(true); // orthogonal steps only
    expect(inf).not.toContain('F3'); // not through the enemy on E3
    expect(inf).not.toContain('E3');
    const tank = moveTargets(s, unitById(s, ids.T!)!);
    expect(tank).toContain('D4'); // two diagonal steps
    expect(tank.every((t) => Math.max(Math.abs(t.charCodeAt(0) - 66), Math.abs(Number(t[1]) - 6)) <= 2)).toBe(true);
  });

  it('a move entering a desert may take one more square (Great Desert), and only one', () => {
    const { s, ids } = given([{ seat: 'green', kind: 'infantry', sq: 'A4', as: 'I' }], { options: { battlefield: 'great-desert' } });
    // A4 is desert: A4→B4? (Industry) … the path C3 (desert) → D3 → E3 is three squares from B3? use a unit on B5.
    const { s: s2, ids: i2 } = given([{ seat: 'green', kind: 'infantry', sq: 'B5', as: 'I' }], { options: { battlefield: 'great-desert' } });
    const t = moveTargets(s2, unitById(s2, i2.I!)!);
    expect(t).toContain('E5'); // C5 (desert), D5, E5: three squares
    expect(t).not.toContain('F5'); // not four
    expect(moveTargets(s, unitById(s, ids.I!)!)).not.toContain('A1');
  });

  it('Lake Nogo: no land move into or through water; Paratroop counts dry squares only', () => {
    const { s, ids } = given(
      [
        { seat: 'green', kind: 'tank', sq: 'C3', as: 'T' },
        { seat: 'green', kind: 'infantry', sq: 'B2', as: 'P' },
      ],
      { options: { battlefield: 'lake-nogo' } },
    );
    const t = moveTargets(s, unitById(s, ids.T!)!);
    expect(t.some((x) => ['D3', 'E3', 'D4', 'E4'].includes(x))).toBe(false);
    expect(paratroopTargets(s, unitById(s, ids.P!)!).some((x) => ['D3', 'E3', 'D4', 'E4', 'F3'].includes(x))).toBe(false);
    expect(BATTLEFIELDS['lake-nogo'].rows.join('').split('~').length - 1).toBe(8);
  });
});

describe('missions (002 p.4)', () => {
  it('Build: 2 Industry for Infantry or Artillery, 3 for a Tank, onto your empty Industry; the new unit may act once more', () => {
    const { s } = given([], { mover: 'green', stack: 'industry', n: 2 });
    expect(legal(s, 'green').filter((c) => c.type === 'Build')).toEqual([
      { type: 'Build', kind: 'infantry' },
      { type: 'Build', kind: 'artillery' },
    ]);
    const three = given([], { mover: 'green', stack: 'industry', n: 3 }).s;
    const built = play(three, 'green', { type: 'Build', kind: 'tank' }).s;
    const tank = built.units.find((u) => u.sq === 'B4')!;
    expect(tank).toMatchObject({ kind: 'tank', active: true });
    expect(built.chosen!.n).toBe(0);
    const blocked = given([{ seat: 'green', kind: 'infantry', sq: 'B4' }], { mover: 'green', stack: 'industry' }).s;
    expect(legal(blocked, 'green').some((c) => c.type === 'Build')).toBe(false);
    // A Fallen Industry is the enemy's while it lies Fallen, even when its enemy unit has left it.
    const fallen = given([], { mover: 'green', stack: 'industry', n: 4, fallen: ['B4'] }).s;
    expect(legal(fallen, 'green').some((c) => c.type === 'Build')).toBe(false);
  });

  it('Regroup: 1 Capital flips a disrupted unit; Paratroop needs Air and active Infantry on an Air Base, not onto a city', () => {
    const { s, ids } = given(
      [
        { seat: 'green', kind: 'tank', sq: 'C3', as: 'T', active: false },
        { seat: 'green', kind: 'infantry', sq: 'B2', as: 'P' },
      ],
      { mover: 'green', stack: 'capital' },
    );
    expect(legal(s, 'green').filter((c) => c.type === 'Regroup')).toEqual([{ type: 'Regroup', unit: ids.T }]);
    expect(legal(s, 'green').some((c) => c.type === 'Paratroop')).toBe(false);
    expect(unitById(play(s, 'green', { type: 'Regroup', unit: ids.T! }).s, ids.T!)!.active).toBe(true);
    const air = given([{ seat: 'green', kind: 'infantry', sq: 'B2', as: 'P' }], { mover: 'green', stack: 'air' }).s;
    const drops = legal(air, 'green').flatMap((c) => (c.type === 'Paratroop' ? [c.to] : []));
    expect(drops).toContain('A2'); // a Port is fine
    expect(drops).not.toContain('B3'); // a city is not
    expect(drops).not.toContain('E2'); // three squares from any friendly city or unit
  });
});

describe('attacks (002 p.3–4)', () => {
  it('the table: a white ADV reads the yellow column; a lone white ADV is a Miss (RULINGS); a Tank may take the yellow', () => {
    expect(readTable(RESULTS_TABLE, 1, 5, 6, null)).toEqual({ result: 'blitz' });
    expect(readTable(RESULTS_TABLE, 1, 5, null, null)).toEqual({ result: 'miss' });
    expect(readTable(RESULTS_TABLE, 2, 1, 6, 'yellow')).toEqual({ result: 'blitz' });
    expect(readTable(RESULTS_TABLE, 2, 1, 6, 'white')).toEqual({ result: 'miss' });
  });

  it('City Defense: a result whose icon matches the target city misses', () => {
    const { s, ids } = given(
      [
        { seat: 'red', kind: 'infantry', sq: 'C3', as: 'A' },
        { seat: 'green', kind: 'tank', sq: 'B3', as: 'T' },
      ],
      { mover: 'red', stack: 'capital', leadership: { green: 'exhausted' } },
    );
    // White 6 on range 1: Blitz with the Capital icon; the target stands in a Capital.
    const r = play(s, 'red', { type: 'Attack', unit: ids.A!, target: 'B3' }, scriptedRng([6]));
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'AttackResolved', result: 'miss', note: 'City Defense' }));
    expect(unitById(r.s, ids.T!)).toBeDefined();
  });

  it('a disrupted unit hit by Disrupt is Blitzed; Displacement into a vacated city is forced and the city falls', () => {
    const { s, ids } = given(
      [
        { seat: 'green', kind: 'infantry', sq: 'H3', as: 'A' },
        { seat: 'red', kind: 'infantry', sq: 'I3', as: 'D', active: false },
      ],
      { mover: 'green', stack: 'capital', leadership: { red: 'exhausted' } },
    );
    const r = play(s, 'green', { type: 'Attack', unit: ids.A!, target: 'I3' }, scriptedRng([4])).s;
    expect(unitById(r, ids.D!)).toBeUndefined();
    expect(unitById(r, ids.A!)!.sq).toBe('I3');
    expect(r.fallen).toContain('I3');
    expect(seat(r, 'red').stacks.industry).toMatchObject({ n: 1, fallen: true });
  });

  it('displacing into the enemy Capital wins at once', () => {
    const { s, ids } = given(
      [
        { seat: 'green', kind: 'infantry', sq: 'H4', as: 'A' },
        { seat: 'red', kind: 'infantry', sq: 'I4', active: false },
      ],
      { mover: 'green', stack: 'capital', leadership: { red: 'exhausted' } },
    );
    const r = play(s, 'green', { type: 'Attack', unit: ids.A!, target: 'I4' }, scriptedRng([4])).s;
    expect(frontLine.outcome(r)).toMatchObject({ winners: ['green'] });
  });

  it('optional Displacement onto open ground is the attacker’s choice', () => {
    const { s, ids } = given(
      [
        { seat: 'green', kind: 'infantry', sq: 'D2', as: 'A' },
        { seat: 'red', kind: 'infantry', sq: 'E2', active: false },
      ],
      { mover: 'green', stack: 'capital', leadership: { red: 'exhausted' } },
    );
    const r = play(s, 'green', { type: 'Attack', unit: ids.A!, target: 'E2' }, scriptedRng([4])).s;
    expect(legal(r, 'green')).toEqual([{ type: 'Displace' }, { type: 'Pass' }]);
    expect(unitById(play(r, 'green', { type: 'Displace' }).s, ids.A!)!.sq).toBe('E2');
    expect(unitById(play(r, 'green', { type: 'Pass' }).s, ids.A!)!.sq).toBe('D2');
  });

  it('retreat squares: not next to an active unfriendly unit or unfriendly city', () => {
    const { s, ids } = given([
      { seat: 'green', kind: 'infantry', sq: 'G2', as: 'R' },
      { seat: 'red', kind: 'tank', sq: 'G4' },
    ]);
    const sq = retreatSquares(s, unitById(s, ids.R!)!);
    expect(sq).not.toContain('H3'); // beside Red's Industry I3 and the tank
    expect(sq).not.toContain('F3');
    expect(sq).toContain('F1');
  });

  it('the Edge: a white 1 gives it to the defender, a 6 to the attacker, OFF until the turn ends; its holder may re-roll once', () => {
    const { s, ids } = given(
      [
        { seat: 'green', kind: 'infantry', sq: 'D2', as: 'A' },
        { seat: 'red', kind: 'infantry', sq: 'E2' },
      ],
      { mover: 'green', stack: 'capital', leadership: { red: 'exhausted' } },
    );
    const one = play(s, 'green', { type: 'Attack', unit: ids.A!, target: 'E2' }, scriptedRng([1])).s;
    expect(one.edge[0]).toEqual({ holder: 'red', on: false });
    const ended = play(one, 'green', { type: 'EndTurn' }).s;
    expect(ended.edge[0]).toEqual({ holder: 'red', on: true });
    // Red holds it ON: after Green's next roll Red is asked, and a re-roll sends it to the middle.
    const again = { ...ended, first: ended.order.indexOf('green'), turn: 0, chosen: { stack: 'air' as const, n: 3, max: 3, fallen: false }, acted: [] };
    const asked = play(again, 'green', { type: 'Attack', unit: ids.A!, target: 'E2' }, scriptedRng([5])).s;
    expect(frontLine.pending(asked)[0]).toMatchObject({ seat: 'red', kind: 'reaction', window: { topic: 'edge', default: { type: 'Pass' } } });
    const rerolled = play(asked, 'red', { type: 'UseEdge' }, scriptedRng([6]));
    expect(rerolled.events).toContainEqual({ type: 'DiceRolled', white: 6, yellow: null, reroll: true });
    expect(rerolled.s.edge[0]).toEqual({ holder: 'green', on: false });
  });
});

describe('Leadership (002 p.4–5)', () => {
  it('Rally shifts the result one step (Blitz → Disrupt) and exhausts Leadership; Commission then End Turn makes it Available', () => {
    const { s, ids } = given(
      [
        { seat: 'green', kind: 'infantry', sq: 'D2', as: 'A' },
        { seat: 'red', kind: 'tank', sq: 'E2', as: 'T' },
      ],
      { mover: 'green', stack: 'capital' },
    );
    const asked = play(s, 'green', { type: 'Attack', unit: ids.A!, target: 'E2' }).s;
    expect(frontLine.pending(asked)[0]).toMatchObject({ seat: 'red', window: { topic: 'rally' } });
    const r = play(asked, 'red', { type: 'Rally' }, scriptedRng([6])).s; // white 6 range 1: Blitz
    expect(unitById(r, ids.T!)!.active).toBe(false);
    expect(seat(r, 'red').leadership).toBe('exhausted');
  });

  it('a rallied natural Miss rewards an active target: Maneuver or fire back, free', () => {
    const { s, ids } = given(
      [
        { seat: 'green', kind: 'infantry', sq: 'D2', as: 'A' },
        { seat: 'red', kind: 'tank', sq: 'E2', as: 'T' },
      ],
      { mover: 'green', stack: 'capital' },
    );
    const asked = play(s, 'green', { type: 'Attack', unit: ids.A!, target: 'E2' }).s;
    const r = play(asked, 'red', { type: 'Rally' }, scriptedRng([1])).s;
    expect(r.question).toMatchObject({ topic: 'rally-reward', seat: 'red' });
    expect(legal(r, 'red')).toContainEqual({ type: 'OpportunityFire', unit: ids.T });
    const fired = play(r, 'red', { type: 'OpportunityFire', unit: ids.T! }, scriptedRng([6])).s;
    expect(unitById(fired, ids.A!)).toBeUndefined();
  });

  it('Cache raises the stack by one up to its size; Commission needs Exhausted Leadership', () => {
    const { s } = given([], { mover: 'green', stack: 'air', n: 2 });
    expect(has(s, 'green', { type: 'Commission' })).toBe(false);
    const cached = play(s, 'green', { type: 'Cache' }).s;
    expect(cached.chosen!.n).toBe(3);
    expect(has(cached, 'green', { type: 'Cache' })).toBe(false);
    expect(has(cached, 'green', { type: 'Commission' })).toBe(true);
    const commissioned = play(cached, 'green', { type: 'Commission' }).s;
    expect(seat(commissioned, 'green').leadership).toBe('commissioned');
    expect(seat(play(commissioned, 'green', { type: 'EndTurn' }).s, 'green').leadership).toBe('available');
    const full = given([], { mover: 'green', stack: 'air' }).s;
    expect(has(full, 'green', { type: 'Cache' })).toBe(false);
  });
});

describe('scoring (002 p.1, p.D)', () => {
  it('1 OP a unit on a #1 hex or a non-city square of the enemy country, 2 for its Fallen Air Base, 3 for its Fallen Industry', () => {
    const { s } = given(
      [
        { seat: 'green', kind: 'infantry', sq: 'E2' }, // #1 hex
        { seat: 'green', kind: 'infantry', sq: 'H1' }, // Red country
        { seat: 'green', kind: 'infantry', sq: 'I3' }, // a city square: no unit OP
        { seat: 'green', kind: 'infantry', sq: 'C1' }, // own country: nothing
      ],
      { fallen: ['I3', 'I5'] },
    );
    expect(occupationPoints(s, 'green')).toBe(1 + 1 + 2 + 3);
    expect(occupationPoints(s, 'red')).toBe(0);
  });

  it('level OP: most units on the battlefields wins, else a tie', () => {
    const { s } = given([
      { seat: 'green', kind: 'infantry', sq: 'C1' },
      { seat: 'red', kind: 'infantry', sq: 'H1' },
      { seat: 'red', kind: 'infantry', sq: 'H2' },
    ]);
    expect(finalScore(s)).toMatchObject({ winners: 'red', op: { green: 0, red: 0 } });
    const tie = given([
      { seat: 'green', kind: 'infantry', sq: 'C1' },
      { seat: 'red', kind: 'infantry', sq: 'H1' },
    ]).s;
    expect(finalScore(tie).winners).toBeNull();
  });
});

describe('options (representative data is replaceable)', () => {
  it('a club layout, results table and supply values replace the built-in ones; bad ones are refused', () => {
    const rows = ['b.hm.m.dh.', 'pAh.o.b..m', '.W.d.dh.Ih', 'hI.hd.d.W.', 'm..b.o.hAp', '.hd.m.mh.b'];
    expect(fresh({ layout: rows }).rows).toEqual(rows);
    expect(optionsSchema().safeParse({ layout: rows.map((r) => r.replace('W', '.')) }).success).toBe(false);
    expect(optionsSchema().safeParse({ allies: true, amphibious: false }).success).toBe(false);
    const values = Array.from({ length: 4 }, () => [1, 1, 1]);
    expect(fresh({ supplyValues: { balanced: values } }).cards.balanced).toEqual(values);
  });

  it('a club’s own recommended set-up (its Items card) is offered on any battlefield; Red’s is it turned half a circle; bad ones are refused', () => {
    const items = [
      ...['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'B1', 'B2', 'B3'].map((square) => ({ kind: 'infantry', square })),
      ...['C1', 'C2', 'C3', 'C4'].map((square) => ({ kind: 'tank', square })),
      ...['B5', 'B6'].map((square) => ({ kind: 'artillery', square })),
    ];
    let s = fresh({ battlefield: 'mt-range', recommended: items });
    expect(has(fresh({ battlefield: 'mt-range' }), 'green', { type: 'PlaceRecommended' })).toBe(false);
    expect(has(fresh({ layout: BATTLEFIELDS.main.rows }), 'green', { type: 'PlaceRecommended' })).toBe(false);
    for (const x of ['green', 'red']) s = play(s, x, { type: 'PlaceRecommended' }).s;
    const at = (sq: string) => s.units.find((u) => u.sq === sq);
    expect(at('C4')).toMatchObject({ color: 'green', kind: 'tank' });
    expect(at('B6')).toMatchObject({ color: 'green', kind: 'artillery' });
    expect(at('H3')).toMatchObject({ color: 'red', kind: 'tank' }); // C4 turned half a circle
    expect(at('I1')).toMatchObject({ color: 'red', kind: 'artillery' }); // B6
    expect(s.units.filter((u) => u.sq !== null)).toHaveLength(30);
    const bad = (recommended: unknown) => optionsSchema().safeParse({ recommended }).success;
    expect(bad(items)).toBe(true);
    expect(bad(items.slice(1))).toBe(false);
    expect(bad([...items.slice(1), { kind: 'infantry', square: 'A2' }])).toBe(false);
    expect(bad([...items.slice(1), { kind: 'infantry', square: 'D1' }])).toBe(false);
    expect(bad([...items.slice(1), { kind: 'infantry', square: '__proto__' }])).toBe(false);
    expect(bad([...items.slice(1), { kind: 'constructor', square: 'A1' }])).toBe(false);
  });
});

describe('more rules', () => {
  it('a Fallen city entered by its owner is Freed: the marker goes, an unused Fallen chit becomes a full stack again (002 p.4 Free)', () => {
    const { s, ids } = given([{ seat: 'green', kind: 'infantry', sq: 'C4', as: 'A' }], { mover: 'green', stack: 'capital', fallen: ['B4'] });
    expect(seat(s, 'green').stacks.industry).toMatchObject({ n: 1, fallen: true, used: false });
    // Its own Fallen city is unfriendly: no Move into it, an empty-city attack from one square.
    expect(legal(s, 'green').some((c) => c.type === 'Move' && c.to === 'B4')).toBe(false);
    const r = play(s, 'green', { type: 'Attack', unit: ids.A!, target: 'B4' }, scriptedRng([3])).s;
    expect(r.fallen).toEqual([]);
    expect(unitById(r, ids.A!)!.sq).toBe('B4');
    expect(seat(r, 'green').stacks.industry).toEqual({ n: 4, max: 4, fallen: false, used: false });
  });

  it('a Tank rolling both dice chooses the white range result or the yellow ADV result (002 p.3)', () => {
    const { s, ids } = given(
      [
        { seat: 'green', kind: 'tank', sq: 'C1', as: 'T' },
        { seat: 'red', kind: 'tank', sq: 'D2', as: 'X' },
      ],
      { mover: 'green', stack: 'capital', leadership: { red: 'exhausted' } },
    );
    // Hill C1 over low D2: white 1 (range 1: Miss), yellow 6 (ADV: Blitz).
    const asked = play(s, 'green', { type: 'Attack', unit: ids.T!, target: 'D2' }, scriptedRng([1, 6])).s;
    expect(frontLine.pending(asked)[0]).toMatchObject({ seat: 'green', kind: 'move' });
    expect(legal(asked, 'green')).toEqual([
      { type: 'ChooseDie', die: 'white' },
      { type: 'ChooseDie', die: 'yellow' },
    ]);
    expect(unitById(play(asked, 'green', { type: 'ChooseDie', die: 'yellow' }).s, ids.X!)).toBeUndefined();
    expect(unitById(play(asked, 'green', { type: 'ChooseDie', die: 'white' }).s, ids.X!)!.active).toBe(true);
  });

  it('Amphibious Move is not offered when the option is off (first game)', () => {
    const { s } = given([{ seat: 'green', kind: 'tank', sq: 'A2' }], { mover: 'green', stack: 'air', options: { amphibious: false } });
    expect(legal(s, 'green').some((c) => c.type === 'AmphibiousMove')).toBe(false);
  });

  it('a Build is a supply use: it opens Opportunity Fire for an enemy in range of the new unit', () => {
    const { s } = given([{ seat: 'red', kind: 'artillery', sq: 'D3' }], { mover: 'green', stack: 'industry' });
    const built = play(s, 'green', { type: 'Build', kind: 'infantry' }).s;
    expect(built.question).toMatchObject({ topic: 'opportunity-fire', seat: 'red', action: 'Build' });
  });
});

describe('state as stored', () => {
  it('a state read back from JSON offers the same commands (snapshots)', () => {
    const s = fresh();
    const again = JSON.parse(JSON.stringify(s)) as State;
    expect(legal(again, 'green')).toEqual(legal(s, 'green'));
    expect(has(again, 'green', { type: 'PlaceRecommended' })).toBe(true);
  });
});

describe('Opportunity Fire needs Available Leadership (002 p.5)', () => {
  it('no window when the reacting Leadership is Exhausted; with it Available the window also offers Maneuver and Relieve', () => {
    const places = [
      { seat: 'red', kind: 'infantry', sq: 'I5', as: 'E' },
      { seat: 'red', kind: 'tank', sq: 'F5' },
      { seat: 'green', kind: 'infantry', sq: 'D6', as: 'C' },
      { seat: 'green', kind: 'artillery', sq: 'C4', as: 'G' },
    ] as const;
    const tired = given(places, { mover: 'red', stack: 'air', leadership: { green: 'exhausted' } });
    expect(play(tired.s, 'red', { type: 'Paratroop', unit: tired.ids.E!, to: 'E6' }).s.question).toBeNull();
    const fresh2 = given(places, { mover: 'red', stack: 'air' });
    const asked = play(fresh2.s, 'red', { type: 'Paratroop', unit: fresh2.ids.E!, to: 'E6' }).s;
    const types = new Set(legal(asked, 'green').map((c) => c.type));
    expect(types).toEqual(new Set(['OpportunityFire', 'Maneuver', 'Pass']));
    const fired = play(asked, 'green', { type: 'OpportunityFire', unit: fresh2.ids.G! }, scriptedRng([6])).s;
    expect(seat(fired, 'green').leadership).toBe('exhausted');
    // Artillery below the mountain reads range 2 unadjusted: a white 6 Disrupts.
    expect(unitById(fired, fresh2.ids.E!)!.active).toBe(false);
  });
});
