import { describe, expect, it } from 'vitest';
import { decideCreate, seededRng } from '../../domain/kernel/index.js';
import { cannotAttack, hitThreshold, optionsSchema, shotsOf, spearpoint, type Event as SpearpointEvent, type State } from '../../domain/spearpoint/index.js';
import { expectRefused } from './rulebook.js';
import { bothSeal, cardTitled, given, ofType, when, withHand } from './given.js';

const setupGame = (options: object = {}) => {
  const s0 = spearpoint.initialState(optionsSchema().parse(options) as never, spearpoint.version);
  const r = spearpoint.setup(s0, { rng: seededRng({ seed: '11'.repeat(32), gameId: 'setup', entropy: [], counter: 0 }), now: '' });
  if (!r.ok) throw new Error(r.error.message);
  let s = s0;
  for (const e of r.value) s = spearpoint.evolve(s, e.event);
  return { s0, s, emitted: r.value };
};

describe('setup (001 Two-Player Standard Game Setup)', () => {
  it('a quick game needs no options: preset Reserves decks of 80-100 points for each side', () => {
    const { s } = setupGame();
    for (const side of ['us', 'de'] as const) {
      const points = s.seats[side].reserves.reduce((a, id) => a + s.catalog.units.find((u) => u.id === s.cards[id]!.card)!.cost, 0);
      expect(points).toBeGreaterThanOrEqual(80);
      expect(points).toBeLessThanOrEqual(100);
    }
  });
  it('shuffles both Reserves decks, the 50-card Command deck and the 25-card Damage deck unseen, and deals 3 Command cards to each seat privately', () => {
    const { s0, s, emitted } = setupGame();
    const shuffles = emitted.filter((e) => /Shuffled$/.test(e.event.type));
    expect(shuffles.map((e) => e.event.type).sort()).toEqual(['CommandDeckShuffled', 'DamageDeckShuffled', 'ReservesShuffled', 'ReservesShuffled']);
    for (const e of shuffles) expect(e.visibility).toEqual({ to: 'none' });
    expect(s.seats.us.reserves).not.toEqual(s0.seats.us.reserves);
    expect([...s.seats.us.reserves].sort()).toEqual([...s0.seats.us.reserves].sort());
    const dealt = emitted.filter((e) => e.event.type === 'CommandCardsDealt');
    expect(dealt.map((e) => e.visibility)).toEqual([
      { to: 'seats', seats: ['us'] },
      { to: 'seats', seats: ['de'] },
    ]);
    expect(s.seats.us.commands).toHaveLength(3);
    expect(s.seats.de.commands).toHaveLength(3);
    expect(s.commandDeck.draw).toHaveLength(44);
    expect(s.damageDeck.draw).toHaveLength(25);
  });
  it('refuses a deck outside 80-100 points, or with the other side’s cards', () => {
    const tooMuch = Array.from({ length: 8 }, () => 'us-m4a1-sherman').concat(Array.from({ length: 8 }, () => 'us-tank-crew')); // 120
    expect(optionsSchema().safeParse({ us: { cards: tooMuch } }).success).toBe(false);
    const tooLittle = Array.from({ length: 26 }, () => 'us-rifle-squad'); // 78
    const r = optionsSchema().safeParse({ us: { cards: tooLittle } });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toMatch(/78 points/);
    const wrongSide = [...Array.from({ length: 27 }, () => 'us-rifle-squad'), 'de-tiger-i'];
    expect(JSON.stringify(optionsSchema().safeParse({ us: { cards: wrongSide } }).error?.issues)).toMatch(/belongs to the de side/);
    const ok = [...Array.from({ length: 30 }, () => 'us-rifle-squad')]; // 90, copies allowed
    expect(optionsSchema().safeParse({ us: { cards: ok } }).success).toBe(true);
    expect(optionsSchema().safeParse({ de: { preset: 'us-armor' } }).success).toBe(false);
  });
  it('each side picks a starting hand of 4 units privately; the first turn begins when both have', () => {
    const { s } = setupGame();
    let cur = s;
    const picks = [...new Set(cur.seats.us.reserves.map((u) => cur.cards[u]!.card))].slice(0, 4);
    for (const card of picks) {
      // A step of the sealed muster order (rules version 3): seen by its seat only, no dice.
      const r = when(cur, 'us', { type: 'PickStartingUnit', card });
      expect(r.emitted.map((e) => e.visibility)).toEqual([{ to: 'seats', seats: ['us'] }]);
      cur = r.s;
    }
    expect(cur.seats.us.hand).toEqual([]);
    expect(spearpoint.legalCommands(cur, 'us').filter((c) => c.type === 'PickStartingUnit')).toEqual([]);
    // The seal takes one copy of each picked card with the secret dice (0 takes the first).
    cur = when(cur, 'us', { type: 'SealOrder' }, [0, 0, 0, 0]).s;
    expect(cur.seats.us.hand.map((u) => cur.cards[u]!.card)).toEqual(picks);
    expect(cur.seats.us.handReady).toBe(true);
    expectRefused(cur, { type: 'AutoPickHand' }, 'us', 'muster/hand-ready');
    expect(cur.phase).toBe('muster');
    const auto = when(cur, 'de', { type: 'AutoPickHand' });
    expect(auto.s.seats.de.hand).toHaveLength(4);
    expect(auto.s.seats.de.hand.every((u) => auto.s.catalog.units.find((c) => c.id === auto.s.cards[u]!.card)!.crew === 'none')).toBe(true);
    expect(auto.s.phase).toBe('commitment');
    expect(auto.s.turn).toBe(1);
  });
  it('a Situation may modify the rules: in Hold the Line German aircraft arrive from turn 3', () => {
    const s = withHand(given({}, 'commitment', { situation: 'hold-the-line' }), 'de', ['de-bf109', 'de-pilot']);
    expectRefused(s, { type: 'CommitUnit', unit: 'de-h1', crew: 'de-h2' }, 'de', 'situation/no-aircraft-yet');
    expect(when({ ...s, turn: 3 }, 'de', { type: 'CommitUnit', unit: 'de-h1', crew: 'de-h2' }).error).toBeUndefined();
  });
  it('a Situation places its units and swaps in its own win conditions and deck sizes', () => {
    const { s } = setupGame({ situation: 'tiger-hunt' });
    expect(Object.values(s.inPlay).map((u) => [s.cards[u.id]!.card, u.controller, u.crew !== null])).toEqual([['de-tiger-i', 'de', true]]);
    expect(s.situation.winConditions).toContainEqual({ kind: 'points', target: 25 });
    const dePoints = s.seats.de.reserves.reduce((a, id) => a + s.catalog.units.find((u) => u.id === s.cards[id]!.card)!.cost, 0);
    expect(dePoints).toBeLessThanOrEqual(40);
  });
});

describe('commitment (001 Commitment Phase)', () => {
  const base = () =>
    withHand(given({}, 'commitment'), 'us', [
      'us-m4a1-sherman',
      'us-tank-crew',
      'us-artillery-crew',
      'us-rifle-squad',
      'us-m7-priest',
      'us-p40-warhawk',
      'us-pilot',
    ]);
  it('a unit that needs a crew is committed with a crew of the right kind, and a crew never alone', () => {
    const s = base();
    expectRefused(s, { type: 'CommitUnit', unit: 'us-h1' }, 'us', 'commitment/crew-required');
    expectRefused(s, { type: 'CommitUnit', unit: 'us-h1', crew: 'us-h3' }, 'us', 'commitment/wrong-crew');
    expectRefused(s, { type: 'CommitUnit', unit: 'us-h2' }, 'us', 'commitment/crew-alone');
    expectRefused(s, { type: 'CommitUnit', unit: 'us-h4', crew: 'us-h2' }, 'us', 'commitment/no-crew-needed');
    const r = bothSeal(
      s,
      [
        { type: 'CommitUnit', unit: 'us-h1', crew: 'us-h2' },
        { type: 'CommitUnit', unit: 'us-h4' },
      ],
      [],
    );
    expect(ofType(r.events, 'UnitCommitted').map((e) => [e.unit, e.crew, e.line])).toEqual([
      ['us-h1', 'us-h2', 'front'],
      ['us-h4', null, 'front'],
    ]);
    expect(r.s.seats.us.hand).toEqual(['us-h3', 'us-h5', 'us-h6', 'us-h7']);
    expect(r.s.phase).toBe('declaration');
  });
  it('orders are sealed: steps are seen only by their seat, and everything is revealed at once when both have sealed', () => {
    const s = base();
    const step = when(s, 'us', { type: 'CommitUnit', unit: 'us-h4' });
    expect(step.emitted[0]!.visibility).toEqual({ to: 'seats', seats: ['us'] });
    const sealed = when(step.s, 'us', { type: 'SealOrder' });
    expect(sealed.emitted.map((e) => [e.event.type, e.visibility.to])).toEqual([
      ['OrderFinalized', 'seats'],
      ['OrderSealed', 'all'],
    ]);
    expect(sealed.s.inPlay).toEqual({});
    expectRefused(sealed.s, { type: 'CommitUnit', unit: 'us-h1', crew: 'us-h2' }, 'us', 'order/sealed');
    const reveal = when(sealed.s, 'de', { type: 'SealOrder' });
    expect(ofType(reveal.events, 'CommitmentRevealed')[0]!.orders.us).toEqual([{ kind: 'commit', unit: 'us-h4', crew: null, line: 'front' }]);
    expect(Object.keys(reveal.s.inPlay)).toEqual(['us-h4']);
  });
  it('a whole order can be sealed in one command, so the other side cannot count its steps', () => {
    const s = base();
    const stepwise = bothSeal(
      s,
      [
        { type: 'CommitUnit', unit: 'us-h1', crew: 'us-h2' },
        { type: 'CommitUnit', unit: 'us-h4' },
      ],
      [],
    );
    const atOnce = when(s, 'us', {
      type: 'SealOrder',
      steps: [
        { type: 'CommitUnit', unit: 'us-h1', crew: 'us-h2' },
        { type: 'CommitUnit', unit: 'us-h4' },
      ],
    });
    // One private event and one public seal, however many steps the order holds.
    expect(atOnce.emitted.map((e) => [e.event.type, e.visibility.to])).toEqual([
      ['OrderFinalized', 'seats'],
      ['OrderSealed', 'all'],
    ]);
    const empty = when(s, 'us', { type: 'SealOrder' });
    expect(empty.emitted.length).toBe(atOnce.emitted.length);
    const reveal = when(atOnce.s, 'de', { type: 'SealOrder' });
    expect(ofType(reveal.events, 'UnitCommitted')).toEqual(ofType(stepwise.events, 'UnitCommitted'));
    // Steps given with the seal replace the ones added before it.
    const replaced = when(when(s, 'us', { type: 'CommitUnit', unit: 'us-h4' }).s, 'us', { type: 'SealOrder', steps: [] });
    expect(replaced.s.seats.us.order).toEqual([]);
  });
  it('a bad step inside a sealed order is refused with its position, and nothing is sealed', () => {
    const r = when(base(), 'us', {
      type: 'SealOrder',
      steps: [
        { type: 'CommitUnit', unit: 'us-h4' },
        { type: 'CommitUnit', unit: 'us-h2' },
      ],
    });
    expect(r.error?.code).toBe('commitment/crew-alone');
    expect(r.error?.message).toMatch(/^Step 2 \(CommitUnit\): /);
  });
  it('committing nothing is allowed', () => {
    const r = bothSeal(base(), [], []);
    expect(r.error).toBeUndefined();
    expect(r.s.phase).toBe('declaration');
  });
  it('a replacement crew may be committed alone to a unit in play that lost its crew', () => {
    const s = withHand(given({ us: [{ card: 'us-m4a1-sherman', crew: false }, { card: 'us-m4a1-sherman' }] }, 'commitment'), 'us', ['us-tank-crew']);
    expectRefused(s, { type: 'ReplaceCrew', crew: 'us-h1', unit: 'us-t2' }, 'us', 'commitment/already-crewed');
    const r = bothSeal(s, [{ type: 'ReplaceCrew', crew: 'us-h1', unit: 'us-t1' }], []);
    expect(r.s.inPlay['us-t1']!.crew).toBe('us-h1');
    expect(cannotAttack(r.s, 'us-t1')).toBeNull();
  });
  it('crews of ground units may move from one unit to another', () => {
    const s = given(
      { us: [{ card: 'us-m4a1-sherman' }, { card: 'us-m10', crew: false }, { card: 'us-105mm-howitzer', crew: false, line: 'rear' }] },
      'commitment',
    );
    expectRefused(s, { type: 'MoveCrew', from: 'us-t1', to: 'us-t3' }, 'us', 'commitment/wrong-crew');
    const r = bothSeal(s, [{ type: 'MoveCrew', from: 'us-t1', to: 'us-t2' }], []);
    expect(r.s.inPlay['us-t2']!.crew).toBe('us-t1c');
    expect(r.s.inPlay['us-t1']!.crew).toBeNull();
  });
  it('when the front line is empty the rear line becomes the front; newly committed rear units form a new rear line', () => {
    const s = withHand(given({ us: [{ card: 'us-105mm-howitzer' }] }, 'commitment'), 'us', ['us-8in-howitzer', 'us-artillery-crew']);
    const r = bothSeal(s, [{ type: 'CommitUnit', unit: 'us-h1', crew: 'us-h2' }], []);
    expect(ofType(r.events, 'RearBecameFront')[0]).toMatchObject({ seat: 'us', units: ['us-t1'] });
    expect(r.s.inPlay['us-t1']!.line).toBe('front');
    expect(r.s.inPlay['us-h1']!.line).toBe('rear');
  });
  it('mobile artillery is committed to either line and may change lines in a commitment phase, unless immobilized', () => {
    const s = base();
    expectRefused(s, { type: 'CommitUnit', unit: 'us-h5', crew: 'us-h3' }, 'us', 'commitment/line-required');
    const r = bothSeal(s, [{ type: 'CommitUnit', unit: 'us-h5', crew: 'us-h3', line: 'rear' }], []);
    expect(r.s.inPlay['us-h5']!.line).toBe('rear');
    const next = { ...r.s, phase: 'commitment' as const };
    const moved = bothSeal(next, [{ type: 'MoveLine', unit: 'us-h5', line: 'front' }], []);
    expect(moved.s.inPlay['us-h5']!.line).toBe('front');
    const stuck = { ...next, inPlay: { ...next.inPlay, 'us-h5': { ...next.inPlay['us-h5']!, immobilized: true } } };
    expectRefused(stuck, { type: 'MoveLine', unit: 'us-h5', line: 'front' }, 'us', 'commitment/immobilized');
    expectRefused(s, { type: 'CommitUnit', unit: 'us-h1', crew: 'us-h2', line: 'rear' }, 'us', 'commitment/wrong-line');
  });
  it('aircraft go to no line with their turns of flight, counted down each combat phase, then return with the pilot under the Reserves deck', () => {
    const r = bothSeal(base(), [{ type: 'CommitUnit', unit: 'us-h6', crew: 'us-h7' }], []);
    expect(r.s.inPlay['us-h6']).toMatchObject({ line: 'air', turnsLeft: 2 });
    const combat1 = bothSeal(r.s, [], []);
    expect(combat1.s.inPlay['us-h6']!.turnsLeft).toBe(1);
    const again = bothSeal({ ...combat1.s, phase: 'declaration' }, [], []);
    expect(ofType(again.events, 'AircraftReturned')[0]).toMatchObject({ unit: 'us-h6', pilot: 'us-h7' });
    expect(again.s.seats.us.reserves.slice(-2)).toEqual(['us-h6', 'us-h7']);
    expect(again.s.inPlay['us-h6']).toBeUndefined();
  });
});

describe('command cards (001 Gameplay: Command cards)', () => {
  const table = () =>
    given(
      {
        us: [{ card: 'us-m4a1-sherman' }, { card: 'us-rifle-squad' }, { card: 'us-105mm-howitzer' }],
        de: [{ card: 'de-tiger-i', patch: { damageCard: 'dmg-13', endurance: 12 } }, { card: 'de-rifle-squad' }],
      },
      'commitment',
    );
  it('may be played only on the unit types printed on them', () => {
    const s = table();
    const hull = cardTitled(s, 'Hull Down');
    const t = withHand(s, 'us', [], [hull]);
    expectRefused(t, { type: 'PlayCommandCard', card: hull, target: 'us-t2' }, 'us', 'command/wrong-unit-type');
    expect(when(t, 'us', { type: 'PlayCommandCard', card: hull, target: 'us-t1' }).error).toBeUndefined();
  });
  it('identical cards are not cumulative', () => {
    const s = table();
    const [a, b] = [cardTitled(s, 'Hull Down', 0), cardTitled(s, 'Hull Down', 1)];
    const t = withHand(s, 'us', [], [a, b]);
    const once = when(t, 'us', { type: 'PlayCommandCard', card: a, target: 'us-t1' });
    expectRefused(once.s, { type: 'PlayCommandCard', card: b, target: 'us-t1' }, 'us', 'command/identical');
    const inPlay = bothSeal(t, [{ type: 'PlayCommandCard', card: a, target: 'us-t1' }], []);
    expectRefused({ ...inPlay.s, phase: 'commitment' }, { type: 'PlayCommandCard', card: b, target: 'us-t1' }, 'us', 'command/identical');
  });
  it('Hull Down and Dig In raise Defense, Field Camouflage makes a unit harder to hit, Veteran cards easier to hit with', () => {
    const s = table();
    const [hull, dig, camo, vet] = ['Hull Down', 'Dig In', 'Field Camouflage', 'Veteran Crew'].map((t) => cardTitled(s, t));
    const r = bothSeal(
      withHand(s, 'us', [], [hull!, dig!, camo!, vet!]),
      [
        { type: 'PlayCommandCard', card: hull!, target: 'us-t1' },
        { type: 'PlayCommandCard', card: dig!, target: 'us-t2' },
        { type: 'PlayCommandCard', card: camo!, target: 'us-t3' },
        { type: 'PlayCommandCard', card: vet!, target: 'us-t1' },
      ],
      [],
    );
    const view = spearpoint.view(r.s, { kind: 'seat', seat: 'us' }) as { battleArea: { us: { front: { id: string; defense: number }[] } } };
    expect(view.battleArea.us.front.find((u) => u.id === 'us-t1')!.defense).toBe(7);
    expect(view.battleArea.us.front.find((u) => u.id === 'us-t2')!.defense).toBe(2);
    expect(hitThreshold(r.s, 'de-t1', 0, 'us-t3')).toBe(9 - 2 + 2);
    expect(hitThreshold(r.s, 'us-t1', 0, 'de-t1')).toBe(10 - 1);
  });
  it('Withdraw returns a unit and its crew to hand, but not an immobilized one', () => {
    const s = table();
    const w = cardTitled(s, 'Withdraw');
    const t = withHand(s, 'us', [], [w]);
    const r = bothSeal(t, [{ type: 'PlayCommandCard', card: w, target: 'us-t1' }], []);
    expect(r.s.seats.us.hand).toEqual(['us-t1', 'us-t1c']);
    expect(r.s.inPlay['us-t1']).toBeUndefined();
    const stuck = { ...t, inPlay: { ...t.inPlay, 'us-t1': { ...t.inPlay['us-t1']!, immobilized: true } } };
    expectRefused(stuck, { type: 'PlayCommandCard', card: w, target: 'us-t1' }, 'us', 'command/immobilized');
  });
  it('Commit Reserves draws unit cards privately; Resupply draws command cards', () => {
    const s = table();
    const [cr, rs] = [cardTitled(s, 'Commit Reserves'), cardTitled(s, 'Resupply')];
    const r = bothSeal(
      withHand(s, 'us', [], [cr, rs]),
      [
        { type: 'PlayCommandCard', card: cr },
        { type: 'PlayCommandCard', card: rs },
      ],
      [],
    );
    const drawn = r.emitted.filter((e) => e.event.type === 'CardDrawn');
    expect(drawn).toHaveLength(4);
    for (const d of drawn) expect(d.visibility).toEqual({ to: 'seats', seats: ['us'] });
    expect(r.s.seats.us.hand).toHaveLength(2);
    expect(r.s.seats.us.commands).toHaveLength(2);
  });
  it('Capture That Unit! takes a damaged crewed enemy unit and its crew: double points, and the captor may keep the unit idle until it crews it', () => {
    const s = table();
    const cap = cardTitled(s, 'Capture That Unit!');
    const t = withHand(s, 'us', [], [cap]);
    const scored = bothSeal(t, [{ type: 'PlayCommandCard', card: cap, target: 'de-t1' }], [], [7]);
    expect(ofType(scored.events, 'UnitCaptured')[0]).toMatchObject({ by: 'us', unitPoints: 42, crewPoints: 4 });
    expect(scored.s.seats.us.score).toBe(46);
    const failed = bothSeal(t, [{ type: 'PlayCommandCard', card: cap, target: 'de-t1' }], [], [5]);
    expect(failed.s.inPlay['de-t1']!.controller).toBe('de');
    // Another card discarded with the order adds 1 to the capture roll: 5 + 1 makes the 6.
    const spare = cardTitled(s, 'Dig In');
    const boosted = bothSeal(withHand(t, 'us', [], [spare]), [{ type: 'PlayCommandCard', card: cap, target: 'de-t1', boostWith: spare }], [], [5]);
    expect(ofType(boosted.events, 'CaptureRolled')[0]).toMatchObject({ die: 5, bonus: 1, success: true });
    expect(boosted.s.commandDeck.discard).toContain(spare);
    const kept = bothSeal(withHand(t, 'us', ['us-tank-crew']), [{ type: 'PlayCommandCard', card: cap, target: 'de-t1', keep: true }], [], [10]);
    expect(kept.s.inPlay['de-t1']).toMatchObject({ controller: 'us', crew: null });
    expect(kept.s.seats.us.score).toBe(46);
    expect(cannotAttack(kept.s, 'de-t1')?.code).toBe('combat/idle');
    const crewed = bothSeal({ ...kept.s, phase: 'commitment' }, [{ type: 'ReplaceCrew', crew: 'us-h1', unit: 'de-t1' }], []);
    expect(cannotAttack(crewed.s, 'de-t1')).toBeNull();
    expectRefused(t, { type: 'PlayCommandCard', card: cap, target: 'de-t2' }, 'us', 'command/wrong-unit-type');
    const undamaged = { ...t, inPlay: { ...t.inPlay, 'de-t1': { ...t.inPlay['de-t1']!, damageCard: null } } };
    expectRefused(undamaged, { type: 'PlayCommandCard', card: cap, target: 'de-t1' }, 'us', 'command/not-damaged');
  });
  it('Field Repairs removes the Damage card and restores Full Endurance', () => {
    const s = given({ us: [{ card: 'us-m4a1-sherman', patch: { damageCard: 'dmg-01', endurance: 7, immobilized: true } }] }, 'commitment');
    const fr = cardTitled(s, 'Field Repairs');
    const r = bothSeal(
      withHand({ ...s, damageDeck: { ...s.damageDeck, draw: s.damageDeck.draw.filter((d) => d !== 'dmg-01') } }, 'us', [], [fr]),
      [{ type: 'PlayCommandCard', card: fr, target: 'us-t1' }],
      [],
    );
    expect(r.s.inPlay['us-t1']).toMatchObject({ damageCard: null, endurance: 14, immobilized: false });
    expect(r.s.damageDeck.discard).toContain('dmg-01');
  });
  it('declaration cards: Sabotage stops an enemy attack, Lay Smoke covers the front, Fire Mission! and Fire for Effect! boost artillery, Fighter Ace an aircraft', () => {
    const s = given(
      { us: [{ card: 'us-105mm-howitzer' }, { card: 'us-rifle-squad' }, { card: 'us-p40-warhawk' }], de: [{ card: 'de-tiger-i' }, { card: 'de-rifle-squad' }] },
      'declaration',
    );
    const [sab, smoke, fm, ffe] = ['Sabotage', 'Lay Smoke', 'Fire Mission!', 'Fire for Effect!'].map((t) => cardTitled(s, t));
    const t = withHand(withHand(s, 'us', [], [fm!, ffe!]), 'de', [], [sab!, smoke!]);
    const r = bothSeal(
      t,
      [
        { type: 'PlayCommandCard', card: fm!, target: 'us-t1' },
        { type: 'PlayCommandCard', card: ffe!, target: 'us-t1' },
        { type: 'DeclareAttack', attacker: 'us-t1', target: 'de-t2', weapons: [0] },
      ],
      [
        { type: 'PlayCommandCard', card: sab!, target: 'us-t3' },
        { type: 'PlayCommandCard', card: smoke! },
        { type: 'DeclareAttack', attacker: 'de-t1', target: 'us-t2', weapons: [0] },
      ],
      [9, 1],
    );
    expect(cannotAttack(r.s, 'us-t3')?.code).toBe('combat/sabotaged');
    expect(hitThreshold(r.s, 'us-t1', 0, 'de-t2')).toBe(10 + 3);
    const attack = r.s.attacks.find((a) => a.id === 't1-us-1')!;
    expect(shotsOf(r.s, attack)).toEqual([0, 0]);
    const hit = when(r.s, 'us', { type: 'ResolveAttack', attackId: attack.id }, [7, 7, 1, 1, 1]);
    expect(ofType(hit.events, 'HitResolved')[0]).toMatchObject({ bonus: 3 });
    const ace = cardTitled(s, 'Fighter Ace');
    const withAce = bothSeal(withHand({ ...s, phase: 'commitment' }, 'us', [], [ace]), [{ type: 'PlayCommandCard', card: ace, target: 'us-t3' }], []);
    expect(hitThreshold(withAce.s, 'us-t3', 0, 'de-t2')).toBe(10 - 2);
  });
});

describe('draw phase (001 Draw Phase)', () => {
  const drawing = (hand: string[] = []): State => {
    const s = withHand(given({}, 'draw'), 'us', hand);
    return { ...s, turn: 1, seats: { ...s.seats, de: { ...s.seats.de, drawDone: true } } };
  };
  it('the first draw is a Command card, then any two cards, then the side is done', () => {
    let s = drawing();
    expectRefused(s, { type: 'DrawCard', from: 'reserves' }, 'us', 'draw/command-first');
    const first = when(s, 'us', { type: 'DrawCard', from: 'command' });
    expect(first.emitted.find((e) => e.event.type === 'CardDrawn')!.visibility).toEqual({ to: 'seats', seats: ['us'] });
    s = when(when(first.s, 'us', { type: 'DrawCard', from: 'reserves' }).s, 'us', { type: 'DrawCard', from: 'reserves' }).s;
    expect(s.seats.us.hand).toHaveLength(2);
    expect(s.seats.us.commands).toHaveLength(1);
    expect(s.phase).toBe('commitment');
    expect(s.turn).toBe(2);
  });
  it('at most 7 units and 5 commands are kept; a discarded unit goes under the Reserves deck', () => {
    let s = drawing(Array.from({ length: 7 }, () => 'us-rifle-squad'));
    for (const from of ['command', 'reserves', 'reserves'] as const) s = when(s, 'us', { type: 'DrawCard', from }).s;
    expect(s.seats.us.hand).toHaveLength(9);
    expect(s.phase).toBe('draw');
    expectRefused(s, { type: 'DrawCard', from: 'command' }, 'us', 'draw/no-more');
    s = when(s, 'us', { type: 'DiscardUnit', card: 'us-h1' }).s;
    expect(s.seats.us.reserves.at(-1)).toBe('us-h1');
    const last = when(s, 'us', { type: 'DiscardUnit', card: 'us-h2' });
    expect(when(last.s, 'us', { type: 'DiscardUnit', card: 'us-h3' }).error).toBeDefined();
    expect(last.s.seats.us.hand).toHaveLength(7);
    expect(ofType(last.events, 'DrawFinished')).toHaveLength(1);
  });
  it("DrawCards takes the turn's draws in one move: the same events as one DrawCard at a time, all or nothing", () => {
    const s = drawing();
    const stepwise = { s, events: [] as SpearpointEvent[] };
    for (const from of ['command', 'reserves', 'reserves'] as const) {
      const r = when(stepwise.s, 'us', { type: 'DrawCard', from });
      stepwise.s = r.s;
      stepwise.events.push(...r.events);
    }
    const once = when(s, 'us', { type: 'DrawCards', from: ['command', 'reserves', 'reserves'] });
    expect(once.error).toBeUndefined();
    expect(once.events).toEqual(stepwise.events);
    expect(once.s).toEqual(stepwise.s);
    // One offer per split between the decks (the order within a turn's draws changes nothing);
    // decide still accepts any order that keeps the Command card first.
    expect(spearpoint.legalCommands(s, 'us').filter((c) => c.type === 'DrawCards')).toEqual([
      { type: 'DrawCards', from: ['command', 'command', 'command'] },
      { type: 'DrawCards', from: ['command', 'command', 'reserves'] },
      { type: 'DrawCards', from: ['command', 'reserves', 'reserves'] },
    ]);
    expect(when(s, 'us', { type: 'DrawCards', from: ['command', 'reserves', 'command'] }).error).toBeUndefined();
    expect(
      spearpoint
        .legalCommands(s, 'us')
        .filter((c) => c.type === 'DrawCards')
        .every((c) => c.type === 'DrawCards' && c.from[0] === 'command'),
    ).toBe(true);
    const wrong = when(s, 'us', { type: 'DrawCards', from: ['reserves', 'command'] });
    expect(wrong.error).toMatchObject({ code: 'draw/command-first', message: expect.stringMatching(/^Draw 1 \(reserves\): /) });
    // A failing draw later in the list refuses the whole move: nothing is drawn.
    const short = { ...s, seats: { ...s.seats, us: { ...s.seats.us, reserves: s.seats.us.reserves.slice(0, 1) } } };
    const tooMany = when(short, 'us', { type: 'DrawCards', from: ['command', 'reserves', 'reserves'] });
    expect(tooMany.error).toMatchObject({ code: 'draw/reserves-empty', message: expect.stringMatching(/^Draw 3 /) });
    expect(tooMany.events).toEqual([]);
    expect(spearpoint.legalCommands(short, 'us')).not.toContainEqual({ type: 'DrawCards', from: ['command', 'reserves', 'reserves'] });
  });
  it('an empty Command deck is reshuffled from the discards; with nothing at all left to draw the draws are skipped', () => {
    const s = drawing();
    const reshuffle = when({ ...s, commandDeck: { draw: [], discard: ['cmd-01', 'cmd-02'] } }, 'us', { type: 'DrawCard', from: 'command' }, [], (xs) =>
      [...xs].reverse(),
    );
    expect(reshuffle.emitted[0]).toMatchObject({ event: { type: 'CommandDeckReshuffled', order: ['cmd-02', 'cmd-01'] }, visibility: { to: 'none' } });
    expect(reshuffle.s.seats.us.commands).toEqual(['cmd-02']);
    const empty = given({ us: [{ card: 'us-rifle-squad' }] }, 'declaration');
    const bare = {
      ...empty,
      commandDeck: { ...empty.commandDeck, draw: [] },
      seats: { us: { ...empty.seats.us, reserves: [] }, de: { ...empty.seats.de, reserves: [] } },
    };
    const r = bothSeal(bare, [], []);
    expect(ofType(r.events, 'DrawsSkipped').map((e) => e.seat)).toEqual(['us', 'de']);
    expect(r.s.phase).toBe('commitment');
  });
});

describe('victory (001 Victory Points; Winning the Game)', () => {
  it('the first to 51 Victory Points wins at once', () => {
    const s = given({ us: [{ card: 'us-m4a1-sherman', patch: { endurance: 1 } }], de: [{ card: 'de-tiger-i' }] });
    const close = { ...s, seats: { ...s.seats, de: { ...s.seats.de, score: 40 } } };
    const declared = bothSeal(close, [], [{ type: 'DeclareAttack', attacker: 'de-t1', target: 'us-t1', weapons: [0] }], [1, 9]).s;
    const r = when(declared, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [9, 9, 8]);
    expect(ofType(r.events, 'GameDecided')[0]).toMatchObject({ winners: ['de'] });
    expect(spearpoint.outcome(r.s)).toMatchObject({ winners: ['de'], score: { us: 0, de: 55 } });
    expect(spearpoint.pending(r.s)).toEqual([]);
    expect(spearpoint.legalCommands(r.s, 'us')).toEqual([]);
  });
  it('Overrun: an unopposed committed land unit at the end of three consecutive turns wins', () => {
    const s = given({ us: [{ card: 'us-rifle-squad' }] });
    const twice = { ...s, seats: { ...s.seats, us: { ...s.seats.us, overrun: 2 } } };
    const r = bothSeal(twice, [], []);
    expect(ofType(r.events, 'OverrunCounted')[0]!.counts).toEqual({ us: 3, de: 0 });
    expect(spearpoint.outcome(r.s)?.winners).toEqual(['us']);
    const opposed = given({ us: [{ card: 'us-rifle-squad' }], de: [{ card: 'de-rifle-squad' }] });
    const reset = bothSeal({ ...opposed, seats: { ...opposed.seats, us: { ...opposed.seats.us, overrun: 2 } } }, [], []);
    expect(reset.s.seats.us.overrun).toBe(0);
    expect(spearpoint.outcome(reset.s)).toBeUndefined();
    const onlyAircraft = given({ us: [{ card: 'us-p40-warhawk' }] });
    expect(bothSeal({ ...onlyAircraft, seats: { ...onlyAircraft.seats, us: { ...onlyAircraft.seats.us, overrun: 2 } } }, [], []).s.seats.us.overrun).toBe(0);
  });
  it('Situation win conditions: Tiger Hunt ends when the US knocks out a tank; Hold the Line when the US holds through turn 8', () => {
    const hunt = given(
      { us: [{ card: 'us-bazooka-team' }], de: [{ card: 'de-tiger-i', patch: { endurance: 1 } }, { card: 'de-rifle-squad' }] },
      'declaration',
      { situation: 'tiger-hunt' },
    );
    const declared = bothSeal(hunt, [{ type: 'DeclareAttack', attacker: 'us-t1', target: 'de-t1', weapons: [0] }], [], [9, 1]).s;
    const r = when(declared, 'us', { type: 'ResolveAttack', attackId: 't1-us-1' }, [9, 9, 5]);
    expect(spearpoint.outcome(r.s)).toMatchObject({ winners: ['us'] });
    expect(spearpoint.outcome(r.s)!.reason).toMatch(/tank/);
    const hold = given({ us: [{ card: 'us-rifle-squad' }], de: [{ card: 'de-rifle-squad' }] }, 'declaration', { situation: 'hold-the-line' });
    expect(spearpoint.outcome(bothSeal({ ...hold, turn: 7 }, [], []).s)).toBeUndefined();
    expect(spearpoint.outcome(bothSeal({ ...hold, turn: 8 }, [], []).s)).toMatchObject({ winners: ['us'] });
  });
  it('a game that could never end stops: at the turn limit, or with nothing left to fight with, the higher score wins', () => {
    const s = given({ us: [{ card: 'us-rifle-squad' }], de: [{ card: 'de-rifle-squad' }] }, 'declaration', { maxTurns: 1 });
    const scored = { ...s, seats: { ...s.seats, de: { ...s.seats.de, score: 5 } } };
    expect(spearpoint.outcome(bothSeal(scored, [], []).s)).toMatchObject({ winners: ['de'] });
    const empty = given({});
    const bare = { ...empty, seats: { us: { ...empty.seats.us, reserves: [] }, de: { ...empty.seats.de, reserves: [] } } };
    const r = bothSeal(bare, [], []);
    expect(spearpoint.outcome(r.s)).toMatchObject({ winners: [] });
    expect(spearpoint.outcome(r.s)!.reason).toMatch(/draw/);
  });
  it('a bad option is refused at creation with the field named', () => {
    const r = decideCreate(spearpoint, { gameId: 'g', options: { situation: 'nowhere' }, createdBy: 'a', commitment: 'x' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/situation/);
  });
});

describe('views (hidden information)', () => {
  const s = withHand(
    withHand(given({ us: [{ card: 'us-rifle-squad' }] }, 'commitment'), 'us', ['us-m4a1-sherman', 'us-tank-crew'], ['cmd-01']),
    'de',
    ['de-tiger-i'],
    ['cmd-02'],
  );
  const ordered = when(s, 'us', { type: 'CommitUnit', unit: 'us-h1', crew: 'us-h2' }).s;
  const json = (v: unknown) => JSON.stringify(v);
  it('a seat sees its own hand, command cards and order, and only counts of the other side’s', () => {
    const us = spearpoint.view(ordered, { kind: 'seat', seat: 'us' }) as {
      seats: Record<string, { hand?: unknown; order?: unknown; handCount: number; commandCount: number }>;
    };
    expect(us.seats.us!.hand).toBeDefined();
    expect(us.seats.us!.order).toHaveLength(1);
    expect(us.seats.de!.hand).toBeUndefined();
    expect(us.seats.de!.handCount).toBe(1);
    const de = json(spearpoint.view(ordered, { kind: 'seat', seat: 'de' }));
    for (const secret of ['us-h1', 'us-h2', 'cmd-01']) expect(de).not.toContain(`"${secret}"`);
  });
  it('a spectator sees only public things; the auditor also sees every deck order', () => {
    const spectator = json(spearpoint.view(ordered, { kind: 'spectator' }));
    for (const secret of ['us-h1', 'de-h1', 'cmd-01', 'cmd-02']) expect(spectator).not.toContain(`"${secret}"`);
    expect(spectator).toContain('"us-t1"');
    const auditor = spearpoint.view(ordered, { kind: 'auditor' }) as { commandDeckOrder: string[]; seats: Record<string, { reservesOrder: string[] }> };
    expect(auditor.commandDeckOrder).toEqual(ordered.commandDeck.draw);
    expect(auditor.seats.us!.reservesOrder).toEqual(ordered.seats.us.reserves);
    expect(json(spearpoint.view(ordered, { kind: 'seat', seat: 'us' }))).not.toContain('reservesOrder');
  });
});
