import { describe, expect, it } from 'vitest';
import type { GameSummary } from '../../domain/kernel/index.js';
import { clockBrief, clockInWords, durationInWords, seatClocks } from '../../functions/app/clocks.js';
import { formatInbox } from '../../functions/cli/format.js';
import { projectGame } from '../../functions/projections/project.js';

/** Each seat's remaining time as `games`, `show`, the inbox and mail print it. */
const NOW = '2026-06-01T12:00:00.000Z';
const HOUR = 3_600_000;
const summary = (over: Partial<GameSummary>): Pick<GameSummary, 'status' | 'seats' | 'pending' | 'timeControl' | 'banks'> => ({
  status: 'active',
  seats: [
    { id: 'p1', name: 'Player 1', player: 'ann', joined: true },
    { id: 'p2', name: 'Player 2', player: 'bob', joined: true },
  ],
  pending: [{ seat: 'p1', kind: 'move', prompt: 'Roll', player: 'ann', since: NOW, deadline: '2026-06-03T16:30:00.000Z' }],
  timeControl: { kind: 'per-move', days: 3 },
  ...over,
});

describe('seat clocks', () => {
  it('the seat on move has until its deadline; the other its whole move time', () => {
    const clocks = seatClocks(summary({}), NOW);
    expect(clocks).toEqual([
      { seat: 'p1', name: 'Player 1', player: 'ann', deadline: '2026-06-03T16:30:00.000Z', leftMs: 52.5 * HOUR },
      { seat: 'p2', name: 'Player 2', player: 'bob', moveMs: 72 * HOUR },
    ]);
    expect(clocks.map(clockInWords)).toEqual(['2 d 4 h left (until 2026-06-03T16:30:00.000Z)', '3 d a move']);
  });

  it('a bank shows what is in it; an away player shows the clock stopped; past the deadline is out of time', () => {
    const bank = seatClocks(
      summary({ timeControl: { kind: 'bank', days: 30, incrementDays: 3 }, banks: [{ seat: 'p2', ms: 10 * 24 * HOUR + 90 * 60_000 }] }),
      NOW,
    );
    expect(clockInWords(bank[1]!)).toBe('10 d 1 h in the bank');
    const away = seatClocks(summary({ pending: [{ seat: 'p1', kind: 'move', prompt: 'Roll', player: 'ann', since: NOW, away: true }] }), NOW);
    expect(clockInWords(away[0]!)).toBe('on move, no deadline, away: clock stopped');
    const late = seatClocks(summary({}), '2026-06-04T00:00:00.000Z');
    expect(clockInWords(late[0]!)).toBe('out of time (until 2026-06-03T16:30:00.000Z)');
  });

  it('no time control, or a game not running: no clocks', () => {
    expect(seatClocks({ ...summary({}), timeControl: undefined }, NOW)).toEqual([]);
    expect(seatClocks(summary({ status: 'ended' }), NOW)).toEqual([]);
  });

  it('durations read in days and hours, or hours and minutes', () => {
    expect(durationInWords(3 * 24 * HOUR)).toBe('3 d');
    expect(durationInWords(5 * HOUR + 10 * 60_000)).toBe('5 h 10 min');
    expect(durationInWords(12 * 60_000)).toBe('12 min');
  });
});

describe("the inbox (games) lists each seat's clock", () => {
  const full: GameSummary = {
    ...summary({}),
    gameId: 'g1',
    engine: 'dice-race',
    title: 'Dice Race',
    version: 3,
    hash: 'h',
    createdBy: 'ann',
    createdAt: NOW,
    updatedAt: NOW,
  };

  it("the projection keeps each seat's clock as of the change; a game without a time control has none", () => {
    const inbox = projectGame(undefined, full).inbox;
    expect(inbox.map((m) => m.clocks)).toEqual([seatClocks(full, NOW), seatClocks(full, NOW)]);
    expect(projectGame(undefined, { ...full, timeControl: undefined }).inbox.every((m) => m.clocks === undefined)).toBe(true);
  });

  it('prints them in a few words each', () => {
    const clocks = [...seatClocks(full, NOW), { seat: 'p3', name: 'Player 3', player: 'cy', deadline: NOW, leftMs: 0, awayUntil: true as const }];
    expect(clocks.map(clockBrief)).toEqual(['2 d 4 h left', '3 d a move', 'away, clock stopped']);
    const item = { gameId: 'g1', title: 'Dice Race', status: 'active', version: 3, yourMove: true, seats: [], opponents: [], whoseMove: [], clocks };
    expect(formatInbox({ games: [item] }, 'ann')).toContain(
      'clocks: Player 1 (ann) 2 d 4 h left, Player 2 (bob) 3 d a move, Player 3 (cy) away, clock stopped',
    );
  });
});
