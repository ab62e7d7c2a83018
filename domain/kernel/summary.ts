import type { TimeControl } from './time-control.js';
import { pendingOf, type PendingEntry } from './deadlines.js';
import { nextWake, type ReminderLevel } from './reminders.js';
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
  /** The time control and whether clocks rest at weekends (absent: no time control). */
  readonly timeControl?: TimeControl;
  readonly weekendsOff?: true;
  /** The result moves both players' ratings. */
  readonly rated?: true;
  /** For a bank time control: each seat's bank as of its last charge, in ms. */
  readonly banks?: readonly { seat: Seat; ms: number }[];
  /** When the scheduler must next look at the game (a deadline or a reminder); absent when nothing is timed. */
  readonly wakeAt?: string;
  /** The reminders sent for the current waits (seq: the Game.Reminded event), from which the notices go out. */
  readonly reminders?: readonly { seat: Seat; level: ReminderLevel; seq: number; deadline?: string }[];
  readonly outcome?: Outcome;
}

/**
 * A game starts the moment its last seat is taken, so one that ended with a seat still free
 * never began: its creator cancelled it.
 */
export const wasCancelled = (s: Pick<GameSummary, 'status' | 'seats'>): boolean => s.status === 'ended' && s.seats.some((x) => !x.joined);

export function summarize(engine: AnyEngine, state: GameState): GameSummary {
  const m = state.meta;
  const pending = pendingOf(engine, state);
  const wakeAt = nextWake(engine, state, pending);
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
    pending,
    ...(m.timeControl ? { timeControl: m.timeControl } : {}),
    ...(m.weekendsOff ? { weekendsOff: true as const } : {}),
    ...(m.rated ? { rated: true as const } : {}),
    ...(m.banks.length ? { banks: m.banks.map((b) => ({ ...b })) } : {}),
    ...(wakeAt ? { wakeAt } : {}),
    ...(m.reminded.length
      ? {
          reminders: m.reminded.map((r) => {
            const deadline = pending.find((p) => p.seat === r.seat && p.window === undefined)?.deadline;
            return { seat: r.seat, level: r.level, seq: r.seq, ...(deadline ? { deadline } : {}) };
          }),
        }
      : {}),
    ...(m.outcome ? { outcome: m.outcome } : {}),
  };
}
