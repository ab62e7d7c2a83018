// Rounds, turns and supply (002 p.1–2) and the end of the game by Occupation Points (002 p.D).
import type { Seat } from '../kernel/visibility.js';
import { citySquare, isFallen, occupationPoints, SUPPLY_OF_CITY, seatState, unitsOnBoard } from './board.js';
import { MONTHS, ROUNDS, SUPPLY_TYPES, type SupplyType } from './data.js';
import type { Flow } from './flow.js';
import { turnsPerRound } from './legal.js';
import type { Color, SeatState, Stack, State } from './model.js';

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

export function startRound(f: Flow, round: number): void {
  const supply = f.s.seats.map((x) => ({ seat: x.id, stacks: roundSupply(f.s, x, round) }));
  f.emit({ type: 'RoundStarted', round, month: MONTHS[round - 1]!, supply });
}

/** One stack a turn (002 p.2). */
export function chooseSupply(f: Flow, seat: Seat, type: SupplyType): void {
  const stack = seatState(f.s, seat)!.stacks[type];
  f.emit({ type: 'SupplyChosen', seat, stack: type, n: stack.n, fallen: stack.fallen });
}

/** The rest of the chosen stack is thrown away; the last turn of a round starts the next, the last round ends the game. */
export function endTurn(f: Flow, seat: Seat): void {
  f.emit({ type: 'TurnEnded', seat, discarded: f.s.chosen?.n ?? 0 });
  if (f.s.turn < turnsPerRound(f.s)) return;
  if (f.s.round < ROUNDS) return startRound(f, f.s.round + 1);
  const r = finalScore(f.s);
  f.emit({ type: 'GameOver', winners: r.winners, reason: r.reason, op: r.op });
}
