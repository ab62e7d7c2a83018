import { scriptedRng, type Ctx } from '../../domain/kernel/index.js';
import { actionFront, type Command, type Event, type State } from '../../domain/action-front/index.js';
import { evolve } from '../../domain/action-front/evolve.js';
import { FULL_DECK } from '../../domain/action-front/data/cards.js';
import type { Phase, UnitState } from '../../domain/action-front/model.js';

/** A fresh game state for options (before set-up). */
export const fresh = (options: unknown = {}): State => actionFront.initialState(actionFront.optionsSchema.parse(options), actionFront.version);

/**
 * A position built by hand, for rule tests and the reconstructed worked examples: units put in
 * hexes ({id: hex}), the rest left waiting; the phase and the active side; the deck stacked with
 * `top` first, then the other cards in their usual order.
 */
export function position(opts: {
  options?: unknown;
  at: Record<string, string>;
  phase?: Phase;
  active?: 'allies' | 'axis';
  top?: string[];
  units?: Partial<Record<string, Partial<UnitState>>>;
  markers?: State['markers'];
}): State {
  const s = fresh(opts.options ?? {});
  const top = opts.top ?? [];
  return {
    ...s,
    phase: opts.phase ?? 'action',
    turn: 1,
    active: opts.active ?? 'allies',
    units: s.units.map((u) => {
      const hex = Object.hasOwn(opts.at, u.id) ? opts.at[u.id]! : null;
      const placed: UnitState = hex ? { ...u, hex, status: 'map', startHex: hex } : u;
      return { ...placed, ...(opts.units?.[u.id] ?? {}) };
    }),
    markers: opts.markers ?? [],
    deck: { draw: [...top, ...FULL_DECK.filter((c) => !top.includes(c))], discard: [] },
  };
}

/** Decides a command on a position with dice that must not be needed (a stacked deck never reshuffles). */
export function play(s: State, seat: string, c: Command): { state: State; events: Event[] } {
  const ctx: Ctx = { rng: scriptedRng([]), now: '2026-01-01T00:00:00.000Z' };
  const r = actionFront.decide(s, c, seat, ctx);
  if (!r.ok) throw new Error(`${JSON.stringify(c)} refused: ${r.error.code} ${r.error.message}`);
  const events = r.value.map((e) => e.event);
  return { state: events.reduce(evolve, s), events };
}

export const refused = (s: State, seat: string, c: Command): string => {
  const r = actionFront.decide(s, c, seat, { rng: scriptedRng([]), now: '' });
  if (r.ok) throw new Error(`${JSON.stringify(c)} was accepted`);
  return r.error.code;
};

export const unit = (s: State, id: string): UnitState => s.units.find((u) => u.id === id)!;
