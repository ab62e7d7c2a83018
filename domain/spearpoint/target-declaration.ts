import type { Ctx } from '../kernel/engine.js';
import type { RuleViolation } from '../kernel/errors.js';
import { err, ok, type Result } from '../kernel/result.js';
import type { Side } from '../frontline-general/data/schema.js';
import { endCombat, sweepVoid } from './combat.js';
import { playCard } from './command-cards.js';
import { rollInitiative } from './initiative.js';
import { SEATS, type Attack, type Command, type OrderStep, type State } from './model.js';
import { bad, stepContext } from './orders.js';
import type { Out } from './out.js';
import { closeAssaultProblem, MIN_CLOSE_ASSAULT, RULE, targetProblem } from './rules.js';

/**
 * 001 Combat Phase: Target Declaration. Each unit declares one legal target, with one or two of
 * its weapons; three or more infantry may close assault an armored unit together. Declarations
 * are sealed (orders.ts) and revealed together, with the declaration's command cards; then
 * Initiative is rolled (initiative.ts). Which targets are legal: rules.ts (targetProblem).
 */

/** A declaration step: DeclareAttack or JoinCloseAssault. */
export function checkDeclareStep(s: State, seat: Side, c: Command): Result<OrderStep, RuleViolation> {
  const { used, mine } = stepContext(s, seat);
  switch (c.type) {
    case 'DeclareAttack': {
      if (s.phase !== 'declaration') return bad('phase/not-declaration', 'Targets are declared after commitment', RULE.target);
      if (!mine(c.attacker)) return bad('combat/not-your-unit', `${c.attacker} is not one of your units in the battle area`, RULE.target);
      if (used.has(`attacker:${c.attacker}`)) return bad('combat/already-declared', 'Each unit declares one target', RULE.target);
      const p = targetProblem(s, c.attacker, c.target, c.weapons);
      if (p) return err(p);
      return ok({ kind: 'attack', attacker: c.attacker, target: c.target, weapons: c.weapons });
    }
    case 'JoinCloseAssault': {
      if (s.phase !== 'declaration') return bad('phase/not-declaration', 'Targets are declared after commitment', RULE.target);
      if (!mine(c.attacker)) return bad('combat/not-your-unit', `${c.attacker} is not one of your units in the battle area`, RULE.target);
      if (used.has(`attacker:${c.attacker}`)) return bad('combat/already-declared', 'Each unit declares one target', RULE.target);
      const p = closeAssaultProblem(s, c.attacker, c.target);
      if (p) return err(p);
      return ok({ kind: 'closeAssault', attacker: c.attacker, target: c.target });
    }
    default:
      return bad('command/not-an-order-step', `${c.type} is not a target declaration step`, RULE.target);
  }
}

/** Close-assault groups that are too small to seal (three or more infantry needed). */
export function smallAssaults(order: readonly OrderStep[]): string[] {
  const groups = new Map<string, number>();
  for (const st of order) if (st.kind === 'closeAssault') groups.set(st.target, (groups.get(st.target) ?? 0) + 1);
  return [...groups].filter(([, n]) => n < MIN_CLOSE_ASSAULT).map(([t]) => t);
}

/** Both declarations are revealed: the attacks are listed, the declaration cards played, void attacks dropped, Initiative rolled. */
export function revealDeclaration(out: Out, ctx: Ctx): void {
  const s = out.s;
  const orders = { us: [...s.seats.us.order], de: [...s.seats.de.order] };
  const attacks: Attack[] = [];
  for (const seat of SEATS) {
    let n = 0;
    const groups = new Map<string, string[]>();
    for (const st of orders[seat]) {
      if (st.kind === 'attack')
        attacks.push({
          id: `t${s.turn}-${seat}-${++n}`,
          seat,
          attackers: [st.attacker],
          target: st.target,
          weapons: st.weapons,
          closeAssault: false,
          status: 'pending',
          shotsDone: 0,
        });
      if (st.kind === 'closeAssault') groups.set(st.target, [...(groups.get(st.target) ?? []), st.attacker]);
    }
    for (const [target, attackers] of groups)
      attacks.push({ id: `t${s.turn}-${seat}-${++n}`, seat, attackers, target, weapons: [], closeAssault: true, status: 'pending', shotsDone: 0 });
  }
  // A card set aside for +1 Initiative is not named by the reveal: it is discarded (face up) only
  // if Initiative is rolled, and otherwise stays secret in the hand.
  const hideBoost = (order: OrderStep[]) => order.filter((st) => st.kind !== 'initiativeBoost');
  out.emit({ type: 'DeclarationRevealed', orders: { us: hideBoost(orders.us), de: hideBoost(orders.de) }, attacks });
  for (const seat of SEATS) for (const st of orders[seat]) if (st.kind === 'card') playCard(out, ctx, seat, st);
  sweepVoid(out);
  const pending = out.s.attacks.filter((a) => a.status === 'pending');
  if (pending.length === 0) {
    out.emit({ type: 'CombatBegan', chooser: null });
    endCombat(out);
    return;
  }
  rollInitiative(out, ctx, orders);
}
