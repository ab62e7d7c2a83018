import { describe, expect, it } from 'vitest';
import { scriptedRng } from '../../domain/kernel/index.js';
import { actionFront, type Event } from '../../domain/action-front/index.js';
import { cardValue, FULL_DECK, isFace, isRed, tieBreakSide } from '../../domain/action-front/data/cards.js';
import { accuracyOf, rallies, REPRESENTATIVE_TABLES as T, suppresses } from '../../domain/action-front/data/tables.js';
import { evolve } from '../../domain/action-front/evolve.js';
import { Out } from '../../domain/action-front/out.js';
import { allHexes, distance } from '../../domain/action-front/hexmap.js';
import {
  assaultCards,
  assaultWinner,
  canAct,
  cardHits,
  entry,
  fireTargets,
  fireValues,
  hitsOn,
  isCarried,
  trainingOf,
  typeOf,
} from '../../domain/action-front/rules.js';
import { victory } from '../../domain/action-front/victory.js';
import { play, position, refused, unit } from './given.js';

const legal = (s: Parameters<typeof actionFront.legalCommands>[0], seat = 'allies') => actionFront.legalCommands(s, seat);
const ER = { scenario: 'edsons-ridge' };
const typeOfUnit = (s: Parameters<typeof typeOf>[0], id: string) => typeOf(s, unit(s, id));

describe('the deck (004 Introduction)', () => {
  it('52 cards, no jokers, all different', () => expect(new Set(FULL_DECK).size).toBe(52));
  it('Ace is 1, number cards their number, face cards have no value (ruling)', () =>
    expect(['AH', '7C', '10S', 'JD', 'KC'].map(cardValue)).toEqual([1, 7, 10, undefined, undefined]));
  it('face cards are J, Q, K', () => expect(['JD', 'QS', 'KH', '10C'].map(isFace)).toEqual([true, true, true, false]));
  it('hearts and diamonds are red', () => expect(['AH', '2D', '3C', '4S'].map(isRed)).toEqual([true, true, false, false]));
  it('clubs and spades mean left, hearts and diamonds right', () =>
    expect(['AC', 'AS', 'AH', 'AD'].map(tieBreakSide)).toEqual(['left', 'left', 'right', 'right']));
});

describe('Combat Results Tables (representative)', () => {
  it('Indirect Fire Table: 8♣ Over 1, Q♦ Over 2 on the artillery column, J♦ a hit on the air column', () =>
    expect([accuracyOf(T, 'artillery', '8C'), accuracyOf(T, 'artillery', 'QD'), accuracyOf(T, 'air', 'JD'), accuracyOf(T, 'artillery', '3S')]).toEqual([
      { kind: 'over', hexes: 1 },
      { kind: 'over', hexes: 2 },
      { kind: 'hit' },
      { kind: 'hit' },
    ]));
  it('Suppression Table: Training 2 is suppressed by a Diamond, not a Heart', () =>
    expect([suppresses(T, 2, 'D'), suppresses(T, 2, 'H'), suppresses(T, 9, 'S'), suppresses(T, -3, 'H')]).toEqual([true, false, false, true]));
  it('Rally Table: Training 2 rallies on a Club, not a Spade', () => expect([rallies(T, 2, 'C'), rallies(T, 2, 'S')]).toEqual([true, false]));
  it('armoured: Hard Attack + card ≥ armour; unarmoured: card ≤ Soft Attack; face cards miss', () =>
    expect([
      cardHits('6S', 9, 3, 0),
      cardHits('5S', 9, 3, 0),
      cardHits('KS', 1, 9, 9),
      cardHits('5H', undefined, 0, 5),
      cardHits('6H', undefined, 0, 5),
    ]).toEqual([true, false, false, true, false]));
});

describe('training, suppression and Dug In (004 Leaders; Status Markers)', () => {
  const s = position({
    options: ER,
    at: { 'allies-01': '0202', 'allies-06': '0203', 'allies-03': '0205', 'axis-01': '1001' },
    units: { 'allies-03': { suppressed: true } },
  });
  it('a Leader adds its bonus to units in its hex or next to it', () =>
    expect([trainingOf(s, unit(s, 'allies-01')), trainingOf(s, unit(s, 'axis-01'))]).toEqual([6, 2]));
  it('a Suppressed unit has −1 Training', () => expect(trainingOf(s, unit(s, 'allies-03'))).toBe(2));
  it('in an assault only a Leader in the same hex counts (ruling)', () => expect(trainingOf(s, unit(s, 'allies-01'), true)).toBe(4));
  it('Dug In ignores the first step loss of each attack, with no suppression check for it', () => {
    const dug = { ...unit(s, 'axis-01'), dugIn: true };
    expect(hitsOn(s, dug, ['3D', 'KS', '2S'], 0, 4, 'fire').map((e) => e.type)).toEqual(['HitAbsorbed', 'StepLost', 'UnitSuppressed']);
  });
  it('a second suppression has no effect; a unit with no steps left takes no more hits', () => {
    const ija = { ...unit(s, 'axis-01'), steps: 2 };
    expect(hitsOn(s, ija, ['2D', '3D', '4D'], 0, 4, 'fire').map((e) => e.type)).toEqual(['StepLost', 'UnitSuppressed', 'StepLost']);
  });
});

describe('actions (004 The Action Phase)', () => {
  const s = position({
    options: ER,
    at: { 'allies-01': '0202', 'allies-06': '0203', 'allies-03': '0205', 'allies-04': '0402', 'allies-05': '0403', 'axis-01': '0303', 'axis-07': '0404' },
    units: { 'allies-01': { twoActions: true }, 'allies-03': { suppressed: true }, 'allies-05': { firedIndirect: true } },
  });
  it('a unit that fired in the Indirect Fire Phase, or is Suppressed, may not act', () =>
    expect([canAct(s, unit(s, 'allies-05'), 'move'), canAct(s, unit(s, 'allies-03'), 'move')]).toEqual([false, false]));
  it('a unit next to a Leader at the start may move and fire, but not move twice', () => {
    const moved = play(s, 'allies', { type: 'Move', unit: 'allies-01', to: '0201' }).state;
    expect([canAct(moved, unit(moved, 'allies-01'), 'move'), canAct(moved, unit(moved, 'allies-01'), 'fire')]).toEqual([false, true]);
  });
  it('a unit without a Leader takes one action', () => {
    const fired = play(s, 'allies', { type: 'Fire', unit: 'allies-04', target: 'axis-07' }).state;
    expect(canAct(fired, unit(fired, 'allies-04'), 'move')).toBe(false);
  });
  it('a Leader moves and takes one Rally or Dig In, but never fires', () => {
    expect(legal(s).some((c) => c.type === 'Fire' && c.unit === 'allies-06')).toBe(false);
    expect(canAct(s, unit(s, 'allies-06'), 'command')).toBe(true);
  });
  it('one unit per hex: a troop unit may not enter a friendly troop unit’s hex, a Leader may', () => {
    expect(entry(s, unit(s, 'allies-01'), '0402')).toBe('no');
    expect(entry(s, unit(s, 'allies-06'), '0402')).toBe('pass');
  });
  it('infantry may enter an enemy hex to assault (and stop there); other units may not', () => {
    expect(entry(s, unit(s, 'allies-01'), '0303')).toBe('stop');
    expect(entry(s, unit(s, 'allies-04'), '0303')).toBe('no');
  });
  it('a Leader left alone with an enemy unit is eliminated at once', () => {
    const t = position({ options: ER, at: { 'allies-03': '0403', 'axis-07': '0404', 'axis-01': '1001' } });
    const { state, events } = play(t, 'allies', { type: 'Move', unit: 'allies-03', to: '0404' });
    expect(events).toContainEqual({ type: 'UnitEliminated', unit: 'axis-07', cause: 'leader alone with the enemy' });
    expect(unit(state, 'allies-03').hex).toBe('0404');
  });
  it('only Tracked units may enter a hex with an Artillery marker', () => {
    const t = position({
      options: { scenario: 'bocage' },
      at: { 'allies-01': '0101', 'allies-04': '0103' },
      markers: [{ kind: 'artillery', hex: '0102', owner: 'axis' }],
    });
    expect([entry(t, unit(t, 'allies-01'), '0102'), entry(t, unit(t, 'allies-04'), '0102')]).toEqual(['no', 'pass']);
  });
  it('moving takes away Dug In', () => {
    const t = position({ options: ER, at: { 'allies-03': '0403', 'axis-01': '1001' }, units: { 'allies-03': { dugIn: true } } });
    expect(unit(play(t, 'allies', { type: 'Move', unit: 'allies-03', to: '0402' }).state, 'allies-03').dugIn).toBe(false);
  });
  it('a unit may not enter a hex its movement points do not cover', () =>
    expect(refused(s, 'allies', { type: 'Move', unit: 'allies-04', to: '0902' })).toBe('move/unreachable'));
});

describe('Leader actions: Rally and Dig In (004 Leader Actions)', () => {
  const base = (top: string[]) =>
    position({
      options: ER,
      active: 'axis',
      at: { 'axis-07': '1002', 'axis-01': '1003', 'allies-01': '0101' },
      units: { 'axis-01': { suppressed: true } },
      top,
    });
  it('Rally: Training 2 + 1 (officer) − 1 (Suppressed) = 2: a Club rallies, and the unit may act', () => {
    const { state } = play(base(['4C']), 'axis', { type: 'Rally', leader: 'axis-07', unit: 'axis-01' });
    expect(unit(state, 'axis-01').suppressed).toBe(false);
    expect(canAct(state, unit(state, 'axis-01'), 'move')).toBe(true);
  });
  it('Rally: a Spade fails', () =>
    expect(unit(play(base(['4S']), 'axis', { type: 'Rally', leader: 'axis-07', unit: 'axis-01' }).state, 'axis-01').suppressed).toBe(true));
  const dig = (card: string) => {
    const s = position({ options: ER, active: 'axis', at: { 'axis-07': '1002', 'axis-01': '1003', 'allies-01': '0101' }, top: [card] });
    return play(s, 'axis', { type: 'DigIn', leader: 'axis-07', unit: 'axis-01' }).state;
  };
  it('Dig In: a card ≤ Training 2 + 1 succeeds, and the unit acts no more this phase', () => {
    const s = dig('3H');
    expect(unit(s, 'axis-01').dugIn).toBe(true);
    expect(canAct(s, unit(s, 'axis-01'), 'move')).toBe(false);
  });
  it('Dig In: a card above Training fails, a face card always fails (ruling)', () =>
    expect([unit(dig('4H'), 'axis-01').dugIn, unit(dig('QH'), 'axis-01').dugIn]).toEqual([false, false]));
  it('only Leg and Towed units dig in', () => {
    const s = position({ options: { scenario: 'bocage' }, at: { 'allies-06': '0102', 'allies-04': '0103', 'axis-01': '1001' } });
    expect(refused(s, 'allies', { type: 'DigIn', leader: 'allies-06', unit: 'allies-04' })).toBe('dig/unavailable');
  });
});

describe('transport (004 Move: Transport)', () => {
  const RC = { scenario: 'river-crossing' };
  const s = position({ options: RC, at: { 'allies-04': '0102', 'allies-01': '0102', 'axis-01': '1201' } });
  it('a Leg unit with a transport may not fire', () => expect(isCarried(s, unit(s, 'allies-01'))).toBe(true));
  it('the transport carries a Leg unit that began the phase with it', () => {
    const { state } = play(s, 'allies', { type: 'Move', unit: 'allies-04', to: '0302', carry: 'allies-01' });
    expect([unit(state, 'allies-04').hex, unit(state, 'allies-01').hex]).toEqual(['0302', '0302']);
  });
  it('a transport may enter a friendly Leg unit’s hex', () => {
    const t = position({ options: RC, at: { 'allies-04': '0101', 'allies-01': '0102', 'axis-01': '1201' } });
    expect(entry(t, unit(t, 'allies-04'), '0102')).toBe('pass');
  });
  it('being carried is the carried unit’s move: it may not move again this phase (ruling)', () => {
    const { state } = play(s, 'allies', { type: 'Move', unit: 'allies-04', to: '0302', carry: 'allies-01' });
    expect(canAct(state, unit(state, 'allies-01'), 'move')).toBe(false);
    expect(legal(state).some((c) => c.type === 'Move' && c.unit === 'allies-01')).toBe(false);
  });
  it('a unit that cannot move (here: it fired in the Indirect Fire Phase) may not be carried', () => {
    const t = position({ options: RC, at: { 'allies-04': '0102', 'allies-01': '0102', 'axis-01': '1201' }, units: { 'allies-01': { firedIndirect: true } } });
    expect(refused(t, 'allies', { type: 'Move', unit: 'allies-04', to: '0302', carry: 'allies-01' })).toBe('move/no-carry');
  });
  it('a Suppressed unit may not be carried', () => {
    const t = position({ options: RC, at: { 'allies-04': '0102', 'allies-01': '0102', 'axis-01': '1201' }, units: { 'allies-01': { suppressed: true } } });
    expect(refused(t, 'allies', { type: 'Move', unit: 'allies-04', to: '0302', carry: 'allies-01' })).toBe('move/no-carry');
  });
});

describe('Assault, Marker and End of Game Turn phases', () => {
  // Allies move second in Edson's Ridge: their EndActions ends the game turn.
  const at = { 'allies-01': '0303', 'axis-01': '0303', 'axis-06': '0905', 'axis-07': '1001' };
  const gone = { status: 'eliminated' as const, steps: 0 };
  const assaultPosition = (top: string[]) =>
    position({
      options: ER,
      at,
      top,
      markers: [
        { kind: 'artillery', hex: '0505', owner: 'axis' },
        { kind: 'air', hex: '0504', owner: 'allies' },
      ],
      units: { 'allies-01': { suppressed: true }, 'axis-02': gone, 'axis-03': gone, 'axis-04': gone, 'axis-05': gone },
    });
  it('assault cards: Training + steps, +1 infantry, +1 Dug In', () => {
    const s = assaultPosition([]);
    expect([assaultCards(s, unit(s, 'allies-01')), assaultCards(s, { ...unit(s, 'axis-01'), dugIn: true })]).toEqual([3 + 3 + 1, 2 + 3 + 1 + 1]);
  });
  it('more red cards wins; a tie goes to the phasing player', () =>
    expect([assaultWinner('allies', { allies: 2, axis: 2 }), assaultWinner('allies', { allies: 2, axis: 3 })]).toEqual(['allies', 'axis']));
  it('the loser is eliminated; then own Suppressed markers and the opponent’s Artillery markers go; the turn ends with a full reshuffle and reinforcements', () => {
    // Raider 7 cards, 3 red; IJA 6 cards, 3 red: a tie, the phasing Marines win.
    const { state, events } = play(assaultPosition(['AH', 'AD', '2H', 'AC', 'AS', '2C', '2S', '3H', '3D', '4H', '3C', '3S', '4C']), 'allies', {
      type: 'EndActions',
    });
    expect(events).toContainEqual({
      type: 'AssaultResolved',
      hex: '0303',
      attacker: 'allies-01',
      defender: 'axis-01',
      reds: { allies: 3, axis: 3 },
      winner: 'allies',
    });
    expect(unit(state, 'axis-01').status).toBe('eliminated');
    expect(unit(state, 'allies-01').suppressed).toBe(false);
    expect(state.markers).toEqual([{ kind: 'air', hex: '0504', owner: 'allies' }]);
    const shuffled = events.find((e) => e.type === 'DeckShuffled');
    expect(shuffled && shuffled.type === 'DeckShuffled' && shuffled.order.length).toBe(52);
    expect(state.deck.discard).toEqual([]);
    expect(state.placement).toEqual({ seat: 'axis', kind: 'reinforce', min: 2, max: 2, placed: 0 });
    expect(actionFront.legalCommands(state, 'axis').every((c) => c.type !== 'PlaceUnit' || c.hex.startsWith('12'))).toBe(true);
  });
});

describe('an assault with a transport (004 Resolving Assaults, step 2)', () => {
  // River crossing: the Americans move first, so their EndActions runs their Assault Phase, then the German turn begins.
  const s = position({
    options: { scenario: 'river-crossing' },
    at: { 'allies-04': '0505', 'allies-01': '0505', 'axis-01': '0505', 'axis-02': '1201' },
    top: ['AC', '2C', '3C', 'AH', '2H', '3H', '4H', '5H', '6H', '7H'],
  });
  it('the halftrack fights as if its cargo were not there (Training 2 + 1 step: three cards); losing, it dies with its cargo', () => {
    const { state, events } = play(s, 'allies', { type: 'EndActions' });
    const drawn = events.flatMap((e) => (e.type === 'CardsDrawn' ? [[e.purpose, e.cards.length]] : []));
    expect(drawn[0]).toEqual(['assault: allies-04', 3]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'AssaultResolved', attacker: 'allies-04', defender: 'axis-01', winner: 'axis' }));
    expect([unit(state, 'allies-04').status, unit(state, 'allies-01').status, unit(state, 'axis-01').status]).toEqual(['eliminated', 'eliminated', 'map']);
  });
});

describe('indirect fire limits (004 The Indirect Fire Phase)', () => {
  const s = position({
    options: ER,
    phase: 'indirect',
    at: { 'allies-03': '0503', 'allies-05': '0403', 'axis-01': '0602' },
    top: ['2C', '9C', '9S', '9H', '2S', '9D', '8D', '8H'],
  });
  it('one off-map Artillery or Naval mission per phase', () => {
    const fired = play(s, 'allies', { type: 'CallFireSupport', mission: 'allies-m1', hex: '0602' }).state;
    expect(fired.offMapUsed).toBe(true);
    expect(actionFront.legalCommands(fired, 'allies').some((c) => c.type === 'CallFireSupport')).toBe(false);
  });
  it('three cards for each unit in the hex from an off-map mission', () => {
    const { events } = play(s, 'allies', { type: 'CallFireSupport', mission: 'allies-m1', hex: '0602' });
    expect(events.filter((e) => e.type === 'CardsDrawn').map((e) => e.type === 'CardsDrawn' && e.cards.length)).toEqual([1, 3]);
  });
  it('the air entry hex must be on the map edge in a straight row from the target', () =>
    expect(refused(s, 'allies', { type: 'CallAirStrike', mission: 'allies-m2', hex: '0602', entry: '0905' })).toBe('fire/illegal'));
  it('a hex no friendly unit sees may not be targeted', () =>
    expect(refused(s, 'allies', { type: 'CallFireSupport', mission: 'allies-m1', hex: '0804' })).toBe('fire/illegal'));
  it('an empty hex may be targeted', () =>
    expect(play(s, 'allies', { type: 'CallFireSupport', mission: 'allies-m1', hex: '0603' }).events[0]).toMatchObject({ type: 'StrikeDeclared', hex: '0603' }));
});

describe('optional rules (004 Optional Rules)', () => {
  it('Artillery Registration: a registered hex takes no accuracy card', () => {
    const s = position({
      options: { scenario: 'bocage', artilleryRegistration: true },
      phase: 'indirect',
      at: { 'allies-01': '0502', 'axis-01': '0602' },
      top: ['KH', '2C', '3C'],
    });
    const { events } = play({ ...s, registered: { allies: ['0602'], axis: [] } }, 'allies', { type: 'CallFireSupport', mission: 'allies-m1', hex: '0602' });
    expect(events[0]).toMatchObject({ registered: true });
    expect(events.filter((e) => e.type === 'CardsDrawn').map((e) => e.type === 'CardsDrawn' && e.purpose)).toEqual(['attack on axis-01']);
  });
  const registeredRidge = (top: string[]) => ({
    ...position({
      options: { ...ER, artilleryRegistration: true },
      phase: 'indirect',
      at: { 'allies-03': '0503', 'allies-05': '0403', 'axis-01': '0602' },
      top,
    }),
    registered: { allies: ['0602'], axis: [] },
  });
  const purposes = (events: Event[]) => events.flatMap((e) => (e.type === 'CardsDrawn' ? [e.purpose] : []));
  it('Artillery Registration serves an on-map artillery unit too', () => {
    const { events } = play(registeredRidge(['9C', '9S']), 'allies', { type: 'IndirectFire', unit: 'allies-05', hex: '0602' });
    expect(events[0]).toMatchObject({ type: 'StrikeDeclared', registered: true });
    expect(purposes(events)).toEqual(['attack on axis-01']);
  });
  it('Artillery Registration never serves a naval mission: the accuracy card is drawn', () => {
    const { events } = play(registeredRidge(['2C', '9C', '9S', '9H']), 'allies', { type: 'CallFireSupport', mission: 'allies-m1', hex: '0602' });
    expect(events[0]).toMatchObject({ type: 'StrikeDeclared', registered: false });
    expect(purposes(events)).toEqual(['accuracy', 'attack on axis-01']);
  });
  it('Friendly Fire: a friendly unit beside the line (it runs along its hexside) draws no card', () => {
    const s = position({
      options: { ...ER, friendlyFire: true },
      at: { 'allies-04': '0103', 'allies-03': '0303', 'allies-01': '0203', 'axis-01': '0503' },
      top: ['KC', 'QC', 'KD', 'KH', 'AS', '2S'],
    });
    const { events } = play(s, 'allies', { type: 'Fire', unit: 'allies-04', target: 'axis-01' });
    expect(purposes(events)).toEqual(['fire on axis-01', 'friendly fire on allies-03']);
  });
  it('Friendly Fire: a card for a friendly unit on the line of fire; a Spade costs it a step', () => {
    const s = position({
      options: { ...ER, friendlyFire: true },
      at: { 'allies-04': '0103', 'allies-03': '0303', 'axis-01': '0503' },
      top: ['KC', 'QC', 'KD', 'KH', 'AS'],
    });
    const { events } = play(s, 'allies', { type: 'Fire', unit: 'allies-04', target: 'axis-01' });
    expect(events).toContainEqual({ type: 'StepLost', unit: 'allies-03', card: 'AS', cause: 'friendly fire' });
  });
});

describe('fire: terrain, range, indirect fire (004 Fire; The Indirect Fire Phase; Player Aid Card)', () => {
  it('a target in jungle is attacked at one less (Terrain Effects Chart, representative)', () => {
    const s = position({ options: ER, at: { 'allies-04': '0402', 'axis-01': '0502' } });
    expect(fireValues(s, unit(s, 'allies-04'), unit(s, 'axis-01'))).toEqual({ range: 1, hard: -6, soft: 4 });
  });
  it('a unit fires only at enemy units within its range', () => {
    const open = { id: 'normandy-bocage', name: 'open ground', cols: 12, rows: 6, terrain: {}, hills: [], rivers: [] };
    const base = position({ options: { scenario: 'bocage', maps: [open] }, at: { 'allies-03': '0101' } });
    const range = typeOfUnit(base, 'allies-03').range;
    const at = (d: number) => allHexes(base.map).find((h) => distance('0101', h) === d)!;
    const s = position({ options: { scenario: 'bocage', maps: [open] }, at: { 'allies-03': '0101', 'axis-01': at(range), 'axis-02': at(range + 1) } });
    expect(fireTargets(s, unit(s, 'allies-03')).map((u) => u.id)).toEqual(['axis-01']);
  });
  it('a Suppressed on-map artillery unit may not fire in the Indirect Fire Phase', () => {
    const s = position({
      options: ER,
      phase: 'indirect',
      at: { 'allies-03': '0503', 'allies-05': '0403', 'axis-01': '0602' },
      units: { 'allies-05': { suppressed: true } },
    });
    expect(refused(s, 'allies', { type: 'IndirectFire', unit: 'allies-05', hex: '0602' })).toBe('fire/illegal');
    expect(legal(s).some((c) => c.type === 'IndirectFire')).toBe(false);
  });
});

describe('Exit (ruling: a troop unit on the opponent’s edge column leaves the map with its move)', () => {
  const s = position({ options: { scenario: 'river-crossing' }, at: { 'allies-01': '1203', 'allies-02': '1103', 'allies-06': '1201', 'axis-01': '0101' } });
  it('a troop unit on the opponent’s edge column may exit; one short of it, or a Leader, may not', () => {
    expect(legal(s).filter((c) => c.type === 'Exit')).toEqual([{ type: 'Exit', unit: 'allies-01' }]);
    expect([refused(s, 'allies', { type: 'Exit', unit: 'allies-02' }), refused(s, 'allies', { type: 'Exit', unit: 'allies-06' })]).toEqual([
      'action/unavailable',
      'action/unavailable',
    ]);
    const { state } = play(s, 'allies', { type: 'Exit', unit: 'allies-01' });
    expect([unit(state, 'allies-01').status, state.exited.allies]).toEqual(['exited', 1]);
  });
});

describe('the deck through a game (004 Introduction; End of Game Turn)', () => {
  it('a draw from an empty deck shuffles the used cards back with the committed dice', () => {
    const s = position({ options: ER, at: {} });
    const empty = { ...s, deck: { draw: [], discard: [...FULL_DECK] } };
    const out = new Out(empty, { rng: scriptedRng([], (xs) => [...xs].reverse()) });
    expect(out.draw(2, 'test')).toEqual(['KS', 'QS']);
    expect(out.list.map((e) => [e.event.type, e.visibility])).toEqual([
      ['DeckReshuffled', { to: 'none' }],
      ['CardsDrawn', { to: 'all' }],
    ]);
    expect(out.s.deck.draw).toHaveLength(50);
  });
  it('drawn cards are face up in the discard pile', () => {
    const s = position({ options: ER, at: {} });
    expect(evolve(s, { type: 'CardsDrawn', purpose: 'x', cards: ['AS'], fresh: true }).deck.discard).toEqual(['AS']);
  });
});

describe('victory (Scenario Cards; Creating Your Own Scenarios)', () => {
  const s = position({ options: { scenario: 'river-crossing' }, at: { 'allies-01': '0101', 'axis-01': '1201' } });
  it('an exit made wins at once', () => expect(victory({ ...s, exited: { allies: 1, axis: 0 } })?.winners).toEqual(['allies']));
  it('no exit by the last turn loses', () => expect(victory({ ...s, turn: 7 })?.winners).toEqual(['axis']));
  it('a side with no troop unit on the map or to come loses', () => {
    const gone = { ...s, units: s.units.map((u) => (u.owner === 'axis' ? { ...u, status: 'eliminated' as const, hex: null } : u)) };
    expect(victory(gone)?.winners).toEqual(['allies']);
  });
  it('Edson’s Ridge: the IJA wins holding a ridge hex at the end of turn 6', () => {
    const r = position({ options: ER, at: { 'axis-01': '0604', 'allies-01': '0101' } });
    expect([victory({ ...r, turn: 5 }), victory({ ...r, turn: 6 })?.winners]).toEqual([undefined, ['axis']]);
  });
  it('steps: more enemy steps eliminated wins; equal is a draw', () => {
    const b = position({ options: { scenario: 'bocage' }, at: { 'allies-01': '0101', 'axis-01': '1201' } });
    expect([victory({ ...b, turn: 6, stepsLost: { allies: 1, axis: 2 } })?.winners, victory({ ...b, turn: 6 })?.winners]).toEqual([['allies'], []]);
  });
});
