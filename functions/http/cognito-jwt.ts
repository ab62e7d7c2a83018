import { createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';

/**
 * Cognito's tokens verified in the function, for a front door with no authorizer of its own (a
 * Lambda function URL): the RS256 signature against the user pool's published keys (JWKS), the
 * issuer, the app client (an ID token's `aud`, an access token's `client_id`), `token_use` and
 * expiry, as Cognito's documentation lists them.
 */
export interface CognitoPool {
  /** `https://cognito-idp.<region>.amazonaws.com/<userPoolId>`: the tokens' `iss`. */
  readonly issuer: string;
  /** The app client the tokens must be issued to. */
  readonly clientId: string;
}

export type CognitoClaims = Readonly<Record<string, unknown>> & { readonly exp: number; readonly token_use: 'id' | 'access' };

export type CognitoCheck =
  | { readonly ok: true; readonly claims: CognitoClaims }
  | { readonly ok: false; readonly reason: 'malformed' | 'algorithm' | 'key' | 'signature' | 'issuer' | 'audience' | 'token-use' | 'expired' };

/** The pool's public key with this id, or undefined if the pool has none by that id. */
export type KeyLookup = (kid: string) => Promise<KeyObject | undefined>;

const B64URL = /^[A-Za-z0-9_-]+$/;

function decode(part: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export async function verifyCognitoJwt(token: string, pool: CognitoPool, keys: KeyLookup, nowSeconds: number): Promise<CognitoCheck> {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => B64URL.test(p))) return { ok: false, reason: 'malformed' };
  const [h, p, s] = parts as [string, string, string];
  const header = decode(h);
  const claims = decode(p);
  if (!header || !claims) return { ok: false, reason: 'malformed' };
  // RS256 only: never "none", never an HMAC keyed with the public key.
  if (header['alg'] !== 'RS256') return { ok: false, reason: 'algorithm' };
  const key = typeof header['kid'] === 'string' ? await keys(header['kid']) : undefined;
  if (!key) return { ok: false, reason: 'key' };
  if (!verify('RSA-SHA256', Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url'))) return { ok: false, reason: 'signature' };
  if (claims['iss'] !== pool.issuer) return { ok: false, reason: 'issuer' };
  const use = claims['token_use'];
  if (use !== 'id' && use !== 'access') return { ok: false, reason: 'token-use' };
  // An ID token names its app client in `aud`, an access token in `client_id`.
  if ((use === 'id' ? claims['aud'] : claims['client_id']) !== pool.clientId) return { ok: false, reason: 'audience' };
  const exp = claims['exp'];
  if (typeof exp !== 'number' || !Number.isFinite(exp) || exp <= nowSeconds) return { ok: false, reason: 'expired' };
  return { ok: true, claims: claims as CognitoClaims };
}

/** How long an unknown key id waits before the key set is fetched again (a forged kid must not make every request a fetch). */
export const JWKS_REFETCH_SECONDS = 300;

/**
 * The pool's keys from `<issuer>/.well-known/jwks.json`, fetched when first needed and kept for the
 * life of the process; fetched again for an unknown key id (Cognito rotating its keys) at most once
 * every JWKS_REFETCH_SECONDS.
 */
export function jwksKeys(
  issuer: string,
  fetchJson: (url: string) => Promise<unknown> = fetchJwks,
  nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
): KeyLookup {
  let byKid = new Map<string, KeyObject>();
  let fetchedAt = -Infinity;
  let pending: Promise<void> | undefined;
  const refresh = async () => {
    const body = (await fetchJson(`${issuer}/.well-known/jwks.json`)) as { keys?: unknown };
    const next = new Map<string, KeyObject>();
    for (const k of Array.isArray(body?.keys) ? (body.keys as JsonWebKey[]) : []) {
      if (k.kty === 'RSA' && typeof k['kid'] === 'string') next.set(k['kid'], createPublicKey({ key: k, format: 'jwk' }));
    }
    byKid = next;
    fetchedAt = nowSeconds();
  };
  return async (kid) => {
    if (!byKid.has(kid) && nowSeconds() - fetchedAt >= JWKS_REFETCH_SECONDS) {
      pending ??= refresh().finally(() => (pending = undefined));
      await pending;
    }
    return byKid.get(kid);
  };
}

async function fetchJwks(url: string): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res.json();
}
