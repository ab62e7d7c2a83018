import { createHash } from 'node:crypto';
import type { Clock, NotificationSettings, SettingsStore } from '../ports.js';
import type { Notice, NotifyJob } from './decide.js';
import type { MailAttachment, Mailer } from './mailer.js';
import { webhookPayload } from './payloads.js';
import type { NotifyQueue } from './queue.js';
import { SQS_MAX_DELAY_SECONDS } from './queue.js';
import { escapeHtml, renderNotice, type Rendered } from './render.js';
import { noticeMailHeaders } from './unsubscribe.js';
import type { DeliveryLog, DeliveryRecord, NoticeLedger } from './stores.js';
import { checkWebhookUrl } from './address-policy.js';
import { maskUrl, signedRequest, WebhookRefused, type WebhookTransport } from './webhook.js';

/**
 * Retries per channel with exponential backoff: attempt n failing waits base·2^(n-1)
 * (capped) before attempt n+1. 'inline' waits in this process (local runs, tests);
 * 'requeue' makes one attempt per queue message and puts the next attempt back on the
 * queue with that delay (AWS: SQS DelaySeconds), so a Lambda never sleeps.
 */
export interface RetryPolicy {
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly mode: 'inline' | 'requeue';
}

export const backoffMs = (p: RetryPolicy, attempt: number) => Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** (attempt - 1));

export interface NotifierDeps {
  readonly settings: SettingsStore;
  readonly mailer: Mailer;
  readonly webhooks: WebhookTransport;
  readonly ledger: NoticeLedger;
  readonly deliveries: DeliveryLog;
  readonly clock: Clock;
  readonly appUrl: string;
  readonly retry: RetryPolicy;
  /** Needed for 'requeue' retries. */
  readonly queue?: NotifyQueue;
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * Local runs only (set by functions/local): plain http and private addresses, for
   * receivers on 127.0.0.1. Absent or false (AWS): public https URLs only (address-policy.ts);
   * the transport also checks what a name resolves to.
   */
  readonly allowPrivateWebhooks?: boolean;
  /**
   * True when a "your turn" is old news: the game has moved on and the seat is no longer
   * pending since the notice's version (a replay, or a queue that was down for hours).
   */
  readonly isStale?: (notice: Notice) => Promise<boolean>;
  /**
   * The one-click unsubscribe link for this kind of notice to this player (notify/unsubscribe.ts),
   * sent as the mail's List-Unsubscribe header. Absent: mails carry no such header.
   */
  readonly unsubscribeUrl?: (player: string, kind: Notice['kind']) => Promise<string>;
  /**
   * The board as the recipient's seat sees it, as a PNG, for "your move" mail; undefined when
   * there is none (an engine without pictures, a game that cannot be read). A picture is a
   * courtesy: the notice goes out without it rather than not at all.
   */
  readonly boardPicture?: (notice: Notice) => Promise<Uint8Array | undefined>;
}

type Channel =
  | { id: 'email'; kind: 'email'; to: string; verified: boolean }
  | { id: string; kind: 'webhook'; url: string; secret: string; format: 'json' | 'discord' | 'slack' };

export interface ChannelResult {
  readonly channel: string;
  readonly outcome: 'sent' | 'retrying' | 'failed' | 'duplicate' | 'stale';
}

/** The delivery log's reason for a notice not mailed to an unconfirmed address. */
export const EMAIL_NOT_VERIFIED =
  'email not verified yet: confirm the address with the link in the verification mail (POST /v1/me/email/resend sends a new one)';

/** The mail's own words for its unsubscribe header, for readers whose mail program shows no button. */
const unsubscribeNote = (kind: Notice['kind']) =>
  `To stop mails like this one, use your mail program's unsubscribe button, or run  npm run cli -- settings mail ${kind} off`;

export const deliveryIdOf = (key: string, player: string, channel: string) =>
  `dlv_${createHash('sha256').update(`${key}\n${player}\n${channel}`).digest('hex').slice(0, 32)}`;

function channelsOf(s: NotificationSettings | undefined, kind: Notice['kind'], reminder?: Notice['reminder']): Channel[] {
  if (!s) return [];
  // A reminder level the player turned off goes nowhere.
  if (reminder && (s.remindersOff ?? []).includes(reminder.level)) return [];
  // An unverified address stays a channel so the skipped notice is recorded where its owner looks.
  // A kind of notice the player turned off for mail (settings, or a mail's unsubscribe link) is not mailed.
  return [
    // With the daily digest on (digest.ts), "your move" is in that one mail a day instead.
    ...(s.email && !(s.emailOff ?? []).includes(kind) && !(kind === 'turn' && s.digest)
      ? [{ id: 'email' as const, kind: 'email' as const, to: s.email, verified: s.emailVerifiedAt !== undefined }]
      : []),
    ...s.webhooks.map((w) => ({ id: w.id, kind: 'webhook' as const, url: w.url, secret: w.secret, format: w.format })),
  ];
}

export class Notifier {
  private readonly sleep: (ms: number) => Promise<void>;
  constructor(private readonly deps: NotifierDeps) {
    this.sleep = deps.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Sends one job. Throws only on infrastructure errors (the queue then retries the job). */
  async handle(job: NotifyJob): Promise<ChannelResult[]> {
    const { notice } = job;
    const all = channelsOf(await this.deps.settings.get(notice.player), notice.kind, notice.reminder);
    const rendered = renderNotice(notice, this.deps.appUrl);
    if (job.channel !== undefined) {
      // A scheduled retry of one channel (requeue mode), or a re-check of a claim left 'sending'.
      const ch = all.find((c) => c.id === job.channel);
      const attempt = job.attempt ?? 2;
      if (!ch) return [{ channel: job.channel, outcome: 'duplicate' }];
      const taken = await this.deps.ledger.take(notice.key, ch.id, this.deps.clock.now(), attempt);
      if (taken === false) return [{ channel: ch.id, outcome: await this.recheckIfSending(notice, ch.id) }];
      return [await this.deliverTaken(notice, rendered, ch, attempt, taken)];
    }
    if ((notice.kind === 'turn' || notice.kind === 'reminder') && (await this.deps.isStale?.(notice)))
      return all.map((c) => ({ channel: c.id, outcome: 'stale' as const }));
    // On a replay the ledger returns the channels chosen the first time, so a channel
    // added since then does not receive old news.
    // Opened even with no channels: a channel added later must not receive this notice on a replay.
    const chosen = await this.deps.ledger.open(
      notice.key,
      notice.player,
      all.map((c) => c.id),
      this.deps.clock.now(),
    );
    if (chosen.length === 0) return [];
    const out: ChannelResult[] = [];
    for (const ch of all.filter((c) => chosen.includes(c.id))) {
      const taken = await this.deps.ledger.take(notice.key, ch.id, this.deps.clock.now());
      if (taken === false) {
        out.push({ channel: ch.id, outcome: await this.recheckIfSending(notice, ch.id) });
        continue;
      }
      out.push(await this.deliverTaken(notice, rendered, ch, 1, taken));
    }
    return out;
  }

  /**
   * A claim taken over from a worker that died while 'sending' (a crash, a Lambda timeout):
   * if that worker's delivery was recorded as accepted, it went out, and only the ledger missed
   * it, so settle it as sent instead of sending it again.
   */
  private async deliverTaken(notice: Notice, rendered: Rendered, ch: Channel, attempt: number, taken: { readonly from?: string }): Promise<ChannelResult> {
    if (taken.from !== undefined && (await this.deps.deliveries.sentSince(notice.player, deliveryIdOf(notice.key, notice.player, ch.id), taken.from))) {
      await this.deps.ledger.settle(notice.key, ch.id, 'sent', this.deps.clock.now());
      return { channel: ch.id, outcome: 'sent' };
    }
    return this.deliver(notice, rendered, ch, attempt);
  }

  /**
   * The channel is claimed by another worker. If it is still 'sending', that worker may be
   * alive, or may have died with the claim (the process crashed, the Lambda timed out): look
   * again once its lease has run out, when a claim still 'sending' is taken over. Without this
   * a notice whose worker died would stay 'sending' forever, since its message was handled.
   */
  private async recheckIfSending(notice: Notice, channel: string): Promise<ChannelResult['outcome']> {
    const { ledger, queue, clock } = this.deps;
    if (!queue) return 'duplicate';
    const claim = await ledger.inspect(notice.key, channel);
    if (claim?.state !== 'sending') return 'duplicate';
    const leaseEnds = Date.parse(claim.claimedAt) + ledger.leaseSeconds * 1000;
    const wait = Math.max(1, Math.ceil((leaseEnds - Date.parse(clock.now())) / 1000) + 1);
    await queue.enqueue([{ notice, channel, attempt: claim.attempt }], Math.min(SQS_MAX_DELAY_SECONDS, wait));
    return 'duplicate';
  }

  private async deliver(notice: Notice, rendered: Rendered, ch: Channel, firstAttempt: number): Promise<ChannelResult> {
    const { retry, ledger } = this.deps;
    const deliveryId = deliveryIdOf(notice.key, notice.player, ch.id);
    try {
      for (let attempt = firstAttempt; ; attempt++) {
        const r = await this.attempt(notice, rendered, ch, deliveryId);
        const last = attempt >= retry.attempts;
        // A refused target is final: retrying an address the policy forbids (or not yet verified) changes nothing.
        const requeue = !r.ok && !r.final && !last && retry.mode === 'requeue' && this.deps.queue !== undefined;
        const outcome: DeliveryRecord['outcome'] = r.ok ? 'sent' : r.final || last || (retry.mode === 'requeue' && !requeue) ? 'failed' : 'retrying';
        await this.deps.deliveries.record(notice.player, {
          deliveryId,
          noticeKey: notice.key,
          kind: notice.kind,
          gameId: notice.gameId,
          channel: ch.kind,
          channelId: ch.id,
          target: ch.kind === 'email' ? ch.to : maskUrl(ch.url),
          attempt,
          ok: r.ok,
          ...(r.status !== undefined ? { status: r.status } : {}),
          ...(r.error !== undefined ? { error: r.error } : {}),
          outcome,
          at: this.deps.clock.now(),
        });
        if (outcome === 'sent' || outcome === 'failed') {
          await ledger.settle(notice.key, ch.id, outcome, this.deps.clock.now());
          return { channel: ch.id, outcome };
        }
        const wait = backoffMs(retry, attempt);
        if (requeue) {
          await ledger.settle(notice.key, ch.id, { retryAttempt: attempt + 1 }, this.deps.clock.now());
          await this.deps.queue!.enqueue([{ notice, channel: ch.id, attempt: attempt + 1 }], Math.min(SQS_MAX_DELAY_SECONDS, Math.ceil(wait / 1000)));
          return { channel: ch.id, outcome: 'retrying' };
        }
        await this.sleep(wait);
      }
    } catch (e) {
      await ledger.release(notice.key, ch.id, firstAttempt).catch(() => undefined);
      throw e;
    }
  }

  /** A "your move" mail carries the board as the recipient sees it. */
  private async attachmentsFor(notice: Notice): Promise<MailAttachment[]> {
    if (notice.kind !== 'turn' || !this.deps.boardPicture) return [];
    const png = await this.deps.boardPicture(notice);
    return png ? [{ filename: 'board.png', contentType: 'image/png', content: png }] : [];
  }

  /** One try. `final`: the target is refused (address policy, or an unverified email), so no retry. */
  private async attempt(
    notice: Notice,
    rendered: Rendered,
    ch: Channel,
    deliveryId: string,
  ): Promise<{ ok: boolean; status?: number; error?: string; final?: boolean }> {
    if (ch.kind === 'email') {
      // Never mail an address its owner has not confirmed (email-verification.ts); final, so no retry.
      if (!ch.verified) return { ok: false, error: EMAIL_NOT_VERIFIED, final: true };
      const attachments = await this.attachmentsFor(notice);
      try {
        const unsubscribe = await this.deps.unsubscribeUrl?.(notice.player, notice.kind);
        await this.deps.mailer.send({
          to: ch.to,
          subject: rendered.subject,
          text: unsubscribe ? `${rendered.text}\n${unsubscribeNote(notice.kind)}\n` : rendered.text,
          html: unsubscribe ? rendered.html.replace('</body>', `<br><div>${escapeHtml(unsubscribeNote(notice.kind))}</div></body>`) : rendered.html,
          deliveryId,
          ...(unsubscribe ? { headers: noticeMailHeaders(unsubscribe) } : {}),
          ...(attachments.length ? { attachments } : {}),
        });
        return { ok: true };
      } catch (e) {
        return { ok: false, error: `mail not accepted: ${(e as Error).message}`.slice(0, 300) };
      }
    }
    // Checked again at delivery: settings saved before this policy, or under a local one.
    const verdict = checkWebhookUrl(ch.url, { allowPrivate: this.deps.allowPrivateWebhooks === true });
    if (!verdict.ok) return { ok: false, error: `webhook URL ${verdict.reason}`.slice(0, 300), final: true };
    const nowSeconds = Math.floor(Date.parse(this.deps.clock.now()) / 1000);
    const req = signedRequest(webhookPayload(ch.format, notice, rendered, deliveryId), { secret: ch.secret, deliveryId, kind: notice.kind, nowSeconds });
    try {
      const r = await this.deps.webhooks.post(ch.url, req.headers, req.body);
      return r.status >= 200 && r.status < 300 ? { ok: true, status: r.status } : { ok: false, status: r.status, error: `receiver answered HTTP ${r.status}` };
    } catch (e) {
      if (e instanceof WebhookRefused) return { ok: false, error: e.message.slice(0, 300), final: true };
      const err = e as Error;
      return {
        ok: false,
        error: `could not reach the receiver: ${err.name === 'TimeoutError' ? 'timed out' : ((err.cause as Error | undefined)?.message ?? err.message)}`.slice(
          0,
          300,
        ),
      };
    }
  }
}
