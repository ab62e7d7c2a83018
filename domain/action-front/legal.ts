import type { Pending } from '../kernel/engine.js';
import { airEntryHexes, distance } from './hexmap.js';
import { allZone, anyPlaceable, placeable, placementTurn, toPlace } from './flow.js';
import { mayDigIn, mayStartDugIn } from './decide.js';
import { sampleForces } from './forces.js';
import { SEATS, type Command, type Seat, type State } from './model.js';
import { canAct, fireTargets, isLeader, mayCarry, onExitEdge, reachable, typeOf } from './rules.js';
import { indirectUnits, openMissions, seenHexes } from './strike.js';

const asSeat = (x: string): Seat | undefined => SEATS.find((s) => s === x);

/** Who the game waits for, and for what. */
export function pending(s: State): Pending[] {
  if (s.result) return [];
  switch (s.phase) {
    case 'registration':
      return SEATS.filter((x) => !s.registrationDone[x]).map((seat) => ({
        seat,
        kind: 'sealed',
        prompt: 'Write down up to two hexes your artillery is registered on',
      }));
    case 'forces':
      return SEATS.filter((x) => s.chosenForces[x] === null).map((seat) => ({
        seat,
        kind: 'sealed',
        prompt: 'Choose your force in secret from the Unit Value Table',
      }));
    case 'setup':
    case 'reinforce':
      // Before the game's set-up has run, nobody places yet.
      if (!s.placement) return [];
      return [{ seat: s.active, kind: 'move', prompt: s.phase === 'setup' ? 'Set up your units' : 'Place your reinforcements on your map edge' }];
    case 'indirect':
      return [{ seat: s.active, kind: 'move', prompt: 'Indirect Fire Phase: fire artillery, call fire support or an air strike, or end the phase' }];
    case 'action':
      return [{ seat: s.active, kind: 'move', prompt: 'Action Phase: move, fire, rally or dig in; then end the phase' }];
    case 'over':
      return [];
  }
}

/**
 * Every command a seat may send now: the single source of truth for clients, bots and the fuzz
 * test. Where the choice is combinatorial (a whole force, two registered hexes) it lists a
 * representative few, and `decide` accepts any choice within the rules.
 */
export function legalCommands(s: State, seatId: string): Command[] {
  const seat = asSeat(seatId);
  if (!seat || s.result || !pending(s).some((p) => p.seat === seat)) return [];
  switch (s.phase) {
    case 'registration': {
      const mid = Math.ceil(s.map.cols / 2);
      const out: Command[] = [{ type: 'RegisterHexes', hexes: [] }];
      for (let row = 1; row < s.map.rows; row++) out.push({ type: 'RegisterHexes', hexes: [hex(mid, row), hex(mid, row + 1)] });
      return out;
    }
    case 'forces':
      return sampleForces(s, seat).map((units) => ({ type: 'ChooseForce', units }));
    case 'setup':
    case 'reinforce': {
      const p = s.placement!;
      const out: Command[] = [];
      if (p.placed < p.max) {
        const zone = allZone(s, p);
        for (const u of toPlace(s, seat, placementTurn(s)))
          for (const h of zone) {
            if (!placeable(s, u, h)) continue;
            out.push({ type: 'PlaceUnit', unit: u.id, hex: h });
            if (mayStartDugIn(s, u.type)) out.push({ type: 'PlaceUnit', unit: u.id, hex: h, dugIn: true });
          }
      }
      if (p.placed >= p.min || !anyPlaceable(s)) out.push({ type: 'EndPlacement' });
      return out;
    }
    case 'indirect':
      return [...indirectCommands(s, seat), { type: 'EndIndirectFire' }];
    case 'action':
      return [...actionCommands(s, seat), { type: 'EndActions' }];
    case 'over':
      return [];
  }
}

const hex = (col: number, row: number) => `${String(col).padStart(2, '0')}${String(row).padStart(2, '0')}`;

function indirectCommands(s: State, seat: Seat): Command[] {
  const out: Command[] = [];
  const seen = seenHexes(s, seat);
  for (const u of indirectUnits(s, seat)) {
    const range = typeOf(s, u).range;
    for (const h of seen) if (distance(u.hex!, h) <= range) out.push({ type: 'IndirectFire', unit: u.id, hex: h });
  }
  for (const m of openMissions(s, seat, false)) for (const h of seen) out.push({ type: 'CallFireSupport', mission: m.id, hex: h });
  for (const m of openMissions(s, seat, true))
    for (const h of seen) for (const entry of airEntryHexes(s.map, h)) out.push({ type: 'CallAirStrike', mission: m.id, hex: h, entry });
  return out;
}

function actionCommands(s: State, seat: Seat): Command[] {
  const out: Command[] = [];
  const mine = s.units.filter((u) => u.owner === seat && u.status === 'map');
  for (const u of mine) {
    if (canAct(s, u, 'move')) {
      for (const to of reachable(s, u).keys()) out.push({ type: 'Move', unit: u.id, to });
      for (const cargo of mine.filter((x) => mayCarry(s, u, x)))
        for (const to of reachable(s, u, cargo).keys()) out.push({ type: 'Move', unit: u.id, to, carry: cargo.id });
      if (!isLeader(s, u) && onExitEdge(s, u)) out.push({ type: 'Exit', unit: u.id });
    }
    if (!isLeader(s, u) && canAct(s, u, 'fire')) for (const t of fireTargets(s, u)) out.push({ type: 'Fire', unit: u.id, target: t.id });
    if (isLeader(s, u) && canAct(s, u, 'command'))
      for (const x of mine) {
        if (isLeader(s, x) || distance(u.hex!, x.hex!) > 1) continue;
        if (x.suppressed) out.push({ type: 'Rally', leader: u.id, unit: x.id });
        if (mayDigIn(s, x.id)) out.push({ type: 'DigIn', leader: u.id, unit: x.id });
      }
  }
  return out;
}
