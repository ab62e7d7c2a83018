import { describe, expect, it } from 'vitest';
import { actionFront } from '../../domain/action-front/index.js';
import { fireTargets, fireValues } from '../../domain/action-front/rules.js';
import { play, position, unit } from './given.js';

/**
 * Every worked example of 004, card for card, with the deck stacked as the example draws it.
 * 004 prints no map or counters: the positions are RECONSTRUCTIONS on the representative
 * "guadalcanal-ridge" map of the Edson's Ridge scenario (RULINGS.md, "Worked examples"):
 * allies-05 M2A2 105mm in 0403, allies-06 Edson and allies-04 M2 HMG in 0402, allies-03 USMC
 * Engineer in 0503, allies-01 USMC Raider (one step left) in 0703; IJA Infantry axis-01 in 0602,
 * axis-02 in 0803, axis-03 on the ridge in 0604, axis-04 behind the jungle in 0601. The 105mm
 * example's drift hexes are printed "0902 or 0903", three columns from its 0602 target: read as
 * 0702/0703, the two hexes one column nearer the Japanese edge.
 */
const AT = {
  'allies-05': '0403',
  'allies-06': '0402',
  'allies-04': '0402',
  'allies-03': '0503',
  'allies-01': '0703',
  'axis-01': '0602',
  'axis-02': '0803',
  'axis-03': '0604',
  'axis-04': '0601',
};
const RAIDER_ONE_STEP = { 'allies-01': { steps: 1 } };

describe('004 worked example: the Indirect Fire Phase', () => {
  const start = position({
    options: { scenario: 'edsons-ridge' },
    at: AT,
    phase: 'indirect',
    top: ['8C', 'KD', 'JS', '5H', 'JD', '10H', '3D'],
    units: RAIDER_ONE_STEP,
  });

  it('105mm Howitzer: 8♣ is Over 1, K♦ breaks the tie to the right (0703), J♠ misses, 5♥ eliminates the one-step USMC Raider', () => {
    const { state, events } = play(start, 'allies', { type: 'IndirectFire', unit: 'allies-05', hex: '0602' });
    expect(events.filter((e) => e.type === 'CardsDrawn').map((e) => e.type === 'CardsDrawn' && [e.purpose, e.cards])).toEqual([
      ['accuracy', ['8C']],
      ['drift tie-break', ['KD']],
      ['attack on allies-01', ['JS', '5H']],
    ]);
    expect(events).toContainEqual({ type: 'MarkerDrifted', from: '0602', to: '0703' });
    expect(events).toContainEqual({ type: 'StepLost', unit: 'allies-01', card: '5H', cause: 'artillery' });
    expect(unit(state, 'allies-01').status).toBe('eliminated');
    expect(unit(state, 'axis-01').steps).toBe(3);
    expect(state.markers).toEqual([{ kind: 'artillery', hex: '0703', owner: 'allies' }]);
    expect(unit(state, 'allies-05').firedIndirect).toBe(true);
  });

  it('Air Support on 0803 from entry hex 0805: J♦ hits, 10♥ misses, 3♦ costs the IJA Infantry a step and suppresses it (Training 2)', () => {
    const after105 = play(start, 'allies', { type: 'IndirectFire', unit: 'allies-05', hex: '0602' }).state;
    const { state, events } = play(after105, 'allies', { type: 'CallAirStrike', mission: 'allies-m2', hex: '0803', entry: '0805' });
    expect(after105.missions.allies.find((m) => m.id === 'allies-m2')).toMatchObject({ kind: 'air', hard: -2, soft: 6 });
    expect(events.filter((e) => e.type === 'CardsDrawn').map((e) => e.type === 'CardsDrawn' && e.cards)).toEqual([['JD'], ['10H', '3D']]);
    expect(events.some((e) => e.type === 'MarkerDrifted')).toBe(false);
    expect(unit(state, 'axis-02')).toMatchObject({ steps: 2, suppressed: true });
    expect(state.markers.map((m) => [m.kind, m.hex])).toEqual([
      ['artillery', '0703'],
      ['air', '0803'],
    ]);
  });

  it("Bill's 5-inch naval gun: Q♦ is Over 2, two hexes toward the opponent's edge (0602 to 0802)", () => {
    const s = position({ options: { scenario: 'edsons-ridge' }, at: AT, phase: 'indirect', top: ['QD', '9C', '9S', '9H'] });
    const { events } = play(s, 'allies', { type: 'CallFireSupport', mission: 'allies-m1', hex: '0602' });
    expect(events).toContainEqual({ type: 'MarkerDrifted', from: '0602', to: '0802' });
    // Line of sight was needed to 0602 only; three cards then attack the IJA Infantry found in 0802 (none here).
    expect(events.filter((e) => e.type === 'CardsDrawn')).toHaveLength(1);
  });
});

describe('004 worked example: the Action Phase with the M2 HMG', () => {
  // Reconstruction: an IJA Infantry stands in 0703 under the Artillery marker (the best target), another behind the jungle in 0601.
  const s = position({
    options: { scenario: 'edsons-ridge' },
    at: { ...AT, 'axis-01': '0703', 'allies-01': '0101' },
    phase: 'action',
    top: ['JC', 'AH', '5S', '8C'],
    units: { 'allies-04': { twoActions: true } },
    markers: [{ kind: 'artillery', hex: '0703', owner: 'allies' }],
  });
  const hmg = unit(s, 'allies-04');

  it('the Artillery marker blocks the line to 0703, the jungle in 0502 the line to 0601; 0604 can be fired on', () => {
    const targets = fireTargets(s, hmg).map((u) => u.id);
    expect(targets).toContain('axis-03');
    expect(targets).not.toContain('axis-01');
    expect(targets).not.toContain('axis-04');
  });

  it('Soft Attack 5 is 4 across the hill hexside; four cards (two steps + Rate of Fire 2): J♣, A♥, 5♠, 8♣: only the Ace hits, and a Heart does not suppress Training 2', () => {
    expect(fireValues(s, hmg, unit(s, 'axis-03'))).toEqual({ range: 3, hard: -6, soft: 4 });
    const { state, events } = play(s, 'allies', { type: 'Fire', unit: 'allies-04', target: 'axis-03' });
    expect(events.find((e) => e.type === 'CardsDrawn')).toMatchObject({ cards: ['JC', 'AH', '5S', '8C'] });
    expect(events.filter((e) => e.type === 'StepLost')).toEqual([{ type: 'StepLost', unit: 'axis-03', card: 'AH', cause: 'fire' }]);
    expect(unit(state, 'axis-03')).toMatchObject({ steps: 2, suppressed: false });
  });

  it('at a range of four hexes the M2 HMG attacks at −6/4', () => {
    const far = position({ options: { scenario: 'edsons-ridge' }, at: { 'allies-04': '0402', 'axis-01': '0802' } });
    expect(fireValues(far, unit(far, 'allies-04'), unit(far, 'axis-01'))).toEqual({ range: 4, hard: -6, soft: 4 });
  });

  it('then Edson moves from 0402 into 0403, where the Howitzer is: a Leader may enter a friendly unit’s hex', () => {
    const fired = play(s, 'allies', { type: 'Fire', unit: 'allies-04', target: 'axis-03' }).state;
    expect(actionFront.legalCommands(fired, 'allies')).toContainEqual({ type: 'Move', unit: 'allies-06', to: '0403' });
    const { state } = play(fired, 'allies', { type: 'Move', unit: 'allies-06', to: '0403' });
    expect(unit(state, 'allies-06').hex).toBe('0403');
  });
});
