import { applyNew } from './apply.js';
import type { AnyEngine, Ctx, Outcome } from './engine.js';
import type { NewEvent } from './envelope.js';
import type { GameState } from './fold.js';
import { answerWindows } from './standing-orders.js';
import { PUBLIC, type Seat } from './visibility.js';

/**
 * Finishes a decision: standing orders answer the windows it opened (recheck: every open
 * window of a seat whose orders just changed), then Game.Ended follows when the engine reports
 * an outcome.
 */
export function settle<S>(engine: AnyEngine, before: GameState<S>, events: readonly NewEvent[], ctx: Ctx, seed: string, recheck?: Seat): NewEvent[] {
  const { events: all, after } = answerWindows(engine, before as GameState, events, ctx, recheck);
  const outcome = engine.outcome((after ?? applyNew(engine, before as GameState, all, ctx.now)).game);
  return outcome ? [...all, ended(outcome, seed)] : all;
}

export const ended = (outcome: Outcome, seed: string): NewEvent => ({ type: 'Game.Ended', data: { outcome, seed }, visibility: PUBLIC, actor: null });

/**
 * The end when seats resign or run out of time: the engine's ruling (a team game may rule
 * otherwise), or by default their sides lose and every seat of every other side wins.
 */
export function conceded(engine: AnyEngine, state: GameState, seats: readonly Seat[], reason: 'resigned' | 'timed-out', text: string): Outcome {
  if (engine.concede) return engine.concede(state.game, seats, reason);
  const losing = new Set(state.meta.seats.filter((s) => seats.includes(s.id)).map((s) => s.side));
  return { winners: state.meta.seats.filter((s) => !losing.has(s.side)).map((s) => s.id), reason: text };
}
