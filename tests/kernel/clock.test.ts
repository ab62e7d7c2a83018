import { describe, expect, it } from 'vitest';
import {
  createRegistry,
  deadlineAfter,
  decideAway,
  decideCreate,
  decideJoin,
  decidePlay,
  decideTimeOut,
  nextDeadline,
  pendingOf,
  runningMs,
  seedCommitment,
  verifyLog,
} from '../../domain/kernel/index.js';
import { diceRace } from '../fixtures/dice-race.js';
import { relayRaid } from '../fixtures/relay-raid.js';
import { forgeOne } from './forge.js';
import { MemoryGame } from './play.js';

/**
 * Correspondence clocks: time runs only while the game waits for a seat, not on weekends when
 * the game rests then, not while its player is away; a bank is charged per move and gets its
 * increment; the scheduler ends a game whose move ran out, and the verifier re-derives it.
 */
const SEED = '7e'.repeat(32);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// A Monday.
const T0 = Date.parse('2026-06-01T12:00:00.000Z');
const at = (hours: number) => new Date(T0 + hours * HOUR).toISOString();
const engines = createRegistry([diceRace, relayRaid]);
const noRest = { weekendsOff: false, away: [] };

describe('running clock', () => {
  it('counts all time when nothing rests it', () => {
    expect(runningMs(at(0), at(30), noRest)).toBe(30 * HOUR);
    expect(deadlineAfter(at(0), 3 * DAY, noRest)).toBe(at(72));
  });

  it('skips Saturday and Sunday (UTC) when the game rests at weekends', () => {
    const rest = { weekendsOff: true, away: [] };
    // Monday noon to the next Monday noon: five running days.
    expect(runningMs(at(0), at(7 * 24), rest)).toBe(5 * DAY);
    // Three days from Thursday noon: Friday noon, then Monday and Tuesday noon.
    expect(deadlineAfter(at(3 * 24), 3 * DAY, rest)).toBe(at(8 * 24));
  });

  it('stands still while the player is away, and for good while no return is set', () => {
    const rest = { weekendsOff: false, away: [{ from: at(10), to: at(34) }] };
    expect(runningMs(at(0), at(48), rest)).toBe(24 * HOUR);
    expect(deadlineAfter(at(0), 24 * HOUR, rest)).toBe(at(48));
    expect(deadlineAfter(at(0), 24 * HOUR, { weekendsOff: false, away: [{ from: at(10) }] })).toBeUndefined();
  });
});

function game(
  engine: typeof diceRace | typeof relayRaid,
  input: { timeControl?: unknown; weekendsOff?: boolean; options?: object },
  seats: Record<string, string>,
) {
  const g = new MemoryGame(engine, SEED, 'g-clock');
  const created = g.append(
    decideCreate(engine, { gameId: 'g-clock', options: input.options ?? {}, createdBy: 'ann', commitment: seedCommitment(SEED), ...input }),
    'ann',
    at(0),
  );
  if (!created.ok) throw new Error(created.error.message);
  for (const [seat, player] of Object.entries(seats)) g.append(decideJoin(engine, g.state!, { player, seat }, SEED), player, at(0));
  return g;
}
const roll = (g: MemoryGame, player: string, hours: number) => {
  const r = g.append(decidePlay(diceRace, g.state!, { player, command: { type: 'Roll' }, now: at(hours) }, SEED), player, at(hours));
  if (!r.ok) throw new Error(r.error.message);
};
const DUEL = { p1: 'ann', p2: 'bob' };

describe('time controls', () => {
  it('are validated at creation with the field named', () => {
    const create = (extra: object) => decideCreate(diceRace, { gameId: 'x', options: {}, createdBy: 'ann', commitment: seedCommitment(SEED), ...extra });
    expect(create({ timeControl: { kind: 'per-move', days: 0 } })).toMatchObject({
      ok: false,
      error: { code: 'game/bad-time-control', message: expect.stringContaining('timeControl') },
    });
    expect(create({ timeControl: { kind: 'bank', days: 30 } })).toMatchObject({
      ok: false,
      error: { code: 'game/bad-time-control', message: expect.stringContaining('incrementDays') },
    });
    expect(create({ timeControl: { kind: 'per-move', days: 1 }, timeLimitHours: 24 })).toMatchObject({ ok: false, error: { code: 'game/bad-time-control' } });
    expect(create({ weekendsOff: true })).toMatchObject({ ok: false, error: { code: 'game/bad-time-control' } });
    expect(create({ timeControl: { kind: 'per-move', days: 0.5 } }).ok).toBe(true);
  });

  it('per move: each move has its days from when the game began waiting for it', () => {
    const g = game(diceRace, { timeControl: { kind: 'per-move', days: 2 } }, DUEL);
    expect(pendingOf(diceRace, g.state!)[0]).toMatchObject({ seat: 'p1', deadline: at(48) });
    roll(g, 'ann', 10);
    expect(pendingOf(diceRace, g.state!)[0]).toMatchObject({ seat: 'p2', deadline: at(58) });
    expect(nextDeadline(diceRace, g.state!)).toBe(at(58));
  });

  it('bank with increment: a move takes its running time off the bank and adds the increment', () => {
    const g = game(diceRace, { timeControl: { kind: 'bank', days: 10, incrementDays: 1 } }, DUEL);
    expect(pendingOf(diceRace, g.state!)[0]!.deadline).toBe(at(240));
    roll(g, 'ann', 48);
    // p1 spent two days and gained one: nine days left.
    expect(g.state!.meta.banks).toEqual([
      { seat: 'p1', ms: 9 * DAY },
      { seat: 'p2', ms: 10 * DAY },
    ]);
    expect(pendingOf(diceRace, g.state!)[0]!.deadline).toBe(at(48 + 240));
  });

  it('weekends off: a Friday move is due after the weekend', () => {
    const g = game(diceRace, { timeControl: { kind: 'per-move', days: 1 }, weekendsOff: true }, DUEL);
    roll(g, 'ann', 4 * 24);
    expect(pendingOf(diceRace, g.state!)[0]).toMatchObject({ seat: 'p2', since: at(96), deadline: at(7 * 24) });
  });
});

describe('vacation', () => {
  it("stops the player's clocks, and everyone sees it", () => {
    const g = game(diceRace, { timeControl: { kind: 'per-move', days: 1 } }, DUEL);
    expect(g.append(decideAway(g.state!, { player: 'ann', away: true, now: at(6) }), 'ann', at(6)).ok).toBe(true);
    expect(g.events.at(-1)).toMatchObject({ type: 'Game.AwayStarted', visibility: { to: 'all' }, actor: 'p1' });
    expect(pendingOf(diceRace, g.state!)[0]).toMatchObject({ seat: 'p1', away: true });
    expect(pendingOf(diceRace, g.state!)[0]).not.toHaveProperty('deadline');
    expect(decideTimeOut(diceRace, g.state!, { now: at(500) }, SEED)).toMatchObject({ ok: false, error: { code: 'time/not-yet' } });
    expect(decideAway(g.state!, { player: 'ann', away: true, now: at(7) })).toMatchObject({ ok: false, error: { code: 'away/already' } });
    g.append(decideAway(g.state!, { player: 'ann', away: false, now: at(54) }), 'ann', at(54));
    // Six hours ran before the vacation: eighteen are left from its end.
    expect(pendingOf(diceRace, g.state!)[0]).toMatchObject({ seat: 'p1', deadline: at(72) });
    expect(pendingOf(diceRace, g.state!)[0]).not.toHaveProperty('away');
  });
});

describe('time-outs without a claim', () => {
  it('the scheduler ends the game at the deadline; the log verifies, and not with the time-out moved earlier', () => {
    const g = game(diceRace, { timeControl: { kind: 'per-move', days: 1 } }, DUEL);
    roll(g, 'ann', 1);
    expect(decideTimeOut(diceRace, g.state!, { now: at(24.9) }, SEED)).toMatchObject({ ok: false, error: { code: 'time/not-yet' } });
    const r = g.append(decideTimeOut(diceRace, g.state!, { now: at(25) }, SEED), null, at(25));
    expect(r.ok && r.value.map((e) => [e.type, e.actor])).toEqual([
      ['Game.TimedOut', null],
      ['Game.Ended', null],
    ]);
    expect(g.state!.meta.outcome).toEqual({ winners: ['p1'], reason: 'p2 ran out of time (24 h without a move; the limit is 24 h)' });
    expect(verifyLog(g.events, engines.get).ok).toBe(true);
    const i = g.events.findIndex((e) => e.type === 'Game.TimedOut');
    const earlier = forgeOne(g.events, i, { at: at(20) });
    expect(verifyLog(earlier, engines.get).ok).toBe(false);
  });

  it('a vacation is in the log, so the verifier re-derives a time-out around it', () => {
    const g = game(diceRace, { timeControl: { kind: 'bank', days: 1, incrementDays: 0.5 } }, DUEL);
    g.append(decideAway(g.state!, { player: 'ann', away: true, now: at(2) }), 'ann', at(2));
    g.append(decideAway(g.state!, { player: 'ann', away: false, now: at(100) }), 'ann', at(100));
    // Two hours before the vacation, twenty-two after it.
    expect(pendingOf(diceRace, g.state!)[0]!.deadline).toBe(at(122));
    g.append(decideTimeOut(diceRace, g.state!, { now: at(122) }, SEED), null, at(122));
    expect(g.state!.meta.outcome?.winners).toEqual(['p2']);
    expect(verifyLog(g.events, engines.get).ok).toBe(true);
  });
});
