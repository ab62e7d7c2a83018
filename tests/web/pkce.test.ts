import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authorizeUrl, codeChallenge, codeVerifier, readCallback, tokenRequest } from '../../web/src/pkce.js';

const config = { domain: 'https://fieldpost-test.auth.eu-west-1.amazoncognito.com', clientId: 'abc123', redirectUri: 'https://play.example.org/auth/callback' };

describe('Cognito hosted sign-in: authorization code with PKCE (RFC 7636)', () => {
  it('makes verifiers of the asked length from the unreserved characters only, and refuses lengths outside 43-128', () => {
    for (const n of [43, 64, 128]) expect(codeVerifier(n)).toMatch(new RegExp(`^[A-Za-z0-9._~-]{${n}}$`));
    expect(codeVerifier()).not.toBe(codeVerifier());
    expect(() => codeVerifier(42)).toThrow(RangeError);
    expect(() => codeVerifier(129)).toThrow(RangeError);
  });

  it('throws away bytes that would bias the draw (198 and above: 256 is not a multiple of 66)', () => {
    let call = 0;
    // First batch: all bias bytes (dropped); then bytes 0,1,2... map to A,B,C...
    const random = (b: Uint8Array) => (call++ === 0 ? b.fill(250) : b.map((_, i) => i % 66));
    expect(codeVerifier(43, random)).toBe('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq');
  });

  it("derives the S256 challenge as RFC 7636's appendix B example does", async () => {
    expect(await codeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    const v = codeVerifier();
    expect(await codeChallenge(v)).toBe(createHash('sha256').update(v).digest('base64url'));
  });

  it('sends the browser to /oauth2/authorize with the code flow, the client, the redirect, the scopes, the state and the S256 challenge', () => {
    const url = new URL(authorizeUrl(config, 'CHALLENGE', 'STATE'));
    expect(url.origin + url.pathname).toBe('https://fieldpost-test.auth.eu-west-1.amazoncognito.com/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'abc123',
      redirect_uri: 'https://play.example.org/auth/callback',
      scope: 'openid email profile',
      state: 'STATE',
      code_challenge: 'CHALLENGE',
      code_challenge_method: 'S256',
    });
  });

  it('trades the code at /oauth2/token with the verifier (no client secret)', () => {
    const r = tokenRequest(config, 'CODE', 'VERIFIER');
    expect(r.url).toBe('https://fieldpost-test.auth.eu-west-1.amazoncognito.com/oauth2/token');
    expect(Object.fromEntries(r.body)).toEqual({
      grant_type: 'authorization_code',
      client_id: 'abc123',
      code: 'CODE',
      redirect_uri: 'https://play.example.org/auth/callback',
      code_verifier: 'VERIFIER',
    });
  });

  it('accepts a callback only with the state this browser sent', () => {
    expect(readCallback('?code=C1&state=S1', 'S1')).toEqual({ code: 'C1' });
    expect(readCallback('?code=C1&state=FORGED', 'S1')).toHaveProperty('error');
    expect(readCallback('?code=C1&state=S1', null)).toHaveProperty('error');
    expect(readCallback('?state=S1', 'S1')).toEqual({ error: 'the sign-in page sent no code back' });
    expect(readCallback('?error=access_denied&error_description=nope', 'S1')).toEqual({ error: 'access_denied: nope' });
  });
});
