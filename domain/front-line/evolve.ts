import { SUPPLY_OF_CITY, cityAt } from './board.js';
import type { Event, SeatState, State, Unit } from './model.js';

const withUnit = (s: State, id: string, f: (u: Unit) => Unit): State => ({ ...s, units: s.units.map((u) => (u.id === id ? f(u) : u)) });
const withSeat = (s: State, seat: string, f: (x: SeatState) => SeatState): State => ({ ...s, seats: s.seats.map((x) => (x.id === seat ? f(x) : x)) });

/** Folds one event. Pure; every die and choice is already in the event. */
export function evolve(s: State, e: Event): State {
  switch (e.type) {
    case 'UnitPlaced':
      return withUnit(s, e.unit, (u) => ({ ...u, sq: e.square }));
    case 'SetupCleared': {
      const seat = s.seats.find((x) => x.id === e.seat)!;
      return { ...s, units: s.units.map((u) => (u.color === seat.color && u.home === seat.board ? { ...u, sq: null } : u)) };
    }
    case 'SetupFinished':
      return withSeat(s, e.seat, (x) => ({ ...x, setupDone: true }));
    case 'SetupRevealed': {
      const where = new Map(e.units.map((p) => [p.unit, p.square]));
      return { ...s, phase: 'first', units: s.units.map((u) => (where.has(u.id) ? { ...u, sq: where.get(u.id)! } : u)) };
    }
    case 'FirstPlayerRolled':
      return { ...s, decider: e.decider };
    case 'FirstPlayerChosen':
      return { ...s, decider: null, phase: 'play', first: s.order.indexOf(e.seat), turn: 0 };
    case 'RoundStarted': {
      const stacks = new Map(e.supply.map((x) => [x.seat, x.stacks]));
      return { ...s, round: e.round, turn: 0, seats: s.seats.map((x) => ({ ...x, stacks: stacks.get(x.id) ?? x.stacks })) };
    }
    case 'SupplyChosen':
      return {
        ...withSeat(s, e.seat, (x) => ({ ...x, stacks: { ...x.stacks, [e.stack]: { ...x.stacks[e.stack], used: true } } })),
        chosen: { stack: e.stack, n: e.n, max: e.n, fallen: e.fallen },
      };
    case 'SupplySpent':
      return {
        ...s,
        chosen: s.chosen ? { ...s.chosen, n: s.chosen.n - e.n } : s.chosen,
        acted: e.unit ? [...s.acted, { unit: e.unit, action: e.action }] : s.acted,
        supportUsed: s.supportUsed || e.action === 'SendSupport',
      };
    case 'SupplyCached':
      return { ...s, chosen: s.chosen ? { ...s.chosen, n: s.chosen.n + 1 } : s.chosen };
    case 'LeadershipSet':
      return withSeat(s, e.seat, (x) => ({ ...x, leadership: e.to }));
    case 'UnitMoved':
      return { ...withUnit(s, e.unit, (u) => ({ ...u, sq: e.to })), last: [e.from, e.to] };
    case 'UnitsSwapped': {
      const a = s.units.find((u) => u.id === e.unit)!.sq;
      const b = s.units.find((u) => u.id === e.with)!.sq;
      return {
        ...withUnit(
          withUnit(s, e.unit, (u) => ({ ...u, sq: b })),
          e.with,
          (u) => ({ ...u, sq: a }),
        ),
        last: [a!, b!],
      };
    }
    case 'UnitBuilt':
      return { ...withUnit(s, e.unit, (u) => ({ ...u, sq: e.square, active: true })), last: [e.square] };
    case 'UnitFlipped':
      return withUnit(s, e.unit, (u) => ({ ...u, active: e.active }));
    case 'UnitBlitzed':
      return { ...s, units: s.units.filter((u) => u.id !== e.unit) };
    case 'AttackDeclared':
      return { ...s, attack: e.attack, last: [s.units.find((u) => u.id === e.attack.attacker)!.sq!, e.attack.target] };
    case 'Rallied':
      return { ...s, attack: s.attack && { ...s.attack, rallied: true } };
    case 'DiceRolled':
      return { ...s, attack: s.attack && { ...s.attack, white: e.white, yellow: e.yellow, rerolled: s.attack.rerolled || e.reroll } };
    case 'EdgeUsed':
      return { ...s, edge: s.edge.map((x, i) => (i === e.board ? { holder: null, on: false } : x)) };
    case 'DieChosen':
      return { ...s, attack: s.attack && { ...s.attack, die: e.die } };
    case 'AttackResolved':
      return s;
    case 'EdgeMoved':
      return { ...s, edge: s.edge.map((x, i) => (i === e.board ? { holder: e.holder, on: false } : x)) };
    case 'AttackEnded':
      return { ...s, attack: null };
    case 'Asked':
      return { ...s, question: e.question, qseq: s.qseq + 1 };
    case 'Answered':
      return { ...s, question: null };
    case 'CityFell':
    case 'CityFreed': {
      // The city's owner swaps its supply (002 p.4 Fall, Free): an unused stack becomes one Fallen chit, or a Fallen chit a full stack again.
      const city = cityAt(s, e.square)!;
      const type = SUPPLY_OF_CITY[city.type];
      const fallen = e.type === 'CityFell' ? [...s.fallen, e.square] : s.fallen.filter((x) => x !== e.square);
      const owner = s.seats.find((x) => x.id === e.seat)!;
      const month = Math.max(0, s.round - 1);
      const full = s.cards[owner.card][month]![['air', 'capital', 'industry'].indexOf(type)]!;
      return withSeat({ ...s, fallen }, e.seat, (x) => {
        const st = x.stacks[type];
        const n = e.type === 'CityFell' ? 1 : full;
        return { ...x, stacks: { ...x.stacks, [type]: { n, max: n, fallen: e.type === 'CityFell', used: st.used } } };
      });
    }
    case 'SupportSent':
      return s;
    case 'TurnEnded': {
      // Commissioned Leadership becomes Available and the Edge turns ON at the end of a turn (002 p.2, p.4).
      const nextTurn = s.turn + 1;
      return {
        ...s,
        turn: nextTurn,
        chosen: null,
        acted: [],
        supportUsed: false,
        seats: s.seats.map((x) => (x.leadership === 'commissioned' ? { ...x, leadership: 'available' } : x)),
        edge: s.edge.map((x) => (x.holder ? { ...x, on: true } : x)),
      };
    }
    case 'GameOver':
      return { ...s, phase: 'over', question: null, attack: null, result: { winners: e.winners, reason: e.reason, op: e.op } };
  }
}
