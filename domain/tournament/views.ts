import type { ClubRole, ClubSettings, ClubState } from './club.js';
import type { LeaderboardRow, RatingsState } from './ratings.js';
import { PROVISIONAL_DEVIATION, leaderboard, ratingOf } from './ratings.js';
import type { Standing } from './standings.js';
import type { TimeControl } from '../kernel/time-control.js';
import { tournamentStandings } from './scoring.js';
import type { Format, PairingResult, TournamentState } from './tournament.js';

/**
 * The shapes the API replies with, built from folded state so handlers stay thin: ids are
 * named `clubId` and `tournamentId`, every pairing carries its `gameId` once bound, a
 * tournament has a `status` and a `standings` list, rating entries name their `player`.
 */

export interface TournamentView {
  readonly tournamentId: string;
  readonly clubId: string | null;
  readonly name: string;
  readonly engine: string;
  readonly format: Format;
  readonly rated: boolean;
  readonly status: 'open' | 'running' | 'finished' | 'cancelled';
  /** Why a cancelled tournament was called off. */
  readonly cancelled?: string;
  readonly maxPlayers?: number;
  readonly gameOptions?: Readonly<Record<string, unknown>>;
  readonly timeLimitHours?: number;
  readonly timeControl?: TimeControl;
  readonly startsAt?: string;
  readonly players: readonly { player: string; rating: number; seed?: number; withdrawn?: { round: number; reason: string } }[];
  readonly rounds: readonly {
    round: number;
    pairings: readonly { pairingId: string; board: number; seats: readonly [string, string]; gameId?: string; result?: PairingResult }[];
    byes: readonly { player: string; points: number }[];
  }[];
  readonly standings: readonly Standing[];
}

/** undefined when the tournament does not exist. */
export function tournamentView(s: TournamentState): TournamentView | undefined {
  if (s.status === 'none') return undefined;
  const seedOf = new Map(s.seeds.map((p, i) => [p, i + 1]));
  return {
    tournamentId: s.tournamentId,
    clubId: s.clubId,
    name: s.name,
    engine: s.engine,
    format: s.format,
    rated: s.rated,
    status: s.status,
    ...(s.cancelled !== undefined ? { cancelled: s.cancelled } : {}),
    ...(s.maxPlayers !== undefined ? { maxPlayers: s.maxPlayers } : {}),
    ...(s.gameOptions !== undefined ? { gameOptions: s.gameOptions } : {}),
    ...(s.timeLimitHours !== undefined ? { timeLimitHours: s.timeLimitHours } : {}),
    ...(s.timeControl !== undefined ? { timeControl: s.timeControl } : {}),
    ...(s.startsAt !== undefined ? { startsAt: s.startsAt } : {}),
    players: [...s.players.values()].map((p) => ({
      player: p.player,
      rating: p.rating,
      ...(seedOf.has(p.player) ? { seed: seedOf.get(p.player)! } : {}),
      ...(p.withdrawn ? { withdrawn: p.withdrawn } : {}),
    })),
    rounds: s.rounds.map((r) => ({
      round: r.round,
      pairings: r.pairingIds.map((id) => {
        const p = s.pairings.get(id)!;
        return {
          pairingId: p.pairingId,
          board: p.board,
          seats: p.seats,
          ...(p.gameId !== undefined ? { gameId: p.gameId } : {}),
          ...(p.result ? { result: p.result } : {}),
        };
      }),
      byes: r.byes.map(({ player, points }) => ({ player, points })),
    })),
    standings: s.status === 'open' || s.status === 'cancelled' ? [] : tournamentStandings(s),
  };
}

export interface ClubView {
  readonly clubId: string;
  readonly name: string;
  readonly description: string;
  readonly members: readonly { player: string; role: ClubRole }[];
  readonly settings: ClubSettings;
  /** Names only; the data itself is fetched by name when a game is set up. */
  readonly engineData: readonly { engine: string; name: string; hash: string }[];
  /** Only for the owner and directors. */
  readonly invitations?: readonly { player: string; role: 'director' | 'member' }[];
  readonly joinCodeSet?: boolean;
}

export function clubView(s: ClubState, viewer: string | null): ClubView | undefined {
  if (!s.exists) return undefined;
  const role = viewer === null ? undefined : s.members.get(viewer);
  const manager = role === 'owner' || role === 'director';
  return {
    clubId: s.clubId,
    name: s.name,
    description: s.description,
    members: [...s.members].map(([player, r]) => ({ player, role: r })),
    settings: s.settings,
    engineData: [...s.engineData.values()].map(({ engine, name, hash }) => ({ engine, name, hash })),
    ...(manager ? { invitations: [...s.invitations].map(([player, r]) => ({ player, role: r })), joinCodeSet: s.codeHash !== null } : {}),
  };
}

export interface RatingView {
  readonly engine: string;
  readonly player: string;
  readonly rating: number;
  readonly deviation: number;
  readonly volatility: number;
  readonly games: number;
  readonly provisional: boolean;
  readonly history: readonly { gameId: string; at: string; rating: number; deviation: number; volatility: number }[];
}

export function ratingView(s: RatingsState, engine: string, player: string): RatingView {
  const e = ratingOf(s, engine, player);
  return {
    engine,
    player,
    rating: e.rating,
    deviation: e.deviation,
    volatility: e.volatility,
    games: e.games,
    provisional: e.deviation > PROVISIONAL_DEVIATION,
    history: e.history,
  };
}

export const leaderboardView = (s: RatingsState, engine: string): { engine: string; entries: LeaderboardRow[] } => ({
  engine,
  entries: leaderboard(s, engine),
});
