import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createRouter } from '../../functions/http/router.js';
import { createSettingsRoutes } from '../../functions/http/routes/settings.js';
import type { ApiDeps } from '../../functions/http/types.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { startLocalNotifications } from '../../functions/local/stream-poller.js';
import type { Mailer, OutgoingMail } from '../../functions/notify/mailer.js';
import { Notifier } from '../../functions/notify/notifier.js';
import { DynamoDeliveryLog, DynamoNoticeLedger, DynamoSettingsStore } from '../../functions/notify/stores.js';
import { documentClient } from '../../functions/store/document-client.js';
import { apiEvent } from '../http/support.js';
import { freshTable } from '../support/dynamo.js';
import { NOW, turnNotice } from './fixtures.js';

/**
 * Email verification against DynamoDB Local: an address is mailed nothing but its verification
 * mail until the player who set it confirms the mailed token while signed in.
 */
let client: DynamoDBClient;
let tableName: string;
let now = NOW;
const mails: OutgoingMail[] = [];
let mailerDown = false;
const mailer: Mailer = {
  send: async (m) => {
    if (mailerDown) throw new Error('SES is throttling');
    mails.push(m);
  },
};
const APP = 'https://play.example.org';

beforeAll(async () => {
  ({ client, tableName } = await freshTable('verify'));
});

const later = (seconds: number) => {
  now = new Date(Date.parse(now) + seconds * 1000).toISOString();
};

function router() {
  const deps = { dynamo: { client, tableName }, clock: { now: () => now } } as unknown as ApiDeps;
  return createRouter([createSettingsRoutes({ allowPrivateWebhooks: true, verificationMail: () => ({ mailer, appUrl: APP }) })], deps, {
    authenticate: (e) => e.headers['x-player'] ?? '',
    logError: (e) => console.error(e),
  });
}

/** Calls the API as `player`. */
async function call(player: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Record<string, unknown> }> {
  const r = await router()(
    apiEvent(method, path, {
      headers: { 'x-player': player, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
  return { status: r.statusCode ?? 0, body: JSON.parse(r.body ?? 'null'), headers: (r.headers ?? {}) as Record<string, unknown> };
}

const mailsTo = (email: string) => mails.filter((m) => m.to === email);
const tokenIn = (m: OutgoingMail) => {
  const t = /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(m.text)?.[1];
  if (!t) throw new Error(`no verification link in: ${m.text}`);
  return t;
};
const lastTokenTo = (email: string) => tokenIn(mailsTo(email).at(-1)!);
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function notifier() {
  const sent: OutgoingMail[] = [];
  const n = new Notifier({
    settings: new DynamoSettingsStore(client, tableName),
    ledger: new DynamoNoticeLedger(client, tableName),
    deliveries: new DynamoDeliveryLog(client, tableName),
    mailer: { send: async (m) => void sent.push(m) },
    webhooks: { post: async () => ({ status: 200 }) },
    clock: { now: () => now },
    appUrl: APP,
    retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1, mode: 'inline' },
    sleep: async () => undefined,
  });
  return { n, sent };
}

describe('setting an address', () => {
  it('stores it unverified, sends one verification mail with a link and token, and never shows the token', async () => {
    const put = await call('ann', 'PUT', '/v1/me/settings', { email: 'ann@example.org' });
    expect(put.status).toBe(200);
    expect(put.body.email).toBe('ann@example.org');
    expect(put.body.emailVerification).toEqual({
      status: 'pending',
      expiresAt: new Date(Date.parse(now) + 24 * 3600_000).toISOString(),
      resendAfter: new Date(Date.parse(now) + 60_000).toISOString(),
    });

    expect(mailsTo('ann@example.org')).toHaveLength(1);
    const mail = mailsTo('ann@example.org')[0]!;
    expect(mail.subject).toBe('Confirm your email address for Fieldpost');
    const token = tokenIn(mail);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.text).toContain(`${APP}/verify-email?token=${token}`);
    expect(mail.html).toContain(`href="${APP}/verify-email?token=${token}"`);

    // The token is in the mail only: GET settings shows neither it nor its hash, and the table keeps just the hash.
    const got = await call('ann', 'GET', '/v1/me/settings');
    expect(got.body).toEqual(put.body);
    expect(JSON.stringify(got.body)).not.toContain(token);
    expect(JSON.stringify(got.body)).not.toContain(sha256(token));
    const raw = await documentClient(client).send(new GetCommand({ TableName: tableName, Key: { pk: 'PLAYER#ann', sk: 'SETTINGS' } }));
    expect(JSON.stringify(raw.Item)).not.toContain(token);
    expect(raw.Item?.['emailVerification']?.tokenHash).toBe(sha256(token));

    // The verification mail itself is in the player's delivery log.
    const log = (await call('ann', 'GET', '/v1/me/deliveries')).body.deliveries as any[];
    expect(log).toEqual([expect.objectContaining({ kind: 'email-verification', channel: 'email', target: 'ann@example.org', ok: true, outcome: 'sent' })]);
    expect(JSON.stringify(log)).not.toContain(token);
  });

  it('a mail that is not accepted leaves the address pending, is visible in the delivery log, and can be resent', async () => {
    mailerDown = true;
    try {
      expect((await call('abe', 'PUT', '/v1/me/settings', { email: 'abe@example.org' })).status).toBe(200);
    } finally {
      mailerDown = false;
    }
    const [rec] = (await call('abe', 'GET', '/v1/me/deliveries')).body.deliveries as any[];
    expect(rec).toMatchObject({ kind: 'email-verification', ok: false, outcome: 'failed', error: 'mail not accepted: SES is throttling' });
    later(61);
    const resent = await call('abe', 'POST', '/v1/me/email/resend');
    expect(resent).toMatchObject({ status: 200, body: { mailed: true, email: 'abe@example.org', emailVerification: { status: 'pending' } } });
    expect((await call('abe', 'POST', '/v1/me/email/verify', { token: lastTokenTo('abe@example.org') })).body.emailVerification.status).toBe('verified');
  });
});

describe('notices and verification', () => {
  it('a notice to an unverified address is skipped and recorded; a wrong token is 400; the right one verifies and the next notice is mailed', async () => {
    await call('bea', 'PUT', '/v1/me/settings', { email: 'bea@example.org' });
    const token = lastTokenTo('bea@example.org');
    const { n, sent } = notifier();

    expect(await n.handle({ notice: turnNotice('vn', { player: 'bea' }) })).toEqual([{ channel: 'email', outcome: 'failed' }]);
    expect(sent).toHaveLength(0);
    const skipped = ((await call('bea', 'GET', '/v1/me/deliveries')).body.deliveries as any[]).filter((d) => d.kind === 'turn');
    expect(skipped).toEqual([expect.objectContaining({ channel: 'email', target: 'bea@example.org', ok: false, outcome: 'failed', attempt: 1 })]);
    expect(skipped[0].error).toContain('email not verified yet');

    const wrong = await call('bea', 'POST', '/v1/me/email/verify', { token: token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA') });
    expect(wrong).toMatchObject({ status: 400, body: { code: 'email/wrong-token', message: expect.stringContaining('bea@example.org') } });
    expect((await call('bea', 'GET', '/v1/me/settings')).body.emailVerification.status).toBe('pending');

    const ok = await call('bea', 'POST', '/v1/me/email/verify', { token });
    expect(ok).toMatchObject({ status: 200, body: { email: 'bea@example.org', emailVerification: { status: 'verified', verifiedAt: now } } });
    expect(JSON.stringify(ok.body)).not.toContain(token);
    // Once used, the token is gone.
    expect((await call('bea', 'POST', '/v1/me/email/verify', { token })).body.code).toBe('email/already-verified');

    expect(await n.handle({ notice: turnNotice('vn', { player: 'bea' }) })).toEqual([{ channel: 'email', outcome: 'sent' }]);
    expect(sent.map((m) => m.to)).toEqual(['bea@example.org']);
  });

  it('an expired token is 400 and changes nothing; a resend (once a minute) replaces it', async () => {
    await call('cal', 'PUT', '/v1/me/settings', { email: 'cal@example.org' });
    const first = lastTokenTo('cal@example.org');

    const soon = await call('cal', 'POST', '/v1/me/email/resend');
    expect(soon).toMatchObject({ status: 429, body: { code: 'email/too-soon', message: expect.stringContaining('try again in 60 s') } });
    expect(soon.headers['retry-after']).toBe('60');
    expect(mailsTo('cal@example.org')).toHaveLength(1);

    later(24 * 3600 + 1);
    const expired = await call('cal', 'POST', '/v1/me/email/verify', { token: first });
    expect(expired).toMatchObject({ status: 400, body: { code: 'email/token-expired', message: expect.stringContaining('POST /v1/me/email/resend') } });
    expect((await call('cal', 'GET', '/v1/me/settings')).body.emailVerification.status).toBe('expired');

    const resent = await call('cal', 'POST', '/v1/me/email/resend');
    expect(resent).toMatchObject({ status: 200, body: { mailed: true, emailVerification: { status: 'pending' } } });
    const second = lastTokenTo('cal@example.org');
    expect(second).not.toBe(first);
    expect((await call('cal', 'POST', '/v1/me/email/verify', { token: first })).body.code).toBe('email/wrong-token');
    expect((await call('cal', 'POST', '/v1/me/email/verify', { token: second })).status).toBe(200);
    expect(await call('cal', 'POST', '/v1/me/email/resend')).toMatchObject({ status: 409, body: { code: 'email/already-verified' } });
  });
});

describe('changing and re-saving the address', () => {
  it('changing it makes it unverified again with a new mail, and the old token no longer works', async () => {
    later(3600);
    await call('dee', 'PUT', '/v1/me/settings', { email: 'dee@example.org' });
    const oldToken = lastTokenTo('dee@example.org');
    expect((await call('dee', 'POST', '/v1/me/email/verify', { token: oldToken })).body.emailVerification.status).toBe('verified');

    // A new address within a minute of the last verification mail: refused, nothing written.
    const tooSoon = await call('dee', 'PUT', '/v1/me/settings', { email: 'dee@example.net' });
    expect(tooSoon).toMatchObject({ status: 429, body: { code: 'email/too-soon' } });
    expect((await call('dee', 'GET', '/v1/me/settings')).body).toMatchObject({ email: 'dee@example.org', emailVerification: { status: 'verified' } });

    later(61);
    const changed = await call('dee', 'PUT', '/v1/me/settings', { email: 'dee@example.net' });
    expect(changed).toMatchObject({ status: 200, body: { email: 'dee@example.net', emailVerification: { status: 'pending' } } });
    expect(mailsTo('dee@example.net')).toHaveLength(1);
    const { n, sent } = notifier();
    expect(await n.handle({ notice: turnNotice('vc', { player: 'dee' }) })).toEqual([{ channel: 'email', outcome: 'failed' }]);
    expect(sent).toHaveLength(0);

    // A token mailed for the previous address (pending, then replaced) confirms nothing.
    later(61);
    await call('dee', 'PUT', '/v1/me/settings', { email: 'dee@example.com' });
    const replaced = lastTokenTo('dee@example.net');
    expect((await call('dee', 'POST', '/v1/me/email/verify', { token: replaced })).body.code).toBe('email/wrong-token');
    expect((await call('dee', 'POST', '/v1/me/email/verify', { token: oldToken })).body.code).toBe('email/wrong-token');
    expect((await call('dee', 'GET', '/v1/me/settings')).body).toMatchObject({ email: 'dee@example.com', emailVerification: { status: 'pending' } });
    expect((await call('dee', 'POST', '/v1/me/email/verify', { token: lastTokenTo('dee@example.com') })).status).toBe(200);
  });

  it('re-saving the same verified address (or changing only webhooks) keeps it verified and sends nothing', async () => {
    later(3600);
    await call('eve', 'PUT', '/v1/me/settings', { email: 'eve@example.org' });
    await call('eve', 'POST', '/v1/me/email/verify', { token: lastTokenTo('eve@example.org') });
    const before = mails.length;
    later(120);
    const same = await call('eve', 'PUT', '/v1/me/settings', { email: 'eve@example.org' });
    expect(same.body.emailVerification.status).toBe('verified');
    const hooks = await call('eve', 'PUT', '/v1/me/settings', { webhooks: [{ url: 'http://127.0.0.1:9/hook' }] });
    expect(hooks.body).toMatchObject({ email: 'eve@example.org', emailVerification: { status: 'verified' } });
    expect(mails.length).toBe(before);
    // Removing the address clears its state; setting it again starts over.
    expect((await call('eve', 'PUT', '/v1/me/settings', { email: null })).body.emailVerification).toBeNull();
    expect((await call('eve', 'PUT', '/v1/me/settings', { email: 'eve@example.org' })).body.emailVerification.status).toBe('pending');
    expect(mails.length).toBe(before + 1);
  });

  it('another player cannot verify your token', async () => {
    later(3600);
    await call('fay', 'PUT', '/v1/me/settings', { email: 'fay@example.org' });
    const faysToken = lastTokenTo('fay@example.org');
    expect(await call('gus', 'POST', '/v1/me/email/verify', { token: faysToken })).toMatchObject({ status: 400, body: { code: 'email/no-address' } });
    await call('gus', 'PUT', '/v1/me/settings', { email: 'gus@example.org' });
    expect(await call('gus', 'POST', '/v1/me/email/verify', { token: faysToken })).toMatchObject({ status: 400, body: { code: 'email/wrong-token' } });
    expect((await call('fay', 'GET', '/v1/me/settings')).body.emailVerification.status).toBe('pending');
    expect((await call('gus', 'GET', '/v1/me/settings')).body.emailVerification.status).toBe('pending');
    expect((await call('fay', 'POST', '/v1/me/email/verify', { token: faysToken })).status).toBe(200);
  });

  it('validates the verify body at the edge', async () => {
    expect(await call('hal', 'POST', '/v1/me/email/verify', {})).toMatchObject({ status: 400, body: { code: 'http/invalid-request' } });
    expect(await call('hal', 'POST', '/v1/me/email/verify', { token: 'x', extra: 1 })).toMatchObject({ status: 400, body: { code: 'http/invalid-request' } });
  });
});

describe('locally (npm start)', () => {
  let rt: LocalRuntime;
  let mailDir: string;
  beforeAll(async () => {
    mailDir = mkdtempSync(join(tmpdir(), 'fieldpost-verify-mail-'));
    rt = await startLocalRuntime({
      dynamoEndpoint: inject('dynamoEndpoint'),
      tableName: `verify-local-${Date.now().toString(36)}`,
      memory: true,
      // No APP_URL: links in local mail point at this runtime, as with npm start.
      extensions: [(ctx) => startLocalNotifications(ctx, { mailDir, pollIntervalMs: 100, env: {} })],
    });
  }, 60_000);
  afterAll(async () => {
    await rt?.stop();
    if (mailDir) rmSync(mailDir, { recursive: true, force: true });
  });

  it('the verification mail lands in the sink; its link opens a page that changes nothing until Confirm posts the token', async () => {
    const bearer = rt.issueToken('ivy');
    const api = async (method: string, path: string, body?: unknown, token = bearer) => {
      const r = await fetch(`${rt.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: r.status, body: (await r.json()) as any };
    };
    expect((await api('PUT', '/v1/me/settings', { email: 'ivy@example.org' })).status).toBe(200);
    const list = (await (await fetch(`${rt.url}/local/mail`)).json()) as { mails: { to: string; subject: string; text: string }[] };
    const mail = list.mails.find((m) => m.to.includes('ivy@example.org'));
    expect(mail?.subject).toBe('Confirm your email address for Fieldpost');
    const link = /(http:\/\/\S+\/verify-email\?token=[A-Za-z0-9_-]+)/.exec(mail!.text)?.[1];
    expect(link?.startsWith(`${rt.url}/verify-email?token=`)).toBe(true);

    // Opening the link (as a mail scanner would) shows a Confirm button and verifies nothing.
    const page = await fetch(link!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('<button type="submit">Confirm</button>');
    expect(html).toContain("fetch('/v1/me/email/verify'");
    expect((await api('GET', '/v1/me/settings')).body.emailVerification.status).toBe('pending');
    expect((await fetch(`${rt.url}/verify-email?token=%3Cscript%3E`)).status).toBe(400);

    // What the Confirm button does: sign in as the named player, post the token.
    const token = new URL(link!).searchParams.get('token')!;
    const signIn = (await (
      await fetch(`${rt.url}/local/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ player: 'ivy' }) })
    ).json()) as { token: string };
    const confirmed = await api('POST', '/v1/me/email/verify', { token }, signIn.token);
    expect(confirmed).toMatchObject({ status: 200, body: { email: 'ivy@example.org', emailVerification: { status: 'verified' } } });
  });
});
