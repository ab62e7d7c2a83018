import * as z from '../kernel/zod-mini.js';
import { timeControlSchema } from '../kernel/time-control.js';

/**
 * A tournament's commands (tournament.ts is the Decider). The schema checks a tournament's
 * creation (functions/app/tournament-service.ts imports this module with the first one it
 * creates); the other commands reach the Decider typed, from the HTTP edge's own schemas or from
 * the system. A module of its own so the tournaments function, which creates none, loads no zod
 * at a cold start (issue 16).
 */

export const formatSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('round-robin'), cycles: z._default(z.union([z.literal(1), z.literal(2)]), 1) }),
  z.strictObject({ kind: z.literal('swiss'), rounds: z.int().check(z.minimum(1), z.maximum(30)) }),
  z.strictObject({ kind: z.literal('single-elimination') }),
]);
export type Format = z.infer<typeof formatSchema>;

const player = z.string().check(z.minLength(1), z.maxLength(200));
const reason = z.string().check(z.minLength(1), z.maxLength(500));

export const tournamentCommandSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('CreateTournament'),
    tournamentId: z.string().check(z.minLength(1), z.maxLength(200)),
    /** null: a tournament of its own, run by whoever created it, open to anyone. */
    clubId: z.nullable(z.string().check(z.minLength(1), z.maxLength(200))),
    name: z.string().check(z.minLength(1), z.maxLength(200)),
    engine: z.string().check(z.minLength(1), z.maxLength(100)),
    format: formatSchema,
    rated: z._default(z.boolean(), true),
    maxPlayers: z.optional(z.int().check(z.minimum(2), z.maximum(4096))),
    /**
     * Options every game of the event is created with (the engine's own options; a club's
     * engine data is named here, e.g. Spearpoint's `catalog`, and resolved when games are made).
     */
    gameOptions: z.optional(z.record(z.string(), z.unknown())),
    /** Hours a seat may leave a game unchanged (the kernel's timeLimitHours); the club's default otherwise. */
    timeLimitHours: z.optional(z.int().check(z.minimum(1), z.maximum(24 * 60))),
    /** The games' correspondence clock (the kernel's time control), instead of timeLimitHours. */
    timeControl: z.optional(timeControlSchema()),
    /** When the tournament starts itself (ISO-8601; StartOnSchedule at that time); a director may still start it earlier. */
    startsAt: z.optional(z.iso.datetime()),
  }),
  z.strictObject({ type: z.literal('JoinTournament'), player, rating: z.number() }),
  z.strictObject({ type: z.literal('WithdrawPlayer'), player, reason }),
  z.strictObject({ type: z.literal('StartTournament') }),
  /** The system's start at `startsAt` (`at`: the clock's time now): starts with two players or more, otherwise cancels. */
  z.strictObject({ type: z.literal('StartOnSchedule'), at: z.iso.datetime() }),
  /** A director moves (or, with null, removes) the scheduled start of an open tournament. */
  z.strictObject({ type: z.literal('RescheduleStart'), startsAt: z.nullable(z.iso.datetime()) }),
  z.strictObject({ type: z.literal('BindGame'), pairingId: z.string().check(z.minLength(1)), gameId: z.string().check(z.minLength(1)) }),
  z.strictObject({ type: z.literal('RecordResult'), gameId: z.string().check(z.minLength(1)), winner: z.nullable(player) }),
  z.strictObject({ type: z.literal('Adjudicate'), pairingId: z.string().check(z.minLength(1)), winner: z.nullable(player), reason }),
  z.strictObject({ type: z.literal('Forfeit'), pairingId: z.string().check(z.minLength(1)), loser: player, reason }),
]);
export type TournamentCommand = z.infer<typeof tournamentCommandSchema>;
