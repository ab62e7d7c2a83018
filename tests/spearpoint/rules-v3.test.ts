import { describe, expect, it } from 'vitest';
import { decideDraft, type GameState } from '../../domain/kernel/index.js';
import { BUILT_IN_CATALOG_V2 } from '../../domain/spearpoint/data/catalog.js';
import { BUILT_IN_CATALOG, spearpoint, type Command, type State } from '../../domain/spearpoint/index.js';
import { bothSeal, cardTitled, given, ofType, when, withHand } from './given.js';
import { CheckedGame } from './harness.js';
import { expectEvents, expectRefused } from './rulebook.js';

/**
 * The rules version 3 fixes (RULINGS.md), each next to what version 2 did: a version-2 game
 * keeps its own rules, so both are tested.
 */

describe('001 Combat Phase: Attack — artillery units and guns are attacked with a bonus of 2', () => {
  // The 88mm's vehicle value is 9: 7 hits with the bonus, misses without.
  const place = { us: [{ card: 'us-m7-priest' }], de: [{ card: 'de-88mm-flak-36' }] };
  const declared = (rulesVersion: number) =>
    bothSeal(given(place, 'declaration', {}, rulesVersion), [], [{ type: 'DeclareAttack', attacker: 'de-t1', target: 'us-t1', weapons: [0] }], [1, 9]).s;
  it('mobile artillery too: the M7 Priest is hit on 7 by the 88mm', () => {
    expectEvents(declared(3), { seat: 'de', command: { type: 'ResolveAttack', attackId: 't1-de-1' }, dice: [3, 4, 1, 1, 5] }, [
      { type: 'AttackRolled', needed: 7, result: 'hit' },
    ]);
  });
  it('rules version 2 left mobile artillery out: the same roll misses', () => {
    expectEvents(declared(2), { seat: 'de', command: { type: 'ResolveAttack', attackId: 't1-de-1' }, dice: [3, 4, 1, 5] }, [
      { type: 'AttackRolled', needed: 9, result: 'miss' },
    ]);
  });
});

describe('001 Damage Resolution — a crew is protected unless the hit destroys its unit', () => {
  const plan = (options: object, rulesVersion?: number) => {
    const s = given({ us: [{ card: 'us-m4a1-sherman' }], de: [{ card: 'de-tiger-i' }] }, 'declaration', options, rulesVersion);
    // dmg-03 is the Crew Casualty card; 6+6 hits, Intensity 5: 5+8-5 = 8 off 14 leaves 6, half endurance or less.
    return bothSeal(
      { ...s, damageDeck: { ...s.damageDeck, draw: ['dmg-03'] } },
      [],
      [{ type: 'DeclareAttack', attacker: 'de-t1', target: 'us-t1', weapons: [0] }],
      [1, 9],
    ).s;
  };
  const fire = { seat: 'de' as const, command: { type: 'ResolveAttack', attackId: 't1-de-1' } as Command, dice: [6, 6, 5] };
  it('no Damage card of the built-in catalog kills a crew any more', () => {
    for (const card of BUILT_IN_CATALOG.damageCards) for (const effect of Object.values(card.effects)) expect(effect.kind, card.title).not.toBe('crewCasualty');
    expect(BUILT_IN_CATALOG_V2.damageCards.some((c) => Object.values(c.effects).some((e) => e.kind === 'crewCasualty'))).toBe(true);
  });
  it('the Crew Casualty card now shakes the crew of a tank that survives: it keeps its crew and nobody scores', () => {
    const r = expectEvents(plan({}), fire, [{ type: 'DamageCardDrawn', unit: 'us-t1', card: 'dmg-03' }]);
    expect(ofType(r.events, 'CrewKilled')).toEqual([]);
    expect(r.s.inPlay['us-t1']).toMatchObject({ crew: 'us-t1c', shakenUntil: 1 + 2 });
    expect(r.s.seats.de.score).toBe(0);
  });
  it('a club catalog whose card would kill the crew of a surviving unit: the rules refuse the effect', () => {
    const r = expectEvents(plan({ catalog: BUILT_IN_CATALOG_V2 }), fire, [
      { type: 'DamageCardDrawn', unit: 'us-t1', card: 'dmg-03' },
      { type: 'DamageEffectRefused', unit: 'us-t1', card: 'dmg-03', code: 'damage/crew-protected' },
    ]);
    expect(ofType(r.events, 'CrewKilled')).toEqual([]);
    expect(r.s.inPlay['us-t1']!.crew).toBe('us-t1c');
  });
  it('rules version 2 killed that crew (its games still replay so)', () => {
    expectEvents(plan({}, 2), fire, [{ type: 'CrewKilled', unit: 'us-t1', crew: 'us-t1c', by: 'de' }]);
  });
});

describe('001 Gameplay: Command cards — a card may be discarded for +1 before any die roll', () => {
  describe('the Initiative re-roll after a tie', () => {
    const base = given({ us: [{ card: 'us-rifle-squad' }], de: [{ card: 'de-rifle-squad' }] });
    const attacks = (s: State) =>
      bothSeal(
        s,
        [{ type: 'DeclareAttack', attacker: 'us-t1', target: 'de-t1', weapons: [1] }],
        [{ type: 'DeclareAttack', attacker: 'de-t1', target: 'us-t1', weapons: [1] }],
        [5, 5],
      );
    const hull = cardTitled(base, 'Hull Down');
    const dig = cardTitled(base, 'Dig In');
    it('a tie asks each side holding a card, sealed, whether to discard one for +1 on the re-roll', () => {
      const tied = attacks(withHand(withHand(base, 'us', [], [hull]), 'de', [], [dig])).s;
      expect(tied.phase).toBe('initiative');
      expect(spearpoint.pending(tied).map((p) => [p.seat, p.kind])).toEqual([
        ['us', 'sealed'],
        ['de', 'sealed'],
      ]);
      expect(spearpoint.legalCommands(tied, 'us')).toEqual([{ type: 'SealOrder' }, { type: 'SealOrder', initiativeBoost: hull }]);
      expectRefused(tied, { type: 'SealOrder', initiativeBoost: dig }, 'us', 'command/not-in-hand');
      expectRefused(tied, { type: 'DeclareAttack', attacker: 'us-t1', target: 'de-t1', weapons: [0] }, 'us', 'phase/no-orders');
      const us = when(tied, 'us', { type: 'SealOrder', initiativeBoost: hull });
      // 4 + 1 beats 4: the discarded card decides the re-roll.
      const r = expectEvents(us.s, { seat: 'de', command: { type: 'SealOrder' }, dice: [4, 4] }, [
        { type: 'CommandCardDiscardedForBonus', seat: 'us', card: hull, roll: 'initiative' },
        {
          type: 'InitiativeRolled',
          rolls: [
            { us: 5, de: 5 },
            { us: 4, de: 4 },
          ],
          modifiers: { us: 1, de: 0 },
          winner: 'us',
        },
        { type: 'CombatBegan', chooser: 'us' },
      ]);
      expect(r.s.seats.de.commands).toEqual([dig]);
    });
    it('a side with no Command card is not asked; with neither holding one the dice roll again at once', () => {
      const oneCard = attacks(withHand(base, 'us', [], [hull])).s;
      expect(spearpoint.pending(oneCard).map((p) => p.seat)).toEqual(['us']);
      const none = when(when(base, 'us', { type: 'DeclareAttack', attacker: 'us-t1', target: 'de-t1', weapons: [1] }).s, 'us', { type: 'SealOrder' });
      const r = when(none.s, 'de', { type: 'SealOrder' }, [5, 5, 2, 7]);
      expect(ofType(r.events, 'InitiativeRolled')[0]).toMatchObject({
        rolls: [
          { us: 5, de: 5 },
          { us: 2, de: 7 },
        ],
        winner: 'de',
      });
    });
    it('rules version 2 re-rolled at once, the first +1 counting again', () => {
      const v2 = given({ us: [{ card: 'us-rifle-squad' }], de: [{ card: 'de-rifle-squad' }] }, 'declaration', {}, 2);
      const t = withHand(v2, 'us', [], [hull]);
      const a = when(when(t, 'us', { type: 'DeclareAttack', attacker: 'us-t1', target: 'de-t1', weapons: [1] }).s, 'us', {
        type: 'SealOrder',
        initiativeBoost: hull,
      });
      const r = when(a.s, 'de', { type: 'SealOrder' }, [4, 5, 3, 3]);
      expect(ofType(r.events, 'InitiativeRolled')[0]).toMatchObject({
        rolls: [
          { us: 4, de: 5 },
          { us: 3, de: 3 },
        ],
        modifiers: { us: 1, de: 0 },
        winner: 'us',
      });
    });
  });

  describe('the Intensity roll of a friendly-fire hit', () => {
    const ff = (place: { card: string }[], rulesVersion?: number) =>
      bothSeal(
        given({ us: [{ card: 'us-m4a1-sherman' }], de: [{ card: 'de-tiger-i' }, ...place] }, 'declaration', {}, rulesVersion),
        [],
        [{ type: 'DeclareAttack', attacker: 'de-t1', target: 'us-t1', weapons: [0] }],
        [1, 9],
      ).s;
    it('the opponent who picks the victim may discard a card for +1 on its Intensity', () => {
      const s = withHand(ff([{ card: 'de-panther' }, { card: 'de-rifle-squad' }]), 'us', [], ['cmd-01']);
      const paused = when(s, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [2, 1]).s;
      expect(spearpoint.legalCommands(paused, 'us')).toContainEqual({ type: 'ChooseFriendlyFireVictim', unit: 'de-t3', boostWith: 'cmd-01' });
      expectRefused(paused, { type: 'ChooseFriendlyFireVictim', unit: 'de-t3', boostWith: 'cmd-02' }, 'us', 'command/not-in-hand');
      expectEvents(paused, { seat: 'us', command: { type: 'ChooseFriendlyFireVictim', unit: 'de-t2', boostWith: 'cmd-01' }, dice: [3] }, [
        { type: 'FriendlyFireVictimChosen', unit: 'de-t2', automatic: false },
        { type: 'CommandCardDiscardedForBonus', seat: 'us', card: 'cmd-01', roll: 'intensity' },
        { type: 'HitResolved', target: 'de-t2', intensity: [3], bonus: 1 },
      ]);
    });
    it('with a single candidate the opponent is still asked while it holds a card (and it may not boost under version 2)', () => {
      const lone = [{ card: 'de-panther' }];
      const withCard = when(withHand(ff(lone), 'us', [], ['cmd-01']), 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [2, 1]);
      expect(withCard.s.friendlyFire).toMatchObject({ chooser: 'us', candidates: ['de-t2'] });
      const noCard = when(ff(lone), 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [2, 1, 5]);
      expect(ofType(noCard.events, 'FriendlyFireVictimChosen')[0]).toMatchObject({ unit: 'de-t2', automatic: true });
      const v2 = when(withHand(ff(lone, 2), 'us', [], ['cmd-01']), 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [2, 1, 5]);
      expect(ofType(v2.events, 'FriendlyFireVictimChosen')[0]).toMatchObject({ automatic: true });
      const v2paused = when(
        withHand(ff([{ card: 'de-panther' }, { card: 'de-rifle-squad' }], 2), 'us', [], ['cmd-01']),
        'de',
        {
          type: 'ResolveAttack',
          attackId: 't1-de-1',
        },
        [2, 1],
      ).s;
      expectRefused(v2paused, { type: 'ChooseFriendlyFireVictim', unit: 'de-t2', boostWith: 'cmd-01' }, 'us', 'command/no-boost');
    });
  });

  it('the capture roll: legal commands offer the discard (and keep or not) for a Capture That Unit! card', () => {
    const s = given({ us: [{ card: 'us-rifle-squad' }], de: [{ card: 'de-tiger-i', patch: { damageCard: 'dmg-13' } }] }, 'commitment');
    const capture = cardTitled(s, 'Capture That Unit!');
    const legal = spearpoint.legalCommands(withHand(s, 'us', [], [capture, 'cmd-01']), 'us');
    for (const c of [
      { type: 'PlayCommandCard', card: capture, target: 'de-t1' },
      { type: 'PlayCommandCard', card: capture, target: 'de-t1', keep: true },
      { type: 'PlayCommandCard', card: capture, target: 'de-t1', boostWith: 'cmd-01' },
      { type: 'PlayCommandCard', card: capture, target: 'de-t1', keep: true, boostWith: 'cmd-01' },
    ])
      expect(legal).toContainEqual(c);
  });
});

describe('001 Two-Player Standard Game Setup — the starting hand is a sealed order', () => {
  const mustering = () => {
    const game = new CheckedGame('d1'.repeat(32), 'v3-muster', { checkedEvents: 0, checkedViews: 0 }, false);
    game.start({});
    return game;
  };
  const picks = ['us-m4a1-sherman', 'us-tank-crew', 'us-rifle-squad', 'us-rifle-squad'].map((card): Command => ({ type: 'PickStartingUnit', card }));
  it('PickStartingUnit is a draft step: a whole hand is tried in private, rolling no dice', () => {
    const game = mustering();
    expect(spearpoint.drafts!.isStep(picks[0]!)).toBe(true);
    const d = decideDraft(spearpoint, game.state! as GameState, { player: 'alice', steps: picks, now: '' });
    expect(d.ok).toBe(true);
    const drafted = (d as { value: { game: State } }).value.game;
    expect(drafted.seats.us.order).toHaveLength(4);
    expect(spearpoint.legalCommands(drafted, 'us').map((c) => c.type)).toEqual(['SealOrder', 'AutoPickHand', 'ClearOrder']);
    expect(spearpoint.drafts!.seal({ type: 'SealOrder' }, picks)).toEqual({ type: 'SealOrder', steps: picks });
    expect(spearpoint.drafts!.seal({ type: 'AutoPickHand' }, picks.slice(0, 1))).toEqual({ type: 'AutoPickHand', steps: picks.slice(0, 1) });
    game.play('us', { type: 'SealOrder', steps: picks as never });
    expect(game.state!.game.seats.us.hand.map((id) => game.state!.game.cards[id]!.card)).toEqual(picks.map((p) => (p as { card: string }).card));
  });
  it('a seal needs a full hand; AutoPickHand fills the rest after the picks', () => {
    const s = mustering().state!.game;
    expectRefused(s, { type: 'SealOrder', steps: picks.slice(0, 2) as never }, 'us', 'muster/hand-incomplete');
    const r = when(s, 'us', { type: 'AutoPickHand', steps: picks.slice(0, 1) as never }, [0], (xs) => [...xs]);
    expect(r.s.seats.us.hand).toHaveLength(4);
    expect(r.s.cards[r.s.seats.us.hand[0]!]!.card).toBe('us-m4a1-sherman');
    const five = [...picks, { type: 'PickStartingUnit', card: 'us-rifle-squad' }] as never;
    expectRefused(s, { type: 'SealOrder', steps: five }, 'us', 'muster/hand-full');
  });
});

describe('legal commands: each choice once', () => {
  it('identical copies in hand are one choice: two Hull Down cards give one offer per tank', () => {
    const s = given({ us: [{ card: 'us-m4a1-sherman' }, { card: 'us-m4a1-sherman' }], de: [{ card: 'de-rifle-squad' }] }, 'commitment');
    const [a, b] = [cardTitled(s, 'Hull Down', 0), cardTitled(s, 'Hull Down', 1)];
    const legal = spearpoint.legalCommands(withHand(s, 'us', [], [a, b]), 'us').filter((c) => c.type === 'PlayCommandCard');
    expect(legal).toEqual([
      { type: 'PlayCommandCard', card: a, target: 'us-t1' },
      { type: 'PlayCommandCard', card: a, target: 'us-t2' },
    ]);
    // decide still accepts the other copy.
    expect(when(withHand(s, 'us', [], [a, b]), 'us', { type: 'PlayCommandCard', card: b, target: 'us-t1' }).error).toBeUndefined();
  });
});
