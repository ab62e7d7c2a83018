import type { NotifyJob } from './decide.js';
import { amzDate, credentialsFromEnv, signRequest, type AwsCredentials } from './sigv4.js';

/** Where the projector puts notification jobs: SQS in AWS, an in-process queue locally. */
export interface NotifyQueue {
  enqueue(jobs: readonly NotifyJob[], delaySeconds?: number): Promise<void>;
}

/** SQS limits: 10 messages per batch, at most 900 s of delay. */
export const SQS_MAX_DELAY_SECONDS = 900;

/**
 * SQS SendMessageBatch over the JSON protocol, signed with SigV4 (see sigv4.ts for why
 * not the SDK client). Throws if any entry failed, so the stream record is retried.
 */
export class SqsNotifyQueue implements NotifyQueue {
  constructor(
    private readonly queueUrl: string,
    private readonly region: string,
    private readonly credentials: () => AwsCredentials,
    private readonly now: () => Date = () => new Date(),
    /** The SQS endpoint; the regional one unless a test points it elsewhere. */
    private readonly endpoint = `https://sqs.${region}.amazonaws.com/`,
  ) {}

  static fromEnv(env: Readonly<Record<string, string | undefined>>): SqsNotifyQueue {
    const url = env['NOTIFY_QUEUE_URL'];
    if (!url) throw new Error('NOTIFY_QUEUE_URL is not set');
    const region = env['AWS_REGION'] ?? /sqs\.([a-z0-9-]+)\./.exec(url)?.[1];
    if (!region) throw new Error('AWS_REGION is not set');
    return new SqsNotifyQueue(url, region, () => credentialsFromEnv(env));
  }

  async enqueue(jobs: readonly NotifyJob[], delaySeconds = 0): Promise<void> {
    for (let i = 0; i < jobs.length; i += 10) {
      const batch = jobs.slice(i, i + 10);
      const body = JSON.stringify({
        QueueUrl: this.queueUrl,
        Entries: batch.map((job, j) => ({ Id: `m${j}`, MessageBody: JSON.stringify(job), DelaySeconds: Math.min(SQS_MAX_DELAY_SECONDS, Math.max(0, Math.round(delaySeconds))) })),
      });
      const endpoint = this.endpoint;
      const headers = signRequest({
        method: 'POST',
        url: endpoint,
        headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AmazonSQS.SendMessageBatch' },
        body,
        region: this.region,
        service: 'sqs',
        credentials: this.credentials(),
        amzDate: amzDate(this.now()),
      });
      const { host: _host, ...sendHeaders } = headers;
      const r = await fetch(endpoint, { method: 'POST', headers: sendHeaders, body, signal: AbortSignal.timeout(10_000) });
      const text = await r.text();
      if (!r.ok) throw new Error(`SQS SendMessageBatch failed (${r.status}): ${text.slice(0, 300)}`);
      const parsed = JSON.parse(text) as { Failed?: { Id: string; Message?: string }[] };
      if (parsed.Failed?.length) throw new Error(`SQS refused ${parsed.Failed.length} message(s): ${parsed.Failed.map((f) => f.Message ?? f.Id).join('; ')}`);
    }
  }
}

/**
 * The local stand-in for SQS: jobs run in this process after their delay (scaled, so tests
 * can make a 30 s backoff take 30 ms). `idle()` resolves once nothing is queued or running.
 */
export class InProcessQueue implements NotifyQueue {
  private pending = 0;
  private waiters: (() => void)[] = [];
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly run: (job: NotifyJob) => Promise<void>,
    private readonly opts: { delayScaleMs?: number; onError?: (e: unknown, job: NotifyJob) => void } = {},
  ) {}

  async enqueue(jobs: readonly NotifyJob[], delaySeconds = 0): Promise<void> {
    for (const job of jobs) {
      this.pending++;
      const t = setTimeout(() => {
        this.timers.delete(t);
        if (this.stopped) return this.done();
        this.run(job)
          .catch((e) => (this.opts.onError ?? ((err) => console.error('[notify] job failed', err)))(e, job))
          .finally(() => this.done());
      }, delaySeconds * (this.opts.delayScaleMs ?? 1000));
      this.timers.add(t);
    }
  }

  private done(): void {
    this.pending--;
    if (this.pending === 0) for (const w of this.waiters.splice(0)) w();
  }

  idle(): Promise<void> {
    return this.pending === 0 ? Promise.resolve() : new Promise((r) => this.waiters.push(r));
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.pending -= this.timers.size;
    this.timers.clear();
    if (this.pending <= 0) for (const w of this.waiters.splice(0)) w();
  }
}
