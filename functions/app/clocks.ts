import { DAY_MS, type GameSummary } from '../../domain/kernel/index.js';

/**
 * Each seat's remaining time as players read it (issue 10: `games`, `show`, the inbox and every
 * mail): a seat the game waits for has until its deadline (or its clock stands still while its
 * player is away); any other seat has its whole move time, or its bank. From the public summary
 * and the server's time, so every reader counts the same.
 */
export interface SeatClock {
  readonly seat: string;
  readonly name: string;
  readonly player: string | null;
  /** The seat's move deadline, when the game waits for its move. */
  readonly deadline?: string;
  /** Wall-clock time until the deadline at `now` (0 once it has passed). */
  readonly leftMs?: number;
  /** Its player is away until then (the clock stands still); true with no end set. */
  readonly awayUntil?: string | true;
  /** Not on move: the time its next move gets (per move), or its bank. */
  readonly moveMs?: number;
  readonly bankMs?: number;
}

export function seatClocks(s: Pick<GameSummary, 'status' | 'seats' | 'pending' | 'timeControl' | 'banks'>, now: string): SeatClock[] {
  const control = s.timeControl;
  if (control === undefined || s.status !== 'active') return [];
  return s.seats
    .filter((seat) => seat.joined)
    .map((seat) => {
      const move = s.pending.find((p) => p.seat === seat.id && p.window === undefined);
      const base = { seat: seat.id, name: seat.name, player: seat.player };
      const away = move?.away ? { awayUntil: move.awayUntil ?? (true as const) } : {};
      if (move?.deadline !== undefined) return { ...base, deadline: move.deadline, leftMs: Math.max(0, Date.parse(move.deadline) - Date.parse(now)), ...away };
      if (move) return { ...base, ...away };
      if (control.kind === 'per-move') return { ...base, moveMs: control.days * DAY_MS };
      return { ...base, bankMs: s.banks?.find((b) => b.seat === seat.id)?.ms ?? control.days * DAY_MS };
    });
}

/** A duration in words: "3 d 4 h", "5 h 10 min", "12 min". */
export function durationInWords(ms: number): string {
  const min = Math.floor(ms / 60_000);
  const d = Math.floor(min / 1440);
  const h = Math.floor((min % 1440) / 60);
  const m = min % 60;
  if (d > 0) return `${d} d${h ? ` ${h} h` : ''}`;
  if (h > 0) return `${h} h${m ? ` ${m} min` : ''}`;
  return `${m} min`;
}

/** One seat's clock in words: "2 d 3 h left (until …)", "away until …", "4 d a move", "12 d 2 h in the bank". */
export function clockInWords(c: SeatClock): string {
  const away = c.awayUntil === undefined ? '' : c.awayUntil === true ? ', away: clock stopped' : `, away until ${c.awayUntil}: clock stopped`;
  if (c.deadline !== undefined) return `${c.leftMs ? `${durationInWords(c.leftMs)} left` : 'out of time'} (until ${c.deadline})${away}`;
  if (c.moveMs !== undefined) return `${durationInWords(c.moveMs)} a move`;
  if (c.bankMs !== undefined) return `${durationInWords(Math.max(0, c.bankMs))} in the bank`;
  return `on move, no deadline${away}`;
}

/** One seat's clock in a few words, for a listing: "1 d 23 h left", "away", "2 d a move", "12 d in the bank". */
export function clockBrief(c: SeatClock): string {
  if (c.awayUntil !== undefined) return 'away, clock stopped';
  if (c.deadline !== undefined) return c.leftMs ? `${durationInWords(c.leftMs)} left` : 'out of time';
  if (c.moveMs !== undefined) return `${durationInWords(c.moveMs)} a move`;
  if (c.bankMs !== undefined) return `${durationInWords(Math.max(0, c.bankMs))} in the bank`;
  return 'on move';
}
