import type { Ctx } from '../kernel/engine.js';
import type { RuleViolation } from '../kernel/errors.js';
import { ok, type Result } from '../kernel/result.js';
import type { Side } from '../frontline-general/data/schema.js';
import { playCard } from './command-cards.js';
import { unitIn, SEATS, type Command, type OrderStep, type State } from './model.js';
import { bad, stepContext } from './orders.js';
import type { Out } from './out.js';
import { cardOf, commandOf, commitLine, HAND_LIMIT_UNITS, isGroundType, isMobileArtillery, RULE } from './rules.js';
import { checkVictory } from './victory.js';

/**
 * 001 Commitment Phase: units from the hand go to the front or rear line (aircraft to none), a
 * crewed unit with its crew; a replacement crew may join a unit that lost its own; crews of
 * ground units move between units; mobile artillery changes lines. Everything is revealed at
 * once when both sides have sealed (orders.ts), then the command cards of the commitment are
 * played (command-cards.ts).
 */

/** A commitment step: CommitUnit, ReplaceCrew, MoveCrew or MoveLine. */
export function checkCommitStep(s: State, seat: Side, c: Command): Result<OrderStep, RuleViolation> {
  const { me, used, mine, committing } = stepContext(s, seat);
  switch (c.type) {
    case 'CommitUnit': {
      if (s.phase !== 'commitment') return bad('phase/not-commitment', 'Units are committed in the Commitment Phase', RULE.commitment);
      if (!me.hand.includes(c.unit) || used.has(c.unit))
        return bad('commitment/not-in-hand', `${c.unit} is not an uncommitted unit in your hand`, RULE.commitment);
      const card = cardOf(s, c.unit);
      if (card.type === 'crew')
        return bad('commitment/crew-alone', 'A crew is committed with the unit it crews, or to replace the lost crew of a unit in play', RULE.commitment);
      const airFrom = s.situation.rules.aircraftFromTurn?.[seat];
      if (card.type === 'aircraft' && airFrom !== undefined && s.turn < airFrom)
        return bad('situation/no-aircraft-yet', `In ${s.situation.title} your aircraft may be committed from turn ${airFrom}`, RULE.situation);
      if (committing.length >= HAND_LIMIT_UNITS)
        return bad('commitment/too-many', `At most ${HAND_LIMIT_UNITS} units are committed in one turn`, RULE.commitment);
      let crew: string | null = null;
      if (card.crew !== 'none') {
        if (c.crew === undefined) return bad('commitment/crew-required', `${card.title} needs a ${card.crew} crew committed with it`, RULE.commitment);
        if (!me.hand.includes(c.crew) || used.has(c.crew))
          return bad('commitment/crew-not-in-hand', `${c.crew} is not an uncommitted crew in your hand`, RULE.commitment);
        const cc = cardOf(s, c.crew);
        if (cc.type !== 'crew' || cc.crewKind !== card.crew)
          return bad('commitment/wrong-crew', `${card.title} needs a ${card.crew} crew, not ${cc.title}`, RULE.commitment);
        crew = c.crew;
      } else if (c.crew !== undefined) return bad('commitment/no-crew-needed', `${card.title} needs no crew (N/C)`, RULE.commitment);
      const line = commitLine(card, c.line);
      if (line === null) return bad('commitment/line-required', `${card.title} is mobile artillery: choose the front or rear line`, RULE.commitment);
      if (c.line !== undefined && card.line !== 'either' && c.line !== line)
        return bad('commitment/wrong-line', `${card.title} is committed to the ${line === 'air' ? 'no' : line} line`, RULE.commitment);
      return ok({ kind: 'commit', unit: c.unit, crew, line });
    }
    case 'ReplaceCrew': {
      if (s.phase !== 'commitment') return bad('phase/not-commitment', 'Crews are committed in the Commitment Phase', RULE.commitment);
      if (!me.hand.includes(c.crew) || used.has(c.crew))
        return bad('commitment/crew-not-in-hand', `${c.crew} is not an uncommitted crew in your hand`, RULE.commitment);
      const u = unitIn(s, c.unit);
      if (!u || !mine(c.unit)) return bad('commitment/not-your-unit', `${c.unit} is not one of your units in the battle area`, RULE.commitment);
      const card = cardOf(s, c.unit);
      const cc = cardOf(s, c.crew);
      if (card.crew === 'none' || cc.crewKind !== card.crew) return bad('commitment/wrong-crew', `${cc.title} cannot crew ${card.title}`, RULE.commitment);
      if (u.crew !== null || used.has(`to:${c.unit}`)) return bad('commitment/already-crewed', `${card.title} already has a crew`, RULE.commitment);
      return ok({ kind: 'replaceCrew', crew: c.crew, unit: c.unit });
    }
    case 'MoveCrew': {
      if (s.phase !== 'commitment') return bad('phase/not-commitment', 'Crews move in the Commitment Phase', RULE.commitment);
      const from = unitIn(s, c.from);
      const to = unitIn(s, c.to);
      if (!from || !to || !mine(c.from) || !mine(c.to) || c.from === c.to)
        return bad('commitment/not-your-unit', 'Move a crew between two of your units in the battle area', RULE.commitment);
      const fc = cardOf(s, c.from);
      const tc = cardOf(s, c.to);
      if (!isGroundType(fc.type) || !isGroundType(tc.type))
        return bad('commitment/ground-only', 'Only crews of ground units move between units', RULE.commitment);
      if (from.crew === null || used.has(`from:${c.from}`) || used.has(`to:${c.from}`))
        return bad('commitment/no-crew', `${fc.title} has no crew to move`, RULE.commitment);
      if (to.crew !== null || used.has(`to:${c.to}`) || used.has(`from:${c.to}`))
        return bad('commitment/already-crewed', `${tc.title} already has a crew`, RULE.commitment);
      if (tc.crew !== fc.crew) return bad('commitment/wrong-crew', `A ${fc.crew} crew cannot crew ${tc.title}`, RULE.commitment);
      return ok({ kind: 'moveCrew', from: c.from, to: c.to });
    }
    case 'MoveLine': {
      if (s.phase !== 'commitment') return bad('phase/not-commitment', 'Mobile artillery changes lines in the Commitment Phase', RULE.commitment);
      const u = unitIn(s, c.unit);
      if (!u || !mine(c.unit)) return bad('commitment/not-your-unit', `${c.unit} is not one of your units in the battle area`, RULE.commitment);
      const card = cardOf(s, c.unit);
      if (!isMobileArtillery(card)) return bad('commitment/not-mobile', `${card.title} is not mobile artillery`, RULE.commitment);
      if (u.immobilized) return bad('commitment/immobilized', `${card.title} is immobilized`, RULE.damage);
      if (u.line === c.line || used.has(`line:${c.unit}`))
        return bad('commitment/same-line', `${card.title} is already on the ${c.line} line`, RULE.commitment);
      return ok({ kind: 'moveLine', unit: c.unit, line: c.line });
    }
    default:
      return bad('command/not-an-order-step', `${c.type} is not a commitment step`, RULE.commitment);
  }
}

/**
 * The public copy of a revealed order: a card named to boost a capture roll stays in the hand
 * until that roll is made (it is shown as it is discarded), so the reveal does not name it.
 */
const publicOrder = (order: readonly OrderStep[]): OrderStep[] => order.map((st) => (st.kind === 'card' && st.boost !== null ? { ...st, boost: null } : st));

export function revealCommitment(out: Out, ctx: Ctx): void {
  const orders = { us: [...out.s.seats.us.order], de: [...out.s.seats.de.order] };
  const before = new Set(Object.keys(out.s.inPlay));
  out.emit({ type: 'CommitmentRevealed', orders: { us: publicOrder(orders.us), de: publicOrder(orders.de) } });
  for (const seat of SEATS) {
    for (const st of orders[seat]) {
      const s = out.s;
      if (st.kind === 'moveCrew' && unitIn(s, st.from)?.crew && unitIn(s, st.to) && !unitIn(s, st.to)!.crew) {
        out.emit({ type: 'CrewMoved', seat, crew: unitIn(s, st.from)!.crew!, from: st.from, to: st.to });
      } else if (st.kind === 'replaceCrew' && unitIn(s, st.unit) && !unitIn(s, st.unit)!.crew) {
        out.emit({ type: 'CrewReplaced', seat, crew: st.crew, unit: st.unit });
      } else if (st.kind === 'moveLine' && unitIn(s, st.unit)) {
        out.emit({ type: 'LineChanged', unit: st.unit, line: st.line });
      } else if (st.kind === 'commit') {
        out.emit({ type: 'UnitCommitted', seat, unit: st.unit, crew: st.crew, line: st.line });
      }
    }
  }
  // Cards on one's own units first, then cards aimed at the enemy, so a capture sees the withdrawals.
  for (const enemyPass of [false, true]) {
    for (const seat of SEATS) {
      for (const st of orders[seat]) {
        if (st.kind !== 'card') continue;
        const card = commandOf(out.s, st.card);
        const enemyCard = card.effect.kind === 'capture' || card.effect.kind === 'sabotage';
        if (enemyCard === enemyPass) playCard(out, ctx, seat, st);
      }
    }
  }
  rearBecomesFront(out, before);
  if (checkVictory(out)) return;
  out.emit({ type: 'DeclarationBegan' });
}

/** With no front-line units left, a side's existing rear line becomes its front line (001 Commitment Phase). */
export function rearBecomesFront(out: Out, existing: ReadonlySet<string>): void {
  for (const seat of SEATS) {
    const mine = Object.values(out.s.inPlay).filter((u) => u.controller === seat);
    if (mine.some((u) => u.line === 'front')) continue;
    const rear = mine.filter((u) => u.line === 'rear' && existing.has(u.id)).map((u) => u.id);
    if (rear.length) out.emit({ type: 'RearBecameFront', seat, units: rear });
  }
}
