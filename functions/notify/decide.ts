import { REMINDER_LEVELS, wasCancelled, type GameSummary } from '../../domain/kernel/index.js';
import { array, number, object, oneOf, record, string, union, literal, type Infer } from '../guards.js';
import { newlyAsked } from '../projections/asked.js';
import { seatClocks } from '../app/clocks.js';

/**
 * Which players to tell what, from one append's summaries (before and after). Summaries
 * hold only public information, so nothing decided here can reveal a hidden card, a
 * sealed order or a hand: a notice says whose move it is, never what anyone holds.
 */
export const NOTICE_KINDS = ['turn', 'started', 'ended', 'invited', 'reminder', 'tournament'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/**
 * The webhook vocabulary: each notice kind goes out as one event type, in the
 * JSON payload's `type` (README: Notifications). A tournament's notices (a pairing, and for
 * its director a time-out or a withdrawal) are `tournament.notice`; the others are about one game.
 */
export type WebhookEventType = `game.${Exclude<NoticeKind, 'tournament'>}` | 'tournament.notice';
export const webhookEventType = (kind: NoticeKind): WebhookEventType => (kind === 'tournament' ? 'tournament.notice' : `game.${kind}`);
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = NOTICE_KINDS.map(webhookEventType);

const seatRef = object({ seat: string(), name: string(), player: string().nullable() });
const asked = object({
  seat: string(),
  name: string(),
  kind: oneOf(['move', 'sealed', 'reaction']),
  prompt: string(),
  deadline: string().optional(),
});

/** Checked without zod (functions/guards.ts): the notifier and the digest load no zod. */
export const noticeSchema = object({
  /** Dedupe key: game, kind, the recipient's seats, and the version the notice is about. */
  key: string({ min: 1, max: 400 }),
  kind: oneOf(NOTICE_KINDS),
  gameId: string(),
  title: string(),
  engine: string(),
  player: string(),
  seats: array(string()),
  /** The names of `seats` ("United States"), in the same order: what people read. */
  sides: array(string()).optional(),
  /** What the recipient is asked to do (turn notices; a start that is also their move). */
  asked: array(asked),
  /** The seats of other sides. */
  opponents: array(seatRef),
  /** Other seats of the recipient's own side, in team games (absent in notices made before sides). */
  partners: array(seatRef).optional(),
  version: number({ int: true }),
  hash: string(),
  at: string(),
  invitedBy: string().optional(),
  /** Each seat's remaining time when the notice was made (functions/app/clocks.ts), for the mail. */
  clocks: array(
    object({
      seat: string(),
      name: string(),
      player: string().nullable(),
      deadline: string().optional(),
      leftMs: number().optional(),
      awayUntil: union([string(), literal(true)]).optional(),
      moveMs: number().optional(),
      bankMs: number().optional(),
    }),
  ).optional(),
  /** Tournament notices: which event, what happened (a pairing; for the director, a time-out or a withdrawal; for the director and the entrants, a cancellation at the scheduled start), in words. */
  tournament: object({
    tournamentId: string(),
    name: string(),
    round: number({ int: true }).optional(),
    about: oneOf(['paired', 'time-out', 'withdrawal', 'cancelled']),
    text: string(),
  }).optional(),
  /** A reminder (kernel/reminders.ts): how much of the recipient's move time is gone, and its deadline. */
  reminder: object({ level: oneOf(REMINDER_LEVELS), deadline: string() }).optional(),
  outcome: object({
    winners: array(string()),
    reason: string(),
    score: record(number()).optional(),
    result: oneOf(['won', 'lost', 'draw', 'cancelled']),
  }).optional(),
});
export type Notice = Infer<typeof noticeSchema>;

/** A job on the notification queue: a notice, or a retry of one channel of it. */
export const notifyJobSchema = object({
  notice: noticeSchema,
  channel: string().optional(),
  attempt: number({ int: true, min: 1 }).optional(),
  /** Not before this time: a retry further off than one queue delay allows hops until it is due. */
  dueAt: string().optional(),
});
export type NotifyJob = Infer<typeof notifyJobSchema>;

export const noticeKey = (gameId: string, kind: NoticeKind, seats: readonly string[], version: number) =>
  `${gameId}#${kind}#${[...seats].sort().join('+')}#${version}`;

/** Players (non-null) holding the given seats, each with their seats in seat order. */
function bySeatPlayer(s: GameSummary, seats: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const seat of s.seats) {
    if (!seats.includes(seat.id) || seat.player === null) continue;
    out.set(seat.player, [...(out.get(seat.player) ?? []), seat.id]);
  }
  return out;
}

/**
 * The other seats of a game as the recipient sees them: its side's other seats are partners,
 * every other side's seats opponents (a seat is a side of its own in a game without teams).
 */
function othersOf(next: GameSummary, player: string, seats: readonly string[]) {
  const sideOf = (s: GameSummary['seats'][number]) => s.side ?? s.id;
  const mySides = new Set(next.seats.filter((s) => seats.includes(s.id)).map(sideOf));
  const others = next.seats.filter((s) => !seats.includes(s.id) && s.player !== player);
  const ref = (s: GameSummary['seats'][number]) => ({ seat: s.id, name: s.name, player: s.player });
  const partners = others.filter((s) => mySides.has(sideOf(s))).map(ref);
  return { opponents: others.filter((s) => !mySides.has(sideOf(s))).map(ref), ...(partners.length ? { partners } : {}) };
}

export function decideNotices(old: GameSummary | undefined, next: GameSummary): Notice[] {
  // A head rewritten without a new event (or a replay of an older one) announces nothing.
  if (old && old.version >= next.version) return [];
  const notices: Notice[] = [];
  const seatName = (id: string) => next.seats.find((s) => s.id === id)?.name ?? id;
  const clocks = seatClocks(next, next.updatedAt);
  const base = (player: string, seats: string[]) => ({
    ...(clocks.length ? { clocks } : {}),
    gameId: next.gameId,
    title: next.title,
    engine: next.engine,
    player,
    seats,
    sides: seats.map(seatName),
    ...othersOf(next, player, seats),
    version: next.version,
    hash: next.hash,
    at: next.updatedAt,
  });

  // Invitations: a seat newly reserved for someone (at creation) who is not its creator.
  const reservedBefore = new Set(old?.seats.filter((s) => s.player !== null).map((s) => s.id) ?? []);
  const invitedSeats = next.seats.filter((s) => s.player !== null && !s.joined && !reservedBefore.has(s.id) && s.player !== next.createdBy).map((s) => s.id);
  for (const [player, seats] of bySeatPlayer(next, invitedSeats)) {
    notices.push({
      ...base(player, seats),
      key: noticeKey(next.gameId, 'invited', seats, next.version),
      kind: 'invited',
      asked: [],
      invitedBy: next.createdBy,
    });
  }

  const started = next.status === 'active' && old?.status !== 'active' && old?.status !== 'ended';
  // Your turn: the seats newly asked to act (newlyAsked), the sender's own included when its
  // command opened a phase where it must act again.
  const newly = newlyAsked(old, next);
  const fresh = next.pending.filter((p) => newly.has(p.seat));
  const askedOf = (seats: readonly string[]) =>
    fresh
      .filter((p) => seats.includes(p.seat))
      .map((p) => {
        const deadline = (p as { deadline?: unknown }).deadline;
        return { seat: p.seat, name: seatName(p.seat), kind: p.kind, prompt: p.prompt, ...(typeof deadline === 'string' ? { deadline } : {}) };
      });

  if (started) {
    // Everyone seated hears the game began (game.started), with what it asks of them if anything:
    // one message each, never a separate "your turn" as well.
    for (const [player, seats] of bySeatPlayer(
      next,
      next.seats.map((s) => s.id),
    )) {
      notices.push({ ...base(player, seats), key: noticeKey(next.gameId, 'started', seats, next.version), kind: 'started', asked: askedOf(seats) });
    }
  } else {
    for (const [player, seats] of bySeatPlayer(
      next,
      fresh.map((p) => p.seat),
    )) {
      notices.push({ ...base(player, seats), key: noticeKey(next.gameId, 'turn', seats, next.version), kind: 'turn', asked: askedOf(seats) });
    }
  }

  // Reminders: each Game.Reminded (by its seq) once, to the player of the reminded seat.
  const remindedBefore = new Set((old?.reminders ?? []).map((r) => r.seq));
  for (const r of next.reminders ?? []) {
    if (remindedBefore.has(r.seq) || next.status !== 'active') continue;
    const seat = next.seats.find((s) => s.id === r.seat);
    const entry = next.pending.find((p) => p.seat === r.seat && p.window === undefined);
    if (!seat?.player || !entry || r.deadline === undefined) continue;
    notices.push({
      ...base(seat.player, [r.seat]),
      key: noticeKey(next.gameId, 'reminder', [r.seat], r.seq),
      kind: 'reminder',
      asked: [{ seat: r.seat, name: seat.name, kind: entry.kind, prompt: entry.prompt, deadline: r.deadline }],
      reminder: { level: r.level, deadline: r.deadline },
    });
  }

  if (next.status === 'ended' && old?.status !== 'ended' && next.outcome) {
    const outcome = next.outcome;
    // A game that ends before it began was cancelled by its creator: tell the others (joined or invited).
    const cancelled = wasCancelled(next);
    for (const [player, seats] of bySeatPlayer(
      next,
      next.seats.map((s) => s.id),
    )) {
      if (cancelled && player === next.createdBy) continue;
      const result = cancelled ? 'cancelled' : outcome.winners.length === 0 ? 'draw' : outcome.winners.some((w) => seats.includes(w)) ? 'won' : 'lost';
      notices.push({
        ...base(player, seats),
        key: noticeKey(next.gameId, 'ended', seats, next.version),
        kind: 'ended',
        asked: [],
        outcome: { ...outcome, winners: [...outcome.winners], result },
      });
    }
  }
  return notices;
}
