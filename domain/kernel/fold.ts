import { DAY_MS, runningMs, type ClockRest } from './clock.js';
import type { TimeControl } from './time-control.js';
import type { AnyEngine, Outcome } from './engine.js';
import type { EventEnvelope } from './envelope.js';
import { isKernelType, type GameCreated, type KernelEvent, type StandingOrder } from './events.js';
import type { ReminderLevel } from './reminders.js';
import type { Seat } from './visibility.js';

/** The kernel's view of a game: who sits where, its status, clocks and standing orders; the engine's state beside it. */
export interface SeatState {
  readonly id: Seat;
  readonly name: string;
  /** The side the seat plays for (its own id when the engine forms no teams). */
  readonly side: string;
  /** Reserved for or taken by this player. */
  readonly player: string | null;
  readonly joined: boolean;
  readonly entropy: string;
}

/** A pending entry the game has been waiting on since `since`: a seat's move or one of its windows. */
export interface Waiting {
  readonly seat: Seat;
  /** The window's id, or the pending kind for a move. */
  readonly key: string;
  readonly since: string;
}

export interface GameMeta {
  readonly gameId: string;
  readonly engine: string;
  readonly engineVersion: number;
  readonly options: unknown;
  readonly seats: readonly SeatState[];
  readonly status: 'open' | 'active' | 'ended';
  readonly commitment: string;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly rngCounter: number;
  readonly timeLimitHours?: number;
  /** The time control (a game created with timeLimitHours has a per-move one of that length). */
  readonly timeControl?: TimeControl;
  readonly weekendsOff?: boolean;
  /** See GameCreated.rated. */
  readonly rated?: true;
  readonly windowShare?: number;
  /** For a bank time control: each seat's time left, charged when the game stops waiting for its move. */
  readonly banks: readonly { readonly seat: Seat; readonly ms: number }[];
  /** Stretches each seat's player spent away (vacation): its clocks stand still then. */
  readonly away: readonly { readonly seat: Seat; readonly from: string; readonly to?: string }[];
  /** Reminders already sent for the moves the game waits for now (seat, waiting key and since name the wait; seq: the Game.Reminded event). */
  readonly reminded: readonly { readonly seat: Seat; readonly key: string; readonly since: string; readonly level: ReminderLevel; readonly seq: number }[];
  /** What the game waits for and since when, kept in the order the engine lists it. */
  readonly waiting: readonly Waiting[];
  /** Each seat's standing orders (only that seat may see its own). */
  readonly standing: readonly { readonly seat: Seat; readonly orders: readonly StandingOrder[] }[];
  readonly outcome?: Outcome;
  readonly seed?: string;
  /** Seq of the last event folded, and its hash. */
  readonly version: number;
  readonly hash: string;
}

export interface GameState<S = unknown> {
  readonly meta: GameMeta;
  readonly game: S;
}

/**
 * Bump when GameMeta's shape changes: snapshots record it, and one taken under another shape
 * is refolded from the events instead of being trusted.
 */
export const KERNEL_STATE_VERSION = 4;

/** Waiting keys of windows carry this prefix, so a window's key never equals a move's. */
export const WINDOW_KEY = 'window:';
export const waitingKey = (p: { kind: string; window?: { id: string } }): string => (p.window ? `${WINDOW_KEY}${p.window.id}` : p.kind);

/** Folds one stored event (kernel or engine) into the game. Total over valid streams. */
export function foldEvent<S>(engine: AnyEngine, state: GameState<S> | undefined, e: EventEnvelope): GameState<S> {
  if (state === undefined) {
    if (e.type !== 'Game.Created') throw new Error(`stream ${e.gameId} must start with Game.Created, got ${e.type}`);
    const d = e.data as GameCreated;
    const control: TimeControl | undefined = d.timeControl ?? (d.timeLimitHours !== undefined ? { kind: 'per-move', days: d.timeLimitHours / 24 } : undefined);
    return {
      meta: {
        gameId: e.gameId,
        engine: d.engine,
        engineVersion: d.engineVersion,
        options: d.options,
        seats: d.seats.map((s) => ({ id: s.id, name: s.name, side: s.side ?? s.id, player: s.player, joined: false, entropy: '' })),
        status: 'open',
        commitment: d.commitment,
        createdBy: d.createdBy,
        createdAt: e.at,
        updatedAt: e.at,
        rngCounter: 0,
        ...(d.timeLimitHours !== undefined ? { timeLimitHours: d.timeLimitHours } : {}),
        ...(control ? { timeControl: control } : {}),
        ...(d.weekendsOff ? { weekendsOff: true } : {}),
        ...(d.rated ? { rated: true } : {}),
        ...(d.windowShare !== undefined ? { windowShare: d.windowShare } : {}),
        banks: control?.kind === 'bank' ? d.seats.map((s) => ({ seat: s.id, ms: control.days * DAY_MS })) : [],
        away: [],
        reminded: [],
        waiting: [],
        standing: [],
        version: e.seq,
        hash: e.hash,
      },
      game: engine.initialState(d.options, d.engineVersion) as S,
    };
  }
  const folded = foldKernelOrEngine(engine, state, e);
  const waiting = waitingAfter(engine, folded, e.at);
  // A reminder belongs to one wait: once the game stops waiting for that move, it is forgotten.
  const reminded = folded.meta.reminded.filter((r) => waiting.some((w) => w.seat === r.seat && w.key === r.key && w.since === r.since));
  return { ...folded, meta: { ...folded.meta, waiting, reminded, banks: chargedBanks(folded.meta, waiting, e.at) } };
}

function foldKernelOrEngine<S>(engine: AnyEngine, state: GameState<S>, e: EventEnvelope): GameState<S> {
  const base = { ...state.meta, version: e.seq, hash: e.hash, updatedAt: e.at };
  if (!isKernelType(e.type)) {
    return { meta: base, game: engine.evolve(state.game, { type: e.type, ...(e.data as object) }) as S };
  }
  const k = { type: e.type, data: e.data } as KernelEvent;
  switch (k.type) {
    case 'Game.Created':
      throw new Error('Game.Created twice');
    case 'Game.SeatJoined':
      return {
        ...state,
        meta: { ...base, seats: base.seats.map((s) => (s.id === k.data.seat ? { ...s, player: k.data.player, joined: true, entropy: k.data.entropy } : s)) },
      };
    case 'Game.Started':
      return { ...state, meta: { ...base, status: 'active', rngCounter: k.data.rngTo } };
    case 'Game.CommandAccepted':
    case 'Game.StandingOrderApplied':
    case 'Game.WindowLapsed':
      return { ...state, meta: { ...base, rngCounter: k.data.rngTo } };
    case 'Game.StandingOrdersSet':
      return { ...state, meta: { ...base, standing: [...base.standing.filter((x) => x.seat !== k.data.seat), { seat: k.data.seat, orders: k.data.orders }] } };
    case 'Game.AwayStarted':
      return {
        ...state,
        meta: { ...base, away: [...base.away, { seat: k.data.seat, from: e.at, ...(k.data.until !== undefined ? { to: k.data.until } : {}) }] },
      };
    case 'Game.AwayEnded':
      // Back before the leave ran out: the stretch ends now.
      return {
        ...state,
        meta: { ...base, away: base.away.map((a) => (a.seat === k.data.seat && (a.to === undefined || a.to > e.at) ? { ...a, to: e.at } : a)) },
      };
    case 'Game.Reminded': {
      const w = state.meta.waiting.find((x) => x.seat === k.data.seat && !x.key.startsWith(WINDOW_KEY));
      if (!w) return { ...state, meta: base };
      return { ...state, meta: { ...base, reminded: [...base.reminded, { seat: w.seat, key: w.key, since: w.since, level: k.data.level, seq: e.seq }] } };
    }
    case 'Game.StandingOrderSkipped':
    case 'Game.Resigned':
    case 'Game.Cancelled':
    case 'Game.TimedOut':
      return { ...state, meta: base };
    case 'Game.Ended':
      return { ...state, meta: { ...base, status: 'ended', outcome: k.data.outcome, seed: k.data.seed } };
  }
}

/**
 * What the game now waits for: an entry still pending keeps the time it began, a new one starts
 * now. Clocks and window deadlines run from these times, so they are part of the fold and the
 * verifier sees exactly what the server saw.
 */
function waitingAfter(engine: AnyEngine, state: GameState, at: string): Waiting[] {
  if (state.meta.status !== 'active') return [];
  const before = new Map(state.meta.waiting.map((w) => [`${w.seat}\u0000${w.key}`, w.since]));
  return engine.pending(state.game).map((p) => {
    const key = waitingKey(p);
    return { seat: p.seat, key, since: before.get(`${p.seat}\u0000${key}`) ?? at };
  });
}

/**
 * A bank time control charges a seat when the game stops waiting for its move: the running
 * time since it began waiting comes off its bank, and the increment goes on.
 */
function chargedBanks(meta: GameMeta, waiting: readonly Waiting[], at: string): GameMeta['banks'] {
  const control = meta.timeControl;
  if (control?.kind !== 'bank' || meta.banks.length === 0) return meta.banks;
  const isMove = (w: Waiting) => !w.key.startsWith(WINDOW_KEY);
  return meta.banks.map((b) => {
    const was = meta.waiting.filter((w) => w.seat === b.seat && isMove(w));
    if (was.length === 0 || waiting.some((w) => w.seat === b.seat && isMove(w))) return b;
    const since = was.map((w) => w.since).sort()[0]!;
    return { seat: b.seat, ms: b.ms - runningMs(since, at, restOf(meta, b.seat)) + control.incrementDays * DAY_MS };
  });
}

/** When a seat's clock stands still. */
export const restOf = (meta: GameMeta, seat: Seat): ClockRest => ({ weekendsOff: meta.weekendsOff === true, away: meta.away.filter((a) => a.seat === seat) });

export function foldAll<S>(engine: AnyEngine, events: readonly EventEnvelope[], from?: GameState<S>): GameState<S> | undefined {
  let s = from;
  for (const e of events) s = foldEvent(engine, s, e);
  return s;
}

/** A seat's standing orders, in the order it left them. */
export const standingOrdersOf = (meta: GameMeta, seat: Seat): readonly StandingOrder[] => meta.standing.find((x) => x.seat === seat)?.orders ?? [];
