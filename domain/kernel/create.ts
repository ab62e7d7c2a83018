import { timeControlSchema } from './time-control.js';
import { MAX_TIME_LIMIT_HOURS, MIN_TIME_LIMIT_HOURS } from './deadlines.js';
import { playsVersion, type AnyEngine } from './engine.js';
import type { NewEvent } from './envelope.js';
import { violation, type RuleViolation } from './errors.js';
import { RULE_PLATFORM, type GameCreated } from './events.js';
import { err, ok, type Result } from './result.js';
import { zodSummary } from './seats.js';
import { PUBLIC, type Seat } from './visibility.js';

/**
 * A game's creation: its options and time control validated, Game.Created decided. In a module
 * of its own because it is the one decision that builds zod schemas (the engine's options, the
 * time control): the game service imports it with the first game it creates, so a function that
 * never creates one (deadline, picture, tournaments) loads no zod at its cold start (issue 16).
 */

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
