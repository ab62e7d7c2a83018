import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { DynamoDeliveryLog, DynamoSettingsStore } from '../../notify/stores.js';
import { checkResolved, checkWebhookUrl } from '../../notify/address-policy.js';
import {
  hashToken,
  newPending,
  nextEmailState,
  publicEmailVerification,
  resendWaitSeconds,
  sendVerificationMail,
  tokenMatches,
  VERIFICATION_RESEND_SECONDS,
  VERIFY_RULE,
} from '../../notify/email-verification.js';
import { NOTICE_KINDS } from '../../notify/decide.js';
import { isTimeZone } from '../../notify/digest.js';
import { WEBHOOK_RETRY_SCHEDULE_SECONDS } from '../../notify/notifier.js';
import { REMINDER_LEVELS } from '../../../domain/kernel/index.js';
import { mailerFromEnv, type Mailer } from '../../notify/mailer.js';
import { UNSUBSCRIBE_PATH, unsubscribeTokenOk } from '../../notify/unsubscribe.js';
import { systemClock } from '../../environment.js';
import { systemResolver } from '../../notify/webhook-transport.js';
import { maskUrl, type Resolver } from '../../notify/webhook.js';
import { AppError, type NotificationSettings, type StoredWebhook } from '../../ports.js';
import { isStandardSecret, newWebhookSecret } from '../../notify/signature.js';
import { errorReply } from '../router.js';
import { defineRoute, type Reply, type RouteModule } from '../types.js';

export const MAX_WEBHOOKS = 5;
const RULE = 'Fieldpost platform: notifications';

const webhookInput = z.strictObject({
  /** An existing webhook's id: fields left out keep their current value. */
  id: z
    .string()
    .regex(/^wh_[0-9a-f]{16}$/)
    .optional(),
  url: z.string().max(2048).optional(),
  /** Your own signing secret (Standard Webhooks: whsec_ and base64 of 24 to 64 bytes); left out, the server makes one and shows it once. */
  secret: z.string().max(100).refine(isStandardSecret, 'a Standard Webhooks secret: whsec_ and the base64 of 24 to 64 random bytes').optional(),
  /** Make a new secret (shown once); the old one keeps signing beside it for ROTATION_HOURS. */
  rotateSecret: z.literal(true).optional(),
  /** Switch a webhook back on after the notifier switched it off (410 Gone, or failing past the retry schedule). */
  enabled: z.literal(true).optional(),
  format: z.enum(['json', 'discord', 'slack']).optional(),
});

/** While a secret is rotated, deliveries are signed with the old one too for this long. */
export const ROTATION_HOURS = 24;

export const settingsBody = z.strictObject({
  /** null removes the address; left out keeps it. */
  email: z.email().max(254).nullable().optional(),
  /** The complete list (replaces the current one); left out keeps it. */
  webhooks: z.array(webhookInput).max(MAX_WEBHOOKS).optional(),
  /** Notice kinds not to mail (the complete list); left out keeps it. A mail's unsubscribe link adds its kind. */
  emailOff: z.array(z.enum(NOTICE_KINDS)).max(NOTICE_KINDS.length).optional(),
  /** Reminder levels not to send at all, by mail or webhook (the complete list); left out keeps it. */
  remindersOff: z.array(z.enum(REMINDER_LEVELS)).max(REMINDER_LEVELS.length).optional(),
  /** The daily digest at `hour` (0-23) in `timeZone` (an IANA name, UTC by default); null turns it off; left out keeps it. */
  digest: z
    .strictObject({ hour: z.number().int().min(0).max(23), timeZone: z.string().min(1).max(64).optional() })
    .nullable()
    .optional(),
});

/** What the API shows of a webhook: never the secret (but once, `fresh`), and the URL masked (chat URLs hold tokens). */
export const publicWebhook = (w: StoredWebhook, fresh = false) => ({
  id: w.id,
  url: maskUrl(w.url),
  format: w.format,
  secretHint: `…${w.secret.slice(-4)}`,
  ...(fresh ? { secret: w.secret } : {}),
  ...(w.previousSecret ? { previousSecretUntil: w.previousSecret.until } : {}),
  ...(w.disabled ? { disabled: w.disabled } : {}),
});
/** What GET /v1/me/settings shows: the email's verification state (never its token or hash), webhooks without secrets. */
export const publicSettings = (s: NotificationSettings | undefined, nowIso?: string, fresh: ReadonlySet<string> = new Set()) => ({
  email: s?.email ?? null,
  emailVerification: publicEmailVerification(s, nowIso),
  webhooks: (s?.webhooks ?? []).map((w) => publicWebhook(w, fresh.has(w.id))),
  emailOff: [...(s?.emailOff ?? [])],
  remindersOff: [...(s?.remindersOff ?? [])],
  digest: s?.digest ? { hour: s.digest.hour, timeZone: s.digest.timeZone ?? 'UTC' } : null,
});

/**
 * The JSON webhooks whose secret the server just made (new ones without a secret of their own,
 * and rotated ones): shown this once. Chat services check no signature, so theirs stay unseen.
 */
export const freshSecrets = (body: z.infer<typeof settingsBody>, next: NotificationSettings): Set<string> =>
  new Set(
    (body.webhooks ?? []).flatMap((w, i) => {
      const made = next.webhooks[i]!;
      return w.secret === undefined && (w.id === undefined || w.rotateSecret) && made.format === 'json' ? [made.id] : [];
    }),
  );

export const verifyBody = z.strictObject({ token: z.string().min(1).max(200) });

export const unsubscribeQuery = z.strictObject({ player: z.string().min(1).max(128), kind: z.enum(NOTICE_KINDS), token: z.string().min(1).max(100) });
const KIND_WORDS = {
  turn: '"your move"',
  started: '"game started"',
  ended: '"game over"',
  invited: 'invitation',
  reminder: 'reminder',
  tournament: 'tournament',
} as const;

/**
 * The settings after a PUT. Every webhook URL is checked against the address policy
 * (address-policy.ts): strict unless `allowPrivate` (the local runtime), so a deployed API
 * refuses http, credentials, localhost and private or reserved IP literals with a 400 that
 * names the reason, and nothing is written.
 */
export function mergeSettings(
  current: NotificationSettings | undefined,
  body: z.infer<typeof settingsBody>,
  allowPrivate: boolean,
  nowIso: string,
  newId: () => string = () => `wh_${randomBytes(8).toString('hex')}`,
): NotificationSettings {
  const email = body.email === undefined ? current?.email : (body.email ?? undefined);
  let webhooks = current?.webhooks ?? [];
  if (body.webhooks) {
    webhooks = body.webhooks.map((w, i) => {
      const existing = w.id === undefined ? undefined : current?.webhooks.find((x) => x.id === w.id);
      if (w.id !== undefined && !existing)
        throw new AppError(400, 'settings/unknown-webhook', `webhooks.${i}: there is no webhook ${w.id}; leave id out to add a new one`, RULE);
      const url = w.url ?? existing?.url;
      if (!url) throw new AppError(400, 'settings/webhook-url-required', `webhooks.${i}: a new webhook needs a url`, RULE);
      const verdict = checkWebhookUrl(url, { allowPrivate });
      if (!verdict.ok) throw new AppError(400, 'settings/bad-webhook-url', `webhooks.${i}: the url ${verdict.reason}`, RULE);
      const format = w.format ?? existing?.format ?? 'json';
      const secret = w.secret ?? (w.rotateSecret || !existing ? newWebhookSecret() : existing.secret);
      const rotated = existing && secret !== existing.secret;
      const previousSecret = rotated
        ? { secret: existing.secret, until: new Date(Date.parse(nowIso) + ROTATION_HOURS * 3600_000).toISOString() }
        : existing?.previousSecret && existing.previousSecret.until > nowIso
          ? existing.previousSecret
          : undefined;
      // A changed URL is a new receiver: whatever switched the old one off no longer applies.
      const disabled = w.enabled || (existing && url !== existing.url) ? undefined : existing?.disabled;
      return { id: existing?.id ?? newId(), url, secret, format, ...(previousSecret ? { previousSecret } : {}), ...(disabled ? { disabled } : {}) };
    });
  }
  const emailOff = body.emailOff === undefined ? current?.emailOff : [...new Set(body.emailOff)];
  const remindersOff = body.remindersOff === undefined ? current?.remindersOff : [...new Set(body.remindersOff)];
  if (body.digest?.timeZone !== undefined && !isTimeZone(body.digest.timeZone))
    throw new AppError(400, 'settings/bad-time-zone', `digest.timeZone: ${body.digest.timeZone} is not a time zone name (e.g. "Europe/Paris", "UTC")`, RULE);
  const digest = body.digest === undefined ? current?.digest : (body.digest ?? undefined);
  return {
    ...(digest ? { digest } : {}),
    ...(email ? { email } : {}),
    webhooks,
    ...(emailOff?.length ? { emailOff } : {}),
    ...(remindersOff?.length ? { remindersOff } : {}),
    // The key of the player's unsubscribe links outlives every change of settings.
    ...(current?.unsubscribeKey ? { unsubscribeKey: current.unsubscribeKey } : {}),
  };
}

/**
 * Save-time courtesy check of what the webhook host names resolve to, so a name pointing at
 * a private address is refused now rather than failing at its first delivery. It is not the
 * guard (DNS can change after saving; the notifier checks every delivery's addresses as it
 * connects): a name that does not resolve yet, or a slow resolver, is let through.
 */
export async function checkWebhookHosts(settings: NotificationSettings, resolve: Resolver, timeoutMs = 2000): Promise<void> {
  await Promise.all(
    settings.webhooks.map(async (w, i) => {
      const verdict = checkWebhookUrl(w.url);
      if (!verdict.ok || verdict.ip) return;
      const host = verdict.url.hostname;
      let timer: NodeJS.Timeout | undefined;
      const addresses = await Promise.race([
        resolve(host).catch(() => undefined),
        new Promise<undefined>((ok) => (timer = setTimeout(() => ok(undefined), timeoutMs))),
      ]).finally(() => clearTimeout(timer));
      if (!addresses) return;
      const refusal = checkResolved(
        host,
        addresses.map((a) => a.address),
      );
      if (refusal) throw new AppError(400, 'settings/bad-webhook-url', `webhooks.${i}: the url ${refusal.reason}`, RULE);
    }),
  );
}

export interface SettingsRouteOptions {
  /**
   * Local runtime only: webhooks may use plain http and point at private addresses (receivers
   * on 127.0.0.1). Default false: the deployed API accepts public https URLs only.
   */
  readonly allowPrivateWebhooks?: boolean;
  /** How host names are resolved for the save-time check (tests swap it). */
  readonly resolve?: Resolver;
  /**
   * How verification mail goes out and where its link points. Default (deployed): the mailer
   * from the environment (SES as MAIL_FROM) and APP_URL, made on first use. The local runtime
   * hands over its mail sink once the notifications extension has started it.
   */
  readonly verificationMail?: () => { readonly mailer: Mailer | undefined; readonly appUrl: string };
}

let fromEnv: { mailer: Mailer; appUrl: string } | undefined;
const verificationMailFromEnv = () => (fromEnv ??= { mailer: mailerFromEnv(process.env), appUrl: process.env['APP_URL'] ?? 'http://localhost:3000' });

const tooSoon = (seconds: number): Reply =>
  errorReply(
    429,
    'email/too-soon',
    `A verification mail went out less than ${VERIFICATION_RESEND_SECONDS} seconds ago; try again in ${seconds} s`,
    VERIFY_RULE,
    { 'retry-after': String(seconds) },
  );

/**
 * GET/PUT /v1/me/settings (notification channels), POST /v1/me/email/verify and
 * /v1/me/email/resend (email verification, see notify/email-verification.ts) and
 * GET /v1/me/deliveries (what was sent, what failed).
 */
export const createSettingsRoutes =
  (opts: SettingsRouteOptions = {}): RouteModule =>
  ({ dynamo, clock }) => {
    const store = new DynamoSettingsStore(dynamo.client, dynamo.tableName);
    const deliveries = new DynamoDeliveryLog(dynamo.client, dynamo.tableName);
    const allowPrivate = opts.allowPrivateWebhooks === true;
    const resolve = opts.resolve ?? systemResolver;
    const now = () => (clock ?? systemClock).now();
    const mailVerification = (player: string, email: string, token: string, expiresAt: string, nowIso: string) => {
      const { mailer, appUrl } = (opts.verificationMail ?? verificationMailFromEnv)();
      return sendVerificationMail({ mailer, appUrl, deliveries }, { player, email, token, expiresAt, nowIso });
    };
    return [
      defineRoute({
        method: 'GET',
        path: '/v1/me/settings',
        summary: 'Your notification channels (webhook secrets never shown)',
        responses: (r) => ({ 200: r.settingsReply }),
        auth: 'required',
        async handle({ player }) {
          return { status: 200, body: publicSettings(await store.get(player), now()) };
        },
      }),
      defineRoute({
        method: 'PUT',
        path: '/v1/me/settings',
        summary: 'Set your email, webhooks and which mail you want',
        responses: (r) => ({ 200: r.settingsReply, ...r.errors(429) }),
        limit: 'settings',
        auth: 'required',
        body: settingsBody,
        async handle({ player, body }) {
          const current = await store.get(player);
          const merged = mergeSettings(current, body, allowPrivate, now());
          if (!allowPrivate && body.webhooks) await checkWebhookHosts(merged, resolve);
          const at = now();
          const { state, token } = nextEmailState(current, merged.email, at);
          // A new address means a verification mail: the same limit as a resend, so changing the
          // address back and forth cannot flood someone's inbox. Nothing is written.
          const wait = token ? resendWaitSeconds(current, at) : 0;
          if (wait > 0) return tooSoon(wait);
          const next: NotificationSettings = { ...merged, ...state };
          await store.put(player, next);
          if (token && next.email && next.emailVerification) await mailVerification(player, next.email, token, next.emailVerification.expiresAt, at);
          return { status: 200, body: publicSettings(next, at, freshSecrets(body, next)) };
        },
      }),
      defineRoute({
        method: 'POST',
        path: '/v1/me/email/verify',
        summary: 'Confirm your email address with the code mailed to it',
        responses: (r) => ({ 200: r.settingsReply }),
        auth: 'required',
        body: verifyBody,
        async handle({ player, body }) {
          const at = now();
          const s = await store.get(player);
          if (!s?.email) throw new AppError(400, 'email/no-address', 'There is no email address in your settings to verify', VERIFY_RULE);
          const pending = s.emailVerification;
          if (!pending) {
            if (s.emailVerifiedAt)
              throw new AppError(400, 'email/already-verified', `${s.email} is verified already; there is nothing to confirm`, VERIFY_RULE);
            throw new AppError(400, 'email/wrong-token', 'This verification code is not valid; ask for a new mail with POST /v1/me/email/resend', VERIFY_RULE);
          }
          // Another player's code, an older mail's, or one for an address changed since: all wrong here.
          if (!tokenMatches(body.token, pending.tokenHash)) {
            throw new AppError(
              400,
              'email/wrong-token',
              `This verification code is not the one last mailed to ${s.email}; use the newest mail, or ask for a new one with POST /v1/me/email/resend`,
              VERIFY_RULE,
            );
          }
          if (at >= pending.expiresAt)
            throw new AppError(
              400,
              'email/token-expired',
              `This verification code expired at ${pending.expiresAt}; ask for a new one with POST /v1/me/email/resend`,
              VERIFY_RULE,
            );
          if (!(await store.confirmEmail(player, s.email, hashToken(body.token), at))) {
            throw new AppError(400, 'email/wrong-token', 'Your email settings changed meanwhile; this code no longer applies', VERIFY_RULE);
          }
          return { status: 200, body: publicSettings(await store.get(player), at) };
        },
      }),
      defineRoute({
        method: 'POST',
        path: '/v1/me/email/resend',
        summary: 'Mail a new verification code',
        responses: (r) => ({ 200: r.resendReply, ...r.errors(400, 409, 429) }),
        limit: 'mail',
        auth: 'required',
        async handle({ player }) {
          const at = now();
          const s = await store.get(player);
          if (!s?.email)
            throw new AppError(400, 'email/no-address', 'There is no email address in your settings; set one with PUT /v1/me/settings', VERIFY_RULE);
          if (s.emailVerifiedAt) throw new AppError(409, 'email/already-verified', `${s.email} is verified already`, VERIFY_RULE);
          const wait = resendWaitSeconds(s, at);
          if (wait > 0) return tooSoon(wait);
          const { token, pending } = newPending(at);
          // The rate limit is part of the write, so two resends at once send one mail.
          const notAfter = new Date(Date.parse(at) - VERIFICATION_RESEND_SECONDS * 1000).toISOString();
          if (!(await store.renewVerification(player, s.email, pending, at, notAfter))) {
            const again = await store.get(player);
            if (again?.email && !again.emailVerifiedAt && resendWaitSeconds(again, at) > 0) return tooSoon(resendWaitSeconds(again, at));
            throw new AppError(409, 'email/settings-changed', 'Your email settings changed meanwhile; read them again', VERIFY_RULE);
          }
          const sent = await mailVerification(player, s.email, token, pending.expiresAt, at);
          const next = await store.get(player);
          return { status: 200, body: { mailed: sent.ok, ...(sent.error ? { error: sent.error } : {}), ...publicSettings(next, at) } };
        },
      }),
      defineRoute({
        // One-click unsubscribe (RFC 8058; notify/unsubscribe.ts): no sign-in, the signed link is
        // the authority, and it can only turn one kind of mail off for one player. Mail
        // providers POST "List-Unsubscribe=One-Click" as a form; the body is not read.
        method: 'POST',
        path: UNSUBSCRIBE_PATH,
        summary: "One-click unsubscribe (RFC 8058) from a notice mail's signed link",
        responses: (r) => ({ 200: r.unsubscribeReply, ...r.errors(403) }),
        auth: 'none',
        query: unsubscribeQuery,
        async handle({ query }) {
          const s = await store.get(query.player);
          if (!unsubscribeTokenOk(s?.unsubscribeKey, query.player, query.kind, query.token))
            throw new AppError(403, 'unsubscribe/bad-link', 'This unsubscribe link is not valid (changed, or made for another player or kind of notice)', RULE);
          await store.turnOffEmail(query.player, query.kind);
          return {
            status: 200,
            body: {
              player: query.player,
              kind: query.kind,
              mailed: false,
              message: `${query.player} is no longer mailed ${KIND_WORDS[query.kind]} notices. Turn them back on with  npm run cli -- settings mail ${query.kind} on`,
            },
          };
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/v1/me/deliveries',
        summary: 'What was mailed or posted to your webhooks, and what failed',
        responses: (r) => ({ 200: r.deliveriesReply }),
        auth: 'required',
        query: z.strictObject({
          limit: z
            .string()
            .regex(/^\d{1,3}$/)
            .transform(Number)
            .pipe(z.number().int().min(1).max(100))
            .optional(),
        }),
        async handle({ player, query }) {
          return { status: 200, body: { deliveries: await deliveries.list(player, query.limit ?? 50), schedule: [...WEBHOOK_RETRY_SCHEDULE_SECONDS] } };
        },
      }),
    ];
  };

/** The routes as deployed (strict webhook policy); the local runtime builds its own with createSettingsRoutes. */
export const settingsRoutes: RouteModule = createSettingsRoutes();
