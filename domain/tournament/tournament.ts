import { assertNever, violation, type RuleViolation } from '../kernel/errors.js';
import { err, type Result } from '../kernel/result.js';
import type { PlayerId } from './pairing.js';
import type { ByeScore, Standing } from './standings.js';
import type { ClubRole } from './club.js';
import type { TimeControl } from '../kernel/time-control.js';
import type { Format, TournamentCommand } from './tournament-commands.js';

/**
 * A tournament as a Decider. Commands come from players and directors (through the API) and
 * from the system (a game's end, a timeout); events are the truth. When a round's last result
 * arrives, `decide` pairs the next round (or finishes the event) in the same batch of events,
 * so the application layer only turns each `GameWanted` into a game and reports back the
 * game's id (`BindGame`) and, later, its result (`RecordResult`).
 *
 * This file holds what a tournament is: its commands, events, refusals and state, and the fold.
 * The Decider is `decideTournament` (decide-tournament.ts), over entries.ts (entering, withdrawing,
 * the start), games.ts (the games of a round and their results), rounds.ts (pairing the next
 * round or finishing) and scoring.ts (how a result scores, and the standings).
 */

// ---------------------------------------------------------------------------------------------
// Vocabulary

// The commands' shapes, and the schema a tournament's creation is checked against: tournament-commands.ts.
export type { Format, TournamentCommand } from './tournament-commands.js';

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
export const pairingsOf = (s: TournamentState, r: RoundState): PairingState[] => r.pairingIds.map((id) => s.pairings.get(id)!);
export const isWithdrawn = (s: TournamentState, p: PlayerId): boolean => s.players.get(p)?.withdrawn !== undefined;

/** Pairings waiting for their game to be created (GameWanted seen, no GameBound yet). */
export const gamesWanted = (s: TournamentState): PairingState[] =>
  [...s.pairings.values()].filter((p) => p.gameId === undefined && p.result === undefined && s.status === 'running');

// ---------------------------------------------------------------------------------------------
// Deciding: what every command's decision shares

/** One command of the union, by its type. */
export type CommandOf<T extends TournamentCommand['type']> = Extract<TournamentCommand, { type: T }>;

export type Decision = Result<TournamentEvent[], RuleViolation>;
export const refuse = (code: TournamentErrorCode, message: string): Decision => err(violation(code, message));

export const isDirector = (s: TournamentState, a: Actor): boolean =>
  a.kind === 'system' || a.userId === s.createdBy || a.clubRole === 'owner' || a.clubRole === 'director';
