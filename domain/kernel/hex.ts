/**
 * Hex geometry for any engine whose map is flat-topped hexes in columns, numbered the way
 * printed wargame maps are: column 1 at the left, row 1 at the top, every even column shifted
 * down by half a hex ("0403" is column 4, row 3). Pure functions on small integer pairs.
 */
export interface HexCoord {
  readonly col: number;
  readonly row: number;
}

/** Cube coordinates (x + y + z = 0): distances and straight lines are simple in them. */
interface Cube {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

const toCube = (h: HexCoord): Cube => {
  const q = h.col - 1;
  const r = h.row - 1;
  const x = q;
  const z = r - (q - (q & 1)) / 2;
  return { x, y: -x - z, z };
};

const fromCube = (c: Cube): HexCoord => {
  const q = c.x;
  return { col: q + 1, row: c.z + (q - (q & 1)) / 2 + 1 };
};

/** Steps between two hexes. */
export function hexDistance(a: HexCoord, b: HexCoord): number {
  const p = toCube(a);
  const q = toCube(b);
  return Math.max(Math.abs(p.x - q.x), Math.abs(p.y - q.y), Math.abs(p.z - q.z));
}

/** The six directions, clockwise from north: N, NE, SE, S, SW, NW. */
const DIRECTIONS: readonly Cube[] = [
  { x: 0, y: 1, z: -1 },
  { x: 1, y: 0, z: -1 },
  { x: 1, y: -1, z: 0 },
  { x: 0, y: -1, z: 1 },
  { x: -1, y: 0, z: 1 },
  { x: -1, y: 1, z: 0 },
];

/** The six neighbours (some may lie off a map), clockwise from north. */
export function hexNeighbours(h: HexCoord): HexCoord[] {
  const c = toCube(h);
  return DIRECTIONS.map((d) => fromCube({ x: c.x + d.x, y: c.y + d.y, z: c.z + d.z }));
}

/** The hex `n` steps from `h` in direction `dir` (0 = N, clockwise). */
export function hexStep(h: HexCoord, dir: number, n: number): HexCoord {
  const c = toCube(h);
  const d = DIRECTIONS[((dir % 6) + 6) % 6]!;
  return fromCube({ x: c.x + d.x * n, y: c.y + d.y * n, z: c.z + d.z * n });
}

/** The direction (0..5) of the straight hex row from `a` through `b`, or undefined when they are not on one of the six axes. */
export function axisDirection(a: HexCoord, b: HexCoord): number | undefined {
  const n = hexDistance(a, b);
  if (n === 0) return undefined;
  for (let dir = 0; dir < 6; dir++) {
    const s = hexStep(a, dir, n);
    if (s.col === b.col && s.row === b.row) return dir;
  }
  return undefined;
}

const SQRT3 = Math.sqrt(3);

/** The centre dot of a hex, in units of the hex's circumradius. */
export function hexCentre(h: HexCoord): { x: number; y: number } {
  const q = h.col - 1;
  return { x: 1.5 * q, y: SQRT3 * (h.row - 1 + 0.5 * (q & 1)) };
}

const EPS = 1e-9;

/**
 * Where the straight line between two centre dots passes through the inside of hex `h`, as the
 * part [enter, leave] of the line (0 at `from`, 1 at `to`), or undefined when it only touches the
 * hex's edge or corner or misses it. A line running exactly along a hexside is inside neither hex.
 */
export function lineThroughHex(from: HexCoord, to: HexCoord, h: HexCoord): { enter: number; leave: number } | undefined {
  const p = hexCentre(from);
  const q = hexCentre(to);
  const c = hexCentre(h);
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  let t0 = 0;
  let t1 = 1;
  for (let k = 0; k < 6; k++) {
    // Flat-topped: edge normals at 30°, 90°, …; the inside is n·(x - c) < √3/2.
    const a = (Math.PI / 180) * (30 + 60 * k);
    const nx = Math.cos(a);
    const ny = Math.sin(a);
    const start = nx * (p.x - c.x) + ny * (p.y - c.y) - SQRT3 / 2 + EPS;
    const rate = nx * dx + ny * dy;
    if (Math.abs(rate) < EPS) {
      if (start >= 0) return undefined;
      continue;
    }
    const t = -start / rate;
    if (rate > 0) t1 = Math.min(t1, t);
    else t0 = Math.max(t0, t);
  }
  return t1 - t0 > EPS ? { enter: t0, leave: t1 } : undefined;
}

/** Hex id as printed on maps: two digits of column, two of row ("0403"). */
export const hexId = (h: HexCoord): string => `${String(h.col).padStart(2, '0')}${String(h.row).padStart(2, '0')}`;

/** The coordinates of a printed hex id, or undefined when it is not four digits. */
export function parseHexId(id: string): HexCoord | undefined {
  if (!/^\d{4}$/.test(id)) return undefined;
  return { col: Number(id.slice(0, 2)), row: Number(id.slice(2)) };
}
