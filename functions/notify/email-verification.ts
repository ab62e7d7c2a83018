import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { NotificationSettings } from '../ports.js';
import type { Mailer } from './mailer.js';
import { renderVerificationMail, verifyLink } from './render.js';
import type { DeliveryLog } from './stores.js';

/**
 * Email verification: nothing is mailed to an address until its owner proves they read it.
 * Without this a player could aim "your turn" mail at someone else's inbox, and a typo would
 * lose every notice silently.
 *
 * Setting or changing the address stores it unverified with a fresh random token; only the
 * token's SHA-256 hash is kept, with an expiry. One mail carries the token to the address.
 * The player confirms with POST /v1/me/email/verify {token}, signed in as themselves.
 *
 * Why a signed-in POST and not a GET link that verifies by itself: mail scanners and link
 * previewers fetch every link in a mail, so a state-changing GET would verify addresses nobody
 * looked at. And if the token alone were enough, a victim who clicked a link in a mail they
 * did not ask for would opt in to the abuser's notices. Requiring the player's own sign-in
 * ties the proof to both the mailbox (the token) and the account. The link in the mail opens a
 * page of the app (locally: the runtime's /verify-email page) that changes nothing by being
 * opened; its Confirm button makes the POST.
 */

/** How long a verification token works. */
export const VERIFICATION_TTL_SECONDS = 24 * 3600;
/** At most one verification mail per player per this long (resends and address changes alike). */
export const VERIFICATION_RESEND_SECONDS = 60;
export const VERIFY_RULE = 'Fieldpost platform: notifications (email verification)';

/** 32 random bytes, base64url (43 characters): what the mail carries. */
export const newVerificationToken = (): string => randomBytes(32).toString('base64url');
export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** Constant-time comparison of a presented token with the stored hash. */
export function tokenMatches(token: string, tokenHash: string): boolean {
  const a = Buffer.from(hashToken(token), 'hex');
  const b = Buffer.from(tokenHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

const plus = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

/** Seconds until another verification mail may go out (0: now). */
export function resendWaitSeconds(s: NotificationSettings | undefined, nowIso: string): number {
  if (!s?.verificationMailedAt) return 0;
  const ms = Date.parse(s.verificationMailedAt) + VERIFICATION_RESEND_SECONDS * 1000 - Date.parse(nowIso);
  return ms > 0 ? Math.ceil(ms / 1000) : 0;
}

/** A fresh pending verification: the token (for the mail only) and what is stored. */
export function newPending(nowIso: string): { token: string; pending: { tokenHash: string; expiresAt: string } } {
  const token = newVerificationToken();
  return { token, pending: { tokenHash: hashToken(token), expiresAt: plus(nowIso, VERIFICATION_TTL_SECONDS) } };
}

/**
 * The email part of the settings after a PUT: the same address keeps its state (verified
 * stays verified, a pending token stays pending, and no mail goes out); a new address is
 * unverified with a fresh token (returned, to be mailed), replacing any pending one.
 */
export function nextEmailState(
  current: NotificationSettings | undefined,
  email: string | undefined,
  nowIso: string,
): { state: Pick<NotificationSettings, 'emailVerifiedAt' | 'emailVerification' | 'verificationMailedAt'>; token?: string } {
  const mailedAt = current?.verificationMailedAt ? { verificationMailedAt: current.verificationMailedAt } : {};
  if (!email) return { state: mailedAt };
  if (current?.email === email) {
    return {
      state: {
        ...mailedAt,
        ...(current.emailVerifiedAt ? { emailVerifiedAt: current.emailVerifiedAt } : {}),
        ...(current.emailVerification ? { emailVerification: current.emailVerification } : {}),
      },
    };
  }
  const { token, pending } = newPending(nowIso);
  return { state: { emailVerification: pending, verificationMailedAt: nowIso }, token };
}

/** What GET /v1/me/settings shows of the verification: never the token or its hash. */
export type PublicEmailVerification =
  | { status: 'verified'; verifiedAt: string }
  | { status: 'pending' | 'expired'; expiresAt: string; resendAfter: string | null }
  | { status: 'unverified'; resendAfter: string | null };

export function publicEmailVerification(s: NotificationSettings | undefined, nowIso?: string): PublicEmailVerification | null {
  if (!s?.email) return null;
  if (s.emailVerifiedAt) return { status: 'verified', verifiedAt: s.emailVerifiedAt };
  const resendAfter = s.verificationMailedAt ? plus(s.verificationMailedAt, VERIFICATION_RESEND_SECONDS) : null;
  // Saved before verification existed, or a mail that could not be built: ask for one.
  if (!s.emailVerification) return { status: 'unverified', resendAfter };
  const expired = nowIso !== undefined && nowIso >= s.emailVerification.expiresAt;
  return { status: expired ? 'expired' : 'pending', expiresAt: s.emailVerification.expiresAt, resendAfter };
}

/**
 * Sends the verification mail and records the attempt in the player's delivery log (kind
 * 'email-verification'), so a failure is visible in GET /v1/me/deliveries. Never throws for a
 * mail that was not accepted: the settings are saved already and the player can resend.
 */
export async function sendVerificationMail(
  deps: { mailer: Mailer | undefined; appUrl: string; deliveries: DeliveryLog },
  v: { player: string; email: string; token: string; expiresAt: string; nowIso: string },
): Promise<{ ok: boolean; error?: string }> {
  const deliveryId = `vrf_${randomBytes(16).toString('hex')}`;
  const mail = renderVerificationMail({ player: v.player, email: v.email, link: verifyLink(deps.appUrl, v.token), token: v.token, expiresAt: v.expiresAt });
  let error: string | undefined;
  if (!deps.mailer) error = 'no mail transport is configured (locally, npm start runs the mail sink)';
  else {
    try {
      await deps.mailer.send({ to: v.email, ...mail, deliveryId });
    } catch (e) {
      error = `mail not accepted: ${(e as Error).message}`.slice(0, 300);
    }
  }
  await deps.deliveries.record(v.player, {
    deliveryId,
    noticeKey: `verify-email#${v.nowIso}`,
    kind: 'email-verification',
    gameId: '',
    channel: 'email',
    channelId: 'email',
    target: v.email,
    attempt: 1,
    ok: error === undefined,
    ...(error !== undefined ? { error } : {}),
    outcome: error === undefined ? 'sent' : 'failed',
    at: v.nowIso,
  });
  return error === undefined ? { ok: true } : { ok: false, error };
}
