import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { AppError } from '../ports.js';
import { verifyLocalJwt, type VerifyOptions } from './jwt.js';

/** Turns a request into the signed-in player's id, or throws a 401 AppError. */
export type Authenticator = (event: APIGatewayProxyEventV2) => string;

const RULE = 'Fieldpost platform: signing in';

/** Player ids end up in sort keys and logs: printable, no spaces, bounded. */
export const PLAYER_ID = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/;

function checkedPlayer(id: unknown): string {
  if (typeof id !== 'string' || !PLAYER_ID.test(id)) throw new AppError(401, 'auth/invalid-token', 'The token does not name a valid player', RULE);
  return id;
}

/**
 * In AWS, API Gateway's JWT authorizer has already verified the Cognito token (signature,
 * issuer, audience, expiry) before the Lambda runs; the handler only reads the claims.
 * ID tokens carry `cognito:username`, access tokens `username`; `sub` is the fallback.
 */
export function cognitoAuthenticator(): Authenticator {
  return (event) => {
    const ctx = event.requestContext as { authorizer?: { jwt?: { claims?: Record<string, unknown> } } };
    const claims = ctx.authorizer?.jwt?.claims;
    if (!claims) throw new AppError(401, 'auth/missing-token', 'Sign in first: send an Authorization: Bearer <token> header', RULE);
    return checkedPlayer(claims['cognito:username'] ?? claims['username'] ?? claims['sub']);
  };
}

function bearer(event: APIGatewayProxyEventV2): string {
  const h = event.headers?.['authorization'] ?? event.headers?.['Authorization'];
  if (!h) throw new AppError(401, 'auth/missing-token', 'Sign in first: send an Authorization: Bearer <token> header', RULE);
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  if (!m) throw new AppError(401, 'auth/invalid-token', 'The Authorization header must be "Bearer <token>"', RULE);
  return m[1]!;
}

/**
 * Locally there is no authorizer in front: verify HS256 tokens signed with LOCAL_JWT_SECRET,
 * issued by the local runtime, not in the future, and (with `maxAgeSeconds`) no older than the
 * runtime's token lifetime.
 */
export function localAuthenticator(secret: string, nowSeconds: () => number = () => Math.floor(Date.now() / 1000), opts: VerifyOptions = {}): Authenticator {
  return (event) => {
    const r = verifyLocalJwt(secret, bearer(event), nowSeconds(), opts);
    if (!r.ok) {
      if (r.reason === 'expired') throw new AppError(401, 'auth/token-expired', 'Your token has expired: sign in again', RULE);
      if (r.reason === 'not-yet-valid')
        throw new AppError(401, 'auth/token-not-yet-valid', 'Your token was issued in the future: check this machine’s clock, then sign in again', RULE);
      throw new AppError(401, 'auth/invalid-token', 'The token is not valid here: sign in again', RULE);
    }
    return checkedPlayer(r.claims.sub);
  };
}

export function authenticatorFromEnv(env: Readonly<Record<string, string | undefined>>): Authenticator {
  const mode = env['AUTH_MODE'] ?? 'cognito';
  if (mode === 'cognito') return cognitoAuthenticator();
  if (mode === 'local') {
    const secret = env['LOCAL_JWT_SECRET'];
    if (!secret || secret.length < 16) throw new Error('AUTH_MODE=local needs LOCAL_JWT_SECRET (at least 16 characters)');
    return localAuthenticator(secret);
  }
  throw new Error(`AUTH_MODE must be cognito or local, not ${mode}`);
}
