import type { Ctx, Emitted } from '../kernel/engine.js';
import { violation, type RuleViolation } from '../kernel/errors.js';
import { err, ok, type Result } from '../kernel/result.js';
import { HIDDEN, PUBLIC, onlySeats, type Seat, type Visibility } from '../kernel/visibility.js';
import { indexCatalog } from './data/catalog.js';
import type { Side } from './data/schema.js';
import { evolve } from './evolve.js';
import { isOpenOrder, other, SEATS, type Attack, type Boost, type Command, type Event, type OrderStep, type State } from './model.js';
import {
  assaultParticipants,
  attackVoid,
  cardOf,
  closeAssaultProblem,
  closeAssaultTarget,
  commandOf,
  commitLine,
  costOf,
  crewFate,
  damageEdge,
  DRAWS_PER_TURN,
  effectiveDefense,
  HAND_LIMIT_COMMANDS,
  HAND_LIMIT_UNITS,
  hasFrontInfantry,
  hasGroundUnit,
  hitThreshold,
  identicalInEffect,
  initiativeModifier,
  initiativeWinner,
  intensityBonus,
  isGroundType,
  isMobileArtillery,
  landUnits,
  lineAllows,
  MIN_CLOSE_ASSAULT,
  needsDamageCard,
  netDamage,
  rearArtilleryLimit,
  RULE,
  shotsOf,
  specialRoll,
  STARTING_HAND,
  targetProblem,
  unopposed,
  victoryPoints,
  weaponCanAffect,
} from './rules.js';
import { autoHand, pickCopy } from './muster.js';

/** Collects events and folds each at once, so later rules see the consequences of earlier ones. */
export class Out {
  readonly list: Emitted<Event>[] = [];
  constructor(public s: State) {}
  emit(event: Event, visibility: Visibility = PUBLIC): void {
    this.list.push({ event, visibility });
    this.s = evolve(this.s, event);
  }
}

type Decision = Result<readonly Emitted<Event>[], RuleViolation>;
const no = (code: string, message: string, rule: string): Decision => err(violation(code, message, rule));

// ------------------------------------------------------------ order validation (shared by decide and legalCommands)

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
    }
  }
  return used;
}

/** Validates one order step for a seat against the current state; returns the step to record. */
export function checkStep(s: State, seat: Side, c: Command): Result<OrderStep, RuleViolation> {
  const me = s.seats[seat];
  const used = orderUses(s, me.order);
  const bad = (code: string, message: string, rule: string) => err(violation(code, message, rule));
  const mine = (u: string) => s.inPlay[u]?.controller === seat;
  const committing = me.order.filter((x): x is Extract<OrderStep, { kind: 'commit' }> => x.kind === 'commit');
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
      const u = s.inPlay[c.unit];
      if (!u || !mine(c.unit)) return bad('commitment/not-your-unit', `${c.unit} is not one of your units in the battle area`, RULE.commitment);
      const card = cardOf(s, c.unit);
      const cc = cardOf(s, c.crew);
      if (card.crew === 'none' || cc.crewKind !== card.crew) return bad('commitment/wrong-crew', `${cc.title} cannot crew ${card.title}`, RULE.commitment);
      if (u.crew !== null || used.has(`to:${c.unit}`)) return bad('commitment/already-crewed', `${card.title} already has a crew`, RULE.commitment);
      return ok({ kind: 'replaceCrew', crew: c.crew, unit: c.unit });
    }
    case 'MoveCrew': {
      if (s.phase !== 'commitment') return bad('phase/not-commitment', 'Crews move in the Commitment Phase', RULE.commitment);
      const from = s.inPlay[c.from];
      const to = s.inPlay[c.to];
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
      const u = s.inPlay[c.unit];
      if (!u || !mine(c.unit)) return bad('commitment/not-your-unit', `${c.unit} is not one of your units in the battle area`, RULE.commitment);
      const card = cardOf(s, c.unit);
      if (!isMobileArtillery(card)) return bad('commitment/not-mobile', `${card.title} is not mobile artillery`, RULE.commitment);
      if (u.immobilized) return bad('commitment/immobilized', `${card.title} is immobilized`, RULE.damage);
      if (u.line === c.line || used.has(`line:${c.unit}`))
        return bad('commitment/same-line', `${card.title} is already on the ${c.line} line`, RULE.commitment);
      return ok({ kind: 'moveLine', unit: c.unit, line: c.line });
    }
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
      const target = s.inPlay[c.target];
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
        if (s.cards[c.target]!.owner !== seat) return bad('command/captured-unit', 'A captured unit cannot be withdrawn into your hand', RULE.command);
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
      return bad('command/not-an-order-step', `${c.type} is not part of a sealed order`, RULE.commitment);
  }
}

/** Close-assault groups that are too small to seal (three or more infantry needed). */
export function smallAssaults(order: readonly OrderStep[]): string[] {
  const groups = new Map<string, number>();
  for (const st of order) if (st.kind === 'closeAssault') groups.set(st.target, (groups.get(st.target) ?? 0) + 1);
  return [...groups].filter(([, n]) => n < MIN_CLOSE_ASSAULT).map(([t]) => t);
}

// ------------------------------------------------------------ decide

export function decide(s: State, c: Command, actor: Seat, ctx: Ctx): Decision {
  if (s.result) return no('game/over', 'The game is over', RULE.victory);
  if (actor !== 'us' && actor !== 'de') return no('action/unknown-seat', `Seats are us and de`, RULE.setup);
  const seat: Side = actor;
  const me = s.seats[seat];
  const out = new Out(s);
  const done = (): Decision => ok(out.list);

  switch (c.type) {
    case 'SetStandingOrders':
      out.emit({ type: 'StandingOrdersSet', seat, friendlyFire: c.friendlyFire }, onlySeats(seat));
      return done();

    case 'PickStartingUnit':
    case 'AutoPickHand': {
      if (s.phase !== 'muster') return no('phase/not-muster', 'Starting hands are picked before the first turn', RULE.setup);
      if (me.handReady) return no('muster/hand-ready', 'Your starting hand is complete', RULE.setup);
      if (c.type === 'PickStartingUnit') {
        const unit = pickCopy(s, seat, c.card, ctx.rng);
        if (!unit) return no('muster/not-in-deck', `No ${c.card} is left in your Reserves deck`, RULE.setup);
        out.emit({ type: 'StartingUnitPicked', seat, unit }, onlySeats(seat));
      } else {
        for (const unit of autoHand(s, seat, ctx.rng)) out.emit({ type: 'StartingUnitPicked', seat, unit }, onlySeats(seat));
      }
      if (out.s.seats[seat].hand.length >= STARTING_HAND || out.s.seats[seat].reserves.length === 0) {
        out.emit({ type: 'StartingHandReady', seat });
        if (SEATS.every((x) => out.s.seats[x].handReady)) out.emit({ type: 'TurnBegan', turn: 1 });
      }
      return done();
    }

    case 'CommitUnit':
    case 'ReplaceCrew':
    case 'MoveCrew':
    case 'MoveLine':
    case 'PlayCommandCard':
    case 'DeclareAttack':
    case 'JoinCloseAssault': {
      if (s.phase !== 'commitment' && s.phase !== 'declaration')
        return no('phase/no-orders', 'Orders are given in the Commitment Phase and at Target Declaration', RULE.commitment);
      if (me.sealed) return no('order/sealed', 'Your order is sealed; wait for the other side', RULE.commitment);
      const step = checkStep(s, seat, c);
      if (!step.ok) return step;
      out.emit({ type: 'OrderStepAdded', seat, step: step.value }, onlySeats(seat));
      return done();
    }

    case 'ClearOrder':
      if (!isOpenOrder(s, seat)) return no('order/not-open', 'You have no open order to clear', RULE.commitment);
      out.emit({ type: 'OrderCleared', seat }, onlySeats(seat));
      return done();

    case 'SealOrder': {
      if (!isOpenOrder(s, seat)) return no('order/not-open', 'You have no open order to seal', RULE.commitment);
      // Build the final order on a scratch state: the given steps (replacing any added before), then the boost.
      let draft = c.steps ? evolve(s, { type: 'OrderCleared', seat }) : s;
      for (const [i, stepCommand] of (c.steps ?? []).entries()) {
        const step = checkStep(draft, seat, stepCommand);
        if (!step.ok) return err({ ...step.error, message: `Step ${i + 1} (${stepCommand.type}): ${step.error.message}` });
        draft = evolve(draft, { type: 'OrderStepAdded', seat, step: step.value });
      }
      let order = draft.seats[seat].order;
      if (c.initiativeBoost !== undefined) {
        if (s.phase !== 'declaration') return no('command/boost-phase', 'The Initiative roll follows target declaration', RULE.initiative);
        if (!me.commands.includes(c.initiativeBoost) || orderUses(draft, order).has(c.initiativeBoost))
          return no('command/not-in-hand', `${c.initiativeBoost} is not an unplayed command card in your hand`, RULE.command);
        order = [...order, { kind: 'initiativeBoost', card: c.initiativeBoost }];
      }
      const small = smallAssaults(order);
      if (small.length)
        return no(
          'combat/close-assault-too-small',
          `A close assault needs ${MIN_CLOSE_ASSAULT} or more infantry; the one on ${small.join(', ')} has fewer`,
          RULE.target,
        );
      // Exactly one private event at every seal, whatever the order holds, so the other side
      // cannot tell a boost or an order given at once from the number of events it did not see.
      out.emit({ type: 'OrderFinalized', seat, steps: [...order] }, onlySeats(seat));
      out.emit({ type: 'OrderSealed', seat });
      if (SEATS.every((x) => out.s.seats[x].sealed)) {
        if (s.phase === 'commitment') revealCommitment(out, ctx);
        else revealDeclaration(out, ctx);
      }
      return done();
    }

    case 'ResolveAttack': {
      if (s.phase !== 'combat') return no('phase/not-combat', 'Attacks are resolved in the Combat Phase', RULE.attack);
      if (s.friendlyFire) return no('combat/friendly-fire-pending', 'A friendly-fire victim must be chosen first', RULE.attack);
      if (s.chooser !== seat) return no('combat/not-your-choice', 'The other side resolves the next attack', RULE.initiative);
      const a = s.attacks.find((x) => x.id === c.attackId);
      if (!a || a.seat !== seat || a.status !== 'pending')
        return no('combat/no-such-attack', `${c.attackId} is not one of your unresolved attacks`, RULE.attack);
      if (c.boostWith === undefined && (c.boostRoll !== undefined || c.boostShot !== undefined))
        return no('command/boost-without-card', 'Name the command card you discard for +1', RULE.command);
      if (c.boostWith !== undefined && c.boosts !== undefined) return no('command/boost-twice', 'Use either boostWith or boosts, not both', RULE.command);
      const boosts: Boost[] = c.boosts
        ? c.boosts.map((b) => ({ card: b.card, roll: b.roll, shot: b.shot ?? 1 }))
        : c.boostWith !== undefined
          ? [{ card: c.boostWith, roll: c.boostRoll ?? 'hit', shot: c.boostShot ?? 1 }]
          : [];
      const shots = shotsOf(s, a).length;
      for (const [i, b] of boosts.entries()) {
        if (!me.commands.includes(b.card)) return no('command/not-in-hand', `${b.card} is not in your hand`, RULE.command);
        if (b.shot > shots) return no('command/no-such-shot', `That attack rolls ${shots} time(s); there is no roll number ${b.shot} to improve`, RULE.command);
        const earlier = boosts.slice(0, i);
        if (earlier.some((x) => x.card === b.card)) return no('command/boost-twice', `${b.card} can be discarded only once`, RULE.command);
        if (earlier.some((x) => x.roll === b.roll && x.shot === b.shot))
          return no('command/boost-twice', 'One command card may be discarded for each roll', RULE.command);
      }
      // Each card is discarded just before the roll it improves: a shot's attack roll, or the
      // Intensity roll of that shot if it hits the declared target (else it stays in hand).
      runAttack(out, ctx, a.id, boosts);
      return done();
    }

    case 'ChooseFriendlyFireVictim': {
      const ff = s.friendlyFire;
      if (!ff || ff.chooser !== seat) return no('combat/no-friendly-fire', 'No friendly-fire victim is yours to choose', RULE.attack);
      if (!ff.candidates.includes(c.unit))
        return no('combat/not-a-candidate', `${c.unit} is not a legal friendly-fire target; choose one of ${ff.candidates.join(', ')}`, RULE.attack);
      out.emit({ type: 'FriendlyFireVictimChosen', attackId: ff.attackId, unit: c.unit, automatic: false });
      const held = s.seats[other(seat)].heldBoosts;
      const a = out.s.attacks.find((x) => x.id === ff.attackId)!;
      resolveHit(out, ctx, a, ff.weapon, c.unit, null, true, false);
      if (!out.s.result) runAttack(out, ctx, a.id, held);
      return done();
    }

    case 'DrawCard': {
      const refused = drawOne(out, ctx, seat, c.from);
      return refused ? err(refused) : done();
    }

    case 'DrawCards': {
      // The same draws as that many DrawCard commands, in one move; all or nothing.
      for (const [i, from] of c.from.entries()) {
        const refused = drawOne(out, ctx, seat, from);
        if (refused) return err({ ...refused, message: `Draw ${i + 1} (${from}): ${refused.message}` });
      }
      return done();
    }

    case 'DiscardUnit':
    case 'DiscardCommand': {
      if (s.phase !== 'draw' || me.drawDone || me.drawsTaken < DRAWS_PER_TURN)
        return no('draw/not-discarding', 'Discards to the hand limit come after your three draws', RULE.draw);
      if (c.type === 'DiscardUnit') {
        if (!me.hand.includes(c.card)) return no('draw/not-in-hand', `${c.card} is not in your hand`, RULE.draw);
        if (me.hand.length <= HAND_LIMIT_UNITS) return no('draw/within-limit', `You hold ${HAND_LIMIT_UNITS} unit cards or fewer`, RULE.draw);
        out.emit({ type: 'UnitDiscarded', seat, card: c.card }, onlySeats(seat));
        out.emit({ type: 'UnitDiscardCounted', seat });
      } else {
        if (!me.commands.includes(c.card)) return no('draw/not-in-hand', `${c.card} is not in your hand`, RULE.draw);
        if (me.commands.length <= HAND_LIMIT_COMMANDS) return no('draw/within-limit', `You hold ${HAND_LIMIT_COMMANDS} command cards or fewer`, RULE.draw);
        out.emit({ type: 'CommandDiscarded', seat, card: c.card });
      }
      finishDraw(out, seat);
      return done();
    }
  }
}

// ------------------------------------------------------------ commitment reveal

/**
 * The public copy of a revealed order: a card named to boost a capture roll stays in the hand
 * until that roll is made (it is shown as it is discarded), so the reveal does not name it.
 */
const publicOrder = (order: readonly OrderStep[]): OrderStep[] => order.map((st) => (st.kind === 'card' && st.boost !== null ? { ...st, boost: null } : st));

function revealCommitment(out: Out, ctx: Ctx): void {
  const orders = { us: [...out.s.seats.us.order], de: [...out.s.seats.de.order] };
  const before = new Set(Object.keys(out.s.inPlay));
  out.emit({ type: 'CommitmentRevealed', orders: { us: publicOrder(orders.us), de: publicOrder(orders.de) } });
  for (const seat of SEATS) {
    for (const st of orders[seat]) {
      const s = out.s;
      if (st.kind === 'moveCrew' && s.inPlay[st.from]?.crew && s.inPlay[st.to] && !s.inPlay[st.to]!.crew) {
        out.emit({ type: 'CrewMoved', seat, crew: s.inPlay[st.from]!.crew!, from: st.from, to: st.to });
      } else if (st.kind === 'replaceCrew' && s.inPlay[st.unit] && !s.inPlay[st.unit]!.crew) {
        out.emit({ type: 'CrewReplaced', seat, crew: st.crew, unit: st.unit });
      } else if (st.kind === 'moveLine' && s.inPlay[st.unit]) {
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

function playCard(out: Out, ctx: Ctx, seat: Side, st: Extract<OrderStep, { kind: 'card' }>): void {
  const s = out.s;
  const card = commandOf(s, st.card);
  const target = st.target;
  const void_ = (reason: string) => out.emit({ type: 'CommandCardVoided', seat, card: st.card, reason });
  if (target !== null && !s.inPlay[target]) return void_('its target is no longer in the battle area');
  if (target !== null && identicalInEffect(s, card.title, seat, target)) return void_('an identical card is already in effect there');
  switch (card.effect.kind) {
    case 'withdraw': {
      const u = s.inPlay[target!]!;
      if (u.controller !== seat) return void_('the unit changed sides');
      out.emit({ type: 'CommandCardPlayed', seat, card: st.card, target });
      out.emit({ type: 'UnitWithdrawn', seat, unit: u.id, crew: u.crew });
      return;
    }
    case 'repair':
      if (s.inPlay[target!]!.damageCard === null || s.inPlay[target!]!.controller !== seat) return void_('the unit is no longer damaged or yours');
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
    case 'capture': {
      const u = s.inPlay[target!]!;
      if (u.controller === seat || u.damageCard === null || !hasFrontInfantry(s, seat))
        return void_('the target is no longer a damaged enemy unit, or you have no front-line infantry');
      out.emit({ type: 'CommandCardPlayed', seat, card: st.card, target });
      const boosted = st.boost !== null && out.s.seats[seat].commands.includes(st.boost);
      if (boosted) out.emit({ type: 'CommandCardDiscardedForBonus', seat, card: st.boost!, roll: 'capture' });
      const bonus = boosted ? 1 : 0;
      const die = ctx.rng.die(10);
      const success = die + bonus >= card.effect.minRoll;
      out.emit({ type: 'CaptureRolled', seat, card: st.card, target: u.id, die, bonus, needed: card.effect.minRoll, success });
      if (success) {
        out.emit({
          type: 'UnitCaptured',
          by: seat,
          unit: u.id,
          crew: u.crew,
          kept: st.keep,
          // Captured units score double whether the captor keeps them or not (001 Victory Points).
          unitPoints: victoryPoints(costOf(s, u.id), true),
          crewPoints: u.crew ? victoryPoints(costOf(s, u.crew), true) : 0,
        });
      }
      return;
    }
    default:
      if (target !== null && card.effect.kind !== 'sabotage' && s.inPlay[target]!.controller !== seat) return void_('the unit changed sides');
      if (target === null && identicalInEffect(s, card.title, seat, null)) return void_('an identical card is already in effect');
      out.emit({ type: 'CommandCardPlayed', seat, card: st.card, target });
  }
}

/** With no front-line units left, a side's existing rear line becomes its front line (001 Commitment Phase). */
function rearBecomesFront(out: Out, existing: ReadonlySet<string>): void {
  for (const seat of SEATS) {
    const mine = Object.values(out.s.inPlay).filter((u) => u.controller === seat);
    if (mine.some((u) => u.line === 'front')) continue;
    const rear = mine.filter((u) => u.line === 'rear' && existing.has(u.id)).map((u) => u.id);
    if (rear.length) out.emit({ type: 'RearBecameFront', seat, units: rear });
  }
}

// ------------------------------------------------------------ declaration reveal and initiative

function revealDeclaration(out: Out, ctx: Ctx): void {
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
  const boost = { us: 0, de: 0 };
  for (const seat of SEATS) {
    for (const st of orders[seat]) {
      if (st.kind !== 'initiativeBoost' || !out.s.seats[seat].commands.includes(st.card)) continue;
      out.emit({ type: 'CommandCardDiscardedForBonus', seat, card: st.card, roll: 'initiative' });
      boost[seat] = 1;
    }
  }
  const modifiers = { us: initiativeModifier(out.s, 'us') + boost.us, de: initiativeModifier(out.s, 'de') + boost.de };
  const rolls: { us: number; de: number }[] = [];
  let winner: Side | null = null;
  while (winner === null) {
    const r = { us: ctx.rng.die(10), de: ctx.rng.die(10) };
    rolls.push(r);
    winner = initiativeWinner(r.us + modifiers.us, r.de + modifiers.de);
  }
  out.emit({ type: 'InitiativeRolled', rolls, modifiers, winner });
  out.emit({ type: 'CombatBegan', chooser: nextChooser(out.s, winner) });
}

/** The seat to resolve the next attack: the one whose turn it is if it has attacks left, else the other; null when none remain. */
export function nextChooser(s: State, preferred: Side): Side | null {
  const has = (seat: Side) => s.attacks.some((a) => a.seat === seat && a.status === 'pending');
  return has(preferred) ? preferred : has(other(preferred)) ? other(preferred) : null;
}

function sweepVoid(out: Out, except?: string): void {
  for (const a of out.s.attacks) {
    if (a.status !== 'pending' || a.id === except) continue;
    const why = attackVoid(out.s, a);
    if (why) out.emit({ type: 'AttackCancelled', attackId: a.id, reason: why });
  }
}

// ------------------------------------------------------------ attack resolution

/** The cards improving one shot's attack roll and its Intensity roll. */
type ShotBoost = { hit?: string; intensity?: string };

/** Fires the attack's remaining shots; pauses for a friendly-fire choice; finishes the attack and maybe the phase. */
function runAttack(out: Out, ctx: Ctx, attackId: string, boosts: readonly Boost[]): void {
  for (;;) {
    const a = out.s.attacks.find((x) => x.id === attackId)!;
    const shots = shotsOf(out.s, a);
    if (a.shotsDone >= shots.length || !out.s.inPlay[a.target] || out.s.result) break;
    if (attackVoid(out.s, a) && a.shotsDone === 0) break;
    const weapon = shots[a.shotsDone]!;
    const shot = a.shotsDone + 1;
    const forShot = (roll: Boost['roll']) => boosts.find((b) => b.shot === shot && b.roll === roll)?.card;
    const paused = fireShot(out, ctx, a, weapon, { hit: forShot('hit'), intensity: forShot('intensity') });
    if (paused) {
      // The +1 cards for later shots wait, unseen, for the other side's choice. Emitted at every
      // pause, held or not, so the other side cannot tell from a gap in the events.
      out.emit({ type: 'BoostsHeld', seat: a.seat, boosts: boosts.filter((b) => b.shot > shot) }, onlySeats(a.seat));
      return;
    }
    if (out.s.result) return;
  }
  if (out.s.result) return;
  const a = out.s.attacks.find((x) => x.id === attackId)!;
  sweepVoid(out, attackId);
  // The seats alternate: the other side resolves next if it has attacks left.
  const left = (seat: Side) => out.s.attacks.some((x) => x.id !== attackId && x.seat === seat && x.status === 'pending');
  const next = left(other(a.seat)) ? other(a.seat) : left(a.seat) ? a.seat : null;
  out.emit({ type: 'AttackResolved', attackId, next });
  if (next === null) endCombat(out);
}

/** One attack roll of one weapon (or the close assault's single roll). Returns true when it waits for a friendly-fire choice. */
function fireShot(out: Out, ctx: Ctx, a: Attack, weapon: number, boost: ShotBoost): boolean {
  const s = out.s;
  const shooter = a.attackers[0]!;
  const needed = hitThreshold(s, shooter, weapon < 0 ? 'close-assault' : weapon, a.target, weapon < 0 ? assaultParticipants(s, a) : [shooter]);
  if (boost.hit !== undefined) out.emit({ type: 'CommandCardDiscardedForBonus', seat: a.seat, card: boost.hit, roll: 'hit' });
  const dice: [number, number] = [ctx.rng.die(10), ctx.rng.die(10)];
  const natural = dice[0] + dice[1];
  const bonus = boost.hit !== undefined ? 1 : 0;
  // Special rolls read the dice as thrown; a discarded card's +1 only helps reach the attack value.
  const special = specialRoll(natural);
  const result = special ?? (natural + bonus >= needed ? 'hit' : 'miss');
  out.emit({ type: 'AttackRolled', attackId: a.id, weapon, dice, bonus, needed, result });
  if (result === 'miss') return false;
  if (result === 'friendly-fire') {
    const chooser = other(a.seat);
    const candidates = friendlyFireCandidates(out.s, a, weapon);
    if (candidates.length === 0) {
      out.emit({ type: 'FriendlyFireHarmless', attackId: a.id });
      return false;
    }
    if (candidates.length === 1 || out.s.seats[chooser].friendlyFire === 'highest-cost') {
      const victim = [...candidates].sort((x, y) => costOf(out.s, y) - costOf(out.s, x) || (x < y ? -1 : 1))[0]!;
      out.emit({ type: 'FriendlyFireVictimChosen', attackId: a.id, unit: victim, automatic: true });
      resolveHit(out, ctx, a, weapon, victim, null, true, false);
      return false;
    }
    out.emit({ type: 'FriendlyFirePending', attackId: a.id, chooser, candidates, weapon });
    return true;
  }
  // An Intensity +1 is spent only on a hit on the declared target that rolls Intensity (19-20 rolls none).
  const boostIntensity = boost.intensity !== undefined && result !== 'destroyed-outright';
  if (boostIntensity) out.emit({ type: 'CommandCardDiscardedForBonus', seat: a.seat, card: boost.intensity!, roll: 'intensity' });
  resolveHit(out, ctx, a, weapon, a.target, result, false, boostIntensity);
  return false;
}

/** Units friendly to the attacker that its weapon could legally hit (the opponent picks one). */
export function friendlyFireCandidates(s: State, a: Attack, weapon: number): string[] {
  const shooter = s.inPlay[a.attackers[0]!];
  return Object.values(s.inPlay)
    .filter((u) => u.controller === a.seat && !a.attackers.includes(u.id))
    .filter((u) => {
      if (weapon < 0) return closeAssaultTarget(s, u.id);
      // A legal target of that weapon, as if the unit were an enemy: type, bullets, lines, the rear-line artillery limit.
      if (!shooter) return false;
      return (
        weaponCanAffect(cardOf(s, shooter.id).weapons[weapon]!, cardOf(s, u.id)) &&
        lineAllows(shooter.line, u.line) &&
        !rearArtilleryLimit(s, shooter.id, weapon, u.line)
      );
    })
    .map((u) => u.id)
    .sort();
}

/** Damage Resolution for one hit on `victim` (001 Combat Phase: Damage Resolution). */
function resolveHit(out: Out, ctx: Ctx, a: Attack, weapon: number, victim: string, special: string | null, friendly: boolean, boostIntensity: boolean): void {
  const by: Side | null = friendly ? null : a.seat;
  if (special === 'destroyed-outright') {
    destroy(out, victim, by, 'outright', null);
    return;
  }
  const s = out.s;
  // A close assault rolls 1d10 for each infantry unit still able to take part.
  const intensity = weapon < 0 ? assaultParticipants(s, a).map(() => ctx.rng.die(10)) : [ctx.rng.die(10)];
  const doubled = special === 'double-intensity';
  const damageIndex = weapon < 0 ? 0 : cardOf(s, a.attackers[0]!).weapons[weapon]!.damageIndex;
  const bonus = (weapon < 0 ? 0 : intensityBonus(s, a.attackers[0]!)) + (boostIntensity ? 1 : 0);
  const defense = effectiveDefense(s, victim);
  const total = intensity.reduce((x, y) => x + y, 0);
  const net = netDamage(total, damageIndex, defense, { doubled, bonus });
  const endurance = s.inPlay[victim]!.endurance - net;
  out.emit({ type: 'HitResolved', attackId: a.id, target: victim, intensity, doubled, bonus, damageIndex, defense, net, endurance });
  if (endurance <= 0) {
    destroy(out, victim, by, 'damage', Math.max(...intensity));
    return;
  }
  const card = cardOf(out.s, victim);
  if (!needsDamageCard(card, endurance, out.s.inPlay[victim]!.damageCard !== null)) return;
  let top = out.s.damageDeck[0];
  if (top === undefined && out.s.damageDiscard.length) {
    out.emit({ type: 'DamageDeckReshuffled', order: ctx.rng.shuffle(out.s.damageDiscard) }, HIDDEN);
    top = out.s.damageDeck[0];
  }
  if (top === undefined) return; // every Damage card is under some unit: none to draw, so this unit counts as undamaged
  out.emit({ type: 'DamageCardDrawn', unit: victim, card: top });
  const effect = indexCatalog(out.s.catalog).damage(top).effects[damageEdge(card.type)];
  const u = out.s.inPlay[victim]!;
  if (effect.kind === 'crewCasualty' && u.crew) {
    out.emit({ type: 'CrewKilled', unit: victim, crew: u.crew, by, points: by ? costOf(out.s, u.crew) : 0 });
    checkVictory(out);
  } else if (effect.kind === 'explodes') {
    destroy(out, victim, by, 'explosion', null);
  }
}

/** A unit is destroyed: points for the destroyer (none for friendly fire), and its crew's fate. */
function destroy(out: Out, unitId: string, by: Side | null, cause: 'damage' | 'outright' | 'explosion', baseIntensity: number | null): void {
  const s = out.s;
  const u = s.inPlay[unitId]!;
  let fate: 'returned' | 'captured' | 'lost' | null = null;
  let crewPoints = 0;
  if (u.crew) {
    fate = cause === 'damage' && baseIntensity !== null ? crewFate(baseIntensity, hasGroundUnit(s, other(u.controller))) : 'lost';
    // Friendly fire: the enemy did not take the crew, so a crew that would be captured is lost instead.
    if (by === null && fate === 'captured') fate = 'lost';
    crewPoints = by === null || fate === 'returned' ? 0 : victoryPoints(costOf(s, u.crew), fate === 'captured');
  }
  out.emit({ type: 'UnitDestroyed', unit: unitId, by, points: by ? costOf(s, unitId) : 0, cause, crew: u.crew, crewFate: fate, crewPoints, baseIntensity });
  checkVictory(out);
}

// ------------------------------------------------------------ end of the combat phase, draw phase

function endCombat(out: Out): void {
  const before = new Set(Object.keys(out.s.inPlay));
  out.emit({ type: 'CombatEnded' });
  for (const u of Object.values(out.s.inPlay)) {
    if (u.turnsLeft !== null && u.turnsLeft <= 0) out.emit({ type: 'AircraftReturned', seat: u.controller, unit: u.id, pilot: u.crew });
  }
  rearBecomesFront(out, before);
  const counts = { us: unopposed(out.s, 'us') ? out.s.seats.us.overrun + 1 : 0, de: unopposed(out.s, 'de') ? out.s.seats.de.overrun + 1 : 0 };
  out.emit({ type: 'OverrunCounted', counts });
  if (checkVictory(out) || checkEndOfTurn(out)) return;
  out.emit({ type: 'DrawPhaseBegan' });
  for (const seat of SEATS) finishDraw(out, seat);
}

function drawCommand(out: Out, ctx: Ctx, seat: Side): boolean {
  if (out.s.commandDeck.length === 0 && out.s.commandDiscard.length > 0) {
    out.emit({ type: 'CommandDeckReshuffled', order: ctx.rng.shuffle(out.s.commandDiscard) }, HIDDEN);
  }
  const top = out.s.commandDeck[0];
  if (top === undefined) return false;
  out.emit({ type: 'CardDrawn', seat, kind: 'command', card: top }, onlySeats(seat));
  return true;
}

/** A seat's draw phase ends after three draws (or when nothing is left to draw) and within the hand limits. */
/** One draw of the Draw Phase (001 Draw Phase): a Command card first, then any; refused as a value. */
function drawOne(out: Out, ctx: Ctx, seat: Side, from: 'command' | 'reserves'): RuleViolation | undefined {
  const s = out.s;
  const me = s.seats[seat];
  if (s.phase !== 'draw' || me.drawDone) return violation('phase/not-draw', 'You are not drawing now', RULE.draw);
  if (me.drawsTaken >= DRAWS_PER_TURN) return violation('draw/no-more', 'You have drawn your three cards this turn', RULE.draw);
  const commandsLeft = s.commandDeck.length + s.commandDiscard.length > 0;
  if (me.drawsTaken === 0 && from === 'reserves' && commandsLeft)
    return violation('draw/command-first', 'The first card drawn each turn is a Command card', RULE.draw);
  if (from === 'command') {
    if (!commandsLeft) return violation('draw/command-deck-empty', 'No Command cards are left to draw', RULE.draw);
    drawCommand(out, ctx, seat);
  } else {
    const top = me.reserves[0];
    if (top === undefined) return violation('draw/reserves-empty', 'Your Reserves deck is empty', RULE.draw);
    out.emit({ type: 'CardDrawn', seat, kind: 'unit', card: top }, onlySeats(seat));
  }
  out.emit({ type: 'DrawCounted', seat, kind: from === 'command' ? 'command' : 'unit' });
  finishDraw(out, seat);
  return undefined;
}

function finishDraw(out: Out, seat: Side): void {
  const me = out.s.seats[seat];
  if (me.drawDone || out.s.phase !== 'draw') return;
  const nothingLeft = me.reserves.length === 0 && out.s.commandDeck.length + out.s.commandDiscard.length === 0;
  if (me.drawsTaken < DRAWS_PER_TURN && nothingLeft) out.emit({ type: 'DrawsSkipped', seat });
  const now = out.s.seats[seat];
  if (now.drawsTaken < DRAWS_PER_TURN || now.hand.length > HAND_LIMIT_UNITS || now.commands.length > HAND_LIMIT_COMMANDS) return;
  out.emit({ type: 'DrawFinished', seat });
  if (SEATS.every((x) => out.s.seats[x].drawDone)) out.emit({ type: 'TurnBegan', turn: out.s.turn + 1 });
}

// ------------------------------------------------------------ victory

function decideGame(out: Out, winners: Side[], reason: string): true {
  out.emit({ type: 'GameDecided', winners, reason });
  return true;
}

/** Immediate win conditions: points and destroyed-type objectives (checked whenever points are scored). */
export function checkVictory(out: Out): boolean {
  const s = out.s;
  if (s.result) return true;
  for (const wc of s.situation.winConditions) {
    if (wc.kind === 'points') {
      const over = SEATS.filter((x) => s.seats[x].score >= wc.target);
      if (over.length === 1) return decideGame(out, over, `${over[0]} reached ${wc.target} Victory Points`);
      if (over.length === 2) return byScore(out, `both sides reached ${wc.target} Victory Points`);
    }
    if (wc.kind === 'destroyTypes') {
      const n = wc.types.reduce((acc, t) => acc + (s.seats[wc.seat].destroyedTypes[t] ?? 0), 0);
      if (n >= wc.count) return decideGame(out, [wc.seat], `${wc.seat} destroyed or captured ${wc.count} enemy ${wc.types.join('/')} unit(s)`);
    }
  }
  return false;
}

function byScore(out: Out, why: string): true {
  const { us, de } = { us: out.s.seats.us.score, de: out.s.seats.de.score };
  return decideGame(out, us === de ? [] : [us > de ? 'us' : 'de'], `${why}; ${us === de ? 'scores are level: a draw' : 'the higher score wins'} (${us}-${de})`);
}

/**
 * End-of-turn conditions: Overrun, hold-out objectives, and the engine's own ends for a game
 * that could otherwise never finish: the turn limit, or nothing left to fight with on either
 * side (no units in play, empty Reserves, and no unit committed this turn). Those end by the
 * higher score.
 */
function checkEndOfTurn(out: Out): boolean {
  const s = out.s;
  for (const wc of s.situation.winConditions) {
    if (wc.kind === 'overrun') {
      const over = SEATS.filter((x) => s.seats[x].overrun >= wc.turns);
      if (over.length) return decideGame(out, [over[0]!], `${over[0]} overran the enemy: an unopposed land unit for ${wc.turns} consecutive turns`);
    }
    if (wc.kind === 'holdOut' && s.turn >= wc.turns && landUnits(s, wc.seat).length > 0) {
      return decideGame(out, [wc.seat], `${wc.seat} held out through turn ${wc.turns}`);
    }
  }
  // Judged on public facts only: reading the hidden hands here would tell a side that the game
  // went on because the other still holds a unit. A side that holds units commits one to play on.
  const exhausted = SEATS.every(
    (x) => Object.values(s.inPlay).every((u) => u.controller !== x) && s.seats[x].reserves.length === 0 && s.seats[x].lastCommitTurn < s.turn,
  );
  if (exhausted) return byScore(out, 'neither side has a unit in play or in Reserves, and neither committed one this turn');
  if (s.turn >= s.maxTurns) return byScore(out, `the turn limit (${s.maxTurns}) was reached`);
  return false;
}
