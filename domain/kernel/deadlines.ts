import { rngFor, splitEngineEvent } from './apply.js';
import { conceded, ended, settle } from './decision.js';
import type { AnyEngine, Ctx, DecisionWindow, Pending } from './engine.js';
import type { NewEvent } from './envelope.js';
import { violation, type RuleViolation } from './errors.js';
import { RULE_PLATFORM } from './events.js';
import { waitingKey, type GameMeta, type GameState } from './fold.js';
import { err, ok, type Result } from './result.js';
import { seatOf } from './seats.js';
import { PUBLIC, type Seat } from './visibility.js';

/**
 * Time for correspondence play. A game created with a time limit gives every seat it waits for
 * that many hours from the moment it began waiting; a decision window gets a share of it
 * (windowShare, a quarter by default). A seat that lets its move run out may be claimed against
 * and loses; a window that runs out only takes its default answer, so missing an optional
 * question never costs the game.
 */
export const MIN_TIME_LIMIT_HOURS = 1;
export const MAX_TIME_LIMIT_HOURS = 24 * 60;
/** The share of the time limit a decision window stays open when the game sets none. */
export const WINDOW_SHARE = 0.25;

const HOUR_MS = 3_600_000;
const addHours = (iso: string, hours: number): string => new Date(Date.parse(iso) + hours * HOUR_MS).toISOString();

/** A pending entry as players see it: who, what, since when and until when. */
export type PendingEntry = Pending & { player: string | null; since: string; deadline?: string };

/** Who must act now and by when, empty unless the game is running. */
export function pendingOf(engine: AnyEngine, state: GameState): PendingEntry[] {
  const { meta } = state;
  if (meta.status !== 'active') return [];
  return engine.pending(state.game).map((p) => {
    const since = sinceOf(meta, p.seat, waitingKey(p));
    const deadline = deadlineOf(meta, since, p.window !== undefined);
    return { ...p, player: meta.seats.find((s) => s.id === p.seat)?.player ?? null, since, ...(deadline ? { deadline } : {}) };
  });
}

const sinceOf = (meta: GameMeta, seat: Seat, key: string): string => meta.waiting.find((w) => w.seat === seat && w.key === key)?.since ?? meta.updatedAt;

function deadlineOf(meta: GameMeta, since: string, isWindow: boolean): string | undefined {
  if (meta.timeLimitHours === undefined) return undefined;
  return addHours(since, meta.timeLimitHours * (isWindow ? (meta.windowShare ?? WINDOW_SHARE) : 1));
}

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
  if (meta.timeLimitHours === undefined) return err(violation('time/no-limit', 'This game has no time limit', RULE_PLATFORM));
  const moves = pendingOf(engine, state as GameState).filter((p) => p.window === undefined);
  if (moves.some((p) => p.seat === seat.value)) return err(violation('time/your-move', 'The game is waiting for you: make your move instead', RULE_PLATFORM));
  if (moves.length === 0) return err(violation('time/nobody-late', 'The game is not waiting for anyone to move', RULE_PLATFORM));
  const overdue = moves.filter((p) => Date.parse(input.now) >= Date.parse(p.deadline!));
  if (overdue.length === 0) {
    const first = [...moves].sort((a, b) => Date.parse(a.deadline!) - Date.parse(b.deadline!))[0]!;
    const waiting = [...new Set(moves.map((p) => p.seat))];
    return err(violation('time/not-yet', `${waiting.join(', ')} ${waiting.length === 1 ? 'has' : 'have'} until ${first.deadline} to move`, RULE_PLATFORM));
  }
  const late = [...new Set(overdue.map((p) => p.seat))];
  const since = Math.min(...overdue.map((p) => Date.parse(p.since)));
  const idleHours = Math.floor((Date.parse(input.now) - since) / HOUR_MS);
  const reason = `${late.join(', ')} ran out of time (${idleHours} h without a move; the limit is ${meta.timeLimitHours} h)`;
  return ok([
    { type: 'Game.TimedOut', data: { seats: late, claimedBy: seat.value, idleHours }, visibility: PUBLIC, actor: seat.value },
    ended(conceded(engine, state as GameState, late, 'timed-out', reason), seed),
  ]);
}

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
  if (entry.deadline === undefined) return err(violation('time/no-limit', 'This game has no time limit, so its windows wait for an answer', RULE_PLATFORM));
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
