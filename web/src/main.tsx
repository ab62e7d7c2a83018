import { render, type ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { loadSession, saveSession, whenUnauthorized, type Session } from './api.js';
import { Link, navigate, useLocation } from './nav.js';
import { AuthCallback, SignIn } from './signin.js';
import './style.css';

/**
 * The app shell: a header, and one page per address. Only the sign-in page is in the first
 * chunk; every other page is loaded when it is first opened, so the first page stays small.
 */
type Page = ComponentType<{ session: Session; params: Record<string, string> }>;
const lazyPages: { pattern: RegExp; keys: string[]; load: () => Promise<Page> }[] = [
  { pattern: /^\/$/, keys: [], load: () => import('./pages/games.js').then((m) => m.GamesPage) },
  { pattern: /^\/new$/, keys: [], load: () => import('./pages/new-game.js').then((m) => m.NewGamePage) },
  { pattern: /^\/games\/([A-Za-z0-9_-]{1,100})$/, keys: ['id'], load: () => import('./pages/game.js').then((m) => m.GamePage) },
  { pattern: /^\/settings$/, keys: [], load: () => import('./pages/settings.js').then((m) => m.SettingsPage) },
  { pattern: /^\/clubs$/, keys: [], load: () => import('./pages/clubs.js').then((m) => m.ClubsPage) },
];

function Lazy({ load, session, params }: { load: () => Promise<Page>; session: Session; params: Record<string, string> }) {
  const [page, setPage] = useState<{ load: () => Promise<Page>; Page: Page } | undefined>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    load().then(
      (P) => live && setPage({ load, Page: P }),
      (e: unknown) => live && setError(String(e)),
    );
    return () => void (live = false);
  }, [load]);
  if (error) return <p role="alert">This page could not be loaded: {error}</p>;
  if (!page || page.load !== load) return <p aria-live="polite">Loading…</p>;
  return <page.Page session={session} params={params} />;
}

function App() {
  const path = useLocation();
  const [session, setSession] = useState(loadSession);
  useEffect(() => {
    whenUnauthorized(() => {
      saveSession(undefined);
      setSession(undefined);
    });
  }, []);
  const signOut = () => {
    saveSession(undefined);
    setSession(undefined);
    navigate('/');
  };
  useEffect(() => {
    document.title = 'Fieldpost';
  }, [path]);

  let main;
  if (path === '/auth/callback') main = <AuthCallback onSignedIn={setSession} />;
  else if (!session) main = <SignIn onSignedIn={setSession} />;
  else {
    const hit = lazyPages.map((p) => ({ p, m: p.pattern.exec(path) })).find((x) => x.m);
    if (!hit)
      main = (
        <p>
          No such page. <Link href="/">Your games</Link>
        </p>
      );
    else {
      const params = Object.fromEntries(hit.p.keys.map((k, i) => [k, decodeURIComponent(hit.m![i + 1]!)]));
      main = <Lazy load={hit.p.load} session={session} params={params} />;
    }
  }
  return (
    <>
      <header>
        <nav aria-label="Main">
          <Link href="/" class="brand">
            Fieldpost
          </Link>
          {session && (
            <>
              <Link href="/">My games</Link>
              <Link href="/new">New game</Link>
              <Link href="/clubs">Clubs</Link>
              <Link href="/settings">Settings</Link>
              <span class="who">{session.player}</span>
              <button type="button" class="link" onClick={signOut}>
                Sign out
              </button>
            </>
          )}
        </nav>
      </header>
      <main id="main">{main}</main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
