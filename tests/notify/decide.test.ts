import { describe, expect, it } from 'vitest';
import { summarize, type GameSummary } from '../../domain/kernel/index.js';
import { decideNotices } from '../../functions/notify/decide.js';
import { diceRace } from '../fixtures/dice-race.js';
import { MemoryGame } from '../kernel/play.js';

const SEED = 'ef'.repeat(32);
const turnOf = (g: MemoryGame) => {
  const s = g.state!.game as { seats: string[]; turn: number };
  return s.seats[s.turn % s.seats.length]!;
};

/** A game of `seats` players to the end, with the summary after each append. */
function fullGame(seats = 2, target = 12) {
  const players = ['alice', 'bob', 'carol', 'dave'].slice(0, seats);
  const g = new MemoryGame(diceRace, SEED, `g-${seats}`);
  const summaries: GameSummary[] = [];
  const snap = () => summaries.push(summarize(diceRace, g.state!));
  g.create({ target, seats });
  snap();
  for (const p of players) {
    g.join(p);
    snap();
  }
  const playerOf = (seat: string) => g.state!.meta.seats.find((s) => s.id === seat)!.player!;
  for (let i = 0; i < 500 && g.state!.meta.status === 'active'; i++) {
    if (!g.play(playerOf(turnOf(g)), { type: i % 4 === 1 ? 'PlayCard' : 'Roll' }).ok) g.play(playerOf(turnOf(g)), { type: 'Roll' });
    snap();
  }
  return { g, summaries };
}

describe('decideNotices', () => {
  it('tells exactly the newly pending player "your turn" when the move passes', () => {
    const { summaries } = fullGame();
    const started = summaries.findIndex((s) => s.status === 'active');
    const before = summaries[started + 1]!;
    const after = summaries[started + 2]!;
    expect(before.pending[0]!.seat).not.toBe(after.pending[0]!.seat);
    const notices = decideNotices(before, after);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      kind: 'turn',
      player: after.pending[0]!.player,
      seats: [after.pending[0]!.seat],
      version: after.version,
      hash: after.hash,
    });
    expect(notices[0]!.asked).toEqual([{ seat: after.pending[0]!.seat, name: expect.any(String), kind: 'move', prompt: 'Roll a die or play your card' }]);
  });

  it('over whole games of 2 to 4 seats, never tells anyone who is not newly pending, and tells each newly pending player once', () => {
    for (const seats of [2, 3, 4]) {
      const { summaries } = fullGame(seats, 15);
      expect(summaries[summaries.length - 1]!.status).toBe('ended');
      for (let i = 1; i < summaries.length; i++) {
        const old = summaries[i - 1]!;
        const next = summaries[i]!;
        // A game that starts asks its first mover in its game.started notice.
        const turns = decideNotices(old, next).filter((n) => n.kind === 'turn' || (n.kind === 'started' && n.asked.length > 0));
        const fresh = next.pending.filter((p) => !old.pending.some((o) => o.seat === p.seat)).map((p) => p.player);
        expect(turns.map((n) => n.player).sort()).toEqual([...new Set(fresh)].sort());
        for (const n of turns) expect(next.pending.some((p) => p.player === n.player && n.seats.includes(p.seat))).toBe(true);
      }
    }
  });

  it('announces the start to everyone as game.started, with what it asks of the first mover, and no separate "your turn"', () => {
    const { summaries } = fullGame(3);
    const i = summaries.findIndex((s) => s.status === 'active');
    const notices = decideNotices(summaries[i - 1], summaries[i]!);
    const first = summaries[i]!.pending[0]!.player;
    expect(notices.map((n) => n.kind)).toEqual(['started', 'started', 'started']);
    expect(notices.filter((n) => n.player === first)).toEqual([
      expect.objectContaining({ kind: 'started', asked: [expect.objectContaining({ kind: 'move' })] }),
    ]);
    expect(
      notices
        .filter((n) => n.asked.length === 0)
        .map((n) => n.player)
        .sort(),
    ).toEqual(['alice', 'bob', 'carol'].filter((p) => p !== first));
  });

  it('announces the end to every player with their own result, and nothing else', () => {
    const { summaries } = fullGame(2);
    const last = summaries[summaries.length - 1]!;
    const notices = decideNotices(summaries[summaries.length - 2], last);
    expect(notices.map((n) => n.kind)).toEqual(['ended', 'ended']);
    const winnerSeat = last.outcome!.winners[0]!;
    for (const n of notices) expect(n.outcome!.result).toBe(n.seats.includes(winnerSeat) ? 'won' : 'lost');
  });

  it('invites the players a seat was reserved for at creation, not the creator', () => {
    const g = new MemoryGame(diceRace, SEED, 'g-res');
    g.create({ seats: 3 }, 'alice');
    const s = summarize(diceRace, g.state!);
    const created: GameSummary = { ...s, seats: s.seats.map((x) => (x.id === 'p1' ? { ...x, player: 'alice' } : x.id === 'p2' ? { ...x, player: 'bob' } : x)) };
    const notices = decideNotices(undefined, created);
    expect(notices).toEqual([expect.objectContaining({ kind: 'invited', player: 'bob', seats: ['p2'], invitedBy: 'alice' })]);
    // The same summary again (or an older one) is no news.
    expect(decideNotices(created, created)).toEqual([]);
  });

  it('builds notices from the public summary only: no hands, no deck, no command', () => {
    const { g, summaries } = fullGame(2);
    const hidden = JSON.stringify(g.events.filter((e) => e.visibility.to !== 'all').map((e) => e.data));
    expect(hidden.length).toBeGreaterThan(10);
    for (let i = 1; i < summaries.length; i++) {
      for (const n of decideNotices(summaries[i - 1], summaries[i]!)) {
        const text = JSON.stringify(n);
        expect(text).not.toMatch(/"(card|order|hands|deck|command)"/);
        expect(Object.keys(n).sort()).toEqual(expect.arrayContaining(['asked', 'gameId', 'hash', 'key', 'kind', 'opponents', 'player', 'seats', 'version']));
      }
    }
  });

  it('keys a "your turn" by game, seat and the version the seat became pending', () => {
    const { summaries } = fullGame();
    const i = summaries.findIndex((s) => s.status === 'active') + 2;
    const [n] = decideNotices(summaries[i - 1], summaries[i]!);
    expect(n!.key).toBe(`${summaries[i]!.gameId}#turn#${n!.seats[0]}#${summaries[i]!.version}`);
    expect(decideNotices(summaries[i - 1], summaries[i]!)[0]!.key).toBe(n!.key);
  });
});
