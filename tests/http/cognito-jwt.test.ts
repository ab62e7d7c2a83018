import { createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { authenticatorFromEnv, cognitoJwtAuthenticator } from '../../functions/http/auth.js';
import { JWKS_REFETCH_SECONDS, jwksKeys, verifyCognitoJwt, type CognitoPool } from '../../functions/http/cognito-jwt.js';
import { AppError } from '../../functions/ports.js';
import { apiEvent } from './support.js';

/**
 * Cognito tokens verified in the function (the function URL front door): tokens signed here with a
 * locally generated RSA key, published as a JWKS the way Cognito publishes its pool's keys.
 */
const pool: CognitoPool = { issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_TEST', clientId: 'client-1' };
const NOW = 1_800_000_000;
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' }] };

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
function sign(claims: Record<string, unknown>, opts: { kid?: string; alg?: string; key?: KeyObject } = {}): string {
  const head = `${b64({ alg: opts.alg ?? 'RS256', kid: opts.kid ?? 'k1' })}.${b64(claims)}`;
  return `${head}.${createSign('RSA-SHA256')
    .update(head)
    .sign(opts.key ?? privateKey)
    .toString('base64url')}`;
}
const idClaims = { iss: pool.issuer, aud: pool.clientId, token_use: 'id', 'cognito:username': 'alice', sub: 'uuid-1', exp: NOW + 600, iat: NOW - 10 };
const accessClaims = { iss: pool.issuer, client_id: pool.clientId, token_use: 'access', username: 'bob', sub: 'uuid-2', exp: NOW + 600, iat: NOW - 10 };
const keys = jwksKeys(
  pool.issuer,
  async () => jwks,
  () => NOW,
);
const check = (token: string) => verifyCognitoJwt(token, pool, keys, NOW);
const reason = async (token: string) => {
  const r = await check(token);
  return r.ok ? 'ok' : r.reason;
};

describe('verifyCognitoJwt', () => {
  it('accepts an ID token and an access token of this pool and app client', async () => {
    expect(await check(sign(idClaims))).toMatchObject({ ok: true, claims: { 'cognito:username': 'alice' } });
    expect(await check(sign(accessClaims))).toMatchObject({ ok: true, claims: { username: 'bob' } });
  });

  it('refuses a token signed with another key, a tampered payload, an unknown key id, or another algorithm', async () => {
    expect(await reason(sign(idClaims, { key: other.privateKey }))).toBe('signature');
    const [h, , s] = sign(idClaims).split('.');
    expect(await reason(`${h}.${b64({ ...idClaims, 'cognito:username': 'mallory' })}.${s}`)).toBe('signature');
    expect(await reason(sign(idClaims, { kid: 'nope' }))).toBe('key');
    expect(await reason(sign(idClaims, { alg: 'HS256' }))).toBe('algorithm');
    const none = `${b64({ alg: 'none', kid: 'k1' })}.${b64(idClaims)}.`;
    expect(await reason(none)).toBe('malformed');
    expect(await reason('not-a-jwt')).toBe('malformed');
  });

  it('refuses another issuer, another app client, an unknown token_use, and an expired token', async () => {
    expect(await reason(sign({ ...idClaims, iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_OTHER' }))).toBe('issuer');
    expect(await reason(sign({ ...idClaims, aud: 'client-2' }))).toBe('audience');
    // An access token names its client in client_id; an aud of the right value does not stand in for it.
    expect(await reason(sign({ ...accessClaims, client_id: undefined, aud: pool.clientId }))).toBe('audience');
    expect(await reason(sign({ ...idClaims, token_use: 'refresh' }))).toBe('token-use');
    expect(await reason(sign({ ...idClaims, token_use: undefined }))).toBe('token-use');
    expect(await reason(sign({ ...idClaims, exp: NOW }))).toBe('expired');
    expect(await reason(sign({ ...idClaims, exp: undefined }))).toBe('expired');
  });
});

describe('jwksKeys', () => {
  it('fetches the key set once, and again for an unknown key id only after the cool-down', async () => {
    let now = NOW;
    const fetchJson = vi.fn(async (url: string) => {
      expect(url).toBe(`${pool.issuer}/.well-known/jwks.json`);
      return jwks;
    });
    const lookup = jwksKeys(pool.issuer, fetchJson, () => now);
    expect(await Promise.all([lookup('k1'), lookup('k1')])).toEqual([expect.anything(), expect.anything()]);
    expect(await lookup('k1')).toBeDefined();
    expect(fetchJson).toHaveBeenCalledTimes(1);
    // A forged key id does not make every request a fetch.
    expect(await lookup('forged')).toBeUndefined();
    expect(await lookup('forged')).toBeUndefined();
    expect(fetchJson).toHaveBeenCalledTimes(1);
    now += JWKS_REFETCH_SECONDS;
    expect(await lookup('forged')).toBeUndefined();
    expect(fetchJson).toHaveBeenCalledTimes(2);
  });
});

describe('cognitoJwtAuthenticator', () => {
  const auth = cognitoJwtAuthenticator(
    pool.issuer,
    async () => pool.clientId,
    keys,
    () => NOW,
  );
  const status = async (headers: Record<string, string>) => {
    try {
      return await auth(apiEvent('GET', '/v1/me/games', { headers }));
    } catch (e) {
      return e instanceof AppError ? `${e.status} ${e.code}` : String(e);
    }
  };

  it('takes the player from a verified token, and ignores claims an authorizer would have passed', async () => {
    expect(await status({ authorization: `Bearer ${sign(idClaims)}` })).toBe('alice');
    expect(await status({ authorization: `Bearer ${sign(accessClaims)}` })).toBe('bob');
    const forged = apiEvent('GET', '/v1/me/games', { claims: { 'cognito:username': 'mallory' } });
    await expect(auth(forged)).rejects.toMatchObject({ status: 401, code: 'auth/missing-token' });
  });

  it('answers 401 for a bad or expired token, and 503 when the keys cannot be read', async () => {
    expect(await status({})).toBe('401 auth/missing-token');
    expect(await status({ authorization: `Bearer ${sign(idClaims, { key: other.privateKey })}` })).toBe('401 auth/invalid-token');
    expect(await status({ authorization: `Bearer ${sign({ ...idClaims, exp: NOW - 1 })}` })).toBe('401 auth/token-expired');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const down = cognitoJwtAuthenticator(
      pool.issuer,
      async () => pool.clientId,
      jwksKeys(pool.issuer, () => Promise.reject(new Error('timeout'))),
      () => NOW,
    );
    const signedIn = apiEvent('GET', '/', { headers: { authorization: `Bearer ${sign(idClaims)}` } });
    await expect(down(signedIn)).rejects.toMatchObject({ status: 503, code: 'auth/keys-unavailable' });
    vi.restoreAllMocks();
  });

  it('AUTH_MODE=cognito-jwt needs the issuer and the app client, named or kept in an SSM parameter read once (again only after a failed read)', async () => {
    expect(() => authenticatorFromEnv({ AUTH_MODE: 'cognito-jwt', COGNITO_CLIENT_ID: 'c' })).toThrow(/COGNITO_ISSUER/);
    expect(() => authenticatorFromEnv({ AUTH_MODE: 'cognito-jwt', COGNITO_ISSUER: pool.issuer })).toThrow(/COGNITO_CLIENT_ID/);
    const read = vi.fn(async (name: string) => (name === '/Fieldpost/api/web-client-id' ? pool.clientId : 'wrong'));
    read.mockRejectedValueOnce(new Error('throttled'));
    const auth = authenticatorFromEnv(
      { AUTH_MODE: 'cognito-jwt', COGNITO_ISSUER: pool.issuer, COGNITO_CLIENT_ID_PARAMETER: '/Fieldpost/api/web-client-id' },
      read,
    );
    // The key set is fetched from Cognito by default: this test reaches it only through the parameter's failure and the claims' checks.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const bad = apiEvent('GET', '/', { headers: { authorization: 'Bearer a.b.c' } });
    await expect(auth(bad)).rejects.toMatchObject({ status: 503 });
    await expect(auth(bad)).rejects.toMatchObject({ status: 401, code: 'auth/invalid-token' });
    await expect(auth(bad)).rejects.toMatchObject({ status: 401 });
    expect(read).toHaveBeenCalledTimes(2);
    vi.restoreAllMocks();
  });
});
