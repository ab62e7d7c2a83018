/** Who may read an event while the game runs. After the game ends, everything opens. */
export type Seat = string;

export type Visibility =
  | { readonly to: 'all' }
  | { readonly to: 'seats'; readonly seats: readonly Seat[] }
  /** Every seat of one side (partners in a team game). */
  | { readonly to: 'side'; readonly side: string }
  /** Nobody until the game ends: deck orders, the shuffles behind every draw. */
  | { readonly to: 'none' };

export const PUBLIC: Visibility = { to: 'all' };
export const HIDDEN: Visibility = { to: 'none' };
export const onlySeats = (...seats: Seat[]): Visibility => ({ to: 'seats', seats });
export const onlySide = (side: string): Visibility => ({ to: 'side', side });

/** Who is looking: a seat (with its side), a spectator (public only), or an auditor (everything; only after the end). */
export type Viewer = { readonly kind: 'seat'; readonly seat: Seat; readonly side?: string } | { readonly kind: 'spectator' } | { readonly kind: 'auditor' };

export function canSee(visibility: Visibility, viewer: Viewer, gameEnded: boolean): boolean {
  if (gameEnded || viewer.kind === 'auditor') return true;
  switch (visibility.to) {
    case 'all':
      return true;
    case 'none':
      return false;
    case 'seats':
      return viewer.kind === 'seat' && visibility.seats.includes(viewer.seat);
    case 'side':
      return viewer.kind === 'seat' && (viewer.side ?? viewer.seat) === visibility.side;
  }
}
