import { assertNever, violation, type RuleViolation } from '../kernel/errors.js';
import { err, ok, type Result } from '../kernel/result.js';
import { DEFAULT_TAU, NEW_PLAYER, glicko2Update, type Glicko2Rating } from './glicko2.js';

/**
 * Ratings per engine, as a Decider. When a rated two-player game ends the application layer
 * sends `RateGame`; both players are updated at once with Glicko-2, each game being its own
 * rating period (both use the other's rating from before the game). A game is rated once:
 * a repeat is refused, so a retried stream delivery changes nothing.
 */

/** A deviation above this marks a provisional rating (too few recent games to trust it). */
export const PROVISIONAL_DEVIATION = 110;

/** The one command: sent by the application layer (never by a player) when a rated game ends. */
export interface RatingCommand {
  readonly type: 'RateGame';
  readonly engine: string;
  readonly gameId: string;
  readonly players: readonly [string, string];
  /** The winner, or null for a draw. */
  readonly winner: string | null;
  /** When the game ended (ISO-8601), passed in. */
  readonly at: string;
}

export interface RatingChange {
  readonly player: string;
  readonly before: Glicko2Rating;
  readonly after: Glicko2Rating;
}

export type RatingEvent = { type: 'GameRated'; engine: string; gameId: string; at: string; changes: RatingChange[] };

export const RATING_ERRORS = {
  alreadyRated: 'rating/already-rated',
  samePlayer: 'rating/same-player',
  notInGame: 'rating/winner-not-in-game',
} as const;

export interface HistoryEntry extends Glicko2Rating {
  readonly gameId: string;
  readonly at: string;
}

export interface RatingEntry extends Glicko2Rating {
  readonly player: string;
  readonly games: number;
  readonly history: readonly HistoryEntry[];
}

export interface RatingsState {
  /** engine → player → entry */
  readonly engines: ReadonlyMap<string, ReadonlyMap<string, RatingEntry>>;
  readonly rated: ReadonlySet<string>;
}

export const initialRatingsState: RatingsState = { engines: new Map(), rated: new Set() };

/** A player's current rating for an engine (a new player's if they have none). */
export function ratingOf(s: RatingsState, engine: string, player: string): RatingEntry {
  return s.engines.get(engine)?.get(player) ?? { player, ...NEW_PLAYER, games: 0, history: [] };
}

export function evolveRatings(s: RatingsState, e: RatingEvent): RatingsState {
  switch (e.type) {
    case 'GameRated': {
      const table = new Map(s.engines.get(e.engine) ?? []);
      for (const c of e.changes) {
        const prev = table.get(c.player) ?? { player: c.player, ...NEW_PLAYER, games: 0, history: [] };
        table.set(c.player, { player: c.player, ...c.after, games: prev.games + 1, history: [...prev.history, { gameId: e.gameId, at: e.at, ...c.after }] });
      }
      return { engines: new Map(s.engines).set(e.engine, table), rated: new Set(s.rated).add(`${e.engine}/${e.gameId}`) };
    }
    default:
      return assertNever(e.type, 'rating event');
  }
}

export function decideRatings(s: RatingsState, c: RatingCommand, tau: number = DEFAULT_TAU): Result<RatingEvent[], RuleViolation> {
  const [a, b] = c.players;
  if (s.rated.has(`${c.engine}/${c.gameId}`)) return err(violation(RATING_ERRORS.alreadyRated, 'That game has already been rated.'));
  if (a === b) return err(violation(RATING_ERRORS.samePlayer, 'A player cannot be rated against themselves.'));
  if (c.winner !== null && c.winner !== a && c.winner !== b) return err(violation(RATING_ERRORS.notInGame, 'The winner did not play in that game.'));
  const ra = ratingOf(s, c.engine, a);
  const rb = ratingOf(s, c.engine, b);
  const scoreA = c.winner === null ? 0.5 : c.winner === a ? 1 : 0;
  const pick = ({ rating, deviation, volatility }: Glicko2Rating): Glicko2Rating => ({ rating, deviation, volatility });
  const changes: RatingChange[] = [
    { player: a, before: pick(ra), after: glicko2Update(ra, [{ opponent: rb, score: scoreA }], tau) },
    { player: b, before: pick(rb), after: glicko2Update(rb, [{ opponent: ra, score: 1 - scoreA }], tau) },
  ];
  return ok([{ type: 'GameRated', engine: c.engine, gameId: c.gameId, at: c.at, changes }]);
}

export interface LeaderboardRow {
  readonly rank: number;
  readonly player: string;
  readonly rating: number;
  readonly deviation: number;
  readonly volatility: number;
  readonly games: number;
  readonly provisional: boolean;
}

/**
 * An engine's leaderboard: by rating, highest first (ties by fewer deviation, then name).
 * Provisional players (deviation above 110) are listed and marked; `established` leaves them
 * out of the ranking.
 */
export function leaderboard(s: RatingsState, engine: string, options: { established?: boolean } = {}): LeaderboardRow[] {
  const rows = [...(s.engines.get(engine)?.values() ?? [])]
    .map((e) => ({
      player: e.player,
      rating: e.rating,
      deviation: e.deviation,
      volatility: e.volatility,
      games: e.games,
      provisional: e.deviation > PROVISIONAL_DEVIATION,
    }))
    .filter((r) => !options.established || !r.provisional)
    .sort((x, y) => y.rating - x.rating || x.deviation - y.deviation || (x.player < y.player ? -1 : x.player > y.player ? 1 : 0));
  return rows.map((r, i) => ({ rank: i + 1, ...r }));
}
