import type { Seat } from '../kernel/visibility.js';
import { HEIGHT, RANGE, TERRAIN_OF, type CityType, type Icon, type Kind, type ResultCell, type ResultsTable, type SupplyType, type Terrain } from './data.js';
import { otherColor, type Color, type SeatState, type State, type Unit } from './model.js';

/**
 * The battlefield as rules: squares, heights, countries, cities, distances, and the rules that
 * are a function of a position (002 p.2–p.5). Squares are named by column letter and row:
 * A1–J6 on the first battlefield and, in the Allies game, K1–T6 on the second (beside it).
 */

export interface Sq {
  readonly board: number;
  readonly col: number;
  readonly row: number;
}

export const COLS = 10;
export const ROWS = 6;

export const sqName = (board: number, col: number, row: number): string => `${String.fromCharCode(65 + board * COLS + col)}${row + 1}`;

/** A square's place, or undefined for anything that names no square of this game. */
export function parseSq(s: State, name: string): Sq | undefined {
  const m = /^([A-T])([1-6])$/.exec(name);
  if (!m) return undefined;
  const x = m[1]!.charCodeAt(0) - 65;
  const board = Math.floor(x / COLS);
  if (board >= s.boards) return undefined;
  return { board, col: x % COLS, row: Number(m[2]) - 1 };
}

const at = (s: State, name: string): Sq => {
  const p = parseSq(s, name);
  if (!p) throw new Error(`not a square: ${name}`);
  return p;
};

export function terrainOf(s: State, name: string): { terrain: Terrain; city?: CityType } {
  const p = at(s, name);
  return TERRAIN_OF.get(s.rows[p.row]![p.col]!)!;
}

export const heightOf = (s: State, name: string): number => HEIGHT[terrainOf(s, name).terrain];
export const isWater = (s: State, name: string): boolean => terrainOf(s, name).terrain === 'water';

/** Whose country a square lies in (002 p.1: columns A–C Green, H–J Red), or null in the neutral middle. */
export function countryOf(s: State, name: string): Color | null {
  const { col } = at(s, name);
  return col <= 2 ? 'green' : col >= 7 ? 'red' : null;
}

/** The city on a square and its original owner. */
export function cityAt(s: State, name: string): { type: CityType; owner: Color } | undefined {
  const t = terrainOf(s, name);
  return t.city ? { type: t.city, owner: countryOf(s, name)! } : undefined;
}

export const isFallen = (s: State, name: string): boolean => s.fallen.includes(name);

/** A city is friendly to its owner while Free and to the other colour while Fallen (002 p.C Free City, Fallen City). */
export function cityFriendlyTo(s: State, name: string): Color | undefined {
  const c = cityAt(s, name);
  if (!c) return undefined;
  return isFallen(s, name) ? otherColor(c.owner) : c.owner;
}
export const isUnfriendlyCity = (s: State, name: string, color: Color): boolean => {
  const f = cityFriendlyTo(s, name);
  return f !== undefined && f !== color;
};

/** The square of a colour's city of a type on a battlefield. */
export function citySquare(s: State, board: number, owner: Color, type: CityType): string {
  for (const name of allSquares(s, board)) {
    const c = cityAt(s, name);
    if (c && c.owner === owner && c.type === type) return name;
  }
  throw new Error(`no ${owner} ${type}`);
}

export const SUPPLY_OF_CITY: Readonly<Record<CityType, SupplyType>> = { capital: 'capital', airbase: 'air', industry: 'industry' };

export function allSquares(s: State, board?: number): string[] {
  const out: string[] = [];
  for (let b = 0; b < s.boards; b++) {
    if (board !== undefined && b !== board) continue;
    for (let row = 0; row < ROWS; row++) for (let col = 0; col < COLS; col++) out.push(sqName(b, col, row));
  }
  return out;
}

/** Distance in squares, orthogonal and diagonal steps counting one each (002 p.2 Attack: range); squares on different battlefields are never in range. */
export function distance(s: State, a: string, b: string): number {
  const p = at(s, a);
  const q = at(s, b);
  if (p.board !== q.board) return Infinity;
  return Math.max(Math.abs(p.col - q.col), Math.abs(p.row - q.row));
}

const STEPS4 = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
] as const;
const STEPS8 = [...STEPS4, [1, 1], [1, -1], [-1, 1], [-1, -1]] as const;

/** Neighbouring squares on the same battlefield: orthogonal only, or all eight. */
export function neighbours(s: State, name: string, diagonal: boolean): string[] {
  const p = at(s, name);
  const out: string[] = [];
  for (const [dc, dr] of diagonal ? STEPS8 : STEPS4) {
    const col = p.col + dc;
    const row = p.row + dr;
    if (col >= 0 && col < COLS && row >= 0 && row < ROWS) out.push(sqName(p.board, col, row));
  }
  return out;
}

export const unitAt = (s: State, name: string): Unit | undefined => s.units.find((u) => u.sq === name);
export const unitById = (s: State, id: string): Unit | undefined => s.units.find((u) => u.id === id);
export const boardOf = (s: State, name: string): number => at(s, name).board;

/** The seat that gives a unit orders: the player of its colour on the battlefield it stands on (002 p.E: a unit sent to an ally's battlefield is the ally's). */
export function controllerOf(s: State, u: Unit): SeatState {
  const board = u.sq === null ? u.home : boardOf(s, u.sq);
  return s.seats.find((x) => x.color === u.color && x.board === board)!;
}
export const seatState = (s: State, seat: Seat): SeatState | undefined => s.seats.find((x) => x.id === seat);
export const unitsOf = (s: State, seat: SeatState): Unit[] => s.units.filter((u) => u.sq !== null && u.color === seat.color && boardOf(s, u.sq) === seat.board);

/**
 * Land Move targets (002 p.2 Move): up to two steps, orthogonal (tanks also diagonal), through
 * own units but never through enemy units, water or empty unfriendly cities, ending on an empty
 * square or friendly city; a path whose first or second square is desert may take one step
 * more (RULINGS: desert +1).
 */
export function moveTargets(s: State, u: Unit): string[] {
  if (u.sq === null) return [];
  const out = new Set<string>();
  const walk = (from: string, steps: number, desert: boolean) => {
    for (const n of neighbours(s, from, u.kind === 'tank')) {
      if (isWater(s, n) || n === u.sq) continue;
      const occupant = unitAt(s, n);
      if (occupant && occupant.color !== u.color) continue;
      if (!occupant && isUnfriendlyCity(s, n, u.color)) continue;
      if (!occupant) out.add(n);
      const d = desert || (steps < 2 && terrainOf(s, n).terrain === 'desert');
      if (steps + 1 < 2 || (steps + 1 < 3 && d)) walk(n, steps + 1, d);
    }
  };
  walk(u.sq, 0, false);
  return [...out].sort();
}

/** Squares one step away that a unit of `color` may shift to by Maneuver (002 p.5: empty, diagonal allowed, no empty unfriendly city; EX8). */
export function maneuverTargets(s: State, u: Unit): string[] {
  if (u.sq === null) return [];
  return neighbours(s, u.sq, true).filter((n) => !isWater(s, n) && !unitAt(s, n) && !isUnfriendlyCity(s, n, u.color));
}

/** Own units adjacent to `u` (diagonal too) it may swap with by Relieve, at least one of the two active (002 p.5; EX9). */
export function relievePartners(s: State, u: Unit): Unit[] {
  if (u.sq === null) return [];
  return neighbours(s, u.sq, true)
    .map((n) => unitAt(s, n))
    .filter((o): o is Unit => o !== undefined && o.color === u.color && (o.active || u.active));
}

/** Amphibious Move (002 p.2, p.E): an active unit on a Port to an empty Beach or Port, on either battlefield in the Allies game. */
export function amphibiousTargets(s: State, u: Unit): string[] {
  if (u.sq === null || !u.active || terrainOf(s, u.sq).terrain !== 'port') return [];
  const board = s.allies ? undefined : boardOf(s, u.sq);
  return allSquares(s, board).filter((n) => n !== u.sq && ['beach', 'port'].includes(terrainOf(s, n).terrain) && !unitAt(s, n));
}

/** Dry-land steps (all eight directions) from a square, for Paratroop distances over Lake Nogo (002 p.D para 4). */
function landWithin(s: State, from: string, steps: number): Set<string> {
  const seen = new Set([from]);
  let edge = [from];
  for (let i = 0; i < steps; i++) {
    const next: string[] = [];
    for (const x of edge)
      for (const n of neighbours(s, x, true)) {
        if (seen.has(n) || isWater(s, n)) continue;
        seen.add(n);
        next.push(n);
      }
    edge = next;
  }
  return seen;
}

/**
 * Paratroop drop squares (002 p.4): an empty land square that is not a city (a Port is fine),
 * one or two dry-land squares from a friendly active unit or friendly city of the unit's colour.
 */
export function paratroopTargets(s: State, u: Unit): string[] {
  if (u.sq === null) return [];
  const board = boardOf(s, u.sq);
  const anchors = allSquares(s, board).filter((n) => {
    const o = unitAt(s, n);
    return (o && o.color === u.color && o.active && o.id !== u.id) || cityFriendlyTo(s, n) === u.color;
  });
  const near = new Set<string>();
  for (const a of anchors) for (const n of landWithin(s, a, 2)) if (n !== a) near.add(n);
  return [...near].filter((n) => n !== u.sq && !unitAt(s, n) && !isWater(s, n) && !cityAt(s, n)).sort();
}

/** Targets an active unit may attack (002 p.2 Attack): enemy units within its range; an empty unfriendly city only one square away. */
export function attackTargets(s: State, u: Unit): string[] {
  if (u.sq === null || !u.active) return [];
  const out: string[] = [];
  for (const n of allSquares(s, boardOf(s, u.sq))) {
    const d = distance(s, u.sq, n);
    if (d === 0) continue;
    const o = unitAt(s, n);
    if (o && o.color !== u.color && d <= RANGE[u.kind]) out.push(n);
    else if (!o && d === 1 && isUnfriendlyCity(s, n, u.color)) out.push(n);
  }
  return out;
}

/** How many dice an attack rolls (002 p.3 Height): both when the attacker stands higher than its target. */
export const diceFor = (s: State, from: string, to: string): 1 | 2 => (heightOf(s, from) > heightOf(s, to) ? 2 : 1);

/**
 * The range column an attack reads (002 p.3 Height, Disadvantage): the range, one column
 * further right for Infantry and Tanks lower than their target; Artillery never adjusts (EX4).
 */
export function columnFor(s: State, kind: Kind, from: string, to: string): number {
  const range = distance(s, from, to);
  return kind !== 'artillery' && heightOf(s, from) < heightOf(s, to) ? range + 1 : range;
}

/** The cell of the table a finished roll reads (002 p.3): the white die's range cell, the yellow ADV cell when the white shows ADV (a lone white ADV reads as a Miss, RULINGS); a Tank may take the yellow ADV cell instead. */
export function readTable(table: ResultsTable, column: number, white: number, yellow: number | null, die: 'white' | 'yellow' | null): ResultCell {
  if (die === 'yellow' && yellow !== null) return table.adv[yellow - 1]!;
  const cell = table.range[Math.min(column, 3) - 1]![white - 1]!;
  if (cell.result !== 'adv') return cell;
  return yellow === null ? { result: 'miss' } : table.adv[yellow - 1]!;
}

/** City Defense and Dug In (002 p.4; EX6): a result whose icon matches the target's city, or a Soldier against Infantry on a hill or mountain, misses. */
export function defended(s: State, icon: Icon | undefined, target: Unit, square: string): 'city-defense' | 'dug-in' | undefined {
  if (!icon) return undefined;
  if (icon === 'soldier') return target.kind === 'infantry' && heightOf(s, square) > 0 ? 'dug-in' : undefined;
  const city = cityAt(s, square);
  return city && city.type === icon ? 'city-defense' : undefined;
}

/** Rally's shift (002 p.5): Blitz → Disrupt → Rout → Miss. */
export const RALLY_SHIFT = { blitz: 'disrupt', disrupt: 'rout', rout: 'miss', miss: 'miss', adv: 'adv' } as const;

/** Rout on a Beach, Desert or Port disrupts, with no retreat (002 p.3 para 11; EX5). */
export const noRetreatGround = (s: State, square: string): boolean => ['beach', 'desert', 'port'].includes(terrainOf(s, square).terrain);

/**
 * Where a routed unit may be retreated (002 p.3): an empty neighbouring square (diagonals too,
 * RULINGS), not water, not an unfriendly city, and next to no active unfriendly unit and no
 * unfriendly city.
 */
export function retreatSquares(s: State, u: Unit): string[] {
  if (u.sq === null) return [];
  return neighbours(s, u.sq, true)
    .filter((n) => !isWater(s, n) && !unitAt(s, n) && !isUnfriendlyCity(s, n, u.color))
    .filter((n) =>
      neighbours(s, n, true).every((m) => {
        const o = unitAt(s, m);
        if (o && o.id !== u.id && o.color !== u.color && o.active) return false;
        return !isUnfriendlyCity(s, m, u.color);
      }),
    )
    .sort();
}

/** Active units of `color` on a square's battlefield with that square in range: who may Opportunity Fire at a unit there (002 p.5; EX7). */
export function shootersAt(s: State, color: Color, square: string): Unit[] {
  return s.units.filter((u) => u.sq !== null && u.color === color && u.active && distance(s, u.sq, square) <= RANGE[u.kind]);
}

/**
 * Occupation Points (002 p.1, p.D): 1 per unit on a purple #1 hex or on a non-city square of
 * the opponent's country, 2 for the opponent's Fallen Air Base, 3 for the opponent's Fallen
 * Industry; on every battlefield of the game.
 */
export function occupationPoints(s: State, color: Color): number {
  let op = 0;
  for (const u of s.units) {
    if (u.sq === null || u.color !== color) continue;
    const t = terrainOf(s, u.sq);
    if (t.terrain === 'purple') op += 1;
    else if (!t.city && countryOf(s, u.sq) === otherColor(color)) op += 1;
  }
  for (let b = 0; b < s.boards; b++) {
    if (isFallen(s, citySquare(s, b, otherColor(color), 'airbase'))) op += 2;
    if (isFallen(s, citySquare(s, b, otherColor(color), 'industry'))) op += 3;
  }
  return op;
}

/** Units of a colour on the battlefields (active or disrupted): the tie-break (002 p.D; reserves not counted, RULINGS). */
export const unitsOnBoard = (s: State, color: Color): number => s.units.filter((u) => u.sq !== null && u.color === color).length;
