import { createHash } from 'node:crypto';
import { ConflictException, CreateScheduleCommand, type SchedulerClient } from '@aws-sdk/client-scheduler';
import * as z from 'zod';
import type { GameSummary } from '../../domain/kernel/index.js';
import type { Clock } from '../ports.js';
import { headChange, isHeadRecord, type StreamRecordLike } from '../projections/stream-image.js';

/**
 * Deadlines in AWS: every append's new head says when the game must next be looked at
 * (summary.wakeAt: a window's or a move's deadline, or a reminder). From the table stream, one
 * EventBridge Scheduler one-time schedule is made for each such moment, named after the game
 * and the moment, so making it twice (a replayed stream record) is a no-op. Schedules for a
 * moment the game has since moved past are not removed: they fire, the deadline handler finds
 * nothing due (one read, no write) and the schedule deletes itself after running.
 */

/** What the deadline handler is invoked with. */
export const wakeSchema = z.strictObject({
  gameId: z.string().min(1).max(100),
  wakeAt: z.string().min(1).max(40),
  version: z.number().int().min(1).optional(),
});
export type Wake = z.infer<typeof wakeSchema>;

/** EventBridge Scheduler runs a target within the minute; a moment already past is asked for a minute from now. */
const LEAD_MS = 60_000;

/**
 * The wake a head change asks for: a running game whose next moment changed (or is new), or is
 * already due when the head was written (a second window with the same deadline, a reminder
 * due with a lapse): that one carries the head's version, so its schedule is a new one.
 */
export function wakeFor(old: GameSummary | undefined, next: GameSummary): Wake | undefined {
  if (next.status !== 'active' || next.wakeAt === undefined) return undefined;
  if (old !== undefined && old.version >= next.version) return undefined;
  const due = Date.parse(next.wakeAt) <= Date.parse(next.updatedAt);
  if (due) return { gameId: next.gameId, wakeAt: next.wakeAt, version: next.version };
  if (old?.status === 'active' && old.wakeAt === next.wakeAt) return undefined;
  return { gameId: next.gameId, wakeAt: next.wakeAt };
}

/** A schedule's name: unique per game, moment (and version, for a moment already due); at most 64 characters of [0-9A-Za-z-_.]. */
export const scheduleName = (w: Wake): string =>
  `wake-${createHash('sha256')
    .update(`${w.gameId}\u0000${w.wakeAt}\u0000${w.version ?? ''}`)
    .digest('hex')
    .slice(0, 48)}`;

/** `at(...)` in UTC, rounded up to the whole second (never early), and never in the past. */
export function atExpression(wakeAt: string, now: string): string {
  const t = Math.max(Date.parse(wakeAt), Date.parse(now) + LEAD_MS);
  const whole = Math.ceil(t / 1000) * 1000;
  return `at(${new Date(whole).toISOString().slice(0, 19)})`;
}

export interface ScheduleTarget {
  readonly group: string;
  /** The deadline handler's ARN, and the role EventBridge Scheduler invokes it with. */
  readonly functionArn: string;
  readonly roleArn: string;
  /** Where a wake that still fails after its retries goes. */
  readonly deadLetterArn: string;
}

export function scheduleTargetFromEnv(env: Readonly<Record<string, string | undefined>>): ScheduleTarget {
  const need = (k: string) => {
    const v = env[k];
    if (!v) throw new Error(`${k} is not set`);
    return v;
  };
  return {
    group: need('SCHEDULE_GROUP'),
    functionArn: need('DEADLINE_FUNCTION_ARN'),
    roleArn: need('SCHEDULER_ROLE_ARN'),
    deadLetterArn: need('SCHEDULE_DLQ_ARN'),
  };
}

/** The one-time schedule for a wake. */
export function createScheduleCommand(w: Wake, target: ScheduleTarget, now: string): CreateScheduleCommand {
  return new CreateScheduleCommand({
    Name: scheduleName(w),
    GroupName: target.group,
    ScheduleExpression: atExpression(w.wakeAt, now),
    ScheduleExpressionTimezone: 'UTC',
    FlexibleTimeWindow: { Mode: 'OFF' },
    ActionAfterCompletion: 'DELETE',
    Target: {
      Arn: target.functionArn,
      RoleArn: target.roleArn,
      Input: JSON.stringify(w),
      RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 6 * 3600 },
      DeadLetterConfig: { Arn: target.deadLetterArn },
    },
  });
}

export interface SchedulePlannerDeps {
  readonly scheduler: Pick<SchedulerClient, 'send'>;
  readonly target: ScheduleTarget;
  readonly clock: Clock;
}

/**
 * One batch of table stream records: a schedule for each head whose wake changed. A record
 * that fails is reported (and the later records of its game, so they are not applied out of
 * order); an existing schedule of the same name is success.
 */
export async function planSchedules(
  records: readonly StreamRecordLike[],
  deps: SchedulePlannerDeps,
): Promise<{ batchItemFailures: { itemIdentifier: string }[]; scheduled: Wake[] }> {
  const failures: { itemIdentifier: string }[] = [];
  const failedGames = new Set<string>();
  const scheduled: Wake[] = [];
  for (const r of records) {
    if (!isHeadRecord(r)) continue;
    const sequence = r.dynamodb?.SequenceNumber ?? r.eventID ?? '';
    const pk = (r.dynamodb?.Keys as Record<string, { S?: string }> | undefined)?.['pk']?.S ?? '';
    if (failedGames.has(pk)) {
      failures.push({ itemIdentifier: sequence });
      continue;
    }
    try {
      const change = headChange(r);
      const wake = change && wakeFor(change.old, change.next);
      if (!wake) continue;
      try {
        await deps.scheduler.send(createScheduleCommand(wake, deps.target, deps.clock.now()));
      } catch (e) {
        if (!(e instanceof ConflictException)) throw e;
      }
      scheduled.push(wake);
    } catch (e) {
      failedGames.add(pk);
      failures.push({ itemIdentifier: sequence });
      console.error(JSON.stringify({ level: 'error', msg: 'scheduling a deadline failed', sequence, pk, error: (e as Error).message }));
    }
  }
  return { batchItemFailures: failures, scheduled };
}
