import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { renderSvg, wasCancelled, type StandingOrder } from '../../../domain/kernel/index.js';
import { resultInWords, sideAndPlayer } from '../../../functions/app/names.js';
import { describeEvent, explainCommand, glossary, legalGroups } from '../../../functions/cli/format.js';
import { api, ApiError, gamePath, newCommandId, poll, type Session } from '../api.js';
import { timeLeft, usePolling } from '../live.js';
import { Link } from '../nav.js';
import type { ApiEvent, EngineInfo, GameView, Reply } from '../replies.js';

/**
 * The game page: the board (the engine's scene, drawn by the kernel's SVG renderer, units
 * clickable), who must act and until when, your legal commands grouped and explained, the
 * sealed order you are drafting (kept in this browser until you seal it), standing orders,
 * the log in words, resign, and once the game is over: export, audit and replay.
 */

/** Said when a command was refused because the game changed after the page last read it. */
const NOT_PLAYED = 'The game moved on before your command arrived, so it was not played';
const MOVED_ON = `${NOT_PLAYED}. This is the position now: choose again.`;
const MOVED_ON_UNSEEN = `${NOT_PLAYED}, and the position now could not be read:`;

const draftKey = (id: string, player: string) => `fieldpost.draft.${player}.${id}`;
function loadDraft(id: string, player: string): unknown[] | undefined {
  try {
    const d = JSON.parse(localStorage.getItem(draftKey(id, player)) ?? 'null') as unknown;
    return Array.isArray(d) ? d : undefined;
  } catch {
    return undefined;
  }
}
function saveDraft(id: string, player: string, steps: readonly unknown[] | undefined): void {
  if (steps) localStorage.setItem(draftKey(id, player), JSON.stringify(steps));
  else localStorage.removeItem(draftKey(id, player));
}

/** Does this command name the piece (a unit, card or attack id in any of its fields)? */
const names = (command: unknown, piece: string): boolean =>
  typeof command === 'object' && command !== null && Object.values(command).some((v) => v === piece || (Array.isArray(v) && v.includes(piece)));

/** "SealOrder" → "Seal order": the button of a command with nothing more to choose. */
const typeWords = (type: string) => type.replace(/([a-z])([A-Z])/g, (_m, a: string, b: string) => `${a} ${b.toLowerCase()}`);

/** Events this player may see, and the game's version they are complete up to. */
interface LogPart {
  readonly events: readonly ApiEvent[];
  readonly version: number;
}

/** The events after `from` that this player may see, every page of them. */
async function eventsAfter(id: string, from: number): Promise<LogPart> {
  const events: ApiEvent[] = [];
  for (let after = from; ;) {
    const page = await api<Reply<'/v1/games/{id}/events', 'get'>>('GET', gamePath(id, `/events?after=${after}&limit=1000`));
    events.push(...page.events);
    if (page.next === undefined) return { events, version: page.version };
    after = page.next;
  }
}

function Board({ svg, onPiece, selected }: { svg: string; onPiece: (id: string) => void; selected: string | undefined }) {
  return (
    <div
      class="board"
      data-selected={selected}
      onClick={(e) => {
        const g = (e.target as Element).closest('[data-piece]');
        const id = g?.getAttribute('data-piece');
        if (id) onPiece(id);
      }}
      // The SVG comes from the kernel's renderer, which escapes every text it draws.
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}

function Commands({ v, filter, busy, onChoose }: { v: GameView; filter: string | undefined; busy: boolean; onChoose: (i: number) => void }) {
  // Filtered by a clicked piece: the others become blanks, so every command keeps its number.
  const shown = filter ? v.legalCommands.map((c) => (names(c, filter) ? c : { type: '' })) : v.legalCommands;
  const kinds = legalGroups(shown, v.view).filter((k) => k.type !== '');
  if (!v.legalCommands.length) return <p>{v.summary.status === 'ended' ? 'The game is over.' : 'Nothing to do now: it is not your move.'}</p>;
  if (!kinds.length) return <p>No command names this piece. Choose another, or show all.</p>;
  const drafting = v.drafting;
  return (
    <div class="commands">
      {kinds.map((k) => (
        <section key={k.type} class="kind" aria-label={k.help}>
          <h3>{k.help}</h3>
          {k.groups.map((g, gi) => (
            <div class="group" key={gi}>
              {g.header && !g.subjectOnly && <p class="subject">{g.header}</p>}
              {g.rows.map((r, ri) => (
                <p class="row" key={ri}>
                  {r.lead && <span class="lead">{r.lead}: </span>}
                  {r.options.map((o) => (
                    <button
                      type="button"
                      key={o.n}
                      disabled={busy}
                      data-type={k.type}
                      data-n={o.n}
                      class={drafting?.stepChoices.includes(o.n - 1) ? 'step' : drafting?.sealChoices.includes(o.n - 1) ? 'seal' : ''}
                      onClick={() => onChoose(o.n - 1)}
                    >
                      {o.text === k.type ? typeWords(k.type) : o.text}
                    </button>
                  ))}
                </p>
              ))}
            </div>
          ))}
        </section>
      ))}
    </div>
  );
}

function StandingOrders({ id, v, engine, onSaved }: { id: string; v: GameView; engine: EngineInfo | undefined; onSaved: () => void }) {
  const offered = engine?.standingOrders ?? [];
  const mine = v.standingOrders ?? [];
  const [error, setError] = useState<string>();
  if (!offered.length || !v.seat || v.summary.status !== 'active') return null;
  const has = (o: { topic: string; rule: string }) => mine.some((m) => m.topic === o.topic && m.rule === o.rule);
  const toggle = async (o: { topic: string; rule: string }, on: boolean) => {
    const orders: StandingOrder[] = on ? [...mine, { topic: o.topic, rule: o.rule }] : mine.filter((m) => !(m.topic === o.topic && m.rule === o.rule));
    try {
      await api('PUT', gamePath(id, '/standing-orders'), { commandId: newCommandId(), orders });
      setError(undefined);
      onSaved();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section aria-labelledby="standing-h">
      <h2 id="standing-h">Standing orders</h2>
      <p class="hint">Answers the server gives for you when a question is put to you on the other side's turn. Only you see them.</p>
      {offered.map((o) => (
        <label key={`${o.topic}/${o.rule}`} class="check">
          <input type="checkbox" checked={has(o)} onChange={(e) => void toggle(o, e.currentTarget.checked)} /> {o.description}
        </label>
      ))}
      {error && <p role="alert">{error}</p>}
    </section>
  );
}

/** After the end: the whole log, downloaded, verified here with the verifier's own code, and replayed position by position. */
function Audit({ id, seat }: { id: string; seat: string | null }) {
  const [log, setLog] = useState<Reply<'/v1/games/{id}/export', 'get'>>();
  const [href, setHref] = useState<string>();
  const [report, setReport] = useState<{ ok: boolean; text: string }>();
  const [replay, setReplay] = useState<{ length: number; at(k: number): string | undefined }>();
  const [step, setStep] = useState(1);
  const [error, setError] = useState<string>();
  const exportLog = async () => {
    try {
      const body = await api<Reply<'/v1/games/{id}/export', 'get'>>('GET', gamePath(id, '/export'));
      setLog(body);
      setHref(URL.createObjectURL(new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' })));
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const verify = async () => {
    if (!log) return;
    const audit = await import('../audit.js');
    setReport(audit.auditExport(`fieldpost-${id}.json`, log));
  };
  const startReplay = async () => {
    if (!log) return;
    const audit = await import('../audit.js');
    const r = audit.replay(log.events, seat ? { kind: 'seat', seat } : { kind: 'spectator' });
    setReplay(r);
    setStep(r.length);
  };
  const svg = replay?.at(step);
  const event = log?.events[step - 1];
  return (
    <section aria-labelledby="audit-h">
      <h2 id="audit-h">Export, audit and replay</h2>
      <p>
        <button type="button" onClick={() => void exportLog()}>
          Export the log
        </button>{' '}
        {href && (
          <a href={href} download={`fieldpost-${id}.json`}>
            Download fieldpost-{id}.json
          </a>
        )}
      </p>
      {log && (
        <p>
          <button type="button" onClick={() => void verify()}>
            Verify in this browser
          </button>{' '}
          <button type="button" onClick={() => void startReplay()}>
            Replay
          </button>
        </p>
      )}
      {report && (
        <pre class={report.ok ? 'ok' : 'bad'} role="status" id="audit-report">
          {report.text}
        </pre>
      )}
      {replay && (
        <div class="replay">
          <p>
            <button type="button" disabled={step <= 1} onClick={() => setStep(1)}>
              First
            </button>{' '}
            <button type="button" disabled={step <= 1} onClick={() => setStep(step - 1)}>
              ◀ Back
            </button>{' '}
            <span aria-live="polite" id="replay-step">
              Event {step} of {replay.length}: {event?.type}
            </span>{' '}
            <button type="button" disabled={step >= replay.length} onClick={() => setStep(step + 1)}>
              Forward ▶
            </button>{' '}
            <button type="button" disabled={step >= replay.length} onClick={() => setStep(replay.length)}>
              Last
            </button>
          </p>
          {svg ? <Board svg={svg} onPiece={() => undefined} selected={undefined} /> : <p>No board yet at this point (seats are still joining).</p>}
        </div>
      )}
      {error && <p role="alert">{error}</p>}
    </section>
  );
}

export function GamePage({ session, params }: { session: Session; params: Record<string, string> }) {
  const id = params['id']!;
  const [v, setV] = useState<GameView>();
  const [events, setEvents] = useState<ApiEvent[]>([]);
  const [engine, setEngine] = useState<EngineInfo>();
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [piece, setPiece] = useState<string>();
  /** The last event in the log on screen. Seats see only some events, so this is not the version. */
  const seen = useRef(0);
  /** The game's version the log on screen is complete up to (-1: not known). */
  const logVersion = useRef(-1);
  const whole = useRef(false);

  /**
   * The view, with this browser's private draft tried on it by the server (POST /preview, nothing
   * stored), and the events after the last one on screen: read from the feed, or `fresh` when the
   * caller already has them (a command's reply); the view is read unless `known` (a command's reply
   * carries it too).
   */
  const load = async (fresh?: LogPart, known?: GameView) => {
    const draft = loadDraft(id, session.player);
    let view: GameView | undefined;
    if (draft) {
      try {
        view = await api<GameView>('POST', gamePath(id, '/preview'), { steps: draft });
        if (!view.drafting?.sealChoices.length) view = undefined;
      } catch {
        view = undefined;
      }
      if (!view) {
        saveDraft(id, session.player, undefined);
        if (draft.length) setNote('Your draft no longer fits the game (the phase moved on), so it was dropped.');
      }
    }
    // The log grows at its end: only the events after the last one on screen are fetched, with the
    // view in one request when it is read (`eventsAfter`), else from the feed.
    let got: GameView;
    let more: LogPart;
    if (view ?? known) [got, more] = await Promise.all([view ?? known!, fresh ?? eventsAfter(id, seen.current)]);
    else {
      got = await api<GameView>('GET', gamePath(id, `?eventsAfter=${seen.current}`));
      const log = got.log!;
      const rest = fresh || log.next === undefined ? undefined : await eventsAfter(id, log.next);
      more = fresh ?? (rest ? { events: [...log.events, ...rest.events], version: rest.version } : log);
    }
    setV(got);
    if (got.summary.status === 'ended' && !whole.current) {
      // Once the game is over every event is open: the whole log, hidden events included.
      whole.current = true;
      const all = await eventsAfter(id, 0);
      seen.current = all.events[all.events.length - 1]?.seq ?? 0;
      logVersion.current = all.version;
      setEvents([...all.events]);
      return;
    }
    logVersion.current = Math.max(logVersion.current, more.version);
    const added = more.events;
    if (added.length) {
      seen.current = added[added.length - 1]!.seq;
      setEvents((old) => [...old.filter((e) => e.seq < added[0]!.seq), ...added]);
    }
  };

  const refresh = usePolling(
    async (etag) => {
      try {
        // The events feed after the version on screen: 304 while nothing has happened.
        const version = v?.summary.version ?? 0;
        const r = await poll<Reply<'/v1/games/{id}/events', 'get'>>(gamePath(id, `/events?after=${version}&limit=1`), etag);
        if (!v || (r && r.body.version !== version)) await load();
        setError(undefined);
        return r ? r.etag : etag;
      } catch (e) {
        setError((e as Error).message);
        return etag;
      }
    },
    2000,
    [id, v?.summary.version],
  );

  useEffect(() => {
    api<Reply<'/v1/engines', 'get'>>('GET', '/v1/engines').then(
      (r) => setEngine(r.engines.find((e) => e.id === v?.summary.engine)),
      () => undefined,
    );
  }, [v?.summary.engine]);

  const svg = useMemo(() => (v?.scene ? renderSvg(v.scene) : undefined), [v?.scene]);
  const words = useMemo(() => glossary(v?.view), [v?.view]);

  const choose = async (i: number) => {
    if (!v) return;
    const command = v.legalCommands[i];
    setBusy(true);
    setError(undefined);
    setNote(undefined);
    try {
      const drafting = v.drafting;
      if (drafting?.stepChoices.includes(i)) {
        // A step of a sealed order: tried by the server on a scratch copy, kept in this browser, sent only with the seal.
        const after = await api<GameView>('POST', gamePath(id, '/preview'), { steps: [...drafting.steps, command] });
        saveDraft(id, session.player, after.drafting?.steps ?? [...drafting.steps, command]);
        setV(after);
        setNote('Drafted. The other side learns nothing of your order until you seal it.');
        return;
      }
      const local = loadDraft(id, session.player);
      const draft = local && drafting?.sealChoices.includes(i) ? drafting.steps : undefined;
      const done = await api<Reply<'/v1/games/{id}/commands', 'post'>>('POST', gamePath(id, '/commands?view=true'), {
        commandId: newCommandId(),
        command,
        expectedVersion: v.summary.version,
        ...(draft !== undefined ? { draft } : {}),
      });
      if (draft !== undefined) saveDraft(id, session.player, undefined);
      setPiece(undefined);
      // The reply carries the view after the command. Applied on the version on screen
      // (expectedVersion), whose log is complete here, its events are all that is new for this seat:
      // nothing is read again. Otherwise (a repeated commandId, a log not known complete) the feed is read.
      await load(!done.duplicate && logVersion.current === v.summary.version ? { events: done.events, version: done.version } : undefined, done.view);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'version/conflict') {
        // The other side moved between this page's last look and the click: nothing was stored.
        // The position now is shown first, then said so (with what the reload said of a draft),
        // so the player decides again on what is really there.
        try {
          await load();
          setNote((said) => (said ? `${MOVED_ON} ${said}` : MOVED_ON));
        } catch (again) {
          setError(`${MOVED_ON_UNSEEN} ${(again as Error).message}`);
        }
      } else setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const clearDraft = async () => {
    saveDraft(id, session.player, undefined);
    await load();
  };

  const resign = async () => {
    if (!confirm('Resign this game? Your side loses.')) return;
    try {
      const done = await api<Reply<'/v1/games/{id}/resign', 'post'>>('POST', gamePath(id, '/resign?view=true'), { commandId: newCommandId() });
      await load(undefined, done.view);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  if (!v) return error ? <p role="alert">{error}</p> : <p aria-live="polite">Loading…</p>;
  const s = v.summary;
  const cancelled = wasCancelled(s);
  const steps = v.drafting?.steps ?? [];
  const hasDraft = loadDraft(id, session.player) !== undefined;
  const mine = (p: GameView['pending'][number]) => p.player === session.player && (v.seat === null || v.seat === p.seat);
  return (
    <article class="game">
      <h1>
        {s.title} <span class="hint">game {s.gameId}</span>
      </h1>
      <p class="status" aria-live="polite" id="game-status">
        {cancelled
          ? 'Cancelled'
          : s.status === 'ended'
            ? `Over: ${s.outcome ? resultInWords(s.outcome, s.seats, cancelled) : ''}`
            : s.status === 'open'
              ? 'Waiting for players to join'
              : v.pending.some(mine)
                ? 'Your move'
                : 'Waiting for the other side'}
        {' · '}version {s.version}
      </p>
      {s.status === 'open' && (
        <p>
          Others join from the lobby on <Link href="/new">New game</Link>.
        </p>
      )}
      <div class="layout">
        <div class="left">
          {svg && (
            <>
              <Board svg={svg} selected={piece} onPiece={(p) => setPiece(piece === p ? undefined : p)} />
              <p class="hint">Click a unit or card to see only the commands about it.</p>
            </>
          )}
          {v.scene && v.scene.scores.length > 0 && (
            <section aria-labelledby="scores-h">
              <h2 id="scores-h">Scores</h2>
              <ul class="scores">
                {v.scene.scores.map((x) => (
                  <li key={x.seat}>
                    {x.label}: <strong>{x.value}</strong>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
        <div class="right">
          <section aria-labelledby="pending-h">
            <h2 id="pending-h">Waiting for</h2>
            <ul>
              {v.pending.length === 0 && <li>nobody</li>}
              {v.pending.map((p, i) => (
                <li key={i} class={mine(p) ? 'yours' : ''}>
                  {sideAndPlayer(s.seats, p.seat)}: {p.prompt}
                  {p.kind !== 'move' ? ` [${p.kind === 'reaction' ? 'question on another turn' : p.kind}]` : ''}
                  {p.deadline ? ` · until ${new Date(p.deadline).toLocaleString()} (${timeLeft(p.deadline)})` : ''}
                  {mine(p) ? ' ← your move' : ''}
                </li>
              ))}
            </ul>
          </section>
          {v.drafting && (
            <section aria-labelledby="draft-h" class="draft">
              <h2 id="draft-h">Your sealed order (draft)</h2>
              <p class="hint">Kept in this browser only; sent whole when you seal it. The other side learns nothing, not even how many steps it has.</p>
              {steps.length === 0 ? (
                <p>No steps yet: sealing now sends an empty order.</p>
              ) : (
                <ol id="draft-steps">
                  {steps.map((c, i) => (
                    <li key={i}>{explainCommand(c, words) || String((c as { type?: string }).type)}</li>
                  ))}
                </ol>
              )}
              {hasDraft && (
                <button type="button" onClick={() => void clearDraft()}>
                  Clear the draft
                </button>
              )}
            </section>
          )}
          <section aria-labelledby="commands-h">
            <h2 id="commands-h">Your commands{piece ? ` about ${words.get(piece)?.title ?? piece}` : ''}</h2>
            {piece && (
              <button type="button" class="link" onClick={() => setPiece(undefined)}>
                Show all commands
              </button>
            )}
            <Commands v={v} filter={piece} busy={busy} onChoose={(i) => void choose(i)} />
            {note && <p role="status">{note}</p>}
            {error && <p role="alert">{error}</p>}
          </section>
          <StandingOrders id={id} v={v} engine={engine} onSaved={refresh} />
          {s.status === 'active' && v.seat && (
            <p>
              <button type="button" class="danger" onClick={() => void resign()}>
                Resign
              </button>
            </p>
          )}
          {s.status === 'ended' && <Audit id={id} seat={v.seat} />}
        </div>
      </div>
      <section aria-labelledby="log-h">
        <h2 id="log-h">Log</h2>
        <details>
          <summary>{events.length} events you can see</summary>
          <ol class="log">
            {events.map((e) => (
              <li key={e.seq}>{describeEvent(e, words)}</li>
            ))}
          </ol>
        </details>
      </section>
    </article>
  );
}
