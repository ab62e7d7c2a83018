import { describe, expect, it } from 'vitest';
import { renderText } from '../../domain/kernel/index.js';
import { actionFront, type State } from '../../domain/action-front/index.js';
import { REPRESENTATIVE_SCENARIOS, type ScenarioCard } from '../../domain/action-front/data/scenarios.js';
import { fresh, play, position, refused } from './given.js';

/**
 * Scenario special rules (004 Scenario Cards; Select and place your forces, "unless otherwise
 * indicated in the scenario's special rules") as card data the engine applies: every special
 * rule of the shipped cards is one of these, and a club's own card may use any of them.
 * `visibility` and `noDugInAtStart` are tested in scenarios.test.ts; `emplaced` and a fire
 * support mission's `fromTurn` here.
 */
const card = (id: string): ScenarioCard => REPRESENTATIVE_SCENARIOS.find((s) => s.id === id)!;
const messages = (o: unknown) => {
  const r = actionFront.optionsSchema.safeParse(o);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};
/** The special rules a card states, by name. */
const specialRules = (c: ScenarioCard): string[] => [
  ...(c.visibility !== undefined ? ['visibility'] : []),
  ...(c.noDugInAtStart ? ['noDugInAtStart'] : []),
  ...(c.emplaced?.length ? ['emplaced'] : []),
  ...(Object.values(c.sides).some((s) => s.support.some((m) => m.fromTurn !== undefined)) ? ['fromTurn'] : []),
];
const moves = (s: State, seat: string, unit: string) =>
  actionFront.legalCommands(s, seat).filter((c) => (c.type === 'Move' || c.type === 'Exit') && c.unit === unit);

describe('the shipped scenario cards’ special rules', () => {
  it('every shipped card has special rules, each one the engine applies', () =>
    expect(REPRESENTATIVE_SCENARIOS.map((c) => [c.id, specialRules(c)])).toEqual([
      ['edsons-ridge', ['visibility']],
      ['bocage', ['emplaced']],
      ['river-crossing', ['noDugInAtStart', 'fromTurn']],
    ]));
});

describe('emplaced units never move (Hedgerow Duel: the Pak 40)', () => {
  // Bocage: axis-05 is the Pak 40, axis-01 a grenadier; the Germans' Action Phase.
  const s = position({ options: { scenario: 'bocage' }, active: 'axis', at: { 'axis-05': '0904', 'axis-01': '1003', 'allies-01': '0504' } });
  it('is offered no move and a move is refused with its own code; it may still fire', () => {
    expect(s.units.find((u) => u.id === 'axis-05')?.type).toBe('pak40');
    expect(moves(s, 'axis', 'axis-05')).toEqual([]);
    expect(moves(s, 'axis', 'axis-01').length).toBeGreaterThan(0);
    expect(refused(s, 'axis', { type: 'Move', unit: 'axis-05', to: '0903' })).toBe('move/emplaced');
    expect(actionFront.legalCommands(s, 'axis')).toContainEqual({ type: 'Fire', unit: 'axis-05', target: 'allies-01' });
    expect(play(s, 'axis', { type: 'Fire', unit: 'axis-05', target: 'allies-01' }).events[0]).toMatchObject({ type: 'FireDeclared', unit: 'axis-05' });
  });
  it('control: the same card without the rule lets the Pak 40 move', () => {
    const club = { ...card('bocage'), emplaced: undefined };
    const free = position({ options: { scenarioCard: club }, active: 'axis', at: { 'axis-05': '0904', 'allies-01': '0504' } });
    expect(moves(free, 'axis', 'axis-05').length).toBeGreaterThan(0);
  });
  it('an emplaced unit is not carried, and does not exit (a club card emplacing the 81mm mortar and a rifle platoon)', () => {
    // River crossing: allies-04 the halftrack, allies-05 the 81mm mortar, allies-01 a rifle platoon; the Americans' west edge is column 1, they exit from column 12.
    const club = { ...card('river-crossing'), emplaced: ['us-81mm', 'us-rifle'] };
    const s = position({ options: { scenarioCard: club }, at: { 'allies-04': '0203', 'allies-05': '0203', 'allies-01': '1203', 'axis-01': '0806' } });
    expect(actionFront.legalCommands(s, 'allies').filter((c) => c.type === 'Move' && c.carry !== undefined)).toEqual([]);
    expect(refused(s, 'allies', { type: 'Move', unit: 'allies-04', to: '0303', carry: 'allies-05' })).toBe('move/no-carry');
    expect(moves(s, 'allies', 'allies-01')).toEqual([]);
    expect(refused(s, 'allies', { type: 'Exit', unit: 'allies-01' })).toBe('action/unavailable');
    // Control: on the shipped card the halftrack carries the mortar and the platoon exits.
    const shipped = position({
      options: { scenario: 'river-crossing' },
      at: { 'allies-04': '0203', 'allies-05': '0203', 'allies-01': '1203', 'axis-01': '0806' },
    });
    expect(actionFront.legalCommands(shipped, 'allies')).toContainEqual(expect.objectContaining({ type: 'Move', unit: 'allies-04', carry: 'allies-05' }));
    expect(moves(shipped, 'allies', 'allies-01')).toContainEqual({ type: 'Exit', unit: 'allies-01' });
  });
});

describe('fire support from a later turn (Over the River: the P-47s from turn 3)', () => {
  // allies-m1 the 155mm battery, allies-m2 the P-47s; an American rifle platoon spots.
  const at = { 'allies-01': '0403', 'axis-01': '0603' };
  const onTurn = (turn: number): State => ({ ...position({ options: { scenario: 'river-crossing' }, at, phase: 'indirect' }), turn });
  const calls = (s: State, mission: string) => actionFront.legalCommands(s, 'allies').filter((c) => 'mission' in c && c.mission === mission);
  it('before turn 3 the P-47s are not offered and a call is refused, saying from when; the artillery is there from turn 1', () => {
    for (const turn of [1, 2]) {
      expect(calls(onTurn(turn), 'allies-m2')).toEqual([]);
      expect(calls(onTurn(turn), 'allies-m1').length).toBeGreaterThan(0);
    }
    const strike = calls(onTurn(3), 'allies-m2')[0]!;
    expect(strike).toMatchObject({ type: 'CallAirStrike', mission: 'allies-m2' });
    const r = actionFront.decide(onTurn(2), strike, 'allies', { rng: { int: () => 0 } as never, now: '' });
    expect(r.ok ? null : [r.error.code, r.error.message]).toEqual([
      'fire/illegal',
      "P-47 Thunderbolts is not available before game turn 3 (the scenario's special rule)",
    ]);
    expect(play(onTurn(3), 'allies', strike).events[0]).toMatchObject({ type: 'StrikeDeclared', source: { mission: 'allies-m2', kind: 'air' } });
  });
  it('a phase with only a held-back mission to call passes by itself (nothing to decide)', () => {
    const club = {
      ...card('river-crossing'),
      sides: {
        ...card('river-crossing').sides,
        allies: { ...card('river-crossing').sides.allies, support: [card('river-crossing').sides.allies.support[1]!] },
      },
    };
    const s = { ...position({ options: { scenarioCard: club }, at: { 'allies-01': '0403', 'axis-01': '0603' }, phase: 'indirect' }), turn: 1 };
    expect(actionFront.legalCommands(s, 'allies')).toEqual([{ type: 'EndIndirectFire' }]);
  });
});

describe('a club’s scenario card uses the special rules through options, checked', () => {
  it('a card with every special rule is accepted and played with them', () => {
    const club: ScenarioCard = { ...card('river-crossing'), id: 'club-night-ford', visibility: 4, emplaced: ['mg42'] };
    expect(messages({ scenarioCard: club })).toEqual([]);
    const s = fresh({ scenarioCard: club });
    expect(s.scenario).toMatchObject({ visibility: 4, noDugInAtStart: true, emplaced: ['mg42'] });
    expect(s.missions.allies.map((m) => m.fromTurn)).toEqual([undefined, 3]);
  });
  it('bad special rules get clear messages: an unknown or hostile unit, a turn after the end, a bad type', () => {
    expect(messages({ scenarioCard: { ...card('bocage'), emplaced: ['tiger-ii'] } })).toEqual([
      'scenarioCard.emplaced: no unit tiger-ii in the Unit Value Table',
    ]);
    expect(messages({ scenarioCard: { ...card('bocage'), emplaced: ['__proto__'] } })).toEqual([
      'scenarioCard.emplaced.0: Invalid string: must match pattern /^[a-z0-9-]{1,40}$/',
      'scenarioCard.emplaced: no unit __proto__ in the Unit Value Table',
    ]);
    expect(messages({ scenarioCard: { ...card('bocage'), emplaced: ['constructor'] } })).toEqual([
      'scenarioCard.emplaced: no unit constructor in the Unit Value Table',
    ]);
    const late = card('river-crossing');
    const support = [late.sides.allies.support[0]!, { ...late.sides.allies.support[1]!, fromTurn: 9 }];
    expect(messages({ scenarioCard: { ...late, sides: { ...late.sides, allies: { ...late.sides.allies, support } } } })).toEqual([
      'scenarioCard.sides.allies.support.1.fromTurn: P-47 Thunderbolts from turn 9: the scenario lasts 7 turns',
    ]);
    expect(messages({ scenarioCard: { ...card('bocage'), visibility: 0 } })[0]).toMatch(/^scenarioCard\.visibility: /);
    expect(messages({ scenarioCard: { ...card('bocage'), emplaced: 'pak40' } })[0]).toMatch(/^scenarioCard\.emplaced: /);
  });
  it('the picture lists the card’s special rules', () => {
    const text = (id: string) => renderText(actionFront.scene!(fresh({ scenario: id }), { kind: 'spectator' }));
    expect(text('bocage')).toContain('Special rule: emplaced, never move: pak40');
    expect(text('river-crossing')).toContain('Special rule: P-47 Thunderbolts from game turn 3');
    expect(text('river-crossing')).toContain('Special rule: no unit sets up Dug In');
    expect(text('edsons-ridge')).toContain('Special rule: no line of sight beyond 5 hexes');
  });
});
