import type { Ctx } from '../kernel/engine.js';
import { violation, type RuleViolation } from '../kernel/errors.js';
import { err, ok, type Result } from '../kernel/result.js';
import { onlySeats } from '../kernel/visibility.js';
import type { Side } from '../frontline-general/data/schema.js';
import { evolve } from './evolve.js';
import { checkCardStep } from './command-cards.js';
import { checkCommitStep, revealCommitment } from './commitment.js';
import { atLeast, unitIn, isOpenOrder, SEATS, type Command, type OrderStep, type State } from './model.js';
import { no, Out, type Decision } from './out.js';
import { checkPickStep, sealMuster } from './muster.js';
import { commandOf, MIN_CLOSE_ASSAULT, RULE } from './rules.js';
import { rerollInitiative } from './initiative.js';
import { checkDeclareStep, revealDeclaration, smallAssaults } from './target-declaration.js';

/**
 * Sealed orders (001 Commitment Phase: commitment is simultaneous; Target Declaration): each
 * side builds its order step by step in private, then seals it; when both have sealed, the
 * orders are revealed together. The steps themselves are checked by the section they belong
 * to (commitment.ts, command-cards.ts, target-declaration.ts).
 */

/** Cards, units and targets an unsealed order already uses (identical cards do not stack on one target). */
export function orderUses(s: State, order: readonly OrderStep[]): Set<string> {
  const used = new Set<string>();
  for (const st of order) {
    switch (st.kind) {
      case 'commit':
        used.add(st.unit);
        if (st.crew) used.add(st.crew);
        break;
      case 'replaceCrew':
        used.add(st.crew);
        used.add(`to:${st.unit}`);
        break;
      case 'moveCrew':
        used.add(`from:${st.from}`);
        used.add(`to:${st.to}`);
        break;
      case 'moveLine':
        used.add(`line:${st.unit}`);
        break;
      case 'card':
        used.add(st.card);
        if (st.boost) used.add(st.boost);
        used.add(`card:${commandOf(s, st.card).title}:${st.target ?? 'side'}`);
        break;
      case 'attack':
      case 'closeAssault':
        used.add(`attacker:${st.attacker}`);
        break;
      case 'initiativeBoost':
        used.add(st.card);
        break;
      case 'pick': // copies are counted by the pick itself (muster.ts)
        break;
    }
  }
  return used;
}

/** What a step check needs to know about the seat's order so far. */
export function stepContext(s: State, seat: Side) {
  const me = s.seats[seat];
  return {
    me,
    used: orderUses(s, me.order),
    mine: (u: string) => unitIn(s, u)?.controller === seat,
    committing: me.order.filter((x): x is Extract<OrderStep, { kind: 'commit' }> => x.kind === 'commit'),
  };
}

export const bad = (code: string, message: string, rule: string): Result<OrderStep, RuleViolation> => err(violation(code, message, rule));

/** Validates one order step for a seat against the current state; returns the step to record. */
export function checkStep(s: State, seat: Side, c: Command): Result<OrderStep, RuleViolation> {
  switch (c.type) {
    case 'CommitUnit':
    case 'ReplaceCrew':
    case 'MoveCrew':
    case 'MoveLine':
      return checkCommitStep(s, seat, c);
    case 'PlayCommandCard':
      return checkCardStep(s, seat, c);
    case 'DeclareAttack':
    case 'JoinCloseAssault':
      return checkDeclareStep(s, seat, c);
    case 'PickStartingUnit':
      return checkPickStep(s, seat, c);
    default:
      return bad('command/not-an-order-step', `${c.type} is not part of a sealed order`, RULE.commitment);
  }
}

/** An order step sent on its own: checked and added to the seat's unsealed order, unseen by the other side. */
export function decideOrderStep(s: State, seat: Side, c: Command): Decision {
  // From rules version 3 the starting hand is a sealed order too (muster.ts).
  const muster = s.phase === 'muster' && atLeast(s, 3);
  if (!muster && s.phase !== 'commitment' && s.phase !== 'declaration')
    return no('phase/no-orders', 'Orders are given in the Commitment Phase and at Target Declaration', RULE.commitment);
  if (muster && s.seats[seat].handReady) return no('muster/hand-ready', 'Your starting hand is complete', RULE.setup);
  if (!muster && s.seats[seat].sealed) return no('order/sealed', 'Your order is sealed; wait for the other side', RULE.commitment);
  const step = checkStep(s, seat, c);
  if (!step.ok) return step;
  const out = new Out(s);
  out.emit({ type: 'OrderStepAdded', seat, step: step.value }, onlySeats(seat));
  return ok(out.list);
}

export function decideClearOrder(s: State, seat: Side): Decision {
  if (!isOpenOrder(s, seat)) return no('order/not-open', 'You have no open order to clear', RULE.commitment);
  const out = new Out(s);
  out.emit({ type: 'OrderCleared', seat }, onlySeats(seat));
  return ok(out.list);
}

/** The state with the seat's final order: the given steps (replacing any added before), or the order as it stands. */
export function draftOrder(s: State, seat: Side, steps: readonly Command[] | undefined): Result<State, RuleViolation> {
  let draft = steps ? evolve(s, { type: 'OrderCleared', seat }) : s;
  for (const [i, stepCommand] of (steps ?? []).entries()) {
    const step = checkStep(draft, seat, stepCommand);
    if (!step.ok) return err({ ...step.error, message: `Step ${i + 1} (${stepCommand.type}): ${step.error.message}` });
    draft = evolve(draft, { type: 'OrderStepAdded', seat, step: step.value });
  }
  return ok(draft);
}

/** Seals a seat's order (optionally given whole, and with a card set aside for +1 Initiative); the reveal follows when both have sealed. */
export function decideSealOrder(s: State, seat: Side, c: Extract<Command, { type: 'SealOrder' }>, ctx: Ctx): Decision {
  const me = s.seats[seat];
  if (!isOpenOrder(s, seat)) return no('order/not-open', 'You have no open order to seal', RULE.commitment);
  const drafted = draftOrder(s, seat, c.steps);
  if (!drafted.ok) return drafted;
  const draft = drafted.value;
  let order = draft.seats[seat].order;
  if (c.initiativeBoost !== undefined) {
    if (s.phase !== 'declaration' && s.phase !== 'initiative')
      return no('command/boost-phase', 'The Initiative roll follows target declaration', RULE.initiative);
    if (!me.commands.includes(c.initiativeBoost) || orderUses(draft, order).has(c.initiativeBoost))
      return no('command/not-in-hand', `${c.initiativeBoost} is not an unplayed command card in your hand`, RULE.command);
    order = [...order, { kind: 'initiativeBoost', card: c.initiativeBoost }];
  }
  if (s.phase === 'muster') return sealMuster(s, seat, order, ctx, false);
  const small = smallAssaults(order);
  if (small.length)
    return no(
      'combat/close-assault-too-small',
      `A close assault needs ${MIN_CLOSE_ASSAULT} or more infantry; the one on ${small.join(', ')} has fewer`,
      RULE.target,
    );
  // Exactly one private event at every seal, whatever the order holds, so the other side
  // cannot tell a boost or an order given at once from the number of events it did not see.
  const out = new Out(s);
  out.emit({ type: 'OrderFinalized', seat, steps: [...order] }, onlySeats(seat));
  out.emit({ type: 'OrderSealed', seat });
  if (SEATS.every((x) => out.s.seats[x].sealed)) {
    if (s.phase === 'commitment') revealCommitment(out, ctx);
    else if (s.phase === 'initiative') rerollInitiative(out, ctx);
    else revealDeclaration(out, ctx);
  }
  return ok(out.list);
}
