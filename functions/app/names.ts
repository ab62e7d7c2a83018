/**
 * How seats and players are named to people: by side ("United States") and player ("alice"),
 * never by seat id ("us"), which is a key for programs. Shared by the replies of the API, the
 * terminal client, mail and webhooks. Pure (no node:*), so the terminal client uses it as is.
 */
export interface SeatLike {
  readonly id: string;
  readonly name: string;
  readonly player: string | null;
}

/** "United States (alice)", "Germany (open seat)"; an unknown id is shown as it is. */
export function sideAndPlayer(seats: readonly SeatLike[], id: string): string {
  const s = seats.find((x) => x.id === id);
  if (!s) return id;
  return `${s.name} (${s.player ?? 'open seat'})`;
}

/** "United States"; an unknown id is shown as it is. */
export const sideName = (seats: readonly SeatLike[], id: string): string => seats.find((x) => x.id === id)?.name ?? id;

/** "a", "a and b", "a, b and c". */
export const listing = (xs: readonly string[], none = 'nobody'): string =>
  xs.length <= 1 ? (xs[0] ?? none) : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A text an engine or the platform wrote with seat ids in it ("us reached 51 Victory Points",
 * "de resigned") with each seat id that stands as a word replaced by its side's name. Ids inside
 * other ids (a unit "us-014", an attack "t1-us-2") are left alone.
 */
export function withSideNames(text: string, seats: readonly SeatLike[]): string {
  let out = text;
  for (const s of seats) {
    if (!s.id || s.id === s.name) continue;
    out = out.replace(new RegExp(`(?<![\\w'-])${escapeRe(s.id)}(?![\\w'-])`, 'g'), s.name);
  }
  return out;
}

/** "won by United States (alice)", "a draw", "cancelled": a finished game's result in words. */
export function resultInWords(
  outcome: { readonly winners: readonly string[]; readonly reason: string },
  seats: readonly (SeatLike & { readonly joined?: boolean })[],
  cancelled: boolean,
): string {
  const reason = withSideNames(outcome.reason, seats);
  if (cancelled) return `cancelled (${reason})`;
  if (outcome.winners.length === 0) return `a draw (${reason})`;
  return `won by ${listing(outcome.winners.map((w) => sideAndPlayer(seats, w)))} (${reason})`;
}
