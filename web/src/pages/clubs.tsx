import { useEffect, useState } from 'preact/hooks';
import { api, newCommandId, poll, type Session } from '../api.js';
import { usePolling } from '../live.js';
import { Link } from '../nav.js';
import type { EngineInfo, Reply } from '../replies.js';

/**
 * Clubs and tournaments (functions/http/routes/clubs.ts, tournaments.ts): create a club or join
 * one with its code, see its members, games and tournaments; list tournaments, enter or leave
 * one, follow its standings and pairings (each pairing links to its game); create a tournament
 * and start it when you direct it. The server has no "my clubs" list, so the clubs you created
 * or joined are remembered in this browser.
 */

/** The bodies these pages receive, as the API document describes them (../replies.ts). */
type Club = Reply<'/v1/clubs/{id}', 'get'>;
type TournamentList = Reply<'/v1/tournaments', 'get'>;
type TournamentItem = TournamentList['tournaments'][number];
type Tournament = Reply<'/v1/tournaments/{id}', 'get'>;

const clubsKey = (player: string) => `fieldpost.clubs.${player}`;
function knownClubs(player: string): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(clubsKey(player)) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
const remember = (player: string, clubId: string) =>
  localStorage.setItem(clubsKey(player), JSON.stringify([clubId, ...knownClubs(player).filter((c) => c !== clubId)].slice(0, 50)));

const message = (e: unknown) => (e as Error).message;

function TournamentDetail({ id, player, onChanged }: { id: string; player: string; onChanged: () => void }) {
  const [t, setT] = useState<Tournament>();
  const [error, setError] = useState<string>();
  // Followed live: a started tournament's games are made by the server a moment later, and results come in.
  usePolling(
    async (etag) => {
      try {
        const r = await poll<Tournament>(`/v1/tournaments/${encodeURIComponent(id)}`, etag);
        if (r) setT(r.body);
        return r ? r.etag : etag;
      } catch (e) {
        setError(message(e));
        return etag;
      }
    },
    3000,
    [id],
  );
  const act = async (what: 'join' | 'withdraw' | 'start') => {
    try {
      setT(await api<Tournament>('POST', `/v1/tournaments/${encodeURIComponent(id)}/${what}`, what === 'join' ? { commandId: newCommandId() } : {}));
      setError(undefined);
      onChanged();
    } catch (e) {
      setError(message(e));
    }
  };
  if (!t) return error ? <p role="alert">{error}</p> : <p aria-live="polite">Loading…</p>;
  const entered = t.players.some((p) => p.player === player && !p.withdrawn);
  return (
    <div class="tournament" id={`tournament-${t.tournamentId}`}>
      {t.status === 'cancelled' && <p role="status">Cancelled: {t.cancelled}</p>}
      <p>
        {t.status === 'open' && !entered && (
          <button type="button" onClick={() => void act('join')}>
            Enter {t.name}
          </button>
        )}{' '}
        {(t.status === 'open' || t.status === 'running') && entered && (
          <button type="button" onClick={() => void act('withdraw')}>
            Withdraw
          </button>
        )}{' '}
        {t.status === 'open' && (
          <button type="button" onClick={() => void act('start')}>
            Start (its director)
          </button>
        )}
      </p>
      <p>
        Players: <span class="players">{t.players.map((p) => p.player + (p.withdrawn ? ' (withdrawn)' : '')).join(', ') || 'none yet'}</span>
      </p>
      {t.standings.length > 0 && (
        <table>
          <caption>Standings</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Player</th>
              <th scope="col">Points</th>
              <th scope="col">Played</th>
              <th scope="col">W-D-L</th>
            </tr>
          </thead>
          <tbody>
            {t.standings.map((s) => (
              <tr key={s.player}>
                <td>{s.rank}</td>
                <td>{s.player}</td>
                <td>{s.points}</td>
                <td>{s.played}</td>
                <td>
                  {s.wins}-{s.draws}-{s.losses}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {t.rounds.map((r) => (
        <div key={r.round}>
          <h4>Round {r.round}</h4>
          <ul>
            {r.pairings.map((p) => (
              <li key={p.pairingId}>
                Board {p.board}: {p.seats[0]} against {p.seats[1]}
                {p.result ? ` · ${p.result.points[0]}–${p.result.points[1]}` : ''}
                {p.gameId && (
                  <>
                    {' '}
                    · <Link href={`/games/${p.gameId}`}>game {p.gameId}</Link>
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      ))}
      {error && <p role="alert">{error}</p>}
    </div>
  );
}

function Tournaments({ player, club, engines }: { player: string; club?: string; engines: readonly EngineInfo[] }) {
  const [list, setList] = useState<readonly TournamentItem[]>();
  const [open, setOpen] = useState<string>();
  const [error, setError] = useState<string>();
  const [form, setForm] = useState({ name: '', engine: '', format: 'round-robin', rounds: '3' });
  const query = club ? `?club=${encodeURIComponent(club)}` : '';
  // Followed live (new tournaments, entries, starts); outside a club, the tournaments of no club.
  const load = usePolling(
    async (etag) => {
      try {
        const r = await poll<TournamentList>(`/v1/tournaments${query}`, etag);
        if (r) setList(r.body.tournaments.filter((t) => club !== undefined || t.clubId === null));
        return r ? r.etag : etag;
      } catch (e) {
        setError(message(e));
        return etag;
      }
    },
    5000,
    [club],
  );
  const create = async (e: Event) => {
    e.preventDefault();
    try {
      const t = await api<Reply<'/v1/tournaments', 'post'>>('POST', '/v1/tournaments', {
        name: form.name.trim(),
        engine: form.engine || engines[0]?.id,
        format: form.format,
        ...(form.format === 'swiss' ? { rounds: Number(form.rounds) } : {}),
        ...(club ? { club } : {}),
      });
      setError(undefined);
      setForm({ ...form, name: '' });
      setOpen(t.tournamentId);
      load();
    } catch (err) {
      setError(message(err));
    }
  };
  const prefix = club ? `club-${club}-` : '';
  return (
    <section aria-labelledby={`${prefix}tournaments-h`}>
      <h2 id={`${prefix}tournaments-h`}>{club ? 'Tournaments of this club' : 'Tournaments open to all (no club)'}</h2>
      {list?.length === 0 && <p>No tournaments yet.</p>}
      <ul class="tournaments">
        {list?.map((t) => (
          <li key={t.tournamentId} data-tournament={t.tournamentId}>
            <button
              type="button"
              class="link"
              aria-expanded={open === t.tournamentId}
              onClick={() => setOpen(open === t.tournamentId ? undefined : t.tournamentId)}
            >
              {t.name}
            </button>{' '}
            · {engines.find((e) => e.id === t.engine)?.title ?? t.engine} · {t.format} · {t.status} · {t.players} player{t.players === 1 ? '' : 's'}
            {open === t.tournamentId && <TournamentDetail id={t.tournamentId} player={player} onChanged={load} />}
          </li>
        ))}
      </ul>
      <form onSubmit={(e) => void create(e)}>
        <h3>Create a tournament{club ? ' for this club' : ''}</h3>
        <label for={`${prefix}t-name`}>Tournament name</label>
        <input id={`${prefix}t-name`} required maxLength={200} value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
        <label for={`${prefix}t-engine`}>Game system</label>
        <select id={`${prefix}t-engine`} value={form.engine || engines[0]?.id} onChange={(e) => setForm({ ...form, engine: e.currentTarget.value })}>
          {engines.map((x) => (
            <option key={x.id} value={x.id}>
              {x.title}
            </option>
          ))}
        </select>
        <label for={`${prefix}t-format`}>Format</label>
        <select id={`${prefix}t-format`} value={form.format} onChange={(e) => setForm({ ...form, format: e.currentTarget.value })}>
          <option value="round-robin">Round robin</option>
          <option value="swiss">Swiss</option>
          <option value="single-elimination">Single elimination</option>
        </select>
        {form.format === 'swiss' && (
          <>
            <label for={`${prefix}t-rounds`}>Rounds</label>
            <input
              id={`${prefix}t-rounds`}
              type="number"
              min="1"
              max="30"
              value={form.rounds}
              onInput={(e) => setForm({ ...form, rounds: e.currentTarget.value })}
            />
          </>
        )}
        <button type="submit">Create tournament</button>
      </form>
      {error && <p role="alert">{error}</p>}
    </section>
  );
}

function ClubCard({ id, player, engines }: { id: string; player: string; engines: readonly EngineInfo[] }) {
  const [club, setClub] = useState<Club>();
  const [games, setGames] = useState<readonly { gameId: string; engine: string; createdBy: string }[]>([]);
  const [error, setError] = useState<string>();
  const path = `/v1/clubs/${encodeURIComponent(id)}`;
  // Followed live: members joining, games made for its tournaments.
  usePolling(
    async () => {
      try {
        setClub(await api<Club>('GET', path));
        setError(undefined);
        // The club's games are shown to its members only.
        setGames((await api<Reply<'/v1/clubs/{id}/games', 'get'>>('GET', `${path}/games`)).games);
      } catch (e) {
        setError(message(e));
      }
      return undefined;
    },
    5000,
    [id],
  );
  if (!club) return <li>{error ? <span role="alert">{`Club ${id}: ${error}`}</span> : 'Loading…'}</li>;
  return (
    <li class="card" data-club={club.clubId}>
      <h3>
        {club.name} <span class="hint">club {club.clubId}</span>
      </h3>
      {club.description && <p>{club.description}</p>}
      <p>Members: {club.members.map((m) => `${m.player} (${m.role})`).join(', ')}</p>
      {games.length > 0 && (
        <ul>
          {games.map((g) => (
            <li key={g.gameId}>
              <Link href={`/games/${g.gameId}`}>
                {engines.find((e) => e.id === g.engine)?.title ?? g.engine}, game {g.gameId}
              </Link>{' '}
              by {g.createdBy}
            </li>
          ))}
        </ul>
      )}
      <Tournaments player={player} club={club.clubId} engines={engines} />
    </li>
  );
}

export function ClubsPage({ session }: { session: Session }) {
  const [engines, setEngines] = useState<readonly EngineInfo[]>([]);
  const [clubs, setClubs] = useState(() => knownClubs(session.player));
  const [create, setCreate] = useState({ name: '', joinCode: '' });
  const [join, setJoin] = useState({ clubId: '', joinCode: '' });
  const [error, setError] = useState<string>();
  useEffect(() => {
    api<Reply<'/v1/engines', 'get'>>('GET', '/v1/engines').then(
      (r) => setEngines(r.engines),
      (e: unknown) => setError(message(e)),
    );
  }, []);
  const keep = (clubId: string) => {
    remember(session.player, clubId);
    setClubs(knownClubs(session.player));
    setError(undefined);
  };
  const submitCreate = async (e: Event) => {
    e.preventDefault();
    try {
      const c = await api<Reply<'/v1/clubs', 'post'>>('POST', '/v1/clubs', {
        name: create.name.trim(),
        ...(create.joinCode ? { joinCode: create.joinCode } : {}),
        commandId: newCommandId(),
      });
      setCreate({ name: '', joinCode: '' });
      keep(c.clubId);
    } catch (err) {
      setError(message(err));
    }
  };
  const submitJoin = async (e: Event) => {
    e.preventDefault();
    try {
      const c = await api<Reply<'/v1/clubs/{id}/join', 'post'>>('POST', `/v1/clubs/${encodeURIComponent(join.clubId.trim())}/join`, {
        joinCode: join.joinCode,
        commandId: newCommandId(),
      });
      setJoin({ clubId: '', joinCode: '' });
      keep(c.clubId);
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <>
      <section class="card">
        <h1>Clubs and tournaments</h1>
        <div class="two">
          <form onSubmit={(e) => void submitCreate(e)}>
            <h2>Found a club</h2>
            <label for="club-name">Club name</label>
            <input id="club-name" required maxLength={200} value={create.name} onInput={(e) => setCreate({ ...create, name: e.currentTarget.value })} />
            <label for="club-code">Join code for members (optional)</label>
            <input id="club-code" minLength={6} value={create.joinCode} onInput={(e) => setCreate({ ...create, joinCode: e.currentTarget.value })} />
            <button type="submit">Create club</button>
          </form>
          <form onSubmit={(e) => void submitJoin(e)}>
            <h2>Join a club</h2>
            <label for="join-club">Club id</label>
            <input id="join-club" required value={join.clubId} onInput={(e) => setJoin({ ...join, clubId: e.currentTarget.value })} />
            <label for="join-code">Join code</label>
            <input id="join-code" required minLength={6} value={join.joinCode} onInput={(e) => setJoin({ ...join, joinCode: e.currentTarget.value })} />
            <button type="submit">Join club</button>
          </form>
        </div>
        {error && <p role="alert">{error}</p>}
      </section>
      {clubs.length > 0 && (
        <section aria-labelledby="clubs-h">
          <h2 id="clubs-h">Your clubs</h2>
          <ul class="clubs">
            {clubs.map((c) => (
              <ClubCard key={c} id={c} player={session.player} engines={engines} />
            ))}
          </ul>
        </section>
      )}
      <section class="card">
        <Tournaments player={session.player} engines={engines} />
      </section>
    </>
  );
}
