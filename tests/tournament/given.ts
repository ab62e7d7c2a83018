import { expect } from 'vitest';
import { decideTournament } from '../../domain/tournament/decide-tournament.js';
import {
  evolveTournament,
  initialTournamentState,
  type Actor,
  type Format,
  type TournamentCommand,
  type TournamentEvent,
  type TournamentState,
} from '../../domain/tournament/tournament.js';
import { tournamentCommandSchema } from '../../domain/tournament/tournament-commands.js';

/** Given/when/then for the tournament Decider. Commands pass through the boundary schema first, as the API would. */
export const SYSTEM: Actor = { kind: 'system' };
export const director = (userId = 'dora'): Actor => ({ kind: 'user', userId, clubRole: 'director' });
export const member = (userId: string): Actor => ({ kind: 'user', userId, clubRole: 'member' });

export const given = (...events: TournamentEvent[]): TournamentState => events.reduce(evolveTournament, initialTournamentState);

export function decide(state: TournamentState, command: unknown, actor: Actor) {
  return decideTournament(state, tournamentCommandSchema.parse(command) as TournamentCommand, actor);
}

/** Runs a command that must succeed; returns the new state and the events. */
export function run(state: TournamentState, command: unknown, actor: Actor): { state: TournamentState; events: TournamentEvent[] } {
  const r = decide(state, command, actor);
  if (!r.ok) throw new Error(`refused: ${r.error.code}: ${r.error.message}`);
  return { state: r.value.reduce(evolveTournament, state), events: r.value };
}

export function expectEvents(state: TournamentState, command: unknown, actor: Actor, then: TournamentEvent[]) {
  const r = decide(state, command, actor);
  expect(r).toEqual({ ok: true, value: then });
}

export function expectRefused(state: TournamentState, command: unknown, actor: Actor, code: string) {
  const r = decide(state, command, actor);
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.error.code).toBe(code);
}

export const created = (format: Format, extra: { maxPlayers?: number; rated?: boolean; startsAt?: string } = {}): TournamentEvent => ({
  type: 'TournamentCreated',
  tournamentId: 't1',
  clubId: 'c1',
  name: 'Autumn Cup',
  engine: 'dice-race',
  format,
  rated: true,
  createdBy: 'dora',
  ...extra,
});

export const joined = (player: string, rating = 1500): TournamentEvent => ({ type: 'PlayerJoined', player, rating });

/** Binds every wanted game to a game id `g:<pairingId>` (what the application layer does). */
export function bindAll(state: TournamentState): TournamentState {
  let s = state;
  for (const p of [...s.pairings.values()].filter((x) => x.gameId === undefined && x.result === undefined)) {
    s = run(s, { type: 'BindGame', pairingId: p.pairingId, gameId: `g:${p.pairingId}` }, SYSTEM).state;
  }
  return s;
}

/** Pairings of the round in progress still waiting for a result. */
export const openPairings = (s: TournamentState) => {
  const r = s.rounds[s.rounds.length - 1];
  return r ? r.pairingIds.map((id) => s.pairings.get(id)!).filter((p) => !p.result) : [];
};
