import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { startLocalNotifications, type LocalNotifications } from '../../functions/local/stream-poller.js';
import { Webhook } from 'standardwebhooks';
import { diceRace } from '../fixtures/dice-race.js';
import { readModelItems } from '../projections/support.js';
import { waitFor } from '../support/wait.js';

/**
 * The issue's "done when", against the local runtime: two players with email and webhook
 * settings; the move passes from one to the other; the other gets exactly one mail in the
 * sink and one correctly signed webhook; a receiver failing twice gets it on the third try;
 * replaying the stream twice sends nothing again and leaves the read models as they were.
 */
/** alice brings her own secret; bob's are made by the server and shown to him once. */
const ALICE_SECRET = 'whsec_' + Buffer.from('alice-own-key-0123456789abcdef').toString('base64');
const SECRETS: Record<'alice' | 'bob', string> = { alice: ALICE_SECRET, bob: '' };
const APP_URL = 'http://play.fieldpost.test';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

let rt: LocalRuntime;
let notif: LocalNotifications;
let receiver: Server;
let hookBase: string;
let mailDir: string;
const received: Received[] = [];
const flakyFailures = new Map<string, number>();
let gameId = '';
const tokens: Record<string, string> = {};

async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${rt.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

const mails = async (): Promise<any[]> => ((await (await fetch(`${rt.url}/local/mail`)).json()) as { mails: any[] }).mails;
const turnMailsTo = async (to: string) => (await mails()).filter((m) => m.to.includes(to) && m.subject.startsWith('Your move'));
const posts = (path: string, type?: string) =>
  received.filter((r) => r.path === path && (type === undefined || JSON.parse(r.body).type === type || (JSON.parse(r.body).text ?? '').includes('your move')));

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const delivery = String(req.headers['webhook-id']);
      let status = 200;
      if (path === '/flaky') {
        // Fails the first two tries of every delivery, then accepts.
        const n = flakyFailures.get(delivery) ?? 0;
        if (n < 2) status = 500;
        flakyFailures.set(delivery, n + 1);
      }
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'try later');
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', () => ok()));
  hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  mailDir = mkdtempSync(join(tmpdir(), 'fieldpost-e2e-mail-'));

  rt = await startLocalRuntime({
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `notify-e2e-${Date.now().toString(36)}`,
    memory: true,
    engines: createRegistry([diceRace]),
    extensions: [
      async (ctx) =>
        (notif = await startLocalNotifications(ctx, {
          mailDir,
          pollIntervalMs: 100,
          retry: { mode: 'inline', attempts: 4, baseDelayMs: 40, maxDelayMs: 500 },
          env: { APP_URL, MAIL_FROM: 'Fieldpost <turns@fieldpost.test>' },
        })),
    ],
  });
  tokens['alice'] = rt.issueToken('alice');
  tokens['bob'] = rt.issueToken('bob');
}, 60_000);

afterAll(async () => {
  await rt?.stop();
  await new Promise<void>((ok) => receiver?.close(() => ok()));
  if (mailDir) rmSync(mailDir, { recursive: true, force: true });
});

describe('turn notifications end to end (local runtime)', () => {
  it('players choose email and webhooks; secrets are never echoed back', async () => {
    const a = await call('PUT', '/v1/me/settings', tokens['alice']!, {
      email: 'alice@example.org',
      webhooks: [{ url: `${hookBase}/alice`, secret: SECRETS.alice, format: 'json' }],
    });
    expect(a.status).toBe(200);
    expect(JSON.stringify(a.body)).not.toContain(ALICE_SECRET);
    const b = await call('PUT', '/v1/me/settings', tokens['bob']!, {
      email: 'bob@example.org',
      webhooks: [
        { url: `${hookBase}/bob`, format: 'json' },
        { url: `${hookBase}/flaky`, format: 'slack' },
      ],
    });
    expect(b.status).toBe(200);
    // The secrets the server made, shown this once, in the Standard Webhooks form.
    SECRETS.bob = b.body.webhooks[0].secret;
    expect(SECRETS.bob).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(b.body.webhooks).toEqual([
      { id: expect.stringMatching(/^wh_/), url: `${hookBase}/bob`, format: 'json', secretHint: `…${SECRETS.bob.slice(-4)}`, secret: SECRETS.bob },
      { id: expect.stringMatching(/^wh_/), url: `${hookBase}/flaky`, format: 'slack', secretHint: expect.stringMatching(/^…/) },
    ]);
    const got = await call('GET', '/v1/me/settings', tokens['bob']!);
    expect(JSON.stringify(got.body)).not.toContain(SECRETS.bob);
    expect(got.body.webhooks).toEqual(b.body.webhooks.map(({ secret: _s, ...w }: { secret: string }) => w));
    const bad = await call('PUT', '/v1/me/settings', tokens['bob']!, { webhooks: [{ url: 'ftp://x' }] });
    expect(bad).toMatchObject({ status: 400, body: { code: 'settings/bad-webhook-url' } });
    const weak = await call('PUT', '/v1/me/settings', tokens['bob']!, { webhooks: [{ url: `${hookBase}/x`, secret: 'x'.repeat(40) }] });
    expect(weak).toMatchObject({ status: 400, body: { code: 'http/invalid-request' } });
    expect((await call('GET', '/v1/me/settings', tokens['bob']!)).body).toEqual(got.body);
  });

  it('players confirm their addresses from the verification mail (nothing is mailed to an unconfirmed one)', async () => {
    for (const player of ['alice', 'bob'] as const) {
      const sent = (await mails()).filter((m) => m.to.includes(`${player}@example.org`) && m.subject === 'Confirm your email address for Fieldpost');
      expect(sent).toHaveLength(1);
      const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(sent[0]!.text)?.[1];
      expect(sent[0]!.text).toContain(`${APP_URL}/verify-email?token=${token}`);
      const r = await call('POST', '/v1/me/email/verify', tokens[player]!, { token });
      expect(r).toMatchObject({ status: 200, body: { email: `${player}@example.org`, emailVerification: { status: 'verified' } } });
    }
  });

  it('an open game shows in the lobby until its last seat is taken', async () => {
    const created = await call('POST', '/v1/games', tokens['alice']!, { engine: 'dice-race', options: { target: 60 }, seat: 'p1', commandId: 'e2e-create' });
    expect(created.status).toBe(201);
    gameId = created.body.gameId;
    await waitFor('the lobby', async () =>
      (await call('GET', '/v1/lobby', tokens['bob']!)).body.games.some((g: any) => g.gameId === gameId) ? true : undefined,
    );
    expect((await call('POST', `/v1/games/${gameId}/join`, tokens['bob']!, { commandId: 'e2e-join' })).status).toBe(200);
    await waitFor('the lobby to empty', async () => ((await call('GET', '/v1/lobby', tokens['bob']!)).body.games.length === 0 ? true : undefined));
    // The start: alice is told it is her move, bob that the game started.
    await waitFor("alice's start mail", async () =>
      (await mails()).some((m) => m.to.includes('alice') && m.subject.includes('has started: your move')) ? true : undefined,
    );
    await waitFor("bob's start mail", async () =>
      (await mails()).some((m) => m.to.includes('bob') && m.subject.includes('has started against')) ? true : undefined,
    );
    await notif.settle();
  });

  it('when the move passes to bob, bob gets exactly one mail and one signed webhook; alice nothing', async () => {
    const before = { mails: (await mails()).length, alicePosts: posts('/alice').length };
    expect(await turnMailsTo('bob')).toHaveLength(0);
    const moved = await call('POST', `/v1/games/${gameId}/commands`, tokens['alice']!, { commandId: 'e2e-roll-1', command: { type: 'Roll' } });
    expect(moved.status).toBe(200);
    const view = await call('GET', `/v1/games/${gameId}`, tokens['bob']!);
    const { hash, version } = view.body.summary;
    expect(view.body.summary.pending).toEqual([expect.objectContaining({ seat: 'p2', player: 'bob' })]);

    await waitFor("bob's turn mail", async () => ((await turnMailsTo('bob')).length ? true : undefined));
    await waitFor("bob's webhook", async () =>
      posts('/bob').some((p) => JSON.parse(p.body).type === 'game.turn' && JSON.parse(p.body).game.version === version) ? true : undefined,
    );
    await waitFor('the flaky receiver to accept', async () =>
      posts('/flaky').some((p) => p.status === 200 && p.body.includes(`version ${version}`)) ? true : undefined,
    );
    await notif.settle();
    await new Promise((r) => setTimeout(r, 300));
    await notif.settle();

    // Exactly one mail, to bob, naming game, opponent, what is asked, link and receipt.
    const turnMails = await turnMailsTo('bob');
    expect(turnMails).toHaveLength(1);
    expect((await mails()).length).toBe(before.mails + 1);
    const mail = turnMails[0]!;
    expect(mail.subject).toBe('Your move in Dice Race (test fixture) against alice (Player 1)');
    expect(mail.from).toContain('turns@fieldpost.test');
    expect(mail.text).toContain(`(game ${gameId})`);
    expect(mail.text).toContain('Player 2: Roll a die or play your card');
    expect(mail.text).toContain(`${APP_URL}/games/${gameId}`);
    expect(mail.text).toContain(`Receipt: version ${version}, event hash ${hash}`);
    const raw = await fetch(`${rt.url}/local/mail/${mail.id}`);
    expect(raw.headers.get('content-type')).toBe('message/rfc822');
    expect(await raw.text()).toContain(`Subject: ${mail.subject}`);

    // Exactly one webhook delivery at bob's receiver, correctly signed.
    const bobTurns = posts('/bob').filter((p) => JSON.parse(p.body).type === 'game.turn');
    expect(bobTurns).toHaveLength(1);
    const hook = bobTurns[0]!;
    // Checked as any receiver would, with the standardwebhooks package.
    const headers = {
      'webhook-id': String(hook.headers['webhook-id']),
      'webhook-timestamp': String(hook.headers['webhook-timestamp']),
      'webhook-signature': String(hook.headers['webhook-signature']),
    };
    expect(new Webhook(SECRETS.bob).verify(hook.body, headers)).toMatchObject({ type: 'game.turn', player: 'bob' });
    expect(() => new Webhook(SECRETS.alice).verify(hook.body, headers)).toThrow();
    expect(headers['webhook-id']).toBe(JSON.parse(hook.body).id);
    const payload = JSON.parse(hook.body);
    expect(payload).toMatchObject({
      type: 'game.turn',
      player: 'bob',
      seats: ['p2'],
      game: { id: gameId, version, hash, url: `${APP_URL}/games/${gameId}` },
      opponents: [{ seat: 'p1', player: 'alice' }],
    });
    expect(hook.headers['webhook-id']).toBe(payload.id);

    // Alice, who just moved, is told nothing.
    expect(posts('/alice').length).toBe(before.alicePosts);
  });

  it('a receiver that fails twice gets the delivery on the third try, and bob can see the failures', async () => {
    const view = await call('GET', `/v1/games/${gameId}`, tokens['bob']!);
    const version = view.body.summary.version;
    const tries = posts('/flaky').filter((p) => p.body.includes(`version ${version}`));
    expect(tries.map((t) => t.status)).toEqual([500, 500, 200]);
    expect(new Set(tries.map((t) => t.headers['webhook-id'])).size).toBe(1);
    const slack = JSON.parse(tries[2]!.body);
    expect(slack.text).toContain('your move');
    expect(JSON.stringify(slack.blocks)).toContain(`${APP_URL}/games/${gameId}|Open the game`);
    const deliveries = (await call('GET', '/v1/me/deliveries', tokens['bob']!)).body.deliveries as any[];
    const flaky = deliveries.filter((d) => d.deliveryId === tries[0]!.headers['webhook-id']).sort((a, b) => a.attempt - b.attempt);
    expect(flaky.map((d) => [d.attempt, d.ok, d.status, d.outcome])).toEqual([
      [1, false, 500, 'retrying'],
      [2, false, 500, 'retrying'],
      [3, true, 200, 'sent'],
    ]);
    expect(JSON.stringify(deliveries)).not.toContain(SECRETS.bob);
  });

  it('the inbox flags whose move it is', async () => {
    const bob = await call('GET', '/v1/me/games', tokens['bob']!);
    const alice = await call('GET', '/v1/me/games', tokens['alice']!);
    expect(bob.body).toMatchObject({
      player: 'bob',
      yourMoveCount: 1,
      games: [{ gameId, yourMove: true, status: 'active', opponents: [{ seat: 'p1', player: 'alice' }] }],
    });
    expect(alice.body).toMatchObject({ yourMoveCount: 0, games: [{ gameId, yourMove: false }] });
    expect(bob.body.games[0].pk).toBeUndefined();
  });

  it('replaying the stream twice sends nothing again and leaves the read models identical', async () => {
    const before = { mails: (await mails()).length, posts: received.length, models: await readModelItems(rt.client, rt.tableName) };
    // Both consumers of the stream: the projector (read models) and the notices' (notify jobs).
    const n1 = [await notif.poller.replay(), await notif.noticePoller.replay()];
    const n2 = [await notif.poller.replay(), await notif.noticePoller.replay()];
    expect(n1[0]).toBeGreaterThan(5);
    expect(n1[1]).toBe(n1[0]);
    expect(n2).toEqual(n1);
    await notif.queue.idle();
    await new Promise((r) => setTimeout(r, 300));
    await notif.settle();
    expect((await mails()).length).toBe(before.mails);
    expect(received.length).toBe(before.posts);
    expect(await readModelItems(rt.client, rt.tableName)).toEqual(before.models);
    expect(await turnMailsTo('bob')).toHaveLength(1);
  });
});
