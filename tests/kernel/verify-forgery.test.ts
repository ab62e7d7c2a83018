import { describe, expect, it } from 'vitest';
import { chain, createRegistry, decideResign, foldAll, verifyLog, PUBLIC, type EventEnvelope, type NewEvent } from '../../domain/kernel/index.js';
import { diceRace } from '../fixtures/dice-race.js';
import { rehash } from './forge.js';
import { MemoryGame } from './play.js';

/**
 * A hash chain alone proves nothing against someone who re-hashes it: the verifier must
 * re-derive every event, the platform's own included, from the rules and the seed.
 */
const SEED = 'cd'.repeat(32);
const engines = createRegistry([diceRace]);
const verify = (log: readonly EventEnvelope[]) => verifyLog(log, engines.get);

function started(): MemoryGame {
  const g = new MemoryGame(diceRace, SEED);
  g.create({ target: 15 });
  g.join('alice', 'p1', 'alice-entropy');
  g.join('bob', undefined, 'bob-entropy');
  return g;
}

function turnOf(g: MemoryGame): 'alice' | 'bob' {
  const s = g.state!.game as { seats: string[]; turn: number };
  return s.seats[s.turn % 2] === 'p1' ? 'alice' : 'bob';
}

function playToEnd(g: MemoryGame): MemoryGame {
  for (let i = 0; i < 200 && g.state!.meta.status === 'active'; i++) g.play(turnOf(g), { type: 'Roll' });
  expect(g.state!.meta.status).toBe('ended');
  return g;
}

/** Appends a resignation the way the service does. */
function resign(g: MemoryGame, player: string): void {
  const r = decideResign(g.engine, g.state!, { player }, SEED);
  if (!r.ok) throw new Error(r.error.message);
  const env = chain({ version: g.state!.meta.version, hash: g.state!.meta.hash }, r.value, {
    gameId: g.gameId,
    commandId: 'resign',
    at: '2026-01-01T01:00:00.000Z',
    player,
    seed: SEED,
  });
  g.events.push(...env);
  g.state = foldAll(diceRace, env, g.state);
}

const platformEvent = (g: MemoryGame, ev: NewEvent, player: string | null, commandId: string): Omit<EventEnvelope, 'hash' | 'seq' | 'prevHash'> => ({
  gameId: g.gameId,
  type: ev.type,
  data: ev.data,
  visibility: ev.visibility,
  actor: ev.actor,
  player,
  commandId,
  at: '2026-01-01T02:00:00.000Z',
});

describe('verifyLog against re-hashed forgeries', () => {
  it('a game ended by a resignation verifies as it was played', () => {
    const g = started();
    g.play('alice', { type: 'Roll' });
    resign(g, 'bob');
    const r = verify(g.events);
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.outcome).toEqual({ winners: ['p1'], reason: 'p2 resigned' });
  });

  it('a resigned game whose winner was rewritten is rejected', () => {
    const g = started();
    g.play('alice', { type: 'Roll' });
    resign(g, 'bob');
    const last = g.events.length - 1;
    const forged = g.events.map((e, i) => (i === last ? { ...e, data: { ...(e.data as object), outcome: { winners: ['p2'], reason: 'p1 resigned' } } } : e));
    const r = verify(rehash(forged, last));
    expect(r.ok).toBe(false);
  });

  it('a resignation slipped into a finished game to change its winner is rejected', () => {
    const g = playToEnd(started());
    const ended = g.events[g.events.length - 1]!;
    const winner = (ended.data as { outcome: { winners: string[] } }).outcome.winners[0]!;
    const loser = winner === 'p1' ? 'p2' : 'p1';
    const winnerPlayer = winner === 'p1' ? 'alice' : 'bob';
    const resignation = platformEvent(g, { type: 'Game.Resigned', data: { seat: winner }, visibility: PUBLIC, actor: winner }, winnerPlayer, 'forged');
    const fakeEnd = { ...ended, data: { outcome: { winners: [loser], reason: `${winner} resigned` }, seed: SEED } };
    const forged = rehash([...g.events.slice(0, -1), { ...resignation, seq: 0, prevHash: '' }, fakeEnd], g.events.length - 1);
    const r = verify(forged);
    expect(r.ok).toBe(false);
  });

  it('a game ended with no outcome while still undecided is rejected', () => {
    const g = started();
    g.play('alice', { type: 'Roll' });
    const end = platformEvent(g, { type: 'Game.Ended', data: { outcome: null, seed: SEED }, visibility: PUBLIC, actor: null }, null, 'forged');
    const r = verify(rehash([...g.events, { ...end, seq: 0, prevHash: '' }], g.events.length));
    expect(r.ok).toBe(false);
  });

  it('a command re-attributed to a player who does not hold the seat is rejected', () => {
    const g = playToEnd(started());
    const i = g.events.findIndex((e) => e.type === 'Game.CommandAccepted' && e.player === 'alice');
    const forged = g.events.map((e, j) => (j >= i && e.commandId === g.events[i]!.commandId ? { ...e, player: 'mallory' } : e));
    expect(verify(rehash(forged, i)).ok).toBe(false);
  });

  it('a seat joined with different entropy is rejected even when the dice happen to agree', () => {
    const g = playToEnd(started());
    const i = g.events.findIndex((e) => e.type === 'Game.SeatJoined' && e.player === 'bob');
    // The engine's events are recomputed from the entropy, so changing it changes the dice.
    const forged = g.events.map((e, j) => (j === i ? { ...e, data: { ...(e.data as object), entropy: 'other' } } : e));
    expect(verify(rehash(forged, i)).ok).toBe(false);
  });

  it('one byte changed at any of many positions in the exported text is rejected', () => {
    const g = playToEnd(started());
    const text = JSON.stringify({ format: 'fieldpost-log/1', events: g.events });
    let tried = 0;
    for (let p = 0; p < text.length; p += Math.max(1, Math.floor(text.length / 400))) {
      const ch = text[p]!;
      const swapped = ch === '1' ? '2' : /[0-9]/.test(ch) ? '1' : ch === 'a' ? 'b' : /[a-z]/.test(ch) ? 'a' : null;
      if (swapped === null) continue;
      let parsed: { events: EventEnvelope[] };
      try {
        parsed = JSON.parse(text.slice(0, p) + swapped + text.slice(p + 1)) as { events: EventEnvelope[] };
      } catch {
        continue;
      }
      // A change to the wrapper's format string is not part of the log.
      if (JSON.stringify(parsed.events) === JSON.stringify(g.events)) continue;
      tried++;
      const r = verify(parsed.events);
      expect(r.ok, `byte ${p} (${ch} -> ${swapped}) was accepted`).toBe(false);
    }
    expect(tried).toBeGreaterThan(100);
  });
});
