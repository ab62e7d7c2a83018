import { pendingOf, type PendingEntry } from './deadlines.js';
import type { AnyEngine, Outcome } from './engine.js';
import type { GameMeta, GameState } from './fold.js';
import type { Seat } from './visibility.js';

/**
 * The public summary of a game, written on the stream head with every append. Read models
 * (inbox, lobby, game summaries) and notifications are built from it, and a rebuild
 * recomputes it by folding the events, so both paths must call this one function.
 * It holds only what every seat and spectator may know.
 */
export interface GameSummary {
  readonly gameId: string;
  readonly engine: string;
  readonly title: string;
  readonly status: GameMeta['status'];
  readonly version: number;
  readonly hash: string;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** `side` and a pending entry's `since` are absent from summaries stored before teams and clocks. */
  readonly seats: readonly { id: Seat; name: string; side?: string; player: string | null; joined: boolean }[];
  readonly timeLimitHours?: number;
  readonly windowShare?: number;
  readonly pending: readonly (Omit<PendingEntry, 'since'> & { since?: string })[];
  readonly outcome?: Outcome;
}

export function summarize(engine: AnyEngine, state: GameState): GameSummary {
  const m = state.meta;
  return {
    gameId: m.gameId,
    engine: m.engine,
    title: engine.title,
    status: m.status,
    version: m.version,
    hash: m.hash,
    createdBy: m.createdBy,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    seats: m.seats.map(({ id, name, side, player, joined }) => ({ id, name, side, player, joined })),
    ...(m.timeLimitHours !== undefined ? { timeLimitHours: m.timeLimitHours } : {}),
    ...(m.windowShare !== undefined ? { windowShare: m.windowShare } : {}),
    pending: pendingOf(engine, state),
    ...(m.outcome ? { outcome: m.outcome } : {}),
  };
}
