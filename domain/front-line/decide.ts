import { canonicalJson } from '../kernel/canonical.js';
import type { Ctx, Emitted } from '../kernel/engine.js';
import { violation, type RuleViolation } from '../kernel/errors.js';
import { err, ok, type Result } from '../kernel/result.js';
import { onlySeats, PUBLIC, type Seat, type Visibility } from '../kernel/visibility.js';
import {
  boardOf,
  cityAt,
  citySquare,
  columnFor,
  controllerOf,
  defended,
  diceFor,
  distance,
  isFallen,
  noRetreatGround,
  occupationPoints,
  RALLY_SHIFT,
  readTable,
  retreatSquares,
  SUPPLY_OF_CITY,
  seatState,
  shootersAt,
  unitAt,
  unitById,
  unitsOnBoard,
  maneuverTargets,
} from './board.js';
import { BUILD_COST, EMPTY_CITY_HIT, MONTHS, ROUNDS, SUPPLY_TYPES, type SupplyType } from './data.js';
import { evolve } from './evolve.js';
import { inRange, legalCommands, recommendedSetup, reserveUnit, rewardAttacker, turnsPerRound } from './legal.js';
import { otherColor, RULE, type Color, type Command, type Event, type Question, type SeatState, type Stack, type State } from './model.js';

/** Collects events and folds each at once, so later rules see the consequences of earlier ones. */
class Out {
  readonly list: Emitted<Event>[] = [];
  constructor(public s: State) {}
  emit(event: Event, visibility: Visibility = PUBLIC): void {
    this.list.push({ event, visibility });
    this.s = evolve(this.s, event);
  }
}

const no = (code: string, message: string): Result<never, RuleViolation> => err(violation(code, message, RULE));

/** Why a command that is not among the seat's legal commands is refused, as precisely as cheaply known. */
function refusal(s: State, c: Command, seat: Seat): Result<never, RuleViolation> {
  if (s.phase === 'over') return no('game/over', 'The game is over');
  if (!seatState(s, seat)) return no('action/not-a-seat', `${seat} plays no side in this game`);
  if (legalCommands(s, seat).length === 0) return no('action/not-your-turn', 'Nothing is asked of you now');
  if (s.question && s.question.seat === seat) return no('front-line/answer-first', `Answer the open question first (${s.question.topic})`);
  const named = 'unit' in c && typeof c.unit === 'string' ? c.unit : undefined;
  if (named !== undefined && !unitById(s, named)) return no('front-line/unknown-unit', `No unit ${JSON.stringify(named)} is in play`);
  return no('front-line/illegal', `${c.type} is not allowed now: pick one of your legal commands`);
}

/** Decides a command: it must be one of the seat's legal commands (legal.ts is the single source of truth). */
export function decide(s: State, c: Command, seat: Seat, ctx: Ctx): Result<readonly Emitted<Event>[], RuleViolation> {
  const key = canonicalJson(c);
  if (!legalCommands(s, seat).some((l) => canonicalJson(l) === key)) return refusal(s, c, seat);
  const f = new Flow(new Out(s), ctx);
  f.run(seat, c);
  return ok(f.out.list);
}

const seatOf = (s: State, color: Color, board: number): SeatState => s.seats.find((x) => x.color === color && x.board === board)!;

/** Supply a seat draws at the start of a round (002 p.1–2): its card's values, one Fallen chit for a Fallen city. */
export function roundSupply(s: State, seat: SeatState, round: number): Record<SupplyType, Stack> {
  const values = s.cards[seat.card][round - 1]!;
  const stacks = {} as Record<SupplyType, Stack>;
  SUPPLY_TYPES.forEach((type, i) => {
    const city = (Object.keys(SUPPLY_OF_CITY) as (keyof typeof SUPPLY_OF_CITY)[]).find((k) => SUPPLY_OF_CITY[k] === type)!;
    const fallen = isFallen(s, citySquare(s, seat.board, seat.color, city));
    const n = fallen ? 1 : values[i]!;
    stacks[type] = { n, max: n, fallen, used: false };
  });
  return stacks;
}

/** The end of the game by Occupation Points (002 p.D): most OP wins, then most units on the battlefields, else a tie. */
export function finalScore(s: State): { winners: Color | null; reason: string; op: Record<Color, number> } {
  const op = { green: occupationPoints(s, 'green'), red: occupationPoints(s, 'red') };
  if (op.green !== op.red) {
    const w: Color = op.green > op.red ? 'green' : 'red';
    return { winners: w, reason: `${w} has the most Occupation Points (${op.green}–${op.red})`, op };
  }
  const units = { green: unitsOnBoard(s, 'green'), red: unitsOnBoard(s, 'red') };
  if (units.green !== units.red) {
    const w: Color = units.green > units.red ? 'green' : 'red';
    return { winners: w, reason: `level on OP (${op.green}); ${w} has more units (${units.green}–${units.red})`, op };
  }
  return { winners: null, reason: `level on OP (${op.green}) and units (${units.green}): a tie`, op };
}

class Flow {
  constructor(
    readonly out: Out,
    readonly ctx: Ctx,
  ) {}
  get s(): State {
    return this.out.s;
  }
  private emit(e: Event, v?: Visibility) {
    this.out.emit(e, v);
  }
  private over(): boolean {
    return this.s.phase === 'over';
  }
  private ask(q: Omit<Question, 'id'>) {
    this.emit({ type: 'Asked', question: { ...q, id: `${q.topic}-${this.s.qseq + 1}` } });
  }
  private answered(seat: Seat, answer: string) {
    const q = this.s.question!;
    this.emit({ type: 'Answered', seat, topic: q.topic, answer });
    return q;
  }

  run(seat: Seat, c: Command): void {
    const s = this.s;
    const st = seatState(s, seat)!;
    switch (c.type) {
      case 'PlaceUnit': {
        const u = s.units.find((x) => x.color === st.color && x.home === st.board && x.kind === c.kind && x.sq === null)!;
        return this.emit({ type: 'UnitPlaced', seat, unit: u.id, square: c.square }, onlySeats(seat));
      }
      case 'PlaceRecommended': {
        const mirror = (sq: string) => `${String.fromCharCode(65 + 9 - (sq.charCodeAt(0) - 65))}${7 - Number(sq.slice(1))}`;
        const taken = new Set<string>();
        for (const p of recommendedSetup(s)!) {
          const u = s.units.find((x) => x.color === st.color && x.home === st.board && x.kind === p.kind && x.sq === null && !taken.has(x.id))!;
          taken.add(u.id);
          const square = st.color === 'green' ? p.square : mirror(p.square);
          const named = st.board === 0 ? square : `${String.fromCharCode(square.charCodeAt(0) + 10 * st.board)}${square.slice(1)}`;
          this.emit({ type: 'UnitPlaced', seat, unit: u.id, square: named }, onlySeats(seat));
        }
        return;
      }
      case 'ClearSetup':
        return this.emit({ type: 'SetupCleared', seat }, onlySeats(seat));
      case 'FinishSetup': {
        this.emit({ type: 'SetupFinished', seat });
        if (!this.s.seats.every((x) => x.setupDone)) return;
        this.emit({ type: 'SetupRevealed', units: this.s.units.filter((u) => u.sq !== null).map((u) => ({ unit: u.id, square: u.sq! })) });
        // 002 p.1: a die of 1–3 lets Red decide who goes first, 4–6 Green.
        const die = this.ctx.rng.die(6);
        const decider = this.s.seats.find((x) => x.color === (die <= 3 ? 'red' : 'green'))!.id;
        return this.emit({ type: 'FirstPlayerRolled', die, decider });
      }
      case 'ChooseFirst':
        this.emit({ type: 'FirstPlayerChosen', seat: c.seat });
        return this.startRound(1);
      case 'ChooseSupply': {
        const stack = st.stacks[c.stack];
        return this.emit({ type: 'SupplyChosen', seat, stack: c.stack, n: stack.n, fallen: stack.fallen });
      }
      case 'EndTurn':
        return this.endTurn(seat);
      case 'Cache':
        this.emit({ type: 'LeadershipSet', seat, to: 'exhausted', task: 'Cache' });
        return this.emit({ type: 'SupplyCached', seat });
      case 'SendSupport': {
        this.emit({ type: 'SupplySpent', seat, n: 1, action: 'SendSupport', unit: null });
        const ally = s.seats.find((x) => x.color === st.color && x.id !== seat)!;
        this.emit({ type: 'SupportSent', seat, to: ally.id });
        return this.ask({ topic: 'send-support', seat: ally.id });
      }
      case 'Move':
      case 'AmphibiousMove':
      case 'Attack':
      case 'Commission':
      case 'Build':
      case 'Paratroop':
      case 'Regroup': {
        // An ally's action paid by Send Support costs nothing more; the mover pays from the chosen stack.
        const support = s.question?.topic === 'send-support';
        if (support) this.answered(seat, c.type);
        return this.action(seat, c, !support);
      }
      case 'Maneuver':
      case 'Relieve':
        return this.task(seat, c);
      case 'Rally': {
        this.answered(seat, 'Rally');
        this.emit({ type: 'LeadershipSet', seat, to: 'exhausted', task: 'Rally' });
        this.emit({ type: 'Rallied', seat, unit: s.attack!.targetUnit! });
        return this.roll(false);
      }
      case 'OpportunityFire': {
        const q = this.answered(seat, 'OpportunityFire');
        if (q.topic === 'rally-reward') {
          // The reward is free: Leadership was exhausted by the Rally (002 p.5).
          const attacker = rewardAttacker(s, q)!;
          return this.startAttack(seat, c.unit, attacker.sq!, false);
        }
        this.emit({ type: 'LeadershipSet', seat, to: 'exhausted', task: 'Opportunity Fire' });
        return this.startAttack(seat, c.unit, unitById(s, q.unit!)!.sq!, false);
      }
      case 'UseEdge': {
        this.answered(seat, 'UseEdge');
        this.emit({ type: 'EdgeUsed', seat, board: this.attackBoard() });
        return this.roll(true);
      }
      case 'ChooseDie':
        this.answered(seat, c.die);
        this.emit({ type: 'DieChosen', die: c.die });
        return this.finalize();
      case 'Retreat': {
        this.answered(seat, 'Retreat');
        const t = unitById(this.s, this.s.attack!.targetUnit!)!;
        const squares = retreatSquares(this.s, t);
        // The attacking player shifts the routed unit (002 p.3); with one square there is nothing to pick.
        if (squares.length === 1) return this.retreatTo(squares[0]!);
        return this.ask({ topic: 'retreat-square', seat: this.s.attack!.seat, unit: t.id, squares });
      }
      case 'Hold': {
        this.answered(seat, 'Hold');
        this.emit({ type: 'UnitFlipped', unit: this.s.attack!.targetUnit!, active: false, why: 'held after a Rout' });
        return this.endAttack(false);
      }
      case 'RetreatTo':
        this.answered(seat, c.square);
        return this.retreatTo(c.square);
      case 'Displace': {
        const q = this.answered(seat, 'Displace');
        return this.shiftInto(q.unit!, q.squares![0]!, 'displace');
      }
      case 'Pass': {
        const q = this.answered(seat, 'Pass');
        if (q.topic === 'rally') return this.roll(false);
        if (q.topic === 'edge') return this.afterEdge();
        if (q.topic === 'displace') return this.endAttack(false);
        return;
      }
    }
  }

  private startRound(round: number) {
    const supply = this.s.seats.map((x) => ({ seat: x.id, stacks: roundSupply(this.s, x, round) }));
    this.emit({ type: 'RoundStarted', round, month: MONTHS[round - 1]!, supply });
  }

  private endTurn(seat: Seat) {
    this.emit({ type: 'TurnEnded', seat, discarded: this.s.chosen?.n ?? 0 });
    if (this.s.turn < turnsPerRound(this.s)) return;
    if (this.s.round < ROUNDS) return this.startRound(this.s.round + 1);
    const r = finalScore(this.s);
    this.emit({ type: 'GameOver', winners: r.winners, reason: r.reason, op: r.op });
  }

  private action(seat: Seat, c: Command, pay: boolean) {
    const s = this.s;
    const st = seatState(s, seat)!;
    const spend = (n: number, unit: string | null) => this.emit({ type: 'SupplySpent', seat, n: pay ? n : 0, action: c.type, unit });
    switch (c.type) {
      case 'Move':
      case 'AmphibiousMove':
      case 'Paratroop': {
        spend(1, c.unit);
        const how = c.type === 'Move' ? 'move' : c.type === 'AmphibiousMove' ? 'amphibious' : 'paratroop';
        this.emit({ type: 'UnitMoved', unit: c.unit, from: unitById(s, c.unit)!.sq!, to: c.to, how });
        return this.opportunity(c.unit, c.type);
      }
      case 'Regroup':
        spend(1, c.unit);
        this.emit({ type: 'UnitFlipped', unit: c.unit, active: true, why: 'Regroup' });
        return this.opportunity(c.unit, 'Regroup');
      case 'Build': {
        const u = reserveUnit(s, st, c.kind)!;
        spend(BUILD_COST[c.kind], u.id);
        this.emit({ type: 'UnitBuilt', unit: u.id, square: citySquare(s, st.board, st.color, 'industry'), cost: BUILD_COST[c.kind] });
        return this.opportunity(u.id, 'Build');
      }
      case 'Commission': {
        spend(1, null);
        this.emit({ type: 'LeadershipSet', seat, to: 'commissioned', task: 'Commission' });
        // Allies (002 p.2 "Ally too", RULINGS): a Commission also commissions the ally's Exhausted Leadership.
        for (const ally of this.s.seats)
          if (ally.color === st.color && ally.id !== seat && ally.leadership === 'exhausted')
            this.emit({ type: 'LeadershipSet', seat: ally.id, to: 'commissioned', task: 'Commission (ally)' });
        return;
      }
      case 'Attack':
        spend(1, c.unit);
        return this.startAttack(seat, c.unit, c.target, true);
      default:
        return;
    }
  }

  private task(seat: Seat, c: Command & { type: 'Maneuver' | 'Relieve' }) {
    const q = this.s.question;
    if (q) this.answered(seat, c.type);
    // A rally reward's Maneuver is free; any other task exhausts Leadership (002 p.4–5).
    if (q?.topic !== 'rally-reward') this.emit({ type: 'LeadershipSet', seat, to: 'exhausted', task: c.type });
    if (c.type === 'Maneuver') return this.emit({ type: 'UnitMoved', unit: c.unit, from: unitById(this.s, c.unit)!.sq!, to: c.to, how: 'maneuver' });
    this.emit({ type: 'UnitsSwapped', unit: c.unit, with: c.with });
  }

  /** After a unit used supply, the other colour on its battlefield may Opportunity Fire at it while Leadership is Available (002 p.5; EX7). */
  private opportunity(unit: string, action: string) {
    if (this.over()) return;
    const u = unitById(this.s, unit);
    if (!u || u.sq === null) return;
    const reactor = seatOf(this.s, otherColor(u.color), boardOf(this.s, u.sq));
    if (reactor.leadership !== 'available' || shootersAt(this.s, reactor.color, u.sq).length === 0) return;
    this.ask({ topic: 'opportunity-fire', seat: reactor.id, unit, action });
  }

  private attackBoard(): number {
    return boardOf(this.s, this.s.attack!.target);
  }

  private startAttack(seat: Seat, attacker: string, target: string, supplied: boolean) {
    const targetUnit = unitAt(this.s, target)?.id ?? null;
    this.emit({
      type: 'AttackDeclared',
      attack: { attacker, seat, target, targetUnit, supplied, rallied: false, white: null, yellow: null, rerolled: false, die: null },
    });
    if (supplied && targetUnit) {
      const defender = controllerOf(this.s, unitById(this.s, targetUnit)!);
      // Rally (002 p.5): before dice, when a supplied attack targets a unit and its owner's Leadership is Available.
      if (defender.leadership === 'available') return this.ask({ topic: 'rally', seat: defender.id, unit: targetUnit });
    }
    this.roll(false);
  }

  private roll(reroll: boolean) {
    const a = this.s.attack!;
    const att = unitById(this.s, a.attacker)!;
    const two = a.targetUnit !== null && diceFor(this.s, att.sq!, a.target) === 2;
    const white = this.ctx.rng.die(6);
    const yellow = two ? this.ctx.rng.die(6) : null;
    this.emit({ type: 'DiceRolled', white, yellow, reroll });
    if (reroll) return this.afterEdge();
    // The Edge (002 p.3–4): its holder, while it is ON, may re-roll every die before the result is final.
    const edge = this.s.edge[this.attackBoard()]!;
    if (edge.on && edge.holder) return this.ask({ topic: 'edge', seat: seatOf(this.s, edge.holder, this.attackBoard()).id });
    this.afterEdge();
  }

  private afterEdge() {
    const a = this.s.attack!;
    const att = unitById(this.s, a.attacker)!;
    // A Tank rolling both dice chooses the white range result or the yellow ADV result (002 p.3).
    if (a.targetUnit && att.kind === 'tank' && a.yellow !== null) {
      const col = columnFor(this.s, att.kind, att.sq!, a.target);
      const w = readTable(this.s.table, col, a.white!, a.yellow, 'white');
      const y = readTable(this.s.table, col, a.white!, a.yellow, 'yellow');
      if (w.result !== y.result || w.icon !== y.icon) return this.ask({ topic: 'tank-die', seat: a.seat });
    }
    this.finalize();
  }

  private moveEdge(attackerColor: Color) {
    const a = this.s.attack!;
    const board = this.attackBoard();
    const holder = this.s.edge[board]!.holder;
    // 002 p.4: a finalised 1 sends the Edge to the defender, a 6 to the attacker (the white die; RULINGS).
    if (a.white === 1 && holder !== otherColor(attackerColor)) this.emit({ type: 'EdgeMoved', board, holder: otherColor(attackerColor) });
    if (a.white === 6 && holder !== attackerColor) this.emit({ type: 'EdgeMoved', board, holder: attackerColor });
  }

  private finalize() {
    const a = this.s.attack!;
    const att = unitById(this.s, a.attacker)!;
    this.moveEdge(att.color);
    if (a.targetUnit === null) {
      // Empty City (002 p.3): 1–4 and the attacker enters the city, 5–6 misses.
      if (a.white! <= EMPTY_CITY_HIT) {
        this.emit({ type: 'AttackResolved', result: 'taken', icon: null, natural: 'taken', note: 'the attacker enters the city' });
        return this.shiftInto(att.id, a.target, 'enter');
      }
      this.emit({ type: 'AttackResolved', result: 'miss', icon: null, natural: 'miss', note: 'empty city attack missed' });
      return this.endAttack(false);
    }
    const t = unitById(this.s, a.targetUnit)!;
    const cell = readTable(this.s.table, columnFor(this.s, att.kind, att.sq!, a.target), a.white!, a.yellow, a.die);
    const guard = defended(this.s, cell.icon, t, a.target);
    const natural = guard ? 'miss' : cell.result === 'adv' ? 'miss' : cell.result;
    const result = a.rallied ? RALLY_SHIFT[natural] : natural;
    const notes = [guard === 'city-defense' ? 'City Defense' : guard === 'dug-in' ? 'Dug In' : '', a.rallied ? 'rallied' : ''].filter(Boolean);
    this.emit({ type: 'AttackResolved', result, icon: cell.icon ?? null, natural, note: notes.join(', ') });
    if (result === 'miss') return this.endAttack(a.rallied && natural === 'miss');
    // A disrupted unit hit by Disrupt or Rout is Blitzed instead (002 p.3).
    if (result === 'blitz' || !t.active) {
      this.emit({ type: 'UnitBlitzed', unit: t.id });
      return this.vacated(a.target);
    }
    if (result === 'disrupt' || noRetreatGround(this.s, a.target) || retreatSquares(this.s, t).length === 0) {
      this.emit({ type: 'UnitFlipped', unit: t.id, active: false, why: result === 'disrupt' ? 'Disrupt' : 'Rout with no retreat' });
      return this.endAttack(false);
    }
    this.ask({ topic: 'rout', seat: controllerOf(this.s, t).id, unit: t.id });
  }

  private retreatTo(square: string) {
    const a = this.s.attack!;
    const from = a.target;
    this.emit({ type: 'UnitMoved', unit: a.targetUnit!, from, to: square, how: 'retreat' });
    this.vacated(from);
  }

  /** Displacement (002 p.4): an attacker one square from the vacated square may shift onto it, and must when it is a city. */
  private vacated(square: string) {
    const a = this.s.attack!;
    const att = unitById(this.s, a.attacker)!;
    if (distance(this.s, att.sq!, square) !== 1) return this.endAttack(false);
    if (cityAt(this.s, square)) return this.shiftInto(att.id, square, 'displace');
    this.ask({ topic: 'displace', seat: a.seat, unit: att.id, squares: [square] });
  }

  /** A unit enters a square by attack or displacement: cities fall, are freed, or the enemy capital wins (002 p.1, p.4). */
  private shiftInto(unit: string, square: string, how: string) {
    const u = unitById(this.s, unit)!;
    this.emit({ type: 'UnitMoved', unit, from: u.sq!, to: square, how });
    const city = cityAt(this.s, square);
    if (city) {
      const owner = seatOf(this.s, city.owner, boardOf(this.s, square));
      if (city.owner !== u.color && city.type === 'capital') {
        this.emit({
          type: 'GameOver',
          winners: u.color,
          reason: `${u.color} entered ${city.owner}'s Capital ${square}`,
          op: { green: occupationPoints(this.s, 'green'), red: occupationPoints(this.s, 'red') },
        });
        return;
      }
      if (city.owner !== u.color && !isFallen(this.s, square)) this.emit({ type: 'CityFell', square, seat: owner.id });
      else if (city.owner === u.color && isFallen(this.s, square)) this.emit({ type: 'CityFreed', square, seat: owner.id });
    }
    this.endAttack(false);
  }

  private endAttack(reward: boolean) {
    if (this.over()) return;
    const a = this.s.attack!;
    this.emit({ type: 'AttackEnded' });
    if (reward) {
      const t = unitById(this.s, a.targetUnit!)!;
      const defender = controllerOf(this.s, t);
      // Rally's reward (002 p.5): a disrupted target is Regrouped at once; an active one may Maneuver or fire back.
      if (!t.active) return this.emit({ type: 'UnitFlipped', unit: t.id, active: true, why: 'Rally reward' });
      const att = unitById(this.s, a.attacker);
      if (maneuverTargets(this.s, t).length > 0 || (att && inRange(this.s, t, att)))
        return this.ask({ topic: 'rally-reward', seat: defender.id, unit: t.id, squares: att ? [att.sq!] : [] });
      return;
    }
    if (a.supplied) this.opportunity(a.attacker, 'Attack');
  }
}
