import { MAX_DRAFT_STEPS, MAX_STANDING_ORDERS, MAX_TIME_LIMIT_HOURS, MIN_TIME_LIMIT_HOURS } from '../../domain/kernel/index.js';
import * as z from 'zod';
import { PLAYER_ID } from './auth.js';

/** Shapes accepted at the edge. Engines validate options and commands themselves. */
/** A parsed body's fields, with optional ones that were absent left out (not set to undefined). */
export type Present<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** Drops the absent optional fields of a parsed body, so it can be handed on as it is. */
export function present<T extends object>(body: T): Present<T> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as Present<T>;
}

export const commandId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces');
export const gameId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _');
export const seat = z.string().min(1).max(32);
export const entropy = z.string().max(256);
export const playerId = z.string().regex(PLAYER_ID, 'a player id: letters, digits and . _ @ + -, at most 128');
export const engineId = z.string().min(1).max(64);

export const gameParams = z.object({ id: gameId });

export const createBody = z.strictObject({
  engine: engineId,
  options: z.unknown().optional(),
  reserve: z.record(seat, playerId).optional(),
  seat: seat.optional(),
  entropy: entropy.optional(),
  /** Time control: hours a seat may leave the game waiting before the others may claim it. */
  timeLimitHours: z.number().int().min(MIN_TIME_LIMIT_HOURS).max(MAX_TIME_LIMIT_HOURS).optional(),
  /** How long seats may take: {kind: 'per-move', days} or {kind: 'bank', days, incrementDays}; the kernel checks it (400 game/bad-time-control). */
  timeControl: z.unknown().optional(),
  /** Clocks stand still on Saturdays and Sundays (UTC). */
  weekendsOff: z.boolean().optional(),
  /** The share of the time limit a decision window stays open (0 < share <= 1; a quarter by default). */
  windowShare: z.number().gt(0).max(1).optional(),
  /** A casual game that counts for both players' Glicko-2 ratings when it ends (two-player games only; 422 game/rated-needs-two otherwise). */
  rated: z.boolean().optional(),
  /** A finished game of the same engine you played in: its final state (e.g. the map) is added to `options` at create (400/403/404/409 carry-over/… otherwise). */
  carryOverFrom: gameId.optional(),
  commandId,
});

export const joinBody = z.strictObject({ seat: seat.optional(), entropy: entropy.optional(), commandId });

/** Any object with a string `type`: the engine's command schema judges the rest (422 if wrong). */
export const command = z.looseObject({ type: z.string().min(1).max(64) });

/** The steps of an order drafted in private; the engine judges each one. */
export const draftSteps = z.array(command).max(MAX_DRAFT_STEPS);

export const commandBody = z.strictObject({
  commandId,
  command,
  seat: seat.optional(),
  expectedVersion: z.number().int().min(0).optional(),
  /** Steps drafted with /preview, sealed by `command`. */
  draft: draftSteps.optional(),
});

export const previewBody = z.strictObject({ steps: draftSteps, seat: seat.optional() });

export const resignBody = z.strictObject({ commandId, seat: seat.optional() });
export const cancelBody = z.strictObject({ commandId });
export const claimBody = z.strictObject({ commandId, seat: seat.optional() });
/** The engine checks each order against the rules it offers (GET /v1/engines lists them). */
export const standingOrdersBody = z.strictObject({
  commandId,
  seat: seat.optional(),
  orders: z
    .array(z.strictObject({ topic: z.string().min(1).max(64), rule: z.string().min(1).max(64), params: z.unknown().optional() }))
    .max(MAX_STANDING_ORDERS),
});
export const lapseBody = z.strictObject({ commandId, seat: seat.optional(), window: z.string().min(1).max(128) });

const intParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

// Query strings tolerate unknown parameters (cache-busters, tracking); bodies do not.
export const viewQuery = z.object({ seat: seat.optional() });
/** Every command route: `view=true` asks for the sender's view after the command in the reply. */
export const commandQuery = z.object({
  view: z.enum(['true', 'false']).optional().describe('true: the reply carries your view after the command (`view`), so the game need not be read again'),
});
/** GET /v1/games/{id}: `eventsAfter` also asks for the events after that version (a page opening the game reads both at once). */
export const gameViewQuery = viewQuery.extend({
  eventsAfter: intParam(0, 1e9)
    .optional()
    .describe('Also answer the events after this version that you may see (`log`, up to 1,000; `log.next` when more follow)'),
});
export const eventsQuery = z.object({ after: intParam(0, 1e9).optional(), limit: intParam(1, 1000).optional(), seat: seat.optional() });
