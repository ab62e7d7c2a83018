import { MAX_DRAFT_STEPS, MAX_STANDING_ORDERS, MAX_TIME_LIMIT_HOURS, MIN_TIME_LIMIT_HOURS } from '../../domain/kernel/index.js';
import * as z from '../../domain/kernel/zod-mini.js';
import { PLAYER_ID } from './auth.js';
import { LIMIT_NAMES } from './limit-names.js';

/**
 * Shapes accepted at the edge. Engines validate options and commands themselves. Those a game's
 * requests use are checked by functions generated from these (functions/http/edge-checks.ts), and
 * explained by these when the checks refuse a request (functions/http/edge.ts).
 */

export const commandId = z.string().check(z.minLength(1), z.maxLength(128), z.regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces'));
export const gameId = z.string().check(z.minLength(1), z.maxLength(100), z.regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _'));
export const seat = z.string().check(z.minLength(1), z.maxLength(32));
export const entropy = z.string().check(z.maxLength(256));
export const playerId = z.string().check(z.regex(PLAYER_ID, 'a player id: letters, digits and . _ @ + -, at most 128'));
export const engineId = z.string().check(z.minLength(1), z.maxLength(64));

export const gameParams = z.object({ id: gameId });

export const createBody = z.strictObject({
  engine: engineId,
  options: z.optional(z.unknown()),
  reserve: z.optional(z.record(seat, playerId)),
  seat: z.optional(seat),
  entropy: z.optional(entropy),
  /** Time control: hours a seat may leave the game waiting before the others may claim it. */
  timeLimitHours: z.optional(z.int().check(z.minimum(MIN_TIME_LIMIT_HOURS), z.maximum(MAX_TIME_LIMIT_HOURS))),
  /** How long seats may take: {kind: 'per-move', days} or {kind: 'bank', days, incrementDays}; the kernel checks it (400 game/bad-time-control). */
  timeControl: z.optional(z.unknown()),
  /** Clocks stand still on Saturdays and Sundays (UTC). */
  weekendsOff: z.optional(z.boolean()),
  /** The share of the time limit a decision window stays open (0 < share <= 1; a quarter by default). */
  windowShare: z.optional(z.number().check(z.gt(0), z.maximum(1))),
  /** A casual game that counts for both players' Glicko-2 ratings when it ends (two-player games only; 422 game/rated-needs-two otherwise). */
  rated: z.optional(z.boolean()),
  /** A finished game of the same engine you played in: its final state (e.g. the map) is added to `options` at create (400/403/404/409 carry-over/… otherwise). */
  carryOverFrom: z.optional(gameId),
  commandId,
});

export const joinBody = z.strictObject({ seat: z.optional(seat), entropy: z.optional(entropy), commandId });

/** Any object with a string `type`: the engine's command schema judges the rest (422 if wrong). */
export const command = z.looseObject({ type: z.string().check(z.minLength(1), z.maxLength(64)) });

/** The steps of an order drafted in private; the engine judges each one. */
export const draftSteps = z.array(command).check(z.maxLength(MAX_DRAFT_STEPS));

export const commandBody = z.strictObject({
  commandId,
  command,
  seat: z.optional(seat),
  expectedVersion: z.optional(z.int().check(z.minimum(0))),
  /** Steps drafted with /preview, sealed by `command`. */
  draft: z.optional(draftSteps),
});

export const previewBody = z.strictObject({ steps: draftSteps, seat: z.optional(seat) });

export const resignBody = z.strictObject({ commandId, seat: z.optional(seat) });
export const cancelBody = z.strictObject({ commandId });
export const claimBody = z.strictObject({ commandId, seat: z.optional(seat) });
/** The engine checks each order against the rules it offers (GET /v1/engines lists them). */
export const standingOrdersBody = z.strictObject({
  commandId,
  seat: z.optional(seat),
  orders: z
    .array(
      z.strictObject({
        topic: z.string().check(z.minLength(1), z.maxLength(64)),
        rule: z.string().check(z.minLength(1), z.maxLength(64)),
        params: z.optional(z.unknown()),
      }),
    )
    .check(z.maxLength(MAX_STANDING_ORDERS)),
});
export const lapseBody = z.strictObject({ commandId, seat: z.optional(seat), window: z.string().check(z.minLength(1), z.maxLength(128)) });

const intParam = (min: number, max: number) =>
  z.pipe(z.pipe(z.string().check(z.regex(/^\d{1,9}$/, 'a whole number')), z.transform(Number)), z.int().check(z.minimum(min), z.maximum(max)));

// Query strings tolerate unknown parameters (cache-busters, tracking); bodies do not.
export const viewQuery = z.object({ seat: z.optional(seat) });
/** Every command route: `view=true` asks for the sender's view after the command in the reply. */
export const commandQuery = z.object({
  view: z
    .optional(z.enum(['true', 'false']))
    .check(z.describe('true: the reply carries your view after the command (`view`), so the game need not be read again')),
});
/** GET /v1/games/{id}: `eventsAfter` also asks for the events after that version (a page opening the game reads both at once). */
export const gameViewQuery = z.extend(viewQuery, {
  eventsAfter: z
    .optional(intParam(0, 1e9))
    .check(z.describe('Also answer the events after this version that you may see (`log`, up to 1,000; `log.next` when more follow)')),
});
export const eventsQuery = z.object({ after: z.optional(intParam(0, 1e9)), limit: z.optional(intParam(1, 1000)), seat: z.optional(seat) });

/** FIELDPOST_LIMITS (functions/http/limits.ts): some of the limits, each with a new max and perhaps a new window. */
export const limitsOverride = z.partialRecord(
  z.enum(LIMIT_NAMES),
  z.strictObject({ max: z.int().check(z.minimum(1)), windowSeconds: z.optional(z.int().check(z.minimum(1))) }),
);
