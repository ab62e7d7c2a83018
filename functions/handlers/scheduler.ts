import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { planSchedules, scheduleTargetFromEnv, type SchedulePlannerDeps } from '../deadlines/schedules.js';
import { systemClock } from '../app/adapters.js';

/**
 * DynamoDB stream → EventBridge Scheduler: a one-time schedule for each moment a game must next
 * be looked at, and for each open tournament's (new or moved) scheduled start
 * (functions/deadlines/schedules.ts). It reads no table item: the game's head summary, or the
 * tournament's listing line, in the stream record says everything. Partial batch failures are reported.
 */
export function createSchedulerHandler(deps: SchedulePlannerDeps) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const r = await planSchedules(event.Records, deps);
    return { batchItemFailures: r.batchItemFailures };
  };
}

let fromEnv: ((event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>) | undefined;

export const handler = (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  fromEnv ??= createSchedulerHandler({ scheduler: new SchedulerClient({}), target: scheduleTargetFromEnv(process.env), clock: systemClock });
  return fromEnv(event);
};
