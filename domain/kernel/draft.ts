import type { AnyEngine, Ctx, TypedMessage } from './engine.js';
import { violation, type RuleViolation } from './errors.js';
import type { GameState } from './fold.js';
import { seatOf, zodSummary } from './seats.js';
import type { Rng } from './random.js';
import { err, ok, type Result } from './result.js';
import type { Seat } from './visibility.js';

/**
 * Private drafts of sealed orders (DESIGN: simultaneous moves are sealed).
 *
 * A seat that sends the steps of a sealed order one command at a time shows the other seats
 * how many steps it took, from the version numbers alone. Instead it may draft: the steps are
 * tried on a scratch copy of the game (nothing is stored, the other seats see nothing), and
 * the finished draft travels inside the one command that seals it.
 *
 * A step is safe to try out only if deciding it draws no dice and everything it emits is for
 * the drafting seat alone; both are checked here on every step, whatever the engine claims,
 * so a preview can never reveal a die or another seat's secret.
 */

/** Most steps one draft may hold (a Spearpoint order has at most a few dozen). */
export const MAX_DRAFT_STEPS = 100;

const RULE_DRAFT = 'Fieldpost platform: sealed orders';

export interface DraftInput {
  readonly player: string;
  readonly seat?: Seat;
  readonly steps: readonly unknown[];
  readonly now: string;
}

export interface Drafted<S = unknown> {
  readonly seat: Seat;
  /** The steps, parsed and tidied by the engine: what the seat's draft now is. */
  readonly steps: readonly TypedMessage[];
  /** The engine state as the drafting seat would have it with these steps taken (never stored). */
  readonly game: S;
}

class DraftDrewDice extends Error {}

/** A drafted step may not depend on chance: trying it out must not reveal a die. */
const NO_DICE: Rng = {
  int: () => {
    throw new DraftDrewDice();
  },
  die: () => {
    throw new DraftDrewDice();
  },
  shuffle: () => {
    throw new DraftDrewDice();
  },
  counter: 0,
};

const stepLabel = (i: number, step: unknown): string => {
  const type = (step as { type?: unknown } | null)?.type;
  return `Step ${i + 1}${typeof type === 'string' ? ` (${type})` : ''}`;
};

/** Parses draft steps with the engine's command schema; each must be a command the engine drafts. */
export function parseDraftSteps(engine: AnyEngine, steps: readonly unknown[]): Result<TypedMessage[], RuleViolation> {
  if (!engine.drafts) return err(violation('draft/unsupported', `${engine.title} has no sealed orders to draft`, RULE_DRAFT));
  if (!Array.isArray(steps)) return err(violation('command/malformed', 'A draft is a list of commands', RULE_DRAFT));
  if (steps.length > MAX_DRAFT_STEPS)
    return err(violation('command/malformed', `A draft holds at most ${MAX_DRAFT_STEPS} steps, not ${steps.length}`, RULE_DRAFT));
  const parsed: TypedMessage[] = [];
  for (const [i, step] of steps.entries()) {
    const p = engine.commandSchema.safeParse(step);
    if (!p.success) return err(violation('command/malformed', `${stepLabel(i, step)}: not a ${engine.title} command: ${zodSummary(p.error)}`, RULE_DRAFT));
    if (!engine.drafts.isStep(p.data))
      return err(violation('draft/not-a-step', `${stepLabel(i, step)}: this command cannot be drafted; send it on its own`, RULE_DRAFT));
    parsed.push(p.data as TypedMessage);
  }
  return ok(parsed);
}

/**
 * Tries a seat's draft on a scratch copy of the game and returns the state it leads to.
 * Pure and writes nothing: a preview, not a move.
 */
export function decideDraft<S>(engine: AnyEngine, state: GameState<S>, input: DraftInput): Result<Drafted<S>, RuleViolation> {
  const { meta } = state;
  // The same answers a command gets in a game that is not running.
  if (meta.status === 'open') return err(violation('game/not-started', 'The game starts when every seat has joined', RULE_DRAFT));
  if (meta.status === 'ended') return err(violation('game/over', 'This game is over', RULE_DRAFT));
  const seat = seatOf(meta, input.player, input.seat);
  if (!seat.ok) return seat;
  const steps = parseDraftSteps(engine, input.steps);
  if (!steps.ok) return steps;
  const drafts = engine.drafts!;
  let game: S = drafts.start ? (drafts.start(state.game, seat.value) as S) : state.game;
  const ctx: Ctx = { rng: NO_DICE, now: input.now };
  for (const [i, step] of steps.value.entries()) {
    let decided: ReturnType<AnyEngine['decide']>;
    try {
      decided = engine.decide(game, step, seat.value, ctx);
    } catch (e) {
      if (!(e instanceof DraftDrewDice)) throw e;
      return err(
        violation('draft/not-private', `${stepLabel(i, step)}: this step rolls dice, so it cannot be tried out in private; send it on its own`, RULE_DRAFT),
      );
    }
    if (!decided.ok) return err({ ...decided.error, message: `${stepLabel(i, step)}: ${decided.error.message}` });
    for (const em of decided.value) {
      const v = em.visibility;
      if (!(v.to === 'seats' && v.seats.length === 1 && v.seats[0] === seat.value)) {
        return err(
          violation('draft/not-private', `${stepLabel(i, step)}: this step is seen by others, so it cannot be drafted; send it on its own`, RULE_DRAFT),
        );
      }
      game = engine.evolve(game, em.event);
    }
  }
  return ok({ seat: seat.value, steps: drafts.tidy ? drafts.tidy(steps.value) : steps.value, game });
}

/**
 * The command a seat sends to seal its draft: the engine folds the steps into the sealing
 * command it chose (for example Spearpoint's SealOrder with its `steps`).
 */
export function sealDraft(engine: AnyEngine, finish: TypedMessage, steps: readonly unknown[]): Result<TypedMessage, RuleViolation> {
  const parsed = parseDraftSteps(engine, steps);
  if (!parsed.ok) return parsed;
  const drafts = engine.drafts!;
  const sealed = drafts.seal(finish, drafts.tidy ? drafts.tidy(parsed.value) : parsed.value);
  if (!sealed)
    return err(
      violation(
        'draft/not-a-seal',
        `${finish.type} takes no draft: send the draft with a command that seals an order and carries no steps of its own`,
        RULE_DRAFT,
      ),
    );
  // The log records this command and the verifier parses it back: one the schema refuses (an
  // order longer than the sealing command takes) would be stored and then fail its audit.
  const valid = engine.commandSchema.safeParse(sealed);
  if (!valid.success)
    return err(
      violation('command/malformed', `${finish.type} cannot carry this draft of ${parsed.value.length} steps: ${zodSummary(valid.error)}`, RULE_DRAFT),
    );
  return ok(valid.data as TypedMessage);
}

/** Which of a seat's legal commands are draft steps and which seal a draft (indexes into the list). */
export function draftRoles(engine: AnyEngine, legal: readonly TypedMessage[]): { steps: number[]; seals: number[] } {
  const roles = { steps: [] as number[], seals: [] as number[] };
  if (!engine.drafts) return roles;
  for (const [i, c] of legal.entries()) {
    if (engine.drafts.isStep(c)) roles.steps.push(i);
    else if (engine.drafts.seal(c, []) !== undefined) roles.seals.push(i);
  }
  return roles;
}
