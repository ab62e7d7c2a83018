import { applyNew, rngFor, splitEngineEvent } from './apply.js';
import { timeControlSchema } from './clock.js';
import { MAX_TIME_LIMIT_HOURS, MIN_TIME_LIMIT_HOURS } from './deadlines.js';
import { conceded, ended, settle } from './decision.js';
import { playsVersion, type AnyEngine } from './engine.js';
import type { NewEvent } from './envelope.js';
import { violation, type RuleViolation } from './errors.js';
import { RULE_PLATFORM, type GameCreated } from './events.js';
import type { GameState, SeatState } from './fold.js';
import { err, ok, type Result } from './result.js';
import { seatOf, zodSummary } from './seats.js';
import { PUBLIC, type Seat } from './visibility.js';

/** A game's life outside its moves: created, joined seat by seat (the last join starts it), resigned or cancelled. */

/** The player a seat is reserved for (the reservation list is the creator's input: read it as data, never as an object's own keys). */
const reservedFor = (reserve: Readonly<Record<Seat, string>> | undefined, seat: Seat): string | null =>
  reserve !== undefined && Object.hasOwn(reserve, seat) ? reserve[seat]! : null;

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
  /** See GameCreated.timeControl and weekendsOff. */
  readonly timeControl?: unknown;
  readonly weekendsOff?: boolean;
  /** The share of the time limit a decision window stays open: see GameCreated.windowShare. */
  readonly windowShare?: number;
  /** The rules version (the engine's current one unless a replay names an older one it still plays). */
  readonly rulesVersion?: number;
  /** See GameCreated.rated: two-player games only. */
  readonly rated?: boolean;
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
    seats: seats.map((s) => ({ id: s.id, name: s.name, ...(s.side !== undefined ? { side: s.side } : {}), player: reservedFor(input.reserve, s.id) })),
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
  if (input.timeControl !== undefined) {
    if (input.timeLimitHours !== undefined) return err(violation('game/bad-time-control', 'Give timeControl or timeLimitHours, not both', RULE_PLATFORM));
    const control = timeControlSchema().safeParse(input.timeControl);
    if (!control.success) return err(violation('game/bad-time-control', `timeControl: ${zodSummary(control.error)}`, RULE_PLATFORM));
    data.timeControl = control.data;
  }
  const timed = data.timeControl !== undefined || data.timeLimitHours !== undefined;
  if (input.weekendsOff) {
    if (!timed) return err(violation('game/bad-time-control', 'weekendsOff needs a time control to rest', RULE_PLATFORM));
    data.weekendsOff = true;
  }
  if (input.windowShare !== undefined) {
    const w = input.windowShare;
    if (!(typeof w === 'number' && w > 0 && w <= 1))
      return err(violation('game/bad-window-share', `A window's share of the time limit is above 0 and at most 1, not ${w}`, RULE_PLATFORM));
    if (!timed) return err(violation('game/bad-window-share', 'A window share needs a time control to be a share of', RULE_PLATFORM));
    data.windowShare = w;
  }
  if (input.rated) {
    if (seats.length !== 2)
      return err(violation('game/rated-needs-two', `Only two-player games are rated; this ${engine.title} game has ${seats.length} seats`, RULE_PLATFORM));
    data.rated = true;
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
  return ok(settle(engine, state, events, { rng, now: after.meta.updatedAt }, seed));
}

export function decideResign<S>(
  engine: AnyEngine,
  state: GameState<S>,
  input: { player: string; seat?: Seat },
  seed: string,
): Result<NewEvent[], RuleViolation> {
  const { meta } = state;
  if (meta.status !== 'active') return err(violation('game/not-active', 'Only a game in progress can be resigned', RULE_PLATFORM));
  const seat = seatOf(meta, input.player, input.seat);
  if (!seat.ok) return seat;
  return ok([
    { type: 'Game.Resigned', data: { seat: seat.value }, visibility: PUBLIC, actor: seat.value },
    ended(conceded(engine, state as GameState, [seat.value], 'resigned', `${seat.value} resigned`), seed),
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
