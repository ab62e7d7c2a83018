import type { Ctx } from '../kernel/engine.js';
import type { RuleViolation } from '../kernel/errors.js';
import { ok, type Result } from '../kernel/result.js';
import { onlySeats } from '../kernel/visibility.js';
import type { Side } from '../frontline-general/data/schema.js';
import { resolveCapture } from './capture.js';
import { drawCommand } from './draw.js';
import { unitIn, cardEntry, type Command, type OrderStep, type State } from './model.js';
import { bad, stepContext } from './orders.js';
import type { Out } from './out.js';
import { cardOf, commandOf, hasFrontInfantry, identicalInEffect, isGroundType, RULE } from './rules.js';

/**
 * 001 Gameplay: Command cards. A card is played with the commitment order or with the target
 * declaration, on the unit types printed on it; identical cards are not cumulative. (Discarding
 * a card for +1 on a roll is handled where each roll is made: initiative.ts, attack.ts,
 * capture.ts.)
 */

/** A PlayCommandCard step: the card is in hand, of this phase, on a unit it may be played on. */
export function checkCardStep(s: State, seat: Side, c: Extract<Command, { type: 'PlayCommandCard' }>): Result<OrderStep, RuleViolation> {
  const { me, used, committing } = stepContext(s, seat);
  switch (c.type) {
    case 'PlayCommandCard': {
      if (!me.commands.includes(c.card) || used.has(c.card))
        return bad('command/not-in-hand', `${c.card} is not an unplayed command card in your hand`, RULE.command);
      const card = commandOf(s, c.card);
      if (s.phase !== card.phase)
        return bad(
          'command/wrong-phase',
          `${card.title} is played with your ${card.phase === 'commitment' ? 'commitment order' : 'target declaration'}`,
          RULE.command,
        );
      const applies = (unitId: string) => card.appliesTo.includes(cardOf(s, unitId).type as never);
      const kind = card.effect.kind;
      if (kind === 'initiative' || kind === 'smoke' || kind === 'reinforce' || kind === 'resupply') {
        if (c.target !== undefined) return bad('command/no-target', `${card.title} is not played on a unit`, RULE.command);
        const have = [
          ...Object.values(s.inPlay)
            .filter((u) => u.controller === seat)
            .map((u) => u.id),
          ...committing.map((x) => x.unit),
        ];
        if (!have.some(applies))
          return bad('command/no-applicable-unit', `${card.title} needs one of your ${card.appliesTo.join('/')} units in the battle area`, RULE.command);
        if (identicalInEffect(s, card.title, seat, null) || used.has(`card:${card.title}:side`))
          return bad('command/identical', `${card.title} is already in effect; identical cards are not cumulative`, RULE.command);
        if (c.boostWith !== undefined) return bad('command/no-boost', 'Only a capture roll can be boosted with this card', RULE.command);
        return ok({ kind: 'card', card: c.card, target: null, keep: false, boost: null });
      }
      if (c.target === undefined) return bad('command/target-required', `${card.title} is played on a unit`, RULE.command);
      const enemyCard = kind === 'sabotage' || kind === 'capture';
      const target = unitIn(s, c.target);
      const newlyCommitted = committing.some((x) => x.unit === c.target);
      if (enemyCard) {
        if (!target || target.controller === seat) return bad('command/target-enemy', `${card.title} targets an enemy unit in the battle area`, RULE.command);
      } else if (!(target && target.controller === seat) && !(newlyCommitted && kind !== 'withdraw' && kind !== 'repair')) {
        return bad('command/target-friendly', `${card.title} is played on one of your units`, RULE.command);
      }
      if (!applies(c.target)) return bad('command/wrong-unit-type', `${card.title} may only be played on ${card.appliesTo.join(', ')} units`, RULE.command);
      if (identicalInEffect(s, card.title, seat, c.target) || used.has(`card:${card.title}:${c.target}`))
        return bad('command/identical', `${card.title} is already on that unit; identical cards are not cumulative`, RULE.command);
      const tcard = cardOf(s, c.target);
      if (kind === 'withdraw') {
        if (target!.immobilized) return bad('command/immobilized', `${tcard.title} is immobilized and cannot withdraw`, RULE.damage);
        if (cardEntry(s, c.target)!.owner !== seat) return bad('command/captured-unit', 'A captured unit cannot be withdrawn into your hand', RULE.command);
        if (used.has(`from:${c.target}`) || used.has(`to:${c.target}`) || used.has(`line:${c.target}`))
          return bad('command/unit-busy', `${tcard.title} has other orders this turn`, RULE.command);
      }
      if (kind === 'repair' && target!.damageCard === null) return bad('command/not-damaged', `${tcard.title} has no Damage card to remove`, RULE.command);
      if (kind === 'capture') {
        if (tcard.crew === 'none' || !isGroundType(tcard.type)) return bad('command/not-crewed', `${tcard.title} is not a crewed ground unit`, RULE.command);
        if (target!.damageCard === null) return bad('command/not-damaged', `${tcard.title} must be damaged (carry a Damage card) to be captured`, RULE.command);
        if (!hasFrontInfantry(s, seat)) {
          return bad('command/no-infantry', 'Capturing a unit needs one of your infantry units on the front line', RULE.command);
        }
      }
      if (c.keep !== undefined && kind !== 'capture') return bad('command/no-keep', 'Only a capture may keep a unit', RULE.command);
      if (c.boostWith !== undefined) {
        if (kind !== 'capture') return bad('command/no-boost', 'Only a capture roll can be boosted with this card', RULE.command);
        if (!me.commands.includes(c.boostWith) || used.has(c.boostWith) || c.boostWith === c.card)
          return bad('command/not-in-hand', `${c.boostWith} is not an unplayed command card in your hand`, RULE.command);
      }
      return ok({ kind: 'card', card: c.card, target: c.target, keep: c.keep ?? false, boost: c.boostWith ?? null });
    }
  }
}

/** Plays a revealed card: it takes effect, or is voided if the battle area changed so that it no longer applies. */
export function playCard(out: Out, ctx: Ctx, seat: Side, st: Extract<OrderStep, { kind: 'card' }>): void {
  const s = out.s;
  const card = commandOf(s, st.card);
  const target = st.target;
  const void_ = (reason: string) => out.emit({ type: 'CommandCardVoided', seat, card: st.card, reason });
  if (target !== null && !unitIn(s, target)) return void_('its target is no longer in the battle area');
  if (target !== null && identicalInEffect(s, card.title, seat, target)) return void_('an identical card is already in effect there');
  switch (card.effect.kind) {
    case 'withdraw': {
      const u = unitIn(s, target!)!;
      if (u.controller !== seat) return void_('the unit changed sides');
      out.emit({ type: 'CommandCardPlayed', seat, card: st.card, target });
      out.emit({ type: 'UnitWithdrawn', seat, unit: u.id, crew: u.crew });
      return;
    }
    case 'repair':
      if (unitIn(s, target!)!.damageCard === null || unitIn(s, target!)!.controller !== seat) return void_('the unit is no longer damaged or yours');
      out.emit({ type: 'CommandCardPlayed', seat, card: st.card, target });
      out.emit({ type: 'UnitRepaired', unit: target! });
      return;
    case 'reinforce': {
      out.emit({ type: 'CommandCardPlayed', seat, card: st.card, target: null });
      const drawn = out.s.seats[seat].reserves.slice(0, card.effect.units);
      for (const u of drawn) out.emit({ type: 'CardDrawn', seat, kind: 'unit', card: u }, onlySeats(seat));
      out.emit({ type: 'CardsDrawnByCard', seat, kind: 'unit', count: drawn.length });
      return;
    }
    case 'resupply': {
      out.emit({ type: 'CommandCardPlayed', seat, card: st.card, target: null });
      let n = 0;
      for (let i = 0; i < card.effect.commands; i++) if (drawCommand(out, ctx, seat)) n++;
      out.emit({ type: 'CardsDrawnByCard', seat, kind: 'command', count: n });
      return;
    }
    case 'capture':
      resolveCapture(out, ctx, seat, st, card.effect.minRoll, void_);
      return;
    default:
      if (target !== null && card.effect.kind !== 'sabotage' && unitIn(s, target)!.controller !== seat) return void_('the unit changed sides');
      if (target === null && identicalInEffect(s, card.title, seat, null)) return void_('an identical card is already in effect');
      out.emit({ type: 'CommandCardPlayed', seat, card: st.card, target });
  }
}
