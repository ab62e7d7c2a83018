import { violation, type RuleViolation } from './errors.js';
import { RULE_PLATFORM } from './events.js';
import type { GameMeta } from './fold.js';
import { err, ok, type Result } from './result.js';
import type { Seat, Viewer } from './visibility.js';

/** The seat a player acts for: the one named, or the only one they hold. */
export function seatOf(meta: GameMeta, player: string, seat?: Seat): Result<Seat, RuleViolation> {
  const held = meta.seats.filter((s) => s.joined && s.player === player).map((s) => s.id);
  if (seat !== undefined) {
    if (!held.includes(seat)) return err(violation('action/not-your-seat', `You do not hold seat "${seat}" in this game`, RULE_PLATFORM));
    return ok(seat);
  }
  if (held.length === 0) return err(violation('action/not-seated', 'You hold no seat in this game', RULE_PLATFORM));
  if (held.length > 1) return err(violation('action/seat-required', `You hold seats ${held.join(', ')}: say which one acts`, RULE_PLATFORM));
  return ok(held[0]!);
}

/** The side a seat plays for. */
export const sideOf = (meta: GameMeta, seat: Seat): string => meta.seats.find((s) => s.id === seat)?.side ?? seat;

/** Viewer for a player in a game: their seat (or the one they name), a spectator otherwise, everything after the end. */
export function viewerFor(meta: GameMeta, player: string | null, seat?: Seat): Viewer {
  if (meta.status === 'ended') return { kind: 'auditor' };
  if (player === null) return { kind: 'spectator' };
  const held = meta.seats.filter((s) => s.joined && s.player === player).map((s) => s.id);
  const chosen = seat !== undefined && held.includes(seat) ? seat : held[0];
  if (chosen === undefined) return { kind: 'spectator' };
  // A seat that is a side of its own needs no side named (and views stay as they were before teams).
  const side = sideOf(meta, chosen);
  return side === chosen ? { kind: 'seat', seat: chosen } : { kind: 'seat', seat: chosen, side };
}

export function zodSummary(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}
