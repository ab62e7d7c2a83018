import { engineCatalog } from '../engine-catalog.js';
import { createDynamoGameService, systemClock } from '../app/adapters.js';
import type { DeadlineStep, GameService } from '../app/game-service.js';
import type { TournamentService } from '../app/tournament-service.js';
import { startWakeSchema, wakeSchema } from '../deadlines/schedules.js';
import { runScheduledStart, type StartStep } from '../deadlines/tournament-starts.js';
import type { Clock } from '../ports.js';
import { tableFromEnv } from '../environment.js';

/**
 * Invoked by an EventBridge Scheduler one-time schedule at a game's deadline or reminder:
 * reads the game once and, if something is still due, appends it (a lapse, the time-out or
 * the reminders) in one write conditional on the version read (GameService.deadlineStep). A
 * stale or repeated wake finds nothing due and writes nothing. What falls due next is
 * scheduled again from the stream by the scheduler function. Throwing lets EventBridge retry
 * and, after its retries, park the wake in the dead-letter queue.
 *
 * At a tournament's scheduled start (a StartWake) it sends StartOnSchedule, unless the
 * tournament has started, been cancelled or moved its start since (functions/deadlines/tournament-starts.ts).
 */
export function createDeadlineHandler(
  service: Pick<GameService, 'deadlineStep'>,
  starts?: { readonly tournaments: Pick<TournamentService, 'state' | 'system'>; readonly clock: Clock },
) {
  return async (event: unknown): Promise<DeadlineStep | StartStep> => {
    const start = startWakeSchema.safeParse(event);
    if (start.success && starts) {
      const step = await runScheduledStart(starts.tournaments, start.data, starts.clock.now());
      console.log(JSON.stringify({ level: 'info', msg: 'scheduled start', tournamentId: start.data.tournamentId, startsAt: start.data.startsAt, ...step }));
      return step;
    }
    const wake = wakeSchema.safeParse(event);
    if (!wake.success) throw new Error(`not a wake: {gameId, wakeAt} or {tournamentId, startsAt} expected (${wake.error.issues[0]?.message ?? 'invalid'})`);
    // A move that got in between the read and the write: read again (its head may not move the wake).
    let step = await service.deadlineStep(wake.data.gameId);
    for (let i = 0; step.done === 'raced' && i < 3; i++) step = await service.deadlineStep(wake.data.gameId);
    if (step.done === 'raced') throw new Error(`game ${wake.data.gameId} kept changing: the wake is retried`);
    console.log(JSON.stringify({ level: 'info', msg: 'deadline', gameId: wake.data.gameId, wakeAt: wake.data.wakeAt, ...step }));
    return step;
  };
}

/**
 * The tournaments' code (clubs, pairings, their schemas), imported with the first scheduled start
 * this function runs, not at its cold start: most wakes are games' deadlines.
 */
export function tournamentsOnFirstUse(world: () => Promise<Pick<TournamentService, 'state' | 'system'>>): Pick<TournamentService, 'state' | 'system'> {
  let loading: Promise<Pick<TournamentService, 'state' | 'system'>> | undefined;
  const load = () => (loading ??= world());
  return {
    state: async (tournamentId) => (await load()).state(tournamentId),
    system: async (tournamentId, command, commandId) => (await load()).system(tournamentId, command, commandId),
  };
}

let fromEnv: ReturnType<typeof createDeadlineHandler> | undefined;

export const handler = (event: unknown): Promise<DeadlineStep | StartStep> => {
  if (!fromEnv) {
    const { client, tableName } = tableFromEnv(process.env);
    const games = createDynamoGameService({ client, tableName, engines: engineCatalog }).service;
    const tournaments = tournamentsOnFirstUse(async () => {
      const { createTournamentWorld } = await import('../app/tournament-reactor.js');
      return createTournamentWorld({ client, tableName, engines: engineCatalog, clock: systemClock, games }).tournaments;
    });
    fromEnv = createDeadlineHandler(games, { tournaments, clock: systemClock });
  }
  return fromEnv(event);
};
