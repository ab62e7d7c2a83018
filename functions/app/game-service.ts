import { createHash } from 'node:crypto';
import {
  canonicalJson,
  wasCancelled,
  canSee,
  chain,
  decideCancel,
  decideClaimTimeout,
  decideLapse,
  decideTimeOut,
  decideReminders,
  decideAway,
  decideStandingOrders,
  dueWindows,
  standingOrdersOf,
  type StandingOrder,
  decideDraft,
  decideJoin,
  draftRoles,
  decidePlay,
  decideResign,
  foldAll,
  GENESIS,
  KERNEL_STATE_VERSION,
  sealDraft,
  seedCommitment,
  summarize,
  viewerFor,
  type AnyEngine,
  type EngineCatalog,
  type EventEnvelope,
  type GameState,
  type GameSummary,
  type NewEvent,
  type Result,
  type RuleViolation,
  type Scene,
  type Seat,
  type TypedMessage,
  type Viewer,
} from '../../domain/kernel/index.js';
import { listing, resultInWords, sideAndPlayer, sideName, withSideNames } from './names.js';
import { seatClocks, type SeatClock } from './clocks.js';
import { commandKey } from '../store/event-batch.js';
import {
  AppError,
  ConcurrencyError,
  DuplicateCommandError,
  type Clock,
  type CommandRecord,
  type EventStore,
  type LoadedStream,
  type SeedSource,
  type Snapshot,
} from '../ports.js';

/**
 * The application service: load a game's stream (one read), fold it, let the kernel and the
 * engine decide, chain the new events and append them (one write). Everything a request
 * handler, the CLI or a test does to a game goes through here.
 */
export interface CommandResult {
  gameId: string;
  version: number;
  duplicate: boolean;
  /** Only the events the caller may see. */
  events: EventEnvelope[];
  /**
   * What the sender must do now that the command is in (or nothing, and whom the game waits for).
   * A repeated command answers with its first events and what to do as of now.
   */
  next: NextStep;
  /** The game's seats, so a client can name sides and players instead of seat ids. */
  seats: { id: string; name: string; player: string | null }[];
  /**
   * The sender's view of the game after the command (for a repeat, as of now): what GET
   * /v1/games/{id} would answer, so a client need not read it again (issue 16). Computed when
   * first read (withView).
   */
  readonly view: GameView;
}

/**
 * The answer to "what now?" after a command: the sender's own pending entries (a command can
 * open a phase where its sender must act again at once), or whom the game waits for.
 */
export interface NextStep {
  readonly status: GameSummary['status'];
  /** What the game asks of the sender's seats now; empty when nothing. */
  readonly yours: GameSummary['pending'];
  /** The other seats the game waits for. */
  readonly waitingFor: GameSummary['pending'];
  /** The same in one sentence, with side and player names. */
  readonly text: string;
}

/**
 * A command's result with the sender's view after it, computed only when read: the HTTP reply
 * reads it when the request asks (`?view=true`, as the web client does), so a client that does
 * not show it does not pay for it (legal commands and the picture's scene).
 */
function withView(r: Omit<CommandResult, 'view'>, compute: () => GameView): CommandResult {
  let view: GameView | undefined;
  return Object.defineProperty(r, 'view', { enumerable: true, get: () => (view ??= compute()) }) as CommandResult;
}

/** What the game asks of `player` now, and of whom else it waits (see NextStep). */
export function nextStepFor(summary: GameSummary, player: string | null): NextStep {
  // The scheduler (no player) is asked nothing.
  const yours = player === null ? [] : summary.pending.filter((p) => p.player === player);
  const waitingFor = summary.pending.filter((p) => p.player !== player);
  const who = (ps: GameSummary['pending']) => listing([...new Set(ps.map((p) => sideAndPlayer(summary.seats, p.seat)))]);
  let text: string;
  if (summary.status === 'ended') {
    text = `Nothing: the game is over, ${summary.outcome ? resultInWords(summary.outcome, summary.seats, wasCancelled(summary)) : 'ended'}.`;
  } else if (summary.status === 'open') {
    const free = summary.seats.filter((s) => !s.joined).map((s) => s.name);
    text = `Nothing yet: the game starts when every seat is taken (still free: ${listing(free)}).`;
  } else if (yours.length) {
    text = yours.map((p) => `Your move as ${sideName(summary.seats, p.seat)}: ${p.prompt}${p.deadline ? ` (until ${p.deadline})` : ''}`).join('\n');
  } else {
    text = waitingFor.length ? `Nothing: waiting for ${who(waitingFor)}.` : 'Nothing: the game waits for nobody.';
  }
  return { status: summary.status, yours, waitingFor, text };
}

const seatsOf = (state: GameState) => state.meta.seats.map(({ id, name, player }) => ({ id, name, player }));

export interface GameView {
  summary: GameSummary;
  seat: string | null;
  view: unknown;
  legalCommands: unknown[];
  pending: GameSummary['pending'];
  /**
   * For a seat of a game with sealed orders (kernel/draft.ts): the draft this view includes
   * (empty unless previewed), and which legal commands add a step to it or seal it.
   */
  drafting?: { steps: unknown[]; stepChoices: number[]; sealChoices: number[] };
  /** For a seat of a game whose engine offers standing orders: the seat's own orders (nobody else sees them). */
  standingOrders?: StandingOrder[];
  /** The same view as a picture (domain/kernel/scene.ts), when the engine draws one: board.svg, the terminal's board, the mail's PNG. */
  scene?: Scene;
  /** Each seat's remaining time at the server's time (games with a time control that are running). */
  clocks?: SeatClock[];
  /** Asked for with the view (`eventsAfter`): the events after that version the caller may see. */
  log?: EventsPage;
}

/** Events a caller may see, in order, after some version: up to a limit, `next` (the last seq) when more follow. */
export interface EventsPage {
  events: EventEnvelope[];
  version: number;
  next?: number;
}

export interface GameService {
  /** Creates a game; the creator also takes `seat` when given, in the same command. */
  create(
    player: string,
    input: {
      engine: string;
      options?: unknown;
      reserve?: Record<string, string>;
      seat?: string;
      entropy?: string;
      timeLimitHours?: number;
      timeControl?: unknown;
      weekendsOff?: boolean;
      windowShare?: number;
      rated?: boolean;
      /** A finished game of the same engine the creator played in, whose final state the engine adds to `options` (its carryOver). */
      carryOverFrom?: string;
      commandId: string;
    },
  ): Promise<CommandResult>;
  join(player: string, gameId: string, input: { seat?: string; entropy?: string; commandId: string }): Promise<CommandResult>;
  /** `draft`: steps drafted in private, sealed by `command` (see preview). */
  submit(
    player: string,
    gameId: string,
    input: { command: unknown; commandId: string; seat?: string; expectedVersion?: number; draft?: unknown[] },
  ): Promise<CommandResult>;
  resign(player: string, gameId: string, input: { commandId: string; seat?: string }): Promise<CommandResult>;
  /** A seat the game is not waiting for claims it once the others have let the time limit pass. */
  claimTimeout(player: string, gameId: string, input: { commandId: string; seat?: string }): Promise<CommandResult>;
  /** A seat replaces its standing orders (an empty list clears them); open windows they answer are answered at once. */
  setStandingOrders(player: string, gameId: string, input: { orders: unknown; commandId: string; seat?: string }): Promise<CommandResult>;
  /**
   * A seated player goes away (vacation: their clocks in this game stop until `until`, or until
   * they come back) or comes back. Recorded as Game.AwayStarted / AwayEnded, seen by everyone.
   */
  away(player: string, gameId: string, input: { away: boolean; until?: string; commandId: string }): Promise<CommandResult>;
  /** A seated player takes the default answer of a window whose deadline has passed. */
  lapse(player: string, gameId: string, input: { window: string; commandId: string; seat?: string }): Promise<CommandResult>;
  /**
   * What a scheduler calls at a deadline: every window of the game whose deadline has passed
   * takes its default answer (each lapse its own append), then a move that ran out ends the game
   * on time. Idempotent: what was answered, lapsed or ended already is left alone, so a late or
   * repeated call is harmless.
   */
  runDeadlines(gameId: string): Promise<{ lapsed: string[]; timedOut: boolean; reminded: string[] }>;
  /**
   * One deadline, for the scheduler's handler: one read of the game and, when something is
   * still due, one write conditional on the version read (a lapse, the time-out or the due
   * reminders). 'raced': a move got in first; 'nothing': nothing was due (a stale or repeated wake).
   */
  deadlineStep(gameId: string): Promise<DeadlineStep>;
  /** The creator withdraws a game that has not started (422 'game/not-open' once it has). */
  cancel(player: string, gameId: string, input: { commandId: string }): Promise<CommandResult>;
  /** With `eventsAfter`, also the events after that version the caller may see (`log`, up to 1,000), from the same load. */
  view(player: string | null, gameId: string, opts?: { seat?: string; eventsAfter?: number }): Promise<GameView>;
  /**
   * The caller's view as it would be with these draft steps taken: nothing is stored, and no
   * other seat can tell a preview happened. Send the draft with the sealing command to submit.
   */
  preview(player: string, gameId: string, input: { steps: unknown[]; seat?: string }): Promise<GameView>;
  events(
    player: string | null,
    gameId: string,
    opts?: { after?: number; limit?: number; seat?: string },
  ): Promise<EventsPage & { seats: { id: string; name: string; player: string | null }[] }>;
  /** The full log, for audit; only once the game has ended (409 'game/not-ended' before). */
  exportLog(player: string | null, gameId: string): Promise<EventEnvelope[]>;
}

/** What one scheduler wake did (GameService.deadlineStep). */
export type DeadlineStep =
  | { readonly done: 'lapsed'; readonly window: string }
  | { readonly done: 'timed-out' }
  | { readonly done: 'reminded'; readonly reminders: readonly string[] }
  | { readonly done: 'nothing' | 'raced' };

export interface GameServiceDeps {
  store: EventStore;
  engines: EngineCatalog;
  clock: Clock;
  seeds: SeedSource;
  /**
   * Write a snapshot when this many events have accumulated since the last. Defaults to the
   * store's `snapshotInterval` when it has one (DynamoEventStore), else 25. A value above the
   * store's interval still works but costs extra Query pages on every load.
   */
  snapshotEvery?: number;
  /** Times a command without expectedVersion is decided again after losing a race (default 5). */
  maxRetries?: number;
}

const DEFAULT_EVENTS_LIMIT = 100;
const MAX_EVENTS_LIMIT = 1000;
const RULE_PLATFORM = 'Fieldpost platform';

/** Violations that are the request's shape, not the rules: 400. Seat problems: 403. Everything else: 422. */
const BAD_REQUEST = new Set([
  'game/bad-options',
  'game/bad-time-limit',
  'game/bad-time-control',
  'game/bad-window-share',
  'standing/malformed',
  'command/malformed',
  'action/seat-required',
  'seat/entropy-too-long',
  'seat/reserved-twice',
  'carry-over/bad-options',
  'carry-over/tiles-given',
]);
const FORBIDDEN = new Set(['action/not-seated', 'action/not-your-seat', 'action/not-creator']);

/**
 * A refusal about time names the seats it waits for ("p1 has until …") by side and player, as
 * everything people read does. Refusals that ask for a seat id (which seat to join or act for)
 * keep their ids: the player types them back.
 */
function inWords(v: RuleViolation, state: GameState): RuleViolation {
  if (!v.code.startsWith('time/')) return v;
  const seats = state.meta.seats.map((s) => ({ id: s.id, name: `${s.name} (${s.player ?? 'open seat'})`, player: s.player }));
  return { ...v, message: withSideNames(v.message, seats) };
}

export function violationError(v: RuleViolation): AppError {
  if (BAD_REQUEST.has(v.code)) return new AppError(400, v.code, v.message, v.rule);
  return AppError.fromViolation(v, FORBIDDEN.has(v.code) ? 403 : 422);
}

/**
 * A game's id is derived from its creator and the create command's id, so a retried create
 * lands on the same partition and is recognised as a duplicate by the conditional write,
 * without a lookup table or an extra read.
 */
export function gameIdFor(player: string, commandId: string): string {
  return createHash('sha256').update(`create\u0000${player}\u0000${commandId}`).digest('base64url').slice(0, 22);
}

const COMMAND_ID = /^[\x21-\x7e]{1,128}$/;
const GAME_ID = /^[A-Za-z0-9_-]{1,100}$/;

function checkCommandId(commandId: string): void {
  if (typeof commandId !== 'string' || !COMMAND_ID.test(commandId)) {
    throw new AppError(400, 'command/bad-id', 'commandId must be 1 to 128 printable characters without spaces (a UUID is ideal)', RULE_PLATFORM);
  }
}

interface Loaded {
  readonly stream: LoadedStream;
  readonly engine: AnyEngine;
  readonly state: GameState;
  /** Version of the snapshot the fold started from (0 when none was usable). */
  readonly snapVersion: number;
  /** Events held in memory, in order: seqs (memFrom, version]. */
  readonly events: readonly EventEnvelope[];
  readonly memFrom: number;
}

type Decision = (l: Loaded, at: string) => Result<NewEvent[], RuleViolation>;

/**
 * Whether a request sent again with a commandId already used is that same command: judged from
 * the events the first one produced (what they record of its kind, seat, command and draft), so
 * nothing more is stored. The first events are the command's own kernel event:
 * Game.Created / SeatJoined / CommandAccepted / Resigned / TimedOut / Cancelled.
 */
type SameCommand = (first: readonly EventEnvelope[], l: Loaded) => boolean;

const dataOf = (e: EventEnvelope | undefined, type: string): Record<string, unknown> | undefined =>
  e !== undefined && e.type === type && e.data !== null && typeof e.data === 'object' ? (e.data as Record<string, unknown>) : undefined;

/** The seat a request named, if it named one, is the seat the first command acted for. */
const seatMatches = (asked: Seat | undefined, acted: unknown) => asked === undefined || asked === acted;

function sameJoin(e: EventEnvelope | undefined, player: string, input: { seat?: Seat; entropy?: string }): boolean {
  const d = dataOf(e, 'Game.SeatJoined');
  return d !== undefined && d['player'] === player && seatMatches(input.seat, d['seat']) && d['entropy'] === (input.entropy ?? '');
}

/** The command the kernel would record for this request (the sealed draft, when there is one), as canonical JSON; undefined if it could never have been accepted. */
function recordedForm(engine: AnyEngine, command: unknown, draft: readonly unknown[] | undefined): string | undefined {
  const parsed = engine.commandSchema.safeParse(command);
  if (!parsed.success) return undefined;
  if (draft === undefined) return canonicalJson(parsed.data);
  if (!engine.drafts) return undefined;
  const sealed = sealDraft(engine, parsed.data as TypedMessage, draft);
  return sealed.ok ? canonicalJson(sealed.value) : undefined;
}

/** A snapshot of `state` under the engine's rules and the kernel's state shape, with the keys the store may keep once per game. */
function snapshotOf(engine: AnyEngine, state: GameState): Snapshot {
  return {
    version: state.meta.version,
    engineVersion: engine.version,
    kernelVersion: KERNEL_STATE_VERSION,
    state,
    ...(engine.staticState ? { staticKeys: engine.staticState } : {}),
  };
}

export function createGameService(deps: GameServiceDeps): GameService {
  const { store, engines, clock, seeds } = deps;
  // A store that pages its loads by a snapshot interval (the DynamoDB one) sets the default, so the two agree.
  const snapshotEvery = deps.snapshotEvery ?? (store as { snapshotInterval?: number }).snapshotInterval ?? 25;
  if (!Number.isInteger(snapshotEvery) || snapshotEvery < 1) throw new Error(`snapshotEvery must be a positive integer, got ${snapshotEvery}`);
  const maxRetries = deps.maxRetries ?? 5;

  const notFound = (gameId: string) => new AppError(404, 'game/not-found', `There is no game ${gameId}`);

  /**
   * The newest state this server folded of each game (the most recently used games): a load then
   * folds only the events after it, not the whole tail since the snapshot. A state is a value no
   * rule changes in place (evolve returns a new one), and it is used only when the loaded events
   * lead to it: the event at its version has its hash.
   */
  const folded = new Map<string, GameState>();
  const FOLDED_GAMES = 256;
  function rememberState(gameId: string, state: GameState): void {
    folded.delete(gameId);
    folded.set(gameId, state);
    if (folded.size > FOLDED_GAMES) folded.delete(folded.keys().next().value!);
  }
  function foldLoaded(gameId: string, engine: AnyEngine, events: readonly EventEnvelope[], from: GameState | undefined): GameState | undefined {
    const base = from?.meta.version ?? 0;
    const memo = folded.get(gameId);
    const at = memo?.meta.version ?? 0;
    const e = events[at - base - 1];
    const state =
      memo && memo.meta.engine === engine.id && at > base && e?.seq === at && e.hash === memo.meta.hash
        ? foldAll(engine, events.slice(at - base), memo)
        : foldAll(engine, events, from);
    if (state) rememberState(gameId, state);
    return state;
  }

  /**
   * The game as stored. Deadlines and exports read strongly consistent (an audit exports the
   * whole log); a command reads eventually consistent first and consistent only when that read
   * was not the newest (run). Views, previews and event feeds pass `consistent: false`: half the
   * read units, and at worst a moment old, which the version in every view says (a client that
   * just sent a command has its result in the reply).
   */
  async function loadGame(gameId: string, consistent = true): Promise<Loaded> {
    if (typeof gameId !== 'string' || !GAME_ID.test(gameId)) throw notFound(String(gameId));
    const stream = await store.load(gameId, { consistent });
    if (!stream) throw notFound(gameId);
    const engineId = stream.snapshot ? stream.snapshot.state.meta.engine : (stream.tail[0]?.data as { engine?: string } | undefined)?.engine;
    const engine = engineId === undefined ? undefined : await engines.load(engineId);
    if (!engine) throw new AppError(500, 'engine/missing', `Game ${gameId} is played with ${engineId ?? 'an unknown engine'}, which this server no longer has`);
    let snapshot: Snapshot | undefined = stream.snapshot;
    let events: readonly EventEnvelope[] = stream.tail;
    if (snapshot && (snapshot.engineVersion !== engine.version || snapshot.kernelVersion !== KERNEL_STATE_VERSION)) {
      // Rules or the kernel's state shape changed since the snapshot was taken: refold from the start. The next append writes a fresh one.
      const older = await store.readEvents(gameId, 0, snapshot.version, { upTo: snapshot.version });
      events = [...older, ...stream.tail];
      snapshot = undefined;
    }
    const state = foldLoaded(gameId, engine, events, snapshot?.state);
    if (!state) throw new Error(`game ${gameId} has no events`);
    return { stream, engine, state, snapVersion: snapshot?.version ?? 0, events, memFrom: snapshot?.version ?? 0 };
  }

  /** Where a command already applied is remembered on a normal load: HEAD's recent list or the tail. */
  function knownCommand(l: Loaded, commandId: string): CommandRecord | undefined {
    // A player's string never indexes a plain object: '__proto__' or 'constructor' would find Object's own members.
    // The tip layout remembers commands by a short key (store/event-batch.ts), the older one by id.
    const key = commandKey(commandId);
    const r = Object.hasOwn(l.stream.recent, commandId) ? l.stream.recent[commandId] : Object.hasOwn(l.stream.recent, key) ? l.stream.recent[key] : undefined;
    if (r) return r;
    let from = 0;
    let to = 0;
    for (const e of l.events) {
      if (e.commandId !== commandId) continue;
      if (!from) from = e.seq;
      to = e.seq;
    }
    return from ? { from, to } : undefined;
  }

  const visible = (events: readonly EventEnvelope[], state: GameState, player: string | null, seat?: Seat): EventEnvelope[] => {
    const viewer = viewerFor(state.meta, player, seat);
    const ended = state.meta.status === 'ended';
    return events.filter((e) => canSee(e.visibility, viewer, ended));
  };

  async function eventsBetween(l: Loaded, from: number, to: number): Promise<EventEnvelope[]> {
    if (from > l.memFrom) return l.events.filter((e) => e.seq >= from && e.seq <= to);
    return store.readEvents(l.stream.gameId, from - 1, to - from + 1);
  }

  async function duplicate(l: Loaded, rec: CommandRecord, player: string | null, seat: Seat | undefined, same: SameCommand): Promise<CommandResult> {
    const evs = await eventsBetween(l, rec.from, rec.to);
    // The id was used by someone else: this caller's command was never applied, so it is no duplicate.
    if (evs[0] !== undefined && evs[0].player !== player) {
      throw new AppError(
        409,
        'command/id-in-use',
        'Another player already used this commandId in this game; your command was not applied. Send it again with a new commandId',
        RULE_PLATFORM,
      );
    }
    // Like an idempotency key: the same id with a different request is a mistake, never a silent no-op.
    if (!same(evs, l)) {
      throw new AppError(
        409,
        'command/id-reused',
        `You already used this commandId for a different command in this game (${evs[0]?.type ?? 'unknown'} at version ${rec.from}); this one was not applied. Give every new command a new commandId`,
        RULE_PLATFORM,
      );
    }
    return withView(
      {
        gameId: l.stream.gameId,
        version: rec.to,
        duplicate: true,
        events: visible(evs, l.state, player, seat),
        next: nextStepFor(summarize(l.engine, l.state), player),
        seats: seatsOf(l.state),
      },
      () => currentView(l.engine, l.state, player, seat),
    );
  }

  /** Load, decide, append; reload and decide again when another command got in first. */
  async function run(
    gameId: string,
    player: string | null,
    commandId: string,
    seat: Seat | undefined,
    expectedVersion: number | undefined,
    decide: Decision,
    same: SameCommand,
  ): Promise<CommandResult> {
    checkCommandId(commandId);
    if (expectedVersion !== undefined && (!Number.isInteger(expectedVersion) || expectedVersion < 0)) {
      throw new AppError(400, 'version/bad', 'expectedVersion must be a whole number of events, 0 or more');
    }
    // The first load reads eventually consistent, half the read units: the append is conditional on
    // the version read, so a read a moment old costs a second load, never a wrong move. A conflict or
    // a refusal is answered only from the newest state: one small consistent read (isCurrent) says
    // whether the first load was it, else a consistent load decides again. A repeat is answered from
    // any read that holds the command.
    let consistent = false;
    for (let attempt = 0; ;) {
      const l = await loadGame(gameId, consistent);
      const recheck = !consistent;
      consistent = true;
      const known = knownCommand(l, commandId);
      if (known) return duplicate(l, known, player, seat, same);
      const { version, hash } = l.state.meta;
      if (expectedVersion !== undefined && expectedVersion !== version) {
        if (recheck && !(await store.isCurrent(gameId, version))) continue;
        // A retry of a command applied long ago also arrives with a stale version: answer it as a duplicate.
        const rec = await store.getCommand(gameId, commandId);
        if (rec) return duplicate(l, rec, player, seat, same);
        throw conflict(expectedVersion, version);
      }
      const at = clock.now();
      const decided = decide(l, at);
      if (!decided.ok) {
        if (recheck && !(await store.isCurrent(gameId, version))) continue;
        // An old command sent again may no longer be legal: it is still a duplicate, not an error.
        const rec = await store.getCommand(gameId, commandId);
        if (rec) return duplicate(l, rec, player, seat, same);
        throw violationError(inWords(decided.error, l.state));
      }
      const envs = chain({ version, hash }, decided.value, { gameId, commandId, at, player, seed: l.stream.seed });
      const next = foldAll(l.engine, envs, l.state)!;
      const summary = summarize(l.engine, next);
      try {
        await store.append({
          gameId,
          expectedVersion: version,
          events: envs,
          commandId,
          summary,
          recent: l.stream.recent,
          ...snapshotFor(l, next),
        });
      } catch (e) {
        if (e instanceof DuplicateCommandError) return duplicate(await loadGame(gameId), e.record, player, seat, same);
        if (!(e instanceof ConcurrencyError)) throw e;
        // The read was a moment old: load the newest and decide again.
        if (recheck) continue;
        if (expectedVersion !== undefined) {
          const rec = await store.getCommand(gameId, commandId);
          if (rec) return duplicate(await loadGame(gameId), rec, player, seat, same);
          throw conflict(expectedVersion);
        }
        if (attempt >= maxRetries) throw new AppError(409, 'version/conflict', 'The game is busy: other commands kept arriving first. Try again.');
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
        attempt++;
        continue;
      }
      rememberState(gameId, next);
      return withView(
        {
          gameId,
          version: next.meta.version,
          duplicate: false,
          events: visible(envs, next, player, seat),
          next: nextStepFor(summary, player),
          seats: seatsOf(next),
        },
        () => currentView(l.engine, next, player, seat),
      );
    }
  }

  function snapshotFor(l: Loaded, next: GameState): { snapshot?: Snapshot } {
    // A snapshot this server could not use (older rules) is replaced at once; otherwise the store says
    // when, if it counts what its loads read (the append layout), or every snapshotEvery events.
    const stale = l.stream.snapshot !== undefined && l.snapVersion !== l.stream.snapshot.version;
    if (!stale && !(l.stream.snapshotDue ?? next.meta.version - l.snapVersion >= snapshotEvery)) return {};
    return { snapshot: snapshotOf(l.engine, next) };
  }

  /**
   * The one deadline to settle now, earliest in kind: a window that ran out takes its default,
   * then a move that ran out ends the game, then a reminder. Each has a command id of its own
   * (a window's opening, the game's one time-out, a wait's reminder level), so a repeated or
   * racing scheduler call is a duplicate, never a second event.
   */
  function dueStep(l: Loaded, at: string): { commandId: string; events: NewEvent[]; result: DeadlineStep } | undefined {
    const seed = l.stream.seed;
    const window = dueWindows(l.engine, l.state, at)[0];
    if (window) {
      const lapsed = decideLapse(l.engine, l.state, { player: null, window: window.window.id, now: at }, seed);
      if (!lapsed.ok) return undefined;
      const commandId = `lapse:${createHash('sha256').update(`${window.window.id}\u0000${window.since}`).digest('base64url').slice(0, 32)}`;
      return { commandId, events: lapsed.value, result: { done: 'lapsed', window: window.window.id } };
    }
    const out = decideTimeOut(l.engine, l.state, { now: at }, seed);
    if (out.ok) return { commandId: 'time-out', events: out.value, result: { done: 'timed-out' } };
    const reminded = decideReminders(l.engine, l.state, { now: at });
    if (!reminded.ok) return undefined;
    const sent = reminded.value.map((e) => e.data as { seat: string; level: string });
    const waits = sent.map((d) => `${d.seat}\u0000${d.level}\u0000${l.state.meta.waiting.find((w) => w.seat === d.seat)?.since ?? ''}`).join('\u0001');
    const commandId = `remind:${createHash('sha256').update(waits).digest('base64url').slice(0, 32)}`;
    return { commandId, events: reminded.value, result: { done: 'reminded', reminders: sent.map((d) => `${d.seat} ${d.level}`) } };
  }

  async function deadlineStep(gameId: string): Promise<DeadlineStep> {
    const l = await loadGame(gameId);
    if (l.state.meta.status !== 'active') return { done: 'nothing' };
    const at = clock.now();
    const step = dueStep(l, at);
    if (!step || knownCommand(l, step.commandId)) return { done: 'nothing' };
    const { version, hash } = l.state.meta;
    const envs = chain({ version, hash }, step.events, { gameId, commandId: step.commandId, at, player: null, seed: l.stream.seed });
    const next = foldAll(l.engine, envs, l.state)!;
    try {
      // Conditional on the version just read: a move that got in first wins, and the stream schedules again from it.
      await store.append({
        gameId,
        expectedVersion: version,
        events: envs,
        commandId: step.commandId,
        summary: summarize(l.engine, next),
        recent: l.stream.recent,
        ...snapshotFor(l, next),
      });
    } catch (e) {
      if (e instanceof DuplicateCommandError) return { done: 'nothing' };
      if (e instanceof ConcurrencyError) return { done: 'raced' };
      throw e;
    }
    return step.result;
  }

  const conflict = (expected: number, actual?: number) =>
    new AppError(
      409,
      'version/conflict',
      actual === undefined
        ? `Another command changed the game after version ${expected}; reload and decide again`
        : `The game is at version ${actual}, not ${expected}; reload and decide again`,
    );

  function heldSeat(state: GameState, player: string | null, seat?: Seat): Seat | null {
    if (player === null) return null;
    const held = state.meta.seats.filter((s) => s.joined && s.player === player).map((s) => s.id);
    if (seat !== undefined) return held.includes(seat) ? seat : null;
    return held[0] ?? null;
  }

  /** A viewer's view of `game` (the game's state, or a draft's scratch copy of it). */
  /** The events after `after` that `player` may see, up to `limit`; `next` when more follow. */
  async function eventsPage(l: Loaded, player: string | null, opts: { after?: number; limit?: number; seat?: string }): Promise<EventsPage> {
    const { state } = l;
    const version = state.meta.version;
    const after = Math.max(0, Math.floor(opts.after ?? 0));
    const limit = Math.min(MAX_EVENTS_LIMIT, Math.max(1, Math.floor(opts.limit ?? DEFAULT_EVENTS_LIMIT)));
    // Events after the snapshot came with the load; older ones cost one more query, of the older items only.
    const raw =
      after >= l.memFrom
        ? l.events.filter((e) => e.seq > after).slice(0, limit)
        : [
            ...(await store.readEvents(l.stream.gameId, after, limit, { upTo: l.memFrom, consistent: false })).filter((e) => e.seq <= l.memFrom),
            ...l.events.filter((e) => e.seq > l.memFrom),
          ].slice(0, limit);
    const last = raw[raw.length - 1]?.seq;
    const next = last !== undefined && last < version ? last : undefined;
    return { events: visible(raw, state, player, opts.seat), version, ...(next !== undefined ? { next } : {}) };
  }

  /** What GET /v1/games/{id} answers `player` (acting as `seat`, if given) on this state, clocks as of now. */
  function currentView(engine: AnyEngine, state: GameState, player: string | null, seat: Seat | undefined): GameView {
    const v = viewOf(engine, state, state.game, viewerFor(state.meta, player, seat), heldSeat(state, player, seat), []);
    const clocks = seatClocks(v.summary, clock.now());
    return clocks.length ? { ...v, clocks } : v;
  }

  function viewOf(engine: AnyEngine, state: GameState, game: unknown, viewer: Viewer, seat: Seat | null, steps: readonly unknown[]): GameView {
    const summary = summarize(engine, state);
    const acting = viewer.kind === 'seat' && state.meta.status === 'active';
    const legalCommands = acting ? [...engine.legalCommands(game, viewer.seat)] : [];
    const own = viewer.kind === 'seat' && engine.standingOrders ? { standingOrders: [...standingOrdersOf(state.meta, viewer.seat)] } : {};
    const base: GameView = {
      summary,
      seat,
      view: engine.view(game, viewer),
      legalCommands,
      pending: summary.pending,
      ...own,
      ...(engine.scene ? { scene: engine.scene(game, viewer) } : {}),
    };
    if (!acting || !engine.drafts) return base;
    const roles = draftRoles(engine, legalCommands);
    return { ...base, drafting: { steps: [...steps], stepChoices: roles.steps, sealChoices: roles.seals } };
  }

  function checkViewSeat(state: GameState, player: string | null, seat?: Seat): void {
    if (seat === undefined || heldSeat(state, player, seat) !== null) return;
    throw new AppError(403, player === null ? 'action/not-seated' : 'action/not-your-seat', `You do not hold seat "${seat}" in this game`, RULE_PLATFORM);
  }

  /** The options of a game carrying over `from`: resolved here, so Game.Created holds them explicitly and the export verifies alone. */
  async function carriedOptions(engine: AnyEngine, player: string, from: string, options: unknown): Promise<unknown> {
    if (!engine.carryOver) throw new AppError(400, 'carry-over/unsupported', `${engine.id} carries nothing over between games`, RULE_PLATFORM);
    const { state } = await loadGame(from);
    if (state.meta.engine !== engine.id)
      throw new AppError(400, 'carry-over/wrong-engine', `Game ${from} is played with ${state.meta.engine}, not ${engine.id}`, RULE_PLATFORM);
    if (!state.meta.seats.some((s) => s.joined && s.player === player))
      throw new AppError(403, 'carry-over/not-a-player', `You did not play in game ${from}`, RULE_PLATFORM);
    if (state.meta.status !== 'ended') throw new AppError(409, 'carry-over/not-finished', `Game ${from} has not ended`, RULE_PLATFORM);
    const r = engine.carryOver(state.game, options);
    if (!r.ok) throw violationError(r.error);
    return r.value;
  }

  return {
    async create(player, request) {
      checkCommandId(request.commandId);
      const engine = await engines.load(request.engine);
      if (!engine) throw new AppError(400, 'engine/unknown', `No game system "${request.engine}"; this server has ${engines.ids().join(', ') || 'none'}`);
      const input =
        request.carryOverFrom === undefined ? request : { ...request, options: await carriedOptions(engine, player, request.carryOverFrom, request.options) };
      // Only a creation builds zod schemas (the options', the time control's): a function that never creates a game loads them never (issue 16).
      const { decideCreate } = await import('../../domain/kernel/create.js');
      const gameId = gameIdFor(player, input.commandId);
      const seed = seeds.newSeed();
      const at = clock.now();
      const created = decideCreate(engine, {
        gameId,
        options: input.options,
        createdBy: player,
        commitment: seedCommitment(seed),
        ...(input.reserve ? { reserve: input.reserve } : {}),
        ...(input.timeLimitHours !== undefined ? { timeLimitHours: input.timeLimitHours } : {}),
        ...(input.windowShare !== undefined ? { windowShare: input.windowShare } : {}),
        ...(input.timeControl !== undefined ? { timeControl: input.timeControl } : {}),
        ...(input.weekendsOff !== undefined ? { weekendsOff: input.weekendsOff } : {}),
        ...(input.rated ? { rated: true } : {}),
      });
      if (!created.ok) throw violationError(created.error);
      const meta = { gameId, commandId: input.commandId, at, player, seed };
      let events = chain(GENESIS, created.value, meta);
      let state = foldAll(engine, events)!;
      if (input.seat !== undefined) {
        const joined = decideJoin(engine, state, { player, seat: input.seat, ...(input.entropy !== undefined ? { entropy: input.entropy } : {}) }, seed);
        if (!joined.ok) throw violationError(joined.error);
        const more = chain({ version: state.meta.version, hash: state.meta.hash }, joined.value, meta);
        events = [...events, ...more];
        state = foldAll(engine, more, state)!;
      }
      const summary = summarize(engine, state);
      try {
        await store.append({
          gameId,
          expectedVersion: 0,
          events,
          commandId: input.commandId,
          summary,
          seed,
          recent: {},
          ...(state.meta.version >= snapshotEvery ? { snapshot: snapshotOf(engine, state) } : {}),
        });
      } catch (e) {
        // The same create sent again: the game already exists under the derived id.
        if (!(e instanceof DuplicateCommandError || e instanceof ConcurrencyError)) throw e;
        const l = await loadGame(gameId);
        const rec = e instanceof DuplicateCommandError ? e.record : (knownCommand(l, input.commandId) ?? (await store.getCommand(gameId, input.commandId)));
        if (!rec) throw new AppError(409, 'game/exists', `Game ${gameId} already exists`);
        return duplicate(l, rec, player, input.seat, (first) => {
          const d = dataOf(first[0], 'Game.Created');
          if (!d || d['engine'] !== input.engine || d['createdBy'] !== player) return false;
          // The game the first create recorded, decided again from this request (its options parsed the same way).
          const again = decideCreate(engine, {
            gameId,
            options: input.options,
            createdBy: player,
            commitment: d['commitment'] as string,
            ...(input.reserve ? { reserve: input.reserve } : {}),
            ...(input.timeLimitHours !== undefined ? { timeLimitHours: input.timeLimitHours } : {}),
          });
          const recreated = again.ok ? again.value[0]?.data : undefined;
          if (recreated === undefined || canonicalJson({ ...(recreated as object), engineVersion: d['engineVersion'] }) !== canonicalJson(d)) return false;
          return input.seat === undefined
            ? first[1]?.type !== 'Game.SeatJoined'
            : sameJoin(first[1], player, { seat: input.seat, ...(input.entropy !== undefined ? { entropy: input.entropy } : {}) });
        });
      }
      return withView(
        {
          gameId,
          version: state.meta.version,
          duplicate: false,
          events: visible(events, state, player, input.seat),
          next: nextStepFor(summary, player),
          seats: seatsOf(state),
        },
        () => currentView(engine, state, player, input.seat),
      );
    },

    join(player, gameId, input) {
      return run(
        gameId,
        player,
        input.commandId,
        input.seat,
        undefined,
        (l) =>
          decideJoin(
            l.engine,
            l.state,
            { player, ...(input.seat !== undefined ? { seat: input.seat } : {}), ...(input.entropy !== undefined ? { entropy: input.entropy } : {}) },
            l.stream.seed,
          ),
        (first) => sameJoin(first[0], player, input),
      );
    },

    submit(player, gameId, input) {
      return run(
        gameId,
        player,
        input.commandId,
        input.seat,
        input.expectedVersion,
        (l, at) =>
          decidePlay(
            l.engine,
            l.state,
            {
              player,
              command: input.command,
              now: at,
              ...(input.seat !== undefined ? { seat: input.seat } : {}),
              ...(input.draft !== undefined ? { draft: input.draft } : {}),
            },
            l.stream.seed,
          ),
        (first, l) => {
          const d = dataOf(first[0], 'Game.CommandAccepted');
          if (!d || !seatMatches(input.seat, first[0]!.actor)) return false;
          return recordedForm(l.engine, input.command, input.draft) === canonicalJson(d['command']);
        },
      );
    },

    resign(player, gameId, input) {
      return run(
        gameId,
        player,
        input.commandId,
        input.seat,
        undefined,
        (l) => decideResign(l.engine, l.state, { player, ...(input.seat !== undefined ? { seat: input.seat } : {}) }, l.stream.seed),
        (first) => {
          const d = dataOf(first[0], 'Game.Resigned');
          return d !== undefined && seatMatches(input.seat, d['seat']);
        },
      );
    },

    claimTimeout(player, gameId, input) {
      return run(
        gameId,
        player,
        input.commandId,
        input.seat,
        undefined,
        (l, at) => decideClaimTimeout(l.engine, l.state, { player, now: at, ...(input.seat !== undefined ? { seat: input.seat } : {}) }, l.stream.seed),
        (first) => {
          const d = dataOf(first[0], 'Game.TimedOut');
          return d !== undefined && seatMatches(input.seat, d['claimedBy']);
        },
      );
    },

    setStandingOrders(player, gameId, input) {
      return run(
        gameId,
        player,
        input.commandId,
        input.seat,
        undefined,
        (l, at) =>
          decideStandingOrders(
            l.engine,
            l.state,
            { player, orders: input.orders, now: at, ...(input.seat !== undefined ? { seat: input.seat } : {}) },
            l.stream.seed,
          ),
        (first) => {
          const d = dataOf(first[0], 'Game.StandingOrdersSet');
          return d !== undefined && seatMatches(input.seat, d['seat']) && canonicalJson(d['orders']) === canonicalJson(input.orders);
        },
      );
    },

    away(player, gameId, input) {
      return run(
        gameId,
        player,
        input.commandId,
        undefined,
        undefined,
        (l, at) => decideAway(l.state, { player, away: input.away, now: at, ...(input.until !== undefined ? { until: input.until } : {}) }),
        (first) => dataOf(first[0], input.away ? 'Game.AwayStarted' : 'Game.AwayEnded') !== undefined,
      );
    },

    lapse(player, gameId, input) {
      return run(
        gameId,
        player,
        input.commandId,
        input.seat,
        undefined,
        (l, at) =>
          decideLapse(l.engine, l.state, { player, window: input.window, now: at, ...(input.seat !== undefined ? { seat: input.seat } : {}) }, l.stream.seed),
        (first) => dataOf(first[0], 'Game.WindowLapsed')?.['window'] === input.window,
      );
    },

    deadlineStep,

    async runDeadlines(gameId) {
      const out = { lapsed: [] as string[], timedOut: false, reminded: [] as string[] };
      // Each step settles one deadline; a bounded loop, since a game has few windows open at once.
      for (let i = 0; i < 50; i++) {
        const r = await deadlineStep(gameId);
        if (r.done === 'nothing') break;
        if (r.done === 'lapsed') out.lapsed.push(r.window);
        if (r.done === 'timed-out') out.timedOut = true;
        if (r.done === 'reminded') out.reminded.push(...r.reminders);
      }
      return out;
    },

    cancel(player, gameId, input) {
      return run(
        gameId,
        player,
        input.commandId,
        undefined,
        undefined,
        (l) => decideCancel(l.state, { player }, l.stream.seed),
        (first) => dataOf(first[0], 'Game.Cancelled')?.['by'] === player,
      );
    },

    async view(player, gameId, opts = {}) {
      const l = await loadGame(gameId, false);
      const { state, engine } = l;
      if (state.meta.status !== 'ended') checkViewSeat(state, player, opts.seat);
      const v = currentView(engine, state, player, opts.seat);
      if (opts.eventsAfter === undefined) return v;
      // A page opening the game: its log's new part from the same load (issue 16: one request, one read).
      return {
        ...v,
        log: await eventsPage(l, player, { after: opts.eventsAfter, limit: MAX_EVENTS_LIMIT, ...(opts.seat !== undefined ? { seat: opts.seat } : {}) }),
      };
    },

    async preview(player, gameId, input) {
      const l = await loadGame(gameId, false);
      const drafted = decideDraft(l.engine, l.state, {
        player,
        steps: input.steps,
        now: clock.now(),
        ...(input.seat !== undefined ? { seat: input.seat } : {}),
      });
      if (!drafted.ok) throw violationError(drafted.error);
      const { seat } = drafted.value;
      return viewOf(l.engine, l.state, drafted.value.game, { kind: 'seat', seat }, seat, drafted.value.steps);
    },

    async events(player, gameId, opts = {}) {
      const l = await loadGame(gameId, false);
      if (l.state.meta.status !== 'ended') checkViewSeat(l.state, player, opts.seat);
      return { ...(await eventsPage(l, player, opts)), seats: seatsOf(l.state) };
    },

    async exportLog(_player, gameId) {
      const l = await loadGame(gameId);
      if (l.state.meta.status !== 'ended')
        throw new AppError(
          409,
          'game/not-ended',
          'A game can be exported for audit once it has ended; until then its seed and hidden events stay secret',
          RULE_PLATFORM,
        );
      if (l.memFrom === 0) return [...l.events];
      return store.readEvents(gameId, 0, l.state.meta.version);
    },
  };
}
