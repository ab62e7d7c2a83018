import * as z from 'zod';
import { timeControlSchema } from '../../domain/kernel/index.js';
import { clubSettingsSchema } from '../../domain/tournament/club-commands.js';
import { commandId, engineId, gameId, playerId, seat } from './schemas.js';

/**
 * Requests and replies of the club, tournament and rating routes. Reply schemas are what the
 * API document describes (objects open: a client ignores fields it does not know).
 */

// ---------------------------------------------------------------------------------------------
// Requests

/** Club and tournament ids are derived (22 URL-safe characters); anything else is simply not found. */
export const streamId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _');
export const clubParams = z.object({ id: streamId });
export const memberParams = z.object({ id: streamId, player: playerId });
export const engineDataParams = z.object({ id: streamId, engine: engineId, name: z.string().min(1).max(100) });
export const tournamentParams = z.object({ id: streamId });
export const playerParams = z.object({ id: playerId });

const joinCode = z.string().min(6).max(100);
const reason = z.string().min(1).max(500);

export const createClubBody = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().max(5000).optional(),
  joinCode: joinCode.optional(),
  commandId: z.optional(commandId),
});
export const joinClubBody = z.strictObject({ joinCode, commandId: z.optional(commandId) });
export const joinCodeBody = z.strictObject({ joinCode: joinCode.nullable() });
export const inviteBody = z.strictObject({ player: playerId, role: z.enum(['director', 'member']).optional() });
export const roleBody = z.strictObject({ role: z.enum(['owner', 'director', 'member']) });
export const removeBody = z.strictObject({ reason: reason.optional() });
export const settingsBody = z.strictObject({ settings: clubSettingsSchema });
/** Engine data: options of the engine stored under a name, such as {"catalog": {...}} for Spearpoint. */
export const engineDataBody = z.strictObject({ data: z.record(z.string(), z.unknown()) });
export const emptyBody = z.strictObject({ commandId: z.optional(commandId) });

export const clubGameBody = z.strictObject({
  engine: engineId,
  options: z.record(z.string(), z.unknown()).optional(),
  /** The club's engine data of that name (GET /v1/clubs/{id} lists them), under `options`. */
  engineData: z.string().min(1).max(100).optional(),
  seat: z.optional(seat),
  reserve: z.record(seat, playerId).optional(),
  timeControl: z.optional(timeControlSchema()),
  /** Counts for both players' ratings when it ends (two-player games). */
  rated: z.boolean().optional(),
  commandId,
});

export const createTournamentBody = z.strictObject({
  club: streamId.optional(),
  name: z.string().min(1).max(200),
  engine: engineId,
  options: z.record(z.string(), z.unknown()).optional(),
  engineData: z.string().min(1).max(100).optional(),
  format: z.enum(['round-robin', 'swiss', 'single-elimination']),
  /** Swiss: the number of rounds. */
  rounds: z.number().int().min(1).max(30).optional(),
  /** Round robin: 2 for a double round robin (each pair plays both sides). */
  cycles: z.union([z.literal(1), z.literal(2)]).optional(),
  timeControl: z.optional(timeControlSchema()),
  rated: z.boolean().optional(),
  maxPlayers: z.number().int().min(2).max(4096).optional(),
  startsAt: z.iso.datetime().optional(),
  commandId: z.optional(commandId),
});
/** A new scheduled start (ISO-8601, in the future), or null to remove it. */
export const rescheduleBody = z.strictObject({ startsAt: z.iso.datetime().nullable(), commandId: z.optional(commandId) });
export const withdrawBody = z.strictObject({ player: z.optional(playerId), reason: reason.optional(), commandId: z.optional(commandId) });
export const adjudicateBody = z.strictObject({ pairingId: z.string().min(1).max(300), winner: z.nullable(playerId), reason, commandId: z.optional(commandId) });
export const forfeitBody = z.strictObject({ pairingId: z.string().min(1).max(300), loser: playerId, reason, commandId: z.optional(commandId) });
export const tournamentsQuery = z.object({ club: streamId.optional(), status: z.enum(['open', 'running', 'finished', 'cancelled']).optional() });
export const ratingsQuery = z.object({ engine: engineId });

// ---------------------------------------------------------------------------------------------
// Replies

export const errorReply = z.object({ code: z.string(), message: z.string(), rule: z.string().optional() });
export const errors = (...statuses: number[]): Record<number, typeof errorReply> => Object.fromEntries(statuses.map((s) => [s, errorReply]));

const role = z.enum(['owner', 'director', 'member']);
export const clubReply = z.object({
  clubId: z.string(),
  name: z.string(),
  description: z.string(),
  members: z.array(z.object({ player: z.string(), role })),
  settings: clubSettingsSchema,
  engineData: z.array(z.object({ engine: z.string(), name: z.string(), hash: z.string() })),
  invitations: z.array(z.object({ player: z.string(), role: z.enum(['director', 'member']) })).optional(),
  joinCodeSet: z.boolean().optional(),
});
export const membersReply = z.object({ clubId: z.string(), members: z.array(z.object({ player: z.string(), role })) });
export const clubGamesReply = z.object({
  clubId: z.string(),
  games: z.array(
    z.object({
      gameId: z.string(),
      engine: z.string(),
      createdBy: z.string(),
      createdAt: z.string(),
      tournamentId: z.string().optional(),
      rated: z.boolean().optional(),
    }),
  ),
});
export const clubGameReply = z.object({
  clubId: z.string(),
  gameId: z.string(),
  version: z.number().int(),
  duplicate: z.boolean(),
  events: z.array(z.unknown()),
  next: z.unknown(),
  seats: z.array(z.unknown()),
});

const result = z.object({
  points: z.tuple([z.number(), z.number()]),
  winner: z.string().nullable(),
  how: z.enum(['played', 'forfeit', 'adjudicated']),
  reason: z.string().optional(),
});
const standing = z.object({
  rank: z.number().int(),
  player: z.string(),
  points: z.number(),
  played: z.number().int(),
  wins: z.number().int(),
  draws: z.number().int(),
  losses: z.number().int(),
  byes: z.number().int(),
  tiebreaks: z.object({
    headToHead: z.number().optional(),
    sonnebornBerger: z.number().optional(),
    buchholz: z.number().optional(),
    medianBuchholz: z.number().optional(),
  }),
  roundReached: z.number().int().optional(),
  withdrawn: z.boolean().optional(),
});
export const tournamentReply = z.object({
  tournamentId: z.string(),
  clubId: z.string().nullable(),
  name: z.string(),
  engine: z.string(),
  format: z.object({ kind: z.enum(['round-robin', 'swiss', 'single-elimination']), cycles: z.number().optional(), rounds: z.number().optional() }),
  rated: z.boolean(),
  status: z.enum(['open', 'running', 'finished', 'cancelled']),
  cancelled: z.string().optional(),
  maxPlayers: z.number().int().optional(),
  gameOptions: z.record(z.string(), z.unknown()).optional(),
  timeLimitHours: z.number().optional(),
  timeControl: z.optional(timeControlSchema()),
  startsAt: z.string().optional(),
  players: z.array(
    z.object({
      player: z.string(),
      rating: z.number(),
      seed: z.number().int().optional(),
      withdrawn: z.object({ round: z.number(), reason: z.string() }).optional(),
    }),
  ),
  rounds: z.array(
    z.object({
      round: z.number().int(),
      pairings: z.array(
        z.object({
          pairingId: z.string(),
          board: z.number().int(),
          seats: z.tuple([z.string(), z.string()]),
          gameId: z.optional(gameId),
          result: result.optional(),
        }),
      ),
      byes: z.array(z.object({ player: z.string(), points: z.number() })),
    }),
  ),
  standings: z.array(standing),
});
export const tournamentListReply = z.object({
  tournaments: z.array(
    z.object({
      tournamentId: z.string(),
      clubId: z.string().nullable(),
      name: z.string(),
      engine: z.string(),
      format: z.string(),
      status: z.enum(['open', 'running', 'finished', 'cancelled']),
      players: z.number().int(),
    }),
  ),
});
const glicko = { rating: z.number(), deviation: z.number(), volatility: z.number() };
export const playerReply = z.object({
  player: z.string(),
  ratings: z.array(
    z.object({
      engine: z.string(),
      player: z.string(),
      ...glicko,
      games: z.number().int(),
      provisional: z.boolean(),
      history: z.array(z.object({ gameId: z.string(), at: z.string(), ...glicko })),
    }),
  ),
});
export const leaderboardReply = z.object({
  engine: z.string(),
  entries: z.array(z.object({ rank: z.number().int(), player: z.string(), ...glicko, games: z.number().int(), provisional: z.boolean() })),
});
