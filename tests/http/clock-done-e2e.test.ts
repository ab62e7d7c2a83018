import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry, verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import type { LocalNotifications } from '../../functions/local/stream-poller.js';
import { rehash } from '../kernel/forge.js';
import { relayRaid } from '../fixtures/relay-raid.js';
import { diceRace } from '../fixtures/dice-race.js';
import { waitFor } from '../support/wait.js';
import { startMailRuntime, type MailRuntime } from './mail-runtime.js';
import { cid } from './support.js';

/**
 * Issue 10's "done when", on DynamoDB Local with the clock control: a two-seat game with a time
 * control (four days a move), a reaction window (a quarter of it) and a vacation. The missed
 * window lapses to its default, the vacation stops the clock and shows to the opponent,
 * reminders reach the mail sink at 50%, a day left and 80% (each once), the missed move ends the
 * game on time with nobody claiming, and the export verifies, but not with the time-out moved
 * earlier.
 */
const HOUR = 3_600_000;
const engines = createRegistry([relayRaid, diceRace]);
let m: MailRuntime;
let notif: LocalNotifications;
let api: MailRuntime['api'];
let token: MailRuntime['token'];

beforeAll(async () => {
  m = await startMailRuntime('clock-done', engines, ['ann', 'bob']);
  ({ notif, api, token } = m);
}, 60_000);
afterAll(async () => {
  await m?.stop();
});

const cli = (player: string, ...args: string[]) => m.cli(player, ...args);
const mails = () => m.mails();
const reminderMails = async (to: string) => (await mails()).filter((m) => m.to.includes(to) && m.subject.startsWith('Reminder'));
/** Moves the server's clock to `iso` (or not at all if it is past), running what falls due. */
const clockTo = async (iso: string) => {
  const now = (await api.post('/local/clock', undefined, { advanceHours: 0 })).body.now as string;
  return (await api.post('/local/clock', undefined, { advanceHours: Math.max(0, (Date.parse(iso) - Date.parse(now)) / HOUR) })).body as {
    now: string;
    changed: string[];
  };
};
const put = (path: string, tok: string, body: unknown) => api.call('PUT', path, { token: tok, body });
const plus = (iso: string, hours: number) => new Date(Date.parse(iso) + hours * HOUR).toISOString();

describe('correspondence clocks that run themselves (issue 10, done when)', () => {
  it('a two-seat game with a time control, a window and a vacation plays out on the clock', { timeout: 120_000 }, async () => {
    for (const p of ['ann', 'bob']) {
      expect((await put('/v1/me/settings', token[p]!, { email: `${p}@example.org` })).status).toBe(200);
      const sent = await waitFor(`${p}'s verification mail`, async () => (await mails()).find((m) => m.to.includes(`${p}@example.org`)));
      const code = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(sent.text)![1];
      expect((await api.post('/v1/me/email/verify', token[p], { token: code })).status).toBe(200);
    }
    const created = await api.post('/v1/games', token['ann'], {
      engine: 'relay-raid',
      options: { seats: 2 },
      seat: 'n1',
      timeControl: { kind: 'per-move', days: 4 },
      windowShare: 0.25,
      commandId: cid('create'),
    });
    expect(created.status).toBe(201);
    const gameId = created.body.gameId as string;
    expect((await api.post(`/v1/games/${gameId}/join`, token['bob'], { commandId: cid('join') })).status).toBe(200);

    // ann advances: bob is asked whether to intercept, with a day (a quarter of the move time) to answer.
    const adv = await api.post(`/v1/games/${gameId}/commands`, token['ann'], { commandId: cid('adv'), command: { type: 'Advance' } });
    expect(adv.status).toBe(200);
    const asked = (await api.get(`/v1/games/${gameId}`, token['bob'])).body.pending[0];
    expect(asked).toMatchObject({ seat: 's1', window: { id: 'intercept-1' } });
    expect(Date.parse(asked.deadline) - Date.parse(asked.since)).toBe(24 * HOUR);

    // Nobody answers: a day on, the window lapses to its default (Pass) and the move is bob's.
    const lapsed = await clockTo(plus(asked.deadline, 0.01));
    expect(lapsed.changed).toEqual([gameId]);
    const afterLapse = (await api.get(`/v1/games/${gameId}`, token['bob'])).body;
    expect(afterLapse.pending).toEqual([expect.objectContaining({ seat: 's1', kind: 'move' })]);
    const L = afterLapse.pending[0].since as string;
    expect(afterLapse.pending[0].deadline).toBe(plus(L, 96));

    // bob takes two days' vacation: his clock stops and ann sees it; beyond his allowance is a 422.
    // Vacation stops the clock in the games bob's inbox lists as active, a read model the stream poller fills.
    await waitFor("bob's inbox to list the game as active", async () => {
      const games = (await api.get('/v1/me/games', token['bob'])).body.games as { gameId: string; status: string }[];
      return games.some((g) => g.gameId === gameId && g.status === 'active') || undefined;
    });
    const tooLong = await put('/v1/me/vacation', token['bob']!, { away: true, days: 31 });
    expect(tooLong).toMatchObject({ status: 422, body: { code: 'vacation/over-allowance' } });
    const away = await put('/v1/me/vacation', token['bob']!, { away: true, days: 2 });
    expect(away).toMatchObject({ status: 200, body: { away: true, usedDays: 2, leftDays: 28, games: [{ gameId, recorded: true }] } });
    const V = away.body.from as string;
    const seen = (await api.get(`/v1/games/${gameId}`, token['ann'])).body.pending[0];
    expect(seen).toMatchObject({ seat: 's1', away: true, awayUntil: plus(V, 48) });
    // The clock stands still from the moment the game recorded the leave until it ends.
    const feed = (await api.get(`/v1/games/${gameId}/events?after=0`, token['ann'])).body.events as EventEnvelope[];
    const awayAt = feed.find((e) => e.type === 'Game.AwayStarted')!.at;
    const stood = (Date.parse(plus(V, 48)) - Date.parse(awayAt)) / HOUR;
    const D = plus(L, 96 + stood);
    expect(seen.deadline).toBe(D);
    expect((await api.get('/v1/me/vacation', token['bob'])).body).toMatchObject({ away: true, leftDays: 28 });
    // Each seat's remaining time: in the view (show) and the inbox (games).
    const clocks = (await api.get(`/v1/games/${gameId}`, token['ann'])).body.clocks;
    expect(clocks).toEqual([
      { seat: 'n1', name: 'North 1', player: 'ann', moveMs: 96 * HOUR },
      { seat: 's1', name: 'South 1', player: 'bob', deadline: D, leftMs: expect.any(Number), awayUntil: plus(V, 48) },
    ]);
    const inbox = await waitFor('the inbox to show the vacation', async () => {
      const g = (await api.get('/v1/me/games', token['bob'])).body.games[0];
      return g?.whoseMove[0]?.deadline === D ? g : undefined;
    });
    expect(inbox.whoseMove[0].leftMs).toBeGreaterThan(95 * HOUR);

    // Reminders at the running clock's 50% (two days of it: after the vacation), a day left, and 80%.
    const half = plus(L, 48 + stood);
    await clockTo(plus(half, -1));
    expect(await reminderMails('bob')).toEqual([]);
    await clockTo(plus(half, 0.01));
    await waitFor('the 50% reminder', async () => ((await reminderMails('bob')).length === 1 ? true : undefined));
    await clockTo(plus(D, -24 + 0.01));
    await waitFor('the day-left reminder', async () => ((await reminderMails('bob')).length === 2 ? true : undefined));
    await clockTo(plus(L, 0.8 * 96 + stood + 0.01));
    await waitFor('the 80% reminder', async () => ((await reminderMails('bob')).length === 3 ? true : undefined));
    // The scheduler firing again sends nothing twice.
    expect((await clockTo(plus(L, 0.8 * 96 + stood + 0.02))).changed).toEqual([]);
    await notif.settle();
    const subjects = (await reminderMails('bob')).map((m) => m.subject);
    expect(subjects).toEqual([
      expect.stringContaining('50% of your time is gone'),
      expect.stringContaining('a day of your time is left'),
      expect.stringContaining('80% of your time is gone'),
    ]);
    expect(await reminderMails('ann')).toEqual([]);
    // Every mail shows the clocks.
    expect((await reminderMails('bob'))[2]!.text).toMatch(
      /Clocks:\r?\n {2}- North 1 \(ann\): 4 d a move\r?\n {2}- South 1 \(bob\): \d+ h( \d+ min)? left \(until /,
    );

    // The move runs out: the game ends on time, nobody claiming.
    expect((await clockTo(plus(D, 0.01))).changed).toEqual([gameId]);
    const over = (await api.get(`/v1/games/${gameId}`, token['ann'])).body.summary;
    expect(over).toMatchObject({ status: 'ended', outcome: { winners: ['n1'], reason: expect.stringContaining('s1 ran out of time') } });

    const log = (await api.get(`/v1/games/${gameId}/export`, token['ann'])).body.events as EventEnvelope[];
    const types = log.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['Game.WindowLapsed', 'Game.AwayStarted', 'Game.Reminded', 'Game.TimedOut']));
    expect(log.filter((e) => e.type === 'Game.Reminded').map((e) => (e.data as { level: string }).level)).toEqual(['50%', '24h', '80%']);
    expect(log.find((e) => e.type === 'Game.TimedOut')).toMatchObject({ player: null, actor: null, at: expect.any(String) });
    expect(verifyLog(log, engines.get)).toMatchObject({ ok: true });
    const i = log.findIndex((e) => e.type === 'Game.TimedOut');
    const earlier = rehash(
      log.map((e, k) => (k === i || k === i + 1 ? { ...e, at: plus(D, -2) } : e)),
      i,
    );
    expect(verifyLog(earlier, engines.get)).toMatchObject({ ok: false });
  });
  it("the CLI prints each seat's clock in show and games, and its vacation stops the clock where the opponent sees it", { timeout: 120_000 }, async () => {
    const created = await cli('ann', 'create', 'dice-race', '--seat', 'p1', '--time', 'per-move:2');
    expect(created.code, created.err).toBe(0);
    const gameId = /Game id: (\S+)/.exec(created.out)![1]!;
    expect((await api.post(`/v1/games/${gameId}/join`, token['bob'], { commandId: cid('join-dice') })).status).toBe(200);
    // ann is on move with two days; bob's next move gets two days.
    const shown = await cli('bob', 'show', gameId);
    expect(shown.out).toMatch(/Clocks:\n.*\(ann\)\s+1 d 23 h( \d+ min)? left \(until \S+\)\n.*\(bob\)\s+2 d a move/);
    await waitFor("the game in ann's inbox", async () =>
      (await api.get('/v1/me/games', token['ann'])).body.games.some((g: { gameId: string; status: string }) => g.gameId === gameId && g.status === 'active')
        ? true
        : undefined,
    );
    expect((await cli('ann', 'games')).out).toMatch(
      /until \S+ \(1 d 23 h( \d+ min)? left\).* · clocks: Player 1 \(ann\) 1 d 23 h( \d+ min)? left, Player 2 \(bob\) 2 d a move/,
    );

    const away = await cli('ann', 'vacation', 'on', '3');
    expect(away.code, away.err).toBe(0);
    expect(away.out).toMatch(/^On vacation until \S+: your clocks stand still in every game/);
    expect(away.out).toContain('Allowance this year: 30 days, 3 used, 27 left.');
    expect(away.out).toContain(`${gameId}: recorded`);
    expect((await cli('bob', 'show', gameId)).out).toMatch(/\(ann\)\s+.*away until \S+: clock stopped/);
    expect((await cli('ann', 'vacation', 'on', '1')).err).toContain('vacation/already-away');
    expect((await cli('ann', 'vacation', 'off')).out).toMatch(/^Not on vacation: your clocks run\./);
    expect((await cli('ann', 'vacation', 'on', '0')).code).toBe(2);
  });
});
