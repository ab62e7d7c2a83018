import { useEffect, useState } from 'preact/hooks';
import { ApiError, saveSession, type Session } from './api.js';
import { navigate } from './nav.js';
import { authorizeUrl, codeChallenge, codeVerifier, readCallback, tokenRequest, type CognitoConfig } from './pkce.js';

/**
 * How this server signs players in (GET /config.json): `npm start` answers {auth: "local"} (any
 * player name, POST /local/token); the AWS stack deploys {auth: "cognito", cognito: {...}}.
 */
type AuthConfig = { readonly auth: 'local' } | { readonly auth: 'cognito'; readonly cognito: Omit<CognitoConfig, 'redirectUri'> };

/** Cognito sends the browser back to this origin's callback page (the stack allows both its addresses). */
const withRedirect = (c: Omit<CognitoConfig, 'redirectUri'>): CognitoConfig => ({ ...c, redirectUri: `${location.origin}/auth/callback` });

let config: Promise<AuthConfig> | undefined;
function authConfig(): Promise<AuthConfig> {
  return (config ??= fetch('/config.json', { cache: 'no-store' }).then(async (r) => {
    if (!r.ok) throw new Error(`GET /config.json answered ${r.status}`);
    return (await r.json()) as AuthConfig;
  }));
}

const PKCE_KEY = 'fieldpost.pkce';

/** The player a Cognito ID token names (the API reads cognito:username too). */
function playerOf(idToken: string): { player: string; expiresAt?: string } {
  const payload = JSON.parse(atob(idToken.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
  const player = String(payload['cognito:username'] ?? payload['sub'] ?? '');
  const exp = typeof payload['exp'] === 'number' ? new Date(payload['exp'] * 1000).toISOString() : undefined;
  return exp ? { player, expiresAt: exp } : { player };
}

export function SignIn({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [cfg, setCfg] = useState<AuthConfig>();
  const [error, setError] = useState<string>();
  const [name, setName] = useState('');
  useEffect(() => {
    authConfig().then(setCfg, (e: unknown) => setError(String(e)));
  }, []);

  const local = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    const res = await fetch('/local/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ player: name.trim() }) });
    const body = (await res.json()) as { player?: string; token?: string; expiresAt?: string; message?: string };
    if (!res.ok || !body.token || !body.player) return setError(body.message ?? `Sign-in failed (${res.status})`);
    const s: Session = { player: body.player, token: body.token, ...(body.expiresAt ? { expiresAt: body.expiresAt } : {}) };
    saveSession(s);
    onSignedIn(s);
  };

  const cognito = async (c: CognitoConfig) => {
    const verifier = codeVerifier();
    const state = codeVerifier(43);
    sessionStorage.setItem(PKCE_KEY, JSON.stringify({ verifier, state }));
    location.assign(authorizeUrl(c, await codeChallenge(verifier), state));
  };

  return (
    <section class="card narrow">
      <h1>Sign in</h1>
      <p>Play WWII tactical wargames by correspondence: a move a day, every die roll provably fair.</p>
      {!cfg && !error && <p aria-live="polite">Loading…</p>}
      {cfg?.auth === 'local' && (
        <form onSubmit={(e) => void local(e)}>
          <label for="player">Player name</label>
          <input
            id="player"
            name="player"
            autocomplete="username"
            required
            pattern="[A-Za-z0-9._@+\-]{1,128}"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          <p class="hint">This is a local server: any name signs in (letters, digits and . _ @ + -).</p>
          <button type="submit">Sign in</button>
        </form>
      )}
      {cfg?.auth === 'cognito' && (
        <button type="button" onClick={() => void cognito(withRedirect(cfg.cognito))}>
          Sign in or create an account
        </button>
      )}
      {error && <p role="alert">{error}</p>}
    </section>
  );
}

/** /auth/callback: Cognito sends the browser back here with a code, traded for tokens with the PKCE verifier. */
export function AuthCallback({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [error, setError] = useState<string>();
  useEffect(() => {
    void (async () => {
      try {
        const cfg = await authConfig();
        if (cfg.auth !== 'cognito') throw new Error('this server does not use hosted sign-in');
        const saved = JSON.parse(sessionStorage.getItem(PKCE_KEY) ?? 'null') as { verifier: string; state: string } | null;
        sessionStorage.removeItem(PKCE_KEY);
        const got = readCallback(location.search, saved?.state ?? null);
        if ('error' in got) throw new Error(got.error);
        const req = tokenRequest(withRedirect(cfg.cognito), got.code, saved!.verifier);
        const res = await fetch(req.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: req.body });
        const tokens = (await res.json()) as { id_token?: string; error?: string };
        if (!res.ok || !tokens.id_token) throw new ApiError(res.status, 'auth/token', tokens.error ?? 'the token exchange failed');
        const s: Session = { token: tokens.id_token, ...playerOf(tokens.id_token) };
        saveSession(s);
        onSignedIn(s);
        navigate('/');
      } catch (e) {
        setError((e as Error).message);
      }
    })();
  }, []);
  return <section class="card narrow">{error ? <p role="alert">Sign-in failed: {error}</p> : <p aria-live="polite">Signing you in…</p>}</section>;
}
