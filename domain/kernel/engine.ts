import type { ZodType } from 'zod';
import type { RuleViolation } from './errors.js';
import type { Result } from './result.js';
import type { Rng } from './random.js';
import type { Scene } from './scene.js';
import type { Seat, Viewer, Visibility } from './visibility.js';

/** What `decide` and `setup` may use besides state: seeded chance and the time, passed in. */
export interface Ctx {
  readonly rng: Rng;
  /** ISO-8601 time the command is being decided at; never read from a clock in domain code. */
  readonly now: string;
}

/** An engine's event together with who may see it. */
export interface Emitted<E> {
  readonly event: E;
  readonly visibility: Visibility;
}

export interface SeatSpec {
  readonly id: Seat;
  readonly name: string;
  /** The side this seat plays for, when seats form teams; a seat is a side of its own otherwise. */
  readonly side?: string;
}

/** Someone the game is waiting for, and what is asked of them. */
export interface Pending {
  readonly seat: Seat;
  /** 'move': an ordinary turn; 'sealed': a hidden simultaneous order; 'reaction': an interrupt on another seat's turn. */
  readonly kind: 'move' | 'sealed' | 'reaction';
  readonly prompt: string;
  /** Set when this is a decision window: a question with a default answer that lapses at its own deadline. */
  readonly window?: DecisionWindow;
}

/**
 * A question put to a seat, often on another seat's turn (opportunity fire, a defender's
 * choice, a rally): the seat answers with one of its legal commands, a standing order answers
 * for it, or, once the window's deadline has passed, the default answer is taken for it.
 * Everything here is public, like the rest of a pending entry.
 */
export interface DecisionWindow {
  /** Unique within the game for as long as the window is open (e.g. 'opfire-17'). */
  readonly id: string;
  /** The kind of question, which standing orders name (e.g. 'opportunity-fire'). */
  readonly topic: string;
  /** Whether the game waits for the answer; a non-blocking window closes when play moves on. */
  readonly blocking: boolean;
  /** The command taken for the seat when the window lapses, usually a pass. It must be legal while the window is open. */
  readonly default: TypedMessage;
}

/** What a standing order does with an open window: answer it, or not apply (with why, when it no longer fits). */
export type StandingAnswer<C> = { readonly answer: C } | { readonly skip: string } | undefined;

/**
 * The decision windows a seat may answer in advance, and the rules it may leave. When a window
 * opens and one of the asked seat's standing orders answers it, the kernel plays the answer in
 * the same append.
 */
export interface StandingOrderRules<S, C extends TypedMessage> {
  readonly rules: readonly StandingOrderRule[];
  /**
   * The answer `order` gives to `window` for `seat`: a command (it must be legal), `{skip}` when
   * the order is about this window but no longer fits (its unit is gone), undefined when it is
   * not about this window. `order.params` has been checked against the rule's schema.
   */
  answer(state: S, seat: Seat, window: DecisionWindow, order: { readonly topic: string; readonly rule: string; readonly params?: unknown }): StandingAnswer<C>;
}

export interface StandingOrderRule {
  readonly topic: string;
  readonly rule: string;
  /** One line a player reads when choosing it. */
  readonly description: string;
  /** Settings the rule takes (e.g. which unit), validated when the order is left; none when absent. */
  readonly params?: ZodType;
}

/** What a listing of engines shows a client or a club (GET /v1/engines). */
export interface EngineListing {
  /** The seat counts games of this engine may have (e.g. [2] or [2, 4]). */
  readonly seats: readonly number[];
  /** The sides seats play for; seats of one side win or lose together. */
  readonly sides: readonly { readonly id: string; readonly name: string }[];
  /** Named set-ups chosen by an option, with a line each. */
  readonly scenarios?: { readonly option: string; readonly choices: readonly { readonly id: string; readonly title: string; readonly description: string }[] };
}

export interface Outcome {
  readonly winners: readonly Seat[];
  readonly reason: string;
  readonly score?: Readonly<Record<Seat, number>>;
}

export interface TypedMessage {
  readonly type: string;
}

/**
 * One game system. Pure: no I/O, no clock, no Math.random. `legalCommands` is the single
 * source of truth for what a seat may do; `decide` accepts exactly those commands (for
 * commands with large choice spaces it may describe a representative set, and `decide`
 * then validates the general case).
 */
export interface GameEngine<S = unknown, C extends TypedMessage = TypedMessage, E extends TypedMessage = TypedMessage, O = unknown> {
  readonly id: string;
  readonly title: string;
  /**
   * The rules version new games are created under. Bump it when a rules change would decide a
   * command differently or fold an event differently; stored snapshots of another version are
   * ignored and the game refolded.
   */
  readonly version: number;
  /**
   * Older rules versions whose games this engine still folds, plays on and verifies: each game
   * keeps the rules it was created under (`initialState` receives that version).
   */
  readonly olderVersions?: readonly number[];
  /** Needed when a game is created and by the listing, never by a command: an engine may build it on first access, with a getter (issue 16: cold starts). */
  readonly optionsSchema: ZodType<O>;
  readonly commandSchema: ZodType<C>;
  /** Seats for these options (2 to 4). Engine event types must not contain a dot: those are the kernel's. */
  seats(options: O): readonly SeatSpec[];
  /** The state before setup, under the rules version the game was created with. */
  initialState(options: O, rulesVersion: number): S;
  /**
   * Keys of the state (an object) that setup fixes and no event changes, such as a card catalog:
   * a snapshot keeps each once per game by content hash instead of a copy in every snapshot, and
   * a server parses it once. A value that does change anyway is still stored correctly (as a new
   * copy), so this is a promise about cost, never about correctness.
   */
  readonly staticState?: readonly string[];
  /** Runs once, when every seat has joined: deals, shuffles, places. */
  setup(state: S, ctx: Ctx): Result<readonly Emitted<E>[], RuleViolation>;
  evolve(state: S, event: E): S;
  decide(state: S, command: C, actor: Seat, ctx: Ctx): Result<readonly Emitted<E>[], RuleViolation>;
  view(state: S, viewer: Viewer): unknown;
  pending(state: S): readonly Pending[];
  outcome(state: S): Outcome | undefined;
  legalCommands(state: S, seat: Seat): readonly C[];
  /** How the game ends when seats resign or run out of time; by default their sides lose and every other side wins. */
  concede?(state: S, seats: readonly Seat[], reason: 'resigned' | 'timed-out'): Outcome;
  /** The decision windows a seat may answer in advance with standing orders. */
  readonly standingOrders?: StandingOrderRules<S, C>;
  readonly listing: EngineListing;
  /**
   * The picture of what `viewer` sees (kernel/scene.ts), drawn by the kernel as SVG and text.
   * It must show no more than `view` does for the same viewer: build it from the view.
   */
  scene?(state: S, viewer: Viewer): Scene;
  /**
   * Sealed orders that may be drafted in private (see kernel/draft.ts): which commands are
   * steps of an order, and how the command that seals an order carries a finished draft.
   */
  readonly drafts?: DraftRules<S, C>;
  /**
   * A scenario carried over: a new game's `options` with the final state of a finished game of
   * this engine added (e.g. its final map). The platform resolves it at create, so the new game's
   * Game.Created holds explicit options and verifies alone.
   */
  carryOver?(finished: S, options: unknown): Result<unknown, RuleViolation>;
}

export interface DraftRules<S, C extends TypedMessage> {
  /** A step of a sealed order. It must draw no dice and emit events for its own seat only. */
  isStep(command: C): boolean;
  /** `finish` (a sealing command from legalCommands) carrying the draft's steps, already tidied; undefined when `finish` seals nothing. */
  seal(finish: C, steps: readonly C[]): C | undefined;
  /** The state a draft is tried on, when it differs from the game's (e.g. earlier steps the seal will replace dropped). */
  start?(state: S, seat: Seat): S;
  /** The same draft without steps that no longer count (e.g. those before a step that starts the order over). */
  tidy?(steps: readonly C[]): C[];
}

/** Whether an engine still plays games created under rules version `v`. */
export const playsVersion = (engine: Pick<GameEngine, 'version' | 'olderVersions'>, v: number): boolean =>
  v === engine.version || (engine.olderVersions ?? []).includes(v);

/** Erased engine type used by registries and the platform. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEngine = GameEngine<any, any, any, any>;
