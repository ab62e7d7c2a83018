import { createHash } from 'node:crypto';
import type { Clock, NotificationSettings, SettingsStore } from '../ports.js';
import type { Notice, NotifyJob } from './decide.js';
import type { MailAttachment, Mailer } from './mailer.js';
import { webhookPayload } from './payloads.js';
import type { NotifyQueue } from './queue.js';
import { SQS_MAX_DELAY_SECONDS } from './queue.js';
import { escapeHtml, renderNotice, type Rendered } from './render.js';
import { noticeMailHeaders } from './unsubscribe.js';
import type { ChannelClaim, DeliveryLog, DeliveryRecord, NoticeLedger, WebhookLanes } from './stores.js';
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
  /**
   * The wait after each failed attempt, in ms, when not a doubling: attempt n failing waits
   * schedule[n-1], and there are schedule.length + 1 attempts (`attempts` and the delays are
   * then unused). The deployed notifier uses WEBHOOK_RETRY_SCHEDULE_SECONDS.
   */
  readonly schedule?: readonly number[];
}

/**
 * The deployed retry schedule (seconds after each failed attempt), after Stripe's and the
 * Standard Webhooks recommendation, stretched to outlast a receiver that is down for a day:
 * eleven attempts over about three days (5 s, 5 min, 30 min, 2 h, 5 h, then 10-14 h apart).
 */
export const WEBHOOK_RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000, 50_400, 50_400, 50_400] as const;

export const attemptsOf = (p: RetryPolicy): number => (p.schedule ? p.schedule.length + 1 : p.attempts);
export const backoffMs = (p: RetryPolicy, attempt: number) =>
  p.schedule ? (p.schedule[attempt - 1] ?? p.schedule[p.schedule.length - 1] ?? 0) : Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** (attempt - 1));

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
  /** Keeps each game's notices to a webhook in the game's order while one of them is retrying. */
  readonly lanes?: WebhookLanes;
  /**
   * Local runtime only: when this notifier started (its clock). Its queue lives in memory, so a
   * runtime killed while webhook retries were scheduled lost them; a notice read again from the
   * stream whose claim was left 'retrying' before this time gets its retry queued again (due when
   * it was due). A claim left 'sending' before this time is taken over at once, not after its
   * lease (one local runtime at a time). In AWS the retry is an SQS message and survives, and
   * several notifiers run at once: absent there.
   */
  readonly resumeRetriesFrom?: string;
  /** Switches a webhook off (410 Gone, or failing past the schedule); its owner is mailed. */
  readonly disableWebhook?: (player: string, id: string, reason: string, nowIso: string) => Promise<boolean>;
}

type Channel =
  | { id: 'email'; kind: 'email'; to: string; verified: boolean }
  | { id: string; kind: 'webhook'; url: string; secrets: string[]; format: 'json' | 'discord' | 'slack' };

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

function channelsOf(s: NotificationSettings | undefined, kind: Notice['kind'], nowIso: string, reminder?: Notice['reminder']): Channel[] {
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
    // A switched-off webhook gets nothing until its owner switches it on again.
    ...s.webhooks
      .filter((w) => !w.disabled)
      .map((w) => ({
        id: w.id,
        kind: 'webhook' as const,
        url: w.url,
        // While a secret is rotated, each delivery carries a signature with the old one too.
        secrets: [w.secret, ...(w.previousSecret && w.previousSecret.until > nowIso ? [w.previousSecret.secret] : [])],
        format: w.format,
      })),
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
    // A retry further off than one queue delay (SQS: 15 min) hops until it is due.
    if (job.dueAt !== undefined && job.dueAt > this.deps.clock.now() && this.deps.queue) {
      const left = Math.ceil((Date.parse(job.dueAt) - Date.parse(this.deps.clock.now())) / 1000);
      await this.deps.queue.enqueue([job], Math.min(SQS_MAX_DELAY_SECONDS, left));
      return [];
    }
    const all = channelsOf(await this.deps.settings.get(notice.player), notice.kind, this.deps.clock.now(), notice.reminder);
    const rendered = renderNotice(notice, this.deps.appUrl);
    if (job.channel !== undefined) {
      // A scheduled retry of one channel (requeue mode), or a re-check of a claim left 'sending'.
      const ch = all.find((c) => c.id === job.channel);
      const attempt = job.attempt ?? 2;
      if (!ch) return [{ channel: job.channel, outcome: 'duplicate' }];
      const taken = await this.deps.ledger.take(notice.key, ch.id, this.deps.clock.now(), attempt, this.deps.resumeRetriesFrom);
      if (taken === false) return [{ channel: ch.id, outcome: await this.recheckIfSending(notice, ch) }];
      return [await this.deliverTaken(notice, rendered, ch, attempt, taken, true)];
    }
    if ((notice.kind === 'turn' || notice.kind === 'reminder') && (await this.deps.isStale?.(notice))) {
      // Read again after a local restart, it may still hold a retry the last run had queued, a claim that run left
      // 'sending' (killed mid-attempt), or a settled claim whose lane that run never released: the game's later
      // notices wait behind it in its lane, so it is carried on (or its lane released) as any claim found taken is.
      if (this.deps.resumeRetriesFrom !== undefined) for (const c of all) await this.recheckIfSending(notice, c, true);
      return all.map((c) => ({ channel: c.id, outcome: 'stale' as const }));
    }
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
      const taken = await this.deps.ledger.take(notice.key, ch.id, this.deps.clock.now(), undefined, this.deps.resumeRetriesFrom);
      if (taken === false) {
        out.push({ channel: ch.id, outcome: await this.recheckIfSending(notice, ch) });
        continue;
      }
      out.push(await this.deliverTaken(notice, rendered, ch, 1, taken, false));
    }
    return out;
  }

  /**
   * A claim taken over from a worker that died while 'sending' (a crash, a Lambda timeout):
   * if that worker's delivery was recorded as accepted, it went out, and only the ledger missed
   * it, so settle it as sent instead of sending it again.
   */
  private async deliverTaken(
    notice: Notice,
    rendered: Rendered,
    ch: Channel,
    attempt: number,
    taken: { readonly from?: string },
    retryJob: boolean,
  ): Promise<ChannelResult> {
    if (taken.from !== undefined && (await this.deps.deliveries.sentSince(notice.player, deliveryIdOf(notice.key, notice.player, ch.id), taken.from))) {
      await this.deps.ledger.settle(notice.key, ch.id, 'sent', this.deps.clock.now());
      // Settled: the notices of the game waiting behind it go on.
      if (ch.kind === 'webhook' && this.deps.lanes) await this.handOn(await this.deps.lanes.done(notice.player, ch.id, notice.gameId, notice.version));
      return { channel: ch.id, outcome: 'sent' };
    }
    return this.deliver(notice, rendered, ch, attempt, retryJob);
  }

  /**
   * The channel is claimed by another worker. If it is still 'sending', that worker may be
   * alive, or may have died with the claim (the process crashed, the Lambda timed out): look
   * again once its lease has run out, when a claim still 'sending' is taken over. Without this
   * a notice whose worker died would stay 'sending' forever, since its message was handled.
   *
   * `stale`: the notice is a turn read again that will not be sent (handle). If it has no claim, no
   * worker is sending it: a place it kept in its lane (a run that held the lane and then failed, its
   * claim released, before its job ran again or the runtime was killed) is released, or the game's
   * later notices (its game.ended) wait behind it for good.
   */
  private async recheckIfSending(notice: Notice, ch: Channel, stale = false): Promise<ChannelResult['outcome']> {
    const { ledger, queue, clock, lanes } = this.deps;
    const channel = ch.id;
    if (!queue) return 'duplicate';
    const claim = await ledger.inspect(notice.key, channel);
    const from = this.deps.resumeRetriesFrom;
    if (await this.resumeLeftRetry(notice, channel, claim)) return 'retrying';
    if (stale && claim === undefined && ch.kind === 'webhook' && lanes) {
      await this.handOn(await lanes.done(notice.player, channel, notice.gameId, notice.version));
      return 'duplicate';
    }
    if (claim?.state !== 'sending') {
      // Settled by whoever held it. A hold this notice put in the lane while it waited (below) may have
      // landed after that worker's own release: release it again, or the game's later notices wait for good.
      if ((claim?.state === 'sent' || claim?.state === 'failed') && ch.kind === 'webhook' && lanes)
        await this.handOn(await lanes.done(notice.player, channel, notice.gameId, notice.version));
      return 'duplicate';
    }
    // Whoever holds it may never finish (a lost reply on the claim, a crash): the game's later
    // notices to this webhook wait behind it, and are handed on when it settles.
    if (ch.kind === 'webhook' && lanes) await lanes.hold(notice.player, channel, notice.gameId, notice.version, clock.now());
    const leaseEnds = Date.parse(claim.claimedAt) + ledger.leaseSeconds * 1000;
    // A claim made before this (local) runtime started was left by the one before, which is gone: taken over at once.
    const wait = from !== undefined && claim.claimedAt < from ? 0 : Math.max(1, Math.ceil((leaseEnds - Date.parse(clock.now())) / 1000) + 1);
    await queue.enqueue([{ notice, channel, attempt: claim.attempt }], Math.min(SQS_MAX_DELAY_SECONDS, wait));
    return 'duplicate';
  }

  /**
   * Local runtime only (resumeRetriesFrom): a claim left 'retrying' by a runtime that is gone had its
   * retry in that runtime's memory (or was handed on in its lane there): queue it again, due when it was.
   */
  private async resumeLeftRetry(notice: Notice, channel: string, claim: ChannelClaim | undefined): Promise<boolean> {
    const { queue, clock, resumeRetriesFrom: from } = this.deps;
    if (!queue || from === undefined || claim?.state !== 'retrying' || claim.settledAt === undefined || claim.settledAt >= from) return false;
    const left = claim.dueAt === undefined ? 0 : Math.ceil((Date.parse(claim.dueAt) - Date.parse(clock.now())) / 1000);
    await queue.enqueue(
      [{ notice, channel, attempt: claim.attempt, ...(claim.dueAt !== undefined ? { dueAt: claim.dueAt } : {}) }],
      Math.min(SQS_MAX_DELAY_SECONDS, Math.max(0, left)),
    );
    return true;
  }

  /** `retryJob`: a job for one channel (a scheduled retry, or a notice handed on in its lane), which took a 'retrying' claim. */
  private async deliver(notice: Notice, rendered: Rendered, ch: Channel, firstAttempt: number, retryJob: boolean): Promise<ChannelResult> {
    const { retry, ledger, lanes } = this.deps;
    const deliveryId = deliveryIdOf(notice.key, notice.player, ch.id);
    const lane = ch.kind === 'webhook' && lanes ? ([notice.player, ch.id, notice.gameId, notice.version] as const) : undefined;
    /** The receiver took it: from here on, a failure must not free the claim (a retry would send it twice). */
    let accepted = false;
    try {
      // An earlier notice of this game to this webhook is still retrying: wait behind it, to be handed on when it settles.
      if (lane && (await lanes!.waitBehind(...lane, { notice, channel: ch.id, attempt: firstAttempt }, this.deps.clock.now()))) {
        await ledger.settle(notice.key, ch.id, { retryAttempt: firstAttempt }, this.deps.clock.now());
        return { channel: ch.id, outcome: 'retrying' };
      }
      for (let attempt = firstAttempt; ; attempt++) {
        const r = await this.attempt(notice, rendered, ch, deliveryId);
        accepted = r.ok;
        // A receiver that answers 410 Gone says it is gone for good: no retry, and it is switched off.
        const gone = ch.kind === 'webhook' && r.status === 410;
        const last = attempt >= attemptsOf(retry) || gone;
        // A refused target is final: retrying an address the policy forbids (or not yet verified) changes nothing.
        const requeue = !r.ok && !r.final && !last && retry.mode === 'requeue' && this.deps.queue !== undefined;
        const outcome: DeliveryRecord['outcome'] = r.ok ? 'sent' : r.final || last || (retry.mode === 'requeue' && !requeue) ? 'failed' : 'retrying';
        const wait = backoffMs(retry, attempt);
        const at = this.deps.clock.now();
        // The record of an accepted delivery is what a worker taking over the claim trusts (deliverTaken): insist on writing it.
        await (r.ok ? persist : once)(() =>
          this.deps.deliveries.record(notice.player, {
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
            at,
            ...(outcome === 'retrying' ? { nextAttemptAt: new Date(Date.parse(at) + wait).toISOString() } : {}),
          }),
        );
        if (outcome === 'sent' || outcome === 'failed') {
          // Once accepted, a passing fault here would leave the claim 'sending' (and the game's lane held) until its lease runs out.
          await (r.ok ? persist : once)(() => ledger.settle(notice.key, ch.id, outcome, this.deps.clock.now()));
          // A receiver that says it is gone (410), or failed every attempt of the schedule, is switched off.
          if (ch.kind === 'webhook' && outcome === 'failed' && !r.final && (r.status === 410 || last))
            await this.switchOff(
              notice.player,
              ch,
              r.status === 410 ? 'the receiver answered 410 Gone' : `every attempt failed (${attempt} over the retry schedule)`,
            );
          if (lane) await this.handOn(await (r.ok ? persist : once)(() => lanes!.done(...lane)));
          return { channel: ch.id, outcome };
        }
        if (lane) await lanes!.hold(...lane, this.deps.clock.now());
        if (requeue) {
          const due = new Date(Date.parse(at) + wait).toISOString();
          await ledger.settle(notice.key, ch.id, { retryAttempt: attempt + 1, dueAt: due }, this.deps.clock.now());
          // Further off than one queue delay allows: the message hops until it is due.
          const dueAt = wait > SQS_MAX_DELAY_SECONDS * 1000 ? { dueAt: due } : {};
          await this.deps.queue!.enqueue([{ notice, channel: ch.id, attempt: attempt + 1, ...dueAt }], Math.min(SQS_MAX_DELAY_SECONDS, Math.ceil(wait / 1000)));
          return { channel: ch.id, outcome: 'retrying' };
        }
        await this.sleep(wait);
      }
    } catch (e) {
      // Left 'sending' once accepted: the job's next run finds the claim, and after its lease the delivery record says it went out.
      // A retry job's claim goes back to 'retrying' (even at attempt 1: a notice handed on in its lane), never removed: its job takes it again by attempt.
      if (!accepted) await ledger.release(notice.key, ch.id, firstAttempt, retryJob).catch(() => undefined);
      throw e;
    }
  }

  /** The next notice of a game, parked behind the one just settled: now due. */
  private async handOn(job: NotifyJob | undefined): Promise<void> {
    if (!job) return;
    if (this.deps.queue) await this.deps.queue.enqueue([job]);
    else await this.handle(job);
  }

  /** Switches the webhook off and tells its owner by mail (when their address is verified), recorded in their delivery log. */
  private async switchOff(player: string, ch: Extract<Channel, { kind: 'webhook' }>, why: string): Promise<void> {
    const now = this.deps.clock.now();
    if (!(await this.deps.disableWebhook?.(player, ch.id, why, now))) return;
    const s = await this.deps.settings.get(player);
    if (!s?.email || !s.emailVerifiedAt) return;
    const deliveryId = deliveryIdOf(`webhook-off#${ch.id}#${now}`, player, 'email');
    const text = `Your webhook ${ch.id} (${maskUrl(ch.url)}) has been switched off: ${why}. Notices no longer go to it. Switch it on again with PUT /v1/me/settings {"webhooks": [{"id": "${ch.id}", "enabled": true}]} (list your other webhooks too), or  npm run cli -- settings.`;
    let error: string | undefined;
    try {
      await this.deps.mailer.send({ to: s.email, subject: `Fieldpost: webhook ${ch.id} switched off`, text, html: `<p>${escapeHtml(text)}</p>`, deliveryId });
    } catch (e) {
      error = `mail not accepted: ${(e as Error).message}`.slice(0, 300);
    }
    await this.deps.deliveries.record(player, {
      deliveryId,
      noticeKey: `webhook-off#${ch.id}`,
      kind: 'webhook-off',
      gameId: '',
      channel: 'email',
      channelId: 'email',
      target: s.email,
      attempt: 1,
      ok: error === undefined,
      ...(error ? { error } : {}),
      outcome: error === undefined ? 'sent' : 'failed',
      at: now,
    });
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
    const req = signedRequest(webhookPayload(ch.format, notice, rendered, deliveryId), { secrets: ch.secrets, deliveryId, nowSeconds });
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

const once = <T>(write: () => Promise<T>): Promise<T> => write();

/** A write that must not be lost to a passing fault: tried a few more times (over the SDK's own retries) before giving up. */
async function persist<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      if (attempt >= 5) throw e;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
}
