import * as z from './zod-mini.js';
import { once } from './once.js';

/**
 * A game's time control, as a game's creation, a club's defaults and a tournament take it. Built
 * on its first use, and in a module of its own: the clock's arithmetic (clock.ts) is in every
 * function, this schema only where a game or tournament is created, so the functions that never
 * create one (projector, scheduler, notifier, digest, deadline, picture) load no zod at a cold
 * start (issue 16). Every use gets the same schema.
 */
export const timeControlSchema = /* @__PURE__ */ once(() =>
  z.discriminatedUnion('kind', [
    /** Each move must be made within `days` of the game starting to wait for it. */
    z.strictObject({ kind: z.literal('per-move'), days: z.number().check(z.gt(0), z.maximum(60)) }),
    /** A bank of `days` for the whole game, `incrementDays` added after every move (like 30 days plus 3 a move). */
    z.strictObject({ kind: z.literal('bank'), days: z.number().check(z.gt(0), z.maximum(365)), incrementDays: z.number().check(z.minimum(0), z.maximum(60)) }),
  ]),
);
export type TimeControl = z.infer<ReturnType<typeof timeControlSchema>>;
