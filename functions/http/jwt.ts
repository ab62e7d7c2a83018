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
  readonly iss?: string;
}

export type JwtCheck =
  { readonly ok: true; readonly claims: LocalClaims } | { readonly ok: false; readonly reason: 'malformed' | 'algorithm' | 'signature' | 'expired' | 'claims' };

export const LOCAL_ISSUER = 'fieldpost-local';

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

/** Verifies signature (constant time), algorithm (HS256 only: never "none") and expiry. */
export function verifyLocalJwt(secret: string, token: string, nowSeconds: number): JwtCheck {
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
  if (!claims || typeof claims !== 'object' || typeof claims.sub !== 'string' || claims.sub === '' || typeof claims.exp !== 'number') {
    return { ok: false, reason: 'claims' };
  }
  if (claims.exp <= nowSeconds) return { ok: false, reason: 'expired' };
  return { ok: true, claims: claims as LocalClaims };
}
