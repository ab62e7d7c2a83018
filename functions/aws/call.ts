import { signedHeaders, type AwsCredentials } from './sigv4.js';

/**
 * One signed HTTPS call to an AWS service, for the Lambda bundles (issue 16): the AWS SDK v3
 * clients took over 100 ms (up to 300 ms on the bench machine) to import at every cold start,
 * more than everything else a handler loads. Each bundle swaps the few SDK classes it uses for the small ones in functions/aws/
 * (infra/handler-function.ts BUNDLE.alias); tests, the local runtime and the CLI keep the SDK.
 *
 * What it keeps from the SDK: credentials and region from the Lambda environment, errors named
 * as the service names them (ConditionalCheckFailedException, TransactionCanceledException with
 * its reasons, ProvisionedThroughputExceededException…), and the SDK's standard retry of
 * throttling, 5xx and dropped connections (3 attempts, jittered exponential backoff).
 */

export interface AwsClientConfig {
  readonly region?: string;
  /** Another endpoint (DynamoDB Local): scheme, host and port. */
  readonly endpoint?: string;
  readonly credentials?: AwsCredentials;
  /** Attempts per call, the SDK's `maxAttempts` (default 3). */
  readonly maxAttempts?: number;
}

export interface AwsRequest {
  /** Signing name and default host prefix, e.g. 'dynamodb'. */
  readonly service: string;
  /** Host prefix when it differs from the signing name ('streams.dynamodb'). */
  readonly hostPrefix?: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
}

export interface AwsResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Uint8Array;
}

/** An error the service answered with; `name` is the service's own error code. */
export class AwsServiceError extends Error {
  readonly $fault: 'client' | 'server';
  readonly $metadata: { readonly httpStatusCode: number; readonly requestId?: string | undefined; readonly attempts: number };

  constructor(name: string, message: string, status: number, requestId: string | undefined, attempts: number, fields: Readonly<Record<string, unknown>>) {
    super(message);
    for (const [k, v] of Object.entries(fields))
      if (k !== '__type' && k !== 'message' && k !== 'Message') Object.defineProperty(this, k, { value: v, enumerable: true, writable: true });
    this.name = name;
    this.$fault = status >= 500 ? 'server' : 'client';
    this.$metadata = { httpStatusCode: status, requestId, attempts };
  }
}

/** Throttling codes the SDK's standard retry strategy retries (besides every 5xx). */
const THROTTLING = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'Throttling',
  'ThrottledException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'TransactionInProgressException',
  'SlowDown',
  'BandwidthLimitExceeded',
  'EC2ThrottledException',
]);
const RETRY_BASE_MS = 100;
const RETRY_CAP_MS = 20_000;

function envCredentials(): AwsCredentials {
  const accessKeyId = process.env['AWS_ACCESS_KEY_ID'];
  const secretAccessKey = process.env['AWS_SECRET_ACCESS_KEY'];
  if (!accessKeyId || !secretAccessKey) throw new Error('AWS credentials are not set (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)');
  return { accessKeyId, secretAccessKey, sessionToken: process.env['AWS_SESSION_TOKEN'] };
}

export function regionOf(config: AwsClientConfig): string {
  const region = config.region ?? process.env['AWS_REGION'] ?? process.env['AWS_DEFAULT_REGION'];
  if (!region) throw new Error('AWS region is not set (AWS_REGION)');
  return region;
}

/** The error code of a failed reply: x-amzn-errortype, or the body's __type / code, without namespace or URL. */
function errorName(headers: Headers, fields: Readonly<Record<string, unknown>>): string {
  const raw =
    headers.get('x-amzn-errortype') ??
    (typeof fields['__type'] === 'string' ? fields['__type'] : undefined) ??
    (typeof fields['code'] === 'string' ? fields['code'] : undefined) ??
    'UnknownError';
  return raw.split(':')[0]!.split('#').pop()!;
}

function parseJson(body: Uint8Array): Record<string, unknown> {
  if (body.byteLength === 0) return {};
  try {
    const v: unknown = JSON.parse(new TextDecoder().decode(body));
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const TRANSIENT_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);
const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

/** The SDK's standard retry decision: throttling, a 5xx, a timeout or a dropped connection. */
function retryable(e: unknown): boolean {
  const err = e as { name?: unknown; code?: unknown; $fault?: unknown; $retryable?: unknown; $metadata?: { httpStatusCode?: unknown } };
  const status = err.$metadata?.httpStatusCode;
  return (
    (typeof err.name === 'string' && (THROTTLING.has(err.name) || TRANSIENT_NAMES.has(err.name))) ||
    (typeof err.code === 'string' && TRANSIENT_CODES.has(err.code)) ||
    status === 429 ||
    status === 500 ||
    status === 502 ||
    status === 503 ||
    status === 504 ||
    err.$fault === 'server' ||
    err.$retryable !== undefined
  );
}

export type ErrorFactory = (
  name: string,
  message: string,
  status: number,
  requestId: string | undefined,
  attempts: number,
  fields: Record<string, unknown>,
) => Error;

/**
 * Sends the request, signed, and returns a 2xx reply; throws an AwsServiceError (or the network
 * error, with its `code`) otherwise, after the retries. `toError` lets a client make its own
 * error class from the reply (DynamoDB's TransactionCanceledException); `eachAttempt` wraps
 * every attempt (the document client's per-attempt middleware, as the SDK's deserialize step).
 */
export async function awsCall(
  config: AwsClientConfig,
  req: AwsRequest,
  toError: ErrorFactory = (...a) => new AwsServiceError(...a),
  eachAttempt: (send: () => Promise<AwsResponse>) => Promise<AwsResponse> = (send) => send(),
): Promise<AwsResponse> {
  const region = regionOf(config);
  const base = config.endpoint ?? `https://${req.hostPrefix ?? req.service}.${region}.amazonaws.com`;
  const url = new URL(req.path, base);
  const maxAttempts = Math.max(1, config.maxAttempts ?? 3);
  for (let attempt = 1; ; attempt++) {
    const send = async (): Promise<AwsResponse> => {
      const headers = signedHeaders({
        method: req.method,
        url,
        headers: req.headers,
        body: req.body,
        service: req.service,
        region,
        credentials: config.credentials ?? envCredentials(),
        now: new Date(),
      });
      delete headers['host'];
      let res: Response;
      try {
        res = await fetch(url, { method: req.method, headers, body: req.method === 'GET' ? undefined : req.body });
      } catch (e) {
        // No reply: a refused, reset or timed-out connection; its code as the SDK gives it.
        const code = (e as { cause?: { code?: unknown } }).cause?.code;
        if (typeof code === 'string') Object.defineProperty(e, 'code', { value: code, enumerable: true });
        throw e;
      }
      const body = new Uint8Array(await res.arrayBuffer());
      if (res.ok) return { status: res.status, headers: res.headers, body };
      const fields = parseJson(body);
      const name = errorName(res.headers, fields);
      const message = String(fields['message'] ?? fields['Message'] ?? `${name} (HTTP ${res.status})`);
      throw toError(name, message, res.status, res.headers.get('x-amzn-requestid') ?? undefined, attempt, fields);
    };
    try {
      return await eachAttempt(send);
    } catch (e) {
      if (attempt >= maxAttempts || !retryable(e)) throw e;
    }
    await sleep(Math.random() * Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** attempt));
  }
}

/** An AWS JSON 1.0 call (DynamoDB, DynamoDB Streams, SQS): POST / with X-Amz-Target; the reply's JSON. */
export async function awsJson10(
  config: AwsClientConfig,
  service: string,
  target: string,
  input: unknown,
  opts: { hostPrefix?: string; toError?: ErrorFactory; eachAttempt?: Parameters<typeof awsCall>[3] } = {},
): Promise<Record<string, unknown>> {
  const res = await awsCall(
    config,
    {
      service,
      ...(opts.hostPrefix ? { hostPrefix: opts.hostPrefix } : {}),
      method: 'POST',
      path: '/',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': target },
      body: JSON.stringify(input),
    },
    opts.toError,
    opts.eachAttempt,
  );
  return parseJson(res.body);
}
