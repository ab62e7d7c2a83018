import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures in the style of Stripe's: the header
 *   Fieldpost-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, `${t}.${body}`)>
 * Receivers recompute the HMAC over the raw body bytes exactly as received, compare in
 * constant time, and refuse timestamps outside a tolerance so a captured request cannot
 * be replayed later. Several v1 entries may appear (while a secret is being rotated).
 */
export const SIGNATURE_HEADER = 'Fieldpost-Signature';
export const DELIVERY_HEADER = 'Fieldpost-Delivery';
export const EVENT_HEADER = 'Fieldpost-Event';

export function computeSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${computeSignature(secret, timestamp, body)}`;
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: 'malformed' | 'no-match' | 'too-old' | 'in-future' };

/**
 * Verifies a Fieldpost-Signature header against the raw request body.
 * @param nowSeconds the receiver's clock, unix seconds
 * @param toleranceSeconds how far the timestamp may be from now (default 5 minutes)
 */
export function verifySignature(opts: {
  header: string | undefined | null;
  body: string;
  secret: string;
  nowSeconds: number;
  toleranceSeconds?: number;
}): VerifyResult {
  const tolerance = opts.toleranceSeconds ?? 300;
  if (!opts.header) return { ok: false, reason: 'malformed' };
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of opts.header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const k = part.slice(0, eq).trim();
    const v = part.slice(eq + 1).trim();
    if (k === 't' && /^\d{1,12}$/.test(v)) t = Number(v);
    else if (k === 'v1' && /^[0-9a-f]{64}$/.test(v)) v1.push(v);
  }
  if (t === undefined || v1.length === 0) return { ok: false, reason: 'malformed' };
  const expected = Buffer.from(computeSignature(opts.secret, t, opts.body), 'hex');
  const match = v1.some((sig) => timingSafeEqual(Buffer.from(sig, 'hex'), expected));
  if (!match) return { ok: false, reason: 'no-match' };
  if (t < opts.nowSeconds - tolerance) return { ok: false, reason: 'too-old' };
  if (t > opts.nowSeconds + tolerance) return { ok: false, reason: 'in-future' };
  return { ok: true, timestamp: t };
}
