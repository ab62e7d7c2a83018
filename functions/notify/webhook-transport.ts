import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkResolved, checkWebhookUrl, STRICT_WEBHOOKS, type WebhookPolicy } from './address-policy.js';
import { WebhookRefused, type Resolver, type WebhookTransport } from './webhook.js';

/**
 * A webhook's delivery over the network: node:http(s) and node:dns, which the notifier loads with
 * the first webhook it delivers (functions/notify/wiring.ts), not at its cold start: most notices
 * are mails.
 */

/** node:dns lookup of every address a name has, in the order the resolver gives them. */
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
