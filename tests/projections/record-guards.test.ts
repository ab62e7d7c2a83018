import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { REMINDER_LEVELS } from '../../domain/kernel/index.js';
import { startWakeSchema, wakeSchema } from '../../functions/deadlines/schedules.js';
import { type Guard } from '../../functions/guards.js';
import { NOTICE_KINDS, notifyJobSchema } from '../../functions/notify/decide.js';
import { streamFailureSchema } from '../../functions/projections/repair.js';
import { gameSummarySchema } from '../../functions/projections/stream-image.js';

/**
 * The records the projector, notifier, digest, scheduler and deadline functions read are checked
 * with functions/guards.ts instead of zod (so those functions load no zod at a cold start). Each
 * guard is held here to the zod schema it replaced, copied as it was: the same records pass, with
 * the same output (undeclared keys dropped or kept alike), and the same records fail, over valid
 * records and every one-field change of them to a value of another type, a boundary or an extra key.
 */

const seat = z.object({ id: z.string(), name: z.string(), side: z.string().optional(), player: z.string().nullable(), joined: z.boolean() });
const pending = z.looseObject({ seat: z.string(), kind: z.enum(['move', 'sealed', 'reaction']), prompt: z.string(), player: z.string().nullable() });
const outcome = z.object({ winners: z.array(z.string()), reason: z.string(), score: z.record(z.string(), z.number()).optional() });
const zodSummary = z.object({
  gameId: z.string().min(1),
  engine: z.string(),
  title: z.string(),
  status: z.enum(['open', 'active', 'ended']),
  version: z.number().int().min(1),
  hash: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  seats: z.array(seat),
  timeLimitHours: z.number().optional(),
  windowShare: z.number().optional(),
  pending: z.array(pending),
  timeControl: z.looseObject({ kind: z.enum(['per-move', 'bank']), days: z.number() }).optional(),
  weekendsOff: z.literal(true).optional(),
  rated: z.literal(true).optional(),
  banks: z.array(z.object({ seat: z.string(), ms: z.number() })).optional(),
  wakeAt: z.string().optional(),
  reminders: z.array(z.object({ seat: z.string(), level: z.enum(REMINDER_LEVELS), seq: z.number().int(), deadline: z.string().optional() })).optional(),
  outcome: outcome.optional(),
});

const seatRef = z.object({ seat: z.string(), name: z.string(), player: z.string().nullable() });
const zodNotice = z.object({
  key: z.string().min(1).max(400),
  kind: z.enum(NOTICE_KINDS),
  gameId: z.string(),
  title: z.string(),
  engine: z.string(),
  player: z.string(),
  seats: z.array(z.string()),
  sides: z.array(z.string()).optional(),
  asked: z.array(
    z.object({ seat: z.string(), name: z.string(), kind: z.enum(['move', 'sealed', 'reaction']), prompt: z.string(), deadline: z.string().optional() }),
  ),
  opponents: z.array(seatRef),
  partners: z.array(seatRef).optional(),
  version: z.number().int(),
  hash: z.string(),
  at: z.string(),
  invitedBy: z.string().optional(),
  clocks: z
    .array(
      z.object({
        seat: z.string(),
        name: z.string(),
        player: z.string().nullable(),
        deadline: z.string().optional(),
        leftMs: z.number().optional(),
        awayUntil: z.union([z.string(), z.literal(true)]).optional(),
        moveMs: z.number().optional(),
        bankMs: z.number().optional(),
      }),
    )
    .optional(),
  tournament: z
    .object({
      tournamentId: z.string(),
      name: z.string(),
      round: z.number().int().optional(),
      about: z.enum(['paired', 'time-out', 'withdrawal', 'cancelled']),
      text: z.string(),
    })
    .optional(),
  reminder: z.object({ level: z.enum(REMINDER_LEVELS), deadline: z.string() }).optional(),
  outcome: z
    .object({
      winners: z.array(z.string()),
      reason: z.string(),
      score: z.record(z.string(), z.number()).optional(),
      result: z.enum(['won', 'lost', 'draw', 'cancelled']),
    })
    .optional(),
});
const zodJob = z.object({ notice: zodNotice, channel: z.string().optional(), attempt: z.number().int().min(1).optional(), dueAt: z.string().optional() });
const zodWake = z.strictObject({ gameId: z.string().min(1).max(100), wakeAt: z.string().min(1).max(40), version: z.number().int().min(1).optional() });
const zodStartWake = z.strictObject({ tournamentId: z.string().min(1).max(300), startsAt: z.iso.datetime() });
const zodFailure = z.object({
  DDBStreamBatchInfo: z.object({
    shardId: z.string().min(1),
    startSequenceNumber: z.string().regex(/^[0-9]+$/),
    endSequenceNumber: z.string().regex(/^[0-9]+$/),
    streamArn: z.string().min(1),
  }),
});

const summary = {
  gameId: 'g1',
  engine: 'spearpoint-1943',
  title: 'Spearpoint',
  status: 'active',
  version: 7,
  hash: 'ab'.repeat(32),
  createdBy: 'alice',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
  seats: [
    { id: 'allies', name: 'Allies', side: 'a', player: 'alice', joined: true },
    { id: 'axis', name: 'Axis', player: null, joined: false },
  ],
  timeLimitHours: 48,
  windowShare: 0.5,
  pending: [{ seat: 'allies', kind: 'move', prompt: 'Give your orders', player: 'alice', since: '2026-11-21T10:00:00.000Z' }],
  timeControl: { kind: 'bank', days: 30, incrementDays: 3 },
  weekendsOff: true,
  rated: true,
  banks: [{ seat: 'allies', ms: 1000 }],
  wakeAt: '2026-11-22T10:00:00.000Z',
  reminders: [{ seat: 'allies', level: '80%', seq: 3, deadline: '2026-11-22T10:00:00.000Z' }],
  outcome: { winners: ['allies'], reason: 'victory points', score: { allies: 12, axis: 4 } },
};
const plainSummary = { ...summary, pending: [], seats: [], timeLimitHours: undefined, outcome: undefined, reminders: undefined };

const notice = {
  key: 'g1#turn#p2#5',
  kind: 'turn',
  gameId: 'g1',
  title: 'Dice Race',
  engine: 'dice-race',
  player: 'bob',
  seats: ['p2'],
  sides: ['Player 2'],
  asked: [{ seat: 'p2', name: 'Player 2', kind: 'move', prompt: 'Roll', deadline: '2026-11-22T10:00:00.000Z' }],
  opponents: [{ seat: 'p1', name: 'Player 1', player: 'alice' }],
  partners: [{ seat: 'p3', name: 'Player 3', player: null }],
  version: 5,
  hash: 'f0'.repeat(32),
  at: '2026-11-21T10:00:00.000Z',
  invitedBy: 'carol',
  clocks: [
    { seat: 'p1', name: 'Player 1', player: 'alice', leftMs: 10, awayUntil: true, moveMs: 5, bankMs: 7 },
    { seat: 'p2', name: 'Player 2', player: null, deadline: '2026-11-22T10:00:00.000Z', awayUntil: '2026-11-23T10:00:00.000Z' },
  ],
  tournament: { tournamentId: 't1', name: 'Cup', round: 2, about: 'paired', text: 'Round 2' },
  reminder: { level: '24h', deadline: '2026-11-22T10:00:00.000Z' },
  outcome: { winners: ['p1'], reason: 'resigned', score: { p1: 1 }, result: 'lost' },
};
const job = { notice, channel: 'email', attempt: 2, dueAt: '2026-11-21T11:00:00.000Z' };

/** Values a field is changed to: every JSON type, boundaries of the checks above, and the enums' members. */
const REPLACEMENTS: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1,
  1.5,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  'x',
  'x'.repeat(41),
  'x'.repeat(101),
  'x'.repeat(301),
  'x'.repeat(401),
  '12',
  '1x',
  'move',
  'bank',
  'won',
  '24h',
  'paired',
  'email',
  '2026-03-01T18:00:00Z',
  '2026-03-01T18:00:00.123Z',
  '2026-02-30T18:00:00Z',
  '2026-03-01T18:00Z',
  '2026-03-01T18:00:00+01:00',
  [],
  ['x'],
  [1],
  {},
  { x: 1 },
];

type Path = readonly (string | number)[];

function paths(v: unknown, at: Path = []): Path[] {
  if (v === null || typeof v !== 'object') return [at];
  const inner = Array.isArray(v) ? v.flatMap((x, i) => paths(x, [...at, i])) : Object.entries(v).flatMap(([k, x]) => paths(x, [...at, k]));
  return [at, ...inner];
}

function changed(root: unknown, path: Path, to: unknown | typeof DELETE): unknown {
  if (path.length === 0) return to === DELETE ? undefined : to;
  const [head, ...rest] = path;
  const copy = (Array.isArray(root) ? [...(root as unknown[])] : { ...(root as object) }) as Record<string | number, unknown>;
  const next = changed(copy[head!], rest, to);
  if (next === undefined && rest.length === 0 && to === DELETE) delete copy[head!];
  else copy[head!] = next;
  return copy;
}
const DELETE = Symbol('delete');

/** Every record: the valid ones, each field deleted or changed to each replacement, and an extra key on each object. */
function variants(valid: readonly unknown[]): unknown[] {
  const out: unknown[] = [...valid, undefined, null, 'x', []];
  for (const v of valid)
    for (const p of paths(v)) {
      out.push(changed(v, p, DELETE));
      for (const r of REPLACEMENTS) out.push(changed(v, p, r));
      out.push(changed(v, [...p, 'extra'], 1));
    }
  return out;
}

function holdsTo(guard: Guard<unknown>, schema: z.ZodType, valid: readonly unknown[]): number {
  let failures = 0;
  for (const record of variants(valid)) {
    const mine = guard.safeParse(record);
    const theirs = schema.safeParse(record);
    expect([record, mine.success]).toEqual([record, theirs.success]);
    if (mine.success && theirs.success) expect(mine.data).toEqual(theirs.data);
    else failures += 1;
  }
  return failures;
}

describe('record guards hold to the zod schemas they replaced', () => {
  it('a game summary on HEAD', () => {
    expect(holdsTo(gameSummarySchema, zodSummary, [summary, plainSummary])).toBeGreaterThan(100);
    // Undeclared keys are dropped from the summary and its seats, and kept on a pending entry.
    const parsed = gameSummarySchema.parse({ ...summary, stray: 1 });
    expect('stray' in parsed).toBe(false);
    expect(parsed.pending[0]).toHaveProperty('since');
  });

  it('a notification job', () => {
    expect(holdsTo(notifyJobSchema, zodJob, [job, { notice: { ...notice, clocks: [], partners: undefined } }])).toBeGreaterThan(100);
  });

  it('a wake, a tournament start and a failed stream batch', () => {
    expect(holdsTo(wakeSchema, zodWake, [{ gameId: 'g1', wakeAt: '2026-11-22T10:00:00.000Z', version: 3 }])).toBeGreaterThan(20);
    expect(holdsTo(startWakeSchema, zodStartWake, [{ tournamentId: 't1', startsAt: '2026-11-22T10:00:00Z' }])).toBeGreaterThan(20);
    const failure = { DDBStreamBatchInfo: { shardId: 's', startSequenceNumber: '12', endSequenceNumber: '13', streamArn: 'arn' }, requestContext: {} };
    expect(holdsTo(streamFailureSchema, zodFailure, [failure])).toBeGreaterThan(20);
  });

  it('parse throws with the path and the reason', () => {
    expect(() => wakeSchema.parse({ gameId: 'g1', wakeAt: 7 })).toThrow('wakeAt: Invalid input: expected string, received number');
    expect(() => wakeSchema.parse({ gameId: 'g1', wakeAt: 'now', extra: 1 })).toThrow('Unrecognized key: "extra"');
  });
});
