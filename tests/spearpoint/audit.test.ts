import { describe, expect, it } from 'vitest';
import { hitThreshold, spearpoint, targetProblem, type Command, type State } from '../../domain/spearpoint/index.js';
import { expectRefused } from './rulebook.js';
import { bothSeal, cardTitled, given, ofType, when, withHand } from './given.js';

/**
 * Rule-by-rule audit of the engine against rulebook 001 (issue 4's "Rules to enforce"): the
 * cases the first test files did not pin down. Each test names the section it checks.
 */

const declare = (attacker: string, target: string, weapons: number[]) => ({ type: 'DeclareAttack' as const, attacker, target, weapons });
const resolve = (attackId: string, extra: object = {}) => ({ type: 'ResolveAttack' as const, attackId, ...extra });

describe('attack (001 Combat Phase: Attack)', () => {
  it('rate of fire: a 3X weapon rolls three attacks and every hit resolves its own damage', () => {
    const s = bothSeal(given({ us: [{ card: 'us-30cal-lmg-team' }], de: [{ card: 'de-rifle-squad' }] }), [declare('us-t1', 'de-t1', [0])], [], [5, 1]).s;
    // Shot 1: 4+5 = 9 ≥ 8 hits, intensity 1 + DI 3 = 4 net: 6 → 2. Shot 2: 6 misses. Shot 3: 10 hits, 4 more: destroyed.
    const r = when(s, 'us', resolve('t1-us-1'), [4, 5, 1, 1, 5, 5, 5, 1]);
    expect(ofType(r.events, 'AttackRolled').map((e) => e.result)).toEqual(['hit', 'miss', 'hit']);
    expect(ofType(r.events, 'HitResolved').map((e) => [e.net, e.endurance])).toEqual([
      [4, 2],
      [4, -2],
    ]);
    expect(ofType(r.events, 'UnitDestroyed')[0]).toMatchObject({ unit: 'de-t1', by: 'us', points: 3 });
  });

  it('18 doubles Intensity, with the +1 of a discarded card in it, before the Damage Index is added', () => {
    const s = bothSeal(given({ us: [{ card: 'us-m4a1-sherman' }], de: [{ card: 'de-tiger-i' }] }), [], [declare('de-t1', 'us-t1', [0])], [1, 9]).s;
    const card = cardTitled(s, 'Dig In');
    const t = withHand(s, 'de', [], [card]);
    const r = when(t, 'de', resolve('t1-de-1', { boostWith: card, boostRoll: 'intensity' }), [9, 9, 3]);
    // (3 + 1) × 2 + 8 − 5 = 11.
    expect(ofType(r.events, 'HitResolved')[0]).toMatchObject({ doubled: true, intensity: [3], bonus: 1, net: 11 });
  });

  it('a card may be discarded for +1 before a later roll of a multi-shot attack: the second shot of a 3X weapon', () => {
    const s = bothSeal(given({ us: [{ card: 'us-30cal-lmg-team' }], de: [{ card: 'de-rifle-squad' }] }), [declare('us-t1', 'de-t1', [0])], [], [5, 1]).s;
    const card = cardTitled(s, 'Dig In');
    const t = withHand(s, 'us', [], [card]);
    // Shot 1: 7 misses (needs 8). Shot 2: 7 + 1 hits. Shot 3: 7 misses.
    const r = when(t, 'us', resolve('t1-us-1', { boostWith: card, boostShot: 2 }), [3, 4, 3, 4, 1, 3, 4]);
    expect(ofType(r.events, 'AttackRolled').map((e) => [e.bonus, e.result])).toEqual([
      [0, 'miss'],
      [1, 'hit'],
      [0, 'miss'],
    ]);
    const types = r.events.map((e) => e.type);
    expect(types.indexOf('CommandCardDiscardedForBonus')).toBeGreaterThan(types.indexOf('AttackRolled'));
    expect(r.s.commandDeck.discard).toContain(card);
    expectRefused(t, resolve('t1-us-1', { boostWith: card, boostShot: 4 }), 'us', 'command/no-such-shot');
    expectRefused(t, resolve('t1-us-1', { boostShot: 2 }), 'us', 'command/boost-without-card');
    expect(spearpoint.legalCommands(t, 'us')).toContainEqual(resolve('t1-us-1', { boostWith: card, boostRoll: 'intensity', boostShot: 3 }));
  });

  it('a +1 named for a later shot waits, unseen, through a friendly-fire pause and counts when the attack resumes', () => {
    const s = bothSeal(
      given({ us: [{ card: 'us-30cal-lmg-team' }, { card: 'us-rifle-squad' }, { card: 'us-rifle-squad' }], de: [{ card: 'de-rifle-squad' }] }),
      [declare('us-t1', 'de-t1', [0])],
      [],
      [5, 1],
    ).s;
    const card = cardTitled(s, 'Dig In');
    const t = withHand(s, 'us', [], [card]);
    // Shot 1 rolls 2: friendly fire, and Germany must choose between the two US rifle squads.
    const paused = when(t, 'us', resolve('t1-us-1', { boostWith: card, boostShot: 2 }), [1, 1]);
    expect(paused.s.friendlyFire).toMatchObject({ chooser: 'de', candidates: ['us-t2', 'us-t3'] });
    const held = paused.emitted.find((e) => e.event.type === 'BoostsHeld')!;
    expect(held.event).toEqual({ type: 'BoostsHeld', seat: 'us', boosts: [{ card, roll: 'hit', shot: 2 }] });
    expect(held.visibility).toEqual({ to: 'seats', seats: ['us'] });
    expect((spearpoint.view(paused.s, { kind: 'seat', seat: 'de' }) as { seats: { us: object } }).seats.us).not.toHaveProperty('heldBoosts');
    expect(paused.s.seats.us.commands).toContain(card);
    // The victim takes intensity 1; then shot 2 rolls 7, +1 reaches 8 and hits; shot 3 rolls 7 and misses.
    const resumed = when(paused.s, 'de', { type: 'ChooseFriendlyFireVictim', unit: 'us-t2' }, [1, 3, 4, 1, 3, 4]);
    expect(ofType(resumed.events, 'AttackRolled').map((e) => [e.bonus, e.result])).toEqual([
      [1, 'hit'],
      [0, 'miss'],
    ]);
    expect(ofType(resumed.events, 'CommandCardDiscardedForBonus')).toEqual([{ type: 'CommandCardDiscardedForBonus', seat: 'us', card, roll: 'hit' }]);
    expect(resumed.s.commandDeck.discard).toContain(card);
    expect(resumed.s.seats.us.heldBoosts).toEqual([]);
  });

  it('a pause holds the +1 cards even when there are none, so the other side cannot tell', () => {
    const s = bothSeal(
      given({ us: [{ card: 'us-30cal-lmg-team' }, { card: 'us-rifle-squad' }, { card: 'us-rifle-squad' }], de: [{ card: 'de-rifle-squad' }] }),
      [declare('us-t1', 'de-t1', [0])],
      [],
      [5, 1],
    ).s;
    const paused = when(s, 'us', resolve('t1-us-1'), [1, 1]);
    expect(paused.emitted.filter((e) => e.event.type === 'BoostsHeld').map((e) => e.event)).toEqual([{ type: 'BoostsHeld', seat: 'us', boosts: [] }]);
  });

  it('several cards may be discarded on one attack, one for each roll: the attack roll and the Intensity roll of one shot', () => {
    const s = bothSeal(given({ us: [{ card: 'us-m4a1-sherman' }], de: [{ card: 'de-tiger-i' }] }), [], [declare('de-t1', 'us-t1', [0])], [1, 9]).s;
    const [a, b] = [cardTitled(s, 'Dig In'), cardTitled(s, 'Hull Down')];
    const t = withHand(s, 'de', [], [a, b]);
    const boosts = [
      { card: a, roll: 'hit' as const },
      { card: b, roll: 'intensity' as const, shot: 1 },
    ];
    expect(spearpoint.commandSchema.safeParse(resolve('t1-de-1', { boosts })).success).toBe(true);
    const r = when(t, 'de', resolve('t1-de-1', { boosts }), [4, 4, 3]); // 8 + 1 = 9 hits; (3 + 1) + 8 − 5 = 7
    expect(ofType(r.events, 'AttackRolled')[0]).toMatchObject({ bonus: 1, result: 'hit' });
    expect(ofType(r.events, 'HitResolved')[0]).toMatchObject({ bonus: 1, net: 7 });
    expect(ofType(r.events, 'CommandCardDiscardedForBonus').map((e) => [e.card, e.roll])).toEqual([
      [a, 'hit'],
      [b, 'intensity'],
    ]);
    expect(
      when(
        t,
        'de',
        resolve('t1-de-1', {
          boosts: [
            { card: a, roll: 'hit' },
            { card: a, roll: 'intensity' },
          ],
        }),
      ).error?.code,
    ).toBe('command/boost-twice');
    expect(
      when(
        t,
        'de',
        resolve('t1-de-1', {
          boosts: [
            { card: a, roll: 'hit' },
            { card: b, roll: 'hit' },
          ],
        }),
      ).error?.code,
    ).toBe('command/boost-twice');
    expectRefused(t, resolve('t1-de-1', { boostWith: a, boosts: [{ card: b, roll: 'hit' }] }), 'de', 'command/boost-twice');
  });

  describe('friendly fire', () => {
    const three = () =>
      bothSeal(
        given({ us: [{ card: 'us-m4a1-sherman' }], de: [{ card: 'de-tiger-i' }, { card: 'de-panther' }, { card: 'de-rifle-squad' }] }),
        [],
        [declare('de-t1', 'us-t1', [0])],
        [1, 9],
      ).s;

    it('a +1 for Intensity is for a hit on the declared target: on friendly fire the card is not spent, whoever picks the victim', () => {
      const s = three();
      const card = cardTitled(s, 'Dig In');
      const t = withHand(s, 'de', [], [card]);
      const paused = when(t, 'de', resolve('t1-de-1', { boostWith: card, boostRoll: 'intensity' }), [2, 1]);
      expect(paused.s.friendlyFire).not.toBeNull();
      expect(paused.s.seats.de.commands).toContain(card);
      const chosen = when(paused.s, 'us', { type: 'ChooseFriendlyFireVictim', unit: 'de-t2' }, [4]);
      expect(ofType(chosen.events, 'HitResolved')[0]).toMatchObject({ target: 'de-t2', bonus: 0, net: 4 + 8 - 6 });
      expect(chosen.s.seats.de.commands).toContain(card);
      // The standing order path (the kernel's, answering the friendly-fire window) treats the card the same way.
      const window = spearpoint.pending(paused.s)[0]!.window!;
      const said = spearpoint.standingOrders!.answer(paused.s, 'us', window, { topic: 'friendly-fire-victim', rule: 'highest-cost' });
      expect(said).toEqual({ answer: { type: 'ChooseFriendlyFireVictim', unit: 'de-t2' } });
      const auto = when(paused.s, 'us', (said as { answer: Command }).answer, [4]);
      expect(ofType(auto.events, 'HitResolved')[0]).toMatchObject({ target: 'de-t2', bonus: 0, net: 4 + 8 - 6 });
      expect(auto.s.seats.de.commands).toContain(card);
      expect(ofType(auto.events, 'CommandCardDiscardedForBonus')).toHaveLength(0);
    });

    it('an Intensity +1 on a miss leaves the card in hand; on a hit it is discarded face up just before the roll', () => {
      const s = three();
      const card = cardTitled(s, 'Dig In');
      const t = withHand(s, 'de', [], [card]);
      const miss = when(t, 'de', resolve('t1-de-1', { boostWith: card, boostRoll: 'intensity' }), [4, 4]);
      expect(miss.s.seats.de.commands).toContain(card);
      const hit = when(t, 'de', resolve('t1-de-1', { boostWith: card, boostRoll: 'intensity' }), [5, 5, 3]);
      const types = hit.events.map((e) => e.type);
      expect(types.indexOf('CommandCardDiscardedForBonus')).toBeGreaterThan(types.indexOf('AttackRolled'));
      expect(types.indexOf('CommandCardDiscardedForBonus')).toBeLessThan(types.indexOf('HitResolved'));
      expect(hit.s.commandDeck.discard).toContain(card);
    });

    it('the victim must be a legal target of the weapon that rolled: a rear-line M7 firing its MG at aircraft can only hit friendly aircraft', () => {
      const s = given({
        us: [{ card: 'us-m7-priest', line: 'rear' }, { card: 'us-rifle-squad' }, { card: 'us-p40-warhawk' }],
        de: [{ card: 'de-bf109' }],
      });
      const declared = bothSeal(s, [declare('us-t1', 'de-t1', [1])], [], [9, 1]).s;
      const r = when(declared, 'us', resolve('t1-us-1'), [1, 2, 3, 4, 4]);
      expect(ofType(r.events, 'FriendlyFireVictimChosen')[0]).toMatchObject({ unit: 'us-t3', automatic: true });
    });
  });
});

describe('close assault (001 Combat Phase: Target Declaration)', () => {
  const table = (infantry: number) =>
    given({
      us: Array.from({ length: infantry }, () => ({ card: 'us-rifle-squad' })),
      de: [{ card: 'de-tiger-i' }, { card: 'de-mg42-team' }],
    });
  const joins = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'JoinCloseAssault' as const, attacker: `us-t${i + 1}`, target: 'de-t1' }));

  it('a member shaken before the roll takes no part; below three able infantry the close assault is called off', () => {
    const s = bothSeal(table(3), joins(3), [declare('de-t2', 'us-t1', [1])], [1, 9]).s;
    // The MG-42's pistols: 3 + 1 = 4 net, 6 → 2, a Damage card (dmg-01: Shaken for infantry).
    const r = when(s, 'de', resolve('t1-de-1'), [6, 6, 3]);
    expect(r.s.inPlay['us-t1']!.shakenUntil).toBeGreaterThanOrEqual(r.s.turn);
    expect(ofType(r.events, 'AttackCancelled')[0]).toMatchObject({ attackId: 't1-us-1' });
  });

  it('with four in the group and one shaken, the other three roll one 1d10 each', () => {
    const s = bothSeal(table(4), joins(4), [declare('de-t2', 'us-t1', [1])], [1, 9]).s;
    const shaken = when(s, 'de', resolve('t1-de-1'), [6, 6, 3]).s;
    expect(shaken.attacks.find((a) => a.id === 't1-us-1')!.status).toBe('pending');
    const r = when(shaken, 'us', resolve('t1-us-1'), [8, 8, 9, 8, 7, 6]);
    expect(ofType(r.events, 'HitResolved')[0]!.intensity).toEqual([9, 8, 7]);
  });

  it('any armored front-line unit attacked as a vehicle may be close assaulted, such as an M7 Priest on the front line', () => {
    const s = given({
      us: [{ card: 'us-m7-priest', line: 'front' }],
      de: [{ card: 'de-rifle-squad' }, { card: 'de-rifle-squad' }, { card: 'de-rifle-squad' }],
    });
    expect(when(s, 'de', { type: 'JoinCloseAssault', attacker: 'de-t1', target: 'us-t1' }).error).toBeUndefined();
    const rear = given({ us: [{ card: 'us-m7-priest', line: 'rear' }], de: [{ card: 'de-rifle-squad' }] });
    expectRefused(rear, { type: 'JoinCloseAssault', attacker: 'de-t1', target: 'us-t1' }, 'de', 'combat/close-assault-target');
  });
});

describe('initiative (001 Combat Phase: Initiative; Gameplay: Command cards)', () => {
  it('a card set aside for +1 Initiative is discarded only if Initiative is rolled; with no attack to resolve it stays in hand, unseen', () => {
    const s = given({ us: [{ card: 'us-rifle-squad' }], de: [{ card: 'de-rifle-squad' }] });
    const card = cardTitled(s, 'Dig In');
    const t = withHand(s, 'us', [], [card]);
    const sealed = when(t, 'us', { type: 'SealOrder', initiativeBoost: card });
    // The boost is not betrayed by an extra private event: a plain seal emits as many.
    expect(sealed.emitted.map((e) => e.visibility.to)).toEqual(when(t, 'us', { type: 'SealOrder' }).emitted.map((e) => e.visibility.to));
    const r = when(sealed.s, 'de', { type: 'SealOrder' });
    expect(ofType(r.events, 'InitiativeRolled')).toHaveLength(0);
    expect(ofType(r.events, 'CommandCardDiscardedForBonus')).toHaveLength(0);
    expect(r.s.seats.us.commands).toContain(card);
    expect(JSON.stringify(r.emitted.filter((e) => e.visibility.to === 'all'))).not.toContain(`"${card}"`);
    // With an attack to resolve, it is discarded face up before the roll.
    const attack = when(t, 'us', declare('us-t1', 'de-t1', [0])).s;
    const rolled = when(when(attack, 'us', { type: 'SealOrder', initiativeBoost: card }).s, 'de', { type: 'SealOrder' }, [5, 5]);
    const types = rolled.events.map((e) => e.type);
    expect(types.indexOf('CommandCardDiscardedForBonus')).toBeLessThan(types.indexOf('InitiativeRolled'));
    expect(ofType(rolled.events, 'InitiativeRolled')[0]).toMatchObject({ modifiers: { us: 1, de: 0 }, winner: 'us' });
  });
});

describe('command cards (001 Gameplay: Command cards)', () => {
  it('identical side-wide cards do not stack either; cards of different titles do', () => {
    const s = given({ us: [{ card: 'us-105mm-howitzer' }, { card: 'us-rifle-squad' }], de: [{ card: 'de-rifle-squad' }] });
    const [smoke1, smoke2] = [cardTitled(s, 'Lay Smoke', 0), cardTitled(s, 'Lay Smoke', 1)];
    const t = withHand(s, 'us', [], [smoke1, smoke2]);
    const once = when(t, 'us', { type: 'PlayCommandCard', card: smoke1 });
    expectRefused(once.s, { type: 'PlayCommandCard', card: smoke2 }, 'us', 'command/identical');
    const inEffect = {
      ...t,
      effects: [
        { card: smoke1, title: 'Lay Smoke', seat: 'us' as const, unit: null, effect: { kind: 'smoke' as const, amount: 3 }, duration: 'turn' as const },
      ],
    };
    expectRefused(inEffect, { type: 'PlayCommandCard', card: smoke2 }, 'us', 'command/identical');
    // The other side's identical card is its own.
    expect(
      when(withHand(inEffect, 'de', [], [cardTitled(s, 'Lay Smoke', 2)]), 'de', { type: 'PlayCommandCard', card: cardTitled(s, 'Lay Smoke', 2) }).error,
    ).toBeUndefined();
    // Zero In Artillery (-2) and Veteran Crew (-1) are different cards: both apply.
    const [zero, vet] = [cardTitled(s, 'Zero In Artillery'), cardTitled(s, 'Veteran Crew')];
    const both = {
      ...s,
      effects: [
        {
          card: zero,
          title: 'Zero In Artillery',
          seat: 'us' as const,
          unit: 'us-t1',
          effect: { kind: 'accuracy' as const, amount: 2 },
          duration: 'turn' as const,
        },
        {
          card: vet,
          title: 'Veteran Crew',
          seat: 'us' as const,
          unit: 'us-t1',
          effect: { kind: 'accuracy' as const, amount: 1 },
          duration: 'permanent' as const,
        },
      ],
    };
    expect(hitThreshold(both, 'us-t1', 0, 'de-t1')).toBe(10 - 3);
  });
});

describe('target declaration (001 Combat Phase: Target Declaration)', () => {
  it('bombs are spent by the attack that drops them, hit or miss, for the rest of the flight', () => {
    const s = bothSeal(
      given({ us: [{ card: 'us-p40-warhawk' }], de: [{ card: 'de-rifle-squad' }, { card: 'de-rifle-squad' }] }),
      [declare('us-t1', 'de-t1', [1])],
      [],
      [9, 1],
    ).s;
    const r = when(s, 'us', resolve('t1-us-1'), [1, 5]);
    expect(ofType(r.events, 'AttackRolled')[0]!.result).toBe('miss');
    expect(r.s.inPlay['us-t1']!.bombsUsed).toBe(true);
    const next: State = { ...r.s, phase: 'declaration' };
    expect(targetProblem(next, 'us-t1', 'de-t2', [1])?.code).toBe('combat/bombs-used');
    expect(targetProblem(next, 'us-t1', 'de-t2', [0])).toBeNull();
  });
});

describe('damage resolution (001 Combat Phase: Damage Resolution)', () => {
  it('crew survival: base Intensity 4-6 returns the crew under its Reserves, unscored, when the enemy has no ground unit in play', () => {
    const s = bothSeal(
      given({ us: [{ card: 'us-p40-warhawk' }], de: [{ card: 'de-panther', patch: { endurance: 1 } }] }),
      [declare('us-t1', 'de-t1', [1])],
      [],
      [9, 1],
    ).s;
    const r = when(s, 'us', resolve('t1-us-1'), [6, 6, 5]);
    expect(ofType(r.events, 'UnitDestroyed')[0]).toMatchObject({ unit: 'de-t1', crewFate: 'returned', crewPoints: 0, baseIntensity: 5 });
    expect(r.s.seats.de.reserves.at(-1)).toBe('de-t1c');
    expect(r.s.seats.us.score).toBe(18);
  });

  it('a hit that leaves a unit above half endurance draws no Damage card, and the unit is back at full after the phase', () => {
    const s = bothSeal(given({ us: [{ card: 'us-m4a1-sherman' }], de: [{ card: 'de-tiger-i' }] }), [], [declare('de-t1', 'us-t1', [0])], [1, 9]).s;
    const r = when(s, 'de', resolve('t1-de-1'), [5, 5, 1]); // 1 + 8 − 5 = 4: 14 → 10
    expect(ofType(r.events, 'HitResolved')[0]!.endurance).toBe(10);
    expect(ofType(r.events, 'DamageCardDrawn')).toHaveLength(0);
    expect(r.s.inPlay['us-t1']).toMatchObject({ endurance: 14, damageCard: null });
  });
});

describe('capture (001 Combat Phase: Damage Resolution; Victory Points)', () => {
  it('a captured unit the captor keeps still scores double its cost, with its crew', () => {
    const s = given({ us: [{ card: 'us-rifle-squad' }], de: [{ card: 'de-tiger-i', patch: { damageCard: 'dmg-13', endurance: 12 } }] }, 'commitment');
    const cap = cardTitled(s, 'Capture That Unit!');
    const r = bothSeal(withHand(s, 'us', [], [cap]), [{ type: 'PlayCommandCard', card: cap, target: 'de-t1', keep: true }], [], [10]);
    expect(r.s.inPlay['de-t1']).toMatchObject({ controller: 'us', crew: null });
    expect(r.s.seats.us.score).toBe(2 * 21 + 2 * 2);
  });
});

describe('commitment (001 Commitment Phase)', () => {
  it('when the last front-line unit is destroyed, the rear line becomes the front at the end of the combat phase', () => {
    const s = given({ us: [{ card: 'us-rifle-squad', patch: { endurance: 1 } }, { card: 'us-105mm-howitzer' }], de: [{ card: 'de-tiger-i' }] });
    const declared = bothSeal(s, [], [declare('de-t1', 'us-t1', [0])], [1, 9]).s;
    const r = when(declared, 'de', resolve('t1-de-1'), [6, 6, 5]);
    expect(ofType(r.events, 'UnitDestroyed')[0]!.unit).toBe('us-t1');
    expect(ofType(r.events, 'RearBecameFront')[0]).toMatchObject({ seat: 'us', units: ['us-t2'] });
    expect(r.s.inPlay['us-t2']!.line).toBe('front');
    // Now on the front line, the Tiger can reach it next turn.
    expect(targetProblem({ ...r.s, phase: 'declaration' }, 'de-t1', 'us-t2', [0])).toBeNull();
  });
});

describe('draw phase (001 Draw Phase)', () => {
  it('over 5 Command cards after the three draws, the side discards face up down to 5', () => {
    const base = given({}, 'draw');
    const five = base.commandDeck.draw.slice(0, 5);
    let s: State = withHand({ ...base, seats: { ...base.seats, de: { ...base.seats.de, drawDone: true } } }, 'us', [], five);
    for (let i = 0; i < 3; i++) s = when(s, 'us', { type: 'DrawCard', from: 'command' }).s;
    expect(s.seats.us.commands).toHaveLength(8);
    expectRefused(s, { type: 'DrawCard', from: 'command' }, 'us', 'draw/no-more');
    for (let i = 0; i < 2; i++) s = when(s, 'us', { type: 'DiscardCommand', card: s.seats.us.commands[0]! }).s;
    expect(s.phase).toBe('draw');
    const last = when(s, 'us', { type: 'DiscardCommand', card: s.seats.us.commands[0]! });
    expect(last.emitted.find((e) => e.event.type === 'CommandDiscarded')!.visibility).toEqual({ to: 'all' });
    expect(last.s.seats.us.commands).toHaveLength(5);
    expect(last.s.phase).toBe('commitment');
    expect(when(last.s, 'us', { type: 'DiscardCommand', card: last.s.seats.us.commands[0]! }).error).toBeDefined();
  });
});

describe('victory (001 Winning the Game)', () => {
  it('Overrun counts consecutive turns: a turn opposed in between starts the count again', () => {
    const s = given({ us: [{ card: 'us-rifle-squad' }] });
    const one = bothSeal({ ...s, seats: { ...s.seats, us: { ...s.seats.us, overrun: 1 } } }, [], []);
    expect(one.s.seats.us.overrun).toBe(2);
    expect(spearpoint.outcome(one.s)).toBeUndefined();
  });
});
