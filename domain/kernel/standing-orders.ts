import { applyNew, splitEngineEvent } from './apply.js';
import type { AnyEngine, Ctx, DecisionWindow, TypedMessage } from './engine.js';
import type { NewEvent } from './envelope.js';
import { violation, type RuleViolation } from './errors.js';
import { RULE_PLATFORM, type StandingOrder } from './events.js';
import { standingOrdersOf, waitingKey, type GameState } from './fold.js';
import { err, ok, type Result } from './result.js';
import { seatOf, zodSummary } from './seats.js';
import { onlySeats, type Seat } from './visibility.js';

/**
 * Standing orders (DESIGN: decision windows, not ad-hoc prompts). A seat leaves answers for
 * kinds of decision window in advance ("always pass on opportunity fire"); when such a window
 * opens for it, the kernel plays the answer in the same append, so a game played a move a day
 * does not stall a day on a foregone answer. The orders and every answer they give are seen by
 * their seat only; what the answer does in the game is as visible as the engine makes it.
 */

/** Most standing orders one seat may leave in a game. */
export const MAX_STANDING_ORDERS = 20;
/** Most answers standing orders may give within one decision (each may open another window). */
const MAX_AUTO_ANSWERS = 64;

/** Checks a seat's list of standing orders against the rules its engine offers. */
export function parseStandingOrders(engine: AnyEngine, orders: unknown): Result<StandingOrder[], RuleViolation> {
  const rules = engine.standingOrders?.rules ?? [];
  if (rules.length === 0) return err(violation('standing/unsupported', `${engine.title} has no decision windows to answer in advance`, RULE_PLATFORM));
  if (!Array.isArray(orders)) return err(violation('standing/malformed', 'Standing orders are a list of {topic, rule, params?}', RULE_PLATFORM));
  if (orders.length > MAX_STANDING_ORDERS)
    return err(violation('standing/malformed', `At most ${MAX_STANDING_ORDERS} standing orders, not ${orders.length}`, RULE_PLATFORM));
  const out: StandingOrder[] = [];
  for (const [i, raw] of orders.entries()) {
    const o = raw as { topic?: unknown; rule?: unknown; params?: unknown } | null;
    const rule = rules.find((r) => r.topic === o?.topic && r.rule === o?.rule);
    if (!rule) {
      const offered = rules.map((r) => `${r.topic}/${r.rule}`).join(', ');
      return err(violation('standing/unknown-rule', `Order ${i + 1}: ${engine.title} offers no such standing order; it offers ${offered}`, RULE_PLATFORM));
    }
    if (rule.params === undefined) {
      if (o!.params !== undefined) return err(violation('standing/malformed', `Order ${i + 1} (${rule.topic}/${rule.rule}) takes no params`, RULE_PLATFORM));
      out.push({ topic: rule.topic, rule: rule.rule });
      continue;
    }
    const params = rule.params.safeParse(o!.params);
    if (!params.success) return err(violation('standing/malformed', `Order ${i + 1} (${rule.topic}/${rule.rule}): ${zodSummary(params.error)}`, RULE_PLATFORM));
    out.push({ topic: rule.topic, rule: rule.rule, params: params.data });
  }
  return ok(out);
}

/** A seat replaces its standing orders (an empty list clears them). Open windows they answer are answered at once. */
export function standingOrdersEvent(
  engine: AnyEngine,
  state: GameState,
  input: { player: string; seat?: Seat; orders: unknown },
): Result<{ seat: Seat; event: NewEvent }, RuleViolation> {
  if (state.meta.status === 'ended') return err(violation('game/over', 'This game is over', RULE_PLATFORM));
  const seat = seatOf(state.meta, input.player, input.seat);
  if (!seat.ok) return seat;
  const orders = parseStandingOrders(engine, input.orders);
  if (!orders.ok) return orders;
  return ok({
    seat: seat.value,
    event: { type: 'Game.StandingOrdersSet', data: { seat: seat.value, orders: orders.value }, visibility: onlySeats(seat.value), actor: seat.value },
  });
}

/** The windows open now, with the seat each asks. */
export const openWindows = (engine: AnyEngine, state: GameState): { seat: Seat; window: DecisionWindow }[] =>
  state.meta.status === 'active' ? engine.pending(state.game).flatMap((p) => (p.window ? [{ seat: p.seat, window: p.window }] : [])) : [];

/**
 * Plays the answers standing orders give to windows that `events` opened (or, for `recheck`,
 * every open window of that seat), after `events`. Returns `events` with the answers appended,
 * and the state after them when it folded them all (so its caller need not fold them again).
 * An order that no longer fits is noted for its seat and the window stays open for the player.
 */
export function answerWindows(
  engine: AnyEngine,
  before: GameState,
  events: readonly NewEvent[],
  ctx: Ctx,
  recheck?: Seat,
): { events: NewEvent[]; after?: GameState } {
  const rules = engine.standingOrders;
  const out = [...events];
  if (!rules) return { events: out };
  const wasOpen = new Set(before.meta.waiting.map((w) => `${w.seat}\u0000${w.key}`));
  const tried = new Set<string>();
  for (let answered = 0; answered < MAX_AUTO_ANSWERS;) {
    const now = applyNew(engine, before, out, ctx.now);
    if (engine.outcome(now.game)) return { events: out, after: now };
    const keyOf = (seat: Seat, window: DecisionWindow) => `${seat}\u0000${waitingKey({ kind: 'reaction', window })}`;
    const next = openWindows(engine, now).find(({ seat, window }) => {
      const key = keyOf(seat, window);
      return !tried.has(key) && (seat === recheck || !wasOpen.has(key)) && standingOrdersOf(now.meta, seat).some((o) => o.topic === window.topic);
    });
    if (!next) return { events: out, after: now };
    const { seat, window } = next;
    tried.add(keyOf(seat, window));
    for (const [i, order] of standingOrdersOf(now.meta, seat).entries()) {
      if (order.topic !== window.topic) continue;
      const said = rules.answer(now.game, seat, window, order);
      if (said === undefined) continue;
      if ('skip' in said) {
        out.push(skipped(seat, window, i, said.skip));
        continue;
      }
      const rngFrom = ctx.rng.counter;
      const decided = engine.decide(now.game, said.answer as TypedMessage, seat, ctx);
      if (!decided.ok) {
        // The order chose something the rules refuse now: it no longer fits this window.
        out.push(skipped(seat, window, i, decided.error.message));
        continue;
      }
      out.push({
        type: 'Game.StandingOrderApplied',
        data: { seat, window: window.id, order: i, command: said.answer, rngFrom, rngTo: ctx.rng.counter },
        visibility: onlySeats(seat),
        actor: seat,
      });
      out.push(...decided.value.map((em) => splitEngineEvent(em, seat)));
      answered += 1;
      break;
    }
  }
  return { events: out };
}

const skipped = (seat: Seat, window: DecisionWindow, order: number, reason: string): NewEvent => ({
  type: 'Game.StandingOrderSkipped',
  data: { seat, window: window.id, order, reason },
  visibility: onlySeats(seat),
  actor: seat,
});
