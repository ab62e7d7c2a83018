import { rngFor, splitEngineEvent } from './apply.js';
import { settle } from './decision.js';
import { sealDraft } from './draft.js';
import type { AnyEngine, Ctx, TypedMessage } from './engine.js';
import type { NewEvent } from './envelope.js';
import { violation, type RuleViolation } from './errors.js';
import { RULE_PLATFORM } from './events.js';
import type { GameState } from './fold.js';
import { err, ok, type Result } from './result.js';
import { seatOf, zodSummary } from './seats.js';
import { standingOrdersEvent } from './standing-orders.js';
import { onlySeats, type Seat } from './visibility.js';

/** A seat's moves: a command decided by the engine, and standing orders left for decision windows. */

export interface PlayInput {
  readonly player: string;
  readonly seat?: Seat;
  readonly command: unknown;
  readonly now: string;
  /** Steps drafted in private (kernel/draft.ts), sealed by `command`. */
  readonly draft?: readonly unknown[];
}

export function decidePlay<S>(engine: AnyEngine, state: GameState<S>, input: PlayInput, seed: string): Result<NewEvent[], RuleViolation> {
  const { meta } = state;
  if (meta.status === 'open') return err(violation('game/not-started', 'The game starts when every seat has joined', RULE_PLATFORM));
  if (meta.status === 'ended') return err(violation('game/over', 'This game is over', RULE_PLATFORM));
  const seat = seatOf(meta, input.player, input.seat);
  if (!seat.ok) return seat;
  const parsed = engine.commandSchema.safeParse(input.command);
  if (!parsed.success) return err(violation('command/malformed', `Not a ${engine.title} command: ${zodSummary(parsed.error)}`, RULE_PLATFORM));
  // A sealed draft is recorded as the one command it became, so the verifier re-decides that.
  let command = parsed.data as TypedMessage;
  if (input.draft !== undefined) {
    const sealed = sealDraft(engine, command, input.draft);
    if (!sealed.ok) return sealed;
    command = sealed.value;
  }
  const rng = rngFor(meta, seed);
  const ctx: Ctx = { rng, now: input.now };
  const decided = engine.decide(state.game, command, seat.value, ctx);
  if (!decided.ok) return decided;
  const accepted: NewEvent = {
    type: 'Game.CommandAccepted',
    data: { command, rngFrom: meta.rngCounter, rngTo: rng.counter },
    visibility: onlySeats(seat.value),
    actor: seat.value,
  };
  return ok(settle(engine, state, [accepted, ...decided.value.map((em) => splitEngineEvent(em, seat.value))], ctx, seed));
}

/**
 * A seat replaces its standing orders. Windows already open for it that the new orders answer
 * are answered in the same append.
 */
export function decideStandingOrders<S>(
  engine: AnyEngine,
  state: GameState<S>,
  input: { player: string; seat?: Seat; orders: unknown; now: string },
  seed: string,
): Result<NewEvent[], RuleViolation> {
  const set = standingOrdersEvent(engine, state as GameState, input);
  if (!set.ok) return set;
  if (state.meta.status !== 'active') return ok([set.value.event]);
  return ok(settle(engine, state, [set.value.event], { rng: rngFor(state.meta, seed), now: input.now }, seed, set.value.seat));
}
