import { canonicalJson } from './canonical.js';
import { playsVersion, type AnyEngine } from './engine.js';
import { envelopeHash, GENESIS_HASH, type EventEnvelope, type NewEvent } from './envelope.js';
import { decideAway, decideClaimTimeout, decideLapse, decideTimeOut } from './deadlines.js';
import type { GameCreated, StandingOrder } from './events.js';
import { foldEvent, type GameState } from './fold.js';
import { decideReminders } from './reminders.js';
import { decideCreate } from './create.js';
import { decideCancel, decideJoin, decideResign } from './lifecycle.js';
import { decidePlay, decideStandingOrders } from './play.js';
import { seedCommitment } from './random.js';

export interface VerifyReport {
  readonly ok: boolean;
  readonly problems: readonly string[];
  readonly events: number;
  readonly draws: number;
  readonly finalHash?: string;
  readonly outcome?: unknown;
  readonly finalState?: GameState;
}

/**
 * Audits a finished game's exported log: the hash chain, the seed against its commitment,
 * every random draw (by re-running setup and every accepted command against the revealed
 * seed and comparing the events they produce with the ones stored), and the final fold.
 */
export function verifyLog(events: readonly EventEnvelope[], engines: (id: string) => AnyEngine | undefined): VerifyReport {
  const problems: string[] = [];
  const fail = (p: string, extra: Partial<VerifyReport> = {}): VerifyReport => ({
    ok: false,
    problems: [...problems, p],
    events: events.length,
    draws: 0,
    ...extra,
  });
  const first = events[0];
  if (!first || first.type !== 'Game.Created') return fail('the log must start with Game.Created');
  const created = first.data as GameCreated;
  const engine = engines(created.engine);
  if (!engine) return fail(`unknown engine ${created.engine}`);
  // Replaying under other rules would report a difference that is not a forgery: say so.
  if (!playsVersion(engine, created.engineVersion))
    return fail(
      `the game was played under version ${created.engineVersion} of the ${engine.title} rules, and this verifier has version ${engine.version}: verify it with the Fieldpost release the game was played on`,
    );

  let prev = GENESIS_HASH;
  for (const [i, e] of events.entries()) {
    if (e.seq !== i + 1) return fail(`event ${i + 1} has seq ${e.seq}`);
    if (e.gameId !== first.gameId) return fail(`event ${e.seq} belongs to game ${e.gameId}`);
    if (e.prevHash !== prev) return fail(`event ${e.seq}: prevHash does not match the hash of event ${e.seq - 1}`);
    const { hash, ...rest } = e;
    if (envelopeHash(rest) !== hash) return fail(`event ${e.seq}: content does not match its hash`);
    prev = hash;
  }

  const last = events[events.length - 1]!;
  if (last.type !== 'Game.Ended') return fail('the game has not ended: its seed is still secret, so its draws cannot be checked yet');
  const seed = (last.data as { seed: string }).seed;
  if (seedCommitment(seed) !== created.commitment) return fail('the revealed seed does not match the commitment made in the first event');

  // Every event must be re-derived: each decision (creation, a join, a command, a
  // resignation) is decided again by the kernel and the engine, from the state before it,
  // the revealed seed and the inputs the log records; the events it gives, platform events
  // included, must be exactly the ones stored, under one commandId, time and player.
  let state: GameState | undefined;
  let draws = 0;
  let expected: NewEvent[] = [];
  let decision: EventEnvelope | undefined;
  const shape = (e: { type: string; data: unknown; visibility: unknown; actor: unknown }) =>
    canonicalJson({ type: e.type, data: e.data, visibility: e.visibility, actor: e.actor });

  try {
    for (const e of events) {
      let want: NewEvent | undefined;
      if (expected.length > 0) {
        want = expected.shift();
        if (e.commandId !== decision!.commandId || e.at !== decision!.at || e.player !== decision!.player)
          return fail(`event ${e.seq} (${e.type}) is not attributed like the decision it belongs to (event ${decision!.seq})`);
      } else {
        decision = e;
        const r = redecide(engine, state, e, seed);
        if (!r.ok) return fail(`event ${e.seq} (${e.type}): ${r.error}`);
        [want, ...expected] = r.value;
      }
      if (!want || shape(e) !== shape(want))
        return fail(`event ${e.seq} (${e.type}) differs from what the rules and dice produce: expected ${want ? shape(want).slice(0, 300) : 'nothing'}`);
      if (e.type === 'Game.Started' || e.type === 'Game.CommandAccepted' || e.type === 'Game.StandingOrderApplied' || e.type === 'Game.WindowLapsed') {
        const d = e.data as { rngFrom: number; rngTo: number };
        draws += d.rngTo - d.rngFrom;
      }
      state = foldEvent(engine, state, e);
    }
  } catch (x) {
    return fail(`replay failed: ${(x as Error).message}`);
  }
  if (expected.length > 0) return fail(`the log stops before ${expected[0]!.type}`);
  if (state?.meta.status !== 'ended') return fail('the log does not end the game');
  const logged = (last.data as { outcome: unknown }).outcome;
  return { ok: true, problems, events: events.length, draws, finalHash: last.hash, outcome: logged, ...(state ? { finalState: state } : {}) };
}

/**
 * Decides again the decision an event opens, from the state before it: Game.Created (the
 * first event), Game.SeatJoined (which may start the game and run the setup),
 * Game.CommandAccepted, Game.StandingOrdersSet, Game.WindowLapsed, Game.Resigned, Game.Cancelled, Game.AwayStarted/AwayEnded, Game.Reminded and Game.TimedOut. Anything else cannot open a decision.
 */
function redecide(
  engine: AnyEngine,
  state: GameState | undefined,
  e: EventEnvelope,
  seed: string,
): { ok: true; value: NewEvent[] } | { ok: false; error: string } {
  const refused = (r: { ok: false; error: { message: string } }) => ({ ok: false as const, error: `replaying it is refused by the rules: ${r.error.message}` });
  if (state === undefined) {
    if (e.type !== 'Game.Created') return { ok: false, error: 'the log must start with Game.Created' };
    const d = e.data as GameCreated;
    const reserve = Object.fromEntries(d.seats.filter((s) => s.player !== null).map((s) => [s.id, s.player as string]));
    const r = decideCreate(engine, {
      gameId: e.gameId,
      options: d.options,
      reserve,
      createdBy: d.createdBy,
      commitment: d.commitment,
      rulesVersion: d.engineVersion,
      ...(d.windowShare !== undefined ? { windowShare: d.windowShare } : {}),
      ...(d.timeControl !== undefined ? { timeControl: d.timeControl } : {}),
      ...(d.weekendsOff ? { weekendsOff: true } : {}),
      ...(d.rated ? { rated: true } : {}),
      ...(d.timeLimitHours !== undefined ? { timeLimitHours: d.timeLimitHours } : {}),
    });
    if (!r.ok) return refused(r);
    if (e.player !== d.createdBy) return { ok: false, error: 'the game was not created by the player the event names' };
    return r;
  }
  let r;
  switch (e.type) {
    case 'Game.SeatJoined': {
      const d = e.data as { seat: string; player: string; entropy: string };
      if (e.player !== d.player) return { ok: false, error: 'a seat was joined for another player' };
      r = decideJoin(engine, state, { player: d.player, seat: d.seat, entropy: d.entropy }, seed);
      break;
    }
    case 'Game.CommandAccepted':
      if (e.player === null || e.actor === null) return { ok: false, error: 'a command must name its player and seat' };
      r = decidePlay(engine, state, { player: e.player, seat: e.actor, command: (e.data as { command: unknown }).command, now: e.at }, seed);
      break;
    case 'Game.Resigned':
      if (e.player === null || e.actor === null) return { ok: false, error: 'a resignation must name its player and seat' };
      r = decideResign(engine, state, { player: e.player, seat: e.actor }, seed);
      break;
    case 'Game.TimedOut':
      // Claimed by a seated player, or ended by the scheduler (no player, no seat).
      if (e.player === null && e.actor === null) r = decideTimeOut(engine, state, { now: e.at }, seed);
      else if (e.player === null || e.actor === null) return { ok: false, error: 'a time claim names both its player and seat, or neither' };
      else r = decideClaimTimeout(engine, state, { player: e.player, seat: e.actor, now: e.at }, seed);
      break;
    case 'Game.AwayStarted':
    case 'Game.AwayEnded':
      if (e.player === null || e.actor === null) return { ok: false, error: 'time away must name its player and seat' };
      r = decideAway(state, {
        player: e.player,
        away: e.type === 'Game.AwayStarted',
        now: e.at,
        ...(typeof (e.data as { until?: unknown }).until === 'string' ? { until: (e.data as { until: string }).until } : {}),
      });
      break;
    case 'Game.Reminded':
      if (e.player !== null || e.actor !== null) return { ok: false, error: "a reminder is the scheduler's: it names no player and no seat" };
      r = decideReminders(engine, state, { now: e.at });
      break;
    case 'Game.StandingOrdersSet':
      if (e.player === null || e.actor === null) return { ok: false, error: 'standing orders must name their player and seat' };
      r = decideStandingOrders(engine, state, { player: e.player, seat: e.actor, orders: (e.data as { orders: StandingOrder[] }).orders, now: e.at }, seed);
      break;
    case 'Game.WindowLapsed': {
      // Sent by a seated player, or by the scheduler (no player, no seat).
      if ((e.player === null) !== (e.actor === null)) return { ok: false, error: 'a lapse names both its player and seat, or neither' };
      const window = (e.data as { window: string }).window;
      r = decideLapse(engine, state, { player: e.player, ...(e.actor !== null ? { seat: e.actor } : {}), window, now: e.at }, seed);
      break;
    }
    case 'Game.Cancelled':
      if (e.player === null) return { ok: false, error: 'a cancellation must name its player' };
      r = decideCancel(state, { player: e.player }, seed);
      break;
    default:
      return { ok: false, error: 'was not produced by any command, join or setup' };
  }
  return r.ok ? r : refused(r);
}
