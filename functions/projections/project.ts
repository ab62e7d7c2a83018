import type { GameSummary, Outcome } from '../../domain/kernel/index.js';
import { newlyAsked } from './asked.js';
import { seatClocks, type SeatClock } from '../app/clocks.js';

/**
 * The read models, as pure functions of the public GameSummary sequence. The stream path
 * (one HEAD record per append) and the rebuild (folding the events, one summary per
 * append) both call projectGame with the previous projection, so they give the same items.
 * Nothing here reads a clock: every time comes from the summaries.
 */

export const SUMMARY_SK = 'SUMMARY';
export const LOBBY_PK = 'LOBBY';
export const summaryPk = (gameId: string) => `SUMMARY#${gameId}`;
export const inboxPk = (player: string) => `INBOX#${player}`;
export const gameSk = (gameId: string) => `GAME#${gameId}`;

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
  readonly sk: string;
  readonly type: 'inbox';
  readonly gameId: string;
  readonly player: string;
  readonly title: string;
  readonly engine: string;
  readonly status: GameSummary['status'];
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

export function projectGame(prev: SummaryModel | undefined, next: GameSummary): GameProjection {
  const since = pendingSince(prev, next);
  const summary: SummaryModel = {
    pk: summaryPk(next.gameId),
    sk: SUMMARY_SK,
    type: 'summary',
    gameId: next.gameId,
    version: next.version,
    summary: next,
    pendingSince: since,
  };
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

  const inbox = playersOf(next).map((player): InboxModel => {
    const mine = next.seats.filter((s) => s.player === player);
    const mineIds = new Set(mine.map((s) => s.id));
    const myAsked = asked.filter((a) => mineIds.has(a.seat));
    const outcome = next.outcome ? { ...next.outcome, result: resultFor(next, mineIds) } : undefined;
    return {
      pk: inboxPk(player),
      sk: gameSk(next.gameId),
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
  const lobby: LobbyModel | undefined =
    next.status === 'open' && free.length > 0
      ? {
          pk: LOBBY_PK,
          sk: gameSk(next.gameId),
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

  const now = new Set(playersOf(next));
  const dropInbox = prev ? playersOf(prev.summary).filter((p) => !now.has(p)) : [];
  return { summary, inbox, lobby, dropInbox };
}

/** A player's result: a game that ended before it began was cancelled, which is no draw. */
export type GameResult = 'won' | 'lost' | 'draw' | 'cancelled';

/**
 * A game starts the moment its last seat is taken, so one that ended with a seat still free
 * never began: its creator cancelled it.
 */
export const wasCancelled = (s: Pick<GameSummary, 'status' | 'seats'>): boolean => s.status === 'ended' && s.seats.some((x) => !x.joined);

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
  let model = prev;
  let last: GameProjection | undefined;
  const seen = new Set<string>(prev ? playersOf(prev.summary) : []);
  for (const s of summaries) {
    last = projectGame(model, s);
    for (const p of playersOf(s)) seen.add(p);
    model = last.summary;
  }
  if (!last) return undefined;
  const now = new Set(last.inbox.map((i) => i.player));
  return { ...last, dropInbox: [...seen].filter((p) => !now.has(p)).sort() };
}

/**
 * Replays a game's summaries (one per append, oldest first) into its final projection:
 * the rebuild's path, and the reference the stream path must agree with.
 */
export const projectSequence = (summaries: readonly GameSummary[]): GameProjection | undefined => projectFrom(undefined, summaries);
