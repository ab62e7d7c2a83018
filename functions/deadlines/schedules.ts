import type { Env } from '../environment.js';
import { createHash } from 'node:crypto';
import { ConflictException, CreateScheduleCommand, type SchedulerClient } from '@aws-sdk/client-scheduler';
import type { GameSummary } from '../../domain/kernel/index.js';
import type { Clock } from '../ports.js';
import { looseObject, number, strictObject, string, type Infer } from '../guards.js';
import { fromWireImage, headChange, isHeadRecord, type StreamRecordLike } from '../projections/stream-image.js';

/**
 * Deadlines in AWS: every append's new head says when the game must next be looked at
 * (summary.wakeAt: a window's or a move's deadline, or a reminder). From the table stream, one
 * EventBridge Scheduler one-time schedule is made for each such moment, named after the game
 * and the moment, so making it twice (a replayed stream record) is a no-op. Schedules for a
 * moment the game has since moved past are not removed: they fire, the deadline handler finds
 * nothing due (one read, no write) and the schedule deletes itself after running.
 */

/** What the deadline handler is invoked with. */
export const wakeSchema = strictObject({
  gameId: string({ min: 1, max: 100 }),
  wakeAt: string({ min: 1, max: 40 }),
  version: number({ int: true, min: 1 }).optional(),
});
export type Wake = Infer<typeof wakeSchema>;

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

export function scheduleTargetFromEnv(env: Env): ScheduleTarget {
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
export const createScheduleCommand = (w: Wake, target: ScheduleTarget, now: string): CreateScheduleCommand =>
  oneTimeSchedule(scheduleName(w), w.wakeAt, w, target, now);

function oneTimeSchedule(name: string, at: string, input: Wake | StartWake, target: ScheduleTarget, now: string): CreateScheduleCommand {
  return new CreateScheduleCommand({
    Name: name,
    GroupName: target.group,
    ScheduleExpression: atExpression(at, now),
    ScheduleExpressionTimezone: 'UTC',
    FlexibleTimeWindow: { Mode: 'OFF' },
    ActionAfterCompletion: 'DELETE',
    Target: {
      Arn: target.functionArn,
      RoleArn: target.roleArn,
      Input: JSON.stringify(input),
      RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 6 * 3600 },
      DeadLetterConfig: { Arn: target.deadLetterArn },
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Tournament starts (issue 14): a tournament's `startsAt` is a deadline like a game's. Every
// append to a tournament rewrites its line in the listing (pk TOURNAMENTS, sk T#<id>, with its
// status and startsAt; functions/app/tournament-service.ts), so the line's stream record says
// when an open tournament must start, and the same one-time schedule wakes the deadline
// function with a StartWake. A start moved by a director is a new schedule; the old one fires,
// finds another startsAt (or a started or cancelled tournament) and does nothing.

/** The listing's partition; its lines are `T#<tournamentId>`. */
export const TOURNAMENT_LIST_PK = 'TOURNAMENTS';

/**
 * An ISO 8601 instant in UTC with seconds (2026-03-01T18:00:00Z, 2026-03-01T18:00:00.000Z): a real
 * calendar date, as zod's iso.datetime() checks it.
 */
const ISO_INSTANT =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?Z$/;

/** What the deadline handler is invoked with at a tournament's scheduled start. */
export const startWakeSchema = strictObject({
  tournamentId: string({ min: 1, max: 300 }),
  startsAt: string({ pattern: ISO_INSTANT }),
});
export type StartWake = Infer<typeof startWakeSchema>;

/** A tournament's line in the listing, as far as its start goes. */
export interface TournamentLine {
  readonly tournamentId: string;
  readonly tstatus: string;
  readonly startsAt?: string;
}

export const isTournamentLineRecord = (r: StreamRecordLike): boolean => {
  const keys = r.dynamodb?.Keys as Record<string, { S?: string }> | undefined;
  return keys?.['pk']?.S === TOURNAMENT_LIST_PK && (keys?.['sk']?.S ?? '').startsWith('T#');
};

/** The start a line change asks for: an open tournament whose startsAt is new or moved (a join, which rewrites the line, asks for none). */
export function startWakeFor(old: TournamentLine | undefined, next: TournamentLine): StartWake | undefined {
  if (next.tstatus !== 'open' || next.startsAt === undefined) return undefined;
  if (old?.tstatus === 'open' && old.startsAt === next.startsAt) return undefined;
  return { tournamentId: next.tournamentId, startsAt: next.startsAt };
}

/** A start's schedule name: per tournament and moment, so a replayed record makes none twice, and apart from games' wakes. */
export const startScheduleName = (w: StartWake): string =>
  `start-${createHash('sha256').update(`${w.tournamentId}\u0000${w.startsAt}`).digest('hex').slice(0, 48)}`;

export const createStartScheduleCommand = (w: StartWake, target: ScheduleTarget, now: string): CreateScheduleCommand =>
  oneTimeSchedule(startScheduleName(w), w.startsAt, w, target, now);

const lineSchema = looseObject({ tournamentId: string({ min: 1 }), tstatus: string(), startsAt: string().optional() });

function lineOf(image: Readonly<Record<string, unknown>> | undefined): TournamentLine | undefined {
  if (!image) return undefined;
  const r = lineSchema.safeParse(fromWireImage(image));
  if (!r.success) throw new Error(`tournament line is malformed: ${r.error.issues[0]?.message ?? ''}`);
  return r.data.startsAt === undefined
    ? { tournamentId: r.data.tournamentId, tstatus: r.data.tstatus }
    : { tournamentId: r.data.tournamentId, tstatus: r.data.tstatus, startsAt: r.data.startsAt };
}

/** The schedule one stream record asks for: a game's next wake or a tournament's start. */
function scheduleFor(r: StreamRecordLike, target: ScheduleTarget, now: string): { wake: Wake | StartWake; command: CreateScheduleCommand } | undefined {
  if (isTournamentLineRecord(r)) {
    const next = lineOf(r.dynamodb?.NewImage);
    const wake = next && startWakeFor(lineOf(r.dynamodb?.OldImage), next);
    return wake && { wake, command: createStartScheduleCommand(wake, target, now) };
  }
  const change = headChange(r);
  const wake = change && wakeFor(change.old, change.next);
  return wake && { wake, command: createScheduleCommand(wake, target, now) };
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
): Promise<{ batchItemFailures: { itemIdentifier: string }[]; scheduled: (Wake | StartWake)[] }> {
  const failures: { itemIdentifier: string }[] = [];
  const failedGames = new Set<string>();
  const scheduled: (Wake | StartWake)[] = [];
  for (const r of records) {
    if (!isHeadRecord(r) && !isTournamentLineRecord(r)) continue;
    const sequence = r.dynamodb?.SequenceNumber ?? r.eventID ?? '';
    const keys = r.dynamodb?.Keys as Record<string, { S?: string }> | undefined;
    // A game's partition, or a tournament's line: the unit whose later records wait for a failed one.
    const pk = `${keys?.['pk']?.S ?? ''}/${keys?.['sk']?.S ?? ''}`;
    if (failedGames.has(pk)) {
      failures.push({ itemIdentifier: sequence });
      continue;
    }
    try {
      const plan = scheduleFor(r, deps.target, deps.clock.now());
      if (!plan) continue;
      try {
        await deps.scheduler.send(plan.command);
      } catch (e) {
        if (!(e instanceof ConflictException)) throw e;
      }
      scheduled.push(plan.wake);
    } catch (e) {
      failedGames.add(pk);
      failures.push({ itemIdentifier: sequence });
      console.error(JSON.stringify({ level: 'error', msg: 'scheduling a deadline failed', sequence, pk, error: (e as Error).message }));
    }
  }
  return { batchItemFailures: failures, scheduled };
}
