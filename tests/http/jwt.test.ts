import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signLocalJwt, verifyLocalJwt } from '../../functions/http/jwt.js';

const SECRET = 'a-local-secret-for-tests-0123456789';
const NOW = 1_900_000_000;
const token = (player = 'alice', ttl = 600) => signLocalJwt(SECRET, player, { nowSeconds: NOW, ttlSeconds: ttl });
const b64 = (x: unknown) => Buffer.from(JSON.stringify(x)).toString('base64url');
const sign = (h: string, p: string, secret = SECRET) => createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url');

describe('local HS256 tokens', () => {
  it('round-trips a valid token', () => {
    const r = verifyLocalJwt(SECRET, token(), NOW + 1);
    expect(r).toEqual({ ok: true, claims: { sub: 'alice', iat: NOW, exp: NOW + 600, iss: 'fieldpost-local' } });
  });

  it('rejects a tampered payload or signature', () => {
    const [h, p, s] = token().split('.') as [string, string, string];
    const otherPayload = b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'bob' });
    expect(verifyLocalJwt(SECRET, `${h}.${otherPayload}.${s}`, NOW)).toEqual({ ok: false, reason: 'signature' });
    const flipped = s.slice(0, -2) + (s.at(-2) === 'A' ? 'B' : 'A') + s.at(-1);
    expect(verifyLocalJwt(SECRET, `${h}.${p}.${flipped}`, NOW)).toEqual({ ok: false, reason: 'signature' });
    expect(verifyLocalJwt(SECRET, `${h}.${p}.${s.slice(0, 10)}`, NOW)).toEqual({ ok: false, reason: 'signature' });
    expect(verifyLocalJwt('some-other-secret-0123456789', token(), NOW)).toEqual({ ok: false, reason: 'signature' });
  });

  it('rejects an expired token, at and after exp', () => {
    expect(verifyLocalJwt(SECRET, token('alice', 60), NOW + 60)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyLocalJwt(SECRET, token('alice', -1), NOW)).toEqual({ ok: false, reason: 'expired' });
  });

  it('rejects any algorithm but HS256, including "none"', () => {
    const p = b64({ sub: 'alice', iat: NOW, exp: NOW + 600 });
    const none = b64({ alg: 'none', typ: 'JWT' });
    expect(verifyLocalJwt(SECRET, `${none}.${p}.${sign(none, p)}`, NOW)).toEqual({ ok: false, reason: 'algorithm' });
    expect(verifyLocalJwt(SECRET, `${none}.${p}.`, NOW)).toEqual({ ok: false, reason: 'malformed' });
    const hs512 = b64({ alg: 'HS512', typ: 'JWT' });
    expect(verifyLocalJwt(SECRET, `${hs512}.${p}.${sign(hs512, p)}`, NOW)).toEqual({ ok: false, reason: 'algorithm' });
    const rs = b64({ alg: 'RS256' });
    expect(verifyLocalJwt(SECRET, `${rs}.${p}.${sign(rs, p)}`, NOW).ok).toBe(false);
  });

  it('rejects malformed tokens and tokens without sub or exp', () => {
    for (const t of ['', 'abc', 'a.b', 'a.b.c.d', '!!.??.**']) expect(verifyLocalJwt(SECRET, t, NOW).ok).toBe(false);
    const h = b64({ alg: 'HS256', typ: 'JWT' });
    const noExp = b64({ sub: 'alice' });
    expect(verifyLocalJwt(SECRET, `${h}.${noExp}.${sign(h, noExp)}`, NOW)).toEqual({ ok: false, reason: 'claims' });
    const noSub = b64({ exp: NOW + 60 });
    expect(verifyLocalJwt(SECRET, `${h}.${noSub}.${sign(h, noSub)}`, NOW)).toEqual({ ok: false, reason: 'claims' });
  });

  it('rejects a token from another issuer, or with no issuer, even when signed with the secret', () => {
    const h = b64({ alg: 'HS256', typ: 'JWT' });
    for (const claims of [
      { sub: 'alice', iat: NOW, exp: NOW + 600, iss: 'someone-else' },
      { sub: 'alice', iat: NOW, exp: NOW + 600 },
      { sub: 'alice', iat: NOW, exp: NOW + 600, iss: ['fieldpost-local'] },
    ]) {
      const p = b64(claims);
      expect(verifyLocalJwt(SECRET, `${h}.${p}.${sign(h, p)}`, NOW)).toEqual({ ok: false, reason: 'issuer' });
    }
  });

  it('rejects a token issued in the future beyond a small skew, or without an issue time', () => {
    const h = b64({ alg: 'HS256', typ: 'JWT' });
    const at = (iat: unknown) => {
      const p = b64({ sub: 'alice', iat, exp: NOW + 10 * 3600, iss: 'fieldpost-local' });
      return verifyLocalJwt(SECRET, `${h}.${p}.${sign(h, p)}`, NOW);
    };
    expect(at(NOW + 30).ok).toBe(true); // within the skew
    expect(at(NOW + 3600)).toEqual({ ok: false, reason: 'not-yet-valid' });
    expect(at(undefined)).toEqual({ ok: false, reason: 'claims' });
    expect(at('1900000000')).toEqual({ ok: false, reason: 'claims' });
  });

  it('rejects a token older than the allowed lifetime, whatever its exp says', () => {
    const long = signLocalJwt(SECRET, 'alice', { nowSeconds: NOW, ttlSeconds: 365 * 86400 });
    expect(verifyLocalJwt(SECRET, long, NOW + 3600, { maxAgeSeconds: 86400 }).ok).toBe(true);
    expect(verifyLocalJwt(SECRET, long, NOW + 86401, { maxAgeSeconds: 86400 })).toEqual({ ok: false, reason: 'expired' });
    expect(verifyLocalJwt(SECRET, long, NOW + 86401).ok).toBe(true); // no lifetime given: exp decides
  });

  it('refuses to sign with a short secret', () => {
    expect(() => signLocalJwt('short', 'alice', { nowSeconds: NOW, ttlSeconds: 60 })).toThrow(/16/);
  });
});
