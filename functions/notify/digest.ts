import { createHash } from 'node:crypto';
import type { Clock, NotificationSettings, SettingsStore } from '../ports.js';
import type { InboxModel } from '../projections/project.js';
import { clockInWords } from '../app/clocks.js';
import type { MailAttachment, Mailer } from './mailer.js';
import type { PictureRequest } from './board-picture.js';
import { escapeHtml, gameLink } from './render.js';
import type { DeliveryLog } from './stores.js';

/**
 * The daily digest (issue 10, a notification setting): one mail a day, at the hour the player
 * chose in their time zone (UTC unless they name one), listing every game where it is their
 * move with each seat's time left and the board as their seat sees it. While it is on, the
 * per-move "your move" mails are not sent (notifier.ts); reminders and the rest still are.
 * The same sweep runs hourly in AWS (an EventBridge rule, functions/handlers/digest.ts) and on
 * the local runtime's timer and clock control: each player's day is claimed before its mail is
 * sent, so a repeated or overlapping sweep sends nothing twice.
 */

export type DigestSetting = NonNullable<NotificationSettings['digest']>;

/** Whether `zone` is an IANA time zone name this runtime knows ("Europe/Paris", "UTC"). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The calendar day (YYYY-MM-DD) and hour (0-23) at `nowIso` in `zone`. */
export function localTime(nowIso: string, zone = 'UTC'): { day: string; hour: number } {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' })
    .formatToParts(new Date(nowIso))
    .reduce<Record<string, string>>((acc, p) => ({ ...acc, [p.type]: p.value }), {});
  return { day: `${parts['year']}-${parts['month']}-${parts['day']}`, hour: Number(parts['hour']) };
}

/** The day whose digest is due at `nowIso`, or undefined before the chosen hour or when that day's went out already. */
export function digestDay(setting: DigestSetting, nowIso: string, lastDay: string | undefined): string | undefined {
  const { day, hour } = localTime(nowIso, setting.timeZone);
  if (hour < setting.hour) return undefined;
  return lastDay !== undefined && lastDay >= day ? undefined : day;
}

/** Who has the digest on, with the last day theirs was sent (stores.ts: the DIGESTS partition). */
export interface DigestSubscriber {
  readonly player: string;
  readonly setting: DigestSetting;
  readonly lastDay?: string;
}

export interface DigestBook {
  subscribers(): Promise<DigestSubscriber[]>;
  /** Marks `day` sent for the player if no later or equal day is; false when another sweep has it. */
  claim(player: string, day: string, nowIso: string): Promise<boolean>;
  /** Gives the day back after a failed send (to `previous`), so the next sweep tries again. */
  release(player: string, day: string, previous: string | undefined): Promise<void>;
}

export interface DigestDeps {
  readonly book: DigestBook;
  readonly settings: Pick<SettingsStore, 'get'>;
  /** The player's inbox entries where it is their move (the inbox read model). */
  readonly yourMove: (player: string) => Promise<readonly InboxModel[]>;
  readonly mailer: Mailer;
  readonly deliveries: Pick<DeliveryLog, 'record'>;
  readonly clock: Clock;
  readonly appUrl: string;
  /** The board as the player's seat sees it, attached as in the "your move" mail; none without it. */
  readonly boardPicture?: (req: PictureRequest) => Promise<Uint8Array | undefined>;
  readonly log?: (line: string) => void;
}

/** The digest mail: every game on move, what is asked, each seat's clock, a link. */
export function renderDigest(player: string, day: string, games: readonly InboxModel[], appUrl: string, nowIso: string) {
  const now = Date.parse(nowIso);
  const subject = `Fieldpost digest for ${day}: your move in ${games.length} game${games.length === 1 ? '' : 's'}`;
  const lines = [`Hello ${player},`, '', `Your daily digest for ${day}: it is your move in ${games.length} game${games.length === 1 ? '' : 's'}.`];
  const links: string[] = [];
  for (const g of games) {
    const link = gameLink(appUrl, g.gameId);
    links.push(link);
    lines.push('', `${g.title} (${g.engine})`);
    for (const a of g.whoseMove.filter((w) => w.player === player)) lines.push(`  You play ${a.name}: ${a.prompt}`);
    for (const c of g.clocks ?? []) {
      const left = c.deadline === undefined ? c : { ...c, leftMs: Math.max(0, Date.parse(c.deadline) - now) };
      lines.push(`  Clock of ${c.player === null ? c.name : `${c.player} (${c.name})`}: ${clockInWords(left)}`);
    }
    if (!g.clocks?.length) lines.push('  No time control: no clock runs.');
    lines.push(`  Open the game: ${link}`);
  }
  lines.push(
    '',
    'The board of each game, as your seat sees it, is attached. Per-move "your move" mails are off while the digest is on:',
    '  npm run cli -- settings digest off',
  );
  const text = lines.join('\n') + '\n';
  const html = `<!doctype html><html><body style="font-family:sans-serif">${lines
    .map((l) => {
      if (l === '') return '<br>';
      let h = escapeHtml(l);
      for (const link of links) h = h.replace(escapeHtml(link), `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`);
      return `<div>${h}</div>`;
    })
    .join('')}</body></html>`;
  return { subject, text, html };
}

/** A digest's delivery id: one per player and day, so a receiver can drop a repeat. */
const digestDeliveryId = (player: string, day: string) => `dig_${createHash('sha256').update(`${player}\n${day}`).digest('hex').slice(0, 32)}`;

/** One sweep: every subscriber whose hour has come and whose day's digest has not gone out. Answers who was mailed. */
export async function sendDigests(deps: DigestDeps): Promise<{ player: string; day: string; games: number }[]> {
  const sent: { player: string; day: string; games: number }[] = [];
  const nowIso = deps.clock.now();
  for (const sub of await deps.book.subscribers()) {
    const day = digestDay(sub.setting, nowIso, sub.lastDay);
    if (day === undefined) continue;
    const s = await deps.settings.get(sub.player);
    // Only to a confirmed address (as every mail); the day stays open until there is one.
    if (!s?.email || s.emailVerifiedAt === undefined || !s.digest) continue;
    if (!(await deps.book.claim(sub.player, day, nowIso))) continue;
    const games = await deps.yourMove(sub.player);
    // Nothing on move: no mail today (the day is taken, so none later today either).
    if (games.length === 0) continue;
    const mail = renderDigest(sub.player, day, games, deps.appUrl, nowIso);
    const deliveryId = digestDeliveryId(sub.player, day);
    try {
      const attachments: MailAttachment[] = [];
      for (const g of deps.boardPicture ? games : []) {
        const seat = g.whoseMove.find((w) => w.player === sub.player)?.seat;
        const png = await deps.boardPicture!({ gameId: g.gameId, player: sub.player, ...(seat !== undefined ? { seat } : {}) });
        if (png) attachments.push({ filename: `board-${g.gameId}.png`, contentType: 'image/png', content: png });
      }
      await deps.mailer.send({ to: s.email, ...mail, deliveryId, ...(attachments.length ? { attachments } : {}) });
    } catch (e) {
      await deps.book.release(sub.player, day, sub.lastDay);
      deps.log?.(`[digest] ${sub.player} ${day}: not sent, tried again at the next sweep: ${(e as Error).message}`);
      continue;
    }
    const target = s.email;
    await deps.deliveries.record(sub.player, {
      deliveryId,
      noticeKey: `digest#${sub.player}#${day}`,
      kind: 'digest',
      gameId: '',
      channel: 'email',
      channelId: 'email',
      target,
      attempt: 1,
      ok: true,
      outcome: 'sent',
      at: deps.clock.now(),
    });
    sent.push({ player: sub.player, day, games: games.length });
  }
  return sent;
}
