import type { Env } from '../environment.js';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { AppError } from '../ports.js';
import { readParameter } from '../aws/ssm.js';
import { jwksKeys, verifyCognitoJwt, type KeyLookup } from './cognito-jwt.js';
import { verifyLocalJwt, type VerifyOptions } from './jwt.js';

/** Turns a request into the signed-in player's id, or throws a 401 AppError. */
export type Authenticator = (event: APIGatewayProxyEventV2) => string | Promise<string>;

const RULE = 'Fieldpost platform: signing in';

/** Player ids end up in sort keys and logs: printable, no spaces, bounded. */
export const PLAYER_ID = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/;

function checkedPlayer(id: unknown): string {
  if (typeof id !== 'string' || !PLAYER_ID.test(id)) throw new AppError(401, 'auth/invalid-token', 'The token does not name a valid player', RULE);
  return id;
}

/** ID tokens carry `cognito:username`, access tokens `username`; `sub` is the fallback. */
const cognitoPlayer = (claims: Readonly<Record<string, unknown>>): string => checkedPlayer(claims['cognito:username'] ?? claims['username'] ?? claims['sub']);

/**
 * Behind the HTTP API front door, API Gateway's JWT authorizer has already verified the Cognito
 * token (signature, issuer, audience, expiry) before the Lambda runs; the handler only reads the claims.
 */
export function cognitoAuthenticator(): (event: APIGatewayProxyEventV2) => string {
  return (event) => {
    const ctx = event.requestContext as { authorizer?: { jwt?: { claims?: Record<string, unknown> } } };
    const claims = ctx.authorizer?.jwt?.claims;
    if (!claims) throw new AppError(401, 'auth/missing-token', 'Sign in first: send an Authorization: Bearer <token> header', RULE);
    return cognitoPlayer(claims);
  };
}

/** The value `read` gives, read once and kept; read again on the next call if it failed. */
function keptOnceRead(read: () => Promise<string>): () => Promise<string> {
  let kept: Promise<string> | undefined;
  return () => {
    kept ??= read();
    kept.catch(() => (kept = undefined));
    return kept;
  };
}

/**
 * Behind the function URL front door nothing has checked the token: verify the Cognito token here
 * (functions/http/cognito-jwt.ts), with the user pool's keys fetched once per process. The app
 * client's id may come from a read (the stack keeps it in SSM Parameter Store: the function's
 * environment cannot name it, see infra/api.ts), made once per process.
 */
export function cognitoJwtAuthenticator(
  issuer: string,
  clientId: () => Promise<string>,
  keys: KeyLookup = jwksKeys(issuer),
  nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
): Authenticator {
  return async (event) => {
    const token = bearer(event);
    const r = await clientId()
      .then((id) => verifyCognitoJwt(token, { issuer, clientId: id }, keys, nowSeconds()))
      .catch((e: unknown) => {
        // The operator's clue is in the log; the player is told only to try again.
        console.error(JSON.stringify({ level: 'error', message: 'sign-in keys or app client id unreadable', error: String(e) }));
        throw new AppError(503, 'auth/keys-unavailable', 'The sign-in keys cannot be read just now; try again in a moment', RULE);
      });
    if (!r.ok) {
      if (r.reason === 'expired') throw new AppError(401, 'auth/token-expired', 'Your token has expired: sign in again', RULE);
      throw new AppError(401, 'auth/invalid-token', 'The token is not valid here: sign in again', RULE);
    }
    return cognitoPlayer(r.claims);
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

export function authenticatorFromEnv(env: Env, read: (parameter: string) => Promise<string> = readParameter): Authenticator {
  const mode = env['AUTH_MODE'] ?? 'cognito';
  if (mode === 'cognito') return cognitoAuthenticator();
  if (mode === 'cognito-jwt') {
    const [issuer, clientId, parameter] = [env['COGNITO_ISSUER'], env['COGNITO_CLIENT_ID'], env['COGNITO_CLIENT_ID_PARAMETER']];
    if (!issuer?.startsWith('https://') || (!clientId && !parameter))
      throw new Error('AUTH_MODE=cognito-jwt needs COGNITO_ISSUER (https://...) and COGNITO_CLIENT_ID or COGNITO_CLIENT_ID_PARAMETER');
    return cognitoJwtAuthenticator(issuer, clientId ? async () => clientId : keptOnceRead(() => read(parameter!)));
  }
  if (mode === 'local') {
    const secret = env['LOCAL_JWT_SECRET'];
    if (!secret || secret.length < 16) throw new Error('AUTH_MODE=local needs LOCAL_JWT_SECRET (at least 16 characters)');
    return localAuthenticator(secret);
  }
  throw new Error(`AUTH_MODE must be cognito, cognito-jwt or local, not ${mode}`);
}
