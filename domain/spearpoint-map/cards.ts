import type { Ctx } from '../kernel/engine.js';
import { planDraw } from '../kernel/deck.js';
import { violation, type RuleViolation } from '../kernel/errors.js';
import { ok } from '../kernel/result.js';
import { HIDDEN, onlySeats } from '../kernel/visibility.js';
import { indexCatalog } from '../frontline-general/data/catalog.js';
import type { CommandCard, Side } from '../frontline-general/data/schema.js';
import { initiativeBonus, MAP_EXPANSION, victoryPoints } from '../frontline-general/rules.js';
import { distance, isSpace } from './map.js';
import { cardEntry, other, type Command, type Phase, type State, unitIn } from './model.js';
import { no, Out, type Decision } from './out.js';
import { cardOf, contested, costOf, onMap } from './rules.js';
import { offerOpportunityFire } from './movement.js';
import { checkVictory } from './turn.js';
import { commitPlaces, crewsFor, entryFire } from './commitment.js';

/**
 * 003 §II Command Cards, §III Turn Sequence (Initiative), Commitment and Combat 23, 25: Command
 * cards played for their effect (`PlayCommand {card, target?, by?}`). The card data is the core's
 * REPRESENTATIVE deck; each effect kind is one rule below.
 *   - On one of your units, tucked under it: the 'permanent' cards (Dig In, Hull Down, Field
 *     Camouflage, Veteran Crew/Soldiers, Fighter Ace) for as long as it stays in play, and the
 *     artillery cards of one turn (Fire Mission! an extra roll per weapon, Fire for Effect! +3
 *     Intensity, Zero In Artillery 2 less to hit) until the End Turn step. Identical titles do not stack.
 *   - Lay Smoke: one space for 3 turns (Combat 23); not on a space where units fight within it.
 *   - Ambush! (l.456–458), one use or the other: an Initiative bonus (003's +2, through the rules
 *     variant) played in your Draw phase for the next turn's roll (RULINGS: the roll opens the next
 *     turn at once), while you have a front-line unit of a listed type; or, in the Combat Phase's
 *     declaration, one unit of a listed type (with its crew) from your hand entering where a Commit
 *     could put it, ready to declare attacks this turn.
 *   - Commit Reserves and Resupply (Commitment Phase, l.558): draw unit cards from your Reserves,
 *     or Command cards.
 *   - Withdraw: one of your units with its crew back to your hand; not immobilised, not a front-line
 *     gun (Commitment 7), not fighting within its space (Movement 5), not an aircraft (Commitment 6).
 *   - Field Repairs: the Damage card leaves one of your crewed units, back to Full Endurance.
 *   - Sabotage: an enemy unit of a listed type may not attack this turn (its declared attacks are called off).
 *   - Capture That Unit! (Combat 25): a non-infantry front-line enemy ground unit within one space of
 *     your infantry `by`; the card's roll captures it with its crew (double points, l.414); a failed
 *     attempt opens opportunity fire at `by`, as a move does.
 * Every played card leaves the game (l.858) except those tucked under a unit, which go with it.
 */
export const SMOKE_TURNS = 3;
const TUCKED = new Set(['accuracy', 'defense', 'concealment', 'intensity', 'rateOfFire']);
const SIDE_WIDE = new Set(['initiative', 'reinforce', 'resupply']);
const RULE_CARDS = '003 §II Command Cards';
const RULE_SMOKE = '003 §III Combat 23';
const RULE_CAPTURE = '003 §III Combat 25';
const RULE_INITIATIVE = '003 §III Initiative';

type Play = Extract<Command, { type: 'PlayCommand' }>;
const cardData = (s: State, card: string): CommandCard => indexCatalog(s.catalog).command(card);

/**
 * The phases a card is played in: an Initiative card in the Draw phase before the roll (its bonus)
 * or in the declaration phase (its function, 003 l.458), others as printed.
 */
export const playPhases = (c: CommandCard): readonly Phase[] => (c.effect.kind === 'initiative' ? ['draw', 'declaration'] : [c.phase]);
/** Ambush!'s function rather than its bonus: an Initiative card played in the Combat Phase. */
const ambushing = (s: State, c: CommandCard): boolean => c.effect.kind === 'initiative' && s.phase === 'declaration';

/** Why `card` may not be played now with this target, or null. */
export function playProblem(s: State, seat: Side, p: Omit<Play, 'type'>): RuleViolation | null {
  if (!s.seats[seat].commands.includes(p.card)) return violation('cards/not-held', 'You do not hold that Command card', RULE_CARDS);
  const c = cardData(s, p.card);
  const kind = c.effect.kind;
  if (!playPhases(c).includes(s.phase)) return violation('cards/wrong-phase', `${c.title} is played in the ${playPhases(c).join(' or ')} phase`, RULE_CARDS);
  if ((p.at !== undefined || p.crew !== undefined) && !ambushing(s, c))
    return violation('cards/no-entry', `${c.title} brings no unit in (\`at\`, \`crew\`)`, RULE_CARDS);
  if (p.by !== undefined && kind !== 'capture') return violation('cards/no-by', `${c.title} names no capturing unit`, RULE_CARDS);
  if (p.keep !== undefined && kind !== 'capture') return violation('cards/no-keep', `${c.title} captures nothing to keep`, RULE_CARDS);
  if (ambushing(s, c)) return ambushProblem(s, seat, c, p);
  if (SIDE_WIDE.has(kind)) {
    if (p.target !== undefined) return violation('cards/no-target', `${c.title} takes no target`, RULE_CARDS);
    return sideWideProblem(s, seat, c);
  }
  if (p.target === undefined) return violation('cards/needs-target', `${c.title} needs a target`, RULE_CARDS);
  const target = p.target;
  if (kind === 'smoke') return smokeProblem(s, target);
  if (kind === 'sabotage') return sabotageProblem(s, seat, c, target);
  if (kind === 'capture') return captureProblem(s, seat, target, p.by);
  const u = unitIn(s, target);
  if (!u || u.side !== seat) return violation('cards/not-your-unit', 'Play it on one of your units in play', RULE_CARDS);
  if (u.convoy) return violation('cards/not-your-unit', 'Convoy units take no Command cards', '003 §IV The Liri Valley Road');
  const type = cardOf(s, target).type;
  if (type === 'crew' || !c.appliesTo.includes(type)) return violation('cards/wrong-type', `${c.title} applies to ${c.appliesTo.join(', ')}`, RULE_CARDS);
  if (kind === 'withdraw') return withdrawProblem(s, target);
  if (kind === 'repair') return u.damageCard === null ? violation('cards/not-damaged', `${cardOf(s, target).title} has no Damage card`, RULE_CARDS) : null;
  if (!TUCKED.has(kind)) return violation('cards/not-playable', `${c.title} is not played on the map`, RULE_CARDS);
  if (u.attached.some((a) => cardData(s, a).title === c.title)) return violation('cards/same-title', 'Identical Command cards do not stack', RULE_CARDS);
  return null;
}

/** Ambush!'s function (003 l.458): a unit of a listed type from your hand, with the crew it needs, to a place a Commit could take it. */
function ambushProblem(s: State, seat: Side, c: CommandCard, p: Omit<Play, 'type'>): RuleViolation | null {
  if (p.target === undefined || !s.seats[seat].hand.includes(p.target))
    return violation('cards/not-in-hand', `Name a unit in your hand for ${c.title} to bring in`, RULE_INITIATIVE);
  const unit = cardOf(s, p.target);
  if (!(c.appliesTo as string[]).includes(unit.type)) return violation('cards/wrong-type', `${c.title} brings in ${c.appliesTo.join(', ')}`, RULE_INITIATIVE);
  if (unit.crew !== 'none' ? p.crew === undefined || !crewsFor(s, seat, p.target).includes(p.crew) : p.crew !== undefined)
    return violation(
      'cards/ambush-crew',
      unit.crew === 'none' ? `${unit.title} needs no crew` : `${unit.title} needs a ${unit.crew} crew from your hand`,
      RULE_INITIATIVE,
    );
  if (p.at === undefined || !commitPlaces(s, seat, p.target).includes(p.at))
    return violation('cards/ambush-place', `${unit.title} may enter only where a Commit could put it now`, RULE_INITIATIVE);
  return null;
}

function smokeProblem(s: State, target: string): RuleViolation | null {
  if (!isSpace(target)) return violation('cards/not-a-space', 'Lay Smoke targets a map space (A1 to C9)', RULE_SMOKE);
  if (Object.hasOwn(s.smoke, target)) return violation('cards/smoke-already', 'That space is already in smoke', RULE_SMOKE);
  if (contested(s, target)) return violation('cards/smoke-on-fight', 'Not on a space where units fight within it', RULE_SMOKE);
  return null;
}

function sideWideProblem(s: State, seat: Side, c: CommandCard): RuleViolation | null {
  const me = s.seats[seat];
  if (c.effect.kind === 'initiative') {
    if (me.initiativeBonus > 0) return violation('cards/initiative-played', 'One Initiative bonus a turn', RULE_INITIATIVE);
    const front = Object.values(s.units).some((u) => u.side === seat && onMap(u) && !u.convoy && (c.appliesTo as string[]).includes(cardOf(s, u.id).type));
    return front ? null : violation('cards/no-front-line-unit', `${c.title} needs one of your ${c.appliesTo.join(', ')} on the map`, RULE_INITIATIVE);
  }
  if (c.effect.kind === 'reinforce')
    return me.reserves.length + me.support.length > 0 ? null : violation('cards/reserves-empty', 'Your Reserves deck is empty', RULE_CARDS);
  return Object.values(s.units).some((u) => u.side === seat)
    ? null
    : violation('cards/no-unit-in-play', `${c.title} needs one of your units in play`, RULE_CARDS);
}

/** 003 Commitment 6–7, Movement 5: who may not be withdrawn by the card. */
function withdrawProblem(s: State, unit: string): RuleViolation | null {
  const u = unitIn(s, unit)!;
  if (u.owner !== u.side) return violation('cards/withdraw-captured', 'A captured unit stays on the map', RULE_CARDS);
  if (u.at === 'air') return violation('cards/withdraw-aircraft', 'Aircraft withdraw without a card (WithdrawAircraft)', '003 §III Commitment 6');
  if (u.immobilized) return violation('cards/withdraw-immobilized', 'An immobilised unit cannot be withdrawn', '003 §III Commitment 7');
  if (onMap(u) && cardOf(s, unit).type === 'gun') return violation('cards/withdraw-gun', 'A front-line gun cannot be withdrawn', '003 §III Commitment 7');
  if (onMap(u) && contested(s, u.at)) return violation('cards/withdraw-fighting', 'A unit fighting within its space may not withdraw', '003 §III Movement 5');
  return null;
}

function sabotageProblem(s: State, seat: Side, c: CommandCard, target: string): RuleViolation | null {
  const t = unitIn(s, target);
  if (!t || t.side === seat || t.convoy) return violation('cards/not-enemy', 'Sabotage an enemy unit in play', RULE_CARDS);
  if (!(c.appliesTo as string[]).includes(cardOf(s, target).type))
    return violation('cards/wrong-type', `${c.title} applies to ${c.appliesTo.join(', ')}`, RULE_CARDS);
  if (s.sabotaged.includes(target)) return violation('cards/sabotaged', 'That unit is already sabotaged this turn', RULE_CARDS);
  return null;
}

/** 003 Combat 25 and the card: a crewed, damaged, non-infantry enemy ground unit on the map within one space of your infantry `by`. */
function captureProblem(s: State, seat: Side, target: string, by: string | undefined): RuleViolation | null {
  const t = unitIn(s, target);
  if (!t || t.side === seat || !onMap(t) || t.convoy) return violation('cards/not-enemy', 'Capture an enemy unit on the map', RULE_CAPTURE);
  const type = cardOf(s, target).type;
  if (!['tank', 'vehicle', 'gun', 'artillery'].includes(type))
    return violation('cards/capture-type', 'Only a non-infantry ground unit can be captured', RULE_CAPTURE);
  if (t.crew === null || t.damageCard === null) return violation('cards/capture-undamaged', 'The card captures a damaged, crewed unit', RULE_CARDS);
  const b = by === undefined ? undefined : unitIn(s, by);
  if (!b || b.side !== seat || !onMap(b) || cardOf(s, b.id).type !== 'infantry')
    return violation('cards/capture-by', 'Name one of your infantry units on the map as `by`', RULE_CAPTURE);
  if (distance(b.at, t.at) > 1) return violation('cards/capture-distance', 'The infantry must be within one space of the target', RULE_CAPTURE);
  return null;
}

export function decidePlay(s: State, seat: Side, p: Play, ctx: Ctx): Decision {
  const problem = playProblem(s, seat, p);
  if (problem) return no(problem.code, problem.message, problem.rule ?? RULE_CARDS);
  const out = new Out(s);
  const c = cardData(s, p.card);
  const target = p.target ?? '';
  switch (c.effect.kind) {
    case 'smoke':
      out.emit({ type: 'SmokeLaid', seat, card: p.card, space: target, turns: SMOKE_TURNS });
      break;
    case 'initiative':
      if (ambushing(s, c)) {
        const unit = p.target!;
        out.emit({ type: 'CommandUsed', seat, card: p.card, effect: 'ambush', amount: 1 });
        out.emit({ type: 'UnitCommitted', seat, unit, card: cardEntry(s, unit)!.card, crew: p.crew ?? null, crewCard: p.crew ?? null, at: p.at! });
        entryFire(out, seat, unit, p.at!);
      } else out.emit({ type: 'CommandUsed', seat, card: p.card, effect: 'initiative', amount: initiativeBonus(c.effect.amount, MAP_EXPANSION) });
      break;
    case 'reinforce':
    case 'resupply':
      drawFor(out, ctx, seat, p.card, c.effect.kind, c.effect.kind === 'reinforce' ? c.effect.units : c.effect.commands);
      break;
    case 'withdraw':
      out.emit({ type: 'UnitWithdrawn', seat, card: p.card, unit: target, crew: unitIn(s, target)!.crew });
      break;
    case 'repair':
      out.emit({ type: 'UnitRepaired', seat, card: p.card, unit: target });
      break;
    case 'sabotage':
      out.emit({ type: 'UnitSabotaged', seat, card: p.card, unit: target });
      for (const a of out.s.attacks)
        if (a.status === 'pending' && a.attackers.includes(target)) out.emit({ type: 'AttackCancelled', attackId: a.id, reason: 'the attacker is sabotaged' });
      break;
    case 'capture':
      capture(out, ctx, seat, p, c.effect.minRoll);
      break;
    default:
      out.emit({ type: 'CommandPlayed', seat, card: p.card, unit: target });
  }
  return ok(out.list);
}

/** Commit Reserves (unit cards from the Reserves, then Epiphany's Support deck) and Resupply (Command cards). */
function drawFor(out: Out, ctx: Ctx, seat: Side, card: string, kind: 'reinforce' | 'resupply', n: number): void {
  const me = out.s.seats[seat];
  const count = kind === 'reinforce' ? Math.min(n, me.reserves.length + me.support.length) : n;
  out.emit({ type: 'CommandUsed', seat, card, effect: kind, amount: count });
  for (let i = 0; i < count; i++) {
    if (kind === 'reinforce') {
      const unit = out.s.seats[seat].reserves[0] ?? out.s.seats[seat].support[0]!;
      out.emit({ type: 'CardDrawn', seat, kind: 'unit', card: unit }, onlySeats(seat));
      continue;
    }
    const plan = planDraw(out.s.commandDeck, 1, ctx.rng, { reshuffle: 'when-empty' });
    if (plan.reshuffle) out.emit({ type: 'CommandDeckReshuffled', order: [...plan.reshuffle] }, HIDDEN);
    const drawn = plan.cards[0];
    if (drawn !== undefined) out.emit({ type: 'CardDrawn', seat, kind: 'command', card: drawn }, onlySeats(seat));
  }
}

/**
 * Capture That Unit!: 1d10 of the card's minimum captures the unit and its crew; a failure draws
 * opportunity fire at `by`. A captured unit scores double with its crew (l.414), or with `keep` it
 * stays in play on the captor's side, crewless, and only the crew scores (003 Combat 12).
 */
function capture(out: Out, ctx: Ctx, seat: Side, p: Play, needed: number): void {
  const [target, by] = [p.target!, p.by!];
  const die = ctx.rng.die(10);
  const captured = captureSucceeds(die, needed);
  out.emit({ type: 'CaptureRolled', seat, card: p.card, unit: target, by, die, needed, captured });
  if (captured) {
    const t = unitIn(out.s, target)!;
    const crewPoints = victoryPoints(costOf(out.s, t.crew!), true);
    if (p.keep) out.emit({ type: 'UnitCapturedKept', seat, unit: target, crew: t.crew!, crewPoints });
    else out.emit({ type: 'UnitDestroyed', unit: target, by: seat, points: victoryPoints(costOf(out.s, target), true), crewFate: 'captured', crewPoints });
    checkVictory(out);
    return;
  }
  const at = unitIn(out.s, by)!.at;
  offerOpportunityFire(out, by, [at, at]);
}

export const captureSucceeds = (die: number, needed: number): boolean => die >= needed;

/** The plays to list: each card with each target it may take now. */
export function plays(s: State, seat: Side): Command[] {
  const occupied = [...new Set(Object.values(s.units).flatMap((u) => (isSpace(u.at) ? [u.at] : [])))];
  const mine = Object.values(s.units).filter((u) => u.side === seat);
  const enemy = Object.values(s.units).filter((u) => u.side === other(seat));
  const infantry = mine.filter((u) => onMap(u) && cardOf(s, u.id).type === 'infantry');
  return s.seats[seat].commands.flatMap((card): Command[] => {
    const c = cardData(s, card);
    if (!playPhases(c).includes(s.phase)) return [];
    const kind = c.effect.kind;
    const tries: Omit<Play, 'type'>[] = ambushing(s, c)
      ? ambushTries(s, seat, card)
      : SIDE_WIDE.has(kind)
        ? [{ card }]
        : kind === 'smoke'
          ? occupied.map((target) => ({ card, target }))
          : kind === 'sabotage'
            ? enemy.map((u) => ({ card, target: u.id }))
            : kind === 'capture'
              ? enemy.flatMap((u) =>
                  infantry.flatMap((b) => [
                    { card, target: u.id, by: b.id },
                    { card, target: u.id, by: b.id, keep: true },
                  ]),
                )
              : mine.map((u) => ({ card, target: u.id }));
    return tries.filter((p) => playProblem(s, seat, p) === null).map((p): Command => ({ type: 'PlayCommand', ...p }));
  });
}

/** Every unit in hand with each crew it may take and each place it may enter. */
function ambushTries(s: State, seat: Side, card: string): Omit<Play, 'type'>[] {
  return s.seats[seat].hand.flatMap((target) => {
    const crews = cardOf(s, target).crew === 'none' ? [undefined] : crewsFor(s, seat, target);
    return crews.flatMap((crew) => commitPlaces(s, seat, target).map((at) => ({ card, target, at, ...(crew === undefined ? {} : { crew }) })));
  });
}
