import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LOCAL_WEBHOOKS, STRICT_WEBHOOKS } from '../../functions/notify/address-policy.js';
import type { NotifyJob } from '../../functions/notify/decide.js';
import type { Mailer, OutgoingMail } from '../../functions/notify/mailer.js';
import { Notifier, type RetryPolicy } from '../../functions/notify/notifier.js';
import { verifySignature } from '../../functions/notify/signature.js';
import { DynamoDeliveryLog, DynamoNoticeLedger, DynamoSettingsStore } from '../../functions/notify/stores.js';
import { guardedLookup, webhookTransport } from '../../functions/notify/webhook-transport.js';
import { WebhookRefused, type Resolver, type WebhookTransport } from '../../functions/notify/webhook.js';
import { createNotifier } from '../../functions/notify/wiring.js';
import { freshTable } from '../support/dynamo.js';
import { NOW, turnNotice, verifiedEmail } from './fixtures.js';

/**
 * Delivery-time SSRF guard: what a webhook host resolves to is checked as the socket
 * connects, the socket connects only to the checked addresses, a refusal is a final failure
 * the owner can see, and the local runtime's permissive policy still delivers to 127.0.0.1.
 */

const SECRET = 'whsec_guard_0123456789abcdef';

/** A DNS stand-in: fixed answers per name, counting lookups. */
function fakeDns(answers: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (host: string): Promise<LookupAddress[]> => {
    calls.push(host);
    const a = answers[host];
    if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

/** Runs a LookupFunction the way net.connect does. */
const lookupWith = (lookup: ReturnType<typeof guardedLookup>, host: string, options: LookupOptions) =>
  new Promise<{ err: Error | null; address: unknown; family?: number | undefined }>((ok) =>
    lookup(host, options, (err, address, family) => ok({ err, address, family })),
  );

// A receiver on 127.0.0.1 (what local runs post to), and a bare TCP listener that only counts
// connections (to show a refused delivery never connects).
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
let receiver: Server;
let receiverPort = 0;
const received: Received[] = [];
let replyStatus = 200;
let silent: TcpServer;
let silentPort = 0;
let silentConnections = 0;

let client: DynamoDBClient;
let tableName: string;

beforeAll(async () => {
  receiver = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/hang') return; // never answers
      res.writeHead(replyStatus).end('ok');
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', () => ok()));
  receiverPort = (receiver.address() as AddressInfo).port;
  silent = createTcpServer((sock) => {
    silentConnections += 1;
    sock.destroy();
  });
  await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', () => ok()));
  silentPort = (silent.address() as AddressInfo).port;
  ({ client, tableName } = await freshTable('guard'));
});

afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise<void>((ok) => (receiver ? receiver.close(() => ok()) : ok()));
  await new Promise<void>((ok) => (silent ? silent.close(() => ok()) : ok()));
});

const refusalOf = async (p: Promise<unknown>): Promise<WebhookRefused> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof WebhookRefused) return e;
    throw e;
  }
  throw new Error('the post was not refused');
};

describe('webhook transport (delivery time)', () => {
  it('refuses, with the real resolver, a name that resolves to loopback: localhost', async () => {
    const r = await lookupWith(guardedLookup(STRICT_WEBHOOKS), 'localhost', { all: true });
    expect(r.err).toBeInstanceOf(WebhookRefused);
    expect((r.err as WebhookRefused).refusal.code).toBe('webhook/resolves-to-non-public-address');
    expect(r.err!.message).toMatch(/has a host, localhost, that resolves to (127\.0\.0\.1|::1), a loopback address/);
    // The local policy lets the same lookup through, with the addresses the system gave.
    const ok = await lookupWith(guardedLookup(LOCAL_WEBHOOKS), 'localhost', { all: true });
    expect(ok.err).toBeNull();
    expect((ok.address as LookupAddress[]).map((a) => a.address)).toEqual(expect.arrayContaining([expect.stringMatching(/^(127\.0\.0\.1|::1)$/)]));
  });

  it('refuses a public-looking name that resolves to 127.0.0.1 without ever connecting', async () => {
    const dns = fakeDns({ 'hooks.example.org': ['127.0.0.1'] });
    const t = webhookTransport({ policy: STRICT_WEBHOOKS, resolve: dns });
    const before = silentConnections;
    const e = await refusalOf(t.post(`https://hooks.example.org:${silentPort}/hook`, {}, '{}'));
    expect(e.message).toBe(
      'webhook URL has a host, hooks.example.org, that resolves to 127.0.0.1, a loopback address (127.0.0.0/8: loopback); webhooks must go to a public internet address',
    );
    expect(dns.calls).toEqual(['hooks.example.org']);
    expect(silentConnections).toBe(before);
  });

  it('refuses a name with one private address among public ones (no filtering, no lucky picks)', async () => {
    const dns = fakeDns({ 'mixed.example.org': ['93.184.216.34', '10.0.0.5'], 'meta.example.org': ['::ffff:169.254.169.254'] });
    const t = webhookTransport({ resolve: dns });
    expect((await refusalOf(t.post(`https://mixed.example.org:${silentPort}/`, {}, '{}'))).message).toContain(
      'resolves to 10.0.0.5, a private network address',
    );
    expect((await refusalOf(t.post(`https://meta.example.org:${silentPort}/`, {}, '{}'))).message).toContain('169.254.0.0/16');
  });

  it('refuses IP literals and local names before any lookup or connection (strict is the default)', async () => {
    const dns = fakeDns({});
    const t = webhookTransport({ resolve: dns });
    const before = silentConnections;
    for (const url of [
      `http://127.0.0.1:${silentPort}/`,
      `https://127.0.0.1:${silentPort}/`,
      `https://2130706433:${silentPort}/`,
      `https://[::ffff:7f00:1]:${silentPort}/`,
      `https://localhost:${silentPort}/`,
    ]) {
      await refusalOf(t.post(url, {}, '{}'));
    }
    expect(dns.calls).toEqual([]);
    expect(silentConnections).toBe(before);
  });

  it('connects to exactly the address it checked: a name only the guard can resolve still reaches its receiver', async () => {
    // 'receiver.fieldpost.test' exists in no DNS: the request can only reach the receiver if
    // the socket uses the guard's answer, which is what pins it against DNS rebinding.
    const dns = fakeDns({ 'receiver.fieldpost.test': ['127.0.0.1'] });
    const t = webhookTransport({ policy: LOCAL_WEBHOOKS, resolve: dns });
    const before = received.length;
    const r = await t.post(`http://receiver.fieldpost.test:${receiverPort}/pinned`, { 'content-type': 'application/json', 'X-Test': 'pin' }, '{"hello":1}');
    expect(r).toEqual({ status: 200 });
    expect(dns.calls).toEqual(['receiver.fieldpost.test']);
    const got = received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      path: '/pinned',
      body: '{"hello":1}',
      headers: { host: `receiver.fieldpost.test:${receiverPort}`, 'x-test': 'pin', 'content-length': '11' },
    });
  });

  it('hands the socket the checked addresses in the shape it asks for (one, all, one family)', async () => {
    const lookup = guardedLookup(LOCAL_WEBHOOKS, fakeDns({ 'dual.example.org': ['10.0.0.1', 'fd00::1'] }));
    expect(await lookupWith(lookup, 'dual.example.org', {})).toEqual({ err: null, address: '10.0.0.1', family: 4 });
    expect(await lookupWith(lookup, 'dual.example.org', { all: true })).toEqual({
      err: null,
      address: [
        { address: '10.0.0.1', family: 4 },
        { address: 'fd00::1', family: 6 },
      ],
      family: undefined,
    });
    expect(await lookupWith(lookup, 'dual.example.org', { family: 6 })).toEqual({ err: null, address: 'fd00::1', family: 6 });
    const strictPublic = guardedLookup(STRICT_WEBHOOKS, fakeDns({ 'ok.example.org': ['93.184.216.34'] }));
    expect(await lookupWith(strictPublic, 'ok.example.org', { all: true })).toEqual({
      err: null,
      address: [{ address: '93.184.216.34', family: 4 }],
      family: undefined,
    });
    const failing = await lookupWith(strictPublic, 'nowhere.example.org', {});
    expect((failing.err as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });

  it('in local mode posts plain http to 127.0.0.1, passing the receiver status through, and times out', async () => {
    const t = webhookTransport({ policy: LOCAL_WEBHOOKS, timeoutMs: 300 });
    replyStatus = 503;
    try {
      expect(await t.post(`http://127.0.0.1:${receiverPort}/local`, {}, 'x')).toEqual({ status: 503 });
    } finally {
      replyStatus = 200;
    }
    await expect(t.post(`http://127.0.0.1:${receiverPort}/hang`, {}, 'x')).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});

describe('Notifier: refused deliveries', () => {
  const notice = (player: string) => turnNotice('guard', { player });

  function harness(opts: { player: string; webhooks: WebhookTransport; retry?: Partial<RetryPolicy>; allowPrivateWebhooks?: boolean }) {
    const mails: OutgoingMail[] = [];
    const waits: number[] = [];
    const queued: NotifyJob[] = [];
    const mailer: Mailer = { send: async (m) => void mails.push(m) };
    const deliveries = new DynamoDeliveryLog(client, tableName);
    const notifier = new Notifier({
      settings: new DynamoSettingsStore(client, tableName),
      ledger: new DynamoNoticeLedger(client, tableName),
      deliveries,
      mailer,
      webhooks: opts.webhooks,
      clock: { now: () => NOW },
      appUrl: 'https://fieldpost.example.org',
      retry: { attempts: 4, baseDelayMs: 100, maxDelayMs: 10_000, mode: 'inline', ...opts.retry },
      queue: { enqueue: async (jobs) => void queued.push(...jobs) },
      sleep: async (ms) => void waits.push(ms),
      ...(opts.allowPrivateWebhooks !== undefined ? { allowPrivateWebhooks: opts.allowPrivateWebhooks } : {}),
    });
    return { notifier, mails, waits, queued, deliveries };
  }

  const hookTo = (player: string, url: string) =>
    new DynamoSettingsStore(client, tableName).put(player, {
      ...verifiedEmail(`${player}@example.org`),
      webhooks: [{ id: 'wh1', url, secret: SECRET, format: 'json' }],
    });

  it('a host resolving to 127.0.0.1 fails at once, visibly to the owner, and is not retried (inline)', async () => {
    await hookTo('erin', 'https://hooks.example.org/hook');
    const dns = fakeDns({ 'hooks.example.org': ['127.0.0.1'] });
    const h = harness({ player: 'erin', webhooks: webhookTransport({ resolve: dns }) });
    const job = { notice: notice('erin') };
    expect(await h.notifier.handle(job)).toEqual([
      { channel: 'email', outcome: 'sent' },
      { channel: 'wh1', outcome: 'failed' },
    ]);
    expect(h.waits).toEqual([]);
    expect(dns.calls).toEqual(['hooks.example.org']);
    const log = (await h.deliveries.list('erin', 50)).filter((d) => d.channel === 'webhook');
    expect(log).toEqual([
      expect.objectContaining({
        attempt: 1,
        ok: false,
        outcome: 'failed',
        target: 'https://hooks.example.org/hook',
        error:
          'webhook URL has a host, hooks.example.org, that resolves to 127.0.0.1, a loopback address (127.0.0.0/8: loopback); webhooks must go to a public internet address',
      }),
    ]);
    // A replay does not try again.
    await h.notifier.handle(job);
    expect(dns.calls).toHaveLength(1);
  });

  it('in requeue mode (AWS) a refusal puts no retry on the queue', async () => {
    await hookTo('fred', 'https://hooks.example.org/hook');
    const h = harness({
      player: 'fred',
      webhooks: webhookTransport({ resolve: fakeDns({ 'hooks.example.org': ['169.254.169.254'] }) }),
      retry: { mode: 'requeue', attempts: 6, baseDelayMs: 30_000, maxDelayMs: 900_000 },
    });
    expect(await h.notifier.handle({ notice: notice('fred') })).toContainEqual({ channel: 'wh1', outcome: 'failed' });
    expect(h.queued).toEqual([]);
    const [rec] = (await h.deliveries.list('fred', 50)).filter((d) => d.channel === 'webhook');
    expect(rec).toMatchObject({ attempt: 1, outcome: 'failed' });
    expect(rec!.error).toContain('169.254.0.0/16: link-local; cloud instance metadata');
  });

  it('a URL saved before the policy (localhost, a private literal) is refused before the transport is called', async () => {
    let posts = 0;
    const counting: WebhookTransport = { post: async () => ((posts += 1), { status: 200 }) };
    for (const [player, url, why] of [
      ['gina', 'https://localhost/hook', 'names localhost, which means this machine'],
      ['hank', 'https://0x0a000001/hook', 'points at 10.0.0.1, a private network address'],
      ['ivan', 'http://93.184.216.34/hook', 'must use https'],
    ] as const) {
      await hookTo(player, url);
      const h = harness({ player, webhooks: counting });
      expect(await h.notifier.handle({ notice: notice(player) })).toContainEqual({ channel: 'wh1', outcome: 'failed' });
      const [rec] = (await h.deliveries.list(player, 50)).filter((d) => d.channel === 'webhook');
      expect(rec).toMatchObject({ attempt: 1, outcome: 'failed' });
      expect(rec!.error).toContain(why);
    }
    expect(posts).toBe(0);
  });

  it('createNotifier is strict unless told otherwise (the Lambda handler never tells it), whatever AUTH_MODE says', async () => {
    const url = `http://127.0.0.1:${receiverPort}/wired`;
    await hookTo('jane', url);
    const retry: RetryPolicy = { mode: 'inline', attempts: 2, baseDelayMs: 1, maxDelayMs: 1 };
    const mailer: Mailer = { send: async () => undefined };
    const before = received.length;
    const strictOne = createNotifier({ client, tableName, env: { AUTH_MODE: 'local' }, retry, mailer });
    expect(await strictOne.handle({ notice: notice('jane') })).toContainEqual({ channel: 'wh1', outcome: 'failed' });
    expect(received.length).toBe(before);

    // The local runtime's wiring: plain http to 127.0.0.1, signed as usual.
    const localOne = createNotifier({ client, tableName, env: {}, retry, mailer, allowPrivateWebhooks: true });
    expect(await localOne.handle({ notice: notice('jane') })).toContainEqual({ channel: 'wh1', outcome: 'sent' });
    const got = received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]!.path).toBe('/wired');
    expect(
      verifySignature({
        headers: {
          id: String(got[0]!.headers['webhook-id']),
          timestamp: String(got[0]!.headers['webhook-timestamp']),
          signature: String(got[0]!.headers['webhook-signature']),
        },
        body: got[0]!.body,
        secret: SECRET,
        nowSeconds: Math.floor(Date.now() / 1000),
      }).ok,
    ).toBe(true);
  });
});
