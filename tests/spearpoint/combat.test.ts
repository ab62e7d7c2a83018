import { describe, expect, it } from 'vitest';
import {
  crewFate,
  hitThreshold,
  initiativeWinner,
  isLegalTarget,
  netDamage,
  recoveredEndurance,
  specialRoll,
  targetProblem,
  victoryPoints,
  weaponCanAffect,
  BUILT_IN_CATALOG,
  indexCatalog,
} from '../../domain/spearpoint/index.js';
import { expectRefused } from './rulebook.js';
import { bothSeal, cardTitled, given, ofType, when, withHand } from './given.js';

const unit = (id: string) => indexCatalog(BUILT_IN_CATALOG).unit(id);

describe('target declaration (001 Combat Phase: Target Declaration)', () => {
  const s = given({
    us: [
      { card: 'us-m4a1-sherman' },
      { card: 'us-30cal-lmg-team' },
      { card: 'us-105mm-howitzer' },
      { card: 'us-m7-priest', line: 'rear' },
      { card: 'us-p40-warhawk' },
    ],
    de: [{ card: 'de-rifle-squad' }, { card: 'de-tiger-i' }, { card: 'de-15cm-sfh-18' }, { card: 'de-bf109' }, { card: 'de-88mm-flak-36' }],
  });
  it('a weapon with no value for the target type cannot fire at it: the Sherman main gun cannot hit aircraft, its .50cal can', () => {
    expect(targetProblem(s, 'us-t1', 'de-t4', [0])?.code).toBe('combat/weapon-cannot-affect');
    expect(isLegalTarget(s, 'us-t1', [1], 'de-t4')).toBe(true);
  });
  it('bullets cannot affect a unit of base Defense 2 or more', () => {
    expect(weaponCanAffect(unit('us-30cal-lmg-team').weapons[0]!, unit('de-tiger-i'))).toBe(false);
    expect(weaponCanAffect(unit('us-30cal-lmg-team').weapons[0]!, unit('de-rifle-squad'))).toBe(true);
    expect(targetProblem(s, 'us-t2', 'de-t2', [0])?.code).toBe('combat/bullets-vs-armor');
    // Defense 2 exactly is already out of reach; Defense 1 is not.
    expect(weaponCanAffect(unit('de-mg42-team').weapons[0]!, unit('us-57mm-at-gun'))).toBe(false);
    expect(weaponCanAffect(unit('de-mg42-team').weapons[0]!, unit('us-sniper'))).toBe(true);
  });
  it('the bullets rule reads the printed Defense: a dug-in rifle squad (Defense 0 + 2) can still be machine-gunned', () => {
    const dug = given({ us: [{ card: 'us-rifle-squad' }], de: [{ card: 'de-mg42-team' }] });
    const dig = cardTitled(dug, 'Dig In');
    const withDig = {
      ...dug,
      effects: [
        { card: dig, title: 'Dig In', seat: 'us' as const, unit: 'us-t1', effect: { kind: 'defense' as const, amount: 2 }, duration: 'permanent' as const },
      ],
    };
    expect(isLegalTarget(withDig, 'de-t1', [0], 'us-t1')).toBe(true);
  });
  it('front-line units reach the enemy front line and aircraft, not its rear line', () => {
    expect(targetProblem(s, 'us-t1', 'de-t3', [0])?.code).toBe('combat/line-restriction');
    expect(isLegalTarget(s, 'us-t1', [0], 'de-t2')).toBe(true);
  });
  it('rear-line units reach the enemy front and rear lines; aircraft reach anything', () => {
    expect(isLegalTarget(s, 'us-t3', [0], 'de-t3')).toBe(true);
    expect(isLegalTarget(s, 'us-t3', [0], 'de-t1')).toBe(true);
    expect(isLegalTarget(s, 'us-t5', [1], 'de-t3')).toBe(true);
  });
  it('mobile artillery on the rear line fires only its first weapon at land targets, but may use its MG on aircraft', () => {
    expect(targetProblem(s, 'us-t4', 'de-t1', [1])?.code).toBe('combat/mobile-artillery-rear');
    expect(isLegalTarget(s, 'us-t4', [0], 'de-t1')).toBe(true);
    expect(isLegalTarget(s, 'us-t4', [1], 'de-t4')).toBe(true);
    const front = given({ us: [{ card: 'us-m7-priest', line: 'front' }], de: [{ card: 'de-rifle-squad' }] });
    expect(isLegalTarget(front, 'us-t1', [1], 'de-t1')).toBe(true);
  });
  it('bombs attack once per flight', () => {
    expect(isLegalTarget(s, 'us-t5', [1], 'de-t2')).toBe(true);
    const bombed = { ...s, inPlay: { ...s.inPlay, 'us-t5': { ...s.inPlay['us-t5']!, bombsUsed: true } } };
    expect(targetProblem(bombed, 'us-t5', 'de-t2', [1])?.code).toBe('combat/bombs-used');
  });
  it('a unit without its crew stands idle and cannot attack', () => {
    const idle = given({ us: [{ card: 'us-m4a1-sherman', crew: false }], de: [{ card: 'de-rifle-squad' }] });
    expect(targetProblem(idle, 'us-t1', 'de-t1', [0])?.code).toBe('combat/idle');
  });
  it('one target per unit, declared in a sealed order the other side cannot see until both have sealed', () => {
    const a = when(s, 'us', { type: 'DeclareAttack', attacker: 'us-t1', target: 'de-t2', weapons: [0] });
    expect(a.emitted[0]!.visibility).toEqual({ to: 'seats', seats: ['us'] });
    expectRefused(a.s, { type: 'DeclareAttack', attacker: 'us-t1', target: 'de-t1', weapons: [0] }, 'us', 'combat/already-declared');
    const sealed = when(a.s, 'us', { type: 'SealOrder' });
    expect(ofType(sealed.events, 'DeclarationRevealed')).toHaveLength(0);
    const revealed = when(sealed.s, 'de', { type: 'SealOrder' }, [4, 9]);
    const [reveal] = ofType(revealed.events, 'DeclarationRevealed');
    expect(reveal!.attacks.map((x) => [x.attackers, x.target])).toEqual([[['us-t1'], 'de-t2']]);
  });
});

describe('close assault (001 Combat Phase: Target Declaration)', () => {
  const s = given({
    us: [{ card: 'us-rifle-squad' }, { card: 'us-bazooka-team' }, { card: 'us-rifle-squad' }],
    de: [{ card: 'de-tiger-i' }],
  });
  const join = (attacker: string) => ({ type: 'JoinCloseAssault' as const, attacker, target: 'de-t1' });
  it('needs three or more infantry: two cannot seal', () => {
    const r = bothSeal(s, [join('us-t1'), join('us-t2')], []);
    expect(r.error?.code).toBe('combat/close-assault-too-small');
  });
  it('three infantry roll once with the best vehicle value and, on a hit, 1d10 each against Defense', () => {
    const declared = bothSeal(s, [join('us-t1'), join('us-t2'), join('us-t3')], [], [8, 2]);
    const [attack] = declared.s.attacks;
    expect(attack!.attackers).toEqual(['us-t1', 'us-t2', 'us-t3']);
    // Best vehicle value in the group is the Bazooka's 10; Tiger Defense 7.
    const r = when(declared.s, 'us', { type: 'ResolveAttack', attackId: attack!.id }, [6, 5, 9, 8, 7]);
    const [roll] = ofType(r.events, 'AttackRolled');
    expect(roll!.needed).toBe(10);
    const [hit] = ofType(r.events, 'HitResolved');
    expect(hit!.intensity).toEqual([9, 8, 7]);
    expect(hit!.net).toBe(9 + 8 + 7 - 7);
    expect(ofType(r.events, 'AttackRolled')).toHaveLength(1);
  });
  it('only front-line infantry may join, only against armored front-line units', () => {
    const t = given({ us: [{ card: 'us-rifle-squad' }, { card: 'us-m4a1-sherman' }], de: [{ card: 'de-rifle-squad' }, { card: 'de-tiger-i' }] });
    expectRefused(t, { type: 'JoinCloseAssault', attacker: 'us-t2', target: 'de-t2' }, 'us', 'combat/close-assault-infantry');
    expectRefused(t, { type: 'JoinCloseAssault', attacker: 'us-t1', target: 'de-t1' }, 'us', 'combat/close-assault-target');
  });
});

describe('initiative (001 Combat Phase: Initiative)', () => {
  const s = given({ us: [{ card: 'us-rifle-squad' }, { card: 'us-rifle-squad' }], de: [{ card: 'de-rifle-squad' }, { card: 'de-rifle-squad' }] });
  const orders = (): [never[], never[]] => [
    [
      { type: 'DeclareAttack', attacker: 'us-t1', target: 'de-t1', weapons: [1] },
      { type: 'DeclareAttack', attacker: 'us-t2', target: 'de-t2', weapons: [1] },
    ] as never[],
    [
      { type: 'DeclareAttack', attacker: 'de-t1', target: 'us-t1', weapons: [1] },
      { type: 'DeclareAttack', attacker: 'de-t2', target: 'us-t2', weapons: [1] },
    ] as never[],
  ];
  it('each side rolls 1d10; ties are re-rolled; the higher picks the first attack', () => {
    const r = bothSeal(s, ...orders(), [5, 5, 3, 7]);
    const [ini] = ofType(r.events, 'InitiativeRolled');
    expect(ini!.rolls).toEqual([
      { us: 5, de: 5 },
      { us: 3, de: 7 },
    ]);
    expect(ini!.winner).toBe('de');
    expect(r.s.chooser).toBe('de');
    expect(initiativeWinner(4, 4)).toBeNull();
  });
  it('then the sides alternate', () => {
    const r = bothSeal(s, ...orders(), [9, 1]);
    expect(r.s.chooser).toBe('us');
    expect(when(r.s, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [2, 2]).error?.code).toBe('combat/not-your-choice');
    const first = when(r.s, 'us', { type: 'ResolveAttack', attackId: 't1-us-1' }, [2, 3]);
    expect(first.s.chooser).toBe('de');
    const second = when(first.s, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [2, 4]);
    expect(second.s.chooser).toBe('us');
  });
  it('modifiers apply: Ambush! adds 3, and a command card discarded with the seal adds 1', () => {
    const ambush = cardTitled(s, 'Ambush!');
    const boost = cardTitled(s, 'Hull Down');
    const t = withHand(withHand(s, 'de', [], [ambush]), 'us', [], [boost]);
    const [us, de] = orders();
    let cur = t;
    for (const c of us) cur = when(cur, 'us', c).s;
    for (const c of [...de, { type: 'PlayCommandCard', card: ambush }]) cur = when(cur, 'de', c as never).s;
    cur = when(cur, 'us', { type: 'SealOrder', initiativeBoost: boost }).s;
    const r = when(cur, 'de', { type: 'SealOrder' }, [6, 5]);
    const [ini] = ofType(r.events, 'InitiativeRolled');
    expect(ini!.modifiers).toEqual({ us: 1, de: 3 });
    expect(ini!.winner).toBe('de');
    expect(r.s.commandDeck.discard).toContain(boost);
  });
});

describe('attack rolls (001 Combat Phase: Attack)', () => {
  const tigerVsSherman = () =>
    bothSeal(
      given({ us: [{ card: 'us-m4a1-sherman' }, { card: 'us-rifle-squad' }, { card: 'us-57mm-at-gun' }], de: [{ card: 'de-tiger-i' }] }),
      [],
      [{ type: 'DeclareAttack', attacker: 'de-t1', target: 'us-t1', weapons: [0] }],
      [1, 9],
    );
  it('2d10 at or above the attack value hits, below misses', () => {
    const s = tigerVsSherman().s;
    const miss = when(s, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [4, 4]);
    expect(ofType(miss.events, 'AttackRolled')[0]!.result).toBe('miss');
    const hit = when(s, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [4, 5, 1]);
    expect(ofType(hit.events, 'AttackRolled')[0]!.result).toBe('hit');
  });
  it('the Tiger hitting a Sherman: 7 intensity + 8 damage index - 5 defense = 10 net, 14 down to 4, past the half breakpoint: one Damage card', () => {
    const r = when(tigerVsSherman().s, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [6, 6, 7]);
    const [hit] = ofType(r.events, 'HitResolved');
    expect(hit).toMatchObject({ net: 10, endurance: 4, damageIndex: 8, defense: 5 });
    expect(ofType(r.events, 'DamageCardDrawn')).toHaveLength(1);
  });
  it('a high rate of fire rolls once per X', () => {
    const s = bothSeal(
      given({ us: [{ card: 'us-30cal-lmg-team' }], de: [{ card: 'de-rifle-squad' }] }),
      [{ type: 'DeclareAttack', attacker: 'us-t1', target: 'de-t1', weapons: [0] }],
      [],
      [5, 1],
    ).s;
    const r = when(s, 'us', { type: 'ResolveAttack', attackId: 't1-us-1' }, [1, 5, 2, 5, 3, 4]);
    expect(ofType(r.events, 'AttackRolled')).toHaveLength(3);
  });
  it('special rolls: 2-3 friendly fire, 18 doubles intensity, 19-20 destroys outright', () => {
    expect([2, 3, 4, 17, 18, 19, 20].map(specialRoll)).toEqual([
      'friendly-fire',
      'friendly-fire',
      null,
      null,
      'double-intensity',
      'destroyed-outright',
      'destroyed-outright',
    ]);
    expect(netDamage(6, 8, 5, { doubled: true })).toBe(15);
    const outright = when(tigerVsSherman().s, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [10, 9]);
    const [gone] = ofType(outright.events, 'UnitDestroyed');
    expect(gone).toMatchObject({ unit: 'us-t1', cause: 'outright', crewFate: 'lost', points: 13, crewPoints: 2 });
    const doubled = when(tigerVsSherman().s, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [9, 9, 3]);
    expect(ofType(doubled.events, 'HitResolved')[0]).toMatchObject({ doubled: true, net: 3 * 2 + 8 - 5 });
  });
  it('friendly fire: the opponent chooses which of the attacker’s own units is hit, and it scores nothing', () => {
    const s = tigerVsSherman().s;
    const ff = when(s, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [1, 1]);
    // The German Tiger has no other German unit to hit: harmless.
    expect(ofType(ff.events, 'FriendlyFireHarmless')).toHaveLength(1);
    const two = bothSeal(
      given({ us: [{ card: 'us-m4a1-sherman' }], de: [{ card: 'de-tiger-i' }, { card: 'de-panther' }, { card: 'de-rifle-squad' }] }),
      [],
      [{ type: 'DeclareAttack', attacker: 'de-t1', target: 'us-t1', weapons: [0] }],
      [1, 9],
    ).s;
    const paused = when(two, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [2, 1]);
    expect(paused.s.friendlyFire).toMatchObject({ chooser: 'us', candidates: ['de-t2', 'de-t3'] });
    expectRefused(paused.s, { type: 'ChooseFriendlyFireVictim', unit: 'de-t3' }, 'de', 'combat/no-friendly-fire');
    const chosen = when(paused.s, 'us', { type: 'ChooseFriendlyFireVictim', unit: 'de-t3' }, [10]);
    const [gone] = ofType(chosen.events, 'UnitDestroyed');
    expect(gone).toMatchObject({ unit: 'de-t3', by: null, points: 0 });
    expect(chosen.s.seats.us.score).toBe(0);
  });
  it('a standing order picks the most expensive victim without waiting (rules version 2: its own SetStandingOrders)', () => {
    const two = bothSeal(
      given({ us: [{ card: 'us-m4a1-sherman' }], de: [{ card: 'de-tiger-i' }, { card: 'de-panther' }, { card: 'de-rifle-squad' }] }, 'declaration', {}, 2),
      [],
      [{ type: 'DeclareAttack', attacker: 'de-t1', target: 'us-t1', weapons: [0] }],
      [1, 9],
    ).s;
    const standing = when(two, 'us', { type: 'SetStandingOrders', friendlyFire: 'highest-cost' });
    expect(standing.emitted[0]!.visibility).toEqual({ to: 'seats', seats: ['us'] });
    const r = when(standing.s, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [2, 1, 1]);
    expect(ofType(r.events, 'FriendlyFireVictimChosen')[0]).toMatchObject({ unit: 'de-t2', automatic: true });
    expect(r.s.friendlyFire).toBeNull();
  });
  it('artillery and guns are attacked as vehicles with a bonus of 2, mobile artillery too (rules version 3; version 2 left it out)', () => {
    const place = {
      us: [{ card: 'us-105mm-howitzer' }, { card: 'us-57mm-at-gun' }, { card: 'us-m7-priest' }, { card: 'us-m7-priest', line: 'rear' as const }],
      de: [{ card: 'de-88mm-flak-36' }, { card: 'de-bf109' }],
    };
    const s = given(place);
    expect(hitThreshold(s, 'de-t1', 0, 'us-t1')).toBe(9 - 2);
    expect(hitThreshold(s, 'de-t1', 0, 'us-t2')).toBe(9 - 2);
    expect(hitThreshold(s, 'de-t1', 0, 'us-t3')).toBe(9 - 2);
    expect(hitThreshold(s, 'de-t2', 0, 'us-t4')).toBe(unit('de-bf109').weapons[0]!.attack.vehicle! - 2);
    const v2 = given(place, 'declaration', {}, 2);
    expect(hitThreshold(v2, 'de-t1', 0, 'us-t1')).toBe(9 - 2);
    expect(hitThreshold(v2, 'de-t1', 0, 'us-t3')).toBe(9);
  });
  it('discarding a command card before the roll adds 1 to it, and the card is discarded face up', () => {
    const s = tigerVsSherman().s;
    const card = s.commandDeck.draw[0]!;
    const t = withHand(s, 'de', [], [card]);
    const plain = when(t, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [4, 4]);
    expect(ofType(plain.events, 'AttackRolled')[0]).toMatchObject({ needed: 9, bonus: 0, result: 'miss' });
    const boosted = when(t, 'de', { type: 'ResolveAttack', attackId: 't1-de-1', boostWith: card }, [4, 4, 1]);
    expect(ofType(boosted.events, 'AttackRolled')[0]).toMatchObject({ needed: 9, bonus: 1, result: 'hit' });
    const discarded = boosted.emitted.find((e) => e.event.type === 'CommandCardDiscardedForBonus')!;
    expect(discarded.event).toMatchObject({ card, roll: 'hit' });
    expect(discarded.visibility).toEqual({ to: 'all' });
    expect(boosted.s.commandDeck.discard).toContain(card);
    expect(boosted.s.seats.de.commands).not.toContain(card);
    const intensity = when(t, 'de', { type: 'ResolveAttack', attackId: 't1-de-1', boostWith: card, boostRoll: 'intensity' }, [5, 5, 3]);
    expect(ofType(intensity.events, 'HitResolved')[0]).toMatchObject({ bonus: 1, net: 3 + 8 + 1 - 5 });
  });
});

describe('damage resolution (001 Combat Phase: Damage Resolution)', () => {
  const s = given({
    us: [{ card: 'us-m4a1-sherman' }, { card: 'us-m4a1-sherman' }, { card: 'us-rifle-squad' }],
    de: [{ card: 'de-tiger-i' }, { card: 'de-panther' }],
  });
  const declared = bothSeal(
    s,
    [],
    [
      { type: 'DeclareAttack', attacker: 'de-t1', target: 'us-t1', weapons: [0] },
      { type: 'DeclareAttack', attacker: 'de-t2', target: 'us-t1', weapons: [0] },
    ],
    [1, 9],
  ).s;
  it('net damage is intensity plus damage index minus defense, never below zero', () => {
    expect(netDamage(7, 8, 5)).toBe(10);
    expect(netDamage(1, 2, 7)).toBe(0);
  });
  it('damage is cumulative within the phase: two hits on one Sherman destroy it', () => {
    const first = when(declared, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [5, 5, 2]); // 2+8-5 = 5 → 9
    expect(ofType(first.events, 'HitResolved')[0]!.endurance).toBe(9);
    expect(first.s.chooser).toBe('de');
    const second = when(first.s, 'de', { type: 'ResolveAttack', attackId: 't1-de-2' }, [5, 5, 8]); // 8+8-5 = 11 → -2
    expect(ofType(second.events, 'UnitDestroyed')[0]).toMatchObject({ unit: 'us-t1', by: 'de', points: 13 });
    expect(second.s.seats.de.score).toBe(13 + (second.s.removed.find((r) => r.card === 'us-t1c')?.points ?? 0));
  });
  it('a unit that survives recovers at the end of the phase: to full without a Damage card, to half with one', () => {
    const light = when(declared, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [5, 5, 2]);
    const after = when(light.s, 'de', { type: 'ResolveAttack', attackId: 't1-de-2' }, [1, 5]);
    expect(ofType(after.events, 'CombatEnded')).toHaveLength(1);
    expect(after.s.inPlay['us-t1']!.endurance).toBe(14);
    expect(recoveredEndurance(unit('us-m4a1-sherman'), true)).toBe(7);
    expect(recoveredEndurance(unit('us-m4a1-sherman'), false)).toBe(14);
  });
  it('reaching half endurance draws one Damage card; its effect is the edge for the unit type', () => {
    // dmg-01 ("Immobilized") is on top: a tank is immobilized by it.
    const hit = when(declared, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [5, 5, 5]); // 5+8-5 = 8 → 6
    expect(ofType(hit.events, 'DamageCardDrawn')[0]).toMatchObject({ unit: 'us-t1', card: 'dmg-01' });
    expect(hit.s.inPlay['us-t1']!.immobilized).toBe(true);
    // A second hit that leaves it alive draws no second card; it recovers to half at the end of the phase.
    const again = when(hit.s, 'de', { type: 'ResolveAttack', attackId: 't1-de-2' }, [5, 5, 1]); // 1+8-5 = 4 → 2
    expect(ofType(again.events, 'HitResolved')[0]!.endurance).toBe(2);
    expect(ofType(again.events, 'DamageCardDrawn')).toHaveLength(0);
    expect(again.s.inPlay['us-t1']!.endurance).toBe(7);
  });
  it('infantry reading the same card is shaken instead, and a shaken unit cannot attack', () => {
    const inf = bothSeal(
      given({ us: [{ card: 'us-rifle-squad' }], de: [{ card: 'de-mg42-team' }] }),
      [{ type: 'DeclareAttack', attacker: 'us-t1', target: 'de-t1', weapons: [1] }],
      [{ type: 'DeclareAttack', attacker: 'de-t1', target: 'us-t1', weapons: [1] }],
      [1, 9],
    ).s;
    // MG-42 pistols: 3+1 = 4 net on a 6-endurance squad → 2, past half (3): dmg-01 infantry edge is Shaken.
    const r = when(inf, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [6, 6, 3]);
    expect(r.s.inPlay['us-t1']!.shakenUntil).toBeGreaterThanOrEqual(r.s.turn);
    expect(ofType(r.events, 'AttackCancelled')[0]).toMatchObject({ attackId: 't1-us-1' });
  });
  it('crew survival by base intensity: 1-3 back under the Reserves, 4-6 captured if the enemy has a ground unit, 7+ lost', () => {
    expect(crewFate(3, true)).toBe('returned');
    expect(crewFate(4, true)).toBe('captured');
    expect(crewFate(6, false)).toBe('returned');
    expect(crewFate(7, true)).toBe('lost');
    const weak = { ...declared, inPlay: { ...declared.inPlay, 'us-t1': { ...declared.inPlay['us-t1']!, endurance: 1 } } };
    const captured = when(weak, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [5, 5, 5]);
    expect(ofType(captured.events, 'UnitDestroyed')[0]).toMatchObject({ crewFate: 'captured', crewPoints: victoryPoints(2, true) });
    const returned = when(weak, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [5, 5, 2]);
    expect(ofType(returned.events, 'UnitDestroyed')[0]).toMatchObject({ crewFate: 'returned', crewPoints: 0 });
    expect(returned.s.seats.us.reserves.at(-1)).toBe('us-t1c');
  });
});

describe('command cards in combat (001 Gameplay: Command cards)', () => {
  it('turn-long cards end with the combat phase; permanent cards stay until the unit leaves', () => {
    const s = given({ us: [{ card: 'us-105mm-howitzer' }, { card: 'us-m4a1-sherman' }], de: [{ card: 'de-rifle-squad' }] });
    const zero = cardTitled(s, 'Zero In Artillery');
    const hull = cardTitled(s, 'Hull Down');
    const t = withHand({ ...s, phase: 'commitment' }, 'us', [], [zero, hull]);
    const committed = bothSeal(t, [{ type: 'PlayCommandCard', card: hull, target: 'us-t2' }], []);
    expect(committed.s.effects.map((e) => e.title)).toEqual(['Hull Down']);
    const declared = bothSeal(
      committed.s,
      [
        { type: 'PlayCommandCard', card: zero, target: 'us-t1' },
        { type: 'DeclareAttack', attacker: 'us-t1', target: 'de-t1', weapons: [0] },
      ],
      [],
      [9, 1],
    );
    expect(hitThreshold(declared.s, 'us-t1', 0, 'de-t1')).toBe(10 - 2);
    const done = when(declared.s, 'us', { type: 'ResolveAttack', attackId: 't1-us-1' }, [1, 5]);
    expect(done.s.effects.map((e) => e.title)).toEqual(['Hull Down']);
    expect(done.s.commandDeck.discard).toContain(zero);
  });
});

describe('damage cards in play (001 Combat Phase: Damage Resolution)', () => {
  const plan = (damageDeck: string[], damageDiscard: string[] = [], rulesVersion?: number) => {
    const s = given({ us: [{ card: 'us-m4a1-sherman' }], de: [{ card: 'de-tiger-i' }] }, 'declaration', {}, rulesVersion);
    return bothSeal(
      { ...s, damageDeck: { draw: damageDeck, discard: damageDiscard } },
      [],
      [{ type: 'DeclareAttack', attacker: 'de-t1', target: 'us-t1', weapons: [0] }],
      [1, 9],
    ).s;
  };
  it('rules version 2: its Crew Casualty card killed the crew of the surviving tank (scored by the attacker) and left it idle', () => {
    const r = when(plan(['dmg-03'], [], 2), 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [6, 6, 5]);
    expect(ofType(r.events, 'CrewKilled')[0]).toMatchObject({ unit: 'us-t1', crew: 'us-t1c', by: 'de', points: 2 });
    expect(r.s.inPlay['us-t1']!.crew).toBeNull();
    expect(r.s.seats.de.score).toBe(2);
  });
  it('Ammunition Fire destroys the tank outright with its crew', () => {
    const r = when(plan(['dmg-09']), 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [6, 6, 5]);
    expect(ofType(r.events, 'UnitDestroyed')[0]).toMatchObject({ unit: 'us-t1', cause: 'explosion', crewFate: 'lost', points: 13, crewPoints: 2 });
  });
  it('an empty Damage deck is reshuffled from its discards, unseen; with none at all no card is drawn and the unit recovers as an undamaged one', () => {
    const r = when(plan([], ['dmg-05']), 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [6, 6, 5]);
    expect(r.emitted.find((e) => e.event.type === 'DamageDeckReshuffled')!.visibility).toEqual({ to: 'none' });
    expect(r.s.inPlay['us-t1']!.damageCard).toBe('dmg-05');
    const none = when(plan([]), 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [6, 6, 5]);
    expect(none.s.inPlay['us-t1']).toMatchObject({ damageCard: null, endurance: 14 });
  });
});
