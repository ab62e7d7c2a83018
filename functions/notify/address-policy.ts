/**
 * Where a webhook may point (server-side request forgery guard).
 *
 * A webhook URL is chosen by a player, and the notifier POSTs to it from inside our cloud
 * account. Left unchecked, a player could aim it at the instance metadata service
 * (169.254.169.254, fd00:ec2::254), the Lambda runtime API on 127.0.0.1, or anything else
 * only reachable from the inside. So, when deployed, a webhook must be an https URL without
 * credentials whose host is a public name or a public address, and every address that name
 * resolves to must be public too (checked again at delivery, see webhook.ts).
 *
 * Pure: no I/O. The URL is parsed by the WHATWG parser (the one the transport uses as well),
 * which already turns odd spellings into canonical ones: 2130706433, 0x7f.1, 0177.0.0.1 and
 * 127.1 all become 127.0.0.1, and [::ffff:127.0.0.1] becomes [::ffff:7f00:1]; this module
 * then judges the canonical host.
 *
 * Local runs (npm start, the tests) post to receivers on 127.0.0.1 over plain http: that is
 * the `allowPrivate` policy, which only the local runtime turns on. Everything defaults to
 * strict.
 */

export interface WebhookPolicy {
  /** Local runtime only: plain http, and any host or address (receivers on 127.0.0.1). */
  readonly allowPrivate: boolean;
}

export const STRICT_WEBHOOKS: WebhookPolicy = { allowPrivate: false };
export const LOCAL_WEBHOOKS: WebhookPolicy = { allowPrivate: true };

export type RefusalCode =
  | 'webhook/not-a-url'
  | 'webhook/scheme-not-allowed'
  | 'webhook/credentials-in-url'
  | 'webhook/local-host-name'
  | 'webhook/non-public-address'
  | 'webhook/resolves-to-non-public-address';

/** Why a webhook may not go where it points: a code and a phrase that completes "the url …". */
export interface Refusal {
  readonly code: RefusalCode;
  readonly reason: string;
}

export type AddressKind = 'unspecified' | 'loopback' | 'private' | 'link-local' | 'shared' | 'multicast' | 'reserved';

/** What a non-public address is, and the block it falls in. */
export interface AddressClass {
  readonly kind: AddressKind;
  /** The block, with what it is for: '169.254.0.0/16: link-local; cloud instance metadata'. */
  readonly range: string;
  /** For IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4): that address. */
  readonly embedded?: string;
}

const KIND_WORDS: Record<AddressKind, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private network address',
  'link-local': 'a link-local address',
  shared: 'a carrier-grade NAT (shared) address',
  multicast: 'a multicast address',
  reserved: 'a reserved address that is not on the public internet',
};

// ---------------------------------------------------------------------------------------
// Parsing canonical addresses (as the URL parser and getaddrinfo print them)

export type ParsedIp = { readonly version: 4; readonly value: number } | { readonly version: 6; readonly value: bigint };

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function parseIpv4(s: string): number | undefined {
  const m = IPV4.exec(s);
  if (!m) return undefined;
  let v = 0;
  for (let i = 1; i <= 4; i++) {
    const part = m[i]!;
    // Leading zeros are octal to some parsers and decimal to others: not canonical, refuse.
    if (part.length > 1 && part.startsWith('0')) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    v = v * 256 + n;
  }
  return v;
}

function parseIpv6(input: string): bigint | undefined {
  let s = input;
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  // A zone (fe80::1%eth0) only ever qualifies a link-local address; the address decides.
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(':') || !/^[0-9a-fA-F:.]+$/.test(s)) return undefined;
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i]!;
      if (i === pieces.length - 1 && p.includes('.')) {
        const v4 = parseIpv4(p);
        if (v4 === undefined) return undefined;
        out.push(Math.floor(v4 / 65536), v4 % 65536);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(p)) return undefined;
        out.push(parseInt(p, 16));
      }
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  // A dotted IPv4 tail may only end the address.
  if (halves.length === 2 && halves[0]!.includes('.')) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return all.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

/** An IPv4 (dotted quad) or IPv6 address (brackets and a zone allowed), or undefined. */
export function parseIp(s: string): ParsedIp | undefined {
  const v4 = parseIpv4(s);
  if (v4 !== undefined) return { version: 4, value: v4 };
  const v6 = parseIpv6(s);
  return v6 === undefined ? undefined : { version: 6, value: v6 };
}

const formatIpv4 = (v: number) => [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join('.');

// ---------------------------------------------------------------------------------------
// The blocks (IANA special-purpose address registries, RFC 6890 and successors)

type V4Block = readonly [base: string, prefix: number, kind: AddressKind, what: string];

const V4_BLOCKS: readonly V4Block[] = [
  ['0.0.0.0', 8, 'unspecified', '"this network"'],
  ['10.0.0.0', 8, 'private', 'private use'],
  ['100.64.0.0', 10, 'shared', 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback', 'loopback'],
  ['169.254.0.0', 16, 'link-local', 'link-local; cloud instance metadata'],
  ['172.16.0.0', 12, 'private', 'private use'],
  ['192.0.0.0', 24, 'reserved', 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'reserved', 'documentation'],
  ['192.88.99.0', 24, 'reserved', '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private', 'private use'],
  ['198.18.0.0', 15, 'reserved', 'benchmarking'],
  ['198.51.100.0', 24, 'reserved', 'documentation'],
  ['203.0.113.0', 24, 'reserved', 'documentation'],
  ['224.0.0.0', 4, 'multicast', 'multicast'],
  ['240.0.0.0', 4, 'reserved', 'future use and broadcast'],
];

/** 'embeds-ipv4' blocks carry an IPv4 address, `shift` bits up from the bottom. */
type V6Block = readonly [base: string, prefix: number, kind: AddressKind | 'embeds-ipv4', what: string, shift?: number];

// First match wins: the specific blocks before the catch-all for non-global space.
const V6_BLOCKS: readonly V6Block[] = [
  ['::', 128, 'unspecified', 'unspecified'],
  ['::1', 128, 'loopback', 'loopback'],
  ['::ffff:0:0', 96, 'embeds-ipv4', 'IPv4-mapped'],
  ['64:ff9b::', 96, 'embeds-ipv4', 'NAT64'],
  ['64:ff9b:1::', 48, 'private', 'local-use NAT64'],
  ['100::', 64, 'reserved', 'discard-only'],
  ['2001:db8::', 32, 'reserved', 'documentation'],
  ['2001::', 23, 'reserved', 'IETF protocol assignments, Teredo'],
  ['2002::', 16, 'embeds-ipv4', '6to4', 80],
  ['3fff::', 20, 'reserved', 'documentation'],
  ['fc00::', 7, 'private', 'unique local; includes the IPv6 instance metadata address'],
  ['fe80::', 10, 'link-local', 'link-local'],
  ['fec0::', 10, 'private', 'site-local'],
  ['ff00::', 8, 'multicast', 'multicast'],
];

const inV4 = (v: number, base: number, prefix: number) => prefix === 0 || v >>> (32 - prefix) === base >>> (32 - prefix);
const inV6 = (v: bigint, base: bigint, prefix: number) => v >> BigInt(128 - prefix) === base >> BigInt(128 - prefix);

const V4_COMPILED = V4_BLOCKS.map(([base, prefix, kind, what]) => ({ base: parseIpv4(base)!, prefix, kind, range: `${base}/${prefix}: ${what}` }));
const V6_COMPILED = V6_BLOCKS.map(([base, prefix, kind, what, shift]) => ({
  base: parseIpv6(base)!,
  prefix,
  kind,
  range: `${base}/${prefix}: ${what}`,
  shift: BigInt(shift ?? 0),
}));
const GLOBAL_UNICAST = parseIpv6('2000::')!;

function classifyV4(v: number): AddressClass | undefined {
  const b = V4_COMPILED.find((x) => inV4(v, x.base, x.prefix));
  return b ? { kind: b.kind, range: b.range } : undefined;
}

function classifyV6(v: bigint): AddressClass | undefined {
  const b = V6_COMPILED.find((x) => inV6(v, x.base, x.prefix));
  if (b && b.kind === 'embeds-ipv4') {
    // Mapped and NAT64 carry the IPv4 address in the low 32 bits, 6to4 right after 2002:.
    const v4 = Number((v >> b.shift) & 0xffffffffn);
    const inner = classifyV4(v4);
    return inner ? { ...inner, range: `${inner.range}; carried in ${b.range}`, embedded: formatIpv4(v4) } : undefined;
  }
  if (b) return { kind: b.kind as AddressKind, range: b.range };
  // Only 2000::/3 is global unicast; the rest is reserved (including the deprecated
  // IPv4-compatible ::a.b.c.d form).
  if (!inV6(v, GLOBAL_UNICAST, 3)) return { kind: 'reserved', range: 'outside 2000::/3, the global unicast space' };
  return undefined;
}

/**
 * Whether an address may receive a webhook: undefined when it is a public address, else what
 * it is. Throws nothing; a string that is not an address is 'reserved' (refused).
 */
export function classifyAddress(ip: string | ParsedIp): AddressClass | undefined {
  const p = typeof ip === 'string' ? parseIp(ip) : ip;
  if (!p) return { kind: 'reserved', range: 'not an IP address' };
  return p.version === 4 ? classifyV4(p.value) : classifyV6(p.value);
}

/** "127.0.0.1, a loopback address (127.0.0.0/8: loopback)" */
export function describeAddress(ip: string, c: AddressClass): string {
  const shown = c.embedded ? `${ip} (which carries the IPv4 address ${c.embedded})` : ip;
  return `${shown}, ${KIND_WORDS[c.kind]} (${c.range})`;
}

// ---------------------------------------------------------------------------------------
// Host names that never mean a public server

/**
 * localhost and *.localhost are this machine (RFC 6761); .local is multicast DNS (RFC 6762);
 * .home.arpa (RFC 8375) and .internal (ICANN, 2024) are private by design, and .internal is
 * also what cloud VPC DNS answers for (ip-10-0-0-1.ec2.internal); localdomain is the usual
 * /etc/hosts alias of localhost; .arpa names are reverse-lookup zones, not web hosts.
 */
const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'localdomain', 'arpa'] as const;

function hostNameProblem(host: string): string | undefined {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  const labels = name.split('.');
  const last = labels[labels.length - 1] ?? '';
  const suffix = LOCAL_SUFFIXES.find((s) => last === s);
  if (suffix === 'localhost') return `names ${host}, which means this machine`;
  if (suffix) return `names ${host}, a .${suffix} name that is not on the public internet`;
  // A single label ("metadata", "intranet") is completed by local search domains.
  if (labels.length < 2) return `names ${host}, a single-label host name that only local networks resolve`;
  // The URL parser turns every numeric spelling it recognises into a dotted quad; a name
  // whose last label is still a number (or 0x…) is one it did not, so nobody may guess
  // what another resolver makes of it.
  if (/^(\d+|0x[0-9a-f]*)$/i.test(last)) return `names ${host}, which looks like a malformed IP address`;
  return undefined;
}

// ---------------------------------------------------------------------------------------
// The policy

export type UrlVerdict = { readonly ok: true; readonly url: URL; readonly ip?: ParsedIp } | ({ readonly ok: false } & Refusal);

const refuse = (code: RefusalCode, reason: string): UrlVerdict => ({ ok: false, code, reason });

/**
 * Judges a webhook URL without any network access (settings are checked with this when
 * saved, and the notifier checks again before each delivery). In strict mode a host name
 * that passes here must still resolve only to public addresses (checkResolved, at delivery).
 */
export function checkWebhookUrl(raw: string, policy: WebhookPolicy = STRICT_WEBHOOKS): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('webhook/not-a-url', 'is not a URL');
  }
  if (policy.allowPrivate) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('webhook/scheme-not-allowed', 'must use http or https');
  } else if (url.protocol !== 'https:') {
    return refuse('webhook/scheme-not-allowed', 'must use https');
  }
  // Credentials would travel to the receiver (and into logs); receivers check signatures.
  if (url.username || url.password) return refuse('webhook/credentials-in-url', 'must not contain a user name or password');
  const host = url.hostname;
  const ip = parseIp(host);
  if (policy.allowPrivate) return { ok: true, url, ...(ip ? { ip } : {}) };
  if (ip) {
    const c = classifyAddress(ip);
    if (c)
      return refuse(
        'webhook/non-public-address',
        `points at ${describeAddress(host.replace(/^\[|\]$/g, ''), c)}; webhooks must go to a public internet address`,
      );
    return { ok: true, url, ip };
  }
  const nameProblem = hostNameProblem(host);
  if (nameProblem) return refuse('webhook/local-host-name', `${nameProblem}; webhooks must go to a public internet address`);
  return { ok: true, url };
}

/**
 * Judges what a host name resolved to. Every address must be public: a name that mixes a
 * public and a private address is refused rather than filtered, so a delivery never depends
 * on which address happens to be tried first, and the owner is told what is wrong.
 */
export function checkResolved(host: string, addresses: readonly string[], policy: WebhookPolicy = STRICT_WEBHOOKS): Refusal | undefined {
  if (policy.allowPrivate) return undefined;
  if (addresses.length === 0) return { code: 'webhook/resolves-to-non-public-address', reason: `has a host, ${host}, that resolves to no address` };
  for (const a of addresses) {
    const c = classifyAddress(a);
    if (c)
      return {
        code: 'webhook/resolves-to-non-public-address',
        reason: `has a host, ${host}, that resolves to ${describeAddress(a, c)}; webhooks must go to a public internet address`,
      };
  }
  return undefined;
}
