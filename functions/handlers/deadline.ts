import { registry } from '../../domain/registry.js';
import { createDynamoGameService } from '../app/adapters.js';
import type { DeadlineStep, GameService } from '../app/game-service.js';
import { wakeSchema } from '../deadlines/schedules.js';
import { tableFromEnv } from '../notify/wiring.js';

/**
 * Invoked by an EventBridge Scheduler one-time schedule at a game's deadline or reminder:
 * reads the game once and, if something is still due, appends it (a lapse, the time-out or
 * the reminders) in one write conditional on the version read (GameService.deadlineStep). A
 * stale or repeated wake finds nothing due and writes nothing. What falls due next is
 * scheduled again from the stream by the scheduler function. Throwing lets EventBridge retry
 * and, after its retries, park the wake in the dead-letter queue.
 */
export function createDeadlineHandler(service: Pick<GameService, 'deadlineStep'>) {
  return async (event: unknown): Promise<DeadlineStep> => {
    const wake = wakeSchema.safeParse(event);
    if (!wake.success) throw new Error(`not a wake: {gameId, wakeAt} expected (${wake.error.issues[0]?.message ?? 'invalid'})`);
    // A move that got in between the read and the write: read again (its head may not move the wake).
    let step = await service.deadlineStep(wake.data.gameId);
    for (let i = 0; step.done === 'raced' && i < 3; i++) step = await service.deadlineStep(wake.data.gameId);
    if (step.done === 'raced') throw new Error(`game ${wake.data.gameId} kept changing: the wake is retried`);
    console.log(JSON.stringify({ level: 'info', msg: 'deadline', gameId: wake.data.gameId, wakeAt: wake.data.wakeAt, ...step }));
    return step;
  };
}

let fromEnv: ReturnType<typeof createDeadlineHandler> | undefined;

export const handler = (event: unknown): Promise<DeadlineStep> => {
  if (!fromEnv) {
    const { client, tableName } = tableFromEnv(process.env);
    fromEnv = createDeadlineHandler(createDynamoGameService({ client, tableName, engines: registry }).service);
  }
  return fromEnv(event);
};
