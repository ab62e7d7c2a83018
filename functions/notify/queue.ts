import { AsyncLocalStorage } from 'node:async_hooks';
import { SQSClient, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { NotifyJob } from './decide.js';

/** Where the projector puts notification jobs: SQS in AWS, an in-process queue locally. */
export interface NotifyQueue {
  enqueue(jobs: readonly NotifyJob[], delaySeconds?: number): Promise<void>;
}

/** SQS limits: 10 messages per batch, at most 900 s of delay. */
export const SQS_MAX_DELAY_SECONDS = 900;

/** SQS SendMessageBatch in batches of ten. Throws if any entry failed, so the stream record is retried. */
export class SqsNotifyQueue implements NotifyQueue {
  constructor(
    private readonly queueUrl: string,
    private readonly client: Pick<SQSClient, 'send'>,
  ) {}

  static fromEnv(env: Readonly<Record<string, string | undefined>>): SqsNotifyQueue {
    const url = env['NOTIFY_QUEUE_URL'];
    if (!url) throw new Error('NOTIFY_QUEUE_URL is not set');
    return new SqsNotifyQueue(url, new SQSClient({}));
  }

  async enqueue(jobs: readonly NotifyJob[], delaySeconds = 0): Promise<void> {
    const delay = Math.min(SQS_MAX_DELAY_SECONDS, Math.max(0, Math.round(delaySeconds)));
    for (let i = 0; i < jobs.length; i += 10) {
      const batch = jobs.slice(i, i + 10);
      const r = await this.client.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: batch.map((job, j) => ({ Id: `m${j}`, MessageBody: JSON.stringify(job), DelaySeconds: delay })),
        }),
      );
      if (r.Failed?.length) throw new Error(`SQS refused ${r.Failed.length} message(s): ${r.Failed.map((f) => f.Message ?? f.Id).join('; ')}`);
    }
  }
}

/**
 * The local stand-in for SQS: jobs run in this process after their delay (scaled, so tests
 * can make a 30 s backoff take 30 ms). `idle()` resolves once nothing is queued or running.
 *
 * Unlike SQS it keeps nothing across a crash, so the local stream poller only checkpoints a
 * stream record once every job it led to is finished: `mark()` names the jobs enqueued so far,
 * `finishedThrough(mark)` says whether they, and every job they enqueued in turn (a retry, a
 * re-check after a lease), have finished.
 */
export class InProcessQueue implements NotifyQueue {
  private pending = 0;
  private waiters: (() => void)[] = [];
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private lastOrigin = 0;
  /** Unfinished jobs per origin: the id of the job first enqueued from outside a job. */
  private readonly open = new Map<number, number>();
  private readonly origin = new AsyncLocalStorage<number>();

  constructor(
    private readonly run: (job: NotifyJob) => Promise<void>,
    private readonly opts: { delayScaleMs?: number; onError?: (e: unknown, job: NotifyJob) => void } = {},
  ) {}

  async enqueue(jobs: readonly NotifyJob[], delaySeconds = 0): Promise<void> {
    for (const job of jobs) {
      this.pending++;
      // A job enqueued while another runs belongs to that job's origin.
      const origin = this.origin.getStore() ?? ++this.lastOrigin;
      this.open.set(origin, (this.open.get(origin) ?? 0) + 1);
      const t = setTimeout(
        () => {
          this.timers.delete(t);
          if (this.stopped) return this.done();
          this.origin
            .run(origin, () => this.run(job))
            .catch((e) => (this.opts.onError ?? ((err) => console.error('[notify] job failed', err)))(e, job))
            .finally(() => {
              this.finish(origin);
              this.done();
            });
        },
        delaySeconds * (this.opts.delayScaleMs ?? 1000),
      );
      this.timers.add(t);
    }
  }

  /** Everything enqueued so far, for finishedThrough(). */
  mark(): number {
    return this.lastOrigin;
  }

  /** Whether every job enqueued up to `mark`, and everything those jobs enqueued, has finished. */
  finishedThrough(mark: number): boolean {
    for (const origin of this.open.keys()) if (origin <= mark) return false;
    return true;
  }

  private finish(origin: number): void {
    const left = (this.open.get(origin) ?? 1) - 1;
    if (left > 0) this.open.set(origin, left);
    else this.open.delete(origin);
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
