import { describe, expect, it } from 'vitest';
import { chain, createRegistry, summarize, verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import { projectGame } from '../../functions/projections/project.js';
import { decideNotices } from '../../functions/notify/decide.js';
import { renderNotice } from '../../functions/notify/render.js';
import { diceRace } from '../fixtures/dice-race.js';
import { MemoryGame } from './play.js';

/** The creator may withdraw a game nobody has started playing: it ends with no winner and leaves the lobby. */
const SEED = '9a'.repeat(32);
const engines = createRegistry([diceRace]);

function openGame() {
  const g = new MemoryGame(diceRace, SEED);
  g.create({ seats: 3 }, 'alice');
  g.join('alice', 'p1');
  g.join('bob', 'p2');
  return g;
}

describe('cancelling a game', () => {
  it('the creator cancels an open game: it ends with no winner, the log verifies', () => {
    const g = openGame();
    const r = g.cancel('alice');
    expect(r.ok && r.value.map((e) => e.type)).toEqual(['Game.Cancelled', 'Game.Ended']);
    expect(g.state!.meta.status).toBe('ended');
    expect(g.state!.meta.outcome).toEqual({ winners: [], reason: 'cancelled by alice before it began' });
    expect(verifyLog(g.events, engines.get).ok).toBe(true);
  });

  it('only the creator, and only before the game starts', () => {
    const g = openGame();
    const other = g.cancel('bob');
    expect(!other.ok && other.error.code).toBe('action/not-creator');
    g.join('carol', 'p3');
    expect(g.state!.meta.status).toBe('active');
    const late = g.cancel('alice');
    expect(!late.ok && late.error).toMatchObject({ code: 'game/not-open', message: expect.stringMatching(/resign/) });
    const done = openGame();
    done.cancel('alice');
    expect(((r) => !r.ok && r.error.code)(done.cancel('alice'))).toBe('game/not-open');
  });

  it('a log claiming someone else cancelled is refused by the verifier', () => {
    const g = openGame();
    g.cancel('alice');
    const i = g.events.findIndex((e) => e.type === 'Game.Cancelled');
    const before = g.events[i - 1]!;
    const forged = chain(
      { version: before.seq, hash: before.hash },
      g.events.slice(i).map((e) => ({ type: e.type, data: e.data, visibility: e.visibility, actor: e.actor })),
      { gameId: before.gameId, commandId: 'c9', at: before.at, player: 'bob' },
    );
    const log: EventEnvelope[] = [...g.events.slice(0, i), ...forged];
    const report = verifyLog(log, engines.get);
    expect(report.ok).toBe(false);
    expect(report.problems.join(' ')).toMatch(/created this game/);
  });

  it('leaves the lobby, and tells the others (not the creator) that it was cancelled', () => {
    const g = openGame();
    const open = summarize(diceRace, g.state!);
    expect(projectGame(undefined, open).lobby).toBeDefined();
    g.cancel('alice');
    const cancelled = summarize(diceRace, g.state!);
    expect(projectGame(undefined, cancelled).lobby).toBeUndefined();
    const notices = decideNotices(open, cancelled);
    expect(notices).toEqual([
      expect.objectContaining({ kind: 'ended', player: 'bob', outcome: expect.objectContaining({ result: 'cancelled', winners: [] }) }),
    ]);
    expect(renderNotice(notices[0]!, 'https://fieldpost.example.org').subject).toMatch(/is over: cancelled/);
  });
});
