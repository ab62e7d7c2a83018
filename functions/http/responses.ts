import * as z from 'zod';
import { once } from '../../domain/kernel/once.js';
import { NOTICE_KINDS } from '../notify/decide.js';
import type { Responses, Route } from './types.js';

/**
 * The shapes of the API's replies, as zod schemas. Nothing parses a reply with them: they are
 * what GET /v1/openapi.json describes, and every reply the end-to-end tests receive is checked
 * against that document, so a reply that drifts from these fails a test. Objects are open
 * (z.object: a client must ignore fields it does not know); what an engine decides the shape
 * of (its view, its events' data, its scene) is described per engine where the engine
 * declares a schema, and as any JSON value otherwise.
 *
 * Built on first use (GET /v1/openapi.json, or a test), never at a cold start: a route names
 * its replies with a function of these (`responses: (r) => ({ 200: r.gameView, ...r.errors(404) })`),
 * and serving a request needs none of them (issue 16: building them was about a tenth of the
 * api's cold start).
 */

export const replySchemas = once(() => {
  /** Every error: a namespaced code, a sentence a person understands, and the rule it comes from when there is one. */
  const errorBody = z.strictObject({
    code: z.string().describe("Namespaced, e.g. 'game/not-found', 'combat/target-not-legal'"),
    message: z.string(),
    rule: z.string().optional().describe("The rulebook section or platform rule, e.g. '001 Combat Phase: Target Declaration'"),
  });

  /** The same error body for each status given: `responses: { 200: x, ...errors(404, 409) }`. */
  const errors = (...statuses: number[]): Record<number, typeof errorBody> => Object.fromEntries(statuses.map((s) => [s, errorBody]));

  const visibility = z.union([
    z.object({ to: z.literal('all') }),
    z.object({ to: z.literal('seats'), seats: z.array(z.string()) }),
    z.object({ to: z.literal('side'), side: z.string() }),
    z.object({ to: z.literal('none') }),
  ]);

  const eventEnvelope = z.object({
    gameId: z.string(),
    seq: z.number().int().min(1),
    type: z.string(),
    data: z.unknown(),
    visibility,
    actor: z.string().nullable(),
    player: z.string().nullable(),
    commandId: z.string(),
    at: z.string(),
    prevHash: z.string(),
    salt: z.string().optional(),
    hash: z.string(),
  });

  const decisionWindow = z.object({ id: z.string(), topic: z.string(), blocking: z.boolean(), default: z.object({ type: z.string() }) });

  const pendingEntry = z.object({
    seat: z.string(),
    kind: z.enum(['move', 'sealed', 'reaction']),
    prompt: z.string(),
    window: decisionWindow.optional(),
    player: z.string().nullable(),
    since: z.string().optional(),
    deadline: z.string().optional(),
    away: z.literal(true).optional(),
  });

  const outcome = z.object({ winners: z.array(z.string()), reason: z.string(), score: z.record(z.string(), z.number()).optional() });

  const seatRef = z.object({ id: z.string(), name: z.string(), player: z.string().nullable() });

  const summary = z.object({
    gameId: z.string(),
    engine: z.string(),
    title: z.string(),
    status: z.enum(['open', 'active', 'ended']),
    version: z.number().int(),
    hash: z.string(),
    createdBy: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    seats: z.array(z.object({ id: z.string(), name: z.string(), side: z.string().optional(), player: z.string().nullable(), joined: z.boolean() })),
    timeLimitHours: z.number().optional(),
    windowShare: z.number().optional(),
    pending: z.array(pendingEntry),
    rated: z.literal(true).optional().describe("The result moves both players' ratings"),
    outcome: outcome.optional(),
  });

  /** Each seat's remaining time at the server's time (functions/app/clocks.ts). */
  const seatClock = z.object({
    seat: z.string(),
    name: z.string(),
    player: z.string().nullable(),
    deadline: z.string().optional().describe('When the game waits for this seat: its move deadline'),
    leftMs: z.number().optional().describe('Milliseconds until that deadline (0 once passed)'),
    awayUntil: z
      .union([z.string(), z.literal(true)])
      .optional()
      .describe('Its player is away (clock stopped) until then; true with no end set'),
    moveMs: z.number().optional().describe('Not on move, per-move control: the time its next move gets'),
    bankMs: z.number().optional().describe('Not on move, bank control: what is left in its bank'),
  });

  const standingOrder = z.object({ topic: z.string(), rule: z.string(), params: z.unknown().optional() });

  const gameView = z.object({
    summary,
    seat: z.string().nullable(),
    view: z.unknown().describe("The engine's view for this seat (or a spectator): the View schema of the game's engine (summary.engine; x-engines[].view)"),
    legalCommands: z.array(z.object({ type: z.string() })),
    pending: z.array(pendingEntry),
    drafting: z.object({ steps: z.array(z.unknown()), stepChoices: z.array(z.number()), sealChoices: z.array(z.number()) }).optional(),
    standingOrders: z.array(standingOrder).optional(),
    scene: z.object({}).optional().describe('The same view as a picture (regions, pieces, labels), when the engine draws one'),
    clocks: z.array(seatClock).optional().describe("Each seat's remaining time (a running game with a time control)"),
    log: z
      .object({ events: z.array(eventEnvelope), version: z.number().int(), next: z.number().int().optional() })
      .optional()
      .describe('Asked for with `eventsAfter`: the events after that version you may see, read with the view'),
  });

  /** What every command answers (201 for a new game, 200 otherwise and for a repeated commandId). */
  const commandResult = z.object({
    gameId: z.string(),
    version: z.number().int(),
    duplicate: z.boolean().describe('true: this commandId was applied before; the first result is answered and nothing is appended'),
    events: z.array(eventEnvelope).describe('Only the events the caller may see'),
    next: z.object({ status: z.enum(['open', 'active', 'ended']), yours: z.array(pendingEntry), waitingFor: z.array(pendingEntry), text: z.string() }),
    seats: z.array(seatRef),
    view: gameView
      .optional()
      .describe(
        'Asked for with `view=true`: your view after the command (for a repeated commandId, as of now), what GET /v1/games/{id} answers, so it need not be read again',
      ),
  });

  const eventsPage = z.object({ events: z.array(eventEnvelope), version: z.number().int(), next: z.number().int().optional(), seats: z.array(seatRef) });

  const exportedLog = z.object({
    format: z.literal('fieldpost-log/1'),
    gameId: z.string(),
    version: z.number().int(),
    finalHash: z.string().nullable(),
    events: z.array(eventEnvelope),
  });

  const healthBody = z.object({ ok: z.literal(true), service: z.literal('fieldpost'), time: z.string(), engines: z.array(z.string()) });

  const enginesBody = z.object({
    engines: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        rulesVersion: z.number().int(),
        seats: z.array(z.number().int()),
        sides: z.array(z.object({ id: z.string(), name: z.string() })),
        scenarios: z.object({ option: z.string(), choices: z.array(z.object({ id: z.string(), title: z.string(), description: z.string() })) }).optional(),
        options: z.unknown().describe("The engine's options as JSON Schema"),
        standingOrders: z.array(z.object({ topic: z.string(), rule: z.string(), description: z.string(), params: z.unknown().optional() })),
        drafts: z.boolean(),
      }),
    ),
  });

  const seatFlag = z.object({ id: z.string(), name: z.string(), joined: z.boolean() });

  /** A seat as the inbox names it (functions/projections/project.ts SeatRef). */
  const inboxSeat = z.object({ seat: z.string(), name: z.string(), player: z.string().nullable() });

  const inboxBody = z.object({
    player: z.string(),
    yourMoveCount: z.number().int(),
    games: z.array(
      z.object({
        gameId: z.string(),
        player: z.string(),
        title: z.string(),
        engine: z.string(),
        status: z.enum(['open', 'active', 'ended']),
        version: z
          .number()
          .int()
          .describe(
            'The version of the last append that changed this entry (its status, seats, whose move, outcome or clocks); the game may be at a later one',
          ),
        hash: z.string().describe('The hash of that version'),
        createdBy: z.string(),
        updatedAt: z.string().describe('When that append was made: the listing orders games not waiting for you by it, newest first'),
        seats: z.array(seatFlag),
        invited: z.boolean(),
        yourMove: z.boolean(),
        since: z.string(),
        whoseMove: z.array(
          inboxSeat.extend({
            kind: z.enum(['move', 'sealed', 'reaction']),
            prompt: z.string(),
            since: z.string(),
            sinceVersion: z.number().int(),
            deadline: z.string().optional(),
            leftMs: z.number().optional().describe('Milliseconds until the deadline at the server time (0 once passed)'),
          }),
        ),
        opponents: z.array(inboxSeat),
        outcome: z.object({ winners: z.array(z.string()), reason: z.string(), result: z.string() }).optional(),
        clocks: z.array(seatClock).optional().describe("Each seat's remaining time (a running game with a time control)"),
      }),
    ),
    nextCursor: z.string().nullable(),
  });

  const lobbyBody = z.object({
    games: z.array(
      z.object({
        gameId: z.string(),
        title: z.string(),
        engine: z.string(),
        createdBy: z.string(),
        createdAt: z.string(),
        updatedAt: z.string().describe('When the last append that changed this entry (its seats) was made'),
        version: z.number().int().describe('The version of that append; the game may be at a later one'),
        freeSeats: z.array(z.object({ id: z.string(), name: z.string() })),
        seats: z.array(z.object({})),
        rated: z.literal(true).optional().describe("The result moves both players' ratings"),
      }),
    ),
    nextCursor: z.string().nullable(),
  });

  const settingsReply = z.object({
    email: z.string().nullable(),
    emailVerification: z
      .union([
        z.object({ status: z.literal('verified'), verifiedAt: z.string() }),
        z.object({ status: z.literal('unverified'), resendAfter: z.string().nullable() }),
        z.object({ status: z.enum(['pending', 'expired']), expiresAt: z.string(), resendAfter: z.string().nullable() }),
      ])
      .nullable(),
    webhooks: z.array(
      z.object({
        id: z.string(),
        url: z.string().describe('Masked: chat webhook URLs carry tokens'),
        format: z.enum(['json', 'discord', 'slack']),
        secretHint: z.string(),
        secret: z
          .string()
          .optional()
          .describe('The whsec_ signing secret (Standard Webhooks), in the one reply that made it (a new JSON webhook, or rotateSecret): never shown again'),
        previousSecretUntil: z.string().optional().describe('While a secret is rotated: until then each delivery is signed with the old secret too'),
        disabled: z
          .object({ at: z.string(), reason: z.string() })
          .optional()
          .describe('Switched off by the server (410 Gone, or every attempt of the retry schedule failed); {"id", "enabled": true} switches it on'),
      }),
    ),
    emailOff: z.array(z.enum(NOTICE_KINDS)),
    remindersOff: z.array(z.string()).describe('Reminder levels not sent'),
    digest: z
      .object({ hour: z.number().int(), timeZone: z.string() })
      .nullable()
      .describe('The daily digest: one mail a day at this hour (in this time zone) instead of each "your move" mail; null: off'),
  });

  const resendReply = settingsReply.extend({ mailed: z.boolean(), error: z.string().optional() });

  const unsubscribeReply = z.object({ player: z.string(), kind: z.enum(NOTICE_KINDS), mailed: z.literal(false), message: z.string() });

  const deliveriesReply = z.object({
    deliveries: z.array(
      z.object({
        deliveryId: z.string(),
        noticeKey: z.string(),
        kind: z.string(),
        gameId: z.string(),
        channel: z.enum(['email', 'webhook']),
        channelId: z.string(),
        target: z.string(),
        attempt: z.number().int(),
        ok: z.boolean(),
        status: z.number().int().optional(),
        error: z.string().optional(),
        outcome: z.enum(['sent', 'retrying', 'failed']),
        at: z.string(),
        nextAttemptAt: z.string().optional(),
      }),
    ),
    schedule: z
      .array(z.number())
      .describe('Seconds between the attempts of a webhook delivery: after the last, the webhook is switched off and its owner mailed'),
  });

  /** Shapes several replies share: named components of the document, referenced where they are used. */
  const sharedSchemas: Readonly<Record<string, z.ZodType>> = {
    Error: errorBody,
    Visibility: visibility,
    Event: eventEnvelope,
    Pending: pendingEntry,
    Outcome: outcome,
    GameSummary: summary,
    CommandResult: commandResult,
    GameView: gameView,
    Settings: settingsReply,
  };
  /** GET /v1/openapi.json (the whole document is OpenAPI 3.1's to describe). */
  const openApiDocument = z.looseObject({ openapi: z.literal('3.1.0'), paths: z.record(z.string(), z.unknown()) });

  return {
    errorBody,
    errors,
    openApiDocument,
    eventEnvelope,
    commandResult,
    gameView,
    eventsPage,
    exportedLog,
    healthBody,
    enginesBody,
    inboxBody,
    lobbyBody,
    settingsReply,
    resendReply,
    unsubscribeReply,
    deliveriesReply,
    sharedSchemas,
  };
});
export type ReplySchemas = ReturnType<typeof replySchemas>;

/** A route's replies, with the shared reply schemas built if it names them. */
export const responsesOf = (route: Pick<Route, 'responses'>): Responses =>
  typeof route.responses === 'function' ? route.responses(replySchemas()) : route.responses;
