import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import type { LocalRuntime } from '../../functions/local/runtime.js';
import type { LocalNotifications } from '../../functions/local/stream-poller.js';
import { diceRace } from '../fixtures/dice-race.js';
import { waitFor } from '../support/wait.js';
import { startMailRuntime, type MailRuntime } from './mail-runtime.js';
import { cid } from './support.js';

/**
 * The daily digest (issue 10) on DynamoDB Local with the clock control: while ann has it on,
 * no "your move" mail reaches her; at her hour one mail lists every game on her move with each
 * seat's time left and its board attached, once that day however often the sweep runs, and
 * again the next day. bob, without the digest, keeps his per-move mails.
 */
const HOUR = 3_600_000;
const engines = createRegistry([diceRace]);
let m: MailRuntime;
let rt: LocalRuntime;
let notif: LocalNotifications;
let api: MailRuntime['api'];
let token: MailRuntime['token'];

beforeAll(async () => {
  m = await startMailRuntime('digest', engines, ['ann', 'bob']);
  ({ rt, notif, api, token } = m);
}, 60_000);
afterAll(async () => {
  await m?.stop();
});

const cli = (player: string, ...args: string[]) => m.cli(player, ...args);
const mails = () => m.mails();
const to = async (who: string, subject: RegExp) => (await mails()).filter((m) => m.to.includes(`${who}@`) && subject.test(m.subject));
const clockTo = async (iso: string) => {
  const now = (await api.post('/local/clock', undefined, { advanceHours: 0 })).body.now as string;
  return (await api.post('/local/clock', undefined, { advanceHours: Math.max(0, (Date.parse(iso) - Date.parse(now)) / HOUR) })).body as { now: string };
};
const plus = (iso: string, hours: number) => new Date(Date.parse(iso) + hours * HOUR).toISOString();
const roll = async (who: string, gameId: string) =>
  expect((await api.post(`/v1/games/${gameId}/commands`, token[who], { commandId: cid(`roll-${who}`), command: { type: 'Roll' } })).status).toBe(200);
/** A dice race, `first` in p1 (on move first), `second` joining; per-move days. */
const game = async (first: string, second: string, days: number) => {
  const created = await api.post('/v1/games', token[first], {
    engine: 'dice-race',
    seat: 'p1',
    timeControl: { kind: 'per-move', days },
    commandId: cid('create'),
  });
  expect(created.status).toBe(201);
  const gameId = created.body.gameId as string;
  expect((await api.post(`/v1/games/${gameId}/join`, token[second], { commandId: cid('join') })).status).toBe(200);
  return gameId;
};
const DIGEST = /^Fieldpost digest/;
const YOUR_MOVE = /^Your move in /;

describe('the daily digest', () => {
  it('replaces the per-move mails with one mail a day at the chosen hour', { timeout: 120_000 }, async () => {
    for (const p of ['ann', 'bob']) {
      expect((await api.call('PUT', '/v1/me/settings', { token: token[p], body: { email: `${p}@example.org` } })).status).toBe(200);
      const sent = await waitFor(`${p}'s verification mail`, async () => (await mails()).find((m) => m.to.includes(`${p}@example.org`)));
      const code = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(sent.text)![1];
      expect((await api.post('/v1/me/email/verify', token[p], { token: code })).status).toBe(200);
    }
    // A time zone the server does not know is a 400 naming the field; nothing changes.
    const bad = await api.call('PUT', '/v1/me/settings', { token: token['ann'], body: { digest: { hour: 7, timeZone: 'Mars/Olympus' } } });
    expect(bad).toMatchObject({ status: 400, body: { code: 'settings/bad-time-zone', message: expect.stringContaining('digest.timeZone') } });
    expect((await api.get('/v1/me/settings', token['ann'])).body.digest).toBeNull();

    // Start at a UTC midnight, then ann asks for her digest at 06:00 UTC.
    const now = (await api.post('/local/clock', undefined, { advanceHours: 0 })).body.now as string;
    const midnight = new Date(Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate() + 1)).toISOString();
    await clockTo(plus(midnight, 0.01));
    const on = await cli('ann', 'settings', 'digest', '6');
    expect(on.code, on.err).toBe(0);
    expect(on.out).toContain('digest:   one mail a day at 06:00 UTC');
    expect((await api.get('/v1/me/settings', token['ann'])).body.digest).toEqual({ hour: 6, timeZone: 'UTC' });

    // Two games on ann's move (one after each side moved), one on bob's.
    const g1 = await game('ann', 'bob', 5);
    await roll('ann', g1);
    // A "your move" that is already answered is not sent: bob hears of this one before he rolls.
    await waitFor("bob's per-move mail of the first game", async () => ((await to('bob', YOUR_MOVE)).length >= 1 ? true : undefined));
    await roll('bob', g1);
    const g2 = await game('bob', 'ann', 3);
    await roll('bob', g2);
    const g3 = await game('ann', 'bob', 5);
    await roll('ann', g3);
    await notif.settle();
    await waitFor("bob's per-move mails", async () => ((await to('bob', YOUR_MOVE)).length >= 2 ? true : undefined));
    // No per-move mail for ann, and no digest before 06:00.
    await clockTo(plus(midnight, 5.9));
    await notif.settle();
    expect(await to('ann', YOUR_MOVE)).toEqual([]);
    expect(await to('ann', DIGEST)).toEqual([]);

    // 06:00: one digest, the two games on her move with each seat's time left; g3 is bob's move.
    await clockTo(plus(midnight, 6.01));
    const day1 = midnight.slice(0, 10);
    const [digest] = await waitFor('the digest', async () => {
      const d = await to('ann', DIGEST);
      return d.length ? d : undefined;
    });
    expect(digest!.subject).toBe(`Fieldpost digest for ${day1}: your move in 2 games`);
    expect(digest!.text).toContain(`/games/${g1}`);
    expect(digest!.text).toContain(`/games/${g2}`);
    expect(digest!.text).not.toContain(`/games/${g3}`);
    // Each seat's clock: ann's running deadline with its time left, bob's next move's time.
    expect(digest!.text).toMatch(/Clock of ann \(Player 1\): 4 d 18 h( \d+ min)? left \(until /);
    expect(digest!.text).toMatch(/Clock of ann \(Player 2\): 2 d 18 h( \d+ min)? left \(until /);
    expect(digest!.text).toMatch(/Clock of bob \(Player 1\): 3 d a move/);
    // The board of each game on move, as ann's seat sees it, attached.
    const listed = (await (await fetch(`${rt.url}/local/mail`)).json()) as { mails: { subject: string; raw: string }[] };
    const eml = await (await fetch(`${rt.url}${listed.mails.find((m) => DIGEST.test(m.subject))!.raw}`)).text();
    expect(eml).toContain(`board-${g1}.png`);
    expect(eml).toContain(`board-${g2}.png`);
    expect(eml).not.toContain(`board-${g3}.png`);

    // Sweeps later that day (the timer, the clock control) send nothing more.
    await clockTo(plus(midnight, 9));
    await clockTo(plus(midnight, 23.9));
    await notif.settle();
    expect(await to('ann', DIGEST)).toHaveLength(1);
    expect(await to('ann', YOUR_MOVE)).toEqual([]);

    // The next day at 06:00: the day's digest, once.
    await clockTo(plus(midnight, 30.01));
    await waitFor('the second digest', async () => ((await to('ann', DIGEST)).length === 2 ? true : undefined));
    await clockTo(plus(midnight, 31));
    await notif.settle();
    const digests = await to('ann', DIGEST);
    expect(digests.map((d) => d.subject)).toEqual([
      `Fieldpost digest for ${day1}: your move in 2 games`,
      `Fieldpost digest for ${plus(midnight, 24).slice(0, 10)}: your move in 2 games`,
    ]);
    // The digest went in ann's delivery log; turning it off brings back the per-move mails.
    const log = (await api.get('/v1/me/deliveries', token['ann'])).body.deliveries as { kind: string; outcome: string }[];
    expect(log.filter((d) => d.kind === 'digest')).toEqual([expect.objectContaining({ outcome: 'sent' }), expect.objectContaining({ outcome: 'sent' })]);
    const off = await cli('ann', 'settings', 'digest', 'off');
    expect(off.code, off.err).toBe(0);
    expect(off.out).toContain('digest:   off');
    await roll('ann', g1);
    await roll('bob', g1);
    await waitFor('a per-move mail again', async () => ((await to('ann', YOUR_MOVE)).length === 1 ? true : undefined));
    await clockTo(plus(midnight, 54.01));
    await notif.settle();
    expect(await to('ann', DIGEST)).toHaveLength(2);
  });
});
