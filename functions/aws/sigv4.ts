import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4 for the few JSON calls the Lambda handlers make (functions/aws/*):
 * the header form, with node:crypto, as the AWS SDK signs them. Tested against the examples
 * AWS publishes (tests/aws/sigv4.test.ts).
 */

export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string | undefined;
}

export interface SignInput {
  readonly method: string;
  readonly url: URL;
  /** Headers to send and sign (host and x-amz-date are added). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
  readonly service: string;
  readonly region: string;
  readonly credentials: AwsCredentials;
  readonly now: Date;
}

const hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
/** RFC 3986 encoding: encodeURIComponent leaves !'()* as they are. */
const escape = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The headers to send: the given ones, host, x-amz-date, the session token if any, and Authorization. */
export function signedHeaders(input: SignInput): Record<string, string> {
  const amzDate = input.now.toISOString().replace(/[-:]|\.\d{3}/g, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(input.headers)) headers[k.toLowerCase()] = v;
  headers['host'] = input.url.host;
  headers['x-amz-date'] = amzDate;
  if (input.credentials.sessionToken) headers['x-amz-security-token'] = input.credentials.sessionToken;

  const names = Object.keys(headers).sort();
  const signed = names.join(';');
  // Every service but S3 signs each path segment encoded once more than it is sent.
  const path = input.url.pathname.split('/').map(escape).join('/') || '/';
  const query = [...input.url.searchParams]
    .map(([k, v]) => [escape(k), escape(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonical = [input.method, path, query, ...names.map((n) => `${n}:${headers[n]!.trim().replace(/\s+/g, ' ')}`), '', signed, hex(input.body)].join('\n');
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${input.credentials.secretAccessKey}`, day), input.region), input.service), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope}, SignedHeaders=${signed}, Signature=${signature}`,
  };
}
