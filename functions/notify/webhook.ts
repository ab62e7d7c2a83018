import type { LookupAddress } from 'node:dns';
import type { Refusal } from './address-policy.js';
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
