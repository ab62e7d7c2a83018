import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures as the Standard Webhooks specification (standardwebhooks.com) says, so a
 * receiver can check them with any of its libraries:
 *   webhook-id:        the delivery's id, the same on every retry of one notice (de-duplicate on it)
 *   webhook-timestamp: unix seconds of this attempt
 *   webhook-signature: space-separated `v1,<base64 HMAC-SHA256(key, `${id}.${timestamp}.${body}`)>`,
 *                      one per secret in use (two while a secret is being rotated)
 * A secret is `whsec_` and the base64 of its key bytes. Secrets saved before this scheme (plain
 * strings of 16+ characters) sign with their UTF-8 bytes as the key.
 */
export const ID_HEADER = 'webhook-id';
export const TIMESTAMP_HEADER = 'webhook-timestamp';
export const SIGNATURE_HEADER = 'webhook-signature';

const PREFIX = 'whsec_';

/** A new secret: 24 random bytes (the specification asks for 24 to 64), shown to its owner once. */
export const newWebhookSecret = (): string => `${PREFIX}${randomBytes(24).toString('base64')}`;

/** A secret the specification accepts: whsec_ and base64 of 24 to 64 bytes. */
export function isStandardSecret(secret: string): boolean {
  if (!secret.startsWith(PREFIX)) return false;
  const b64 = secret.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return false;
  const n = Buffer.from(b64, 'base64').length;
  return n >= 24 && n <= 64;
}

const keyOf = (secret: string): Buffer => (secret.startsWith(PREFIX) ? Buffer.from(secret.slice(PREFIX.length), 'base64') : Buffer.from(secret, 'utf8'));

export function computeSignature(secret: string, id: string, timestamp: number, body: string): string {
  return createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64');
}

/** The webhook-signature header: one `v1,<sig>` per secret, separated by spaces. */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((s) => `v1,${computeSignature(s, id, timestamp, body)}`).join(' ');
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: 'malformed' | 'no-match' | 'too-old' | 'in-future' };

/**
 * What a receiver does (the standardwebhooks package does the same): recompute the signature
 * over the raw body, compare in constant time with each v1 entry, and refuse a timestamp more
 * than `toleranceSeconds` (default 5 minutes) from its own clock, so a captured request cannot
 * be replayed later.
 */
export function verifySignature(opts: {
  headers: { readonly id?: string | null; readonly timestamp?: string | null; readonly signature?: string | null };
  body: string;
  secret: string;
  nowSeconds: number;
  toleranceSeconds?: number;
}): VerifyResult {
  const tolerance = opts.toleranceSeconds ?? 300;
  const { id, timestamp, signature } = opts.headers;
  if (!id || !timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'malformed' };
  const t = Number(timestamp);
  const given = signature
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .map((part) => Buffer.from(part.slice(3), 'base64'));
  if (given.length === 0) return { ok: false, reason: 'malformed' };
  const expected = Buffer.from(computeSignature(opts.secret, id, t, opts.body), 'base64');
  if (!given.some((sig) => sig.length === expected.length && timingSafeEqual(sig, expected))) return { ok: false, reason: 'no-match' };
  if (t < opts.nowSeconds - tolerance) return { ok: false, reason: 'too-old' };
  if (t > opts.nowSeconds + tolerance) return { ok: false, reason: 'in-future' };
  return { ok: true, timestamp: t };
}
