import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HS256 JSON Web Tokens for the local runtime only. In AWS, API Gateway's JWT authorizer
 * verifies Cognito's tokens before the handler runs; locally there is no Cognito, so the
 * runtime signs tokens with LOCAL_JWT_SECRET and the API verifies them here.
 */
export interface LocalClaims {
  readonly sub: string;
  readonly iat: number;
  readonly exp: number;
  readonly iss: string;
}

/**
 * Why a token was refused. 'issuer': not issued by this local runtime; 'not-yet-valid': issued
 * in the future (beyond the allowed clock skew); 'expired': past exp, or older than the
 * lifetime the verifier allows.
 */
export type JwtCheck =
  | { readonly ok: true; readonly claims: LocalClaims }
  | { readonly ok: false; readonly reason: 'malformed' | 'algorithm' | 'signature' | 'expired' | 'claims' | 'issuer' | 'not-yet-valid' };

export const LOCAL_ISSUER = 'fieldpost-local';
/** Clocks on one machine agree; a minute covers a token minted just before a clock step. */
export const DEFAULT_SKEW_SECONDS = 60;

export interface VerifyOptions {
  /** A token whose iat is more than this many seconds old is expired whatever its exp says. */
  readonly maxAgeSeconds?: number;
  /** How far in the future iat may be (default DEFAULT_SKEW_SECONDS). */
  readonly skewSeconds?: number;
}

const b64url = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

function hmac(secret: string, data: string): Buffer {
  return createHmac('sha256', secret).update(data).digest();
}

export function signLocalJwt(secret: string, player: string, opts: { nowSeconds: number; ttlSeconds: number }): string {
  if (secret.length < 16) throw new Error('LOCAL_JWT_SECRET must be at least 16 characters');
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims: LocalClaims = { sub: player, iat: opts.nowSeconds, exp: opts.nowSeconds + opts.ttlSeconds, iss: LOCAL_ISSUER };
  const payload = b64url(JSON.stringify(claims));
  return `${header}.${payload}.${b64url(hmac(secret, `${header}.${payload}`))}`;
}

function parseJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

const B64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Verifies signature (constant time), algorithm (HS256 only: never "none"), issuer (this local
 * runtime's), issue time (not in the future beyond the skew, not older than maxAgeSeconds) and expiry.
 */
export function verifyLocalJwt(secret: string, token: string, nowSeconds: number, opts: VerifyOptions = {}): JwtCheck {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => B64URL.test(p))) return { ok: false, reason: 'malformed' };
  const [h, p, s] = parts as [string, string, string];
  const header = parseJson(h) as { alg?: unknown; typ?: unknown } | undefined;
  if (!header || typeof header !== 'object') return { ok: false, reason: 'malformed' };
  if (header.alg !== 'HS256') return { ok: false, reason: 'algorithm' };
  const expected = hmac(secret, `${h}.${p}`);
  const given = Buffer.from(s, 'base64url');
  // Compare equal-length buffers only; a length mismatch is a bad signature anyway.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
  const claims = parseJson(p) as Partial<LocalClaims> | undefined;
  if (
    !claims ||
    typeof claims !== 'object' ||
    typeof claims.sub !== 'string' ||
    claims.sub === '' ||
    typeof claims.exp !== 'number' ||
    !Number.isFinite(claims.exp) ||
    typeof claims.iat !== 'number' ||
    !Number.isFinite(claims.iat)
  ) {
    return { ok: false, reason: 'claims' };
  }
  if (claims.iss !== LOCAL_ISSUER) return { ok: false, reason: 'issuer' };
  if (claims.iat > nowSeconds + (opts.skewSeconds ?? DEFAULT_SKEW_SECONDS)) return { ok: false, reason: 'not-yet-valid' };
  if (claims.exp <= nowSeconds) return { ok: false, reason: 'expired' };
  if (opts.maxAgeSeconds !== undefined && nowSeconds - claims.iat > opts.maxAgeSeconds) return { ok: false, reason: 'expired' };
  return { ok: true, claims: claims as LocalClaims };
}
