import { DAY_MS, deadlineAfter } from './clock.js';
import { budgetMs, nextDeadline, pendingOf, type PendingEntry } from './deadlines.js';
import type { AnyEngine } from './engine.js';
import type { NewEvent } from './envelope.js';
import { violation, type RuleViolation } from './errors.js';
import { RULE_PLATFORM } from './events.js';
import { restOf, waitingKey, type GameState } from './fold.js';
import { err, ok, type Result } from './result.js';
import { PUBLIC } from './visibility.js';

/**
 * Reminders for a move that is running out (issue 10): when half of a seat's move time is gone,
 * when 80% is gone, and when 24 hours of it remain. Each is a moment of running clock (so a
 * weekend off or a vacation moves it like the deadline), each is sent once per wait, and each is
 * a Game.Reminded event in the log with its time, which the verifier decides again. When the
 * scheduler comes late and several are due, only the latest is sent: the earlier ones are old
 * news. Windows get no reminders: they are short and missing one never loses the game.
 */
export const REMINDER_LEVELS = ['50%', '80%', '24h'] as const;
export type ReminderLevel = (typeof REMINDER_LEVELS)[number];

/** How much of the move time has run at each level (24h: all of it but a day; none when the move time is a day or less). */
function runAt(level: ReminderLevel, budget: number): number | undefined {
  if (level === '50%') return budget * 0.5;
  if (level === '80%') return budget * 0.8;
  return budget > DAY_MS ? budget - DAY_MS : undefined;
}

/** A move's reminder moments, in time order; of two that fall together the later level comes last, so it is the one sent. */
export function reminderMoments(state: GameState, p: PendingEntry): { level: ReminderLevel; at: string }[] {
  if (p.window !== undefined || p.deadline === undefined) return [];
  const budget = budgetMs(state.meta, p.seat, false);
  if (budget === undefined) return [];
  const out: { level: ReminderLevel; at: string; rank: number }[] = [];
  for (const [rank, level] of REMINDER_LEVELS.entries()) {
    const run = runAt(level, budget);
    const at = run === undefined ? undefined : deadlineAfter(p.since, run, restOf(state.meta, p.seat));
    if (at !== undefined) out.push({ level, at, rank });
  }
  return out.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.rank - b.rank).map(({ level, at }) => ({ level, at }));
}

/** The moments still to come for a move: those after the latest one already sent. */
function unsent(state: GameState, p: PendingEntry): { level: ReminderLevel; at: string }[] {
  const moments = reminderMoments(state, p);
  const key = waitingKey(p);
  const sent = state.meta.reminded.filter((r) => r.seat === p.seat && r.key === key && r.since === p.since).map((r) => r.level);
  const last = Math.max(-1, ...sent.map((level) => moments.findIndex((m) => m.level === level)));
  return moments.slice(last + 1);
}

/** First move entry per seat: a reminder is about a seat's move, however many parts it has. */
const movesOf = (engine: AnyEngine, state: GameState, pending: readonly PendingEntry[] = pendingOf(engine, state)): PendingEntry[] => {
  const moves = pending.filter((p) => p.window === undefined);
  return moves.filter((p, i) => moves.findIndex((q) => q.seat === p.seat) === i);
};

/** The reminders due at `now`: for each seat on move, the latest level whose moment has passed and was not sent. */
export function dueReminders(engine: AnyEngine, state: GameState, now: string): { seat: string; level: ReminderLevel; deadline: string }[] {
  if (state.meta.status !== 'active') return [];
  return movesOf(engine, state).flatMap((p) => {
    const due = unsent(state, p).filter((m) => Date.parse(m.at) <= Date.parse(now));
    const latest = due[due.length - 1];
    return latest ? [{ seat: p.seat, level: latest.level, deadline: p.deadline! }] : [];
  });
}

/** The next moment a reminder of this game falls due, for the scheduler to wake at. */
export const nextReminder = (engine: AnyEngine, state: GameState, pending: readonly PendingEntry[] = pendingOf(engine, state)): string | undefined =>
  state.meta.status !== 'active'
    ? undefined
    : movesOf(engine, state, pending)
        .flatMap((p) => unsent(state, p).map((m) => m.at))
        .sort((a, b) => Date.parse(a) - Date.parse(b))[0];

/** The scheduler records the reminders due at `now` (no player, no seat): one Game.Reminded per seat. */
export function decideReminders<S>(engine: AnyEngine, state: GameState<S>, input: { now: string }): Result<NewEvent[], RuleViolation> {
  if (state.meta.status !== 'active') return err(violation('game/not-active', 'Only a game in progress sends reminders', RULE_PLATFORM));
  const due = dueReminders(engine, state as GameState, input.now);
  if (due.length === 0) return err(violation('time/not-yet', 'No reminder of this game is due', RULE_PLATFORM));
  return ok(due.map((d) => ({ type: 'Game.Reminded', data: d, visibility: PUBLIC, actor: null })));
}

/** When the scheduler must next look at this game: its next deadline or reminder, whichever is first (`pending`: pendingOf, when at hand). */
export function nextWake(engine: AnyEngine, state: GameState, pending: readonly PendingEntry[] = pendingOf(engine, state)): string | undefined {
  const times = [nextDeadline(engine, state, pending), nextReminder(engine, state, pending)].filter((t): t is string => t !== undefined);
  return times.sort((a, b) => Date.parse(a) - Date.parse(b))[0];
}
