import { describe, expect, it } from 'vitest';
import {
  decideCreate,
  decideJoin,
  decideLapse,
  decidePlay,
  decideStandingOrders,
  pendingOf,
  seedCommitment,
  type EventEnvelope,
  type GameState,
} from '../../domain/kernel/index.js';
import { spearpoint, type State } from '../../domain/spearpoint/index.js';
import { MemoryGame } from '../kernel/play.js';
import { bothSeal, given, ofType, when } from './given.js';
import { expectRefused } from './rulebook.js';

/**
 * 001 Combat Phase: Attack, the friendly-fire roll of 2-3, as a kernel decision window (rules
 * version 4): the opponent's choice of victim is a blocking window whose default is the
 * highest-cost candidate; the kernel standing order friendly-fire-victim/highest-cost answers it
 * in the same append, and a window left unanswered lapses to its default at its deadline.
 */
const SEED = '3c'.repeat(32);
const HOUR = 3_600_000;
const T0 = Date.parse('2026-06-01T08:00:00.000Z');
const at = (hours: number) => new Date(T0 + hours * HOUR).toISOString();
const PLAYERS = { us: 'alice', de: 'bob' } as const;
const HIGHEST_COST = [{ topic: 'friendly-fire-victim', rule: 'highest-cost' }];
const types = (evs: readonly EventEnvelope[]) => evs.map((e) => e.type);

/** A Tiger attacks a Sherman beside a Panther and a Rifle Squad of its own; the Germans resolve first. */
const tigerBesidePanther = (rulesVersion?: number): State =>
  bothSeal(
    given(
      { us: [{ card: 'us-m4a1-sherman' }], de: [{ card: 'de-tiger-i' }, { card: 'de-panther' }, { card: 'de-rifle-squad' }] },
      'declaration',
      {},
      rulesVersion,
    ),
    [],
    [{ type: 'DeclareAttack', attacker: 'de-t1', target: 'us-t1', weapons: [0] }],
    [1, 9],
  ).s;

/**
 * A game through the kernel (create, join), its position then set to `game`, and the dice
 * counter moved on to the first draw whose attack roll is a friendly fire (2-3): the dice come
 * from the game's seed, so the test looks for them rather than forcing them.
 */
function kernelGame(game: State, timeLimitHours?: number): { g: MemoryGame; resolve: (hours: number) => EventEnvelope[] } {
  const g = new MemoryGame(spearpoint, SEED, 'g-ff');
  const created = decideCreate(spearpoint, {
    gameId: 'g-ff',
    options: {},
    createdBy: 'alice',
    commitment: seedCommitment(SEED),
    ...(timeLimitHours !== undefined ? { timeLimitHours } : {}),
  });
  expect(g.append(created, 'alice', at(0)).ok).toBe(true);
  for (const [seat, player] of Object.entries(PLAYERS)) expect(g.append(decideJoin(spearpoint, g.state!, { player, seat }, SEED), player, at(0)).ok).toBe(true);
  const base = g.state as GameState<State>;
  const command = { type: 'ResolveAttack', attackId: 't1-de-1' };
  for (let k = 0; k < 2000; k++) {
    const s: GameState<State> = { meta: { ...base.meta, rngCounter: k }, game };
    const r = decidePlay(spearpoint, s, { player: 'bob', command, now: at(0) }, SEED);
    if (r.ok && r.value.some((e) => e.type === 'FriendlyFirePending')) {
      g.state = s;
      break;
    }
  }
  expect(g.state!.meta.rngCounter).toBeGreaterThan(0);
  const resolve = (hours: number) => {
    const r = g.append(decidePlay(spearpoint, g.state!, { player: 'bob', command, now: at(hours) }, SEED), 'bob', at(hours));
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  return { g, resolve };
}

describe('friendly fire as a decision window (rules version 4)', () => {
  it('the pause is a blocking window for the chooser, its default the highest-cost candidate, a unit in play', () => {
    const paused = when(tigerBesidePanther(), 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [2, 1]).s;
    const [p] = spearpoint.pending(paused);
    expect(p).toMatchObject({
      seat: 'us',
      kind: 'reaction',
      window: {
        id: 'friendly-fire-t1-de-1-1',
        topic: 'friendly-fire-victim',
        blocking: true,
        default: { type: 'ChooseFriendlyFireVictim', unit: 'de-t2' },
      },
    });
    // Public facts only: the default names a candidate in play, and every viewer's pending list is the same.
    expect(paused.inPlay['de-t2']).toBeDefined();
    expect(paused.friendlyFire!.candidates).toContain('de-t2');
    for (const viewer of [{ kind: 'seat', seat: 'us' } as const, { kind: 'seat', seat: 'de' } as const, { kind: 'spectator' } as const])
      expect((spearpoint.view(paused, viewer) as { pending: unknown }).pending).toEqual(spearpoint.pending(paused));
    // Its default is a legal answer while it is open.
    expect(spearpoint.legalCommands(paused, 'us')).toContainEqual(p!.window!.default);
  });

  it('the engine no longer answers for the chooser: a version-4 pause waits even with the old standing order in the state', () => {
    const s = tigerBesidePanther();
    const old = { ...s, seats: { ...s.seats, us: { ...s.seats.us, friendlyFire: 'highest-cost' as const } } };
    const r = when(old, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [2, 1]);
    expect(r.s.friendlyFire).toMatchObject({ chooser: 'us', candidates: ['de-t2', 'de-t3'] });
  });

  it('a kernel standing order answers the window in the same append as the roll that opened it', () => {
    const { g, resolve } = kernelGame(tigerBesidePanther());
    const set = g.append(decideStandingOrders(spearpoint, g.state!, { player: 'alice', orders: HIGHEST_COST, now: at(1) }, SEED), 'alice', at(1));
    expect(set.ok && types(set.value)).toEqual(['Game.StandingOrdersSet']);
    const evs = resolve(2);
    const t = types(evs);
    expect(t).toContain('FriendlyFirePending');
    expect(t.indexOf('Game.StandingOrderApplied')).toBeGreaterThan(t.indexOf('FriendlyFirePending'));
    const applied = evs.find((e) => e.type === 'Game.StandingOrderApplied')!;
    expect(applied.visibility).toEqual({ to: 'seats', seats: ['us'] });
    expect(applied.data).toMatchObject({ seat: 'us', window: 'friendly-fire-t1-de-1-1', command: { type: 'ChooseFriendlyFireVictim', unit: 'de-t2' } });
    expect(evs.find((e) => e.type === 'FriendlyFireVictimChosen')!.data).toMatchObject({ attackId: 't1-de-1', unit: 'de-t2', automatic: false });
    const s = g.state!.game as State;
    expect(s.friendlyFire).toBeNull();
    expect(pendingOf(spearpoint, g.state!).some((p) => p.window)).toBe(false);
  });

  it('a standing order left while the window is open answers it at once', () => {
    const { g, resolve } = kernelGame(tigerBesidePanther());
    resolve(1);
    expect((g.state!.game as State).friendlyFire).not.toBeNull();
    const set = g.append(decideStandingOrders(spearpoint, g.state!, { player: 'alice', orders: HIGHEST_COST, now: at(2) }, SEED), 'alice', at(2));
    expect(set.ok && types(set.value).slice(0, 3)).toEqual(['Game.StandingOrdersSet', 'Game.StandingOrderApplied', 'FriendlyFireVictimChosen']);
    expect((g.state!.game as State).friendlyFire).toBeNull();
  });

  it('an unanswered window lapses to its default (the highest-cost candidate) after its deadline', () => {
    const { g, resolve } = kernelGame(tigerBesidePanther(), 24);
    resolve(1);
    const entry = pendingOf(spearpoint, g.state!).find((p) => p.window)!;
    // A quarter of the 24-hour time limit, from when the window opened.
    expect(entry).toMatchObject({ seat: 'us', player: 'alice', since: at(1), deadline: at(7), window: { id: 'friendly-fire-t1-de-1-1' } });
    const early = decideLapse(spearpoint, g.state!, { player: 'bob', window: entry.window!.id, now: at(6) }, SEED);
    expect(!early.ok && early.error.code).toBe('time/not-yet');
    const lapsed = g.append(decideLapse(spearpoint, g.state!, { player: null, window: entry.window!.id, now: at(7) }, SEED), null, at(7));
    expect(lapsed.ok).toBe(true);
    const evs = lapsed.ok ? lapsed.value : [];
    expect(types(evs)[0]).toBe('Game.WindowLapsed');
    expect(evs.find((e) => e.type === 'FriendlyFireVictimChosen')!.data).toMatchObject({ unit: 'de-t2', automatic: false });
    expect((g.state!.game as State).friendlyFire).toBeNull();
  });
});

describe('SetStandingOrders, the engine-level standing order', () => {
  it('is refused under rules version 4, pointing to the kernel standing orders, and not offered', () => {
    const s = given({ us: [{ card: 'us-m4a1-sherman' }], de: [{ card: 'de-tiger-i' }] }, 'commitment');
    const v = expectRefused(s, { type: 'SetStandingOrders', friendlyFire: 'highest-cost' }, 'us', 'command/use-standing-orders');
    expect(v.message).toMatch(/PUT \/v1\/games\/\{id\}\/standing-orders/);
    expect(spearpoint.legalCommands(s, 'us').map((c) => c.type)).not.toContain('SetStandingOrders');
  });

  for (const version of [2, 3])
    it(`still works under rules version ${version}, answering inside the engine, and opens no window there`, () => {
      const s = given({ us: [{ card: 'us-m4a1-sherman' }], de: [{ card: 'de-tiger-i' }] }, 'commitment', {}, version);
      expect(spearpoint.legalCommands(s, 'us')).toContainEqual({ type: 'SetStandingOrders', friendlyFire: 'highest-cost' });
      const paused = when(tigerBesidePanther(version), 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [2, 1]).s;
      expect(paused.friendlyFire).not.toBeNull();
      expect(spearpoint.pending(paused)[0]!.window).toBeUndefined();
      const standing = when(tigerBesidePanther(version), 'us', { type: 'SetStandingOrders', friendlyFire: 'highest-cost' });
      const auto = when(standing.s, 'de', { type: 'ResolveAttack', attackId: 't1-de-1' }, [2, 1, 1]);
      expect(ofType(auto.events, 'FriendlyFireVictimChosen')[0]).toMatchObject({ unit: 'de-t2', automatic: true });
    });
});
