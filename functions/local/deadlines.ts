import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../ports.js';
import { createTournamentWorld } from '../app/tournament-reactor.js';
import { runScheduledStart } from '../deadlines/tournament-starts.js';
import type { RuntimeContext, RuntimeExtension, Stoppable } from './runtime.js';

/**
 * Deadlines on your machine: the scheduler's part of the local runtime. Every few seconds it
 * looks at the games waiting on someone (their HEAD items) and asks the service to run every
 * deadline that has passed (lapse a window, end a game on time, send a reminder), one step at a
 * time as the scheduler's handler does in AWS (functions/handlers/deadline.ts). The clock it reads is the runtime's, which POST /local/clock moves forward.
 */

/** A clock that runs with the wall clock (or another) and can be moved forward, never back. */
export interface LocalClock extends Clock {
  advance(ms: number): string;
}

export function localClock(base: Clock = { now: () => new Date().toISOString() }): LocalClock {
  let offset = 0;
  const now = () => new Date(Date.parse(base.now()) + offset).toISOString();
  return {
    now,
    advance(ms) {
      offset += Math.max(0, ms);
      return now();
    },
  };
}

/** The games whose next deadline or reminder (the summary's wakeAt) has passed. */
async function gamesDue(ctx: RuntimeContext, now: string): Promise<string[]> {
  /** By game: its newest head (HEAD, or the append layout's newest HEAD# item). */
  const newest = new Map<string, { sk: string; status?: string; wakeAt?: string }>();
  const doc = DynamoDBDocumentClient.from(ctx.client);
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({
        TableName: ctx.tableName,
        FilterExpression: 'begins_with(pk, :game) AND begins_with(sk, :head)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':game': 'GAME#', ':head': 'HEAD' },
        ProjectionExpression: 'pk, sk, #status, wakeAt, summary',
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const item of page.Items ?? []) {
      // The game's id is in pk (the tip layout's HEAD stores it nowhere else).
      // wakeAt: an attribute of a HEAD# item (the append layout), in the summary of an older layout's HEAD.
      const {
        pk,
        sk,
        status,
        summary,
        wakeAt = summary?.wakeAt,
      } = item as { pk: string; sk: string; status?: string; wakeAt?: string; summary?: { wakeAt?: string } };
      const gameId = pk.slice('GAME#'.length);
      const seen = newest.get(gameId);
      if (!seen || sk > seen.sk) newest.set(gameId, { sk, ...(status !== undefined ? { status } : {}), ...(wakeAt !== undefined ? { wakeAt } : {}) });
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return [...newest].filter(([, h]) => h.status === 'active' && h.wakeAt !== undefined && Date.parse(h.wakeAt) <= Date.parse(now)).map(([gameId]) => gameId);
}

/**
 * Open tournaments whose `startsAt` has passed start themselves, as the deadline function does
 * at their schedule in AWS (functions/deadlines/tournament-starts.ts): started with two players
 * or more, cancelled with its reason otherwise. The command id is fixed, so a second sweep, or
 * a director's start in between, changes nothing.
 */
async function startScheduledTournaments(ctx: RuntimeContext, now: string): Promise<string[]> {
  const { tournaments } = createTournamentWorld({
    client: ctx.client,
    tableName: ctx.tableName,
    engines: ctx.deps.engines,
    clock: ctx.deps.clock,
    games: ctx.deps.service,
  });
  const started: string[] = [];
  for (const t of await tournaments.list({ status: 'open' })) {
    if (t.startsAt === undefined || Date.parse(t.startsAt) > Date.parse(now)) continue;
    try {
      const step = await runScheduledStart(tournaments, { tournamentId: t.tournamentId, startsAt: t.startsAt }, now);
      if (step.done === 'nothing') continue;
      started.push(t.tournamentId);
      ctx.log(`[deadlines] tournament ${t.tournamentId}: ${step.done === 'cancelled' ? 'cancelled (too few players)' : 'started on schedule'}`);
    } catch (e) {
      ctx.log(`[deadlines] tournament ${t.tournamentId}: ${(e as Error).message}`);
    }
  }
  return started;
}

/** Runs every passed deadline once now (games' and tournaments' scheduled starts); answers the games and tournaments it changed. */
export async function sweepDeadlines(ctx: RuntimeContext, clock: Clock): Promise<string[]> {
  const changed: string[] = await startScheduledTournaments(ctx, clock.now());
  for (const gameId of await gamesDue(ctx, clock.now())) {
    try {
      const r = await ctx.deps.service.runDeadlines(gameId);
      if (r.lapsed.length || r.timedOut || r.reminded.length) changed.push(gameId);
      for (const x of r.reminded) ctx.log(`[deadlines] ${gameId}: reminded ${x}`);
      for (const w of r.lapsed) ctx.log(`[deadlines] ${gameId}: window ${w} lapsed to its default`);
      if (r.timedOut) ctx.log(`[deadlines] ${gameId}: ended on time`);
    } catch (e) {
      ctx.log(`[deadlines] ${gameId}: ${(e as Error).message}`);
    }
  }
  return changed;
}

/** The sweep under way in each runtime, so sweeps run one at a time (see oneSweepAtATime). */
const sweeps = new WeakMap<RuntimeContext, Promise<unknown>>();

/**
 * Runs `sweep` after any sweep under way in this runtime has finished. POST /local/clock moves the
 * clock and sweeps inside one call of this: a periodic sweep can then not run between the two
 * and take the deadlines the clock move was asked to report.
 */
export function oneSweepAtATime<T>(ctx: RuntimeContext, sweep: () => Promise<T>): Promise<T> {
  const next = (sweeps.get(ctx) ?? Promise.resolve()).then(sweep);
  sweeps.set(
    ctx,
    next.catch((e: unknown) => ctx.log(`[deadlines] the sweep failed: ${(e as Error).message}`)),
  );
  return next;
}

/** The sweep every `everyMs` (default 5 s), as an extension of the local runtime. */
export const deadlinesExtension =
  (everyMs = 5_000): RuntimeExtension =>
  async (ctx): Promise<Stoppable> => {
    let running: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      running = oneSweepAtATime(ctx, () => sweepDeadlines(ctx, ctx.deps.clock)).catch(() => undefined);
    }, everyMs);
    return {
      name: 'deadline scheduler',
      stop: async () => {
        clearInterval(timer);
        await running;
      },
    };
  };
