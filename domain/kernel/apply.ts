import type { AnyEngine, Emitted } from './engine.js';
import type { NewEvent } from './envelope.js';
import { isKernelType } from './events.js';
import { foldEvent, type GameMeta, type GameState } from './fold.js';
import { seededRng, type Rng } from './random.js';
import type { Seat } from './visibility.js';

/** Engine events carry their type inside; stored envelopes keep type and data apart. */
export const splitEngineEvent = (em: Emitted<{ type: string }>, actor: Seat | null): NewEvent => {
  const { type, ...data } = em.event;
  if (isKernelType(type)) throw new Error(`engine event type ${type} must not contain a dot`);
  return { type, data, visibility: em.visibility, actor };
};

/** The committed dice of a game, from the next unused draw. */
export const rngFor = (meta: GameMeta, seed: string): Rng =>
  seededRng({ seed, gameId: meta.gameId, entropy: meta.seats.map((s) => s.entropy), counter: meta.rngCounter });

/** Applies new events to a state at time `at` (so a decision can look at its own consequences). */
export function applyNew<S>(engine: AnyEngine, state: GameState<S>, events: readonly NewEvent[], at: string = state.meta.updatedAt): GameState<S> {
  let s = state;
  for (const ev of events) {
    s = foldEvent(engine, s, {
      gameId: s.meta.gameId,
      seq: s.meta.version + 1,
      type: ev.type,
      data: ev.data,
      visibility: ev.visibility,
      actor: ev.actor,
      player: null,
      commandId: '',
      at,
      prevHash: '',
      hash: '',
    });
  }
  return s;
}
