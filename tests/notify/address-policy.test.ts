import { describe, expect, it } from 'vitest';
import {
  checkResolved,
  checkWebhookUrl,
  classifyAddress,
  LOCAL_WEBHOOKS,
  parseIp,
  STRICT_WEBHOOKS,
  type AddressKind,
} from '../../functions/notify/address-policy.js';

/** The refusal of a URL under the strict (deployed) policy, or 'allowed'. */
const strict = (url: string) => {
  const v = checkWebhookUrl(url, STRICT_WEBHOOKS);
  return v.ok ? 'allowed' : { code: v.code, reason: v.reason };
};
const local = (url: string) => {
  const v = checkWebhookUrl(url, LOCAL_WEBHOOKS);
  return v.ok ? 'allowed' : v.code;
};

describe('webhook address policy (deployed: strict)', () => {
  // [url, kind, the block the reason must name]
  const refused: [string, AddressKind, string][] = [
    ['https://127.0.0.1/hook', 'loopback', '127.0.0.0/8'],
    ['https://127.255.255.254:8443/hook', 'loopback', '127.0.0.0/8'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local', '169.254.0.0/16'],
    ['https://169.254.170.2/v2/credentials', 'link-local', '169.254.0.0/16'],
    ['https://10.1.2.3/', 'private', '10.0.0.0/8'],
    ['https://172.16.0.1/', 'private', '172.16.0.0/12'],
    ['https://172.31.255.255/', 'private', '172.16.0.0/12'],
    ['https://192.168.1.1/', 'private', '192.168.0.0/16'],
    ['https://100.64.0.1/', 'shared', '100.64.0.0/10'],
    ['https://100.127.255.255/', 'shared', '100.64.0.0/10'],
    ['https://0.0.0.0/', 'unspecified', '0.0.0.0/8'],
    ['https://0.1.2.3/', 'unspecified', '0.0.0.0/8'],
    ['https://224.0.0.1/', 'multicast', '224.0.0.0/4'],
    ['https://239.255.255.250/', 'multicast', '224.0.0.0/4'],
    ['https://240.0.0.1/', 'reserved', '240.0.0.0/4'],
    ['https://255.255.255.255/', 'reserved', '240.0.0.0/4'],
    ['https://192.0.0.8/', 'reserved', '192.0.0.0/24'],
    ['https://192.0.2.10/', 'reserved', '192.0.2.0/24'],
    ['https://198.18.0.1/', 'reserved', '198.18.0.0/15'],
    ['https://198.51.100.7/', 'reserved', '198.51.100.0/24'],
    ['https://203.0.113.5/', 'reserved', '203.0.113.0/24'],
    ['https://[::1]/', 'loopback', '::1/128'],
    ['https://[::]/', 'unspecified', '::/128'],
    ['https://[fc00::1]/', 'private', 'fc00::/7'],
    ['https://[fd00:ec2::254]/latest/meta-data/', 'private', 'fc00::/7'],
    ['https://[fe80::1]/', 'link-local', 'fe80::/10'],
    ['https://[febf:ffff::1]/', 'link-local', 'fe80::/10'],
    ['https://[fec0::1]/', 'private', 'fec0::/10'],
    ['https://[ff02::1]/', 'multicast', 'ff00::/8'],
    ['https://[2001:db8::1]/', 'reserved', '2001:db8::/32'],
    ['https://[2001:0:4136:e378::1]/', 'reserved', '2001::/23'],
    ['https://[100::1]/', 'reserved', '100::/64'],
    ['https://[64:ff9b:1::a]/', 'private', '64:ff9b:1::/48'],
    // IPv6 forms that carry an IPv4 address are judged by that address.
    ['https://[::ffff:127.0.0.1]/', 'loopback', '127.0.0.0/8'],
    ['https://[::ffff:a9fe:a9fe]/', 'link-local', '169.254.0.0/16'],
    ['https://[::ffff:10.0.0.1]/', 'private', '10.0.0.0/8'],
    ['https://[64:ff9b::a9fe:a9fe]/', 'link-local', '169.254.0.0/16'],
    ['https://[2002:7f00:1::1]/', 'loopback', '127.0.0.0/8'],
    // The deprecated IPv4-compatible form and unassigned space are not global unicast.
    ['https://[::7f00:1]/', 'reserved', 'outside 2000::/3'],
    ['https://[4000::1]/', 'reserved', 'outside 2000::/3'],
  ];

  it.each(refused)('refuses %s as %s (%s), naming the reason', (url, kind, block) => {
    const r = strict(url);
    expect(r).toMatchObject({ code: 'webhook/non-public-address' });
    const reason = (r as { reason: string }).reason;
    expect(reason).toContain(block);
    const words: Record<AddressKind, RegExp> = {
      loopback: /loopback/,
      private: /private network/,
      'link-local': /link-local/,
      shared: /carrier-grade NAT/,
      multicast: /multicast/,
      reserved: /reserved/,
      unspecified: /unspecified/,
    };
    expect(reason).toMatch(words[kind]);
    expect(reason).toContain('public internet address');
  });

  it('names the metadata service block when a webhook aims at it', () => {
    expect(strict('https://169.254.169.254/latest/meta-data/iam/security-credentials/')).toEqual({
      code: 'webhook/non-public-address',
      reason:
        'points at 169.254.169.254, a link-local address (169.254.0.0/16: link-local; cloud instance metadata); webhooks must go to a public internet address',
    });
    expect((strict('https://[::ffff:169.254.169.254]/') as { reason: string }).reason).toContain('carries the IPv4 address 169.254.169.254');
  });

  // Spellings the WHATWG URL parser (the one the transport uses) turns into 127.0.0.1 or
  // 169.254.169.254: the policy judges what would actually be connected to.
  const odd: [string, string][] = [
    ['https://2130706433/', '127.0.0.1'],
    ['https://0x7f000001/', '127.0.0.1'],
    ['https://0x7f.1/', '127.0.0.1'],
    ['https://0177.0.0.1/', '127.0.0.1'],
    ['https://017700000001/', '127.0.0.1'],
    ['https://127.1/', '127.0.0.1'],
    ['https://127.0.0.1./', '127.0.0.1'],
    ['https://%31%32%37.0.0.1/', '127.0.0.1'],
    ['https://127%2e0%2e0%2e1/', '127.0.0.1'],
    ['https://\u2460\u2461\u2466.0.0.1/', '127.0.0.1'],
    ['https://127\u30020\u30020\u30021/', '127.0.0.1'],
    ['https://0/', '0.0.0.0'],
    ['https://2852039166/', '169.254.169.254'],
    ['https://0xa9.0xfe.0xa9.0xfe/', '169.254.169.254'],
    ['https://0251.0376.0251.0376/', '169.254.169.254'],
    ['https://169.254.43518/', '169.254.169.254'],
    ['https://[0:0:0:0:0:ffff:7f00:1]/', '::ffff:7f00:1'],
    ['https://[0000:0000:0000:0000:0000:0000:0000:0001]/', '::1'],
  ];

  it.each(odd)('catches the odd spelling %s (it means %s)', (url, canonical) => {
    const r = strict(url);
    expect(r).toMatchObject({ code: 'webhook/non-public-address' });
    expect((r as { reason: string }).reason).toContain(`points at ${canonical}`);
  });

  it.each([
    ['https://localhost/hook', 'this machine'],
    ['https://LOCALHOST./hook', 'this machine'],
    ['https://api.localhost/', 'this machine'],
    ['https://localhost.localdomain/', '.localdomain'],
    ['https://printer.local/', '.local name'],
    ['https://ip-10-0-0-1.ec2.internal/', '.internal name'],
    ['https://metadata.google.internal/computeMetadata/v1/', '.internal name'],
    ['https://router.home.arpa/', '.arpa name'],
    ['https://1.0.0.127.in-addr.arpa/', '.arpa name'],
    ['https://metadata/', 'single-label'],
    ['https://intranet./', 'single-label'],
  ])('refuses the host name in %s (%s)', (url, why) => {
    const r = strict(url);
    expect(r).toMatchObject({ code: 'webhook/local-host-name' });
    expect((r as { reason: string }).reason).toContain(why);
  });

  it('wants https without credentials', () => {
    expect(strict('http://example.org/hook')).toEqual({ code: 'webhook/scheme-not-allowed', reason: 'must use https' });
    expect(strict('http://169.254.169.254/')).toEqual({ code: 'webhook/scheme-not-allowed', reason: 'must use https' });
    expect(strict('ftp://example.org/')).toMatchObject({ code: 'webhook/scheme-not-allowed' });
    expect(strict('file:///etc/passwd')).toMatchObject({ code: 'webhook/scheme-not-allowed' });
    expect(strict('javascript:alert(1)')).toMatchObject({ code: 'webhook/scheme-not-allowed' });
    expect(strict('https://user:pass@example.org/hook')).toEqual({ code: 'webhook/credentials-in-url', reason: 'must not contain a user name or password' });
    expect(strict('https://user@example.org/hook')).toMatchObject({ code: 'webhook/credentials-in-url' });
    expect(strict('https://:pass@example.org/hook')).toMatchObject({ code: 'webhook/credentials-in-url' });
    expect(strict('not a url')).toEqual({ code: 'webhook/not-a-url', reason: 'is not a URL' });
    expect(strict('https://1.2.3.4.5/')).toMatchObject({ code: 'webhook/not-a-url' });
  });

  it.each([
    'https://example.org/hook',
    'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX',
    'https://discord.com/api/webhooks/123456789012345678/token',
    'https://example.org:1/hook',
    'https://example.org:65535/hook',
    'https://93.184.216.34/hook',
    'https://8.8.8.8:8443/x',
    'https://172.32.0.1/',
    'https://172.15.255.255/',
    'https://100.128.0.1/',
    'https://100.63.255.255/',
    'https://169.255.0.1/',
    'https://11.0.0.1/',
    'https://223.255.255.255/',
    'https://[2606:4700:4700::1111]/',
    'https://[2a00:1450:4001:81d::200e]/',
    'https://[::ffff:8.8.8.8]/',
    'https://[64:ff9b::808:808]/',
    'https://[2002:808:808::1]/',
    'https://example.org/path?query=1#frag',
  ])('allows the public %s (any port)', (url) => {
    expect(strict(url)).toBe('allowed');
  });
});

describe('webhook address policy (local runtime: allowPrivate)', () => {
  it('lets plain http reach receivers on this machine and private networks', () => {
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost:3000/hook', 'https://[::1]:8443/', 'http://192.168.1.20/hook', 'http://printer.local/'])
      expect(local(url)).toBe('allowed');
  });

  it('still refuses other schemes and credentials', () => {
    expect(local('ftp://127.0.0.1/')).toBe('webhook/scheme-not-allowed');
    expect(local('http://u:p@127.0.0.1/')).toBe('webhook/credentials-in-url');
    expect(local('nope')).toBe('webhook/not-a-url');
  });

  it('is never the default', () => {
    expect(checkWebhookUrl('http://127.0.0.1:9/x').ok).toBe(false);
    expect(checkResolved('hooks.example.org', ['127.0.0.1'])).toBeDefined();
  });
});

describe('resolved addresses (as node:dns prints them)', () => {
  it('classifies the forms getaddrinfo returns, zones and dotted mapped addresses included', () => {
    expect(classifyAddress('::ffff:127.0.0.1')).toMatchObject({ kind: 'loopback', embedded: '127.0.0.1' });
    expect(classifyAddress('fe80::1%eth0')).toMatchObject({ kind: 'link-local' });
    expect(classifyAddress('fd00:ec2::254')).toMatchObject({ kind: 'private' });
    expect(classifyAddress('93.184.216.34')).toBeUndefined();
    expect(classifyAddress('2606:4700:4700::1111')).toBeUndefined();
    // Anything that is not an address is refused, not waved through.
    expect(classifyAddress('example.org')).toMatchObject({ kind: 'reserved', range: 'not an IP address' });
  });

  it('parses only canonical addresses', () => {
    expect(parseIp('1.2.3.4')).toEqual({ version: 4, value: 0x01020304 });
    expect(parseIp('::ffff:1.2.3.4')).toEqual({ version: 6, value: 0xffff01020304n });
    expect(parseIp('1:2:3:4:5:6:7:8')).toEqual({ version: 6, value: 0x00010002000300040005000600070008n });
    for (const bad of ['01.2.3.4', '1.2.3', '256.1.1.1', '1::2::3', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7', '::1.2.3.4:5', 'g::1', ''])
      expect(parseIp(bad)).toBeUndefined();
  });

  it('refuses a name when any one of its addresses is not public, and a name with none', () => {
    expect(checkResolved('hooks.example.org', ['93.184.216.34', '2606:2800:220:1::1'])).toBeUndefined();
    expect(checkResolved('hooks.example.org', ['93.184.216.34', '10.0.0.5'])).toEqual({
      code: 'webhook/resolves-to-non-public-address',
      reason:
        'has a host, hooks.example.org, that resolves to 10.0.0.5, a private network address (10.0.0.0/8: private use); webhooks must go to a public internet address',
    });
    expect(checkResolved('rebind.example.org', ['::ffff:169.254.169.254'])?.reason).toContain('169.254.0.0/16');
    expect(checkResolved('empty.example.org', [])).toMatchObject({ code: 'webhook/resolves-to-non-public-address' });
    expect(checkResolved('hooks.example.org', ['10.0.0.5'], LOCAL_WEBHOOKS)).toBeUndefined();
  });
});
