import type { TournamentState } from '../../domain/tournament/tournament.js';
import type { TournamentService } from '../app/tournament-service.js';
import { AppError } from '../ports.js';
import type { StartWake } from './schedules.js';

/**
 * A tournament's scheduled start, when its wake comes (the deadline function in AWS, from an
 * EventBridge Scheduler one-time schedule; the local deadline sweep on your machine): the system
 * sends StartOnSchedule, which starts it with two players or more and cancels it otherwise. A
 * wake is stale, and does nothing, when the tournament is no longer open (a director started it
 * earlier, or it was cancelled) or its start has moved since the wake was scheduled.
 */

export type StartStep = { readonly done: 'started' | 'cancelled' } | { readonly done: 'nothing'; readonly why: 'not-open' | 'moved' };

/** Why a wake finds nothing to do, or undefined when it is the tournament's start. */
export function staleStart(s: Pick<TournamentState, 'status' | 'startsAt'>, wake: StartWake): 'not-open' | 'moved' | undefined {
  if (s.status !== 'open') return 'not-open';
  if (s.startsAt === undefined || Date.parse(s.startsAt) !== Date.parse(wake.startsAt)) return 'moved';
  return undefined;
}

/** The command id of a tournament's scheduled start: one per tournament, so a repeated wake or sweep appends nothing. */
export const startCommandId = (tournamentId: string): string => `start-on-schedule:${tournamentId}`;

/** Refusals that mean another start got there first (a director's, or a second wake). */
const OVERTAKEN = new Set(['tournament/not-open', 'tournament/cancelled', 'tournament/finished']);

export async function runScheduledStart(tournaments: Pick<TournamentService, 'state' | 'system'>, wake: StartWake, now: string): Promise<StartStep> {
  const stale = staleStart(await tournaments.state(wake.tournamentId), wake);
  if (stale) return { done: 'nothing', why: stale };
  // Never early: a wake before its time is an error, and EventBridge Scheduler retries it.
  if (Date.parse(now) < Date.parse(wake.startsAt)) throw new Error(`tournament ${wake.tournamentId} starts at ${wake.startsAt}, not yet (${now})`);
  try {
    const r = await tournaments.system(wake.tournamentId, { type: 'StartOnSchedule', at: now }, startCommandId(wake.tournamentId));
    return { done: r.state.status === 'cancelled' ? 'cancelled' : 'started' };
  } catch (e) {
    if (e instanceof AppError && OVERTAKEN.has(e.code)) return { done: 'nothing', why: 'not-open' };
    throw e;
  }
}
