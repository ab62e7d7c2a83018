import { beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createRouter } from '../../functions/http/router.js';
import { createSettingsRoutes, mergeSettings, publicSettings, settingsBody, settingsRoutes } from '../../functions/http/routes/settings.js';
import type { ApiDeps, RouteModule } from '../../functions/http/types.js';
import type { Resolver } from '../../functions/notify/webhook.js';
import { isStandardSecret } from '../../functions/notify/signature.js';
import { DynamoSettingsStore } from '../../functions/notify/stores.js';
import { AppError, type NotificationSettings } from '../../functions/ports.js';
import { apiEvent } from '../http/support.js';
import { freshTable } from '../support/dynamo.js';

const current: NotificationSettings = {
  email: 'bob@example.org',
  webhooks: [
    {
      id: 'wh_0123456789abcdef',
      url: 'https://discord.com/api/webhooks/123456789012345678/tokentokentokentoken',
      secret: 'secret-0123456789-WXYZ',
      format: 'discord',
    },
  ],
};
const NOW = '2026-11-21T10:00:00.000Z';
const OWN = 'whsec_' + Buffer.from('a-player-own-key-0123456789').toString('base64');
let n = 0;
const ids = () => `wh_${String(++n).padStart(16, '0')}`;
const errorOf = (f: () => unknown): { code: string; message: string } => {
  try {
    f();
  } catch (e) {
    return e instanceof AppError ? { code: e.code, message: e.message } : { code: 'not-an-AppError', message: String(e) };
  }
  return { code: 'no error', message: '' };
};
const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof AppError ? e.code : 'not-an-AppError';
  }
  return 'no error';
};

describe('notification settings', () => {
  it("keep what the request leaves out, including a webhook's secret when it names the id", () => {
    const next = mergeSettings(current, settingsBody.parse({ webhooks: [{ id: 'wh_0123456789abcdef', format: 'slack' }] }), false, NOW, ids);
    expect(next.email).toBe('bob@example.org');
    expect(next.webhooks).toEqual([{ ...current.webhooks[0]!, format: 'slack' }]);
    expect(mergeSettings(current, settingsBody.parse({ email: null }), false, NOW, ids)).toEqual({ webhooks: current.webhooks });
  });

  it('need a url for a new webhook, and make it a Standard Webhooks secret unless the player brings one', () => {
    expect(codeOf(() => mergeSettings(current, settingsBody.parse({ webhooks: [{ secret: OWN }] }), false, NOW, ids))).toBe('settings/webhook-url-required');
    const made = mergeSettings(current, settingsBody.parse({ webhooks: [{ url: 'https://example.org/h' }] }), false, NOW, ids).webhooks[0]!;
    expect(made.secret).toMatch(/^whsec_/);
    expect(isStandardSecret(made.secret)).toBe(true);
    expect(mergeSettings(current, settingsBody.parse({ webhooks: [{ url: 'https://example.org/h', secret: OWN }] }), false, NOW, ids).webhooks[0]!.secret).toBe(
      OWN,
    );
    expect(codeOf(() => mergeSettings(current, settingsBody.parse({ webhooks: [{ id: 'wh_ffffffffffffffff' }] }), false, NOW, ids))).toBe(
      'settings/unknown-webhook',
    );
    expect(codeOf(() => mergeSettings(current, settingsBody.parse({ webhooks: [{ url: 'http://example.org/h', secret: OWN }] }), false, NOW, ids))).toBe(
      'settings/bad-webhook-url',
    );
    const slack = mergeSettings(
      undefined,
      settingsBody.parse({ webhooks: [{ url: 'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX', format: 'slack' }] }),
      false,
      NOW,
      ids,
    );
    expect(isStandardSecret(slack.webhooks[0]!.secret)).toBe(true);
  });

  it('rotate a secret: a new one made, the old one kept signing beside it for a day, then dropped', () => {
    const rotated = mergeSettings(current, settingsBody.parse({ webhooks: [{ id: 'wh_0123456789abcdef', rotateSecret: true }] }), false, NOW, ids).webhooks[0]!;
    expect(rotated.secret).not.toBe(current.webhooks[0]!.secret);
    expect(rotated.previousSecret).toEqual({ secret: current.webhooks[0]!.secret, until: '2026-11-22T10:00:00.000Z' });
    const next = { ...current, webhooks: [rotated] };
    // A later save within the day keeps it; after the day it is gone.
    expect(
      mergeSettings(next, settingsBody.parse({ webhooks: [{ id: rotated.id }] }), false, '2026-11-22T09:59:00.000Z', ids).webhooks[0]!.previousSecret,
    ).toBeDefined();
    expect(
      mergeSettings(next, settingsBody.parse({ webhooks: [{ id: rotated.id }] }), false, '2026-11-22T10:00:01.000Z', ids).webhooks[0]!.previousSecret,
    ).toBeUndefined();
  });

  it('keep a switched-off webhook off until its owner switches it on, or points it somewhere else', () => {
    const off = { ...current, webhooks: [{ ...current.webhooks[0]!, disabled: { at: NOW, reason: 'the receiver answered 410 Gone' } }] };
    const same = (w: object) => mergeSettings(off, settingsBody.parse({ webhooks: [{ id: 'wh_0123456789abcdef', ...w }] }), false, NOW, ids).webhooks[0]!;
    expect(same({}).disabled).toEqual(off.webhooks[0]!.disabled);
    expect(same({ enabled: true }).disabled).toBeUndefined();
    expect(same({ url: 'https://hooks.example.org/new' }).disabled).toBeUndefined();
    expect(publicSettings(off).webhooks[0]).toMatchObject({ disabled: { reason: 'the receiver answered 410 Gone' } });
  });

  it('are validated at the edge: email shape, secret form, at most five webhooks, no unknown fields', () => {
    expect(settingsBody.safeParse({ email: 'not-an-email' }).success).toBe(false);
    expect(settingsBody.safeParse({ webhooks: [{ url: 'https://x.org', secret: 'short' }] }).success).toBe(false);
    expect(settingsBody.safeParse({ webhooks: [{ url: 'https://x.org', secret: 'not-whsec-but-long-enough-0123456789' }] }).success).toBe(false);
    expect(settingsBody.safeParse({ webhooks: Array.from({ length: 6 }, () => ({ url: 'https://x.org', secret: OWN })) }).success).toBe(false);
    expect(settingsBody.safeParse({ sms: '+1' }).success).toBe(false);
  });

  it('are shown without secrets and with token-bearing URLs masked', () => {
    const shown = publicSettings(current);
    expect(shown).toEqual({
      email: 'bob@example.org',
      emailVerification: { status: 'unverified', resendAfter: null },
      webhooks: [{ id: 'wh_0123456789abcdef', url: 'https://discord.com/api/webhooks/1234…/toke…', format: 'discord', secretHint: '…WXYZ' }],
      emailOff: [],
      remindersOff: [],
      digest: null,
    });
    expect(JSON.stringify(shown)).not.toContain('secret-0123456789');
    expect(JSON.stringify(shown)).not.toContain('tokentokentoken');
  });
});

describe('webhook URLs at save time (SSRF guard)', () => {
  const add = (url: string) => settingsBody.parse({ webhooks: [{ url, secret: OWN }] });

  it('deployed (strict): private, loopback, metadata and odd-spelled targets are refused with the reason', () => {
    for (const [url, why] of [
      ['https://169.254.169.254/latest/meta-data/', '169.254.169.254, a link-local address (169.254.0.0/16: link-local; cloud instance metadata)'],
      ['https://127.0.0.1:8443/hook', '127.0.0.0/8: loopback'],
      ['https://2130706433/hook', 'points at 127.0.0.1'],
      ['https://[::ffff:10.1.2.3]/hook', '10.0.0.0/8: private use'],
      ['https://[fd00:ec2::254]/', 'fc00::/7'],
      ['https://100.100.100.200/', '100.64.0.0/10: carrier-grade NAT'],
      ['https://localhost/hook', 'names localhost'],
      ['https://ip-10-0-0-1.ec2.internal/', '.internal name'],
      ['https://user:pw@hooks.example.org/', 'must not contain a user name or password'],
      ['http://hooks.example.org/', 'must use https'],
    ] as const) {
      expect(errorOf(() => mergeSettings(current, add(url), false, NOW, ids))).toEqual({
        code: 'settings/bad-webhook-url',
        message: expect.stringContaining(`webhooks.0: the url `),
      });
      expect(errorOf(() => mergeSettings(current, add(url), false, NOW, ids)).message).toContain(why);
    }
    expect(mergeSettings(current, add('https://hooks.example.org:8443/fieldpost'), false, NOW, ids).webhooks[0]!.url).toBe(
      'https://hooks.example.org:8443/fieldpost',
    );
  });

  it('local runtime (allowPrivate): plain http receivers on 127.0.0.1 are fine', () => {
    expect(mergeSettings(undefined, add('http://127.0.0.1:9/hook'), true, NOW, ids).webhooks[0]!.url).toBe('http://127.0.0.1:9/hook');
    expect(codeOf(() => mergeSettings(undefined, add('http://u:p@127.0.0.1:9/hook'), true, NOW, ids))).toBe('settings/bad-webhook-url');
  });
});

describe('PUT /v1/me/settings (SSRF guard, DynamoDB Local)', () => {
  let client: DynamoDBClient;
  let tableName: string;
  beforeAll(async () => {
    ({ client, tableName } = await freshTable('settings'));
  });

  const dns: Resolver = async (host) => {
    const answers: Record<string, string[]> = {
      'hooks.example.org': ['93.184.216.34', '2606:2800:220:1::1'],
      'sneaky.example.org': ['93.184.216.34', '192.168.0.10'],
    };
    const a = answers[host];
    if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const api = (module: RouteModule, player: string) => {
    const deps = { dynamo: { client, tableName } } as unknown as ApiDeps;
    const router = createRouter([module], deps, { authenticate: () => player, logError: () => {} });
    return async (url: string) => {
      const r = await router(
        apiEvent('PUT', '/v1/me/settings', {
          body: JSON.stringify({ webhooks: [{ url, secret: OWN }] }),
          headers: { 'content-type': 'application/json' },
        }),
      );
      return { status: r.statusCode, body: JSON.parse(r.body ?? 'null') };
    };
  };
  const stored = (player: string) => new DynamoSettingsStore(client, tableName).get(player);

  it('answers 400 {code, message} naming the reason, and writes nothing', async () => {
    const put = api(createSettingsRoutes({ resolve: dns }), 'kate');
    const r = await put('https://169.254.169.254/latest/meta-data/');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'settings/bad-webhook-url', message: expect.stringContaining('169.254.0.0/16: link-local; cloud instance metadata') });
    expect(await stored('kate')).toBeUndefined();
  });

  it('refuses a name that resolves to a private address when it is saved; an unknown name is left to delivery', async () => {
    const put = api(createSettingsRoutes({ resolve: dns }), 'liam');
    const sneaky = await put('https://sneaky.example.org/hook');
    expect(sneaky).toMatchObject({
      status: 400,
      body: {
        code: 'settings/bad-webhook-url',
        message:
          'webhooks.0: the url has a host, sneaky.example.org, that resolves to 192.168.0.10, a private network address (192.168.0.0/16: private use); webhooks must go to a public internet address',
      },
    });
    expect(await stored('liam')).toBeUndefined();
    expect((await put('https://hooks.example.org/hook')).status).toBe(200);
    // Not resolvable yet (DNS being set up): accepted; every delivery checks again.
    expect((await put('https://not-yet.example.org/hook')).status).toBe(200);
    expect((await stored('liam'))?.webhooks.map((w) => w.url)).toEqual(['https://not-yet.example.org/hook']);
  });

  it('the deployed module is strict; only a module built with allowPrivateWebhooks (the local runtime) takes http://127.0.0.1', async () => {
    expect(await api(settingsRoutes, 'mona')('http://127.0.0.1:9/hook')).toMatchObject({
      status: 400,
      body: { code: 'settings/bad-webhook-url', message: 'webhooks.0: the url must use https' },
    });
    expect(await api(settingsRoutes, 'mona')('https://127.0.0.1:9/hook')).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('127.0.0.0/8: loopback') },
    });
    expect(await stored('mona')).toBeUndefined();
    expect((await api(createSettingsRoutes({ allowPrivateWebhooks: true }), 'mona')('http://127.0.0.1:9/hook')).status).toBe(200);
    expect((await stored('mona'))?.webhooks.map((w) => w.url)).toEqual(['http://127.0.0.1:9/hook']);
  });
});
