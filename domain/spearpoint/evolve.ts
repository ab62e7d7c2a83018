import { discarded, drawn, reshuffled, withOrder } from '../kernel/deck.js';
import { assertNever } from '../kernel/errors.js';
import { indexCatalog } from '../frontline-general/data/catalog.js';
import type { Side } from '../frontline-general/data/schema.js';
import type { Event, Line, Removed, SeatState, State, UnitInPlay } from './model.js';
import { cardEntry, unitIn, SEATS } from './model.js';
import { cardOf, commandOf, damageEdge, recoveredEndurance } from './rules.js';

/** Folding events into state: pure, total, never rolls a die. Every consequence a die decided is in the event. */

const without = (xs: readonly string[], ...drop: (string | null)[]) => xs.filter((x) => !drop.includes(x));

function seat(s: State, side: Side, f: (x: SeatState) => Partial<SeatState>): State {
  return { ...s, seats: { ...s.seats, [side]: { ...s.seats[side], ...f(s.seats[side]) } } };
}

function unit(s: State, id: string, f: (u: UnitInPlay) => Partial<UnitInPlay>): State {
  const u = unitIn(s, id);
  if (!u) return s;
  return { ...s, inPlay: { ...s.inPlay, [id]: { ...u, ...f(u) } } };
}

export function newUnit(s: State, id: string, controller: Side, line: Line, crew: string | null): UnitInPlay {
  const card = cardOf(s, id);
  return {
    id,
    controller,
    line,
    crew,
    endurance: card.endurance.full,
    turnsLeft: card.turnsOfFlight ?? null,
    bombsUsed: false,
    ...UNDAMAGED,
  };
}

/** A unit with no Damage card and none of its effects: as committed, or after a repair. */
const UNDAMAGED = {
  damageCard: null,
  shakenUntil: 0,
  immobilized: false,
  accuracyLoss: 0,
  defenseLoss: 0,
  weaponsLost: [],
  fuelLeak: false,
} as const satisfies Partial<UnitInPlay>;

/** Takes a unit out of the battle area: its Damage card and the command cards on it go to their discard piles. */
function leavePlay(s: State, id: string): State {
  const u = unitIn(s, id);
  if (!u) return s;
  const { [id]: _gone, ...inPlay } = s.inPlay;
  const onIt = s.effects.filter((e) => e.unit === id);
  return {
    ...s,
    inPlay,
    damageDeck: u.damageCard ? discarded(s.damageDeck, [u.damageCard]) : s.damageDeck,
    effects: s.effects.filter((e) => e.unit !== id),
    commandDeck: discarded(
      s.commandDeck,
      onIt.map((e) => e.card),
    ),
  };
}

const underReserves = (s: State, card: string | null): State =>
  card === null ? s : seat(s, cardEntry(s, card)!.owner, (x) => ({ reserves: [...x.reserves, card] }));

function record(s: State, card: string, by: Side | null, kind: Removed['kind'], points: number): State {
  const next: State = { ...s, removed: [...s.removed, { card, owner: cardEntry(s, card)!.owner, by, kind, points }] };
  return by === null ? next : seat(next, by, (x) => ({ score: x.score + points }));
}

function countType(s: State, by: Side | null, id: string): State {
  if (by === null) return s;
  const type = cardOf(s, id).type;
  return seat(s, by, (x) => ({ destroyedTypes: { ...x.destroyedTypes, [type]: (x.destroyedTypes[type] ?? 0) + 1 } }));
}

const resetOrders = (s: State): State => SEATS.reduce<State>((acc, side) => seat(acc, side, () => ({ order: [], sealed: false })), s);

export function evolve(s: State, e: Event): State {
  switch (e.type) {
    case 'ReservesShuffled':
      return seat(s, e.seat, () => ({ reserves: e.order }));
    case 'CommandDeckShuffled':
      return { ...s, commandDeck: withOrder(s.commandDeck, e.order) };
    case 'DamageDeckShuffled':
      return { ...s, damageDeck: withOrder(s.damageDeck, e.order) };
    case 'CommandCardsDealt':
      return seat({ ...s, commandDeck: drawn(s.commandDeck, e.cards) }, e.seat, (x) => ({ commands: [...x.commands, ...e.cards] }));
    case 'CardsDealtCount':
    case 'CardsDrawnByCard':
    case 'CaptureRolled':
    case 'FriendlyFireHarmless':
    case 'DamageEffectRefused':
    case 'UnitDiscardCounted':
      return s;
    case 'SituationUnitsPlaced': {
      const inPlay = { ...s.inPlay };
      for (const p of e.units) inPlay[p.unit] = newUnit(s, p.unit, e.seat, p.line, p.crew);
      return { ...s, inPlay };
    }
    case 'StartingUnitPicked':
      return seat(s, e.seat, (x) => ({ reserves: without(x.reserves, e.unit), hand: [...x.hand, e.unit] }));
    case 'StartingHandReady':
      return seat(s, e.seat, () => ({ handReady: true }));
    case 'TurnBegan':
      return { ...resetOrders(s), started: true, turn: e.turn, phase: 'commitment', attacks: [], chooser: null, initiative: null, initiativeTies: [] };
    case 'OrderStepAdded':
      return seat(s, e.seat, (x) => ({ order: [...x.order, e.step] }));
    case 'OrderCleared':
      return seat(s, e.seat, () => ({ order: [] }));
    case 'OrderFinalized':
      return seat(s, e.seat, () => ({ order: e.steps }));
    case 'OrderSealed':
      return seat(s, e.seat, () => ({ sealed: true }));
    case 'CommitmentRevealed':
      return resetOrders(s);
    case 'UnitCommitted': {
      const next = seat(s, e.seat, (x) => ({ hand: without(x.hand, e.unit, e.crew), lastCommitTurn: s.turn }));
      return { ...next, inPlay: { ...next.inPlay, [e.unit]: newUnit(s, e.unit, e.seat, e.line, e.crew) } };
    }
    case 'CrewReplaced':
      return unit(
        seat(s, e.seat, (x) => ({ hand: without(x.hand, e.crew) })),
        e.unit,
        () => ({ crew: e.crew }),
      );
    case 'CrewMoved':
      return unit(
        unit(s, e.from, () => ({ crew: null })),
        e.to,
        () => ({ crew: e.crew }),
      );
    case 'LineChanged':
      return unit(s, e.unit, () => ({ line: e.line }));
    case 'RearBecameFront':
      return e.units.reduce((acc, id) => unit(acc, id, () => ({ line: 'front' })), s);
    case 'CommandCardPlayed': {
      const card = commandOf(s, e.card);
      const next = seat(s, e.seat, (x) => ({ commands: without(x.commands, e.card) }));
      const lasting = ['defense', 'concealment', 'accuracy', 'intensity', 'rateOfFire', 'initiative', 'smoke', 'sabotage'].includes(card.effect.kind);
      if (!lasting) return { ...next, commandDeck: discarded(next.commandDeck, [e.card]) };
      return {
        ...next,
        effects: [...next.effects, { card: e.card, title: card.title, seat: e.seat, unit: e.target, effect: card.effect, duration: card.duration }],
      };
    }
    case 'CommandCardVoided':
    case 'CommandCardDiscardedForBonus':
    case 'CommandDiscarded': {
      const next = seat(s, e.seat, (x) => ({ commands: without(x.commands, e.card) }));
      return { ...next, commandDeck: discarded(next.commandDeck, [e.card]) };
    }
    case 'UnitWithdrawn': {
      const next = leavePlay(s, e.unit);
      return seat(next, e.seat, (x) => ({ hand: [...x.hand, e.unit, ...(e.crew ? [e.crew] : [])] }));
    }
    case 'UnitRepaired': {
      const u = unitIn(s, e.unit)!;
      const next = unit(s, e.unit, () => ({ ...UNDAMAGED, endurance: cardOf(s, e.unit).endurance.full }));
      return { ...next, damageDeck: u.damageCard ? discarded(next.damageDeck, [u.damageCard]) : next.damageDeck };
    }
    case 'CardDrawn':
      return e.kind === 'command'
        ? seat({ ...s, commandDeck: drawn(s.commandDeck, [e.card]) }, e.seat, (x) => ({ commands: [...x.commands, e.card] }))
        : seat(s, e.seat, (x) => ({ reserves: without(x.reserves, e.card), hand: [...x.hand, e.card] }));
    case 'UnitCaptured': {
      let next = s;
      if (e.crew) {
        next = unit(next, e.unit, () => ({ crew: null }));
        next = record(next, e.crew, e.by, 'captured', e.crewPoints);
      }
      next = countType(next, e.by, e.unit);
      if (!e.kept) return record(leavePlay(next, e.unit), e.unit, e.by, 'captured', e.unitPoints);
      // Kept: scored as captured, it changes sides, idle until the captor commits a crew; cards played on it by its old side are discarded.
      next = record(next, e.unit, e.by, 'kept', e.unitPoints);
      const onIt = next.effects.filter((x) => x.unit === e.unit);
      const card = cardOf(next, e.unit);
      next = {
        ...next,
        effects: next.effects.filter((x) => x.unit !== e.unit),
        commandDeck: discarded(
          next.commandDeck,
          onIt.map((x) => x.card),
        ),
      };
      const line: Line = card.line === 'rear' ? 'rear' : card.line === 'either' ? unitIn(next, e.unit)!.line : 'front';
      return unit(next, e.unit, () => ({ controller: e.by, line }));
    }
    case 'DeclarationBegan':
      return { ...s, phase: 'declaration' };
    case 'DeclarationRevealed':
      return { ...resetOrders(s), attacks: e.attacks };
    case 'AttackCancelled':
      return { ...s, attacks: s.attacks.map((a) => (a.id === e.attackId ? { ...a, status: 'cancelled' } : a)) };
    case 'InitiativeTied':
      return { ...resetOrders(s), phase: 'initiative', initiativeTies: [...(s.initiativeTies ?? []), e.roll] };
    case 'InitiativeRolled':
      // The orders of a tie (version 3) are spent; after the declaration's reveal they are empty already.
      return { ...resetOrders(s), initiative: e.winner, initiativeTies: [] };
    case 'CombatBegan':
      return { ...s, phase: 'combat', chooser: e.chooser };
    case 'AttackRolled': {
      const a = s.attacks.find((x) => x.id === e.attackId)!;
      const next = { ...s, attacks: s.attacks.map((x) => (x.id === e.attackId ? { ...x, shotsDone: x.shotsDone + 1 } : x)) };
      const shooter = a.attackers[0]!;
      return e.weapon >= 0 && cardOf(s, shooter).weapons[e.weapon]?.bombs ? unit(next, shooter, () => ({ bombsUsed: true })) : next;
    }
    case 'FriendlyFirePending':
      return { ...s, friendlyFire: { attackId: e.attackId, chooser: e.chooser, candidates: e.candidates, weapon: e.weapon } };
    case 'BoostsHeld':
      return seat(s, e.seat, () => ({ heldBoosts: e.boosts }));
    case 'FriendlyFireVictimChosen': {
      const attacker = s.attacks.find((x) => x.id === e.attackId)?.seat;
      const cleared = attacker ? seat(s, attacker, () => ({ heldBoosts: [] })) : s;
      return { ...cleared, friendlyFire: null };
    }
    case 'HitResolved':
      return unit(s, e.target, () => ({ endurance: e.endurance }));
    case 'DamageCardDrawn': {
      const effect = indexCatalog(s.catalog).damage(e.card).effects[damageEdge(cardOf(s, e.unit).type)];
      const next = unit({ ...s, damageDeck: drawn(s.damageDeck, [e.card]) }, e.unit, () => ({ damageCard: e.card }));
      switch (effect.kind) {
        case 'shaken':
          return unit(next, e.unit, () => ({ shakenUntil: s.turn + effect.turns }));
        case 'accuracyLoss':
          return unit(next, e.unit, (u) => ({ accuracyLoss: u.accuracyLoss + effect.amount }));
        case 'defenseLoss':
          return unit(next, e.unit, (u) => ({ defenseLoss: u.defenseLoss + effect.amount }));
        case 'immobilized':
          return unit(next, e.unit, () => ({ immobilized: true }));
        case 'weaponLost':
          return unit(next, e.unit, (u) => ({ weaponsLost: [...u.weaponsLost, effect.weapon] }));
        case 'fuelLeak':
          return unit(next, e.unit, () => ({ fuelLeak: true }));
        case 'none':
        case 'crewCasualty': // its own CrewKilled event follows
        case 'explodes': // its own UnitDestroyed event follows
          return next;
        default:
          return assertNever(effect, 'damage effect');
      }
    }
    case 'DamageDeckReshuffled':
      // Planned only when the draw pile is empty (planDraw), so the shuffled discards are the whole new pile.
      return { ...s, damageDeck: reshuffled(s.damageDeck, e.order) };
    case 'CrewKilled':
      return record(
        unit(s, e.unit, () => ({ crew: null })),
        e.crew,
        e.by,
        e.by ? 'destroyed' : 'friendly-fire',
        e.points,
      );
    case 'UnitDestroyed': {
      let next = countType(leavePlay(s, e.unit), e.by, e.unit);
      next = record(next, e.unit, e.by, e.by ? 'destroyed' : 'friendly-fire', e.points);
      if (e.crew) {
        if (e.crewFate === 'returned') next = underReserves(next, e.crew);
        else next = record(next, e.crew, e.by, e.crewFate === 'captured' ? 'captured' : e.by ? 'destroyed' : 'friendly-fire', e.crewPoints);
      }
      return next;
    }
    case 'AttackResolved':
      return { ...s, attacks: s.attacks.map((a) => (a.id === e.attackId ? { ...a, status: 'resolved' } : a)), chooser: e.next };
    case 'CombatEnded': {
      // Recovery, end of turn-long cards, and the aircraft fuel count (001 Damage Resolution; Commitment Phase).
      const inPlay: Record<string, UnitInPlay> = {};
      for (const u of Object.values(s.inPlay)) {
        const card = cardOf(s, u.id);
        inPlay[u.id] = {
          ...u,
          endurance: recoveredEndurance(card, u.damageCard !== null),
          turnsLeft: u.turnsLeft === null ? null : u.fuelLeak ? 0 : u.turnsLeft - 1,
        };
      }
      const ending = s.effects.filter((x) => x.duration === 'turn');
      return {
        ...s,
        inPlay,
        effects: s.effects.filter((x) => x.duration !== 'turn'),
        commandDeck: discarded(
          s.commandDeck,
          ending.map((x) => x.card),
        ),
        attacks: [],
        chooser: null,
        friendlyFire: null,
      };
    }
    case 'AircraftReturned':
      return underReserves(underReserves(leavePlay(s, e.unit), e.unit), e.pilot);
    case 'OverrunCounted':
      return SEATS.reduce<State>((acc, side) => seat(acc, side, () => ({ overrun: e.counts[side] })), s);
    case 'DrawPhaseBegan':
      return SEATS.reduce<State>((acc, side) => seat(acc, side, () => ({ drawsTaken: 0, drawDone: false })), { ...s, phase: 'draw' });
    case 'DrawCounted':
      return seat(s, e.seat, (x) => ({ drawsTaken: x.drawsTaken + 1 }));
    case 'CommandDeckReshuffled':
      return { ...s, commandDeck: reshuffled(s.commandDeck, e.order) };
    case 'DrawsSkipped':
      return seat(s, e.seat, () => ({ drawsTaken: 3 }));
    case 'UnitDiscarded':
      return seat(s, e.seat, (x) => ({ hand: without(x.hand, e.card), reserves: [...x.reserves, e.card] }));
    case 'DrawFinished':
      return seat(s, e.seat, () => ({ drawDone: true }));
    case 'StandingOrdersSet':
      return seat(s, e.seat, () => ({ friendlyFire: e.friendlyFire }));
    case 'GameDecided':
      return { ...s, phase: 'over', result: { winners: e.winners, reason: e.reason } };
    default:
      return assertNever(e, 'spearpoint event');
  }
}
