import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { notificationsExtension } from '../../functions/local/stream-poller.js';
import { SesMailer } from '../../functions/notify/mailer.js';
import { DynamoSettingsStore } from '../../functions/notify/stores.js';
import { noticeMailHeaders, unsubscribeUrl } from '../../functions/notify/unsubscribe.js';
import { diceRace } from '../fixtures/dice-race.js';
import { verifiedEmail } from '../notify/fixtures.js';
import { waitFor } from '../support/wait.js';

/**
 * Issue 9: notification mail carries the headers providers expect from automated senders:
 * one-click List-Unsubscribe (RFC 8058) and Auto-Submitted (RFC 3834), on the SMTP path (the
 * local mail sink) and the SES path; the link turns that kind of mail off without signing in.
 */
let rt: LocalRuntime;
beforeAll(async () => {
  rt = await startLocalRuntime({
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `unsub-${Date.now().toString(36)}`,
    memory: true,
    engines: createRegistry([diceRace]),
    extensions: [notificationsExtension],
  });
}, 60_000);
afterAll(async () => {
  await rt?.stop();
});

const api = async (method: string, path: string, player: string | null, body?: unknown) => {
  const r = await fetch(`${rt.url}${path}`, {
    method,
    headers: { ...(player ? { authorization: `Bearer ${rt.issueToken(player)}` } : {}), 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
};
type Mail = { to: string; subject: string; raw: string; text: string };
const mailsTo = async (to: string): Promise<Mail[]> =>
  ((await (await fetch(`${rt.url}/local/mail`)).json()) as { mails: Mail[] }).mails.filter((m) => m.to.includes(to));
const rawOf = async (m: Mail) => (await (await fetch(`${rt.url}${m.raw}`)).text()).replace(/\r\n[ \t]+/g, ' ');

describe('one-click unsubscribe and Auto-Submitted', () => {
  it('a "your move" mail in the sink carries the headers, and its link turns that kind of mail off without signing in', async () => {
    await new DynamoSettingsStore(rt.client, rt.tableName).put('bob', { ...verifiedEmail('bob@example.org'), webhooks: [] });
    const created = await api('POST', '/v1/games', 'alice', { engine: 'dice-race', seat: 'p1', commandId: 'unsub-create' });
    const gameId = created.body.gameId as string;
    await api('POST', `/v1/games/${gameId}/join`, 'bob', { commandId: 'unsub-join' });
    await api('POST', `/v1/games/${gameId}/commands`, 'alice', { commandId: 'unsub-roll-1', command: { type: 'Roll' } });
    const turn = await waitFor("bob's your-move mail", async () => (await mailsTo('bob@example.org')).find((m) => m.subject.startsWith('Your move')));
    const raw = await rawOf(turn);
    expect(raw).toMatch(/^Auto-Submitted: auto-generated$/m);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const link = /^List-Unsubscribe: <([^>]+)>$/m.exec(raw)?.[1];
    expect(link).toMatch(new RegExp(`^${rt.url}/v1/unsubscribe\\?player=bob&kind=turn&token=[A-Za-z0-9_-]{40,}$`));
    expect(turn.text).toContain('settings mail turn off');

    // The link is for bob and "your move" only: another player or kind, or a changed token, is refused.
    const path = link!.slice(rt.url.length);
    const post = (p: string) =>
      fetch(`${rt.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect((await post(path.replace('player=bob', 'player=alice'))).status).toBe(403);
    expect((await post(path.replace('kind=turn', 'kind=ended'))).status).toBe(403);
    expect((await post(path.replace(/token=.{4}/, 'token=AAAA'))).status).toBe(403);
    // A GET (a mail scanner following links) changes nothing.
    expect((await fetch(`${rt.url}${path}`)).status).toBe(405);
    expect((await api('GET', '/v1/me/settings', 'bob')).body.emailOff).toEqual([]);

    const ok = await post(path);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { mailed: boolean }).mailed).toBe(false);
    expect((await api('GET', '/v1/me/settings', 'bob')).body.emailOff).toEqual(['turn']);
    // Settings saved afterwards keep the key: the same link still works (and changes nothing more).
    await api('PUT', '/v1/me/settings', 'bob', { webhooks: [] });
    expect((await post(path)).status).toBe(200);

    // Bob's next turn is not mailed; the game's end still is.
    const before = (await mailsTo('bob@example.org')).length;
    await api('POST', `/v1/games/${gameId}/commands`, 'bob', { commandId: 'unsub-roll-2', command: { type: 'Roll' } });
    await api('POST', `/v1/games/${gameId}/commands`, 'alice', { commandId: 'unsub-roll-3', command: { type: 'Roll' } });
    await api('POST', `/v1/games/${gameId}/resign`, 'alice', { commandId: 'unsub-resign' });
    const over = await waitFor("bob's game-over mail", async () => (await mailsTo('bob@example.org')).find((m) => m.subject.includes('is over')));
    expect((await mailsTo('bob@example.org')).slice(before).map((m) => m.subject)).toEqual([over.subject]);
    expect(await rawOf(over)).toMatch(/^List-Unsubscribe: <[^>]+kind=ended&token=/m);
  }, 60_000);

  it('the SES path sends the same headers', async () => {
    const sent: unknown[] = [];
    const ses = { send: async (c: { input: unknown }) => void sent.push(c.input) } as unknown as SESv2Client;
    const url = unsubscribeUrl('https://api.example.org', 'bob', 'turn', 'ab'.repeat(32));
    await new SesMailer(ses, 'turns@example.org').send({
      to: 'bob@example.org',
      subject: 's',
      text: 't',
      html: 'h',
      deliveryId: 'dlv_1',
      headers: noticeMailHeaders(url),
    });
    const headers = (sent[0] as { Content: { Simple: { Headers: { Name: string; Value: string }[] } } }).Content.Simple.Headers;
    expect(Object.fromEntries(headers.map((h) => [h.Name, h.Value]))).toEqual({
      'List-Unsubscribe': `<${url}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'Auto-Submitted': 'auto-generated',
      'X-Fieldpost-Delivery': 'dlv_1',
    });
  });
});
