import type { Ctx } from '../kernel/engine.js';
import { ok } from '../kernel/result.js';
import { onlySeats } from '../kernel/visibility.js';
import { cardValue, suitOf } from './data/cards.js';
import { rallies } from './data/tables.js';
import { distance, hexesOnLine, onMap } from './hexmap.js';
import { parseHexId } from '../kernel/hex.js';
import { beginActionPhase, beginSetup, afterPlacement, endActionPhase, placeable, removeLonelyLeaders, toPlace, placementTurn, anyPlaceable } from './flow.js';
import { forceProblem } from './forces.js';
import { SEATS, type Command, type Seat, type State } from './model.js';
import { no, Out, type Decision } from './out.js';
import {
  canAct,
  fireCards,
  fireTargets,
  fireValues,
  hitsOn,
  isEmplaced,
  isLeader,
  mayCarry,
  onExitEdge,
  reachable,
  RULE,
  trainingOf,
  typeOf,
  unitById,
  unitsIn,
} from './rules.js';
import { indirectFireProblem, indirectOptions, missionProblem, strike } from './strike.js';

const asSeat = (actor: string): Seat | undefined => SEATS.find((s) => s === actor);

/** Decides one command: refused as a value with a namespaced code, or the events it produces. */
export function decide(s: State, c: Command, actor: string, ctx: Ctx): Decision {
  if (s.result) return no('game/over', 'The game is over', RULE.sequence);
  const seat = asSeat(actor);
  if (!seat) return no('seat/unknown', `${actor} is not a seat of this game`, RULE.sequence);
  const out = new Out(s, ctx);
  const problem = apply(out, seat, c, ctx);
  return problem ?? ok(out.list);
}

function apply(out: Out, seat: Seat, c: Command, ctx: Ctx): Decision | undefined {
  const s = out.s;
  switch (c.type) {
    case 'RegisterHexes': {
      if (s.phase !== 'registration' || s.registrationDone[seat])
        return no('phase/not-now', 'Artillery Registration is written before set-up, once', RULE.registration);
      const distinct = new Set(c.hexes);
      if (distinct.size !== c.hexes.length || c.hexes.some((h) => !onMap(s.map, h)))
        return no('registration/bad-hex', 'Register up to two different hexes of the map', RULE.registration);
      out.emit({ type: 'HexesRegistered', seat, hexes: [...c.hexes] }, onlySeats(seat));
      out.emit({ type: 'RegistrationDone', seat });
      if (SEATS.every((x) => out.s.registrationDone[x])) afterRegistration(out, ctx);
      return undefined;
    }
    case 'ChooseForce': {
      if (s.phase !== 'forces' || s.chosenForces[seat] !== null) return no('phase/not-now', 'Forces are chosen once, before set-up', RULE.builder);
      const p = forceProblem(s, seat, c.units);
      if (p) return no('force/invalid', p, RULE.builder);
      out.emit({ type: 'ForceChosen', seat, units: [...c.units] }, onlySeats(seat));
      out.emit({ type: 'ForceSealed', seat });
      if (SEATS.every((x) => out.s.chosenForces[x] !== null)) revealForces(out, ctx);
      return undefined;
    }
    case 'PlaceUnit': {
      const p = s.placement;
      if ((s.phase !== 'setup' && s.phase !== 'reinforce') || !p || p.seat !== seat) return no('turn/not-yours', 'You are not placing units now', RULE.setup);
      if (p.placed >= p.max) return no('placement/full', `You may place ${p.max} unit(s) now`, RULE.builder);
      const u = toPlace(s, seat, placementTurn(s)).find((x) => x.id === c.unit);
      if (!u) return no('unit/unknown', `${c.unit} is not one of your units waiting to be placed now`, RULE.setup);
      if (!placeable(s, u, c.hex)) return no('placement/bad-hex', `${c.unit} may not be placed in ${c.hex}`, RULE.setup);
      const dugIn = c.dugIn === true;
      if (dugIn && !mayStartDugIn(s, u.type))
        return no('placement/no-dug-in', 'Only Leg and Towed units set up at the start may begin Dug In, unless the scenario forbids it', RULE.setup);
      out.emit({ type: 'UnitPlaced', unit: u.id, hex: c.hex, dugIn });
      afterPlacement(out, ctx, false);
      return undefined;
    }
    case 'EndPlacement': {
      const p = s.placement;
      if ((s.phase !== 'setup' && s.phase !== 'reinforce') || !p || p.seat !== seat) return no('turn/not-yours', 'You are not placing units now', RULE.setup);
      if (p.placed < p.min && anyPlaceable(s)) return no('placement/short', `Place at least ${p.min} unit(s) first`, RULE.setup);
      afterPlacement(out, ctx, true);
      return undefined;
    }
    case 'IndirectFire':
    case 'CallFireSupport':
    case 'CallAirStrike':
    case 'EndIndirectFire': {
      if (s.phase !== 'indirect' || s.active !== seat) return no('turn/not-yours', 'It is not your Indirect Fire Phase', RULE.indirect);
      if (c.type === 'EndIndirectFire') {
        beginActionPhase(out);
        return undefined;
      }
      if (c.type === 'IndirectFire') {
        const p = indirectFireProblem(s, seat, c.unit, c.hex);
        if (p) return no('fire/illegal', p, RULE.indirect);
        const u = unitById(s, c.unit)!;
        const t = typeOf(s, u);
        strike(out, seat, { unit: u.id, kind: 'artillery', hard: t.hard, soft: t.soft }, c.hex);
      } else {
        const air = c.type === 'CallAirStrike';
        const p = missionProblem(s, seat, c.mission, c.hex, air, air ? c.entry : undefined);
        if (p) return no('fire/illegal', p, air ? RULE.air : RULE.indirect);
        const m = s.missions[seat].find((x) => x.id === c.mission)!;
        strike(out, seat, { mission: m.id, kind: m.kind, hard: m.hard, soft: m.soft }, c.hex, air ? c.entry : undefined);
      }
      removeLonelyLeaders(out);
      if (!indirectOptions(out.s, seat)) beginActionPhase(out);
      return undefined;
    }
    default:
      return action(out, seat, c, ctx);
  }
}

/** The Action Phase (004): Move, Exit, Fire, a Leader's Rally or Dig In, and its end. */
function action(out: Out, seat: Seat, c: Command, ctx: Ctx): Decision | undefined {
  const s = out.s;
  if (s.phase !== 'action' || s.active !== seat) return no('turn/not-yours', 'It is not your Action Phase', RULE.action);
  const mine = (id: string) => {
    const u = unitById(s, id);
    return u && u.owner === seat && u.status === 'map' ? u : undefined;
  };
  switch (c.type) {
    case 'Move': {
      const u = mine(c.unit);
      if (u && isEmplaced(s, u)) return no('move/emplaced', `${u.id} is emplaced (the scenario's special rule) and never moves`, RULE.move);
      if (!u || !canAct(s, u, 'move')) return no('action/unavailable', `${c.unit} cannot move now`, RULE.action);
      const cargo = c.carry === undefined ? undefined : mine(c.carry);
      if (c.carry !== undefined && (!cargo || !mayCarry(s, u, cargo))) return no('move/no-carry', `${u.id} cannot carry ${c.carry}`, RULE.move);
      const path = reachable(s, u, cargo).get(c.to);
      if (!path) return no('move/unreachable', `${u.id} cannot reach ${c.to} with its movement points`, RULE.move);
      out.emit({ type: 'UnitMoved', unit: u.id, path, ...(cargo ? { carried: cargo.id } : {}) });
      removeLonelyLeaders(out);
      return undefined;
    }
    case 'Exit': {
      const u = mine(c.unit);
      if (!u || isLeader(s, u) || !canAct(s, u, 'move') || !onExitEdge(s, u))
        return no('action/unavailable', `${c.unit} cannot leave the map now: a troop unit exits from the opponent's edge with its move`, RULE.move);
      out.emit({ type: 'UnitExited', unit: u.id });
      removeLonelyLeaders(out);
      return undefined;
    }
    case 'Fire': {
      const u = mine(c.unit);
      if (!u || isLeader(s, u) || !canAct(s, u, 'fire')) return no('action/unavailable', `${c.unit} cannot fire now`, RULE.fire);
      const target = fireTargets(s, u).find((x) => x.id === c.target);
      if (!target) return no('fire/no-target', `${c.target} is not an enemy unit in range and in sight of ${u.id}`, RULE.fire);
      const v = fireValues(s, u, target);
      out.emit({ type: 'FireDeclared', unit: u.id, target: target.id, ...v });
      const cards = out.draw(fireCards(s, u), `fire on ${target.id}`);
      for (const e of hitsOn(out.s, target, cards, v.hard, v.soft, 'fire')) out.emit(e);
      if (s.friendlyFire) friendlyFire(out, u.hex!, target.hex!, seat);
      removeLonelyLeaders(out);
      return undefined;
    }
    case 'Rally':
    case 'DigIn': {
      const l = mine(c.leader);
      if (!l || !isLeader(s, l) || !canAct(s, l, 'command'))
        return no('action/unavailable', `${c.leader} is not a Leader of yours able to act now`, RULE.leader);
      const u = mine(c.unit);
      if (!u || isLeader(s, u) || distance(l.hex!, u.hex!) > 1)
        return no('leader/out-of-reach', `${c.unit} is not a unit of yours in or next to ${l.id}'s hex`, RULE.leader);
      if (c.type === 'Rally') {
        if (!u.suppressed) return no('rally/not-suppressed', `${u.id} is not Suppressed`, RULE.leader);
        const [card] = out.draw(1, `rally ${u.id}`);
        out.emit({ type: 'RallyTried', leader: l.id, unit: u.id, success: rallies(s.tables, trainingOf(s, u), suitOf(card!)) });
        return undefined;
      }
      if (!mayDigIn(s, u.id))
        return no('dig/unavailable', `${u.id} cannot dig in now: a Leg or Towed unit that has not acted, is not Suppressed and is not Dug In`, RULE.leader);
      const [card] = out.draw(1, `dig in ${u.id}`);
      const value = cardValue(card!);
      out.emit({ type: 'DigInTried', leader: l.id, unit: u.id, success: value !== undefined && value <= trainingOf(s, u) });
      return undefined;
    }
    case 'EndActions':
      endActionPhase(out, ctx);
      return undefined;
    default:
      return no('phase/not-now', `${c.type} is not an Action Phase command`, RULE.action);
  }
}

/** A unit may be directed to dig in when it is Leg or Towed, has taken no action, and is neither Suppressed nor Dug In (004 Dig In; Status Markers). */
export function mayDigIn(s: State, id: string): boolean {
  const u = unitById(s, id);
  if (!u || u.status !== 'map' || u.suppressed || u.dugIn || u.firedIndirect || u.actions.length > 0) return false;
  const cls = typeOf(s, u).class;
  return cls === 'leg' || cls === 'towed';
}

export const mayStartDugIn = (s: State, type: string): boolean => {
  const cls = s.unitTypes.find((t) => t.id === type)!.class;
  return s.placement?.kind === 'setup' && !s.scenario.noDugInAtStart && (cls === 'leg' || cls === 'towed');
};

/** Optional Friendly Fire: a card for each friendly unit in a hex the line of fire passes through; a Spade costs it a step. */
function friendlyFire(out: Out, from: string, to: string, seat: Seat): void {
  const line = hexesOnLine(out.s.map, parseHexId(from)!, parseHexId(to)!).filter((h) => h.id !== from && h.id !== to);
  for (const { id } of line)
    for (const u of unitsIn(out.s, id).filter((x) => x.owner === seat)) {
      const [card] = out.draw(1, `friendly fire on ${u.id}`);
      if (suitOf(card!) === 'S') out.emit({ type: 'StepLost', unit: u.id, card: card!, cause: 'friendly fire' });
    }
}

function afterRegistration(out: Out, ctx: Ctx): void {
  if (SEATS.some((x) => out.s.chosenForces[x] === null)) out.emit({ type: 'ForceSelectionBegan' });
  else beginSetup(out, ctx);
}

function revealForces(out: Out, ctx: Ctx): void {
  const f = out.s.chosenForces;
  out.emit({ type: 'ForcesRevealed', forces: { allies: [...f.allies!], axis: [...f.axis!] } });
  beginSetup(out, ctx);
}
