import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signatureHeader } from './signature.js';

/** The HTTP side of a webhook, behind a port so tests and local runs can swap it. */
export interface WebhookTransport {
  post(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<{ status: number }>;
}

export function fetchTransport(timeoutMs = 5000): WebhookTransport {
  return {
    async post(url, headers, body) {
      // No redirects: a receiver cannot bounce a signed request to somewhere else.
      const r = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      await r.body?.cancel().catch(() => undefined);
      return { status: r.status };
    },
  };
}

export interface SignedRequest {
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Serialises and signs a payload: the exact bytes sent are the bytes signed. */
export function signedRequest(payload: unknown, opts: { secret: string; deliveryId: string; kind: string; nowSeconds: number }): SignedRequest {
  const body = JSON.stringify(payload);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Fieldpost-Webhooks/1',
      [SIGNATURE_HEADER]: signatureHeader(opts.secret, opts.nowSeconds, body),
      [DELIVERY_HEADER]: opts.deliveryId,
      [EVENT_HEADER]: `game.${opts.kind}`,
    },
  };
}

/**
 * Where webhooks may point. In AWS only https (which also keeps requests away from the
 * Lambda runtime's plain-http loopback API); locally plain http to any host is fine.
 */
export function webhookUrlProblem(url: string, allowInsecure: boolean): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (u.protocol !== 'https:' && !(allowInsecure && u.protocol === 'http:')) return allowInsecure ? 'must use http or https' : 'must use https';
  if (u.username || u.password) return 'must not contain a user name or password';
  return undefined;
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
