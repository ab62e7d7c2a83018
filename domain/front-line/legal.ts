import type { DecisionWindow, Pending } from '../kernel/engine.js';
import type { Seat } from '../kernel/visibility.js';
import {
  amphibiousTargets,
  attackTargets,
  cityAt,
  citySquare,
  columnFor,
  countryOf,
  defended,
  distance,
  isFallen,
  isWater,
  maneuverTargets,
  moveTargets,
  paratroopTargets,
  readTable,
  relievePartners,
  seatState,
  shootersAt,
  unitAt,
  unitById,
  unitsOf,
  allSquares,
} from './board.js';
import { BATTLEFIELDS, BUILD_COST, KINDS, PLACED, RANGE, RECOMMENDED_GREEN, SUPPLY_TYPES, TURNS_PER_PLAYER, type Kind } from './data.js';
import { type Command, type Question, type SeatState, type State, type Unit } from './model.js';

/** The seat whose turn it is. */
export const mover = (s: State): Seat => s.order[(s.first + s.turn) % s.order.length]!;
/** Turns in a round: three for each player (002 p.1; Allies RULINGS). */
export const turnsPerRound = (s: State): number => s.order.length * TURNS_PER_PLAYER;

const count = (s: State, unit: string) => s.acted.filter((a) => a.unit === unit).length;
/** At most two actions a unit a turn, and never the same Regular action twice (002 p.2 Actions & Units). */
export const mayAct = (s: State, unit: string, action: string): boolean => count(s, unit) < 2 && !s.acted.some((a) => a.unit === unit && a.action === action);

export const placedCount = (s: State, seat: SeatState, kind: Kind): number =>
  s.units.filter((u) => u.color === seat.color && u.home === seat.board && u.kind === kind && u.sq !== null).length;

/** Empty squares of the seat's own country on its battlefield: where the free set-up places (002 p.1). */
export function setupSquares(s: State, seat: SeatState): string[] {
  return allSquares(s, seat.board).filter((n) => countryOf(s, n) === seat.color && !isWater(s, n) && !unitAt(s, n));
}

/**
 * Green's recommended set-up, or null when none is offered: a club's own (option `recommended`),
 * else the built-in one, for the built-in Main battlefield only (002 p.1: the Items card shows one
 * for one battlefield). States stored before the option existed are read by layout content.
 */
export function recommendedSetup(s: State): readonly { kind: Kind; square: string }[] | null {
  if (s.recommended !== undefined) return s.recommended;
  return s.battlefield === 'main' && s.rows.join('/') === BATTLEFIELDS.main.rows.join('/') ? RECOMMENDED_GREEN : null;
}

function setupCommands(s: State, seat: SeatState): Command[] {
  if (seat.setupDone) return [];
  const out: Command[] = [];
  const placed = KINDS.reduce((n, k) => n + placedCount(s, seat, k), 0);
  const squares = setupSquares(s, seat);
  for (const kind of KINDS) if (placedCount(s, seat, kind) < PLACED[kind]) for (const square of squares) out.push({ type: 'PlaceUnit', kind, square });
  if (placed === 0 && recommendedSetup(s)) out.push({ type: 'PlaceRecommended' });
  if (placed > 0) out.push({ type: 'ClearSetup' });
  if (KINDS.every((k) => placedCount(s, seat, k) === PLACED[k])) out.push({ type: 'FinishSetup' });
  return out;
}

/** The Regular actions a seat's units may take (002 p.2): Move, Amphibious Move, Attack, and Commission. */
export function regularActions(s: State, seat: SeatState): Command[] {
  const out: Command[] = [];
  for (const u of unitsOf(s, seat)) {
    if (!u.active) continue;
    if (mayAct(s, u.id, 'Move')) for (const to of moveTargets(s, u)) out.push({ type: 'Move', unit: u.id, to });
    if (s.amphibious && mayAct(s, u.id, 'AmphibiousMove')) for (const to of amphibiousTargets(s, u)) out.push({ type: 'AmphibiousMove', unit: u.id, to });
    if (mayAct(s, u.id, 'Attack')) for (const target of attackTargets(s, u)) out.push({ type: 'Attack', unit: u.id, target });
  }
  if (seat.leadership === 'exhausted') out.push({ type: 'Commission' });
  return out;
}

/** Missions (002 p.4): Build with Industry, Paratroop with Air, Regroup with Capital; never with a Fallen chit. */
function missions(s: State, seat: SeatState): Command[] {
  const c = s.chosen;
  if (!c || c.fallen) return [];
  const out: Command[] = [];
  if (c.stack === 'industry') {
    const industry = citySquare(s, seat.board, seat.color, 'industry');
    // Your own empty Industry (002 p.4): not while it lies Fallen (it is then the enemy's).
    if (!unitAt(s, industry) && !isFallen(s, industry))
      for (const kind of KINDS) if (c.n >= BUILD_COST[kind] && reserveUnit(s, seat, kind)) out.push({ type: 'Build', kind });
  }
  if (c.stack === 'air')
    for (const u of unitsOf(s, seat))
      if (u.active && u.kind === 'infantry' && cityAt(s, u.sq!)?.type === 'airbase' && mayAct(s, u.id, 'Paratroop'))
        for (const to of paratroopTargets(s, u)) out.push({ type: 'Paratroop', unit: u.id, to });
  if (c.stack === 'capital') for (const u of unitsOf(s, seat)) if (!u.active && mayAct(s, u.id, 'Regroup')) out.push({ type: 'Regroup', unit: u.id });
  return out;
}

/** The first unit of a kind in a seat's Reserve. */
export const reserveUnit = (s: State, seat: SeatState, kind: Kind): Unit | undefined =>
  s.units.find((u) => u.sq === null && u.color === seat.color && u.home === seat.board && u.kind === kind);

/** Maneuver and Relieve (002 p.5): tasks a seat with Available Leadership may take on any turn. */
function anyTurnTasks(s: State, seat: SeatState): Command[] {
  if (seat.leadership !== 'available') return [];
  const out: Command[] = [];
  const mine = unitsOf(s, seat);
  for (const u of mine) if (u.active) for (const to of maneuverTargets(s, u)) out.push({ type: 'Maneuver', unit: u.id, to });
  for (const u of mine) for (const o of relievePartners(s, u)) if (u.id < o.id) out.push({ type: 'Relieve', unit: u.id, with: o.id });
  return out;
}

function turnCommands(s: State, seat: SeatState): Command[] {
  const out: Command[] = [];
  const c = s.chosen;
  if (!c) for (const stack of SUPPLY_TYPES) if (!seat.stacks[stack].used) out.push({ type: 'ChooseSupply', stack });
  if (c && c.n >= 1) {
    out.push(...regularActions(s, seat), ...missions(s, seat));
    if (s.allies && !s.supportUsed) out.push({ type: 'SendSupport' });
  }
  if (c && seat.leadership === 'available' && c.n < c.max) out.push({ type: 'Cache' });
  out.push(...anyTurnTasks(s, seat), { type: 'EndTurn' });
  return out;
}

const RANK = { blitz: 3, disrupt: 2, rout: 1, miss: 0, adv: 0 } as const;

/** The die a Tank's owner would take when it does not choose: the one with the stronger result against this target. */
export function strongerDie(s: State): 'white' | 'yellow' {
  const a = s.attack!;
  const att = unitById(s, a.attacker)!;
  const tgt = unitById(s, a.targetUnit!)!;
  const column = columnFor(s, att.kind, att.sq!, a.target);
  const rank = (die: 'white' | 'yellow') => {
    const cell = readTable(s.table, column, a.white!, a.yellow, die);
    return defended(s, cell.icon, tgt, a.target) ? 0 : RANK[cell.result];
  };
  return rank('yellow') > rank('white') ? 'yellow' : 'white';
}

/** Whether a unit of `shooter` may fire at `target` (in range, active). */
export const inRange = (s: State, shooter: Unit, target: Unit): boolean =>
  shooter.active && shooter.sq !== null && target.sq !== null && distance(s, shooter.sq, target.sq) <= RANGE[shooter.kind];

/** The answers to an open question. */
export function answers(s: State, q: Question): Command[] {
  const seat = seatState(s, q.seat)!;
  switch (q.topic) {
    case 'rally':
      return [{ type: 'Rally' }, { type: 'Pass' }];
    case 'edge':
      return [{ type: 'UseEdge' }, { type: 'Pass' }];
    case 'tank-die':
      return [
        { type: 'ChooseDie', die: 'white' },
        { type: 'ChooseDie', die: 'yellow' },
      ];
    case 'rout':
      return [{ type: 'Retreat' }, { type: 'Hold' }];
    case 'retreat-square':
      return (q.squares ?? []).map((square) => ({ type: 'RetreatTo', square }));
    case 'displace':
      return [{ type: 'Displace' }, { type: 'Pass' }];
    case 'rally-reward': {
      const t = unitById(s, q.unit!)!;
      const attacker = rewardAttacker(s, q);
      const out: Command[] = maneuverTargets(s, t).map((to) => ({ type: 'Maneuver', unit: t.id, to }));
      if (attacker && inRange(s, t, attacker)) out.push({ type: 'OpportunityFire', unit: t.id });
      out.push({ type: 'Pass' });
      return out;
    }
    case 'opportunity-fire': {
      const trigger = unitById(s, q.unit!)!;
      const shooters = shootersAt(s, seat.color, trigger.sq!);
      return [...shooters.map((u) => ({ type: 'OpportunityFire' as const, unit: u.id })), ...anyTurnTasks(s, seat), { type: 'Pass' }];
    }
    case 'send-support':
      return [...regularActions(s, seat), { type: 'Pass' }];
  }
}

/** The unit that attacked a rallied target: named in the reward question's squares (its square when asked). */
export const rewardAttacker = (s: State, q: Question): Unit | undefined => (q.squares?.[0] ? unitAt(s, q.squares[0]) : undefined);

/** The answer a window takes when it lapses (the kernel's default). */
export function defaultAnswer(s: State, q: Question): Command {
  switch (q.topic) {
    case 'tank-die':
      return { type: 'ChooseDie', die: strongerDie(s) };
    case 'rout':
      return { type: 'Hold' };
    case 'retreat-square':
      return { type: 'RetreatTo', square: q.squares![0]! };
    default:
      return { type: 'Pass' };
  }
}

export function legalCommands(s: State, seat: Seat): Command[] {
  const st = seatState(s, seat);
  if (!st) return [];
  switch (s.phase) {
    case 'over':
      return [];
    case 'setup':
      return setupCommands(s, st);
    case 'first':
      return s.decider === seat ? s.order.map((x) => ({ type: 'ChooseFirst', seat: x })) : [];
    case 'play':
      if (s.question) return s.question.seat === seat ? answers(s, s.question) : [];
      return mover(s) === seat ? turnCommands(s, st) : [];
  }
}

const PROMPTS: Record<Question['topic'], string> = {
  rally: 'Your unit is attacked: Rally it (Leadership) or pass',
  edge: 'You hold the Edge: re-roll all dice or accept',
  'tank-die': 'Your Tank rolled both dice: take the white or the yellow result',
  rout: 'Your unit is routed: Retreat (the attacker picks the square) or Hold (disrupt)',
  'retreat-square': 'Pick the square the routed unit retreats to',
  displace: 'The square you attacked is empty: shift your attacker onto it, or stay',
  'rally-reward': 'The rallied attack missed: Maneuver the target, Opportunity Fire at the attacker, or pass',
  'opportunity-fire': 'An enemy unit used supply within range: Opportunity Fire (Leadership), or pass',
  'send-support': 'Your ally sends you one supply: take one Regular action now, or pass',
};

export function pending(s: State): Pending[] {
  switch (s.phase) {
    case 'over':
      return [];
    case 'setup':
      return s.seats.filter((x) => !x.setupDone).map((x) => ({ seat: x.id, kind: 'sealed', prompt: 'Set up your units (free or recommended), then finish' }));
    case 'first':
      return [{ seat: s.decider!, kind: 'move', prompt: 'Choose who takes the first turn' }];
    case 'play': {
      const q = s.question;
      const m = mover(s);
      if (!q)
        return [
          { seat: m, kind: 'move', prompt: s.chosen ? 'Use your supply, take tasks, or end your turn' : 'Choose a supply stack for this turn, or end it' },
        ];
      if (q.seat === m) return [{ seat: m, kind: 'move', prompt: PROMPTS[q.topic] }];
      const window: DecisionWindow = { id: q.id, topic: q.topic, blocking: true, default: defaultAnswer(s, q) };
      return [{ seat: q.seat, kind: 'reaction', prompt: PROMPTS[q.topic], window }];
    }
  }
}
