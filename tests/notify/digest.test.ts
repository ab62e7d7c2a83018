import { describe, expect, it } from 'vitest';
import { digestDay, isTimeZone, localTime, sendDigests, type DigestBook, type DigestDeps } from '../../functions/notify/digest.js';
import type { OutgoingMail } from '../../functions/notify/mailer.js';
import type { InboxModel } from '../../functions/projections/project.js';

/** The daily digest's rules (issue 10): the player's local day and hour, once a day, claimed before sending. */
describe('the digest clock', () => {
  it("reads the day and hour in the player's zone", () => {
    expect(localTime('2026-03-01T23:30:00.000Z')).toEqual({ day: '2026-03-01', hour: 23 });
    expect(localTime('2026-03-01T23:30:00.000Z', 'Europe/Paris')).toEqual({ day: '2026-03-02', hour: 0 });
    expect(localTime('2026-07-01T23:30:00.000Z', 'Europe/Paris')).toEqual({ day: '2026-07-02', hour: 1 });
    expect(localTime('2026-03-01T03:00:00.000Z', 'America/New_York')).toEqual({ day: '2026-02-28', hour: 22 });
    expect(isTimeZone('Asia/Kolkata')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('__proto__')).toBe(false);
  });

  it('is due from the chosen hour, once a local day', () => {
    const at7 = { hour: 7 };
    expect(digestDay(at7, '2026-03-01T06:59:00.000Z', undefined)).toBeUndefined();
    expect(digestDay(at7, '2026-03-01T07:00:00.000Z', undefined)).toBe('2026-03-01');
    expect(digestDay(at7, '2026-03-01T20:00:00.000Z', '2026-03-01')).toBeUndefined();
    expect(digestDay(at7, '2026-03-02T07:10:00.000Z', '2026-03-01')).toBe('2026-03-02');
    // 07:00 in Paris is 06:00 UTC in winter.
    expect(digestDay({ hour: 7, timeZone: 'Europe/Paris' }, '2026-03-01T06:00:00.000Z', undefined)).toBe('2026-03-01');
    expect(digestDay({ hour: 7, timeZone: 'Europe/Paris' }, '2026-03-01T05:59:00.000Z', undefined)).toBeUndefined();
  });
});

const inboxGame = (gameId: string): InboxModel =>
  ({
    gameId,
    title: `Game ${gameId}`,
    engine: 'dice-race',
    yourMove: true,
    whoseMove: [{ seat: 'p1', name: 'Player 1', player: 'ann', kind: 'move', prompt: 'Roll', since: '', sinceVersion: 1 }],
    clocks: [{ seat: 'p1', name: 'Player 1', player: 'ann', deadline: '2026-03-03T00:00:00.000Z' }],
  }) as unknown as InboxModel;

function world(opts: { failMail?: boolean } = {}) {
  const days = new Map<string, string>();
  const sent: OutgoingMail[] = [];
  const book: DigestBook = {
    subscribers: async () => [{ player: 'ann', setting: { hour: 7 }, ...(days.has('ann') ? { lastDay: days.get('ann')! } : {}) }],
    claim: async (p, day) => {
      if ((days.get(p) ?? '') >= day) return false;
      days.set(p, day);
      return true;
    },
    release: async (p, day, prev) => {
      if (days.get(p) !== day) return;
      if (prev) days.set(p, prev);
      else days.delete(p);
    },
  };
  let now = '2026-03-01T07:05:00.000Z';
  const deps: DigestDeps = {
    book,
    settings: { get: async () => ({ email: 'ann@example.org', emailVerifiedAt: 'x', webhooks: [], digest: { hour: 7 } }) },
    yourMove: async () => [inboxGame('g1')],
    mailer: {
      send: async (m) => {
        if (opts.failMail) throw new Error('relay down');
        sent.push(m);
      },
    },
    deliveries: { record: async () => undefined },
    clock: { now: () => now },
    appUrl: 'http://app.test',
  };
  return { deps, sent, days, setNow: (iso: string) => (now = iso) };
}

describe('sending the digest', () => {
  it('mails once a day however often the sweep runs, with each clock', async () => {
    const w = world();
    expect(await sendDigests(w.deps)).toEqual([{ player: 'ann', day: '2026-03-01', games: 1 }]);
    expect(await sendDigests(w.deps)).toEqual([]);
    expect(w.sent).toHaveLength(1);
    expect(w.sent[0]!.text).toContain('Clock of ann (Player 1): 1 d 16 h left (until 2026-03-03T00:00:00.000Z)');
    expect(w.sent[0]!.text).toContain('http://app.test/games/g1');
    w.setNow('2026-03-02T07:00:00.000Z');
    await sendDigests(w.deps);
    expect(w.sent.map((m) => m.subject)).toEqual([
      'Fieldpost digest for 2026-03-01: your move in 1 game',
      'Fieldpost digest for 2026-03-02: your move in 1 game',
    ]);
  });

  it('gives the day back when the mail fails, so the next sweep tries again', async () => {
    const w = world({ failMail: true });
    expect(await sendDigests(w.deps)).toEqual([]);
    expect(w.days.has('ann')).toBe(false);
  });
});
