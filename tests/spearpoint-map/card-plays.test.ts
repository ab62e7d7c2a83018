import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { BUILT_IN_CATALOG } from '../../domain/frontline-general/data/catalog.js';
import { decideStandingOrders, scriptedRng } from '../../domain/kernel/index.js';
import { resolveAttack } from '../../domain/spearpoint-map/combat.js';
import type { Attack, Command, Phase, State } from '../../domain/spearpoint-map/model.js';
import { Out } from '../../domain/spearpoint-map/out.js';
import { cannotAttack, hitNeeded } from '../../domain/spearpoint-map/rules.js';
import { endTurn } from '../../domain/spearpoint-map/turn.js';
import { given, refused, run, type Piece } from './given.js';
import { engine, newGame, stateOf } from './play.js';

/** A position where `seat` holds one copy of each named Command card (returned in order). */
function holding(titles: string[], phase: Phase, units: Piece[], seat: 'us' | 'de' = 'us'): { s: State; cards: string[] } {
  const s = given({ units, phase });
  // From the whole catalog: Man vs. Beast removes some titles from its deck (003 §IV).
  const cards: string[] = [];
  for (const t of titles) cards.push(s.catalog.commandCards.find((c) => c.title === t && !cards.includes(c.id))!.id);
  return { s: { ...s, seats: { ...s.seats, [seat]: { ...s.seats[seat], commands: cards } } }, cards };
}
const rifle = (id: string, at: string, side = 'us'): Piece => ({ id, card: `${side}-rifle-squad`, at });
const sherman = (id: string, at: string): Piece => ({ id, card: 'us-m4a1-sherman', crew: 'us-tank-crew', at });
const tiger = (id: string, at: string): Piece => ({ id, card: 'de-tiger-i', crew: 'de-tank-crew', at });
const howitzer = (id: string): Piece => ({ id, card: 'us-105mm-howitzer', crew: 'us-artillery-crew', at: 'rear' });
const play = (card: string, target?: string, by?: string, keep?: boolean): Command => ({
  type: 'PlayCommand',
  card,
  ...(target === undefined ? {} : { target }),
  ...(by === undefined ? {} : { by }),
  ...(keep === undefined ? {} : { keep }),
});
const withUnit = (s: State, id: string, patch: Partial<State['units'][string]>): State => ({
  ...s,
  units: { ...s.units, [id]: { ...s.units[id]!, ...patch } },
});
const damageCard = (s: State): string => s.damageDeck.draw[0]!;
const turnOver = (s: State, dice: number[]): Out => {
  const out = new Out({ ...s, phase: 'draw' });
  endTurn(out, { rng: scriptedRng(dice), now: '' });
  return out;
};

describe('003 §III Initiative: Ambush! as an Initiative bonus', () => {
  const { s, cards } = holding(['Ambush!', 'Ambush!'], 'draw', [rifle('r', 'C5'), rifle('g', 'A5', 'de')]);
  const [ambush] = cards;
  it("is played in the Draw phase without a target and adds 003's 2 (not the card's printed 3) to the next roll: 3 + 2 beats 4", () => {
    expect(s.catalog.commandCards.find((c) => c.id === ambush)!.effect).toMatchObject({ kind: 'initiative', amount: 3 });
    expect(engine.legalCommands(s, 'us')).toContainEqual(play(ambush!));
    const r = run(s, play(ambush!));
    expect(r.events).toEqual([{ type: 'CommandUsed', seat: 'us', card: ambush, effect: 'initiative', amount: 2 }]);
    expect(r.state.seats.us.initiativeBonus).toBe(2);
    expect(r.state.commandDeck.discard).toContain(ambush);
    const next = turnOver(r.state, [3, 4]);
    expect(next.list.map((e) => e.event).find((e) => e.type === 'InitiativeRolled')).toEqual({
      type: 'InitiativeRolled',
      rolls: [{ us: 3, de: 4 }],
      winner: 'us',
      bonus: { us: 2, de: 0 },
    });
    // +2, not +3: 2 + 2 against 4 is a tie, rolled again.
    expect(
      turnOver(r.state, [2, 4, 1, 9])
        .list.map((e) => e.event)
        .find((e) => e.type === 'InitiativeRolled'),
    ).toMatchObject({
      rolls: [
        { us: 2, de: 4 },
        { us: 1, de: 9 },
      ],
    });
    expect(next.s.seats.us.initiativeBonus).toBe(0);
    // Without the card the same dice give Germany the Initiative; equal totals are re-rolled.
    expect(turnOver(s, [2, 4]).s.initiative).toBe('de');
    const tie = turnOver(r.state, [2, 4, 1, 9]);
    expect(tie.list.map((e) => e.event).find((e) => e.type === 'InitiativeRolled')).toMatchObject({
      rolls: [
        { us: 2, de: 4 },
        { us: 1, de: 9 },
      ],
      winner: 'de',
    });
  });
  it('one bonus a turn; needs a front-line unit; takes no target; not in the Commitment phase', () => {
    const once = run(s, play(ambush!)).state;
    expect(refused(once, play(cards[1]!))).toBe('cards/initiative-played');
    expect(engine.legalCommands(once, 'us')).not.toContainEqual(play(cards[1]!));
    const alone = holding(['Ambush!'], 'draw', [rifle('g', 'A5', 'de')]);
    expect(refused(alone.s, play(alone.cards[0]!))).toBe('cards/no-front-line-unit');
    expect(refused(s, play(ambush!, 'r'))).toBe('cards/no-target');
    expect(refused({ ...s, phase: 'commitment' }, play(ambush!))).toBe('cards/wrong-phase');
    expect(refused(s, { type: 'PlayCommand', card: ambush!, at: 'C1' })).toBe('cards/no-entry');
  });
});

describe('003 §III Initiative (l.458): Ambush! used instead to bring units in during the Combat Phase', () => {
  // Gunter's Return: US units enter at A1, B1, C1. In hand: a rifle squad, a Sherman and its tank crew, a tank crew alone, a howitzer.
  const base = given({ scenario: 'gunters-return', units: [rifle('r', 'C5'), rifle('g', 'C2', 'de')] });
  const hand = { h1: 'us-rifle-squad', h2: 'us-m4a1-sherman', h2c: 'us-tank-crew', h3: 'us-105mm-howitzer' };
  const cardsIn = { ...base.cards, ...Object.fromEntries(Object.entries(hand).map(([k, card]) => [k, { card, owner: 'us' as const }])) };
  const ambush = base.catalog.commandCards.find((c) => c.title === 'Ambush!')!.id;
  const s: State = { ...base, cards: cardsIn, seats: { ...base.seats, us: { ...base.seats.us, hand: Object.keys(hand), commands: [ambush] } } };
  const bring = (target: string, at: string, crew?: string): Command => ({ type: 'PlayCommand', card: ambush, target, at, ...(crew ? { crew } : {}) });
  it('lists each unit of a listed type with its crew at each place a Commit could take it, and no bonus play', () => {
    const listed = engine.legalCommands(s, 'us').filter((c) => c.type === 'PlayCommand');
    expect(listed).toEqual(
      expect.arrayContaining([bring('h1', 'A1'), bring('h1', 'B1'), bring('h1', 'C1'), bring('h2', 'A1', 'h2c'), bring('h2', 'C1', 'h2c')]),
    );
    expect(listed).toHaveLength(6);
    expect(listed).not.toContainEqual(play(ambush));
  });
  it('the unit enters with its crew, the card leaves the game, and the unit may declare attacks this turn', () => {
    const r = run(s, bring('h2', 'C1', 'h2c'));
    expect(r.events).toEqual([
      { type: 'CommandUsed', seat: 'us', card: ambush, effect: 'ambush', amount: 1 },
      { type: 'UnitCommitted', seat: 'us', unit: 'h2', card: 'us-m4a1-sherman', crew: 'h2c', crewCard: 'h2c', at: 'C1' },
    ]);
    expect(r.state.units.h2).toMatchObject({ at: 'C1', crew: 'h2c', side: 'us', enteredTurn: 2 });
    expect(r.state.seats.us.hand).toEqual(['h1', 'h3']);
    expect(r.state.seats.us.commands).toEqual([]);
    expect(r.state.seats.us.initiativeBonus).toBe(0);
    expect(r.state.commandDeck.discard).toContain(ambush);
    expect(engine.legalCommands(r.state, 'us')).toContainEqual(expect.objectContaining({ type: 'DeclareAttack', attacker: 'h2', target: 'g' }));
  });
  it('an enemy at the entry space gets opportunity fire at the newcomer (003 Commitment 5)', () => {
    const held = { ...s, units: { ...s.units, g: { ...s.units.g!, at: 'B1' } } };
    const r = run(held, bring('h1', 'B1'));
    expect(r.events[2]).toMatchObject({ type: 'OpportunityFireOffered', seat: 'de', mover: 'h1', shooters: ['g'] });
  });
  it('refuses a unit not in hand, a type the card does not list, a missing or wrong crew, a place a Commit could not use, other phases', () => {
    expect(refused(s, bring('r', 'A1'))).toBe('cards/not-in-hand');
    expect(refused(s, { type: 'PlayCommand', card: ambush, at: 'A1' })).toBe('cards/not-in-hand');
    expect(refused(s, bring('h3', 'rear', 'h2c'))).toBe('cards/wrong-type');
    expect(refused(s, bring('h2', 'A1'))).toBe('cards/ambush-crew');
    expect(refused(s, bring('h2', 'A1', 'h1'))).toBe('cards/ambush-crew');
    expect(refused(s, bring('h1', 'A1', 'h2c'))).toBe('cards/ambush-crew');
    expect(refused(s, bring('h1', 'B5'))).toBe('cards/ambush-place');
    expect(refused(s, { type: 'PlayCommand', card: ambush, target: 'h1' })).toBe('cards/ambush-place');
    expect(refused(s, { type: 'PlayCommand', card: ambush, target: 'h1', at: 'A1', by: 'r' })).toBe('cards/no-by');
    expect(refused({ ...s, phase: 'commitment' }, bring('h1', 'A1'))).toBe('cards/wrong-phase');
    for (const id of ['__proto__', 'constructor', 'toString']) {
      expect(refused(s, bring(id, 'A1'))).toBe('cards/not-in-hand');
      expect(refused(s, bring('h1', id))).toBe('cards/ambush-place');
      expect(refused(s, bring('h2', 'A1', id))).toBe('cards/ambush-crew');
    }
  });
});

describe('003 §III Commitment: Commit Reserves and Resupply draw cards', () => {
  const { s, cards } = holding(['Commit Reserves', 'Resupply'], 'commitment', [rifle('r', 'C5')]);
  const [reserves, resupply] = cards as [string, string];
  it('Commit Reserves: the top 2 Reserves cards go to the hand, seen only by their owner', () => {
    expect(engine.legalCommands(s, 'us')).toContainEqual(play(reserves));
    const top = s.seats.us.reserves.slice(0, 2);
    const d = engine.decide(s, play(reserves), 'us', { rng: scriptedRng([]), now: '' });
    if (!d.ok) throw new Error(d.error.code);
    expect(d.value[0]).toMatchObject({ event: { type: 'CommandUsed', effect: 'reinforce', amount: 2 }, visibility: { to: 'all' } });
    expect(d.value.slice(1).map((e) => [e.event, e.visibility])).toEqual(
      top.map((card) => [
        { type: 'CardDrawn', seat: 'us', kind: 'unit', card },
        { to: 'seats', seats: ['us'] },
      ]),
    );
    const after = run(s, play(reserves)).state;
    expect(after.seats.us.hand).toEqual(top);
    expect(after.seats.us.reserves).toEqual(s.seats.us.reserves.slice(2));
    const one = { ...s, seats: { ...s.seats, us: { ...s.seats.us, reserves: s.seats.us.reserves.slice(0, 1) } } };
    expect(run(one, play(reserves)).state.seats.us.hand).toHaveLength(1);
    const none = { ...s, seats: { ...s.seats, us: { ...s.seats.us, reserves: [] } } };
    expect(refused(none, play(reserves))).toBe('cards/reserves-empty');
  });
  it('Resupply: 2 Command cards from the deck while a unit of yours is in play', () => {
    const top = s.commandDeck.draw.filter((c) => !cards.includes(c)).slice(0, 2);
    const after = run(s, play(resupply)).state;
    expect(after.seats.us.commands).toEqual([reserves, ...top]);
    const nobody = holding(['Resupply'], 'commitment', [rifle('g', 'A5', 'de')]);
    expect(refused(nobody.s, play(nobody.cards[0]!))).toBe('cards/no-unit-in-play');
    expect(refused({ ...s, phase: 'declaration' }, play(resupply))).toBe('cards/wrong-phase');
  });
});

describe('003 §III Commitment 6–7: Withdraw', () => {
  const { s, cards } = holding(['Withdraw'], 'commitment', [
    sherman('t', 'C4'),
    rifle('r', 'B5'),
    rifle('g', 'B5', 'de'),
    { id: 'at', card: 'us-57mm-at-gun', crew: 'us-artillery-crew', at: 'C6' },
  ]);
  const [card] = cards as [string];
  it('returns the unit and its crew to the hand; its Damage and Command cards leave it', () => {
    const damaged = withUnit(s, 't', { damageCard: damageCard(s), attached: [] });
    expect(engine.legalCommands(damaged, 'us')).toContainEqual(play(card, 't'));
    const after = run(damaged, play(card, 't')).state;
    expect(after.units['t']).toBeUndefined();
    expect(after.seats.us.hand).toEqual(['t', 'tc']);
    expect(after.damageDeck.discard).toContain(damageCard(s));
    expect(after.commandDeck.discard).toContain(card);
    // The unit can be committed again from the hand.
    expect(engine.legalCommands({ ...after, seats: { ...after.seats, us: { ...after.seats.us, commands: [] } } }, 'us')).toContainEqual(
      expect.objectContaining({ type: 'Commit', unit: 't', crew: 'tc' }),
    );
  });
  it('not an immobilised unit, a front-line gun, a unit fighting within its space, or an enemy', () => {
    expect(refused(withUnit(s, 't', { immobilized: true }), play(card, 't'))).toBe('cards/withdraw-immobilized');
    expect(refused(s, play(card, 'at'))).toBe('cards/withdraw-gun');
    expect(refused(s, play(card, 'r'))).toBe('cards/withdraw-fighting');
    expect(refused(s, play(card, 'g'))).toBe('cards/not-your-unit');
    expect(refused(s, play(card, '__proto__'))).toBe('cards/not-your-unit');
    expect(refused(s, play(card))).toBe('cards/needs-target');
  });
});

describe('Field Repairs', () => {
  const { s, cards } = holding(['Field Repairs'], 'commitment', [sherman('t', 'C4'), rifle('r', 'C5')]);
  const [card] = cards as [string];
  it('removes the Damage card and its effect: Full Endurance, mobile again', () => {
    const dc = damageCard(s);
    const hurt = withUnit(s, 't', { damageCard: dc, endurance: 3, immobilized: true, accuracyLoss: 2, defenseLoss: 1, weaponsLost: [1] });
    expect(engine.legalCommands(hurt, 'us')).toContainEqual(play(card, 't'));
    const u = run(hurt, play(card, 't')).state.units['t']!;
    const full = s.catalog.units.find((c) => c.id === 'us-m4a1-sherman')!.endurance.full;
    expect(u).toMatchObject({ damageCard: null, endurance: full, immobilized: false, accuracyLoss: 0, defenseLoss: 0, weaponsLost: [] });
    expect(run(hurt, play(card, 't')).state.damageDeck.discard).toContain(dc);
  });
  it('needs a damaged crewed unit of yours', () => {
    expect(refused(s, play(card, 't'))).toBe('cards/not-damaged');
    expect(refused(withUnit(s, 'r', { damageCard: damageCard(s) }), play(card, 'r'))).toBe('cards/wrong-type');
    expect(engine.legalCommands(s, 'us').some((c) => c.type === 'PlayCommand')).toBe(false);
  });
});

describe('Sabotage', () => {
  const { s, cards } = holding(['Sabotage'], 'declaration', [rifle('r', 'C5'), tiger('tg', 'A5'), rifle('g', 'A6', 'de')]);
  const [card] = cards as [string];
  const declared: Attack = { id: 'atk-1', seat: 'de', attackers: ['tg'], target: 'r', weapons: [0], spotter: null, kind: 'unit', status: 'pending' };
  it('an enemy tank may not attack this turn; its declared attack is called off; the next turn it may', () => {
    const withAttack = { ...s, attacks: [declared], attackSeq: 1 };
    expect(engine.legalCommands(withAttack, 'us')).toContainEqual(play(card, 'tg'));
    const r = run(withAttack, play(card, 'tg'));
    expect(r.events.map((e) => e.type)).toEqual(['UnitSabotaged', 'AttackCancelled']);
    expect(cannotAttack(r.state, 'tg')?.code).toBe('combat/sabotaged');
    expect(engine.legalCommands({ ...r.state, active: 'de' }, 'de').some((c) => c.type === 'DeclareAttack' && c.attacker === 'tg')).toBe(false);
    expect(cannotAttack(turnOver(r.state, [5, 3]).s, 'tg')).toBeNull();
  });
  it('not infantry, not your own unit, not twice', () => {
    expect(refused(s, play(card, 'g'))).toBe('cards/wrong-type');
    expect(refused(s, play(card, 'r'))).toBe('cards/not-enemy');
    const once = { ...run(s, play(card, 'tg')).state, seats: s.seats };
    expect(refused(once, play(card, 'tg'))).toBe('cards/sabotaged');
  });
});

describe('Artillery cards: Zero In Artillery, Fire for Effect!, Fire Mission! (one turn, tucked under the battery)', () => {
  const { s, cards } = holding(['Zero In Artillery', 'Fire for Effect!', 'Fire Mission!'], 'declaration', [
    howitzer('art'),
    rifle('r', 'C5'),
    rifle('g', 'A5', 'de'),
  ]);
  const [zero, effect, mission] = cards as [string, string, string];
  const shell: Attack = { id: 'atk-9', seat: 'us', attackers: ['art'], target: 'space:A5', weapons: [0], spotter: 'r', kind: 'area', status: 'pending' };
  const fire = (x: State, dice: number[]) => {
    const out = new Out(x);
    resolveAttack(out, { rng: scriptedRng(dice), now: '' }, shell, null);
    return out.list.map((e) => e.event);
  };
  it('Zero In Artillery: 2 less to hit, until the End Turn step', () => {
    expect(engine.legalCommands(s, 'us')).toContainEqual(play(zero, 'art'));
    expect(refused(s, play(zero, 'r'))).toBe('cards/wrong-type');
    const zeroed = run(s, play(zero, 'art')).state;
    const area = { area: true, unspotted: false };
    expect(hitNeeded(zeroed, 'art', 0, 'g', area)).toBe(hitNeeded(s, 'art', 0, 'g', area) - 2);
    const next = turnOver(zeroed, [5, 3]).s;
    expect(next.units['art']!.attached).toEqual([]);
    expect(next.commandDeck.discard).toContain(zero);
  });
  it('Fire for Effect!: +3 Intensity on each hit', () => {
    const plain = fire(s, [8, 8, 4]).find((e) => e.type === 'HitResolved');
    const boosted = fire(run(s, play(effect, 'art')).state, [8, 8, 4]).find((e) => e.type === 'HitResolved');
    expect(plain && boosted && boosted.net - plain.net).toBe(3);
  });
  it('Fire Mission!: one more attack roll for its weapon', () => {
    const rolls = (x: State) => fire(x, [1, 1, 1, 1]).filter((e) => e.type === 'AttackRolled').length;
    expect(rolls(s)).toBe(1);
    expect(rolls(run(s, play(mission, 'art')).state)).toBe(2);
  });
});

describe('003 §III Combat 25: Capture That Unit!', () => {
  const units = [rifle('r', 'C5'), tiger('tg', 'B5'), { id: 'mg', card: 'de-mg42-team', at: 'C6' }, rifle('far', 'C1')];
  const { s: s0, cards } = holding(['Capture That Unit!'], 'commitment', units);
  const s = withUnit(s0, 'tg', { damageCard: damageCard(s0) });
  const [card] = cards as [string];
  it('a roll of 6+ captures the damaged Tiger with its crew: double points for both', () => {
    expect(engine.legalCommands(s, 'us')).toContainEqual(play(card, 'tg', 'r'));
    expect(engine.legalCommands(s, 'us')).not.toContainEqual(play(card, 'tg', 'far'));
    const r = run(s, play(card, 'tg', 'r'), 'us', [6]);
    expect(r.events[0]).toEqual({ type: 'CaptureRolled', seat: 'us', card, unit: 'tg', by: 'r', die: 6, needed: 6, captured: true });
    expect(r.events[1]).toMatchObject({ type: 'UnitDestroyed', unit: 'tg', by: 'us', points: 42, crewFate: 'captured', crewPoints: 4 });
    expect(r.state.units['tg']).toBeUndefined();
    expect(r.state.seats.us.score).toBe(46);
  });
  it('Combat 12: the captor may keep the unit instead: it stays in play on its side, crewless, and only the crew scores; a friendly crew may man it', () => {
    expect(engine.legalCommands(s, 'us')).toContainEqual(play(card, 'tg', 'r', true));
    const r = run(s, play(card, 'tg', 'r', true), 'us', [7]);
    expect(r.events[1]).toEqual({ type: 'UnitCapturedKept', seat: 'us', unit: 'tg', crew: 'tgc', crewPoints: 4 });
    expect(r.state.units['tg']).toMatchObject({ side: 'us', owner: 'de', crew: null, at: 'B5' });
    expect(r.state.seats.us.score).toBe(4);
    // A US tank crew in the space may take it over; the Withdraw card cannot take it off the map.
    const placed = {
      ...r.state,
      opfire: null,
      cards: { ...r.state.cards, cr: { card: 'us-tank-crew', owner: 'us' as const } },
      units: { ...r.state.units, cr: { ...r.state.units['r']!, id: 'cr', card: 'us-tank-crew', at: 'B5' } },
    };
    expect(engine.legalCommands(placed, 'us')).toContainEqual({ type: 'Recrew', crew: 'cr', unit: 'tg' });
    expect(run(placed, { type: 'Recrew', crew: 'cr', unit: 'tg' }).state.units['tg']).toMatchObject({ side: 'us', crew: 'cr' });
    const withdraw = s.catalog.commandCards.find((c) => c.title === 'Withdraw')!.id;
    const holdsWithdraw = { ...placed, seats: { ...placed.seats, us: { ...placed.seats.us, commands: [withdraw] } } };
    expect(refused(holdsWithdraw, play(withdraw, 'tg'))).toBe('cards/withdraw-captured');
    expect(refused(holdsWithdraw, play(withdraw, 'r', undefined, true))).toBe('cards/no-keep');
  });
  it('a failed roll exposes the capturing infantry to opportunity fire from the enemy around it', () => {
    const r = run(s, play(card, 'tg', 'r'), 'us', [5]);
    expect(r.events.map((e) => e.type)).toEqual(['CaptureRolled', 'OpportunityFireOffered']);
    expect(r.state.units['tg']).toBeDefined();
    expect(r.state.opfire).toMatchObject({ seat: 'de', mover: 'r' });
    expect(r.state.opfire!.shooters).toContain('mg');
    expect(engine.legalCommands(r.state, 'de')).toContainEqual({ type: 'OpportunityFire', unit: 'mg' });
    expect(engine.legalCommands(r.state, 'us')).toEqual([]);
    expect(r.state.commandDeck.discard).toContain(card);
  });
  it('only a damaged, crewed, non-infantry unit within one space of your infantry', () => {
    expect(refused(s0, play(card, 'tg', 'r'))).toBe('cards/capture-undamaged');
    expect(refused(withUnit(s, 'mg', { damageCard: damageCard(s0) }), play(card, 'mg', 'r'))).toBe('cards/capture-type');
    expect(refused(s, play(card, 'tg', 'far'))).toBe('cards/capture-distance');
    expect(refused(s, play(card, 'tg'))).toBe('cards/capture-by');
    expect(refused(s, play(card, 'tg', '__proto__'))).toBe('cards/capture-by');
    expect(refused(s, play(card, 'constructor', 'r'))).toBe('cards/not-enemy');
    expect(refused(s, play(card, undefined, 'r'))).toBe('cards/needs-target');
    expect(refused({ ...s, phase: 'declaration' }, play(card, 'tg', 'r'))).toBe('cards/wrong-phase');
  });
  it('through the kernel: the standing order always-fire answers the window in the same append as the failed capture', () => {
    // A club catalog whose card never succeeds, so the seeded die cannot matter.
    const catalog = {
      ...s.catalog,
      commandCards: s.catalog.commandCards.map((c) => (c.id === card ? { ...c, effect: { kind: 'capture' as const, minRoll: 11 } } : c)),
    };
    const g = newGame({ scenario: 'man-vs-beast' }, 'g-capture');
    g.state = { ...g.state!, game: { ...s, catalog } };
    const set = g.append(
      decideStandingOrders(
        engine,
        g.state,
        { player: 'bob', orders: [{ topic: 'opportunity-fire', rule: 'always-fire' }], now: '2026-01-01T00:00:01.000Z' },
        'a7'.repeat(32),
      ),
      'bob',
    );
    expect(set.ok).toBe(true);
    const r = g.play('alice', play(card, 'tg', 'r'));
    const types = r.ok ? r.value.map((e) => e.type) : [];
    expect(types).toContain('CaptureRolled');
    expect(types).toContain('Game.StandingOrderApplied');
    expect(types.indexOf('OpportunityFireTaken')).toBeGreaterThan(types.indexOf('OpportunityFireOffered'));
    expect(stateOf(g).opfire).toBeNull();
  });
});

describe('README map section', () => {
  it('its PlayCommand examples name the cards their comments say (the REPRESENTATIVE deck ids)', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const ids = [...readme.matchAll(/"type":"PlayCommand","card":"(cmd-\d+)"/g)].map((m) => m[1]!);
    const titles = ids.map((id) => BUILT_IN_CATALOG.commandCards.find((c) => c.id === id)?.title);
    expect(titles).toEqual(['Lay Smoke', 'Dig In', 'Ambush!', 'Ambush!', 'Sabotage', 'Capture That Unit!']);
  });
});
