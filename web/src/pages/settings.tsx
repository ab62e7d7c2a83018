import { useEffect, useState } from 'preact/hooks';
import type { NoticeKind } from '../../../functions/notify/decide.js';
import { api } from '../api.js';
import type { Reply } from '../replies.js';

/** What GET /v1/me/settings shows: the type generated from the API document (npm run api-types). */
type Settings = Reply<'/v1/me/settings', 'get'>;

/** Every notice kind, in words (a kind added to NOTICE_KINDS fails the type check here until it is named). */
const KINDS: Readonly<Record<NoticeKind, string>> = {
  turn: '"Your move"',
  started: 'Game started',
  ended: 'Game over',
  invited: 'Invitations',
  reminder: 'Reminders as your time runs',
  tournament: 'Tournament pairings and news',
};

/**
 * Settings: where your notices go. Email (confirmed with a mailed code), webhooks (JSON signed
 * as Standard Webhooks says, with a whsec_ secret the server makes and shows once, or Discord
 * and Slack), which notices are mailed, the daily digest (one mail a day at your hour instead
 * of each "your move" mail), and vacation (GET/PUT /v1/me/vacation).
 */
export function SettingsPage() {
  const [s, setS] = useState<Settings>();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [hook, setHook] = useState({ url: '', format: 'json' as 'json' | 'discord' | 'slack' });
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<string>();

  const apply = (next: Settings, said?: string) => {
    setS(next);
    setEmail(next.email ?? '');
    setError(undefined);
    setMessage(said);
  };
  useEffect(() => {
    api<Settings>('GET', '/v1/me/settings').then(apply, (e: unknown) => setError((e as Error).message));
  }, []);
  const put = async (body: unknown, said: string) => {
    try {
      apply(await api<Settings>('PUT', '/v1/me/settings', body), said);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const verify = async (e: Event) => {
    e.preventDefault();
    try {
      apply(await api<Settings>('POST', '/v1/me/email/verify', { token: code.trim() }), 'Address confirmed: your notices go there now.');
    } catch (err) {
      setError((err as Error).message);
    }
  };
  if (!s) return error ? <p role="alert">{error}</p> : <p aria-live="polite">Loading…</p>;
  const keep = s.webhooks.map((w) => ({ id: w.id }));
  return (
    <section class="card">
      <h1>Settings</h1>
      <h2>Email</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void put({ email: email.trim() || null }, email.trim() ? 'A confirmation code was mailed to that address.' : 'Email removed.');
        }}
      >
        <label for="email">Notification address</label>
        <input id="email" type="email" autocomplete="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <button type="submit">Save address</button>
      </form>
      {s.email && <p>Status: {s.emailVerification?.status ?? 'unknown'}</p>}
      {s.email && s.emailVerification?.status !== 'verified' && (
        <form onSubmit={(e) => void verify(e)}>
          <label for="code">Code from the mail</label>
          <input id="code" value={code} onInput={(e) => setCode(e.currentTarget.value)} />
          <button type="submit">Confirm</button>
        </form>
      )}
      <h2>Mailed notices</h2>
      {(Object.keys(KINDS) as NoticeKind[]).map((k) => (
        <label class="check" key={k}>
          <input
            type="checkbox"
            checked={!s.emailOff.includes(k)}
            onChange={(e) => void put({ emailOff: e.currentTarget.checked ? s.emailOff.filter((x) => x !== k) : [...s.emailOff, k] }, 'Saved.')}
          />{' '}
          {KINDS[k]}
        </label>
      ))}
      <h2>Webhooks</h2>
      <ul>
        {s.webhooks.map((w) => (
          <li key={w.id}>
            {w.format}: {w.url} (secret {w.secretHint}){w.disabled ? ` switched off: ${w.disabled.reason}` : ''}{' '}
            {w.secret && (
              <p role="status">
                Signing secret, shown only now: <code>{w.secret}</code>
              </p>
            )}
            <button type="button" onClick={() => void put({ webhooks: keep.filter((x) => x.id !== w.id) }, 'Webhook removed.')}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void put({ webhooks: [...keep, { url: hook.url, format: hook.format }] }, 'Webhook added.');
        }}
      >
        <label for="hook-url">Webhook URL</label>
        <input id="hook-url" type="url" required value={hook.url} onInput={(e) => setHook({ ...hook, url: e.currentTarget.value })} />
        <label for="hook-format">Format</label>
        <select id="hook-format" value={hook.format} onChange={(e) => setHook({ ...hook, format: e.currentTarget.value as typeof hook.format })}>
          <option value="json">JSON (signed)</option>
          <option value="discord">Discord</option>
          <option value="slack">Slack</option>
        </select>
        <button type="submit">Add webhook</button>
      </form>
      <Digest current={s.digest} save={(digest, said) => void put({ digest }, said)} />
      <Vacation />
      {message && <p role="status">{message}</p>}
      {error && <p role="alert">{error}</p>}
    </section>
  );
}

/**
 * The daily digest: one mail a day at the chosen hour in the chosen time zone, listing every game
 * on your move with the time left and its board, instead of one mail per move.
 */
function Digest({ current, save }: { current: Settings['digest']; save: (digest: { hour: number; timeZone: string } | null, said: string) => void }) {
  const [hour, setHour] = useState(current?.hour ?? 7);
  const [zone, setZone] = useState(current?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC');
  return (
    <>
      <h2>Daily digest</h2>
      <p id="digest-status">
        {current
          ? `On: one mail a day at ${String(current.hour).padStart(2, '0')}:00 (${current.timeZone}) instead of each "your move" mail.`
          : 'Off: each "your move" is mailed as it happens.'}
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save({ hour, timeZone: zone.trim() }, 'Digest saved.');
        }}
      >
        <label for="digest-hour">Hour (0–23)</label>
        <input id="digest-hour" type="number" min={0} max={23} required value={hour} onInput={(e) => setHour(Number(e.currentTarget.value))} />
        <label for="digest-zone">Time zone</label>
        <input id="digest-zone" required value={zone} onInput={(e) => setZone(e.currentTarget.value)} />
        <button type="submit">{current ? 'Change digest' : 'Turn the digest on'}</button>
      </form>
      {current && (
        <button type="button" onClick={() => save(null, 'Digest off.')}>
          Turn the digest off
        </button>
      )}
    </>
  );
}

/** What GET/PUT /v1/me/vacation answer, as the API document describes it (../replies.ts). */
type VacationStatus = Reply<'/v1/me/vacation', 'get'>;

/** Vacation: your clocks stop in every game while you are away, within a yearly allowance. */
function Vacation() {
  const [v, setV] = useState<VacationStatus>();
  const [days, setDays] = useState('');
  const [error, setError] = useState<string>();
  useEffect(() => {
    api<VacationStatus>('GET', '/v1/me/vacation').then(setV, (e: unknown) => setError((e as Error).message));
  }, []);
  const put = async (body: unknown) => {
    try {
      setV(await api<VacationStatus>('PUT', '/v1/me/vacation', body));
      setError(undefined);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const round = (n: number) => Math.round(n * 10) / 10;
  return (
    <section aria-labelledby="vacation-h">
      <h2 id="vacation-h">Vacation</h2>
      {v && (
        <p id="vacation-status">
          {v.away ? `Away until ${v.until ? new Date(v.until).toLocaleString() : 'you come back'}: your clocks are stopped. ` : ''}
          {round(v.leftDays)} of {v.allowanceDays} days left this year ({round(v.usedDays)} used).
        </p>
      )}
      {v?.away ? (
        <button type="button" onClick={() => void put({ away: false })}>
          I am back
        </button>
      ) : (
        v && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void put(days.trim() ? { away: true, days: Number(days) } : { away: true });
            }}
          >
            <label for="vacation-days">Days away (empty: all that is left)</label>
            <input id="vacation-days" type="number" min="0.5" step="0.5" max={v.leftDays} value={days} onInput={(e) => setDays(e.currentTarget.value)} />
            <button type="submit">Go on vacation</button>
          </form>
        )
      )}
      {error && <p role="alert">{error}</p>}
    </section>
  );
}
