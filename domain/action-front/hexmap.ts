import * as z from 'zod';
import { once } from '../kernel/once.js';
import { axisDirection, hexDistance, hexId, hexNeighbours, hexStep, lineThroughHex, parseHexId, type HexCoord } from '../kernel/hex.js';
import { TERRAINS, type MoveClass, type Tables, type Terrain } from './data/tables.js';

/**
 * An Action Front! map (004 Game Concepts, Line Of Sight; Player Aid Card): flat-topped hexes
 * numbered column-row ("0403"), each with its terrain; hills as groups of hexes, whose outline is
 * the hill hexsides; rivers along hexsides. The half hexes cut by the map's border are in play
 * (004 Select and place your forces: units may set up in them).
 */
const hexKey = () => z.string().regex(/^\d{4}$/, 'a hex id: column and row, two digits each');
export const mapSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      id: z.string().regex(/^[a-z0-9-]{1,40}$/),
      name: z.string().min(1).max(60),
      cols: z.number().int().min(4).max(30),
      rows: z.number().int().min(3).max(30),
      terrain: z.record(hexKey(), z.enum(TERRAINS)),
      hills: z.array(z.array(hexKey()).min(1)).max(20),
      rivers: z.array(z.tuple([hexKey(), hexKey()])).max(200),
    })
    .strict(),
);
export type MapCard = z.infer<ReturnType<typeof mapSchema>>;

/** Problems with a map a club supplies: hexes off the map, river sides between hexes that do not touch. */
export function mapProblems(m: MapCard): string[] {
  const out: string[] = [];
  const on = (h: string) => onMap(m, h);
  for (const h of Object.keys(m.terrain)) if (!on(h)) out.push(`terrain hex ${h} is not on the ${m.cols}×${m.rows} map`);
  for (const hill of m.hills) for (const h of hill) if (!on(h)) out.push(`hill hex ${h} is not on the map`);
  for (const [a, b] of m.rivers) if (!on(a) || !on(b) || hexDistance(parseHexId(a)!, parseHexId(b)!) !== 1) out.push(`river ${a}/${b} is not a hexside`);
  return out;
}

export function onMap(m: Pick<MapCard, 'cols' | 'rows'>, id: string): boolean {
  const h = parseHexId(id);
  return h !== undefined && h.col >= 1 && h.col <= m.cols && h.row >= 1 && h.row <= m.rows;
}

/**
 * Several maps laid side by side along the front (004 Creating Your Own Scenarios, Pick A Map:
 * "one or more" maps; ruling in RULINGS.md): the first map's row 1 is the north edge, each next
 * map is joined below the one before, so both sides' edges grow and the columns (the distance
 * between the two edges) stay. Rows renumber on: the second map's row 1 is the first map's last
 * row + 1. The shifted columns' half hex cut off at the foot of one map and the half hex above
 * the next map's first hex make one whole hex, numbered (and with the terrain) of the upper map.
 * The maps must have the same number of columns.
 */
export function joinMaps(maps: readonly MapCard[]): MapCard {
  if (maps.length === 1) return maps[0]!;
  const cols = maps[0]!.cols;
  if (maps.some((m) => m.cols !== cols)) throw new Error('maps joined along the front need the same number of columns');
  const terrain: Record<string, Terrain> = {};
  const hills: string[][] = [];
  const rivers: [string, string][] = [];
  let offset = 0;
  for (const m of maps) {
    const at = (id: string) => {
      const h = parseHexId(id)!;
      return hexId({ col: h.col, row: h.row + offset });
    };
    for (const [h, t] of Object.entries(m.terrain)) if (onMap(m, h)) terrain[at(h)] = t;
    for (const hill of m.hills) hills.push(hill.map(at));
    for (const [a, b] of m.rivers) rivers.push([at(a), at(b)]);
    offset += m.rows;
  }
  return { id: maps.map((m) => m.id).join('+'), name: maps.map((m) => m.name).join(' + '), cols, rows: offset, terrain, hills, rivers };
}

/** Every hex of the map, column by column. */
export function allHexes(m: Pick<MapCard, 'cols' | 'rows'>): string[] {
  const out: string[] = [];
  for (let col = 1; col <= m.cols; col++) for (let row = 1; row <= m.rows; row++) out.push(hexId({ col, row }));
  return out;
}

/** Cut in half by the map's border: the first and last columns, and the last hex of each shifted (even) column. */
export function isPartial(m: Pick<MapCard, 'cols' | 'rows'>, id: string): boolean {
  const h = parseHexId(id)!;
  return h.col === 1 || h.col === m.cols || (h.row === m.rows && h.col % 2 === 0);
}

/** On the map's edge: a hex with a neighbour off the map. */
export const isEdge = (m: Pick<MapCard, 'cols' | 'rows'>, id: string): boolean => hexNeighbours(parseHexId(id)!).some((n) => !onMap(m, hexId(n)));

export const terrainOf = (m: MapCard, id: string): Terrain => (Object.hasOwn(m.terrain, id) ? m.terrain[id]! : 'clear');

/** The hill a hex belongs to (its index in `hills`), or undefined. */
export const hillOf = (m: MapCard, id: string): number | undefined => {
  const i = m.hills.findIndex((hill) => hill.includes(id));
  return i < 0 ? undefined : i;
};

const riverBetween = (m: MapCard, a: string, b: string): boolean => m.rivers.some(([x, y]) => (x === a && y === b) || (x === b && y === a));

export const neighbours = (m: MapCard, id: string): string[] =>
  hexNeighbours(parseHexId(id)!)
    .map(hexId)
    .filter((h) => onMap(m, h));

export const distance = (a: string, b: string): number => hexDistance(parseHexId(a)!, parseHexId(b)!);

/**
 * Movement points to step from `from` into the adjacent `to` for a movement class (Player Aid
 * Card): the terrain of `to`, plus a river hexside, plus climbing a hill hexside; null when the
 * class may not make the step.
 */
export function stepCost(t: Tables, m: MapCard, cls: MoveClass, from: string, to: string): number | null {
  let c = t.terrain[terrainOf(m, to)].move[cls];
  if (c === null) return null;
  if (riverBetween(m, from, to)) {
    const r = t.river[cls];
    if (r === null) return null;
    c += r;
  }
  const up = hillOf(m, to);
  if (up !== undefined && hillOf(m, from) !== up) {
    const h = t.hillUp[cls];
    if (h === null) return null;
    c += h;
  }
  return c;
}

/** What limits sight besides the map: hexes holding an Artillery marker, and a scenario's visibility special rule. */
export interface SightContext {
  readonly artilleryMarkers: ReadonlySet<string>;
  readonly visibility?: number;
}

/**
 * Line of sight from the centre dot of `from` to the centre dot of `to` (004 Line Of Sight):
 * blocked by crossing two hexsides of the same hill, by passing through any part of a building,
 * forest or jungle hex (a line reaches into such a hex but not beyond it, so the target's own
 * terrain never blocks), and by any hex holding an Artillery marker, the target hex included
 * (ruling: the "into but not beyond" exception names terrain only). A line running exactly along
 * a hexside is inside neither hex, so it is never blocked by them. Air Support markers never block.
 * A scenario's visibility special rule (night, fog) ends every line at that many hexes.
 */
export function lineOfSight(m: MapCard, from: string, to: string, ctx: SightContext): boolean {
  return sightBlocker(m, from, to, ctx) === undefined;
}

/** Why the line is blocked ("jungle 0502", "artillery marker 0703", "hill"), or undefined when it is clear. */
export function sightBlocker(m: MapCard, from: string, to: string, ctx: SightContext): string | undefined {
  if (from === to) return undefined;
  if (ctx.visibility !== undefined && distance(from, to) > ctx.visibility) return `beyond the visibility of ${ctx.visibility} hexes`;
  const a = parseHexId(from)!;
  const b = parseHexId(to)!;
  const passed = hexesOnLine(m, a, b);
  for (const { id } of passed) {
    if (id === from) continue;
    if (ctx.artilleryMarkers.has(id)) return `artillery marker ${id}`;
    if (id === to) continue;
    const terrain = terrainOf(m, id);
    if (terrain !== 'clear') return `${terrain} ${id}`;
  }
  // Hill hexsides crossed: each change between inside and outside a hill, along the line.
  const crossings = new Map<number, number>();
  let prev = hillOf(m, from);
  for (const { id } of passed) {
    const hill = hillOf(m, id);
    if (hill !== prev) {
      if (prev !== undefined) crossings.set(prev, (crossings.get(prev) ?? 0) + 1);
      if (hill !== undefined) crossings.set(hill, (crossings.get(hill) ?? 0) + 1);
      prev = hill;
    }
  }
  for (const [hill, n] of crossings) if (n >= 2) return `two hexsides of hill ${hill + 1}`;
  return undefined;
}

/** The hexes whose inside the line between two centre dots passes through, in order along it. */
export function hexesOnLine(m: Pick<MapCard, 'cols' | 'rows'>, a: HexCoord, b: HexCoord): { id: string; enter: number }[] {
  const out: { id: string; enter: number }[] = [];
  const c0 = Math.min(a.col, b.col) - 1;
  const c1 = Math.max(a.col, b.col) + 1;
  const r0 = Math.min(a.row, b.row) - 2;
  const r1 = Math.max(a.row, b.row) + 2;
  for (let col = Math.max(1, c0); col <= Math.min(m.cols, c1); col++)
    for (let row = Math.max(1, r0); row <= Math.min(m.rows, r1); row++) {
      const hit = lineThroughHex(a, b, { col, row });
      if (hit) out.push({ id: hexId({ col, row }), enter: hit.enter });
    }
  return out.sort((x, y) => x.enter - y.enter);
}

/**
 * Whether the line of fire climbs a hill hexside into the target's hill from outside it (004
 * M2 HMG example: firing across a hill hexside from a non-hill hex).
 */
export function firesUpHill(m: MapCard, from: string, to: string): boolean {
  const hill = hillOf(m, to);
  return hill !== undefined && hillOf(m, from) !== hill;
}

/** Which way a side faces: the west side (column 1 edge) looks east. */
export type Edge = 'west' | 'east';

/**
 * Short or Over drift for artillery (004 Resolving Artillery, step 4): the hexes `n` columns
 * toward the firer's own edge (Short) or the opponent's (Over) whose centres lie nearest the
 * line straight across from the marker. One hex, or two equally near (a suit card picks left
 * or right as the firer faces), or none on the map (the rounds fall off it).
 */
export function driftCandidates(m: MapCard, from: string, n: number, toward: Edge): string[] {
  const h = parseHexId(from)!;
  const col = toward === 'east' ? h.col + n : h.col - n;
  if (col < 1 || col > m.cols) return [];
  const y = (c: number, r: number) => 2 * (r - 1) + ((c - 1) & 1);
  const target = y(h.col, h.row);
  let best = Infinity;
  let out: string[] = [];
  for (let row = 1; row <= m.rows; row++) {
    const d = Math.abs(y(col, row) - target);
    if (d < best) {
      best = d;
      out = [hexId({ col, row })];
    } else if (d === best) out.push(hexId({ col, row }));
  }
  return out;
}

/** Of two tied drift hexes, the one to the firer's left or right as it faces the opponent's edge. */
export function leftOrRight(candidates: readonly string[], facing: Edge, side: 'left' | 'right'): string {
  const sorted = [...candidates].sort();
  // Facing east, left is north (lower rows); facing west, left is south.
  const northFirst = facing === 'east' ? side === 'left' : side === 'right';
  return northFirst ? sorted[0]! : sorted[sorted.length - 1]!;
}

/** Edge hexes an air strike on `target` may enter from: on the map's edge and on one of the six straight hex rows through it (ruling). */
export function airEntryHexes(m: MapCard, target: string): string[] {
  const h = parseHexId(target)!;
  const out = new Set<string>();
  for (let dir = 0; dir < 6; dir++)
    for (let k = 1; ; k++) {
      const s = hexId(hexStep(h, dir, k));
      if (!onMap(m, s)) break;
      if (isEdge(m, s)) out.add(s);
    }
  return [...out].sort();
}

/**
 * Air Support drift (004 Resolving Air Support, step 4): Short moves the marker back toward the
 * entry hex along the straight row (stopping at the entry hex: ruling), Over moves it farther
 * on (off the map: the strike is lost). Returns the hex, or undefined off the map.
 */
export function airDrift(m: MapCard, target: string, entry: string, kind: 'short' | 'over', n: number): string | undefined {
  const t = parseHexId(target)!;
  const dir = axisDirection(parseHexId(entry)!, t)!;
  if (kind === 'short') return hexId(hexStep(t, dir + 3, Math.min(n, distance(entry, target))));
  const to = hexId(hexStep(t, dir, n));
  return onMap(m, to) ? to : undefined;
}

/** Hexes within `n` columns of a side's own edge (set-up zones). */
export const withinOfEdge = (m: MapCard, id: string, edge: Edge, n: number): boolean => {
  const col = parseHexId(id)!.col;
  return edge === 'west' ? col <= n : col > m.cols - n;
};
