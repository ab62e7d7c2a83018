import { ConflictException, type CreateScheduleCommand } from '@aws-sdk/client-scheduler';
import { describe, expect, it } from 'vitest';
import { decideTournament } from '../../domain/tournament/decide-tournament.js';
import { evolveTournament, type TournamentCommand, type TournamentState } from '../../domain/tournament/tournament.js';
import { refusal } from '../../functions/app/aggregate.js';
import { LIST_PK } from '../../functions/app/tournament-service.js';
import {
  TOURNAMENT_LIST_PK,
  startScheduleName,
  startWakeFor,
  scheduleName,
  type ScheduleTarget,
  type StartWake,
  type TournamentLine,
} from '../../functions/deadlines/schedules.js';
import { runScheduledStart, staleStart, startCommandId } from '../../functions/deadlines/tournament-starts.js';
import { createDeadlineHandler, tournamentsOnFirstUse } from '../../functions/handlers/deadline.js';
import { createSchedulerHandler } from '../../functions/handlers/scheduler.js';
import { wire } from '../projections/wire.js';
import { SYSTEM, created, director, given, joined } from '../tournament/given.js';

/**
 * A tournament's `startsAt` in AWS, without AWS: which listing-line changes ask for a one-time
 * schedule (the scheduler function, with a fake EventBridge Scheduler client), and what the
 * deadline function does when it fires (a tournament service over the real Decider, in memory):
 * start or cancel at the time; nothing when a director started it earlier, it was cancelled, or
 * its start moved; never early.
 */
const NOW = '2026-11-20T12:00:00.000Z';
const AT = '2026-12-01T18:00:00.000Z';
const LATER = '2026-12-08T18:00:00.000Z';
const target: ScheduleTarget = { group: 'fp-group', functionArn: 'arn:deadline', roleArn: 'arn:role', deadLetterArn: 'arn:dlq' };
const line = (over: Partial<TournamentLine> = {}): TournamentLine => ({ tournamentId: 't1', tstatus: 'open', startsAt: AT, ...over });

describe('which listing lines ask for a scheduled start', () => {
  it('a new open tournament with startsAt, or a moved startsAt; not a join (same start), none, or a started one', () => {
    expect(startWakeFor(undefined, line())).toEqual({ tournamentId: 't1', startsAt: AT });
    expect(startWakeFor(line(), line({ startsAt: LATER }))).toEqual({ tournamentId: 't1', startsAt: LATER });
    expect(startWakeFor(line(), line())).toBeUndefined();
    expect(startWakeFor(undefined, { tournamentId: 't1', tstatus: 'open' })).toBeUndefined();
    expect(startWakeFor(line(), line({ tstatus: 'running' }))).toBeUndefined();
    expect(startWakeFor(line(), line({ tstatus: 'cancelled' }))).toBeUndefined();
  });

  it('names a schedule per tournament and moment, valid for EventBridge Scheduler, apart from games', () => {
    const a = startScheduleName({ tournamentId: 't1', startsAt: AT });
    expect(a).toMatch(/^[0-9a-zA-Z-_.]{1,64}$/);
    expect(startScheduleName({ tournamentId: 't1', startsAt: AT })).toBe(a);
    expect(startScheduleName({ tournamentId: 't1', startsAt: LATER })).not.toBe(a);
    expect(startScheduleName({ tournamentId: 't2', startsAt: AT })).not.toBe(a);
    expect(scheduleName({ gameId: 't1', wakeAt: AT })).not.toBe(a);
  });

  it('reads the same partition the tournament service writes its lines to', () => {
    expect(TOURNAMENT_LIST_PK).toBe(LIST_PK);
  });
});

const lineRecord = (old: TournamentLine | undefined, next: TournamentLine, seq: string, id = 't1') => ({
  eventID: seq,
  eventName: old ? 'MODIFY' : 'INSERT',
  dynamodb: {
    SequenceNumber: seq,
    Keys: { pk: { S: 'TOURNAMENTS' }, sk: { S: `T#${id}` } },
    NewImage: (wire({ pk: 'TOURNAMENTS', sk: `T#${id}`, name: 'Cup', players: 1, ...next }) as { M: Record<string, unknown> }).M,
    ...(old ? { OldImage: (wire({ pk: 'TOURNAMENTS', sk: `T#${id}`, name: 'Cup', players: 0, ...old }) as { M: Record<string, unknown> }).M } : {}),
  },
});

describe('the scheduler function, from the stream', () => {
  it('makes one start schedule per new or moved startsAt, at that time, invoking the deadline function; replays and joins make none', async () => {
    const sent: CreateScheduleCommand[] = [];
    let fail: Error | undefined;
    const scheduler = {
      send: async (c: CreateScheduleCommand) => {
        sent.push(c);
        if (fail) throw fail;
        return {};
      },
    };
    const handler = createSchedulerHandler({ scheduler: scheduler as never, target, clock: { now: () => NOW } });
    const r = await handler({
      Records: [
        lineRecord(undefined, line(), '1'),
        lineRecord(line(), { ...line(), tstatus: 'open' }, '2'),
        lineRecord(line(), line({ startsAt: LATER }), '3'),
        lineRecord(line({ startsAt: LATER }), line({ startsAt: LATER, tstatus: 'running' }), '4'),
      ],
    } as never);
    expect(r.batchItemFailures).toEqual([]);
    expect(sent.map((c) => c.input.Name)).toEqual([
      startScheduleName({ tournamentId: 't1', startsAt: AT }),
      startScheduleName({ tournamentId: 't1', startsAt: LATER }),
    ]);
    expect(sent[0]!.input).toMatchObject({
      GroupName: 'fp-group',
      ScheduleExpression: 'at(2026-12-01T18:00:00)',
      ScheduleExpressionTimezone: 'UTC',
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: 'arn:deadline', RoleArn: 'arn:role', DeadLetterConfig: { Arn: 'arn:dlq' }, Input: JSON.stringify({ tournamentId: 't1', startsAt: AT }) },
    });

    // A schedule that exists already (a replayed record) is success; a throttle fails that line's records, not another tournament's.
    fail = new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} });
    expect((await handler({ Records: [lineRecord(undefined, line(), '5')] } as never)).batchItemFailures).toEqual([]);
    fail = new Error('throttled');
    const failed = await handler({
      Records: [
        lineRecord(undefined, line(), '6'),
        lineRecord(line(), line({ startsAt: LATER }), '7'),
        lineRecord(undefined, line({ tournamentId: 't2' }), '8', 't2'),
      ],
    } as never);
    expect(failed.batchItemFailures).toEqual([{ itemIdentifier: '6' }, { itemIdentifier: '7' }, { itemIdentifier: '8' }]);
    expect(sent.at(-1)!.input.Name).toBe(startScheduleName({ tournamentId: 't2', startsAt: AT }));
  });

  it('reports a malformed line as a failure', async () => {
    const handler = createSchedulerHandler({ scheduler: { send: async () => ({}) } as never, target, clock: { now: () => NOW } });
    const bad = lineRecord(undefined, line(), '9');
    delete (bad.dynamodb.NewImage as Record<string, unknown>)['tstatus'];
    expect((await handler({ Records: [bad] } as never)).batchItemFailures).toEqual([{ itemIdentifier: '9' }]);
  });
});

/** A tournament service over the real Decider, in memory: what the deadline function needs of it. */
function memoryTournaments(initial: TournamentState) {
  let state = initial;
  const commandIds = new Set<string>();
  const appended: string[] = [];
  return {
    get state() {
      return state;
    },
    appended,
    service: {
      state: async () => state,
      system: async (_id: string, command: TournamentCommand, commandId: string) => {
        if (commandIds.has(commandId)) return { state, version: 0, events: [], duplicate: true };
        const r = decideTournament(state, command, SYSTEM);
        if (!r.ok) throw refusal(r.error);
        commandIds.add(commandId);
        state = r.value.reduce(evolveTournament, state);
        appended.push(...r.value.map((e) => e.type));
        return { state, version: 0, events: [], duplicate: false };
      },
    },
  };
}

const rr = { kind: 'round-robin', cycles: 1 } as const;
const wake: StartWake = { tournamentId: 't1', startsAt: AT };
const after = (ms: number) => new Date(Date.parse(AT) + ms).toISOString();

describe('the deadline function at a scheduled start', () => {
  it('starts the tournament at its time, as a director would; a second wake appends nothing', async () => {
    const t = memoryTournaments(given(created(rr, { startsAt: AT }), joined('A'), joined('B'), joined('C')));
    const handler = createDeadlineHandler(
      { deadlineStep: async () => ({ done: 'nothing' }) as never },
      { tournaments: t.service, clock: { now: () => after(400) } },
    );
    expect(await handler(wake)).toEqual({ done: 'started' });
    expect(t.state.status).toBe('running');
    expect(t.appended.slice(0, 2)).toEqual(['TournamentStarted', 'RoundPaired']);
    const count = t.appended.length;
    expect(await handler(wake)).toEqual({ done: 'nothing', why: 'not-open' });
    expect(t.appended).toHaveLength(count);
  });

  it('cancels it, with its reason, when fewer than two players entered', async () => {
    const t = memoryTournaments(given(created(rr, { startsAt: AT }), joined('A')));
    expect(await runScheduledStart(t.service, wake, AT)).toEqual({ done: 'cancelled' });
    expect(t.state.cancelled).toMatch(/too few players/);
  });

  it('is a no-op after a director started it earlier, after a cancellation, and when the start has moved or was removed', async () => {
    const open = given(created(rr, { startsAt: AT }), joined('A'), joined('B'));
    const started = evolveAll(open, decideTournament(open, { type: 'StartTournament' }, director()));
    expect(staleStart(started, wake)).toBe('not-open');
    expect(staleStart({ ...open, status: 'cancelled' }, wake)).toBe('not-open');
    const moved = evolveAll(open, decideTournament(open, { type: 'RescheduleStart', startsAt: LATER }, director()));
    expect(staleStart(moved, wake)).toBe('moved');
    expect(staleStart(moved, { tournamentId: 't1', startsAt: LATER })).toBeUndefined();
    const removed = evolveAll(open, decideTournament(open, { type: 'RescheduleStart', startsAt: null }, director()));
    expect(staleStart(removed, wake)).toBe('moved');
    // The same instant written another way is the same start.
    expect(staleStart(open, { tournamentId: 't1', startsAt: '2026-12-01T18:00:00Z' })).toBeUndefined();

    for (const s of [started, moved, removed]) {
      const t = memoryTournaments(s);
      await runScheduledStart(t.service, wake, after(1000));
      expect(t.appended).toEqual([]);
    }
    // The moved start's own wake starts it.
    const t = memoryTournaments(moved);
    expect(await runScheduledStart(t.service, { tournamentId: 't1', startsAt: LATER }, LATER)).toEqual({ done: 'started' });
  });

  it('never starts early: a wake before its time throws, so EventBridge Scheduler retries it', async () => {
    const t = memoryTournaments(given(created(rr, { startsAt: AT }), joined('A'), joined('B')));
    await expect(runScheduledStart(t.service, wake, after(-1000))).rejects.toThrow(/not yet/);
    expect(t.appended).toEqual([]);
  });

  it('uses one command id per tournament, as the local sweep does', () => {
    expect(startCommandId('t1')).toBe('start-on-schedule:t1');
  });

  it("imports the tournaments' code with its first scheduled start, once, and never for a game's wake", async () => {
    const t = memoryTournaments(given(created(rr, { startsAt: AT }), joined('A'), joined('B')));
    let loads = 0;
    const tournaments = tournamentsOnFirstUse(async () => {
      loads += 1;
      return t.service;
    });
    const handler = createDeadlineHandler({ deadlineStep: async () => ({ done: 'nothing' }) as never }, { tournaments, clock: { now: () => after(400) } });
    expect(await handler({ gameId: 'g1', wakeAt: AT })).toEqual({ done: 'nothing' });
    expect(loads).toBe(0);
    expect(await handler(wake)).toEqual({ done: 'started' });
    expect(await handler(wake)).toEqual({ done: 'nothing', why: 'not-open' });
    expect(loads).toBe(1);
  });

  it('refuses a wake that is neither a game nor a tournament start', async () => {
    const t = memoryTournaments(given(created(rr, { startsAt: AT })));
    const handler = createDeadlineHandler({ deadlineStep: async () => ({ done: 'nothing' }) as never }, { tournaments: t.service, clock: { now: () => AT } });
    await expect(handler({ tournamentId: 't1' })).rejects.toThrow(/not a wake/);
    await expect(handler({ tournamentId: 't1', startsAt: 'tomorrow' })).rejects.toThrow(/not a wake/);
  });
});

function evolveAll(s: TournamentState, r: ReturnType<typeof decideTournament>): TournamentState {
  if (!r.ok) throw new Error(r.error.code);
  return r.value.reduce(evolveTournament, s);
}
