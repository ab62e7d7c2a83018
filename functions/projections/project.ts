import { createHash } from 'node:crypto';
import { canonicalJson, wasCancelled, type GameSummary, type Outcome } from '../../domain/kernel/index.js';
import { newlyAsked } from './asked.js';
import { inboxEntrySk, inboxPk, LOBBY_PK, lobbyPageSk, summaryPk, SUMMARY_SK } from './keys.js';
import { seatClocks, type SeatClock } from '../app/clocks.js';

/**
 * The read models, as pure functions of the public GameSummary sequence. The stream path
 * (one HEAD record per append) and the rebuild (folding the events, one summary per
 * append) both call projectGame with the previous projection, so they give the same items.
 * Nothing here reads a clock: every time comes from the summaries.
 */

/**
 * Where one entry of a game is (an inbox entry has `player`, the lobby entry none), and its
 * stamp: the version, hash and time of the append that last changed the entry's content.
 * `digest` is a hash of that content (the entry without its key and stamp). An append that
 * leaves an entry's content as it was keeps the stamp, so the item is the same and is not
 * written again; the rebuild folds the same summaries and gets the same stamps.
 */
export interface Entry {
  readonly player?: string;
  readonly sk: string;
  readonly digest: string;
  readonly version: number;
  readonly hash?: string;
  readonly updatedAt: string;
}

/** When a seat became pending: the time and version of the append that made it so. */
export interface Since {
  readonly at: string;
  readonly version: number;
}

export interface SummaryModel {
  readonly pk: string;
  readonly sk: typeof SUMMARY_SK;
  readonly type: 'summary';
  readonly gameId: string;
  readonly version: number;
  readonly summary: GameSummary;
  /** Per pending seat, since when it has been pending. Public: anyone can see whose move it is. */
  readonly pendingSince: Readonly<Record<string, Since>>;
  /** The game's inbox and lobby entries (absent on a SUMMARY written before issue 16's one item per entry). */
  readonly entries?: readonly Entry[];
}

export interface SeatRef {
  readonly seat: string;
  readonly name: string;
  readonly player: string | null;
}

export interface Asked extends SeatRef {
  readonly kind: 'move' | 'sealed' | 'reaction';
  readonly prompt: string;
  readonly since: string;
  readonly sinceVersion: number;
  readonly deadline?: string;
}

export interface InboxModel {
  readonly pk: string;
  /** inboxEntrySk of the item (its listing key is inboxPageSk). */
  readonly sk: string;
  readonly type: 'inbox';
  readonly gameId: string;
  readonly player: string;
  readonly title: string;
  readonly engine: string;
  readonly status: GameSummary['status'];
  /** The stamp (Entry): the version, hash and time of the append that last changed this entry. */
  readonly version: number;
  readonly hash: string;
  readonly createdBy: string;
  readonly updatedAt: string;
  /** The seats this player holds or is invited to. */
  readonly seats: readonly { id: string; name: string; joined: boolean }[];
  /** A seat is reserved for this player and not yet taken. */
  readonly invited: boolean;
  readonly yourMove: boolean;
  /** Your move: since when; otherwise since when the others have been asked (or the last change). */
  readonly since: string;
  readonly whoseMove: readonly Asked[];
  readonly opponents: readonly SeatRef[];
  readonly outcome?: Outcome & { readonly result: GameResult };
  /** Each seat's clock as of `updatedAt` (a running game with a time control); the inbox route counts `leftMs` again at read time. */
  readonly clocks?: readonly SeatClock[];
}

export interface LobbyModel {
  readonly pk: typeof LOBBY_PK;
  /** lobbyPageSk of the item. */
  readonly sk: string;
  readonly type: 'lobby';
  readonly gameId: string;
  readonly title: string;
  readonly engine: string;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly version: number;
  readonly freeSeats: readonly { id: string; name: string }[];
  readonly seats: readonly SeatRef[];
  /** The result moves both players' ratings: a joiner knows before taking a seat. */
  readonly rated?: true;
}

export interface GameProjection {
  readonly summary: SummaryModel;
  readonly inbox: readonly InboxModel[];
  /** Undefined: the game is not (or no longer) in the lobby. */
  readonly lobby: LobbyModel | undefined;
  /** Players who had an inbox entry for this game and no longer do. */
  readonly dropInbox: readonly string[];
}

const playersOf = (s: GameSummary): string[] => [...new Set(s.seats.map((x) => x.player).filter((p): p is string => p !== null))].sort();

const deadlineOf = (p: object): string | undefined => {
  const d = (p as { deadline?: unknown }).deadline;
  return typeof d === 'string' ? d : undefined;
};

/** Seats a game is waiting for in `next`, with since-when carried over from `prev`. */
export function pendingSince(prev: SummaryModel | undefined, next: GameSummary): Record<string, Since> {
  // A seat asked anew (newlyAsked, as the "your move" notices decide) starts a new since-when.
  const newly = newlyAsked(prev?.summary, next);
  const out: Record<string, Since> = {};
  for (const p of next.pending) {
    const kept = newly.has(p.seat) || !prev || !Object.hasOwn(prev.pendingSince, p.seat) ? undefined : prev.pendingSince[p.seat];
    out[p.seat] = kept ?? { at: next.updatedAt, version: next.version };
  }
  return out;
}

/** A hash of an entry's content: the item without its key and its stamp. */
function digestOf(item: InboxModel | LobbyModel): string {
  const content = Object.fromEntries(Object.entries(item).filter(([k]) => !STAMP_AND_KEY.has(k)));
  return createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 16);
}
const STAMP_AND_KEY = new Set(['pk', 'sk', 'version', 'hash', 'updatedAt']);

/** The item with the stamp it had before when its content is unchanged, and its sort key; and its Entry. */
function stamp<T extends InboxModel | LobbyModel>(item: T, before: readonly Entry[] | undefined, player: string | undefined, skOf: (x: T) => string) {
  const digest = digestOf(item);
  const old = before?.find((e) => e.player === player && e.digest === digest);
  const kept = old ? { ...item, version: old.version, updatedAt: old.updatedAt, ...(old.hash !== undefined ? { hash: old.hash } : {}) } : item;
  const out = { ...kept, sk: skOf(kept) };
  const h = (out as { hash?: string }).hash;
  const entry: Entry = {
    ...(player !== undefined ? { player } : {}),
    sk: out.sk,
    digest,
    version: out.version,
    ...(h !== undefined ? { hash: h } : {}),
    updatedAt: out.updatedAt,
  };
  return { item: out, entry };
}

export function projectGame(prev: SummaryModel | undefined, next: GameSummary): GameProjection {
  const since = pendingSince(prev, next);
  const seatName = new Map(next.seats.map((s) => [s.id, s.name]));
  const asked: Asked[] = next.pending.map((p) => {
    const s = since[p.seat]!;
    const deadline = deadlineOf(p);
    return {
      seat: p.seat,
      name: seatName.get(p.seat) ?? p.seat,
      player: p.player,
      kind: p.kind,
      prompt: p.prompt,
      since: s.at,
      sinceVersion: s.version,
      ...(deadline ? { deadline } : {}),
    };
  });
  const clocks = seatClocks(next, next.updatedAt);
  const earliest = (xs: readonly Asked[]): string | undefined => [...xs].sort((a, b) => a.sinceVersion - b.sinceVersion)[0]?.since;

  const fresh = playersOf(next).map((player): InboxModel => {
    const mine = next.seats.filter((s) => s.player === player);
    const mineIds = new Set(mine.map((s) => s.id));
    const myAsked = asked.filter((a) => mineIds.has(a.seat));
    const outcome = next.outcome ? { ...next.outcome, result: resultFor(next, mineIds) } : undefined;
    return {
      pk: inboxPk(player),
      sk: '',
      type: 'inbox',
      gameId: next.gameId,
      player,
      title: next.title,
      engine: next.engine,
      status: next.status,
      version: next.version,
      hash: next.hash,
      createdBy: next.createdBy,
      updatedAt: next.updatedAt,
      seats: mine.map((s) => ({ id: s.id, name: s.name, joined: s.joined })),
      invited: mine.some((s) => !s.joined),
      yourMove: myAsked.length > 0,
      since: earliest(myAsked) ?? earliest(asked) ?? next.updatedAt,
      whoseMove: asked,
      opponents: next.seats.filter((s) => !mineIds.has(s.id)).map((s) => ({ seat: s.id, name: s.name, player: s.player })),
      ...(outcome ? { outcome } : {}),
      ...(clocks.length ? { clocks } : {}),
    };
  });

  const free = next.seats.filter((s) => !s.joined && s.player === null);
  const freshLobby: LobbyModel | undefined =
    next.status === 'open' && free.length > 0
      ? {
          pk: LOBBY_PK,
          sk: '',
          type: 'lobby',
          gameId: next.gameId,
          title: next.title,
          engine: next.engine,
          createdBy: next.createdBy,
          createdAt: next.createdAt,
          updatedAt: next.updatedAt,
          version: next.version,
          freeSeats: free.map((s) => ({ id: s.id, name: s.name })),
          seats: next.seats.map((s) => ({ seat: s.id, name: s.name, player: s.player })),
          ...(next.rated ? { rated: true as const } : {}),
        }
      : undefined;

  const before = prev?.entries;
  const inboxStamped = fresh.map((i) => stamp(i, before, i.player, inboxEntrySk));
  const lobbyStamped = freshLobby ? stamp(freshLobby, before, undefined, lobbyPageSk) : undefined;
  const inbox = inboxStamped.map((x) => x.item);
  const lobby = lobbyStamped?.item;
  const summary: SummaryModel = {
    pk: summaryPk(next.gameId),
    sk: SUMMARY_SK,
    type: 'summary',
    gameId: next.gameId,
    version: next.version,
    summary: next,
    pendingSince: since,
    entries: [...inboxStamped.map((x) => x.entry), ...(lobbyStamped ? [lobbyStamped.entry] : [])],
  };

  const now = new Set(playersOf(next));
  const dropInbox = prev ? playersOf(prev.summary).filter((p) => !now.has(p)) : [];
  // An append no reader can tell from the one before leaves the read models as they are, its
  // SUMMARY included: most moves within a turn (issue 16: no rewrite when nothing changed).
  if (prev && sameContent(prev, summary)) return { summary: prev, inbox, lobby, dropInbox };
  return { summary, inbox, lobby, dropInbox };
}

/**
 * Whether two SUMMARY items read alike: the same public summary but for the stamp of the append
 * that wrote it (version, hash, time), the same since-when per pending seat, and the same entries
 * (whose stamps stay while their content does). The SUMMARY then keeps the version of the last
 * append that changed something a reader sees.
 */
export function sameContent(a: SummaryModel, b: SummaryModel): boolean {
  const content = (m: SummaryModel) => {
    const { version: _v, hash: _h, updatedAt: _u, ...summary } = m.summary;
    return canonicalJson({ summary, pendingSince: m.pendingSince, entries: m.entries ?? null });
  };
  return content(a) === content(b);
}

/** A player's result: a game that ended before it began was cancelled, which is no draw. */
export type GameResult = 'won' | 'lost' | 'draw' | 'cancelled';

function resultFor(s: GameSummary, mine: ReadonlySet<string>): GameResult {
  const o = s.outcome!;
  if (wasCancelled(s)) return 'cancelled';
  if (o.winners.length === 0) return 'draw';
  return o.winners.some((w) => mine.has(w)) ? 'won' : 'lost';
}

/**
 * Folds summaries (one per append, oldest first) onto the read models `prev` holds, into one
 * projection: the same items applying them one by one would leave, written once. Players who
 * left on the way are dropped.
 */
export function projectFrom(prev: SummaryModel | undefined, summaries: readonly GameSummary[]): GameProjection | undefined {
  return projectRun(prev, summaries)?.projection;
}

/**
 * projectFrom, and the entries each summary but the last left on the way (folded in the same
 * pass): where a write of the read models that was cut short before its SUMMARY (a fault, a crash)
 * may have put entries that the SUMMARY, still at `prev`, does not list.
 */
export function projectRun(
  prev: SummaryModel | undefined,
  summaries: readonly GameSummary[],
): { readonly projection: GameProjection; readonly passed: readonly Entry[] } | undefined {
  let model = prev;
  let last: GameProjection | undefined;
  const passed: Entry[] = [];
  const seen = new Set<string>(prev ? playersOf(prev.summary) : []);
  for (const s of summaries) {
    if (last) passed.push(...(last.summary.entries ?? []));
    last = projectGame(model, s);
    for (const p of playersOf(s)) seen.add(p);
    model = last.summary;
  }
  if (!last) return undefined;
  const now = new Set(last.inbox.map((i) => i.player));
  return { projection: { ...last, dropInbox: [...seen].filter((p) => !now.has(p)).sort() }, passed };
}

/**
 * Replays a game's summaries (one per append, oldest first) into its final projection:
 * the rebuild's path, and the reference the stream path must agree with.
 */
export const projectSequence = (summaries: readonly GameSummary[]): GameProjection | undefined => projectFrom(undefined, summaries);
