import { rngFor, splitEngineEvent } from './apply.js';
import { conceded, ended, settle } from './decision.js';
import type { AnyEngine, Ctx, DecisionWindow, Pending } from './engine.js';
import type { NewEvent } from './envelope.js';
import { violation, type RuleViolation } from './errors.js';
import { RULE_PLATFORM } from './events.js';
import { DAY_MS, deadlineAfter } from './clock.js';
import type { TimeControl } from './time-control.js';
import { restOf, waitingKey, type GameMeta, type GameState } from './fold.js';
import { err, ok, type Result } from './result.js';
import { seatOf } from './seats.js';
import { PUBLIC, type Seat } from './visibility.js';

/**
 * Time for correspondence play. A game with a time control gives every seat it waits for its
 * move time (per move, or what is left of its bank) of running clock from the moment it began
 * waiting (kernel/clock.ts: no clock on weekends when the game rests then, none while the
 * player is away); a decision window gets a share of the move time (windowShare, a quarter by
 * default). A seat that lets its move run out loses on time, ended by the scheduler or claimed
 * by another seat; a window that runs out only takes its default answer, so missing an optional
 * question never costs the game.
 */
export const MIN_TIME_LIMIT_HOURS = 1;
export const MAX_TIME_LIMIT_HOURS = 24 * 60;
/** The share of the time limit a decision window stays open when the game sets none. */
export const WINDOW_SHARE = 0.25;

const HOUR_MS = 3_600_000;

/** A pending entry as players see it: who, what, since when and until when (no deadline while its player is away). */
export type PendingEntry = Pending & { player: string | null; since: string; deadline?: string; away?: true; awayUntil?: string };

/** Who must act now and by when, empty unless the game is running. */
export function pendingOf(engine: AnyEngine, state: GameState): PendingEntry[] {
  const { meta } = state;
  if (meta.status !== 'active') return [];
  return engine.pending(state.game).map((p) => {
    const since = sinceOf(meta, p.seat, waitingKey(p));
    const budget = budgetMs(meta, p.seat, p.window !== undefined);
    const deadline = budget === undefined ? undefined : deadlineAfter(since, budget, restOf(meta, p.seat));
    // Away as of the last event: with no return set, or a leave that ends later (awayUntil; a reader compares it with the time).
    const away = meta.away.find((a) => a.seat === p.seat && (a.to === undefined || a.to > meta.updatedAt));
    return {
      ...p,
      player: meta.seats.find((s) => s.id === p.seat)?.player ?? null,
      since,
      ...(deadline ? { deadline } : {}),
      ...(away ? { away: true as const, ...(away.to !== undefined ? { awayUntil: away.to } : {}) } : {}),
    };
  });
}

const sinceOf = (meta: GameMeta, seat: Seat, key: string): string => meta.waiting.find((w) => w.seat === seat && w.key === key)?.since ?? meta.updatedAt;

/** The running clock a seat has for its move (per move, or its bank), or for a window (a share of the move time). */
export function budgetMs(meta: GameMeta, seat: Seat, isWindow: boolean): number | undefined {
  const control = meta.timeControl;
  if (control === undefined) return undefined;
  if (isWindow) {
    // A bank's windows are a share of what a move adds (its increment), or of the bank when it adds nothing.
    const moveDays = control.kind === 'per-move' ? control.days : control.incrementDays || control.days;
    return (meta.windowShare ?? WINDOW_SHARE) * moveDays * DAY_MS;
  }
  if (control.kind === 'per-move') return control.days * DAY_MS;
  return meta.banks.find((b) => b.seat === seat)?.ms ?? control.days * DAY_MS;
}

/** The time control's move time, in words for messages. */
const moveTime = (control: TimeControl): string => {
  const days = control.kind === 'per-move' ? control.days : control.incrementDays;
  const hours = days * 24;
  const each = Number.isInteger(hours) && hours < 72 ? `${hours} h` : `${+days.toFixed(2)} days`;
  return control.kind === 'per-move' ? each : `a bank of ${+control.days.toFixed(2)} days plus ${each} a move`;
};

/**
 * A seat the game is not waiting to move claims the game once a seat's move has run out: the
 * seats whose moves are overdue lose (their sides, unless the engine rules otherwise). `now` is
 * the command's time, recorded in the event, so the verifier judges the claim at the same moment.
 */
export function decideClaimTimeout<S>(
  engine: AnyEngine,
  state: GameState<S>,
  input: { player: string; seat?: Seat; now: string },
  seed: string,
): Result<NewEvent[], RuleViolation> {
  const { meta } = state;
  if (meta.status !== 'active') return err(violation('game/not-active', 'Only a game in progress can be claimed on time', RULE_PLATFORM));
  const seat = seatOf(meta, input.player, input.seat);
  if (!seat.ok) return seat;
  if (meta.timeControl === undefined) return err(violation('time/no-limit', 'This game has no time limit', RULE_PLATFORM));
  const moves = pendingOf(engine, state as GameState).filter((p) => p.window === undefined);
  if (moves.some((p) => p.seat === seat.value)) return err(violation('time/your-move', 'The game is waiting for you: make your move instead', RULE_PLATFORM));
  if (moves.length === 0) return err(violation('time/nobody-late', 'The game is not waiting for anyone to move', RULE_PLATFORM));
  const overdue = moves.filter((p) => Date.parse(input.now) >= Date.parse(p.deadline!));
  if (overdue.length === 0) {
    const first = [...moves].sort((a, b) => Date.parse(a.deadline!) - Date.parse(b.deadline!))[0]!;
    const waiting = [...new Set(moves.map((p) => p.seat))];
    return err(violation('time/not-yet', `${waiting.join(', ')} ${waiting.length === 1 ? 'has' : 'have'} until ${first.deadline} to move`, RULE_PLATFORM));
  }
  return ok(timedOut(engine, state as GameState, overdue, seat.value, input.now, seed));
}

/** Game.TimedOut and the end it brings: the overdue seats' sides lose unless the engine rules otherwise. */
function timedOut(engine: AnyEngine, state: GameState, overdue: readonly PendingEntry[], claimedBy: Seat | null, now: string, seed: string): NewEvent[] {
  const late = [...new Set(overdue.map((p) => p.seat))];
  const since = Math.min(...overdue.map((p) => Date.parse(p.since)));
  const idleHours = Math.floor((Date.parse(now) - since) / HOUR_MS);
  const reason = `${late.join(', ')} ran out of time (${idleHours} h without a move; the limit is ${moveTime(state.meta.timeControl!)})`;
  return [
    { type: 'Game.TimedOut', data: { seats: late, claimedBy, idleHours }, visibility: PUBLIC, actor: claimedBy },
    ended(conceded(engine, state, late, 'timed-out', reason), seed),
  ];
}

/** The moves whose deadline has passed at `now`. */
const overdueMoves = (engine: AnyEngine, state: GameState, now: string): PendingEntry[] =>
  pendingOf(engine, state).filter((p) => p.window === undefined && p.deadline !== undefined && Date.parse(now) >= Date.parse(p.deadline));

/**
 * The scheduler ends a game whose moves ran out, at or after the deadline, with nobody having to
 * claim it (no player, no seat). The verifier decides it again at the time the log records.
 */
export function decideTimeOut<S>(engine: AnyEngine, state: GameState<S>, input: { now: string }, seed: string): Result<NewEvent[], RuleViolation> {
  if (state.meta.status !== 'active') return err(violation('game/not-active', 'Only a game in progress can end on time', RULE_PLATFORM));
  const overdue = overdueMoves(engine, state as GameState, input.now);
  if (overdue.length === 0) return err(violation('time/not-yet', 'No move in this game is overdue', RULE_PLATFORM));
  return ok(timedOut(engine, state as GameState, overdue, null, input.now, seed));
}

/** The next moment a deadline of this game falls, for the scheduler to wake at (`pending`: pendingOf, when at hand). */
export const nextDeadline = (engine: AnyEngine, state: GameState, pending: readonly PendingEntry[] = pendingOf(engine, state)): string | undefined =>
  pending.flatMap((p) => (p.deadline ? [p.deadline] : [])).sort()[0];

/**
 * A player goes away (vacation) or comes back: every seat they hold in the game stops or
 * restarts its clocks. Everyone sees it, so opponents know why the clock stands still. A leave
 * with `until` (the end of the player's allowance) restarts the clocks by itself at that time;
 * coming back earlier ends it then. `now` is the decision's time, recorded in the event.
 */
export function decideAway<S>(state: GameState<S>, input: { player: string; away: boolean; now: string; until?: string }): Result<NewEvent[], RuleViolation> {
  const { meta } = state;
  if (meta.status === 'ended') return err(violation('game/over', 'This game is over', RULE_PLATFORM));
  const seats = meta.seats.filter((s) => s.joined && s.player === input.player).map((s) => s.id);
  if (seats.length === 0) return err(violation('action/not-seated', 'You hold no seat in this game', RULE_PLATFORM));
  const { until } = input;
  if (until !== undefined && !(input.away && isIsoTime(until) && until > input.now))
    return err(violation('away/bad-until', `A leave ends after it starts (${input.now}), at an ISO time, not ${String(until)}`, RULE_PLATFORM));
  const isAway = (seat: Seat) => meta.away.some((a) => a.seat === seat && a.from <= input.now && (a.to === undefined || a.to > input.now));
  const change = seats.filter((seat) => isAway(seat) !== input.away);
  if (change.length === 0)
    return err(
      violation(
        input.away ? 'away/already' : 'away/not-away',
        input.away ? 'You are already away in this game' : 'You are not away in this game',
        RULE_PLATFORM,
      ),
    );
  return ok(
    change.map((seat) => ({
      type: input.away ? 'Game.AwayStarted' : 'Game.AwayEnded',
      data: { seat, ...(until !== undefined ? { until } : {}) },
      visibility: PUBLIC,
      actor: seat,
    })),
  );
}

/** An ISO-8601 UTC time as the clock port writes it (so string order is time order). */
const isIsoTime = (t: unknown): t is string => typeof t === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(t) && !Number.isNaN(Date.parse(t));

/** The windows whose deadline has passed at `now`, earliest first. */
export function dueWindows(engine: AnyEngine, state: GameState, now: string): (PendingEntry & { window: DecisionWindow })[] {
  return pendingOf(engine, state)
    .filter(
      (p): p is PendingEntry & { window: DecisionWindow } => p.window !== undefined && p.deadline !== undefined && Date.parse(now) >= Date.parse(p.deadline),
    )
    .sort((a, b) => Date.parse(a.deadline!) - Date.parse(b.deadline!));
}

/**
 * A decision window whose deadline has passed takes its default answer for the asked seat.
 * Any seated player may send the lapse, or the scheduler (player null); the lapse records its
 * time and the deadline, and the verifier decides it again at that time.
 */
export function decideLapse<S>(
  engine: AnyEngine,
  state: GameState<S>,
  input: { player: string | null; seat?: Seat; window: string; now: string },
  seed: string,
): Result<NewEvent[], RuleViolation> {
  const { meta } = state;
  if (meta.status !== 'active') return err(violation('game/not-active', 'Only a window of a game in progress can lapse', RULE_PLATFORM));
  let sender: Seat | null = null;
  if (input.player !== null) {
    const seat = seatOf(meta, input.player, input.seat);
    if (!seat.ok) return seat;
    sender = seat.value;
  }
  const entry = pendingOf(engine, state as GameState).find((p) => p.window?.id === input.window);
  if (!entry?.window) return err(violation('window/not-open', `No decision window "${input.window}" is open in this game`, RULE_PLATFORM));
  if (entry.deadline === undefined) {
    const why = entry.away ? `its player is away, so its clock stands still` : 'this game has no time limit, so its windows wait for an answer';
    return err(violation('time/no-limit', `"${entry.prompt}" has no deadline: ${why}`, RULE_PLATFORM));
  }
  if (Date.parse(input.now) < Date.parse(entry.deadline)) {
    return err(violation('time/not-yet', `${entry.seat} has until ${entry.deadline} to answer "${entry.prompt}"`, RULE_PLATFORM));
  }
  const rng = rngFor(meta, seed);
  const ctx: Ctx = { rng, now: input.now };
  const decided = engine.decide(state.game, entry.window.default, entry.seat, ctx);
  if (!decided.ok)
    return err(violation('window/default-refused', `The default answer to "${entry.prompt}" is refused: ${decided.error.message}`, RULE_PLATFORM));
  const lapsed: NewEvent = {
    type: 'Game.WindowLapsed',
    data: { seat: entry.seat, window: entry.window.id, deadline: entry.deadline, command: entry.window.default, rngFrom: meta.rngCounter, rngTo: rng.counter },
    visibility: PUBLIC,
    actor: sender,
  };
  return ok(settle(engine, state, [lapsed, ...decided.value.map((em) => splitEngineEvent(em, entry.seat))], ctx, seed));
}
