import { describe, expect, it } from 'vitest';
import {
  createRegistry,
  decideAway,
  decideCreate,
  decideJoin,
  decidePlay,
  decideReminders,
  decideTimeOut,
  dueReminders,
  nextWake,
  pendingOf,
  reminderMoments,
  seedCommitment,
  summarize,
  verifyLog,
} from '../../domain/kernel/index.js';
import { diceRace } from '../fixtures/dice-race.js';
import { forgeOne } from './forge.js';
import { MemoryGame } from './play.js';

/**
 * Reminders (issue 10): at 50% and 80% of a seat's move time and when 24 hours of it remain,
 * each once per wait, in the log as Game.Reminded, decided again by the verifier; and leave
 * with an end (vacation up to the allowance) that restarts the clocks by itself.
 */
const SEED = '5d'.repeat(32);
const HOUR = 3_600_000;
// A Monday.
const T0 = Date.parse('2026-06-01T12:00:00.000Z');
const at = (hours: number) => new Date(T0 + hours * HOUR).toISOString();
const engines = createRegistry([diceRace]);

function duel(input: { timeControl: unknown; weekendsOff?: boolean }) {
  const g = new MemoryGame(diceRace, SEED, 'g-remind');
  g.append(decideCreate(diceRace, { gameId: 'g-remind', options: {}, createdBy: 'ann', commitment: seedCommitment(SEED), ...input }), 'ann', at(0));
  for (const [seat, player] of [
    ['p1', 'ann'],
    ['p2', 'bob'],
  ] as const)
    g.append(decideJoin(diceRace, g.state!, { player, seat }, SEED), player, at(0));
  return g;
}
const remind = (g: MemoryGame, hours: number) => g.append(decideReminders(diceRace, g.state!, { now: at(hours) }), null, at(hours));
const levels = (g: MemoryGame) => g.events.filter((e) => e.type === 'Game.Reminded').map((e) => (e.data as { level: string }).level);

describe('reminder moments', () => {
  it('fall at half, at 80% and a day before the end of a four-day move', () => {
    const g = duel({ timeControl: { kind: 'per-move', days: 4 } });
    const p = pendingOf(diceRace, g.state!)[0]!;
    expect(reminderMoments(g.state!, p)).toEqual([
      { level: '50%', at: at(48) },
      { level: '24h', at: at(72) },
      { level: '80%', at: at(76.8) },
    ]);
  });

  it('a move of a day or less has no 24-hour reminder; the move time of two days makes it fall with the half, which it replaces', () => {
    const one = duel({ timeControl: { kind: 'per-move', days: 1 } });
    expect(reminderMoments(one.state!, pendingOf(diceRace, one.state!)[0]!).map((m) => m.level)).toEqual(['50%', '80%']);
    const two = duel({ timeControl: { kind: 'per-move', days: 2 } });
    expect(reminderMoments(two.state!, pendingOf(diceRace, two.state!)[0]!)).toEqual([
      { level: '50%', at: at(24) },
      { level: '24h', at: at(24) },
      { level: '80%', at: at(38.4) },
    ]);
  });

  it('move with the running clock: a weekend off puts them after the weekend', () => {
    // Friday noon, a one-day move with weekends off: half of it is Friday midnight, 80% is Monday 07:12.
    const g = duel({ timeControl: { kind: 'per-move', days: 1 }, weekendsOff: true });
    g.append(decidePlay(diceRace, g.state!, { player: 'ann', command: { type: 'Roll' }, now: at(96) }, SEED), 'ann', at(96));
    expect(reminderMoments(g.state!, pendingOf(diceRace, g.state!)[0]!)).toEqual([
      { level: '50%', at: at(108) },
      { level: '80%', at: at(163.2) },
    ]);
  });
});

describe('sending reminders', () => {
  it('each once, the scheduler waking at the next one, and none after the move is made', () => {
    const g = duel({ timeControl: { kind: 'per-move', days: 4 } });
    expect(nextWake(diceRace, g.state!)).toBe(at(48));
    expect(decideReminders(diceRace, g.state!, { now: at(47.9) })).toMatchObject({ ok: false, error: { code: 'time/not-yet' } });
    expect(remind(g, 48).ok).toBe(true);
    expect(g.events.at(-1)).toMatchObject({ type: 'Game.Reminded', data: { seat: 'p1', level: '50%', deadline: at(96) }, actor: null, player: null });
    // Sent: not due again, and the scheduler next wakes at the 24-hour one.
    expect(dueReminders(diceRace, g.state!, at(50))).toEqual([]);
    expect(nextWake(diceRace, g.state!)).toBe(at(72));
    expect(summarize(diceRace, g.state!)).toMatchObject({ wakeAt: at(72), reminders: [{ seat: 'p1', level: '50%', seq: g.state!.meta.version }] });
    remind(g, 72);
    remind(g, 77);
    expect(levels(g)).toEqual(['50%', '24h', '80%']);
    expect(nextWake(diceRace, g.state!)).toBe(at(96));
    // The move is made: the next wait starts afresh, the old reminders are forgotten.
    g.append(decidePlay(diceRace, g.state!, { player: 'ann', command: { type: 'Roll' }, now: at(80) }, SEED), 'ann', at(80));
    expect(g.state!.meta.reminded).toEqual([]);
    expect(nextWake(diceRace, g.state!)).toBe(at(128));
  });

  it('a scheduler that comes late sends only the latest reminder due, not all of them', () => {
    const g = duel({ timeControl: { kind: 'per-move', days: 4 } });
    remind(g, 80);
    expect(levels(g)).toEqual(['80%']);
    const two = duel({ timeControl: { kind: 'per-move', days: 2 } });
    remind(two, 24);
    expect(levels(two)).toEqual(['24h']);
    expect(decideReminders(diceRace, g.state!, { now: at(90) })).toMatchObject({ ok: false });
  });

  it('the verifier decides every reminder again, and refuses one moved earlier', () => {
    const g = duel({ timeControl: { kind: 'per-move', days: 1 } });
    remind(g, 12);
    remind(g, 20);
    g.append(decideTimeOut(diceRace, g.state!, { now: at(24) }, SEED), null, at(24));
    expect(verifyLog(g.events, engines.get)).toMatchObject({ ok: true });
    const i = g.events.findIndex((e) => e.type === 'Game.Reminded');
    expect(verifyLog(forgeOne(g.events, i, { at: at(11) }), engines.get)).toMatchObject({ ok: false });
    expect(verifyLog(forgeOne(g.events, i, { player: 'bob' }), engines.get)).toMatchObject({ ok: false });
  });
});

describe('leave with an end', () => {
  it('stops the clocks until it ends, then they run again with no event; returning early ends it then', () => {
    const g = duel({ timeControl: { kind: 'per-move', days: 1 } });
    g.append(decideAway(g.state!, { player: 'ann', away: true, now: at(6), until: at(30) }), 'ann', at(6));
    expect(g.events.at(-1)).toMatchObject({ type: 'Game.AwayStarted', data: { seat: 'p1', until: at(30) } });
    // Six hours before the leave, eighteen after it ends at hour 30.
    expect(pendingOf(diceRace, g.state!)[0]).toMatchObject({ deadline: at(48), away: true, awayUntil: at(30) });
    expect(decideAway(g.state!, { player: 'ann', away: true, now: at(10) })).toMatchObject({ ok: false, error: { code: 'away/already' } });
    // After the leave ran out the player is no longer away: a new leave may start.
    expect(decideAway(g.state!, { player: 'ann', away: true, now: at(31) }).ok).toBe(true);
    g.append(decideAway(g.state!, { player: 'ann', away: false, now: at(18) }), 'ann', at(18));
    expect(pendingOf(diceRace, g.state!)[0]).toMatchObject({ deadline: at(36) });
    expect(pendingOf(diceRace, g.state!)[0]).not.toHaveProperty('away');
  });

  it('refuses an end that is not after its start', () => {
    const g = duel({ timeControl: { kind: 'per-move', days: 1 } });
    expect(decideAway(g.state!, { player: 'ann', away: true, now: at(6), until: at(5) })).toMatchObject({ ok: false, error: { code: 'away/bad-until' } });
    expect(decideAway(g.state!, { player: 'ann', away: true, now: at(6), until: 'soon' })).toMatchObject({ ok: false, error: { code: 'away/bad-until' } });
  });

  it('is decided again by the verifier with its end', () => {
    const g = duel({ timeControl: { kind: 'per-move', days: 1 } });
    g.append(decideAway(g.state!, { player: 'ann', away: true, now: at(6), until: at(30) }), 'ann', at(6));
    g.append(decideTimeOut(diceRace, g.state!, { now: at(48) }, SEED), null, at(48));
    expect(verifyLog(g.events, engines.get)).toMatchObject({ ok: true });
    const end = g.events.findIndex((e) => e.type === 'Game.TimedOut');
    expect(verifyLog(forgeOne(g.events, end, { at: at(40) }), engines.get)).toMatchObject({ ok: false });
  });
});
