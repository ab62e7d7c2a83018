import type { TimeControl } from './time-control.js';
import type { ReminderLevel } from './reminders.js';
import type { Outcome } from './engine.js';
import type { Seat } from './visibility.js';

/**
 * The platform's own events wrap every engine: creation with the seed commitment, seats
 * joining with their entropy, the start (setup), each accepted command (kept for audit,
 * visible to its sender until the end), standing orders and the answers they gave, lapsed
 * decision windows, reminders, resignations, time-outs and the end with the seed revealed. Their types
 * contain a dot; engine event types never do.
 */
export type KernelEvent =
  | { type: 'Game.Created'; data: GameCreated }
  | { type: 'Game.SeatJoined'; data: { seat: Seat; player: string; entropy: string } }
  | { type: 'Game.Started'; data: DrawRange }
  | { type: 'Game.CommandAccepted'; data: { command: unknown } & DrawRange }
  | { type: 'Game.StandingOrdersSet'; data: { seat: Seat; orders: StandingOrder[] } }
  | { type: 'Game.StandingOrderApplied'; data: { seat: Seat; window: string; order: number; command: unknown } & DrawRange }
  | { type: 'Game.StandingOrderSkipped'; data: { seat: Seat; window: string; order: number; reason: string } }
  | { type: 'Game.WindowLapsed'; data: { seat: Seat; window: string; deadline: string; command: unknown } & DrawRange }
  | { type: 'Game.Resigned'; data: { seat: Seat } }
  | { type: 'Game.Cancelled'; data: { by: string } }
  /** until: when the player's leave runs out (their allowance), after which the clocks run again by themselves. */
  | { type: 'Game.AwayStarted'; data: { seat: Seat; until?: string } }
  | { type: 'Game.AwayEnded'; data: { seat: Seat } }
  /** The scheduler reminded a seat that `level` of its move time is gone (kernel/reminders.ts). */
  | { type: 'Game.Reminded'; data: { seat: Seat; level: ReminderLevel; deadline: string } }
  /** claimedBy: the seat that claimed, or null when the server's scheduler ended the game at the deadline. */
  | { type: 'Game.TimedOut'; data: { seats: Seat[]; claimedBy: Seat | null; idleHours: number } }
  | { type: 'Game.Ended'; data: { outcome: Outcome; seed: string } };

/** The derivation indexes of the committed dice a decision used: [rngFrom, rngTo). */
export interface DrawRange {
  rngFrom: number;
  rngTo: number;
}

export interface GameCreated {
  engine: string;
  /** The rules version the game is played under (see GameEngine.version). */
  engineVersion: number;
  options: unknown;
  seats: { id: Seat; name: string; player: string | null; side?: string }[];
  commitment: string;
  createdBy: string;
  /** Games created before time controls: hours each move may take (read as a per-move control). */
  timeLimitHours?: number;
  /** How long seats may take: per move, or a bank with an increment; none when absent. */
  timeControl?: TimeControl;
  /** Clocks stand still on Saturdays and Sundays (UTC). */
  weekendsOff?: boolean;
  /** The share of the time limit a decision window stays open (default WINDOW_SHARE). */
  windowShare?: number;
  /** Its result moves both players' ratings (a rated casual game or a rated tournament's game): known before anyone joins. */
  rated?: true;
}

/**
 * An answer a seat leaves in advance for a kind of decision window (GameEngine.standingOrders):
 * `rule` names one of the rules the engine offers for `topic`, `params` its settings.
 */
export interface StandingOrder {
  readonly topic: string;
  readonly rule: string;
  readonly params?: unknown;
}

export const isKernelType = (type: string): boolean => type.includes('.');

/** The platform's rulebook, cited by its own violations. */
export const RULE_PLATFORM = 'Fieldpost platform';
