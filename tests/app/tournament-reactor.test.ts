import { describe, expect, it } from 'vitest';
import type { GameSummary } from '../../domain/kernel/index.js';
import { gameEnded, type ReactorDeps } from '../../functions/app/tournament-reactor.js';

/**
 * A tournament game's end, against stand-ins that log the order of the reactor's calls: the
 * result may finish the tournament, so the game is rated first and a finished tournament's
 * ratings are never read a moment before they are written.
 */
describe('the tournament reactor at a game end', () => {
  const summary = {
    gameId: 'g1',
    engine: 'spearpoint-1943',
    title: 'ann v ben',
    status: 'ended',
    version: 40,
    hash: 'h',
    createdBy: 'ann',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-02T00:00:00.000Z',
    seats: [
      { id: 'us', name: 'United States', player: 'ann', joined: true },
      { id: 'de', name: 'Germany', player: 'ben', joined: true },
    ],
    pending: [],
    outcome: { winners: ['us'], reason: 'objectives' },
  } as unknown as GameSummary;

  function world(opts: { rated: boolean; timedOut: boolean }) {
    const calls: string[] = [];
    const deps = {
      world: {
        store: { tableName: 't', doc: { send: async () => ({ Item: { tournamentId: 'T1', pairingId: 'p1' } }) } },
        tournaments: {
          state: async () => ({
            rated: opts.rated,
            engine: 'spearpoint-1943',
            name: 'Cup',
            pairings: new Map([['p1', { seats: ['ann', 'ben'], round: 1, board: 1 }]]),
          }),
          rate: async (c: { winner: string | null }) => void calls.push(`rate winner=${c.winner}`),
          system: async (_id: string, c: { type: string }) => void calls.push(c.type),
        },
      },
      games: { events: async () => ({ events: opts.timedOut ? [{ type: 'Game.TimedOut', data: { seats: ['de'] } }] : [] }) },
      queue: { enqueue: async () => void calls.push('notice') },
      clock: { now: () => '2026-11-02T00:00:00.000Z' },
    } as unknown as ReactorDeps;
    return { deps, calls };
  }

  it('rates a rated game before its result goes in', async () => {
    const { deps, calls } = world({ rated: true, timedOut: false });
    await gameEnded(deps, summary);
    expect(calls).toEqual(['rate winner=ann', 'RecordResult']);
  });

  it('rates a time-out before the forfeit goes in and the director is told', async () => {
    const { deps, calls } = world({ rated: true, timedOut: true });
    await gameEnded(deps, summary);
    expect(calls).toEqual(['rate winner=ann', 'Forfeit', 'notice']);
  });

  it('does not rate an unrated tournament', async () => {
    const { deps, calls } = world({ rated: false, timedOut: false });
    await gameEnded(deps, summary);
    expect(calls).toEqual(['RecordResult']);
  });
});
