import type { Seat } from './visibility.js';

/**
 * Sealed simultaneous orders (Spearpoint's commitment and target declaration): each seat's
 * order is stored in an event only that seat can see; once every seat has sealed, one
 * public reveal event carries them all. These helpers keep the bookkeeping in one place.
 */
export interface SealedBox<O> {
  readonly round: string;
  readonly orders: Readonly<Partial<Record<Seat, O>>>;
}

export const emptyBox = <O>(round: string): SealedBox<O> => ({ round, orders: {} });

export const hasSealed = <O>(box: SealedBox<O>, seat: Seat): boolean => Object.prototype.hasOwnProperty.call(box.orders, seat);

export const seal = <O>(box: SealedBox<O>, seat: Seat, order: O): SealedBox<O> => ({ ...box, orders: { ...box.orders, [seat]: order } });

export const allSealed = <O>(box: SealedBox<O>, seats: readonly Seat[]): boolean => seats.every((s) => hasSealed(box, s));

/** Seats that still owe an order. */
export const awaiting = <O>(box: SealedBox<O>, seats: readonly Seat[]): Seat[] => seats.filter((s) => !hasSealed(box, s));
