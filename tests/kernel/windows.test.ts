import { describe, expect, it } from 'vitest';
import {
  canSee,
  createRegistry,
  decideClaimTimeout,
  decideCreate,
  decideJoin,
  decideLapse,
  decidePlay,
  decideResign,
  decideStandingOrders,
  dueWindows,
  onlySide,
  pendingOf,
  renderSvg,
  renderText,
  seedCommitment,
  standingOrdersOf,
  verifyLog,
  viewerFor,
  type EventEnvelope,
} from '../../domain/kernel/index.js';
import { relayRaid } from '../fixtures/relay-raid.js';
import { forgeOne } from './forge.js';
import { MemoryGame } from './play.js';

/**
 * Decision windows, standing orders and sides in the kernel, on the Relay Raid fixture: an
 * Advance asks the next seat of the other side whether to intercept, with Pass as the default.
 */
const SEED = '5a'.repeat(32);
const engines = createRegistry([relayRaid]);
const HOUR = 3_600_000;
const T0 = Date.parse('2026-05-01T08:00:00.000Z');
const at = (hours: number) => new Date(T0 + hours * HOUR).toISOString();
const PLAYERS = { n1: 'ann', s1: 'sam', n2: 'ned', s2: 'sue' } as const;

function started(opts: { timeLimitHours?: number; windowShare?: number; options?: object } = {}): MemoryGame {
  const g = new MemoryGame(relayRaid, SEED, 'g-raid');
  const created = decideCreate(relayRaid, {
    gameId: 'g-raid',
    options: opts.options ?? {},
    createdBy: 'ann',
    commitment: seedCommitment(SEED),
    ...(opts.timeLimitHours !== undefined ? { timeLimitHours: opts.timeLimitHours } : {}),
    ...(opts.windowShare !== undefined ? { windowShare: opts.windowShare } : {}),
  });
  expect(g.append(created, 'ann', at(0)).ok).toBe(true);
  for (const [seat, player] of Object.entries(PLAYERS)) expect(g.append(decideJoin(relayRaid, g.state!, { player, seat }, SEED), player, at(0)).ok).toBe(true);
  expect(g.state!.meta.status).toBe('active');
  return g;
}

const play = (g: MemoryGame, player: string, type: string, hours: number) => {
  const r = g.append(decidePlay(relayRaid, g.state!, { player, command: { type }, now: at(hours) }, SEED), player, at(hours));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const orders = (g: MemoryGame, player: string, list: unknown, hours: number) =>
  g.append(decideStandingOrders(relayRaid, g.state!, { player, orders: list, now: at(hours) }, SEED), player, at(hours));
const lapse = (g: MemoryGame, player: string | null, window: string, hours: number) =>
  g.append(decideLapse(relayRaid, g.state!, { player, window, now: at(hours) }, SEED), player, at(hours));
const types = (evs: readonly EventEnvelope[]) => evs.map((e) => e.type);

describe('decision windows', () => {
  it('an advance opens a window for the next seat of the other side, with its default and deadline', () => {
    const g = started({ timeLimitHours: 24 });
    play(g, 'ann', 'Advance', 2);
    const [p] = pendingOf(relayRaid, g.state!);
    expect(p).toMatchObject({
      seat: 's1',
      player: 'sam',
      kind: 'reaction',
      since: at(2),
      window: { id: 'intercept-1', topic: 'intercept', blocking: true, default: { type: 'Pass' } },
      // A quarter of the 24-hour limit by default.
      deadline: at(8),
    });
  });

  it('the window share is set per game, and a window share needs a time limit', () => {
    const g = started({ timeLimitHours: 24, windowShare: 0.5 });
    play(g, 'ann', 'Advance', 2);
    expect(pendingOf(relayRaid, g.state!)[0]!.deadline).toBe(at(14));
    const bad = decideCreate(relayRaid, { gameId: 'x', options: {}, createdBy: 'ann', commitment: seedCommitment(SEED), windowShare: 0.5 });
    expect(!bad.ok && bad.error.code).toBe('game/bad-window-share');
  });

  it('answered by its seat: an interception rolls the committed dice', () => {
    const g = started({ timeLimitHours: 24 });
    play(g, 'ann', 'Advance', 1);
    const evs = play(g, 'sam', 'Intercept', 2);
    expect(types(evs)).toEqual(['Game.CommandAccepted', 'Intercepted']);
    expect(g.state!.meta.rngCounter).toBeGreaterThan(0);
  });

  it('lapses to its default only after its deadline, sent by any seated player or the scheduler', () => {
    const g = started({ timeLimitHours: 24 });
    play(g, 'ann', 'Advance', 0);
    expect(lapse(g, 'ned', 'intercept-1', 5.9)).toMatchObject({ ok: false, error: { code: 'time/not-yet' } });
    expect(lapse(g, 'zed', 'intercept-1', 7)).toMatchObject({ ok: false, error: { code: 'action/not-seated' } });
    expect(lapse(g, null, 'intercept-9', 7)).toMatchObject({ ok: false, error: { code: 'window/not-open' } });
    expect(dueWindows(relayRaid, g.state!, at(5.9))).toEqual([]);
    expect(dueWindows(relayRaid, g.state!, at(6)).map((w) => w.window.id)).toEqual(['intercept-1']);
    const r = lapse(g, null, 'intercept-1', 6);
    expect(r.ok && types(r.value)).toEqual(['Game.WindowLapsed', 'LetThrough']);
    expect(r.ok && r.value[0]!.data).toMatchObject({ seat: 's1', window: 'intercept-1', deadline: at(6), command: { type: 'Pass' } });
    expect(g.state!.game).toMatchObject({ score: { north: 1, south: 0 } });
    expect(verifyLog(finish(g, 7), engines.get).ok).toBe(true);
  });

  it('a game without a time limit keeps its windows open until answered', () => {
    const g = started();
    play(g, 'ann', 'Advance', 0);
    expect(pendingOf(relayRaid, g.state!)[0]).not.toHaveProperty('deadline');
    expect(lapse(g, 'ned', 'intercept-1', 999)).toMatchObject({ ok: false, error: { code: 'time/no-limit' } });
  });

  it('a missed window never loses the game on time: only an overdue move does', () => {
    const g = started({ timeLimitHours: 24 });
    play(g, 'ann', 'Advance', 0);
    expect(decideClaimTimeout(relayRaid, g.state!, { player: 'ann', now: at(100) }, SEED)).toMatchObject({ ok: false, error: { code: 'time/nobody-late' } });
    lapse(g, 'ann', 'intercept-1', 7);
    // s1 must now move, from hour 7: overdue at 31.
    expect(decideClaimTimeout(relayRaid, g.state!, { player: 'ann', now: at(30) }, SEED)).toMatchObject({ ok: false, error: { code: 'time/not-yet' } });
    const claim = g.append(decideClaimTimeout(relayRaid, g.state!, { player: 'ann', now: at(31) }, SEED), 'ann', at(31));
    expect(claim.ok).toBe(true);
    // s1's side loses; both north seats win.
    expect(g.state!.meta.outcome).toMatchObject({ winners: ['n1', 'n2'], reason: 's1 ran out of time (24 h without a move; the limit is 24 h)' });
    expect(verifyLog(g.events, engines.get).ok).toBe(true);
  });

  it('the verifier refuses a lapse recorded before its deadline', () => {
    const g = started({ timeLimitHours: 24 });
    play(g, 'ann', 'Advance', 0);
    lapse(g, 'ned', 'intercept-1', 6);
    const log = finish(g, 7);
    const i = log.findIndex((e) => e.type === 'Game.WindowLapsed');
    expect(verifyLog(log, engines.get).ok).toBe(true);
    const forged = forgeOne(log, i, { at: at(5) });
    const report = verifyLog(forged, engines.get);
    expect(report.ok).toBe(false);
    expect(report.problems.join(' ')).toContain('has until');
  });
});

describe('standing orders', () => {
  it('answer a window in the same append as the move that opened it, seen by their seat only', () => {
    const g = started({ timeLimitHours: 24 });
    const set = orders(g, 'sam', [{ topic: 'intercept', rule: 'never' }], 0);
    expect(set.ok && set.value.map((e) => [e.type, e.visibility])).toEqual([['Game.StandingOrdersSet', { to: 'seats', seats: ['s1'] }]]);
    expect(standingOrdersOf(g.state!.meta, 's1')).toEqual([{ topic: 'intercept', rule: 'never' }]);
    const evs = play(g, 'ann', 'Advance', 1);
    expect(types(evs)).toEqual(['Game.CommandAccepted', 'Advanced', 'Game.StandingOrderApplied', 'LetThrough']);
    const applied = evs[2]!;
    expect(applied).toMatchObject({
      actor: 's1',
      visibility: { to: 'seats', seats: ['s1'] },
      data: { seat: 's1', window: 'intercept-1', order: 0, command: { type: 'Pass' } },
    });
    // The answer's effect is public; the order behind it is not.
    expect(canSee(applied.visibility, viewerFor(g.state!.meta, 'ann'), false)).toBe(false);
    expect(canSee(evs[3]!.visibility, viewerFor(g.state!.meta, 'ann'), false)).toBe(true);
    expect(pendingOf(relayRaid, g.state!)).toMatchObject([{ seat: 's1', kind: 'move' }]);
  });

  it('an order that no longer fits is skipped and noted, and the window waits for the player', () => {
    const g = started({ options: { interceptors: 1 } });
    orders(g, 'sam', [{ topic: 'intercept', rule: 'always' }], 0);
    expect(types(play(g, 'ann', 'Advance', 1))).toEqual(['Game.CommandAccepted', 'Advanced', 'Game.StandingOrderApplied', 'Intercepted']);
    play(g, 'sam', 'Hold', 2);
    play(g, 'ned', 'Hold', 3);
    play(g, 'sue', 'Hold', 4);
    const evs = play(g, 'ann', 'Advance', 5);
    expect(types(evs)).toEqual(['Game.CommandAccepted', 'Advanced', 'Game.StandingOrderSkipped']);
    expect(evs[2]!.data).toEqual({ seat: 's1', window: 'intercept-5', order: 0, reason: 'your side has no interceptors left' });
    expect(pendingOf(relayRaid, g.state!)).toMatchObject([{ seat: 's1', window: { id: 'intercept-5' } }]);
    expect(types(play(g, 'sam', 'Pass', 6))).toEqual(['Game.CommandAccepted', 'LetThrough']);
  });

  it('orders left while a window is open answer it at once; an empty list clears them', () => {
    const g = started();
    play(g, 'ann', 'Advance', 1);
    const r = orders(g, 'sam', [{ topic: 'intercept', rule: 'when-behind' }], 2);
    expect(r.ok && types(r.value)).toEqual(['Game.StandingOrdersSet', 'Game.StandingOrderApplied', 'LetThrough']);
    expect(orders(g, 'sam', [], 3).ok).toBe(true);
    expect(standingOrdersOf(g.state!.meta, 's1')).toEqual([]);
    play(g, 'sam', 'Advance', 4);
    expect(pendingOf(relayRaid, g.state!)).toMatchObject([{ seat: 'n2', window: { id: 'intercept-2' } }]);
    expect(verifyLog(finish(g, 5), engines.get).ok).toBe(true);
  });

  it('refuses rules the engine does not offer and malformed lists, naming what is offered', () => {
    const g = started();
    expect(orders(g, 'sam', [{ topic: 'intercept', rule: 'sometimes' }], 1)).toMatchObject({ ok: false, error: { code: 'standing/unknown-rule' } });
    expect(orders(g, 'sam', [{ topic: '__proto__', rule: 'constructor' }], 1)).toMatchObject({ ok: false, error: { code: 'standing/unknown-rule' } });
    expect(orders(g, 'sam', [{ topic: 'intercept', rule: 'never', params: 1 }], 1)).toMatchObject({ ok: false, error: { code: 'standing/malformed' } });
    expect(orders(g, 'sam', 'never', 1)).toMatchObject({ ok: false, error: { code: 'standing/malformed' } });
    expect(orders(g, 'zed', [], 1)).toMatchObject({ ok: false, error: { code: 'action/not-seated' } });
  });
});

describe('sides', () => {
  it('seats name their side; a resignation loses for the whole side', () => {
    const g = started();
    expect(g.state!.meta.seats.map((s) => [s.id, s.side])).toEqual([
      ['n1', 'north'],
      ['s1', 'south'],
      ['n2', 'north'],
      ['s2', 'south'],
    ]);
    g.append(decideResign(relayRaid, g.state!, { player: 'ned' }, SEED), 'ned', at(1));
    expect(g.state!.meta.outcome).toEqual({ winners: ['s1', 's2'], reason: 'n2 resigned' });
    expect(verifyLog(g.events, engines.get).ok).toBe(true);
  });

  it("'side' visibility reaches every seat of that side and nobody else until the end", () => {
    const g = started();
    const meta = g.state!.meta;
    expect(viewerFor(meta, 'ned')).toEqual({ kind: 'seat', seat: 'n2', side: 'north' });
    expect(canSee(onlySide('north'), viewerFor(meta, 'ann'), false)).toBe(true);
    expect(canSee(onlySide('north'), viewerFor(meta, 'ned'), false)).toBe(true);
    expect(canSee(onlySide('north'), viewerFor(meta, 'sam'), false)).toBe(false);
    expect(canSee(onlySide('north'), { kind: 'spectator' }, false)).toBe(false);
    expect(canSee(onlySide('north'), { kind: 'spectator' }, true)).toBe(true);
  });
});

/** Plays the game to its end (everyone holds until the move limit) so its seed is revealed. */
function finish(g: MemoryGame, fromHour: number): EventEnvelope[] {
  let h = fromHour;
  while (g.state!.meta.status === 'active') {
    const p = pendingOf(relayRaid, g.state!)[0]!;
    play(g, p.player!, p.window ? 'Pass' : 'Hold', (h += 0.01));
  }
  return g.events;
}

describe('the picture', () => {
  it('shows the advance, who is asked, the scores and interceptors left, as SVG and text', () => {
    const g = started();
    play(g, 'ann', 'Advance', 1);
    const scene = relayRaid.scene!(g.state!.game as Parameters<typeof relayRaid.evolve>[0], viewerFor(g.state!.meta, 'sam'));
    expect(scene.status).toEqual(['n1 advances: s1 may intercept']);
    expect(scene.links).toEqual([{ from: { piece: 'n1' }, to: { piece: 's1' }, kind: 'attack', label: 'advance', highlight: true }]);
    const text = renderText(scene);
    expect(text).toContain('asked: intercept?');
    expect(text).toContain('North: 2 interceptors left');
    expect(renderSvg(scene)).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
  });
});
