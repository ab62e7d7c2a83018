// Setup (002 p.1): each side places its units hidden, free or as the recommended set-up, both
// are revealed together, and a die picks who decides the first player.
import { onlySeats, type Seat } from '../kernel/visibility.js';
import { seatState } from './board.js';
import type { Flow } from './flow.js';
import { recommendedSetup } from './legal.js';
import type { Kind } from './data.js';
import { startRound } from './rounds.js';

export function placeUnit(f: Flow, seat: Seat, kind: Kind, square: string): void {
  const st = seatState(f.s, seat)!;
  const u = f.s.units.find((x) => x.color === st.color && x.home === st.board && x.kind === kind && x.sq === null)!;
  f.emit({ type: 'UnitPlaced', seat, unit: u.id, square }, onlySeats(seat));
}

/** The recommended set-up is written for Green on the first battlefield: Red's is turned half a circle, later battlefields shifted. */
export function placeRecommended(f: Flow, seat: Seat): void {
  const s = f.s;
  const st = seatState(s, seat)!;
  const mirror = (sq: string) => `${String.fromCharCode(65 + 9 - (sq.charCodeAt(0) - 65))}${7 - Number(sq.slice(1))}`;
  const taken = new Set<string>();
  for (const p of recommendedSetup(s)!) {
    const u = s.units.find((x) => x.color === st.color && x.home === st.board && x.kind === p.kind && x.sq === null && !taken.has(x.id))!;
    taken.add(u.id);
    const square = st.color === 'green' ? p.square : mirror(p.square);
    const named = st.board === 0 ? square : `${String.fromCharCode(square.charCodeAt(0) + 10 * st.board)}${square.slice(1)}`;
    f.emit({ type: 'UnitPlaced', seat, unit: u.id, square: named }, onlySeats(seat));
  }
}

export function clearSetup(f: Flow, seat: Seat): void {
  f.emit({ type: 'SetupCleared', seat }, onlySeats(seat));
}

/** When the last side finishes, every placement is revealed and the die for the first player is rolled. */
export function finishSetup(f: Flow, seat: Seat): void {
  f.emit({ type: 'SetupFinished', seat });
  if (!f.s.seats.every((x) => x.setupDone)) return;
  f.emit({ type: 'SetupRevealed', units: f.s.units.filter((u) => u.sq !== null).map((u) => ({ unit: u.id, square: u.sq! })) });
  // 002 p.1: a die of 1–3 lets Red decide who goes first, 4–6 Green.
  const die = f.ctx.rng.die(6);
  const decider = f.s.seats.find((x) => x.color === (die <= 3 ? 'red' : 'green'))!.id;
  f.emit({ type: 'FirstPlayerRolled', die, decider });
}

export function chooseFirst(f: Flow, first: Seat): void {
  f.emit({ type: 'FirstPlayerChosen', seat: first });
  startRound(f, 1);
}
