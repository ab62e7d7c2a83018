import { describe, expect, it } from 'vitest';
import { scriptedRng, seededRng } from '../../domain/kernel/index.js';
import { BUILT_IN_CATALOG, indexCatalog } from '../../domain/frontline-general/data/catalog.js';
import { SCENARIOS, SCENARIO_IDS } from '../../domain/spearpoint-map/data/scenarios.js';
import { commitPlaces } from '../../domain/spearpoint-map/commitment.js';
import { Out } from '../../domain/spearpoint-map/out.js';
import { checkVictory, endTurn } from '../../domain/spearpoint-map/turn.js';
import type { State } from '../../domain/spearpoint-map/model.js';
import { view } from '../../domain/spearpoint-map/view.js';
import { engine } from './play.js';
import { given, refused, run } from './given.js';

const idx = indexCatalog(BUILT_IN_CATALOG);
const points = (cards: readonly string[]) => cards.reduce((n, c) => n + idx.unit(c).cost, 0);
const types = (cards: readonly string[]) => new Set(cards.map((c) => idx.unit(c).type));

function started(scenario: string, extra: Record<string, unknown> = {}): State {
  const s = engine.initialState(engine.optionsSchema.parse({ scenario, ...extra }), engine.version);
  const r = engine.setup(s, { rng: seededRng({ seed: 'b1'.repeat(32), gameId: scenario, entropy: [], counter: 0 }), now: '' });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.reduce((x, e) => engine.evolve(x, e.event), s);
}
const decided = (s: State, endOfTurn = true) => {
  const out = new Out(s);
  checkVictory(out, endOfTurn);
  return out.s.result;
};

describe('003 §IV scenarios: decks, setup and win conditions', () => {
  it('every scenario is listed with a title and a line of description', () => {
    expect(engine.listing.scenarios!.choices.map((c) => c.id)).toEqual(SCENARIO_IDS);
    expect(SCENARIO_IDS).toHaveLength(9);
  });
  it('the representative decks keep each scenario’s limits', () => {
    for (const sc of SCENARIOS.values()) {
      for (const side of ['us', 'de'] as const) {
        const deck = sc.decks[side];
        if (sc.support) {
          expect(points(deck)).toBeLessThanOrEqual(35);
          expect([...types(deck)]).toEqual(['infantry']);
          expect(points(sc.support[side])).toBeLessThanOrEqual(100);
        } else expect(points(deck), `${sc.id} ${side}`).toBeLessThanOrEqual(sc.deckMax[side]);
      }
    }
    expect([...types(SCENARIOS.get('man-vs-beast')!.decks.us), ...types(SCENARIOS.get('man-vs-beast')!.decks.de)].every((t) => t === 'infantry')).toBe(true);
    expect([...types(SCENARIOS.get('gunters-return')!.decks.de)]).toEqual(['infantry']);
    expect([...types(SCENARIOS.get('liri-valley-road')!.decks.de)].every((t) => ['artillery', 'crew', 'aircraft'].includes(t))).toBe(true);
    for (const id of ['moonlight-on-metal', 'a-buried-tank'] as const)
      for (const side of ['us', 'de'] as const) expect(types(SCENARIOS.get(id)!.decks[side]).has('aircraft')).toBe(false);
    for (const side of ['us', 'de'] as const) expect(types(SCENARIOS.get('a-buried-tank')!.decks[side]).has('tank')).toBe(false);
  });
  it('Expansion Standard Game (003 Setup 1 a–j): empty map, 80–100 point decks, 4 units and 3 Command cards, either map side, 51 points', () => {
    const sc = SCENARIOS.get('standard-game')!;
    for (const side of ['us', 'de'] as const) {
      expect(points(sc.decks[side])).toBeGreaterThanOrEqual(80);
      expect(points(sc.decks[side])).toBeLessThanOrEqual(100);
    }
    const s = started('standard-game');
    expect(Object.keys(s.units)).toEqual([]);
    expect(Object.keys(s.tiles).length).toBeGreaterThanOrEqual(4);
    expect(s.scenario.map).toBe('village');
    for (const side of ['us', 'de'] as const) {
      expect(s.seats[side].hand).toHaveLength(4);
      expect(s.seats[side].commands).toHaveLength(3);
    }
    expect(s.commandDeck.draw.length + s.seats.us.commands.length + s.seats.de.commands.length).toBe(50);
    expect(s.damageDeck.draw).toHaveLength(25);
    expect(s.phase).toBe('commitment');
    expect(engine.legalCommands(s, s.active!).some((c) => c.type === 'Commit')).toBe(true);
    const line = started('standard-game', { map: 'defensive-line' });
    expect(line.scenario.map).toBe('defensive-line');
    expect(Object.values(line.tiles).map((t) => t.kind)).toContain('infantry-trench');
    expect(engine.optionsSchema.safeParse({ scenario: 'man-vs-beast', map: 'defensive-line' }).success).toBe(false);
    // A club deck under 80 points is refused; at 80 it is taken.
    const deck = (n: number) => ({ cards: Array.from({ length: n }, () => 'us-30cal-lmg-team') });
    expect(engine.optionsSchema.safeParse({ scenario: 'standard-game', us: deck(19) }).success).toBe(false);
    expect(engine.optionsSchema.safeParse({ scenario: 'standard-game', us: deck(20) }).success).toBe(true);
    expect(sc.victory).toEqual({ kind: 'points', target: { us: 51, de: 51 } });
  });
  it('a club deck over the scenario’s points is refused at the boundary', () => {
    const r = engine.optionsSchema.safeParse({ scenario: 'man-vs-beast', us: { cards: Array.from({ length: 12 }, () => 'us-rifle-squad') } });
    expect(r.success).toBe(false);
  });
  it('Man vs. Beast: starting units placed, the setup rolls made, German column 1 mirrors the layout; Germany commits from turn 3', () => {
    const s = started('man-vs-beast');
    expect(Object.values(s.units).map((u) => `${u.card}@${u.at}`)).toEqual(expect.arrayContaining(['de-tiger-i@B9', 'us-57mm-at-gun@B4']));
    expect(Object.values(s.units)).toHaveLength(6);
    expect(s.seats.us.hand).toHaveLength(1);
    expect(s.seats.us.commands).toHaveLength(1);
    expect(s.commandDeck.draw.some((c) => idx.command(c).title === 'Sabotage')).toBe(false);
    const left = started('man-vs-beast', { germanColumn: 1 });
    expect(Object.values(left.units).find((u) => u.card === 'de-tiger-i')!.at).toBe('B1');
    const de = s.seats.de.reserves[0]!;
    expect(commitPlaces({ ...s, turn: 2, seats: { ...s.seats, de: { ...s.seats.de, hand: [de] } } }, 'de', de)).toEqual([]);
    expect(commitPlaces({ ...s, turn: 3 }, 'de', de).length).toBeGreaterThan(0);
  });
  it('What Now, Sarge?: the Tiger starts with Fire Control Damage; US aircraft start in play', () => {
    const s = started('what-now-sarge');
    const tiger = Object.values(s.units).find((u) => u.card === 'de-tiger-i')!;
    expect(idx.damage(tiger.damageCard!).effects.vehicle.name).toBe('Fire Control Damage');
    expect(Object.values(s.units).filter((u) => u.at === 'air')).toHaveLength(2);
  });
  it('A Buried Tank: the two Shermans start crewless and damaged; vehicles may not be committed', () => {
    const s = started('a-buried-tank');
    const shermans = Object.values(s.units).filter((u) => u.card === 'us-m4a1-sherman');
    expect(shermans.map((u) => [u.at, u.crew, u.damageCard !== null])).toEqual([
      ['B6', null, true],
      ['C5', null, true],
    ]);
  });
  it('Epiphany: the Ambush! card in the German hand, units drawn from the Infantry deck first', () => {
    const s = started('epiphany');
    expect(s.seats.de.commands.map((c) => idx.command(c).title)).toContain('Ambush!');
    expect(s.seats.de.commands).toHaveLength(4);
    expect(s.seats.us.hand.every((c) => s.cards[c]!.card.includes('rifle') || idx.unit(s.cards[c]!.card).type === 'infantry')).toBe(true);
  });
  it('points: first to the scenario’s target wins (Man vs. Beast 25)', () => {
    const s = given({ units: [] });
    expect(decided({ ...s, seats: { ...s.seats, de: { ...s.seats.de, score: 24 } } }, false)).toBeNull();
    expect(decided({ ...s, seats: { ...s.seats, de: { ...s.seats.de, score: 25 } } }, false)?.winners).toEqual(['de']);
    const std = given({ scenario: 'standard-game', units: [] });
    expect(decided({ ...std, seats: { ...std.seats, us: { ...std.seats.us, score: 50 } } }, false)).toBeNull();
    expect(decided({ ...std, seats: { ...std.seats, us: { ...std.seats.us, score: 51 } } }, false)?.winners).toEqual(['us']);
  });
  it('Overrun: three consecutive turns holding the map alone win', () => {
    const s = given({ units: [{ id: 'r', card: 'us-rifle-squad', at: 'B5' }], phase: 'draw' });
    const out = new Out({ ...s, seats: { ...s.seats, us: { ...s.seats.us, overrun: 2 } } });
    endTurn(out, { rng: scriptedRng([5, 3]), now: '' });
    expect(out.s.result?.winners).toEqual(['us']);
  });
  it("Gunter's Return: US infantry alone in A5 at the end of a turn win; otherwise Germany at the end of turn 6 (8 if the CP stands)", () => {
    const held = given({
      scenario: 'gunters-return',
      tiles: [{ space: 'A5', kind: 'building' }],
      units: [{ id: 'r', card: 'us-rifle-squad', at: 'A5' }],
      turn: 4,
    });
    expect(decided(held)?.winners).toEqual(['us']);
    const shared = given({
      scenario: 'gunters-return',
      tiles: [{ space: 'A5', kind: 'building' }],
      units: [
        { id: 'r', card: 'us-rifle-squad', at: 'A5' },
        { id: 'g', card: 'de-rifle-squad', at: 'A5' },
      ],
      turn: 6,
    });
    const out = new Out(shared);
    expect(checkVictory(out, true)).toBe(false); // the CP still stands: two more turns
    expect(out.s.cpDeadline).toBe(8);
    const ruined = given({ scenario: 'gunters-return', tiles: [{ space: 'A5', kind: 'building', intact: false }], units: [], turn: 6 });
    expect(decided(ruined)?.winners).toEqual(['de']);
  });
  it('The Liri Valley Road: two convoy units at B-1 win for the US; all six destroyed win for Germany', () => {
    const s = given({ scenario: 'liri-valley-road', units: [] });
    expect(decided({ ...s, convoy: { ...s.convoy, arrived: 2 } }, false)?.winners).toEqual(['us']);
    expect(decided({ ...s, convoy: { ...s.convoy, destroyed: 6 } }, false)?.winners).toEqual(['de']);
    expect(decided({ ...s, convoy: { ...s.convoy, destroyed: 3, arrived: 1 } }, false)).toBeNull();
  });
  it('Moonlight on Metal / Crimson Snow: three US units off row A win; otherwise Germany after turn 10', () => {
    const s = given({ scenario: 'moonlight-on-metal', units: [{ id: 'g', card: 'de-rifle-squad', at: 'A5' }], turn: 10 });
    expect(decided({ ...s, seats: { ...s.seats, us: { ...s.seats.us, exited: 3 } } }, false)?.winners).toEqual(['us']);
    expect(decided(s)?.winners).toEqual(['de']);
    expect(decided({ ...s, turn: 9 })).toBeNull();
  });
  it('A Buried Tank: the US needs 35 points and the Pantherturm destroyed; Germany 40', () => {
    const s = given({ scenario: 'a-buried-tank', tiles: [{ space: 'A5', kind: 'pantherturm' }], units: [] });
    const us35 = { ...s, seats: { ...s.seats, us: { ...s.seats.us, score: 35 } } };
    expect(decided(us35, false)).toBeNull();
    expect(decided({ ...us35, tiles: { A5: { kind: 'pantherturm' as const, intact: false } } }, false)?.winners).toEqual(['us']);
    expect(decided({ ...s, seats: { ...s.seats, de: { ...s.seats.de, score: 40 } } }, false)?.winners).toEqual(['de']);
  });
  it('carry-over (003 §IV What Now, Sarge?, Gunter’s Return, Crimson Snow): a finished game’s final tiles start the next scenario', () => {
    const end = given({
      tiles: [
        { space: 'B4', kind: 'building', intact: false },
        { space: 'A6', kind: 'crops' },
      ],
      units: [],
    });
    expect(view(end, { kind: 'seat', seat: 'us' }).carryOver).toBeNull();
    const over = { ...end, result: { winners: ['us' as const], reason: 'test' } };
    const carry = view(over, { kind: 'seat', seat: 'us' }).carryOver!;
    expect(carry.tiles).toEqual([
      { space: 'A6', kind: 'crops', intact: true },
      { space: 'B4', kind: 'building', intact: false },
    ]);
    const next = started('what-now-sarge', { tiles: carry.tiles });
    expect(next.tiles).toEqual({ A6: { kind: 'crops', intact: true }, B4: { kind: 'building', intact: false } });
    // The engine's carryOver (the server calls it at create for `carryOverFrom`): the same tiles into the next options.
    expect(engine.carryOver!(over, { scenario: 'gunters-return' })).toEqual({ ok: true, value: { scenario: 'gunters-return', tiles: carry.tiles } });
    expect(engine.carryOver!(over, undefined)).toEqual({ ok: true, value: { tiles: carry.tiles } });
    const given_ = engine.carryOver!(over, { tiles: [] });
    expect(given_.ok || given_.error.code).toBe('carry-over/tiles-given');
    const notObject = engine.carryOver!(over, ['x']);
    expect(notObject.ok || notObject.error.code).toBe('carry-over/bad-options');
  });
  it('What Now, Sarge?: at least two front-line US units enter on turn 3 while the hand allows; Done is refused and not listed until then', () => {
    const s0 = given({ scenario: 'what-now-sarge', units: [], phase: 'commitment', turn: 3 });
    const s = {
      ...s0,
      cards: { ...s0.cards, h1: { card: 'us-rifle-squad', owner: 'us' as const }, h2: { card: 'us-rifle-squad', owner: 'us' as const } },
      seats: { ...s0.seats, us: { ...s0.seats.us, hand: ['h1', 'h2'] } },
    };
    const at = s.usEntry[0]!;
    expect(refused(s, { type: 'Done' })).toBe('commit/two-must-enter');
    expect(engine.legalCommands(s, 'us')).not.toContainEqual({ type: 'Done' });
    const one = run(s, { type: 'Commit', unit: 'h1', at }).state;
    expect(refused(one, { type: 'Done' })).toBe('commit/two-must-enter');
    const two = run(one, { type: 'Commit', unit: 'h2', at }).state;
    expect(engine.legalCommands(two, 'us')).toContainEqual({ type: 'Done' });
    // With one unit in hand only, one entering is enough.
    const short = { ...s, seats: { ...s.seats, us: { ...s.seats.us, hand: ['h1'] } } };
    expect(engine.legalCommands(run(short, { type: 'Commit', unit: 'h1', at }).state, 'us')).toContainEqual({ type: 'Done' });
  });
  it('What Now, Sarge?: the US moves one entry point once a game, in the Movement phase from turn 4, to an edge 2+ columns from the German zone', () => {
    const s = given({ scenario: 'what-now-sarge', units: [], phase: 'movement', turn: 4 });
    expect(s.usEntry).toEqual(['A1', 'C1']);
    expect(engine.legalCommands(s, 'us')).toContainEqual({ type: 'ChangeEntryPoint', from: 'A1', to: 'A3' });
    expect(engine.legalCommands(s, 'us')).not.toContainEqual({ type: 'ChangeEntryPoint', from: 'A1', to: 'A8' }); // within 2 columns of column 9
    expect(engine.legalCommands(s, 'us')).not.toContainEqual({ type: 'ChangeEntryPoint', from: 'A1', to: 'B5' }); // not on an edge
    expect(refused({ ...s, turn: 3 }, { type: 'ChangeEntryPoint', from: 'A1', to: 'A3' })).toBe('commit/entry-change');
    expect(refused(s, { type: 'ChangeEntryPoint', from: '__proto__', to: 'A3' })).toBe('commit/entry-change');
    const moved = run(s, { type: 'ChangeEntryPoint', from: 'A1', to: 'A3' }).state;
    expect(moved.usEntry).toEqual(['A3', 'C1']);
    expect(refused(moved, { type: 'ChangeEntryPoint', from: 'C1', to: 'C3' })).toBe('commit/entry-change');
    expect(engine.legalCommands(moved, 'us').some((c) => c.type === 'ChangeEntryPoint')).toBe(false);
    expect(refused(given({ units: [], phase: 'movement', turn: 4 }), { type: 'ChangeEntryPoint', from: 'A1', to: 'A3' })).toBe('commit/entry-change');
  });
});
