import { useEffect, useState } from 'preact/hooks';
import { gamePath, poll, text, type Session } from '../api.js';
import { Link } from '../nav.js';
import { timeLeft, usePolling } from '../live.js';
import type { Reply } from '../replies.js';

/** GET /v1/me/games, as the API document describes it (../replies.ts). */
type Inbox = Reply<'/v1/me/games', 'get'>;

/** The board as this player sees it, small: fetched with the token (an <img> cannot send one) and shown from a blob URL. */
export function Thumbnail({ gameId, version, label }: { gameId: string; version: number; label: string }) {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    let live = true;
    let made: string | undefined;
    text(gamePath(gameId, '/board.svg')).then(
      (svg) => {
        made = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
        if (live) setUrl(made);
      },
      () => undefined, // an open game has no board yet
    );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [gameId, version]);
  return url ? <img class="thumb" src={url} alt={label} width={160} /> : <div class="thumb empty" aria-hidden="true" />;
}

/** My games: your move first (the server's order), each with its board, opponent, what is asked and the time left. */
export function GamesPage({ session }: { session: Session }) {
  const [inbox, setInbox] = useState<Inbox>();
  const [error, setError] = useState<string>();
  usePolling(async (etag) => {
    try {
      const r = await poll<Inbox>('/v1/me/games?limit=100', etag);
      if (r) setInbox(r.body);
      setError(undefined);
      return r ? r.etag : etag;
    } catch (e) {
      setError((e as Error).message);
      return etag;
    }
  }, 3000);

  return (
    <section>
      <h1>My games</h1>
      {error && <p role="alert">{error}</p>}
      {!inbox && !error && <p aria-live="polite">Loading…</p>}
      {inbox && inbox.games.length === 0 && (
        <p>
          No games yet. <Link href="/new">Start one or join one from the lobby</Link>.
        </p>
      )}
      {inbox && inbox.yourMoveCount > 0 && (
        <p class="badge" aria-live="polite">
          Your move in {inbox.yourMoveCount} game{inbox.yourMoveCount === 1 ? '' : 's'}
        </p>
      )}
      <ul class="games">
        {inbox?.games.map((g) => {
          const opponents = g.opponents.map((o) => `${o.name} (${o.player ?? 'open'})`).join(', ') || 'nobody yet';
          const asked = g.whoseMove.map((a) => `${a.name}: ${a.prompt}${a.deadline ? ` (${timeLeft(a.deadline)})` : ''}`);
          return (
            <li key={g.gameId} class={g.yourMove ? 'game yours' : 'game'} data-game={g.gameId}>
              <Link href={`/games/${g.gameId}`}>
                <Thumbnail gameId={g.gameId} version={g.version} label={`Board of ${g.title}, game ${g.gameId}`} />
                <span class="what">
                  <strong>
                    {g.yourMove ? 'Your move · ' : ''}
                    {g.title}
                  </strong>
                  <span>
                    {g.seats.map((s) => s.name).join(', ')} ({session.player}) against {opponents}
                  </span>
                  <span>{g.outcome ? `Over: ${g.outcome.result}` : g.status === 'open' ? 'Waiting for players' : asked.join(' · ') || 'Nothing asked'}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
