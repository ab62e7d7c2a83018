import { useEffect, useState } from 'preact/hooks';
import { api, gamePath, newCommandId, poll } from '../api.js';
import { usePolling } from '../live.js';
import { navigate } from '../nav.js';
import type { EngineInfo, Reply } from '../replies.js';
import { optionsFrom, SchemaForm, type FieldValues } from '../schema-form.js';

/** GET /v1/lobby's games, as the API document describes them (../replies.ts). */
type LobbyItem = Reply<'/v1/lobby', 'get'>['games'][number];

/** Your own randomness, mixed into every die of the game (the server cannot choose the rolls alone). */
const entropy = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

function Lobby() {
  const [games, setGames] = useState<readonly LobbyItem[]>();
  const [error, setError] = useState<string>();
  usePolling(async (etag) => {
    try {
      const r = await poll<Reply<'/v1/lobby', 'get'>>('/v1/lobby?limit=100', etag);
      if (r) setGames(r.body.games);
      return r ? r.etag : etag;
    } catch (e) {
      setError((e as Error).message);
      return etag;
    }
  }, 3000);
  const join = async (gameId: string, seat: string) => {
    try {
      await api('POST', gamePath(gameId, '/join'), { commandId: newCommandId(), seat, entropy: entropy() });
      navigate(`/games/${gameId}`);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section aria-labelledby="lobby-h">
      <h2 id="lobby-h">Open games</h2>
      {error && <p role="alert">{error}</p>}
      {games?.length === 0 && <p>No open games. Create one above.</p>}
      <ul class="lobby">
        {games?.map((g) => (
          <li key={g.gameId} data-game={g.gameId}>
            <strong>{g.title}</strong>
            {g.rated && ' (rated)'} by {g.createdBy}:{' '}
            {g.freeSeats.map((s) => (
              <button type="button" key={s.id} onClick={() => void join(g.gameId, s.id)}>
                Join as {s.name}
              </button>
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** New game: engines, scenarios and options from GET /v1/engines, the seat you take, a time control; and the lobby. */
export function NewGamePage() {
  const [engines, setEngines] = useState<readonly EngineInfo[]>();
  const [engineId, setEngineId] = useState('');
  const [values, setValues] = useState<FieldValues>({});
  const [seat, setSeat] = useState('');
  const [time, setTime] = useState<'none' | 'per-move' | 'bank'>('none');
  const [days, setDays] = useState('3');
  const [increment, setIncrement] = useState('1');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api<Reply<'/v1/engines', 'get'>>('GET', '/v1/engines').then(
      (r) => {
        setEngines(r.engines);
        setEngineId(r.engines[0]?.id ?? '');
        setSeat(r.engines[0]?.sides?.[0]?.id ?? '');
      },
      (e: unknown) => setError((e as Error).message),
    );
  }, []);
  const engine = engines?.find((e) => e.id === engineId);

  const create = async (e: Event) => {
    e.preventDefault();
    if (!engine) return;
    const opts = optionsFrom(engine.options, values);
    if ('error' in opts) return setError(opts.error);
    const timeControl =
      time === 'per-move'
        ? { kind: 'per-move', days: Number(days) }
        : time === 'bank'
          ? { kind: 'bank', days: Number(days), incrementDays: Number(increment) }
          : undefined;
    setBusy(true);
    try {
      const r = await api<Reply<'/v1/games', 'post'>>('POST', '/v1/games', {
        engine: engine.id,
        commandId: newCommandId(),
        options: opts.options,
        ...(seat ? { seat, entropy: entropy() } : {}),
        ...(timeControl ? { timeControl } : {}),
      });
      navigate(`/games/${r.gameId}`);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <section class="card">
        <h1>New game</h1>
        {!engines && !error && <p aria-live="polite">Loading…</p>}
        {engines && (
          <form onSubmit={(e) => void create(e)}>
            <div class="field">
              <label for="engine">Game</label>
              <select
                id="engine"
                value={engineId}
                onChange={(e) => {
                  setEngineId(e.currentTarget.value);
                  setValues({});
                }}
              >
                {engines.map((x) => (
                  <option key={x.id} value={x.id}>
                    {x.title} (rules version {x.rulesVersion})
                  </option>
                ))}
              </select>
            </div>
            {engine && <SchemaForm schema={engine.options} scenarios={engine.scenarios} values={values} onChange={setValues} />}
            {engine?.sides && (
              <div class="field">
                <label for="seat">Your side</label>
                <select id="seat" value={seat} onChange={(e) => setSeat(e.currentTarget.value)}>
                  {engine.sides.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name}
                    </option>
                  ))}
                  <option value="">none: I organise, others play</option>
                </select>
              </div>
            )}
            <fieldset>
              <legend>Time control</legend>
              <div class="field">
                <label for="time">Clock</label>
                <select id="time" value={time} onChange={(e) => setTime(e.currentTarget.value as typeof time)}>
                  <option value="none">No clock</option>
                  <option value="per-move">Days per move</option>
                  <option value="bank">A bank of days, plus days per move</option>
                </select>
              </div>
              {time !== 'none' && (
                <div class="field">
                  <label for="days">{time === 'bank' ? 'Days in the bank' : 'Days per move'}</label>
                  <input id="days" type="number" min="0.1" step="0.1" value={days} onInput={(e) => setDays(e.currentTarget.value)} />
                </div>
              )}
              {time === 'bank' && (
                <div class="field">
                  <label for="inc">Days added per move</label>
                  <input id="inc" type="number" min="0" step="0.1" value={increment} onInput={(e) => setIncrement(e.currentTarget.value)} />
                </div>
              )}
            </fieldset>
            <button type="submit" disabled={busy}>
              Create game
            </button>
          </form>
        )}
        {error && <p role="alert">{error}</p>}
      </section>
      <Lobby />
    </>
  );
}
