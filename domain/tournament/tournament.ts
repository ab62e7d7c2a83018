import * as z from 'zod';
import { assertNever, violation, type RuleViolation } from '../kernel/errors.js';
import { err, ok, type Result } from '../kernel/result.js';
import { advancing, eliminationPlaces, firstLineup } from './elimination.js';
import { orderSides, type PlayerId, type RoundPlan, type Side } from './pairing.js';
import { roundRobinSchedule } from './round-robin.js';
import { computeStandings, type ByeScore, type GameScore, type Standing } from './standings.js';
import { pairSwiss, type SwissEntrant } from './swiss.js';
import type { ClubRole } from './club.js';
import { timeControlSchema, type TimeControl } from '../kernel/clock.js';

/**
 * A tournament as a Decider. Commands come from players and directors (through the API) and
 * from the system (a game's end, a timeout); events are the truth. When a round's last result
 * arrives, `decide` pairs the next round (or finishes the event) in the same batch of events,
 * so the application layer only turns each `GameWanted` into a game and reports back the
 * game's id (`BindGame`) and, later, its result (`RecordResult`).
 */

// ---------------------------------------------------------------------------------------------
// Vocabulary

export const formatSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('round-robin'), cycles: z.union([z.literal(1), z.literal(2)]).default(1) }).strict(),
  z.object({ kind: z.literal('swiss'), rounds: z.number().int().min(1).max(30) }).strict(),
  z.object({ kind: z.literal('single-elimination') }).strict(),
]);
export type Format = z.infer<typeof formatSchema>;

const player = z.string().min(1).max(200);
const reason = z.string().min(1).max(500);

export const tournamentCommandSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('CreateTournament'),
      tournamentId: z.string().min(1).max(200),
      /** null: a tournament of its own, run by whoever created it, open to anyone. */
      clubId: z.string().min(1).max(200).nullable(),
      name: z.string().min(1).max(200),
      engine: z.string().min(1).max(100),
      format: formatSchema,
      rated: z.boolean().default(true),
      maxPlayers: z.number().int().min(2).max(4096).optional(),
      /**
       * Options every game of the event is created with (the engine's own options; a club's
       * engine data is named here, e.g. Spearpoint's `catalog`, and resolved when games are made).
       */
      gameOptions: z.record(z.string(), z.unknown()).optional(),
      /** Hours a seat may leave a game unchanged (the kernel's timeLimitHours); the club's default otherwise. */
      timeLimitHours: z
        .number()
        .int()
        .min(1)
        .max(24 * 60)
        .optional(),
      /** The games' correspondence clock (the kernel's time control), instead of timeLimitHours. */
      timeControl: timeControlSchema.optional(),
      /** When the tournament starts itself (ISO-8601; StartOnSchedule at that time); a director may still start it earlier. */
      startsAt: z.iso.datetime().optional(),
    })
    .strict(),
  z.object({ type: z.literal('JoinTournament'), player, rating: z.number() }).strict(),
  z.object({ type: z.literal('WithdrawPlayer'), player, reason }).strict(),
  z.object({ type: z.literal('StartTournament') }).strict(),
  /** The system's start at `startsAt` (`at`: the clock's time now): starts with two players or more, otherwise cancels. */
  z.object({ type: z.literal('StartOnSchedule'), at: z.iso.datetime() }).strict(),
  /** A director moves (or, with null, removes) the scheduled start of an open tournament. */
  z.object({ type: z.literal('RescheduleStart'), startsAt: z.iso.datetime().nullable() }).strict(),
  z.object({ type: z.literal('BindGame'), pairingId: z.string().min(1), gameId: z.string().min(1) }).strict(),
  z.object({ type: z.literal('RecordResult'), gameId: z.string().min(1), winner: player.nullable() }).strict(),
  z.object({ type: z.literal('Adjudicate'), pairingId: z.string().min(1), winner: player.nullable(), reason }).strict(),
  z.object({ type: z.literal('Forfeit'), pairingId: z.string().min(1), loser: player, reason }).strict(),
]);
export type TournamentCommand = z.infer<typeof tournamentCommandSchema>;

/** How a pairing's result came about. */
export type ResultHow = 'played' | 'forfeit' | 'adjudicated';

export interface PairingResult {
  readonly points: readonly [number, number];
  readonly winner: PlayerId | null;
  readonly how: ResultHow;
  readonly reason?: string;
}

export type TournamentEvent =
  | {
      type: 'TournamentCreated';
      tournamentId: string;
      clubId: string | null;
      name: string;
      engine: string;
      format: Format;
      rated: boolean;
      maxPlayers?: number;
      gameOptions?: Record<string, unknown>;
      timeLimitHours?: number;
      timeControl?: TimeControl;
      startsAt?: string;
      createdBy: string;
    }
  | { type: 'PlayerJoined'; player: PlayerId; rating: number }
  /** `round` is the round in progress (0 before the start). */
  | { type: 'PlayerWithdrew'; player: PlayerId; reason: string; round: number }
  /** Seeds: the starting list, by rating at the start, then by order of joining. */
  | { type: 'TournamentStarted'; seeds: PlayerId[] }
  /** The scheduled start moved (null: removed; a director starts it). */
  | { type: 'StartRescheduled'; startsAt: string | null }
  | {
      type: 'RoundPaired';
      round: number;
      pairings: { pairingId: string; board: number; seats: [PlayerId, PlayerId] }[];
      byes: ByeScore[];
      /** Single elimination: the bracket slots this round was paired from (null: a bye). */
      lineup?: (PlayerId | null)[];
    }
  /** Make this game: the application layer creates it with seats[0] on side 0 and answers with BindGame. */
  | {
      type: 'GameWanted';
      pairingId: string;
      round: number;
      engine: string;
      seats: [PlayerId, PlayerId];
      rated: boolean;
      options?: Record<string, unknown>;
      timeLimitHours?: number;
      timeControl?: TimeControl;
    }
  | { type: 'GameBound'; pairingId: string; gameId: string }
  | { type: 'ResultRecorded'; pairingId: string; points: [number, number]; winner: PlayerId | null; how: ResultHow; reason?: string }
  | { type: 'TournamentFinished'; standings: Standing[] }
  /** Called off at its scheduled start (too few players). */
  | { type: 'TournamentCancelled'; reason: string };

/** Who sends a command: the system (game ends, timeouts) or a signed-in user, with their role in the tournament's club. */
export type Actor = { kind: 'system' } | { kind: 'user'; userId: string; clubRole?: ClubRole };

/** Every refusal, declared once. */
export const TOURNAMENT_ERRORS = {
  exists: 'tournament/exists',
  notFound: 'tournament/not-found',
  notOpen: 'tournament/not-open',
  notRunning: 'tournament/not-running',
  finished: 'tournament/finished',
  alreadyJoined: 'tournament/already-joined',
  full: 'tournament/full',
  notDirector: 'tournament/not-director',
  notYourself: 'tournament/not-yourself',
  notMember: 'tournament/not-a-member',
  systemOnly: 'tournament/system-only',
  tooFewPlayers: 'tournament/too-few-players',
  notAPlayer: 'tournament/not-a-player',
  withdrawn: 'tournament/already-withdrawn',
  unknownPairing: 'tournament/unknown-pairing',
  unknownGame: 'tournament/unknown-game',
  alreadyBound: 'tournament/already-bound',
  gameInUse: 'tournament/game-already-bound',
  resultKnown: 'tournament/result-known',
  notInPairing: 'tournament/not-in-pairing',
  notYet: 'tournament/not-yet',
  cancelled: 'tournament/cancelled',
} as const;
export type TournamentErrorCode = (typeof TOURNAMENT_ERRORS)[keyof typeof TOURNAMENT_ERRORS];

// ---------------------------------------------------------------------------------------------
// State

export interface PlayerEntry {
  readonly player: PlayerId;
  readonly rating: number;
  readonly joined: number;
  readonly withdrawn?: { readonly round: number; readonly reason: string };
}

export interface PairingState {
  readonly pairingId: string;
  readonly round: number;
  readonly board: number;
  readonly seats: readonly [PlayerId, PlayerId];
  readonly gameId?: string;
  readonly result?: PairingResult;
}

export interface RoundState {
  readonly round: number;
  readonly pairingIds: readonly string[];
  readonly byes: readonly ByeScore[];
  readonly lineup?: readonly (PlayerId | null)[];
}

export interface TournamentState {
  readonly status: 'none' | 'open' | 'running' | 'finished' | 'cancelled';
  readonly tournamentId: string;
  readonly clubId: string | null;
  readonly name: string;
  readonly engine: string;
  readonly format: Format;
  readonly rated: boolean;
  readonly maxPlayers?: number;
  readonly gameOptions?: Readonly<Record<string, unknown>>;
  readonly timeLimitHours?: number;
  readonly timeControl?: TimeControl;
  readonly startsAt?: string;
  readonly createdBy: string;
  readonly players: ReadonlyMap<PlayerId, PlayerEntry>;
  readonly seeds: readonly PlayerId[];
  readonly rounds: readonly RoundState[];
  readonly pairings: ReadonlyMap<string, PairingState>;
  readonly games: ReadonlyMap<string, string>;
  readonly standings: readonly Standing[];
  readonly cancelled?: string;
}

export const initialTournamentState: TournamentState = {
  status: 'none',
  tournamentId: '',
  clubId: '',
  name: '',
  engine: '',
  format: { kind: 'swiss', rounds: 1 },
  rated: false,
  createdBy: '',
  players: new Map(),
  seeds: [],
  rounds: [],
  pairings: new Map(),
  games: new Map(),
  standings: [],
};

const withEntry = <K, V>(m: ReadonlyMap<K, V>, k: K, v: V): Map<K, V> => new Map(m).set(k, v);

export function evolveTournament(s: TournamentState, e: TournamentEvent): TournamentState {
  switch (e.type) {
    case 'TournamentCreated':
      return {
        ...initialTournamentState,
        status: 'open',
        tournamentId: e.tournamentId,
        clubId: e.clubId,
        name: e.name,
        engine: e.engine,
        format: e.format,
        rated: e.rated,
        createdBy: e.createdBy,
        ...(e.maxPlayers !== undefined ? { maxPlayers: e.maxPlayers } : {}),
        ...(e.gameOptions !== undefined ? { gameOptions: e.gameOptions } : {}),
        ...(e.timeLimitHours !== undefined ? { timeLimitHours: e.timeLimitHours } : {}),
        ...(e.timeControl !== undefined ? { timeControl: e.timeControl } : {}),
        ...(e.startsAt !== undefined ? { startsAt: e.startsAt } : {}),
      };
    case 'PlayerJoined':
      return { ...s, players: withEntry(s.players, e.player, { player: e.player, rating: e.rating, joined: s.players.size }) };
    case 'PlayerWithdrew': {
      if (s.status === 'open') {
        const players = new Map(s.players);
        players.delete(e.player);
        return { ...s, players };
      }
      const entry = s.players.get(e.player)!;
      return { ...s, players: withEntry(s.players, e.player, { ...entry, withdrawn: { round: e.round, reason: e.reason } }) };
    }
    case 'TournamentStarted':
      return { ...s, status: 'running', seeds: e.seeds };
    case 'StartRescheduled': {
      const { startsAt: _was, ...rest } = s;
      return e.startsAt === null ? rest : { ...rest, startsAt: e.startsAt };
    }
    case 'RoundPaired': {
      const pairings = new Map(s.pairings);
      for (const p of e.pairings) pairings.set(p.pairingId, { pairingId: p.pairingId, round: e.round, board: p.board, seats: p.seats });
      const round: RoundState = { round: e.round, pairingIds: e.pairings.map((p) => p.pairingId), byes: e.byes, ...(e.lineup ? { lineup: e.lineup } : {}) };
      return { ...s, pairings, rounds: [...s.rounds, round] };
    }
    case 'GameWanted':
      return s;
    case 'GameBound': {
      const p = s.pairings.get(e.pairingId)!;
      return { ...s, pairings: withEntry(s.pairings, e.pairingId, { ...p, gameId: e.gameId }), games: withEntry(s.games, e.gameId, e.pairingId) };
    }
    case 'ResultRecorded': {
      const p = s.pairings.get(e.pairingId)!;
      const result: PairingResult = { points: e.points, winner: e.winner, how: e.how, ...(e.reason !== undefined ? { reason: e.reason } : {}) };
      return { ...s, pairings: withEntry(s.pairings, e.pairingId, { ...p, result }) };
    }
    case 'TournamentFinished':
      return { ...s, status: 'finished', standings: e.standings };
    case 'TournamentCancelled':
      return { ...s, status: 'cancelled', cancelled: e.reason };
    default:
      return assertNever(e, 'tournament event');
  }
}

// ---------------------------------------------------------------------------------------------
// Queries

export const currentRound = (s: TournamentState): RoundState | undefined => s.rounds[s.rounds.length - 1];
const pairingsOf = (s: TournamentState, r: RoundState): PairingState[] => r.pairingIds.map((id) => s.pairings.get(id)!);
const isWithdrawn = (s: TournamentState, p: PlayerId): boolean => s.players.get(p)?.withdrawn !== undefined;

/** Pairings waiting for their game to be created (GameWanted seen, no GameBound yet). */
export const gamesWanted = (s: TournamentState): PairingState[] =>
  [...s.pairings.values()].filter((p) => p.gameId === undefined && p.result === undefined && s.status === 'running');

/** Games of the event, scored, in round order. */
function scoredGames(s: TournamentState): GameScore[] {
  return s.rounds.flatMap((r) => pairingsOf(s, r).flatMap((p) => (p.result ? [{ round: r.round, seats: p.seats, points: p.result.points }] : [])));
}

/** The table as it stands (final once the tournament has finished). */
export function tournamentStandings(s: TournamentState): Standing[] {
  if (s.status === 'finished') return [...s.standings];
  const entrants = s.seeds.map((player, seed) => ({ player, seed, ...(isWithdrawn(s, player) ? { withdrawn: true } : {}) }));
  const games = scoredGames(s);
  const byes = s.rounds.flatMap((r) => r.byes);
  switch (s.format.kind) {
    case 'round-robin':
      return computeStandings('round-robin', entrants, games, byes);
    case 'swiss':
      return computeStandings('swiss', entrants, games, byes);
    case 'single-elimination': {
      const base = new Map(computeStandings('swiss', entrants, games, byes).map((x) => [x.player, x]));
      const wentOut = new Map<PlayerId, number>();
      for (const r of s.rounds) {
        for (const p of pairingsOf(s, r)) {
          if (!p.result) continue;
          const through = advancing(s.seeds, p.seats, p.result.points);
          for (const x of p.seats) if (x !== through) wentOut.set(x, r.round);
        }
      }
      const last = currentRound(s);
      const finalDone = last !== undefined && last.pairingIds.length === 1 && pairingsOf(s, last).every((p) => p.result);
      const champion = finalDone ? advancing(s.seeds, pairingsOf(s, last)[0]!.seats, pairingsOf(s, last)[0]!.result!.points) : null;
      return eliminationPlaces(s.seeds, wentOut, champion).map(({ player, rank, round }) => ({
        ...base.get(player)!,
        rank,
        roundReached: round,
        tiebreaks: {},
      }));
    }
    default:
      return assertNever(s.format, 'format');
  }
}

// ---------------------------------------------------------------------------------------------
// Decide

type Decision = Result<TournamentEvent[], RuleViolation>;
const refuse = (code: TournamentErrorCode, message: string): Decision => err(violation(code, message));

const isDirector = (s: TournamentState, a: Actor): boolean =>
  a.kind === 'system' || a.userId === s.createdBy || a.clubRole === 'owner' || a.clubRole === 'director';

export function decideTournament(s: TournamentState, c: TournamentCommand, actor: Actor): Decision {
  if (c.type === 'CreateTournament') {
    if (s.status !== 'none') return refuse(TOURNAMENT_ERRORS.exists, 'This tournament already exists.');
    if (actor.kind !== 'user') return refuse(TOURNAMENT_ERRORS.notDirector, 'A tournament is created by a club director.');
    if (actor.clubRole !== 'owner' && actor.clubRole !== 'director')
      return refuse(TOURNAMENT_ERRORS.notDirector, "Only the club's owner or a director creates tournaments.");
    return ok([
      {
        type: 'TournamentCreated',
        tournamentId: c.tournamentId,
        clubId: c.clubId,
        name: c.name,
        engine: c.engine,
        format: c.format,
        rated: c.rated,
        createdBy: actor.userId,
        ...(c.maxPlayers !== undefined ? { maxPlayers: c.maxPlayers } : {}),
        ...(c.gameOptions !== undefined ? { gameOptions: c.gameOptions } : {}),
        ...(c.timeLimitHours !== undefined ? { timeLimitHours: c.timeLimitHours } : {}),
        ...(c.timeControl !== undefined ? { timeControl: c.timeControl } : {}),
        ...(c.startsAt !== undefined ? { startsAt: c.startsAt } : {}),
      },
    ]);
  }
  if (s.status === 'none') return refuse(TOURNAMENT_ERRORS.notFound, 'There is no such tournament.');
  if (s.status === 'finished') return refuse(TOURNAMENT_ERRORS.finished, 'The tournament has finished.');
  if (s.status === 'cancelled') return refuse(TOURNAMENT_ERRORS.cancelled, `The tournament was cancelled: ${s.cancelled ?? ''}`);

  switch (c.type) {
    case 'JoinTournament': {
      if (s.status !== 'open') return refuse(TOURNAMENT_ERRORS.notOpen, 'The tournament has started; entries are closed.');
      if (actor.kind !== 'user' || actor.userId !== c.player) return refuse(TOURNAMENT_ERRORS.notYourself, 'Players enter themselves.');
      if (actor.clubRole === undefined) return refuse(TOURNAMENT_ERRORS.notMember, "Only the club's members may enter its tournaments.");
      if (s.players.has(c.player)) return refuse(TOURNAMENT_ERRORS.alreadyJoined, 'You have already entered.');
      if (s.maxPlayers !== undefined && s.players.size >= s.maxPlayers) return refuse(TOURNAMENT_ERRORS.full, 'The tournament is full.');
      return ok([{ type: 'PlayerJoined', player: c.player, rating: c.rating }]);
    }
    case 'WithdrawPlayer': {
      const entry = s.players.get(c.player);
      if (!entry) return refuse(TOURNAMENT_ERRORS.notAPlayer, 'That player is not in the tournament.');
      if (!(actor.kind === 'user' && actor.userId === c.player) && !isDirector(s, actor))
        return refuse(TOURNAMENT_ERRORS.notDirector, 'Only the player or a director withdraws a player.');
      if (entry.withdrawn) return refuse(TOURNAMENT_ERRORS.withdrawn, 'That player has already withdrawn.');
      const round = currentRound(s)?.round ?? 0;
      const events: TournamentEvent[] = [{ type: 'PlayerWithdrew', player: c.player, reason: c.reason, round }];
      if (s.status === 'running') {
        // The game in progress is lost by forfeit (whatever the format); later rounds follow the format's rule when paired.
        for (const p of pairingsOf(s, currentRound(s)!)) {
          if (!p.result && p.seats.includes(c.player)) events.push(forfeitOf(p, [c.player], `withdrew: ${c.reason}`));
        }
      }
      return ok(after(s, events));
    }
    case 'StartTournament': {
      if (s.status !== 'open') return refuse(TOURNAMENT_ERRORS.notOpen, 'The tournament has already started.');
      if (!isDirector(s, actor)) return refuse(TOURNAMENT_ERRORS.notDirector, 'Only a director starts the tournament.');
      if (s.players.size < 2) return refuse(TOURNAMENT_ERRORS.tooFewPlayers, 'A tournament needs at least two players.');
      return ok(start(s));
    }
    case 'StartOnSchedule': {
      if (actor.kind !== 'system') return refuse(TOURNAMENT_ERRORS.systemOnly, "The scheduled start is the system's.");
      if (s.status !== 'open') return refuse(TOURNAMENT_ERRORS.notOpen, 'The tournament has already started.');
      if (s.startsAt === undefined || Date.parse(c.at) < Date.parse(s.startsAt))
        return refuse(TOURNAMENT_ERRORS.notYet, 'The tournament has no scheduled start, or it is not yet time.');
      if (s.players.size < 2)
        return ok([{ type: 'TournamentCancelled', reason: `too few players at the scheduled start (${s.players.size}; a tournament needs 2)` }]);
      return ok(start(s));
    }
    case 'RescheduleStart': {
      if (s.status !== 'open') return refuse(TOURNAMENT_ERRORS.notOpen, 'The tournament has already started.');
      if (!isDirector(s, actor)) return refuse(TOURNAMENT_ERRORS.notDirector, 'Only a director moves the scheduled start.');
      if (c.startsAt === (s.startsAt ?? null)) return ok([]);
      return ok([{ type: 'StartRescheduled', startsAt: c.startsAt }]);
    }
    case 'BindGame': {
      if (actor.kind !== 'system') return refuse(TOURNAMENT_ERRORS.systemOnly, 'Games are bound by the system.');
      const p = s.pairings.get(c.pairingId);
      if (!p) return refuse(TOURNAMENT_ERRORS.unknownPairing, 'There is no such pairing.');
      if (p.gameId !== undefined) return refuse(TOURNAMENT_ERRORS.alreadyBound, 'That pairing already has its game.');
      if (s.games.has(c.gameId)) return refuse(TOURNAMENT_ERRORS.gameInUse, 'That game already belongs to another pairing.');
      return ok([{ type: 'GameBound', pairingId: c.pairingId, gameId: c.gameId }]);
    }
    case 'RecordResult': {
      if (actor.kind !== 'system') return refuse(TOURNAMENT_ERRORS.systemOnly, "Results come from the games' ends.");
      const pairingId = s.games.get(c.gameId);
      if (pairingId === undefined) return refuse(TOURNAMENT_ERRORS.unknownGame, 'That game is not part of this tournament.');
      const p = s.pairings.get(pairingId)!;
      if (p.result) return refuse(TOURNAMENT_ERRORS.resultKnown, 'That pairing already has its result.');
      if (c.winner !== null && !p.seats.includes(c.winner)) return refuse(TOURNAMENT_ERRORS.notInPairing, 'The winner did not play in that game.');
      return ok(after(s, [resultOf(p, c.winner, 'played')]));
    }
    case 'Adjudicate': {
      if (!isDirector(s, actor)) return refuse(TOURNAMENT_ERRORS.notDirector, 'Only a director adjudicates.');
      const p = s.pairings.get(c.pairingId);
      if (!p) return refuse(TOURNAMENT_ERRORS.unknownPairing, 'There is no such pairing.');
      if (p.result) return refuse(TOURNAMENT_ERRORS.resultKnown, 'That pairing already has its result.');
      if (c.winner !== null && !p.seats.includes(c.winner)) return refuse(TOURNAMENT_ERRORS.notInPairing, 'The winner is not in that pairing.');
      return ok(after(s, [resultOf(p, c.winner, 'adjudicated', c.reason)]));
    }
    case 'Forfeit': {
      if (!isDirector(s, actor)) return refuse(TOURNAMENT_ERRORS.notDirector, 'Only the system (a timeout) or a director declares a forfeit.');
      const p = s.pairings.get(c.pairingId);
      if (!p) return refuse(TOURNAMENT_ERRORS.unknownPairing, 'There is no such pairing.');
      if (p.result) return refuse(TOURNAMENT_ERRORS.resultKnown, 'That pairing already has its result.');
      if (!p.seats.includes(c.loser)) return refuse(TOURNAMENT_ERRORS.notInPairing, 'That player is not in that pairing.');
      return ok(after(s, [forfeitOf(p, [c.loser], c.reason)]));
    }
    default:
      return assertNever(c, 'tournament command');
  }
}

/** The start, by a director or at `startsAt`: seeded by rating, then by order of joining; round one is paired. */
function start(s: TournamentState): TournamentEvent[] {
  const seeds = [...s.players.values()].sort((a, b) => b.rating - a.rating || a.joined - b.joined).map((p) => p.player);
  return after(s, [{ type: 'TournamentStarted', seeds }]);
}

function resultOf(p: PairingState, winner: PlayerId | null, how: ResultHow, reason?: string): TournamentEvent {
  const points: [number, number] = winner === null ? [0.5, 0.5] : winner === p.seats[0] ? [1, 0] : [0, 1];
  return { type: 'ResultRecorded', pairingId: p.pairingId, points, winner, how, ...(reason !== undefined ? { reason } : {}) };
}

/** A forfeit by one or both players: the other scores the point; when both forfeit, nobody does. */
function forfeitOf(p: PairingState, losers: readonly PlayerId[], reason: string): TournamentEvent {
  const lost = (i: 0 | 1) => losers.includes(p.seats[i]);
  const points: [number, number] = [lost(0) ? 0 : 1, lost(1) ? 0 : 1];
  const winner = points[0] > points[1] ? p.seats[0] : points[1] > points[0] ? p.seats[1] : null;
  return { type: 'ResultRecorded', pairingId: p.pairingId, points, winner, how: 'forfeit', reason };
}

/**
 * The events a command produced, followed by whatever they set off: when the round in progress
 * is complete, the next round's pairings (with immediate forfeits for withdrawn players where
 * the format keeps them on the schedule), or the end of the tournament.
 */
function after(s: TournamentState, events: TournamentEvent[]): TournamentEvent[] {
  const out = [...events];
  let state = events.reduce(evolveTournament, s);
  // A round made only of forfeits completes at once; loop until a round waits for games.
  for (let guard = 0; state.status === 'running' && guard < 1000; guard++) {
    const round = currentRound(state);
    if (round && pairingsOf(state, round).some((p) => !p.result)) break;
    const next = nextRound(state);
    out.push(...next);
    state = next.reduce(evolveTournament, state);
  }
  return out;
}

/** Side history of every player, oldest first. */
function sidesOf(s: TournamentState): Map<PlayerId, Side[]> {
  const sides = new Map<PlayerId, Side[]>(s.seeds.map((p) => [p, []]));
  for (const r of s.rounds)
    for (const p of pairingsOf(s, r)) {
      sides.get(p.seats[0])!.push(0);
      sides.get(p.seats[1])!.push(1);
    }
  return sides;
}

/** Pairs the round after the current one, or finishes the tournament. */
function nextRound(s: TournamentState): TournamentEvent[] {
  const number = s.rounds.length + 1;
  const finish = (): TournamentEvent[] => [{ type: 'TournamentFinished', standings: tournamentStandings(s) }];
  let plan: RoundPlan;
  let byePoints = 0;
  let lineup: (PlayerId | null)[] | undefined;
  switch (s.format.kind) {
    case 'round-robin': {
      // Withdrawn players stay on the schedule and forfeit, so everyone plays the same number of games.
      const schedule = roundRobinSchedule(s.seeds, s.format.cycles);
      const planned = schedule[number - 1];
      if (!planned) return finish();
      plan = planned;
      break;
    }
    case 'swiss': {
      // Withdrawn players are removed from later rounds.
      const active = s.seeds.filter((p) => !isWithdrawn(s, p));
      if (number > s.format.rounds || active.length < 2) return finish();
      const standing = new Map(tournamentStandings(s).map((x) => [x.player, x]));
      const sides = sidesOf(s);
      const opponents = new Map<PlayerId, PlayerId[]>(s.seeds.map((p) => [p, []]));
      for (const p of s.pairings.values()) {
        opponents.get(p.seats[0])!.push(p.seats[1]);
        opponents.get(p.seats[1])!.push(p.seats[0]);
      }
      const entrants: SwissEntrant[] = active.map((p) => ({
        id: p,
        score: standing.get(p)!.points,
        seed: s.seeds.indexOf(p),
        opponents: opponents.get(p)!,
        sides: sides.get(p)!,
        byes: standing.get(p)!.byes,
      }));
      plan = pairSwiss(entrants);
      byePoints = 1;
      break;
    }
    case 'single-elimination': {
      const previous = currentRound(s);
      if (!previous) lineup = firstLineup(s.seeds);
      else {
        const prevLineup = previous.lineup ?? [];
        const byPair = new Map(pairingsOf(s, previous).map((p) => [`${p.seats[0]}|${p.seats[1]}`, p]));
        lineup = [];
        for (let i = 0; i + 1 < prevLineup.length; i += 2) {
          const a = prevLineup[i] ?? null;
          const b = prevLineup[i + 1] ?? null;
          if (a === null || b === null) lineup.push(a ?? b);
          else {
            const p = byPair.get(`${a}|${b}`) ?? byPair.get(`${b}|${a}`);
            lineup.push(p?.result ? advancing(s.seeds, p.seats, p.result.points) : null);
          }
        }
      }
      if (lineup.length < 2) return finish();
      const sides = sidesOf(s);
      const pairs: { seats: readonly [PlayerId, PlayerId] }[] = [];
      const byes: PlayerId[] = [];
      for (let i = 0; i < lineup.length; i += 2) {
        const a = lineup[i] ?? null;
        const b = lineup[i + 1] ?? null;
        if (a !== null && b !== null) {
          const [hi, lo] = s.seeds.indexOf(a) <= s.seeds.indexOf(b) ? [a, b] : [b, a];
          pairs.push({ seats: orderSides(hi, sides.get(hi)!, lo, sides.get(lo)!) });
        } else if (a !== null || b !== null) byes.push((a ?? b)!);
      }
      // A final without finalists (both semi-finals double forfeits) ends the event.
      if (pairs.length === 0) return finish();
      plan = { pairs, byes };
      break;
    }
    default:
      return assertNever(s.format, 'format');
  }
  const pairings = plan.pairs.map((p, i) => ({
    pairingId: `${s.tournamentId}/r${number}/b${i + 1}`,
    board: i + 1,
    seats: [p.seats[0], p.seats[1]] as [PlayerId, PlayerId],
  }));
  const events: TournamentEvent[] = [
    {
      type: 'RoundPaired',
      round: number,
      pairings,
      byes: plan.byes.map((player) => ({ round: number, player, points: byePoints })),
      ...(lineup ? { lineup } : {}),
    },
  ];
  for (const p of pairings) {
    const gone = p.seats.filter((x) => isWithdrawn(s, x));
    if (gone.length > 0) events.push(forfeitOf({ pairingId: p.pairingId, round: number, board: p.board, seats: p.seats }, gone, 'withdrawn'));
    else
      events.push({
        type: 'GameWanted',
        pairingId: p.pairingId,
        round: number,
        engine: s.engine,
        seats: p.seats,
        rated: s.rated,
        ...(s.gameOptions !== undefined ? { options: { ...s.gameOptions } } : {}),
        ...(s.timeLimitHours !== undefined ? { timeLimitHours: s.timeLimitHours } : {}),
        ...(s.timeControl !== undefined ? { timeControl: s.timeControl } : {}),
      });
  }
  return events;
}
