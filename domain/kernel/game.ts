import { canonicalJson } from './canonical.js';
import { playsVersion, type AnyEngine, type Ctx, type Emitted, type Outcome, type Pending, type TypedMessage } from './engine.js';
import { sealDraft } from './draft.js';
import type { NewEvent, EventEnvelope } from './envelope.js';
import { GENESIS_HASH } from './envelope.js';
import { violation, type RuleViolation } from './errors.js';
import { seededRng, seedCommitment, type Rng } from './random.js';
import { err, ok, type Result } from './result.js';
import { PUBLIC, onlySeats, type Seat, type Viewer } from './visibility.js';

/**
 * The platform's own events wrap every engine: creation with the seed commitment, seats
 * joining with their entropy, the start (setup), each accepted command (kept for audit,
 * visible to its sender until the end), resignations and the end with the seed revealed.
 * Their types contain a dot; engine event types never do.
 */
export type KernelEvent =
  | { type: 'Game.Created'; data: GameCreated }
  | { type: 'Game.SeatJoined'; data: { seat: Seat; player: string; entropy: string } }
  | { type: 'Game.Started'; data: { rngFrom: number; rngTo: number } }
  | { type: 'Game.CommandAccepted'; data: { command: unknown; rngFrom: number; rngTo: number } }
  | { type: 'Game.Resigned'; data: { seat: Seat } }
  | { type: 'Game.Cancelled'; data: { by: string } }
  | { type: 'Game.TimedOut'; data: { seats: Seat[]; claimedBy: Seat; idleHours: number } }
  | { type: 'Game.Ended'; data: { outcome: Outcome; seed: string } };

export interface GameCreated {
  engine: string;
  engineVersion: number;
  options: unknown;
  seats: { id: Seat; name: string; player: string | null }[];
  commitment: string;
  createdBy: string;
  /** Hours a seat that must act may leave the game unchanged before another seat may claim the game. */
  timeLimitHours?: number;
}

export const isKernelType = (type: string): boolean => type.includes('.');

export interface SeatState {
  readonly id: Seat;
  readonly name: string;
  /** Reserved for or taken by this player. */
  readonly player: string | null;
  readonly joined: boolean;
  readonly entropy: string;
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

const RULE_PLATFORM = 'Fieldpost platform';

/** Folds one stored event (kernel or engine) into the game. Total over valid streams. */
export function foldEvent<S>(engine: AnyEngine, state: GameState<S> | undefined, e: EventEnvelope): GameState<S> {
  if (state === undefined) {
    if (e.type !== 'Game.Created') throw new Error(`stream ${e.gameId} must start with Game.Created, got ${e.type}`);
    const d = e.data as GameCreated;
    return {
      meta: {
        gameId: e.gameId,
        engine: d.engine,
        engineVersion: d.engineVersion,
        options: d.options,
        seats: d.seats.map((s) => ({ ...s, joined: false, entropy: '' })),
        status: 'open',
        commitment: d.commitment,
        createdBy: d.createdBy,
        createdAt: e.at,
        updatedAt: e.at,
        rngCounter: 0,
        ...(d.timeLimitHours !== undefined ? { timeLimitHours: d.timeLimitHours } : {}),
        version: e.seq,
        hash: e.hash,
      },
      game: engine.initialState(d.options, d.engineVersion) as S,
    };
  }
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
      return { ...state, meta: { ...base, rngCounter: k.data.rngTo } };
    case 'Game.Resigned':
    case 'Game.Cancelled':
    case 'Game.TimedOut':
      return { ...state, meta: base };
    case 'Game.Ended':
      return { ...state, meta: { ...base, status: 'ended', outcome: k.data.outcome, seed: k.data.seed } };
  }
}

export function foldAll<S>(engine: AnyEngine, events: readonly EventEnvelope[], from?: GameState<S>): GameState<S> | undefined {
  let s = from;
  for (const e of events) s = foldEvent(engine, s, e);
  return s;
}

/** Engine events carry their type inside; stored envelopes keep type and data apart. */
const splitEngineEvent = (em: Emitted<{ type: string }>, actor: Seat | null): NewEvent => {
  const { type, ...data } = em.event;
  if (isKernelType(type)) throw new Error(`engine event type ${type} must not contain a dot`);
  return { type, data, visibility: em.visibility, actor };
};

const rngFor = (meta: GameMeta, seed: string): Rng =>
  seededRng({ seed, gameId: meta.gameId, entropy: meta.seats.map((s) => s.entropy), counter: meta.rngCounter });

/** Applies new events to a state (so a decision can look at its own consequences). */
function applyNew<S>(engine: AnyEngine, state: GameState<S>, events: readonly NewEvent[]): GameState<S> {
  let s = state;
  for (const ev of events) {
    s = foldEvent(engine, s, {
      gameId: s.meta.gameId,
      seq: s.meta.version + 1,
      type: ev.type,
      data: ev.data,
      visibility: ev.visibility,
      actor: ev.actor,
      player: null,
      commandId: '',
      at: s.meta.updatedAt,
      prevHash: '',
      hash: '',
    });
  }
  return s;
}

/** Appends Game.Ended when the engine reports an outcome. */
function withEnd<S>(engine: AnyEngine, state: GameState<S>, events: NewEvent[], seed: string): NewEvent[] {
  const after = applyNew(engine, state, events);
  const outcome = engine.outcome(after.game);
  if (!outcome) return events;
  return [...events, { type: 'Game.Ended', data: { outcome, seed }, visibility: PUBLIC, actor: null }];
}

export interface CreateInput {
  readonly gameId: string;
  readonly options: unknown;
  /** Seats reserved for named players (an invitation); others are open to anyone. */
  readonly reserve?: Readonly<Record<Seat, string>>;
  readonly createdBy: string;
  /** SHA-256 of the secret seed, from seedCommitment(). */
  readonly commitment: string;
  /** Time control: see GameCreated.timeLimitHours. */
  readonly timeLimitHours?: number;
  /** The rules version (the engine's current one unless a replay names an older one it still plays). */
  readonly rulesVersion?: number;
}

export function decideCreate(engine: AnyEngine, input: CreateInput): Result<NewEvent[], RuleViolation> {
  const parsed = engine.optionsSchema.safeParse(input.options ?? {});
  if (!parsed.success) return err(violation('game/bad-options', `Options for ${engine.id} are not valid: ${zodSummary(parsed.error)}`, RULE_PLATFORM));
  if (input.rulesVersion !== undefined && !playsVersion(engine, input.rulesVersion))
    return err(violation('game/rules-version', `${engine.title} no longer plays rules version ${input.rulesVersion}`, RULE_PLATFORM));
  const seats = engine.seats(parsed.data);
  for (const id of Object.keys(input.reserve ?? {})) {
    if (!seats.some((s) => s.id === id))
      return err(violation('seat/unknown', `${engine.title} has no seat "${id}"; seats are ${seats.map((s) => s.id).join(', ')}`, RULE_PLATFORM));
  }
  // A player holds one seat, so a second reservation could never be taken and the game never start.
  const invited = Object.values(input.reserve ?? {});
  const twice = invited.find((p, i) => invited.indexOf(p) !== i);
  if (twice !== undefined) return err(violation('seat/reserved-twice', `${twice} is invited to more than one seat; a player holds one seat`, RULE_PLATFORM));
  const data: GameCreated = {
    engine: engine.id,
    engineVersion: input.rulesVersion ?? engine.version,
    options: parsed.data,
    seats: seats.map((s) => ({ id: s.id, name: s.name, player: input.reserve?.[s.id] ?? null })),
    commitment: input.commitment,
    createdBy: input.createdBy,
  };
  if (input.timeLimitHours !== undefined) {
    const h = input.timeLimitHours;
    if (!Number.isInteger(h) || h < MIN_TIME_LIMIT_HOURS || h > MAX_TIME_LIMIT_HOURS) {
      return err(
        violation(
          'game/bad-time-limit',
          `A time limit is a whole number of hours from ${MIN_TIME_LIMIT_HOURS} to ${MAX_TIME_LIMIT_HOURS}, not ${h}`,
          RULE_PLATFORM,
        ),
      );
    }
    data.timeLimitHours = h;
  }
  return ok([{ type: 'Game.Created', data, visibility: PUBLIC, actor: null }]);
}

export interface JoinInput {
  readonly player: string;
  readonly seat?: Seat;
  readonly entropy?: string;
}

export function decideJoin<S>(engine: AnyEngine, state: GameState<S>, input: JoinInput, seed: string): Result<NewEvent[], RuleViolation> {
  const { meta } = state;
  if (meta.status !== 'open') {
    // A game ends with a seat still free only when its creator cancelled it before it began.
    const why = meta.status === 'active' ? 'every seat is filled' : meta.seats.some((s) => !s.joined) ? 'it was cancelled before it began' : 'it is over';
    return err(violation('game/not-open', `This game is not taking players: ${why}`, RULE_PLATFORM));
  }
  if (meta.seats.some((s) => s.joined && s.player === input.player))
    return err(violation('seat/already-joined', `${input.player} already holds a seat in this game`, RULE_PLATFORM));
  const free = (s: SeatState) => !s.joined && (s.player === null || s.player === input.player);
  let seat: SeatState | undefined;
  if (input.seat !== undefined) {
    seat = meta.seats.find((s) => s.id === input.seat);
    if (!seat) return err(violation('seat/unknown', `No seat "${input.seat}"; seats are ${meta.seats.map((s) => s.id).join(', ')}`, RULE_PLATFORM));
    if (!free(seat)) return err(violation('seat/taken', `Seat "${seat.id}" is ${seat.joined ? 'taken' : 'reserved for another player'}`, RULE_PLATFORM));
    // Taking another seat would leave the one reserved for this player empty for good.
    const mine = meta.seats.find((s) => !s.joined && s.player === input.player && s.id !== input.seat);
    if (mine) return err(violation('seat/reserved-elsewhere', `Seat "${mine.id}" is reserved for you: take that one`, RULE_PLATFORM));
  } else {
    seat = meta.seats.find((s) => !s.joined && s.player === input.player) ?? meta.seats.find(free);
    if (!seat) return err(violation('seat/none-free', 'No free seat is open to you in this game', RULE_PLATFORM));
  }
  const entropy = input.entropy ?? '';
  if (entropy.length > 256) return err(violation('seat/entropy-too-long', 'Entropy is at most 256 characters', RULE_PLATFORM));
  const joined: NewEvent = { type: 'Game.SeatJoined', data: { seat: seat.id, player: input.player, entropy }, visibility: PUBLIC, actor: seat.id };
  const after = applyNew(engine, state, [joined]);
  if (after.meta.seats.some((s) => !s.joined)) return ok([joined]);
  // Last seat filled: start the game and run the engine's setup with the fair dice.
  const rng = rngFor(after.meta, seed);
  const setup = engine.setup(after.game, { rng, now: after.meta.updatedAt });
  if (!setup.ok) return setup;
  const started: NewEvent = { type: 'Game.Started', data: { rngFrom: after.meta.rngCounter, rngTo: rng.counter }, visibility: PUBLIC, actor: null };
  const events = [joined, started, ...setup.value.map((em) => splitEngineEvent(em, null))];
  return ok(withEnd(engine, state, events, seed));
}

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

export interface PlayInput {
  readonly player: string;
  readonly seat?: Seat;
  readonly command: unknown;
  readonly now: string;
  /** Steps drafted in private (kernel/draft.ts), sealed by `command`. */
  readonly draft?: readonly unknown[];
}

export function decidePlay<S>(engine: AnyEngine, state: GameState<S>, input: PlayInput, seed: string): Result<NewEvent[], RuleViolation> {
  const { meta } = state;
  if (meta.status === 'open') return err(violation('game/not-started', 'The game starts when every seat has joined', RULE_PLATFORM));
  if (meta.status === 'ended') return err(violation('game/over', 'This game is over', RULE_PLATFORM));
  const seat = seatOf(meta, input.player, input.seat);
  if (!seat.ok) return seat;
  const parsed = engine.commandSchema.safeParse(input.command);
  if (!parsed.success) return err(violation('command/malformed', `Not a ${engine.title} command: ${zodSummary(parsed.error)}`, RULE_PLATFORM));
  // A sealed draft is recorded as the one command it became, so the verifier re-decides that.
  let command = parsed.data as TypedMessage;
  if (input.draft !== undefined) {
    const sealed = sealDraft(engine, command, input.draft);
    if (!sealed.ok) return sealed;
    command = sealed.value;
  }
  const rng = rngFor(meta, seed);
  const ctx: Ctx = { rng, now: input.now };
  const decided = engine.decide(state.game, command, seat.value, ctx);
  if (!decided.ok) return decided;
  const accepted: NewEvent = {
    type: 'Game.CommandAccepted',
    data: { command, rngFrom: meta.rngCounter, rngTo: rng.counter },
    visibility: onlySeats(seat.value),
    actor: seat.value,
  };
  return ok(withEnd(engine, state, [accepted, ...decided.value.map((em) => splitEngineEvent(em, seat.value))], seed));
}

export function decideResign<S>(state: GameState<S>, input: { player: string; seat?: Seat }, seed: string): Result<NewEvent[], RuleViolation> {
  const { meta } = state;
  if (meta.status !== 'active') return err(violation('game/not-active', 'Only a game in progress can be resigned', RULE_PLATFORM));
  const seat = seatOf(meta, input.player, input.seat);
  if (!seat.ok) return seat;
  const winners = meta.seats.map((s) => s.id).filter((s) => s !== seat.value);
  return ok([
    { type: 'Game.Resigned', data: { seat: seat.value }, visibility: PUBLIC, actor: seat.value },
    { type: 'Game.Ended', data: { outcome: { winners, reason: `${seat.value} resigned` }, seed }, visibility: PUBLIC, actor: null },
  ]);
}

/**
 * The creator withdraws a game nobody has started playing: it leaves the lobby and ends with
 * no winner. Nothing was dealt yet, so revealing the seed gives nothing away.
 */
export function decideCancel<S>(state: GameState<S>, input: { player: string }, seed: string): Result<NewEvent[], RuleViolation> {
  const { meta } = state;
  if (meta.status !== 'open')
    return err(violation('game/not-open', meta.status === 'active' ? 'The game has begun: resign instead of cancelling' : 'This game is over', RULE_PLATFORM));
  if (meta.createdBy !== input.player)
    return err(violation('action/not-creator', `Only ${meta.createdBy}, who created this game, can cancel it`, RULE_PLATFORM));
  return ok([
    { type: 'Game.Cancelled', data: { by: input.player }, visibility: PUBLIC, actor: null },
    { type: 'Game.Ended', data: { outcome: { winners: [], reason: `cancelled by ${input.player} before it began` }, seed }, visibility: PUBLIC, actor: null },
  ]);
}

export const MIN_TIME_LIMIT_HOURS = 1;
export const MAX_TIME_LIMIT_HOURS = 24 * 60;

/** When the seats that must act now run out of time: the game's last change plus its time limit. */
export function deadlineOf(meta: GameMeta): string | undefined {
  if (meta.timeLimitHours === undefined || meta.status !== 'active') return undefined;
  return new Date(Date.parse(meta.updatedAt) + meta.timeLimitHours * 3_600_000).toISOString();
}

/**
 * Time control for correspondence play: once a game with a time limit has gone that long
 * without changing, a seat that is not being waited for may claim it. The seats the game waits
 * for lose; the others win. `now` is the command's time, recorded in the event, so the verifier
 * judges the claim at the same moment.
 */
export function decideClaimTimeout<S>(
  engine: AnyEngine,
  state: GameState<S>,
  input: { player: string; seat?: Seat; now: string },
  seed: string,
): Result<NewEvent[], RuleViolation> {
  const { meta } = state;
  if (meta.status !== 'active') return err(violation('game/not-active', 'Only a game in progress can be claimed on time', RULE_PLATFORM));
  const seat = seatOf(meta, input.player, input.seat);
  if (!seat.ok) return seat;
  const deadline = deadlineOf(meta);
  if (deadline === undefined) return err(violation('time/no-limit', 'This game has no time limit', RULE_PLATFORM));
  const late = [...new Set(engine.pending(state.game).map((p) => p.seat))];
  if (late.includes(seat.value)) return err(violation('time/your-move', 'The game is waiting for you: make your move instead', RULE_PLATFORM));
  if (late.length === 0) return err(violation('time/nobody-late', 'The game is not waiting for anyone', RULE_PLATFORM));
  if (Date.parse(input.now) < Date.parse(deadline))
    return err(violation('time/not-yet', `${late.join(', ')} ${late.length === 1 ? 'has' : 'have'} until ${deadline} to move`, RULE_PLATFORM));
  const idleHours = Math.floor((Date.parse(input.now) - Date.parse(meta.updatedAt)) / 3_600_000);
  const winners = meta.seats.map((s) => s.id).filter((s) => !late.includes(s));
  return ok([
    { type: 'Game.TimedOut', data: { seats: late, claimedBy: seat.value, idleHours }, visibility: PUBLIC, actor: seat.value },
    {
      type: 'Game.Ended',
      data: { outcome: { winners, reason: `${late.join(', ')} ran out of time (${idleHours} h without a move; the limit is ${meta.timeLimitHours} h)` }, seed },
      visibility: PUBLIC,
      actor: null,
    },
  ]);
}

/** Who must act now, as players, empty unless the game is running. */
export function pendingOf(engine: AnyEngine, state: GameState): (Pending & { player: string | null; deadline?: string })[] {
  if (state.meta.status !== 'active') return [];
  const deadline = deadlineOf(state.meta);
  return engine
    .pending(state.game)
    .map((p) => ({ ...p, player: state.meta.seats.find((s) => s.id === p.seat)?.player ?? null, ...(deadline ? { deadline } : {}) }));
}

/** The public part of the game's metadata: the seed only once the game has ended. */
export function publicMeta(meta: GameMeta) {
  const { seed, rngCounter: _rng, ...rest } = meta;
  return meta.status === 'ended' ? { ...rest, seed } : rest;
}

export function zodSummary(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}

export const GENESIS = { version: 0, hash: GENESIS_HASH } as const;

/** Viewer for a player in a game: their seat (or the one they name), a spectator otherwise, everything after the end. */
export function viewerFor(meta: GameMeta, player: string | null, seat?: Seat): Viewer {
  if (meta.status === 'ended') return { kind: 'auditor' };
  if (player === null) return { kind: 'spectator' };
  const held = meta.seats.filter((s) => s.joined && s.player === player).map((s) => s.id);
  const chosen = seat !== undefined && held.includes(seat) ? seat : held[0];
  return chosen === undefined ? { kind: 'spectator' } : { kind: 'seat', seat: chosen };
}

export { seedCommitment, canonicalJson };

/**
 * The public summary of a game, written on the stream head with every append. Read models
 * (inbox, lobby, game summaries) and notifications are built from it, and a rebuild
 * recomputes it by folding the events, so both paths must call this one function.
 * It holds only what every seat and spectator may know.
 */
export interface GameSummary {
  readonly gameId: string;
  readonly engine: string;
  readonly title: string;
  readonly status: GameMeta['status'];
  readonly version: number;
  readonly hash: string;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly seats: readonly { id: Seat; name: string; player: string | null; joined: boolean }[];
  readonly timeLimitHours?: number;
  readonly pending: readonly (Pending & { player: string | null; deadline?: string })[];
  readonly outcome?: Outcome;
}

export function summarize(engine: AnyEngine, state: GameState): GameSummary {
  const m = state.meta;
  return {
    gameId: m.gameId,
    engine: m.engine,
    title: engine.title,
    status: m.status,
    version: m.version,
    hash: m.hash,
    createdBy: m.createdBy,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    seats: m.seats.map(({ id, name, player, joined }) => ({ id, name, player, joined })),
    ...(m.timeLimitHours !== undefined ? { timeLimitHours: m.timeLimitHours } : {}),
    pending: pendingOf(engine, state),
    ...(m.outcome ? { outcome: m.outcome } : {}),
  };
}
