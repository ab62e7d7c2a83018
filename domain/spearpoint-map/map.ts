/**
 * The 3×9 map (003 §II Village/Defensive Line Map): rows A–C, columns 1–9, spaces named 'B5'.
 * Movement and range count orthogonal steps (003 Movement 3: no diagonal moves; RULINGS: range
 * and "adjacent" count the same way). Line of sight runs from centre dot to centre dot (003
 * Combat 8) and is checked against the spaces the line crosses.
 */
export const ROWS = ['A', 'B', 'C'] as const;
export const COLS = 9;

export const SPACES: readonly string[] = ROWS.flatMap((r) => Array.from({ length: COLS }, (_, i) => `${r}${i + 1}`));
const SPACE_SET: ReadonlySet<string> = new Set(SPACES);
export const isSpace = (x: string): boolean => SPACE_SET.has(x);

export const rowOf = (space: string): number => ROWS.indexOf(space[0] as (typeof ROWS)[number]);
export const colOf = (space: string): number => Number(space.slice(1)) - 1;
export const spaceAt = (row: number, col: number): string | undefined => (row >= 0 && row < 3 && col >= 0 && col < COLS ? `${ROWS[row]}${col + 1}` : undefined);

/** Orthogonal steps between two spaces. */
export const distance = (a: string, b: string): number => Math.abs(rowOf(a) - rowOf(b)) + Math.abs(colOf(a) - colOf(b));
export const neighbours = (s: string): string[] =>
  [
    [-1, 0],
    [1, 0],
    [0, -1],
    [0, 1],
  ]
    .map(([dr, dc]) => spaceAt(rowOf(s) + dr!, colOf(s) + dc!))
    .filter((x): x is string => x !== undefined);
/** The side of `from` that a step to the adjacent space `to` crosses (north faces row A). */
export const direction = (from: string, to: string): 'north' | 'south' | 'east' | 'west' =>
  rowOf(to) < rowOf(from) ? 'north' : rowOf(to) > rowOf(from) ? 'south' : colOf(to) > colOf(from) ? 'east' : 'west';
export const opposite = (d: 'north' | 'south' | 'east' | 'west'): 'north' | 'south' | 'east' | 'west' =>
  d === 'north' ? 'south' : d === 'south' ? 'north' : d === 'east' ? 'west' : 'east';
/** The space across a side of this one, if it is on the map. */
export const across = (space: string, d: 'north' | 'south' | 'east' | 'west'): string | undefined =>
  spaceAt(rowOf(space) + (d === 'north' ? -1 : d === 'south' ? 1 : 0), colOf(space) + (d === 'east' ? 1 : d === 'west' ? -1 : 0));
/** A space on the edge of the map (003 What Now, Sarge?: entry points along a map edge). */
export const onEdge = (s: string): boolean => rowOf(s) === 0 || rowOf(s) === 2 || colOf(s) === 0 || colOf(s) === COLS - 1;

/**
 * The spaces a centre-to-centre line passes through, the two ends excluded. A line that runs
 * exactly along an edge or through a corner touches every space sharing that edge or corner, and
 * counts as crossing each of them (003 Combat 8: a line along a blocking feature's edge is blocked).
 */
export function crossed(a: string, b: string): readonly string[] {
  const key = `${a}-${b}`;
  let line = CROSSED.get(key);
  if (line === undefined) CROSSED.set(key, (line = traced(a, b)));
  return line;
}

function traced(a: string, b: string): string[] {
  const [r0, c0, r1, c1] = [rowOf(a), colOf(a), rowOf(b), colOf(b)];
  // Samples along the line; each space whose square (half a space each way, edges included)
  // holds a sample is crossed. Marked by index (row-major, as SPACES) without allocating.
  const hit = new Uint8Array(SPACES.length);
  const mark = (r: number, c: number, rr: number, cc: number) => {
    if (rr >= 0 && rr < ROWS.length && cc >= 0 && cc < COLS && Math.abs(r - rr) <= 0.5 + 1e-9 && Math.abs(c - cc) <= 0.5 + 1e-9) hit[rr * COLS + cc] = 1;
  };
  const steps = 240;
  for (let i = 1; i < steps; i++) {
    const t = i / steps;
    const r = r0 + (r1 - r0) * t;
    const c = c0 + (c1 - c0) * t;
    const rLow = Math.floor(r + 0.5 - 1e-9);
    const rHigh = Math.ceil(r - 0.5 + 1e-9);
    const cLow = Math.floor(c + 0.5 - 1e-9);
    const cHigh = Math.ceil(c - 0.5 + 1e-9);
    mark(r, c, rLow, cLow);
    mark(r, c, rLow, cHigh);
    mark(r, c, rHigh, cLow);
    mark(r, c, rHigh, cHigh);
  }
  return SPACES.filter((s, i) => hit[i] === 1 && s !== a && s !== b);
}

/**
 * The sides of `from` that a centre-to-centre line towards `to` leaves through (003 Combat 8: a
 * line crossing a tile's edge). Steeper than 45° it leaves by north or south, flatter by east or
 * west; exactly through a corner it crosses both sides meeting there (the corner ruling).
 */
export function sidesCrossed(from: string, to: string): ('north' | 'south' | 'east' | 'west')[] {
  const [dr, dc] = [rowOf(to) - rowOf(from), colOf(to) - colOf(from)];
  if (dr === 0 && dc === 0) return [];
  const out: ('north' | 'south' | 'east' | 'west')[] = [];
  if (Math.abs(dr) >= Math.abs(dc)) out.push(dr < 0 ? 'north' : 'south');
  if (Math.abs(dc) >= Math.abs(dr)) out.push(dc > 0 ? 'east' : 'west');
  return out;
}

/**
 * Each pair traced once, when first asked: line of sight is asked for thousands of times per
 * listing. Not all 729 pairs at load, which took about 60 ms of CPU in every cold start of a
 * bundle holding this engine (issue 16). A memo of a pure function: the same pair, the same line.
 */
const CROSSED = new Map<string, readonly string[]>();

/** The spaces under a flight path (003 Commitment 3): a row or a column of the map; none for the rear line. */
export function pathSpaces(path: string): string[] {
  const m = /^(row|col)-([A-C]|[1-9])$/.exec(path);
  if (!m) return [];
  return m[1] === 'row' ? SPACES.filter((s) => s[0] === m[2]) : SPACES.filter((s) => s.slice(1) === m[2]);
}
export const FLIGHT_PATHS: readonly string[] = ['row-A', 'row-B', 'row-C', ...Array.from({ length: 9 }, (_, i) => `col-${i + 1}`), 'rear-line'];
export const isFlightPath = (p: string): boolean => FLIGHT_PATHS.includes(p);

/** Mirror a space left to right (setups written for a German zone in column 9, played in column 1). */
export const mirror = (s: string): string => (isSpace(s) ? `${s[0]}${COLS - colOf(s)}` : s);
