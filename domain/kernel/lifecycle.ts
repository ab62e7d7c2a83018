import { applyNew, rngFor, splitEngineEvent } from './apply.js';
import { conceded, ended, settle } from './decision.js';
import type { AnyEngine } from './engine.js';
import type { NewEvent } from './envelope.js';
import { violation, type RuleViolation } from './errors.js';
import { RULE_PLATFORM } from './events.js';
import type { GameState, SeatState } from './fold.js';
import { err, ok, type Result } from './result.js';
import { seatOf } from './seats.js';
import { PUBLIC, type Seat } from './visibility.js';

/** A game's life outside its moves: joined seat by seat (the last join starts it), resigned or cancelled. Its creation: create.ts. */

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
