/**
 * Correspondence clocks: how much of a seat's time a stretch of waiting uses. A seat's clock
 * runs only while the game waits for it, never on a weekend when the game rests at weekends
 * (Saturday and Sunday, UTC), and never while its player is away on vacation. Pure arithmetic
 * over ISO times, so the fold, the server and the verifier all count the same. What a time
 * control may be: time-control.ts.
 */

export const DAY_MS = 86_400_000;

/** When a seat's clock stands still: weekends (if the game rests then) and its player's time away. */
export interface ClockRest {
  readonly weekendsOff: boolean;
  /** Away stretches of the seat's player; `to` absent while still away. */
  readonly away: readonly { readonly from: string; readonly to?: string }[];
}

const weekendAt = (t: number): boolean => {
  const day = new Date(t).getUTCDay();
  return day === 0 || day === 6;
};
const nextUtcMidnight = (t: number): number => (Math.floor(t / DAY_MS) + 1) * DAY_MS;

/**
 * The next moment after `t` where resting may start or stop (a UTC midnight, or an away
 * stretch's edge), so time between two such moments is all running or all resting.
 */
function nextEdge(t: number, rest: ClockRest): number {
  let edge = rest.weekendsOff ? nextUtcMidnight(t) : Infinity;
  for (const a of rest.away) {
    for (const x of [Date.parse(a.from), a.to === undefined ? Infinity : Date.parse(a.to)]) if (x > t && x < edge) edge = x;
  }
  return edge;
}

function restingAt(t: number, rest: ClockRest): boolean {
  if (rest.weekendsOff && weekendAt(t)) return true;
  return rest.away.some((a) => Date.parse(a.from) <= t && (a.to === undefined || t < Date.parse(a.to)));
}

/** Milliseconds of running clock between `from` and `to`. */
export function runningMs(from: string, to: string, rest: ClockRest): number {
  let t = Date.parse(from);
  const end = Date.parse(to);
  let ms = 0;
  while (t < end) {
    const edge = Math.min(nextEdge(t, rest), end);
    if (!restingAt(t, rest)) ms += edge - t;
    t = edge;
  }
  return ms;
}

/**
 * When `budgetMs` of running clock will have passed after `from`; undefined while the clock
 * stands still for good (its player is away with no return set).
 */
export function deadlineAfter(from: string, budgetMs: number, rest: ClockRest): string | undefined {
  let t = Date.parse(from);
  let left = Math.max(0, budgetMs);
  for (;;) {
    const edge = nextEdge(t, rest);
    if (restingAt(t, rest)) {
      if (edge === Infinity) return undefined;
    } else {
      if (edge - t >= left) return new Date(t + left).toISOString();
      left -= edge - t;
    }
    t = edge;
  }
}
