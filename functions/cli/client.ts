import { randomUUID } from 'node:crypto';

/** An error the API answered with ({code, message, rule?}), or a network failure (status 0). */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly rule?: string,
    /** A 503's or 429's Retry-After: seconds the server asks the client to wait. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export interface ClientOptions {
  readonly url: string;
  readonly token?: string;
  /** Attempts for a request that carries a commandId (network failures and 5xx are retried). */
  readonly attempts?: number;
  readonly retryDelayMs?: number;
  readonly fetch?: typeof fetch;
}

export const newCommandId = (): string => `cli-${randomUUID()}`;

/** A thin fetch wrapper: JSON in and out, bearer token, and safe retries for commands. */
export class ApiClient {
  constructor(private readonly opts: ClientOptions) {}

  get url(): string {
    return this.opts.url;
  }

  private async once(method: string, path: string, body: unknown): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.opts.token) headers['authorization'] = `Bearer ${this.opts.token}`;
    let res: Response;
    try {
      res = await (this.opts.fetch ?? fetch)(`${this.opts.url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new ApiError(
        0,
        'network/unreachable',
        `Cannot reach ${this.opts.url} (${cause?.code ?? cause?.message ?? (e as Error).message}). Is the server running (npm start)?`,
      );
    }
    const text = await res.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (!res.ok) {
      const p = (parsed ?? {}) as { code?: string; message?: string; rule?: string };
      const after = Number(res.headers.get('retry-after') ?? NaN);
      throw new ApiError(
        res.status,
        p.code ?? `http/${res.status}`,
        p.message ?? (typeof parsed === 'string' ? parsed : res.statusText),
        p.rule,
        Number.isFinite(after) && after >= 0 ? after : undefined,
      );
    }
    return parsed;
  }

  /** GETs are safe to repeat; a body with a commandId is repeated with the SAME commandId. */
  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const idempotent = method === 'GET' || (typeof body === 'object' && body !== null && 'commandId' in body);
    const attempts = idempotent ? (this.opts.attempts ?? 4) : 1;
    let last: unknown;
    for (let i = 0; i < attempts; i++) {
      try {
        return (await this.once(method, path, body)) as T;
      } catch (e) {
        last = e;
        const retryable = e instanceof ApiError && (e.status === 0 || e.status >= 500);
        if (!retryable || i === attempts - 1) throw e;
        // A 503 (the store busy after the server's own retries) says how long to wait: at most half a minute.
        const asked = e.retryAfterSeconds !== undefined ? Math.min(30, e.retryAfterSeconds) * 1000 : 0;
        await new Promise((r) => setTimeout(r, Math.max(asked, (this.opts.retryDelayMs ?? 250) * 2 ** i)));
      }
    }
    throw last;
  }
}
