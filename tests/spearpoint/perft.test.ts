import { describe, expect, it } from 'vitest';
import { spearpoint, type State } from '../../domain/spearpoint/index.js';
import { bothSeal, cardTitled, given, when, withHand } from './given.js';
import { CheckedGame } from './harness.js';

/**
 * Legal-command counts for fixed positions (like chess perft): a rules change that alters the
 * move list shows here at once. Update a row on purpose, saying why, when the rules change.
 */
type Side = 'us' | 'de';
const counts = (s: State, seat: Side) => {
  const legal = spearpoint.legalCommands(s, seat);
  const byType: Record<string, number> = {};
  for (const c of legal) byType[c.type] = (byType[c.type] ?? 0) + 1;
  return { total: legal.length, byType };
};

const mustered = () => {
  const g = new CheckedGame('7a'.repeat(32), 'perft', { checkedEvents: 0, checkedViews: 0 }, false);
  g.start({});
  return g.state!.game;
};
const battle = () =>
  given({
    us: [{ card: 'us-m4a1-sherman' }, { card: 'us-rifle-squad' }, { card: 'us-rifle-squad' }, { card: 'us-bazooka-team' }, { card: 'us-105mm-howitzer' }],
    de: [{ card: 'de-tiger-i' }, { card: 'de-mg42-team' }, { card: 'de-bf109' }],
  });
const commitment = () => {
  const s = given({ us: [{ card: 'us-m4a1-sherman', crew: false }, { card: 'us-m7-priest' }], de: [{ card: 'de-rifle-squad' }] }, 'commitment');
  return withHand(
    s,
    'us',
    ['us-rifle-squad', 'us-rifle-squad', 'us-tank-crew', 'us-m4a1-sherman', 'us-p40-warhawk', 'us-pilot'],
    [cardTitled(s, 'Hull Down', 0), cardTitled(s, 'Hull Down', 1), cardTitled(s, 'Withdraw')],
  );
};
const declaration = () => {
  const s = battle();
  return withHand(s, 'us', [], [cardTitled(s, 'Ambush!'), cardTitled(s, 'Fire Mission!'), cardTitled(s, 'Lay Smoke')]);
};
const combat = () => {
  const s = withHand(battle(), 'us', [], ['cmd-01', 'cmd-05']);
  const r = bothSeal(
    s,
    [
      { type: 'DeclareAttack', attacker: 'us-t1', target: 'de-t2', weapons: [0, 1] },
      { type: 'DeclareAttack', attacker: 'us-t5', target: 'de-t2', weapons: [0] },
    ],
    [],
    [9, 1],
  );
  if (r.error) throw new Error(r.error.message);
  return r.s;
};
const draw = () => {
  const s = given({ us: [{ card: 'us-rifle-squad' }], de: [{ card: 'de-rifle-squad' }] }, 'draw');
  return { ...s, seats: { ...s.seats, us: { ...s.seats.us, reserves: s.seats.us.reserves.slice(0, 1), drawsTaken: 0, drawDone: false } } };
};

const TABLE: { position: string; seat: Side; state: () => State; total: number; byType: Record<string, number> }[] = [
  { position: 'muster, Standard game, nothing picked', seat: 'us', state: mustered, total: 13, byType: { PickStartingUnit: 12, AutoPickHand: 1 } },
  {
    position: 'commitment: an idle Sherman, an M7 on the front, six units and three cards in hand',
    seat: 'us',
    state: commitment,
    // Two Rifle Squads and two Hull Down cards: one choice each (identical copies).
    // No SetStandingOrders from rules version 3: the kernel's standing orders answer friendly fire.
    total: 9,
    byType: { CommitUnit: 3, ReplaceCrew: 1, MoveLine: 1, PlayCommandCard: 3, SealOrder: 1 },
  },
  {
    position: 'declaration: five US units facing a Tiger, an MG-42 and a Bf 109, three cards',
    seat: 'us',
    state: declaration,
    total: 34,
    byType: { DeclareAttack: 24, JoinCloseAssault: 3, PlayCommandCard: 3, SealOrder: 4 },
  },
  // Sherman: 3 shots (1 + two weapons' rolls) x 2 cards x hit/Intensity + plain = 13; the howitzer's 1 shot: 5.
  { position: 'combat: two attacks declared, two cards in hand', seat: 'us', state: combat, total: 18, byType: { ResolveAttack: 18 } },
  { position: 'draw: one unit in Reserves', seat: 'us', state: draw, total: 3, byType: { DrawCard: 1, DrawCards: 2 } },
  // One DrawCards per split between the decks, never two orders of the same draws.
  { position: 'draw: the other side, its Reserves full', seat: 'de', state: draw, total: 4, byType: { DrawCard: 1, DrawCards: 3 } },
];

describe('legal-command counts for fixed positions (perft)', () => {
  for (const row of TABLE) {
    it(`${row.position} (${row.seat})`, () => {
      expect(counts(row.state(), row.seat)).toEqual({ total: row.total, byType: row.byType });
    });
  }
  it('every command offered in these positions is accepted', () => {
    for (const row of TABLE) {
      const s = row.state();
      for (const c of spearpoint.legalCommands(s, row.seat)) expect(when(s, row.seat, c, Array(40).fill(5)).error, JSON.stringify(c)).toBeUndefined();
    }
  });
});
