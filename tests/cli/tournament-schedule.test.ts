import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../functions/cli/client.js';
import { tournamentCommand } from '../../functions/cli/tournament.js';

/**
 * `tournament schedule <id> <ISO|none>`: a director moves or removes a tournament's scheduled
 * start (POST /v1/tournaments/{id}/schedule), and `tournament show` prints when an open one
 * starts. Against a recording stand-in for the API: the request is what the route expects.
 */
const AT = '2026-12-01T18:00:00.000Z';
const reply = (startsAt?: string) => ({
  tournamentId: 't/1',
  clubId: null,
  name: 'Evening Cup',
  engine: 'spearpoint-1943',
  format: { kind: 'round-robin', cycles: 1 },
  status: 'open',
  ...(startsAt ? { startsAt } : {}),
  players: [],
  rounds: [],
  standings: [],
});

function recorder() {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const api = {
    request: async (method: string, path: string, body?: unknown) => {
      calls.push({ method, path, body });
      const startsAt = (body as { startsAt?: string | null } | undefined)?.startsAt;
      return reply(startsAt ?? undefined);
    },
  } as unknown as ApiClient;
  return { api, calls };
}

describe('tournament schedule', () => {
  it('moves the start to a time, or removes it with none; show prints the start of an open tournament', async () => {
    const { api, calls } = recorder();
    expect(await tournamentCommand(api, ['schedule', 't/1', AT], {})).toContain(`open, starts ${AT}`);
    expect(await tournamentCommand(api, ['schedule', 't/1', 'none'], {})).not.toContain('starts');
    expect(calls.map((c) => [c.method, c.path, (c.body as { startsAt: unknown }).startsAt])).toEqual([
      ['POST', '/v1/tournaments/t%2F1/schedule', AT],
      ['POST', '/v1/tournaments/t%2F1/schedule', null],
    ]);
    expect(calls.every((c) => typeof (c.body as { commandId?: unknown }).commandId === 'string')).toBe(true);
  });

  it('needs the time (or none)', async () => {
    await expect(tournamentCommand(recorder().api, ['schedule', 't1'], {})).rejects.toThrow(/missing <ISO\|none>/);
  });
});
