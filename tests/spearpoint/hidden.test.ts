import { describe, expect, it } from 'vitest';
import { canSee, type Emitted } from '../../domain/kernel/index.js';
import { spearpoint, type Event, type State } from '../../domain/spearpoint/index.js';
import { bothSeal, cardTitled, given, when, withHand } from './given.js';
import { checkRevealsSpent, strings } from './harness.js';

/**
 * Hidden information, checked directly on views and event visibilities (the fuzz checks the same
 * over many games; these pin each guarantee to one small case): a seat's hand and command cards,
 * its sealed order, drawn cards, units put under a deck, and every deck order.
 */
type Side = 'us' | 'de';
const viewTokens = (s: State, viewer: Side | 'spectator' | 'auditor') =>
  strings(spearpoint.view(s, viewer === 'spectator' || viewer === 'auditor' ? { kind: viewer } : { kind: 'seat', seat: viewer }));
/** Every string in the events this seat may read while the game runs. */
const seenBy = (emitted: Emitted<Event>[], seat: Side) =>
  strings(emitted.filter((e) => canSee(e.visibility, { kind: 'seat', seat }, false)).map((e) => e.event));
const deckCards = (s: State) => [...s.seats.us.reserves, ...s.seats.de.reserves, ...s.commandDeck.draw, ...s.damageDeck.draw];

describe('hidden information: views', () => {
  const table = () =>
    withHand(
      withHand(
        given({ us: [{ card: 'us-rifle-squad' }], de: [{ card: 'de-rifle-squad' }] }, 'commitment'),
        'us',
        ['us-m4a1-sherman', 'us-tank-crew'],
        ['cmd-05'],
      ),
      'de',
      ['de-tiger-i', 'de-tank-crew'],
      ['cmd-09'],
    );

  it('a sealed order is seen by its own seat only, until both have sealed', () => {
    const s = table();
    const steps = [when(s, 'us', { type: 'CommitUnit', unit: 'us-h1', crew: 'us-h2' })];
    const sealed = when(steps[0]!.s, 'us', { type: 'SealOrder' });
    const emitted = [...steps[0]!.emitted, ...sealed.emitted];
    for (const secret of ['us-h1', 'us-h2']) {
      expect(viewTokens(sealed.s, 'de').has(secret)).toBe(false);
      expect(viewTokens(sealed.s, 'spectator').has(secret)).toBe(false);
      expect(seenBy(emitted, 'de').has(secret)).toBe(false);
      expect(viewTokens(sealed.s, 'us').has(secret)).toBe(true);
    }
    const de = spearpoint.view(sealed.s, { kind: 'seat', seat: 'de' }) as { seats: Record<Side, { sealed: boolean; order?: unknown }> };
    expect(de.seats.us.sealed).toBe(true);
    expect(de.seats.us.order).toBeUndefined();
    // The reveal, once both have sealed, shows the order to everyone.
    const revealed = when(sealed.s, 'de', { type: 'SealOrder' });
    expect(seenBy(revealed.emitted, 'de').has('us-h1')).toBe(true);
  });

  it('no seat and no spectator sees a deck order or a card inside a deck; the auditor sees them all', () => {
    const s = table();
    for (const viewer of ['us', 'de', 'spectator'] as const) {
      const tokens = viewTokens(s, viewer);
      expect(deckCards(s).filter((c) => tokens.has(c))).toEqual([]);
      const v = spearpoint.view(s, viewer === 'spectator' ? { kind: viewer } : { kind: 'seat', seat: viewer }) as Record<string, unknown> & {
        seats: Record<Side, object>;
      };
      expect(v.commandDeckOrder).toBeUndefined();
      expect(v.damageDeckOrder).toBeUndefined();
      for (const side of ['us', 'de'] as const) expect('reservesOrder' in v.seats[side]).toBe(false);
    }
    const auditor = spearpoint.view(s, { kind: 'auditor' }) as {
      commandDeckOrder: string[];
      damageDeckOrder: string[];
      seats: Record<Side, { reservesOrder: string[]; hand: unknown[] }>;
    };
    expect(auditor.commandDeckOrder).toEqual(s.commandDeck.draw);
    expect(auditor.damageDeckOrder).toEqual(s.damageDeck.draw);
    expect(auditor.seats.de.reservesOrder).toEqual(s.seats.de.reserves);
    expect(auditor.seats.de.hand).toHaveLength(2);
  });

  it('the other side’s hand and command cards appear only as counts, to a seat and to a spectator', () => {
    const s = table();
    for (const [viewer, opp] of [
      ['us', 'de'],
      ['de', 'us'],
      ['spectator', 'us'],
      ['spectator', 'de'],
    ] as const) {
      const tokens = viewTokens(s, viewer);
      expect([...s.seats[opp].hand, ...s.seats[opp].commands].filter((c) => tokens.has(c))).toEqual([]);
    }
    const us = spearpoint.view(s, { kind: 'seat', seat: 'us' }) as { seats: Record<Side, { handCount: number; commandCount: number }> };
    expect(us.seats.de).toMatchObject({ handCount: 2, commandCount: 1 });
  });
});

describe('hidden information: draws and cards going under a deck', () => {
  const drawing = (hand: string[] = []): State => {
    const s = withHand(given({}, 'draw'), 'us', hand);
    return { ...s, seats: { ...s.seats, de: { ...s.seats.de, drawDone: true } } };
  };

  it('a drawn card, unit or command, is told to the drawer only; everyone learns which deck it came from', () => {
    let s = drawing();
    const emitted: Emitted<Event>[] = [];
    for (const from of ['command', 'reserves', 'reserves'] as const) {
      const r = when(s, 'us', { type: 'DrawCard', from });
      emitted.push(...r.emitted);
      s = r.s;
    }
    const drawn = [...s.seats.us.hand, ...s.seats.us.commands];
    expect(drawn).toHaveLength(3);
    for (const e of emitted.filter((x) => x.event.type === 'CardDrawn')) expect(e.visibility).toEqual({ to: 'seats', seats: ['us'] });
    expect(drawn.filter((c) => seenBy(emitted, 'de').has(c))).toEqual([]);
    expect(drawn.filter((c) => viewTokens(s, 'de').has(c) || viewTokens(s, 'spectator').has(c))).toEqual([]);
    expect(emitted.filter((e) => e.event.type === 'DrawCounted').map((e) => [e.visibility.to, (e.event as { kind: string }).kind])).toEqual([
      ['all', 'command'],
      ['all', 'unit'],
      ['all', 'unit'],
    ]);
  });

  it('a unit discarded over the hand limit goes under the Reserves deck unseen by the other side', () => {
    let s = drawing(Array.from({ length: 8 }, () => 'us-rifle-squad'));
    for (const from of ['command', 'reserves', 'reserves'] as const) s = when(s, 'us', { type: 'DrawCard', from }).s;
    const before = s.seats.us.reserves.length;
    const r = when(s, 'us', { type: 'DiscardUnit', card: 'us-h3' });
    expect(r.emitted.find((e) => e.event.type === 'UnitDiscarded')!.visibility).toEqual({ to: 'seats', seats: ['us'] });
    expect(seenBy(r.emitted, 'de').has('us-h3')).toBe(false);
    expect(viewTokens(r.s, 'de').has('us-h3')).toBe(false);
    const de = spearpoint.view(r.s, { kind: 'seat', seat: 'de' }) as { seats: Record<Side, { reservesCount: number }> };
    expect(de.seats.us.reservesCount).toBe(before + 1);
    const auditor = spearpoint.view(r.s, { kind: 'auditor' }) as { seats: Record<Side, { reservesOrder: string[] }> };
    expect(auditor.seats.us.reservesOrder.at(-1)).toBe('us-h3');
  });

  it('a reshuffled Command deck is seen by nobody while the game runs (the Damage deck: combat.test.ts)', () => {
    const s = drawing();
    const r = when({ ...s, commandDeck: { draw: [], discard: ['cmd-01', 'cmd-02', 'cmd-03'] } }, 'us', { type: 'DrawCard', from: 'command' });
    const shuffle = r.emitted.find((e) => e.event.type === 'CommandDeckReshuffled')!;
    expect(shuffle.visibility).toEqual({ to: 'none' });
    const left = r.s.commandDeck.draw;
    expect(left).toHaveLength(2);
    expect(left.filter((c) => seenBy(r.emitted, 'de').has(c) || seenBy(r.emitted, 'us').has(c))).toEqual([]);
  });
});

describe('hidden information: the reveal of a sealed order', () => {
  it('a card named to boost a capture roll stays secret, and in hand, when the capture never rolls', () => {
    const s = given({ us: [{ card: 'us-rifle-squad' }], de: [{ card: 'de-tiger-i', patch: { damageCard: 'dmg-13', endurance: 12 } }] }, 'commitment');
    const [cap, spare, withdraw] = [cardTitled(s, 'Capture That Unit!'), cardTitled(s, 'Dig In'), cardTitled(s, 'Withdraw')];
    const t = withHand(withHand(s, 'us', [], [cap, spare]), 'de', [], [withdraw]);
    // The Tiger is withdrawn in the same reveal, so the capture is void and no capture roll is made.
    const r = bothSeal(
      t,
      [{ type: 'PlayCommandCard', card: cap, target: 'de-t1', boostWith: spare }],
      [{ type: 'PlayCommandCard', card: withdraw, target: 'de-t1' }],
    );
    expect(r.error).toBeUndefined();
    expect(r.events.some((e) => e.type === 'CaptureRolled')).toBe(false);
    expect(r.s.seats.us.commands).toContain(spare);
    expect(seenBy(r.emitted, 'de').has(spare)).toBe(false);
    expect(viewTokens(r.s, 'de').has(spare)).toBe(false);
    // When the capture does roll, the boosting card is discarded face up as it is used.
    const rolled = bothSeal(t, [{ type: 'PlayCommandCard', card: cap, target: 'de-t1', boostWith: spare }], [], [5]);
    expect(rolled.emitted.find((e) => e.event.type === 'CommandCardDiscardedForBonus')).toMatchObject({
      event: { card: spare, roll: 'capture' },
      visibility: { to: 'all' },
    });
  });
});

describe('the fuzz harness’s reveal check', () => {
  it('flags a reveal that names a card which then stays in its owner’s hand, but not a withdrawn unit back in hand', () => {
    const s = withHand(given({}, 'commitment'), 'us', ['us-rifle-squad'], ['cmd-07']);
    const envelope = (type: string, data: object) => ({ type, data, visibility: { to: 'all' } }) as never;
    expect(() =>
      checkRevealsSpent(s, [envelope('CommitmentRevealed', { orders: { us: [{ kind: 'card', card: 'cmd-01', boost: 'cmd-07' }] } })], new Set()),
    ).toThrow(/cmd-07/);
    expect(() => checkRevealsSpent(s, [envelope('UnitWithdrawn', { seat: 'us', unit: 'us-h1', crew: null })], new Set(['us-h1']))).not.toThrow();
    expect(() => checkRevealsSpent(s, [envelope('CommitmentRevealed', { orders: { us: [{ kind: 'commit', unit: 'us-t9' }] } })], new Set())).not.toThrow();
  });
});
