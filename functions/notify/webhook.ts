import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkResolved, checkWebhookUrl, STRICT_WEBHOOKS, type Refusal, type WebhookPolicy } from './address-policy.js';
import { ID_HEADER, SIGNATURE_HEADER, signatureHeader, TIMESTAMP_HEADER } from './signature.js';

/** The HTTP side of a webhook, behind a port so tests and local runs can swap it. */
export interface WebhookTransport {
  /** Resolves with the receiver's status; throws WebhookRefused when the policy forbids the target. */
  post(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<{ status: number }>;
}

/** The target is not allowed (address policy): final, retrying would not change it soon. */
export class WebhookRefused extends Error {
  override name = 'WebhookRefused';
  constructor(readonly refusal: Refusal) {
    super(`webhook URL ${refusal.reason}`);
  }
}

/** Resolves a host name to every address it has (node:dns lookup, all: true). */
export type Resolver = (host: string) => Promise<readonly LookupAddress[]>;

export const systemResolver: Resolver = (host) =>
  new Promise((ok, fail) => dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? fail(err) : ok(addresses))));

/**
 * The `lookup` a webhook socket connects with. DNS-rebinding trade-off: checking a name and
 * then letting the HTTP client resolve it again leaves a window in which a rebinding DNS
 * server answers a public address to the check and 127.0.0.1 to the connect. So the check
 * happens here, inside the connect: the name is resolved once, every address it has must
 * be public (one private address refuses the whole name), and the socket is handed exactly
 * the addresses that were checked. TLS still verifies the certificate against the host name,
 * so pinning weakens nothing. The cost: no connection reuse (each delivery resolves and
 * connects afresh), which at one POST per notice is nothing.
 */
export function guardedLookup(policy: WebhookPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        const refusal = checkResolved(
          hostname,
          all.map((a) => a.address),
          policy,
        );
        if (refusal) return callback(new WebhookRefused(refusal), []);
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
        const usable = family === 0 ? all : all.filter((a) => a.family === family);
        const first = usable[0];
        if (!first) return callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), []);
        // Happy eyeballs (net's autoSelectFamily) asks for all addresses, plain connects for one.
        if (options.all)
          callback(
            null,
            usable.map((a) => ({ ...a })),
          );
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}

/**
 * Posts with node:http(s), enforcing the address policy twice: on the URL (scheme,
 * credentials, IP literals, local names; sockets never look up an IP literal) and, for
 * names, on what they resolve to (guardedLookup). No redirects are followed, so a receiver
 * cannot bounce a signed request somewhere else (or somewhere private).
 */
export function webhookTransport(opts: { timeoutMs?: number; policy?: WebhookPolicy; resolve?: Resolver } = {}): WebhookTransport {
  const policy = opts.policy ?? STRICT_WEBHOOKS;
  const timeoutMs = opts.timeoutMs ?? 5000;
  const lookup = guardedLookup(policy, opts.resolve);
  return {
    post(url, headers, body) {
      const verdict = checkWebhookUrl(url, policy);
      if (!verdict.ok) return Promise.reject(new WebhookRefused(verdict));
      const request = verdict.url.protocol === 'https:' ? httpsRequest : httpRequest;
      const signal = AbortSignal.timeout(timeoutMs);
      return new Promise((resolve, reject) => {
        // agent: false: a fresh, freshly checked connection per delivery (and no kept-alive
        // socket going stale while a Lambda is frozen).
        const req = request(
          verdict.url,
          { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false, lookup, signal },
          (res) => {
            resolve({ status: res.statusCode ?? 0 });
            res.destroy();
          },
        );
        req.on('error', (e) => {
          if (e instanceof WebhookRefused || !signal.aborted) return reject(e);
          reject(Object.assign(new Error('timed out'), { name: 'TimeoutError' }));
        });
        req.end(body);
      });
    },
  };
}

export interface SignedRequest {
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * Serialises and signs a payload (Standard Webhooks, see signature.ts): the exact bytes sent are
 * the bytes signed, once per secret in `secrets` (the current one, and the previous one while a
 * rotation lasts). The event type is in the body (`type`), as the specification advises.
 */
export function signedRequest(payload: unknown, opts: { secrets: readonly string[]; deliveryId: string; nowSeconds: number }): SignedRequest {
  const body = JSON.stringify(payload);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Fieldpost-Webhooks/1',
      [ID_HEADER]: opts.deliveryId,
      [TIMESTAMP_HEADER]: String(opts.nowSeconds),
      [SIGNATURE_HEADER]: signatureHeader(opts.secrets, opts.deliveryId, opts.nowSeconds, body),
    },
  };
}

/** Chat webhook URLs carry their token in the path: show the host and short segments only. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname
      .split('/')
      .map((seg) => (seg.length > 12 ? `${seg.slice(0, 4)}…` : seg))
      .join('/');
    return `${u.origin}${path}${u.search ? '?…' : ''}`;
  } catch {
    return '(invalid URL)';
  }
}
