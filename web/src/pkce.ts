/**
 * Cognito hosted sign-in with the OAuth 2.0 authorization code flow and PKCE (RFC 7636): the
 * browser makes a random verifier, sends only its SHA-256 (the challenge) with the sign-in
 * redirect, and proves it holds the verifier when it trades the code for tokens. A public app
 * client (no secret) is safe this way: a stolen code is useless without the verifier.
 * Pure apart from the Web Crypto API, so the same code runs in the browser and in the tests.
 */

/** What the web client needs to know about Cognito (GET /config.json in AWS). */
export interface CognitoConfig {
  /** The hosted UI's base, e.g. https://fieldpost-123.auth.eu-west-1.amazoncognito.com */
  readonly domain: string;
  readonly clientId: string;
  /** Where Cognito sends the browser back, e.g. https://play.example.org/auth/callback */
  readonly redirectUri: string;
  readonly scopes?: readonly string[];
}

const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';

/**
 * A code verifier: `length` characters (43 to 128, RFC 7636 §4.1) from the unreserved set,
 * drawn from `random` (crypto.getRandomValues by default). 256 % 66 is not 0, so bytes that
 * would bias the draw are thrown away and drawn again.
 */
export function codeVerifier(length = 64, random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  if (!Number.isInteger(length) || length < 43 || length > 128) throw new RangeError('a PKCE verifier has 43 to 128 characters');
  const limit = 256 - (256 % UNRESERVED.length);
  let out = '';
  while (out.length < length) {
    for (const b of random(new Uint8Array(length))) {
      if (b < limit && out.length < length) out += UNRESERVED[b % UNRESERVED.length];
    }
  }
  return out;
}

export function base64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The S256 challenge: base64url(SHA-256(ASCII verifier)) (RFC 7636 §4.2). */
export async function codeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** The hosted sign-in page's address: /oauth2/authorize with the code flow, the challenge and a state against CSRF. */
export function authorizeUrl(config: CognitoConfig, challenge: string, state: string): string {
  const url = new URL('/oauth2/authorize', config.domain);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('redirect_uri', config.redirectUri);
  url.searchParams.set('scope', (config.scopes ?? ['openid', 'email', 'profile']).join(' '));
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

/** The token request that trades the code for tokens (POST /oauth2/token, form-encoded). */
export function tokenRequest(config: CognitoConfig, code: string, verifier: string): { url: string; body: URLSearchParams } {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    client_id: config.clientId,
    code,
    redirect_uri: config.redirectUri,
    code_verifier: verifier,
  });
  return { url: new URL('/oauth2/token', config.domain).toString(), body };
}

/**
 * What the callback page got back: the code, if the state is the one this browser sent
 * (anything else is refused: a forged or replayed redirect), or Cognito's error.
 */
export function readCallback(search: string, expectedState: string | null): { code: string } | { error: string } {
  const q = new URLSearchParams(search);
  const error = q.get('error');
  if (error) return { error: `${error}${q.get('error_description') ? `: ${q.get('error_description')}` : ''}` };
  const code = q.get('code');
  if (!code) return { error: 'the sign-in page sent no code back' };
  if (!expectedState || q.get('state') !== expectedState) return { error: 'the sign-in answer does not match the sign-in this browser started; sign in again' };
  return { code };
}
