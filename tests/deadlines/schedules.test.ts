import { ConflictException, CreateScheduleCommand } from '@aws-sdk/client-scheduler';
import { describe, expect, it } from 'vitest';
import type { GameSummary } from '../../domain/kernel/index.js';
import type { DeadlineStep } from '../../functions/app/game-service.js';
import { atExpression, planSchedules, scheduleName, wakeFor, type ScheduleTarget } from '../../functions/deadlines/schedules.js';
import { createDeadlineHandler } from '../../functions/handlers/deadline.js';
import { wire } from '../projections/wire.js';

/**
 * The AWS side of the clocks without AWS: which head changes ask for a schedule, the one-time
 * schedule made for them (named per game and moment, so a replayed record makes none twice),
 * and the deadline handler doing one step per wake.
 */
const NOW = '2026-06-01T12:00:00.000Z';
const summary = (over: Partial<GameSummary>): GameSummary => ({
  gameId: 'g1',
  engine: 'dice-race',
  title: 'Dice race',
  status: 'active',
  version: 5,
  hash: 'h',
  createdBy: 'ann',
  createdAt: NOW,
  updatedAt: NOW,
  seats: [],
  pending: [],
  ...over,
});
const target: ScheduleTarget = { group: 'fp-group', functionArn: 'arn:fn', roleArn: 'arn:role', deadLetterArn: 'arn:dlq' };

describe('which heads ask for a wake', () => {
  it('a new or changed wake time of a running game; not the same one again, an ended game or a replayed head', () => {
    const next = summary({ version: 6, wakeAt: '2026-06-02T12:00:00.000Z' });
    expect(wakeFor(summary({ wakeAt: '2026-06-01T18:00:00.000Z' }), next)).toEqual({ gameId: 'g1', wakeAt: next.wakeAt });
    expect(wakeFor(undefined, next)).toEqual({ gameId: 'g1', wakeAt: next.wakeAt });
    expect(wakeFor(summary({ wakeAt: next.wakeAt! }), next)).toBeUndefined();
    expect(wakeFor(summary({ version: 6 }), next)).toBeUndefined();
    expect(wakeFor(undefined, { ...next, status: 'ended' })).toBeUndefined();
    expect(wakeFor(undefined, summary({ version: 6 }))).toBeUndefined();
  });

  it('a wake already due when the head was written (a second window with the same deadline) is asked for again, with its version', () => {
    const old = summary({ wakeAt: '2026-06-01T11:00:00.000Z' });
    const next = summary({ version: 6, wakeAt: old.wakeAt! });
    expect(wakeFor(old, next)).toEqual({ gameId: 'g1', wakeAt: old.wakeAt, version: 6 });
    expect(scheduleName(wakeFor(old, next)!)).not.toBe(scheduleName({ gameId: 'g1', wakeAt: old.wakeAt! }));
  });
});

describe('the one-time schedule', () => {
  it('is at the wake, rounded up to the second, in UTC; a past wake a minute from now', () => {
    expect(atExpression('2026-06-02T12:00:00.250Z', NOW)).toBe('at(2026-06-02T12:00:01)');
    expect(atExpression('2026-06-01T08:00:00.000Z', NOW)).toBe('at(2026-06-01T12:01:00)');
  });

  it('names are valid EventBridge Scheduler names, per game and moment', () => {
    const a = scheduleName({ gameId: 'g1', wakeAt: NOW });
    expect(a).toMatch(/^[0-9a-zA-Z-_.]{1,64}$/);
    expect(scheduleName({ gameId: 'g1', wakeAt: NOW })).toBe(a);
    expect(scheduleName({ gameId: 'g2', wakeAt: NOW })).not.toBe(a);
  });
});

const headRecord = (old: GameSummary | undefined, next: GameSummary, seq: string) => ({
  eventID: seq,
  eventName: old ? 'MODIFY' : 'INSERT',
  dynamodb: {
    SequenceNumber: seq,
    Keys: { pk: { S: `GAME#${next.gameId}` }, sk: { S: 'HEAD' } },
    NewImage: { summary: wire(next) } as Record<string, unknown>,
    ...(old ? { OldImage: { summary: wire(old) } as Record<string, unknown> } : {}),
  },
});

describe('planning from the stream', () => {
  it('creates one schedule per wake, takes an existing one as made, and reports a failure with the later records of its game', async () => {
    const sent: CreateScheduleCommand[] = [];
    let failNext = false;
    const scheduler = {
      send: async (c: CreateScheduleCommand) => {
        sent.push(c);
        if (failNext) throw new Error('throttled');
        if (sent.length === 2) throw new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} });
        return {};
      },
    };
    const deps = { scheduler: scheduler as never, target, clock: { now: () => NOW } };
    const a = summary({ version: 6, wakeAt: '2026-06-03T12:00:00.000Z' });
    const r = await planSchedules(
      [
        headRecord(summary({}), a, '1'),
        headRecord(summary({}), a, '2'),
        { eventID: '3', dynamodb: { Keys: { pk: { S: 'INBOX#ann' }, sk: { S: 'GAME#g1' } } } },
      ],
      deps,
    );
    expect(r.batchItemFailures).toEqual([]);
    expect(r.scheduled).toHaveLength(2);
    expect(sent[0]!.input).toMatchObject({
      Name: scheduleName({ gameId: 'g1', wakeAt: a.wakeAt! }),
      GroupName: 'fp-group',
      ScheduleExpression: 'at(2026-06-03T12:00:00)',
      ScheduleExpressionTimezone: 'UTC',
      ActionAfterCompletion: 'DELETE',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: 'arn:fn', RoleArn: 'arn:role', DeadLetterConfig: { Arn: 'arn:dlq' }, Input: JSON.stringify({ gameId: 'g1', wakeAt: a.wakeAt }) },
    });
    failNext = true;
    const b = summary({ version: 7, wakeAt: '2026-06-04T12:00:00.000Z' });
    const failed = await planSchedules([headRecord(a, b, '4'), headRecord(b, { ...b, version: 8, wakeAt: '2026-06-05T12:00:00.000Z' }, '5')], deps);
    expect(failed.batchItemFailures).toEqual([{ itemIdentifier: '4' }, { itemIdentifier: '5' }]);
  });
});

describe('the deadline handler', () => {
  it('does one step per wake, reads again after a race, and refuses what is not a wake', async () => {
    const steps: DeadlineStep[] = [{ done: 'raced' }, { done: 'lapsed', window: 'w1' }];
    const calls: string[] = [];
    const handler = createDeadlineHandler({ deadlineStep: async (gameId) => (calls.push(gameId), steps.shift()!) });
    expect(await handler({ gameId: 'g1', wakeAt: NOW })).toEqual({ done: 'lapsed', window: 'w1' });
    expect(calls).toEqual(['g1', 'g1']);
    await expect(handler({ gameId: 'g1' })).rejects.toThrow(/not a wake/);
    await expect(handler({ gameId: 'g1', wakeAt: NOW, __proto__: { x: 1 }, extra: 1 })).rejects.toThrow(/not a wake/);
    const busy = createDeadlineHandler({ deadlineStep: async () => ({ done: 'raced' }) });
    await expect(busy({ gameId: 'g1', wakeAt: NOW })).rejects.toThrow(/kept changing/);
  });
});
