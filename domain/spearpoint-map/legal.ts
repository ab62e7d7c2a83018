import type { Pending } from '../kernel/engine.js';
import type { Side } from '../frontline-general/data/schema.js';
import { SPACES } from './map.js';
import { asSide, type Command, type State } from './model.js';
import { assaultProblem } from './close-assault.js';
import { featureRule } from './features.js';
import { attackProblem, raiderToFire, stukaToBomb } from './targets.js';
import { commitPlaces, crewsFor, entryChanges, mustEnterMore, stukaPath, entrySpaces } from './commitment.js';
import { plays } from './cards.js';
import { overLimit } from './draw.js';
import { cannotMove, lineChangeProblem, mayExit, pathTo } from './movement.js';
import { distance, FLIGHT_PATHS } from './map.js';
import { cannotAttack, cardOf, isAreaWeapon, onMap, sideUnitsAt, spotters, STACK_LIMIT, unitsAt } from './rules.js';

/**
 * Every command a seat may send now: the single source of truth for clients, bots and the fuzz.
 * Large choice spaces are listed representatively (a pair of weapons: the first two that may
 * fire; one spotter; the first Command card to sprint with), and `decide` accepts the general case.
 */
export const OPFIRE_TOPIC = 'opportunity-fire';

export function pending(s: State): Pending[] {
  if (s.result || !s.started) return [];
  if (s.opfire)
    return [
      {
        seat: s.opfire.seat,
        kind: 'reaction',
        prompt: `Opportunity fire at ${s.opfire.mover}: fire with one of ${s.opfire.shooters.join(', ')} or pass`,
        window: { id: s.opfire.id, topic: OPFIRE_TOPIC, blocking: true, default: { type: 'PassOpportunityFire' } },
      },
    ];
  const step = s.phase === 'declaration' ? (s.declStep === 'support' ? ': aircraft and artillery targets' : ': all other targets') : '';
  return s.active ? [{ seat: s.active, kind: 'move', prompt: `Turn ${s.turn}, ${s.phase} phase${step}` }] : [];
}

export function legalCommands(s: State, seatId: string): Command[] {
  const seat = asSide(seatId);
  if (!seat || s.result || !s.started) return [];
  if (s.opfire) {
    if (s.opfire.seat !== seat) return [];
    return [{ type: 'PassOpportunityFire' }, ...s.opfire.shooters.map((unit): Command => ({ type: 'OpportunityFire', unit }))];
  }
  if (s.active !== seat) return [];
  switch (s.phase) {
    case 'movement':
      return [...moves(s, seat), ...entryChanges(s, seat), ...(doneAllowed(s, seat) ? [done] : [])];
    case 'commitment':
      return [...commits(s, seat), ...plays(s, seat), ...(doneAllowed(s, seat) ? [done] : [])];
    case 'declaration':
      return [...declarations(s, seat), ...plays(s, seat), ...(doneAllowed(s, seat) ? [done] : [])];
    case 'resolution':
      return s.attacks.filter((a) => a.seat === seat && a.status === 'pending').map((a): Command => ({ type: 'ResolveAttack', attackId: a.id }));
    case 'draw':
      return [...draws(s, seat), ...plays(s, seat)];
    default:
      return [];
  }
}

const done: Command = { type: 'Done' };

function doneAllowed(s: State, seat: Side): boolean {
  if (s.phase === 'movement') return convoyLeft(s, seat);
  if (s.phase === 'commitment')
    return !mustEnterMore(s, seat) && !Object.values(s.units).some((u) => u.side === seat && u.at === 'air' && u.path === null && stukaPath(s, u.id));
  if (s.phase === 'declaration') return stukaToBomb(s, seat) === null && raiderToFire(s, seat) === null;
  return true;
}
const convoyLeft = (s: State, seat: Side): boolean =>
  !Object.values(s.units).some(
    (u) => u.convoy && u.side === seat && cannotMove(s, seat, u.id) === null && pathTo(s, u.id, `B${Number(u.at.slice(1)) - 1}`, false).length > 0,
  );

function moves(s: State, seat: Side): Command[] {
  const out: Command[] = [];
  const card = s.seats[seat].commands[0];
  for (const u of Object.values(s.units)) {
    if (u.side === seat && cardOf(s, u.id).line === 'either')
      for (const to of u.at === 'rear' ? entrySpaces(s, seat) : ['rear'])
        if (lineChangeProblem(s, seat, u.id, to) === null) out.push({ type: 'Move', unit: u.id, to });
    if (u.side !== seat || cannotMove(s, seat, u.id)) continue;
    if (mayExit(s, seat, u.id)) out.push({ type: 'Move', unit: u.id, to: 'exit' });
    for (const sp of SPACES) {
      if (pathTo(s, u.id, sp, false).length) out.push({ type: 'Move', unit: u.id, to: sp });
      else if (
        card &&
        pathTo(s, u.id, sp, true).length &&
        !(cardOf(s, u.id).type === 'infantry' || cardOf(s, u.id).type === 'crew' ? s.scenario.noSprint : s.scenario.noPush)
      )
        out.push({ type: 'Move', unit: u.id, to: sp, extra: card });
    }
  }
  return out;
}

function commits(s: State, seat: Side): Command[] {
  const out: Command[] = [];
  const me = s.seats[seat];
  for (const unit of me.hand) {
    const card = cardOf(s, unit);
    if (card.type === 'crew') {
      const needed = Object.values(s.units).some((u) => u.side === seat && u.crew === null && !u.convoy && cardOf(s, u.id).crew === card.crewKind);
      if (needed && s.turn >= s.scenario.firstCommitTurn[seat])
        for (const at of entrySpaces(s, seat)) if (sideUnitsAt(s, at, seat).length < STACK_LIMIT) out.push({ type: 'Commit', unit, at });
      continue;
    }
    const crews = crewsFor(s, seat, unit);
    if (card.crew !== 'none' && crews.length === 0) continue;
    for (const at of commitPlaces(s, seat, unit)) out.push(card.crew === 'none' ? { type: 'Commit', unit, at } : { type: 'Commit', unit, crew: crews[0]!, at });
  }
  for (const u of Object.values(s.units)) {
    if (u.side !== seat) continue;
    if (u.at === 'air') {
      if (u.path === null)
        for (const path of stukaPath(s, u.id) ?? FLIGHT_PATHS.filter((p) => p !== 'rear-line' || s.scenario.rearLine))
          out.push({ type: 'Fly', unit: u.id, path });
      out.push({ type: 'WithdrawAircraft', unit: u.id });
    }
    if (onMap(u) && cardOf(s, u.id).type === 'crew')
      for (const x of unitsAt(s, u.at))
        if (x.side === seat && x.crew === null && !x.convoy && cardOf(s, x.id).crew === cardOf(s, u.id).crewKind)
          out.push({ type: 'Recrew', crew: u.id, unit: x.id });
  }
  return out;
}

function declarations(s: State, seat: Side): Command[] {
  const out: Command[] = [];
  const enemies = Object.values(s.units).filter((u) => u.side !== seat);
  for (const a of Object.values(s.units)) {
    if (a.side !== seat || cannotAttack(s, a.id)) continue;
    const weapons = cardOf(s, a.id).weapons.map((_, i) => i);
    for (const t of enemies) {
      const ok = weapons.filter((w) => attackProblem(s, seat, a.id, t.id, [w]) === null);
      for (const w of ok) out.push({ type: 'DeclareAttack', attacker: a.id, target: t.id, weapons: [w] });
      if (ok.length >= 2 && attackProblem(s, seat, a.id, t.id, ok.slice(0, 2)) === null)
        out.push({ type: 'DeclareAttack', attacker: a.id, target: t.id, weapons: ok.slice(0, 2) });
    }
    // 003 Combat 4: the crew of a manned front-line gun as a target of its own.
    for (const g of enemies)
      if (g.crew && cardOf(s, g.id).type === 'gun')
        for (const w of weapons)
          if (attackProblem(s, seat, a.id, `crew:${g.id}`, [w]) === null)
            out.push({ type: 'DeclareAttack', attacker: a.id, target: `crew:${g.id}`, weapons: [w] });
    for (const sp of SPACES) {
      for (const w of weapons) {
        const kinds: string[] = [];
        if (isAreaWeapon(s, a.id, w)) kinds.push(`space:${sp}`);
        if (featureRule(s, a.id, w, sp)) kinds.push(`feature:${sp}`);
        for (const target of kinds) {
          if (attackProblem(s, seat, a.id, target, [w]) === null) out.push({ type: 'DeclareAttack', attacker: a.id, target, weapons: [w] });
          else {
            const spotter = spotters(s, seat, sp)[0];
            if (spotter && spotter !== a.id && attackProblem(s, seat, a.id, target, [w], spotter) === null)
              out.push({ type: 'DeclareAttack', attacker: a.id, target, weapons: [w], spotter });
          }
        }
      }
    }
  }
  for (const t of enemies) {
    if (!onMap(t)) continue;
    const group = Object.values(s.units)
      .filter((u) => u.side === seat && onMap(u) && distance(u.at, t.at) === 1 && cardOf(s, u.id).type === 'infantry' && cannotAttack(s, u.id) === null)
      .map((u) => u.id);
    if (group.length >= 3 && assaultProblem(s, seat, group, t.id) === null) out.push({ type: 'DeclareCloseAssault', attackers: group, target: t.id });
  }
  return out;
}

function draws(s: State, seat: Side): Command[] {
  const me = s.seats[seat];
  if (!me.drawn) {
    const units = me.reserves.length + me.support.length;
    const n = s.scenario.extraDraws;
    const combos: ('command' | 'reserves')[][] =
      n === 1
        ? [['command'], ['reserves']]
        : [
            ['command', 'command'],
            ['command', 'reserves'],
            ['reserves', 'reserves'],
          ];
    return combos.filter((c) => c.filter((x) => x === 'reserves').length <= units).map((extra): Command => ({ type: 'Draw', extra }));
  }
  if (overLimit(s, seat)) {
    const cards = [...(me.hand.length > 7 ? me.hand : []), ...(me.commands.length > 5 ? me.commands : [])];
    return cards.map((card): Command => ({ type: 'Discard', card }));
  }
  return [done];
}
