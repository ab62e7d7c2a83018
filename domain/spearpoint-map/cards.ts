import { violation, type RuleViolation } from '../kernel/errors.js';
import { ok } from '../kernel/result.js';
import { indexCatalog } from '../frontline-general/data/catalog.js';
import type { Side } from '../frontline-general/data/schema.js';
import { isSpace } from './map.js';
import { type Command, type State, unitIn } from './model.js';
import { no, Out, type Decision } from './out.js';
import { cardOf, sideUnitsAt } from './rules.js';

/**
 * 003 §II Command Cards and §III Combat 23: Command cards played for their effect.
 *   - A card that stays with its unit (Dig In, Hull Down, Field Camouflage, Veteran Crew, Veteran
 *     Soldiers, Fighter Ace: duration 'permanent', an accuracy, defence, concealment or intensity
 *     bonus) is played in its phase on one of your units of a type it applies to, and tucked under
 *     it (the bonus then counts as for a scenario's starting cards; identical titles do not stack).
 *   - Lay Smoke conceals one space for 3 turns (003 Combat 23); not on a space where units fight
 *     within it. The card leaves the game (003 l.858).
 * Other effects (Ambush!, Capture That Unit!, Commit Reserves, Withdraw, Field Repairs, Resupply,
 * Sabotage, Fire Mission!, Fire for Effect!, Zero In Artillery) are not played on the map yet
 * (RULINGS.md); such a card may still be discarded for a bonus.
 */
export const SMOKE_TURNS = 3;
const TUCKED = new Set(['accuracy', 'defense', 'concealment', 'intensity']);
const RULE_CARDS = '003 §II Command Cards';
const RULE_SMOKE = '003 §III Combat 23';

/** Why `card` may not be played on `target` (a unit id, or a space for Lay Smoke) now, or null. */
export function playProblem(s: State, seat: Side, card: string, target: string): RuleViolation | null {
  if (!s.seats[seat].commands.includes(card)) return violation('cards/not-held', 'You do not hold that Command card', RULE_CARDS);
  const c = indexCatalog(s.catalog).command(card);
  if (c.phase !== s.phase) return violation('cards/wrong-phase', `${c.title} is played in the ${c.phase} phase`, RULE_CARDS);
  if (c.effect.kind === 'smoke') {
    if (!isSpace(target)) return violation('cards/not-a-space', 'Lay Smoke targets a map space (A1 to C9)', RULE_SMOKE);
    if (Object.hasOwn(s.smoke, target)) return violation('cards/smoke-already', 'That space is already in smoke', RULE_SMOKE);
    if (sideUnitsAt(s, target, 'us').length > 0 && sideUnitsAt(s, target, 'de').length > 0)
      return violation('cards/smoke-on-fight', 'Not on a space where units fight within it', RULE_SMOKE);
    return null;
  }
  if (c.duration !== 'permanent' || !TUCKED.has(c.effect.kind)) return violation('cards/not-playable', `${c.title} is not played on the map`, RULE_CARDS);
  const u = unitIn(s, target);
  if (!u || u.side !== seat) return violation('cards/not-your-unit', 'Play it on one of your units in play', RULE_CARDS);
  if (u.convoy) return violation('cards/not-your-unit', 'Convoy units take no Command cards', '003 §IV The Liri Valley Road');
  const type = cardOf(s, target).type;
  if (type === 'crew' || !c.appliesTo.includes(type)) return violation('cards/wrong-type', `${c.title} applies to ${c.appliesTo.join(', ')}`, RULE_CARDS);
  const idx = indexCatalog(s.catalog);
  if (u.attached.some((a) => idx.command(a).title === c.title)) return violation('cards/same-title', 'Identical Command cards do not stack', RULE_CARDS);
  return null;
}

export function decidePlay(s: State, seat: Side, c: Extract<Command, { type: 'PlayCommand' }>): Decision {
  const p = playProblem(s, seat, c.card, c.target);
  if (p) return no(p.code, p.message, p.rule ?? RULE_CARDS);
  const out = new Out(s);
  const smoke = indexCatalog(s.catalog).command(c.card).effect.kind === 'smoke';
  out.emit(
    smoke ? { type: 'SmokeLaid', seat, card: c.card, space: c.target, turns: SMOKE_TURNS } : { type: 'CommandPlayed', seat, card: c.card, unit: c.target },
  );
  return ok(out.list);
}

/** The plays to list: each playable card on each of your units, or Lay Smoke on each occupied space. */
export function plays(s: State, seat: Side): Command[] {
  const occupied = [...new Set(Object.values(s.units).flatMap((u) => (isSpace(u.at) ? [u.at] : [])))];
  const mine = Object.values(s.units)
    .filter((u) => u.side === seat)
    .map((u) => u.id);
  return s.seats[seat].commands.flatMap((card) => {
    const targets = indexCatalog(s.catalog).command(card).effect.kind === 'smoke' ? occupied : mine;
    return targets.filter((target) => playProblem(s, seat, card, target) === null).map((target): Command => ({ type: 'PlayCommand', card, target }));
  });
}
