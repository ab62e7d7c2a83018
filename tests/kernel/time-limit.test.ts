import { describe, expect, it } from 'vitest';
import { createRegistry, decideClaimTimeout, decideCreate, decideJoin, decidePlay, seedCommitment, summarize, verifyLog } from '../../domain/kernel/index.js';
import { decideNotices } from '../../functions/notify/decide.js';
import { renderNotice } from '../../functions/notify/render.js';
import { diceRace } from '../fixtures/dice-race.js';
import { MemoryGame } from './play.js';

/**
 * Time control for correspondence play: a game created with a time limit shows each waiting
 * seat its deadline; once the game has been unchanged that long, a seat it is not waiting for
 * may claim it, and the verifier judges the claim at the time the log records.
 */
const SEED = '3c'.repeat(32);
const engines = createRegistry([diceRace]);
const HOUR = 3_600_000;
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const at = (hours: number) => new Date(T0 + hours * HOUR).toISOString();

function started(timeLimitHours?: number): MemoryGame {
  const g = new MemoryGame(diceRace, SEED, 'g-time');
  const created = g.append(
    decideCreate(diceRace, {
      gameId: 'g-time',
      options: { target: 50 },
      createdBy: 'alice',
      commitment: seedCommitment(SEED),
      ...(timeLimitHours !== undefined ? { timeLimitHours } : {}),
    }),
    'alice',
    at(0),
  );
  expect(created.ok).toBe(true);
  g.append(decideJoin(diceRace, g.state!, { player: 'alice', seat: 'p1' }, SEED), 'alice', at(0));
  g.append(decideJoin(diceRace, g.state!, { player: 'bob', seat: 'p2' }, SEED), 'bob', at(1));
  return g;
}
const claim = (g: MemoryGame, player: string, hours: number) => decideClaimTimeout(diceRace, g.state!, { player, now: at(hours) }, SEED);

describe('time limits', () => {
  it('are whole hours from 1 to 1440, fixed at creation', () => {
    for (const bad of [0, 1.5, 1441]) {
      const r = decideCreate(diceRace, { gameId: 'g', options: {}, createdBy: 'alice', commitment: seedCommitment(SEED), timeLimitHours: bad });
      expect(!r.ok && r.error.code).toBe('game/bad-time-limit');
    }
  });

  it('give each waiting seat a deadline: the last change plus the limit; a move resets it', () => {
    const g = started(24);
    expect(summarize(diceRace, g.state!).pending).toEqual([expect.objectContaining({ seat: 'p1', deadline: at(25) })]);
    g.append(decidePlay(diceRace, g.state!, { player: 'alice', command: { type: 'Roll' }, now: at(5) }, SEED), 'alice', at(5));
    expect(summarize(diceRace, g.state!).pending).toEqual([expect.objectContaining({ seat: 'p2', deadline: at(29) })]);
    expect(summarize(diceRace, started().state!).pending[0]).not.toHaveProperty('deadline');
  });

  it('the deadline reaches the "your turn" mail', () => {
    const g = started(24);
    const before = summarize(diceRace, g.state!);
    g.append(decidePlay(diceRace, g.state!, { player: 'alice', command: { type: 'Roll' }, now: at(5) }, SEED), 'alice', at(5));
    const [notice] = decideNotices(before, summarize(diceRace, g.state!));
    expect(notice!.asked[0]!.deadline).toBe(at(29));
    expect(renderNotice(notice!, 'https://fieldpost.example.org').text).toContain(`Deadline: ${at(29)}`);
  });

  it('a claim is refused before the deadline, by the seat being waited for, and without a limit', () => {
    const g = started(24);
    expect(claim(g, 'bob', 24.9)).toMatchObject({ ok: false, error: { code: 'time/not-yet', message: `p1 has until ${at(25)} to move` } });
    expect(claim(g, 'alice', 30)).toMatchObject({ ok: false, error: { code: 'time/your-move' } });
    expect(claim(g, 'carol', 30)).toMatchObject({ ok: false, error: { code: 'action/not-seated' } });
    expect(claim(started(), 'bob', 999)).toMatchObject({ ok: false, error: { code: 'time/no-limit' } });
  });

  it('after the deadline the other seat wins on time, and the log verifies', () => {
    const g = started(24);
    const r = g.append(claim(g, 'bob', 26), 'bob', at(26));
    expect(r.ok && r.value.map((e) => e.type)).toEqual(['Game.TimedOut', 'Game.Ended']);
    expect(g.state!.meta.outcome).toEqual({ winners: ['p2'], reason: 'p1 ran out of time (25 h without a move; the limit is 24 h)' });
    expect(verifyLog(g.events, engines.get).ok).toBe(true);
  });

  it('a claim recorded before the deadline is refused by the verifier', () => {
    const g = started(24);
    // Decided at hour 26, but written as if made at hour 20: the verifier judges it at hour 20.
    g.append(claim(g, 'bob', 26), 'bob', at(20));
    const report = verifyLog(g.events, engines.get);
    expect(report.ok).toBe(false);
    expect(report.problems.join(' ')).toMatch(/has until/);
  });
});
