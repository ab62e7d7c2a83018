import type { Env } from '../environment.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import { SQSClient, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { NotifyJob } from './decide.js';

/** Where the projector puts notification jobs: SQS in AWS, an in-process queue locally. */
export interface NotifyQueue {
  enqueue(jobs: readonly NotifyJob[], delaySeconds?: number): Promise<void>;
}

/** SQS limits: 10 messages per batch, at most 900 s of delay. */
export const SQS_MAX_DELAY_SECONDS = 900;

/** The FIFO message group of a job: its recipient and game, whose notices must be tried in order. */
export const messageGroupOf = (job: NotifyJob): string => sha256(JSON.stringify([job.notice.player, job.notice.gameId]));

/**
 * The FIFO deduplication id. A first attempt (no channel: what the projector enqueues) is the
 * notice itself, so a stream batch run twice enqueues it once. A job the notifier enqueues for a
 * channel (a hand-on from a lane) is unique per send: the ledger's claim, not SQS, keeps it from
 * being sent twice, and a second hand-on of the same attempt must not be dropped as a copy.
 */
export const deduplicationIdOf = (job: NotifyJob, unique: () => string = randomUUID): string =>
  sha256(
    JSON.stringify(
      job.channel === undefined ? ['notice', job.notice.key, job.notice.player] : ['job', job.notice.key, job.notice.player, job.channel, unique()],
    ),
  );

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * SQS in AWS: two queues. A job due now goes to the FIFO queue (NOTIFY_QUEUE_URL) in its
 * recipient's and game's message group, so SQS delivers one player's notices of one game in the
 * order they were sent, the first attempts of two notices that arrive together included. A FIFO
 * queue takes no per-message delay, so a job due later (a retry's backoff, a re-check after a
 * lease, a hop towards a far retry) goes to the standard retry queue (NOTIFY_RETRY_QUEUE_URL) with
 * DelaySeconds; the webhook lanes keep a due retry ahead of the game's later notices.
 * SendMessageBatch in batches of ten; throws if any entry failed, so the stream record is retried.
 */
export class SqsNotifyQueue implements NotifyQueue {
  constructor(
    private readonly queueUrl: string,
    private readonly retryQueueUrl: string,
    private readonly client: Pick<SQSClient, 'send'>,
  ) {}

  static fromEnv(env: Env): SqsNotifyQueue {
    const url = env['NOTIFY_QUEUE_URL'];
    if (!url) throw new Error('NOTIFY_QUEUE_URL is not set');
    const retry = env['NOTIFY_RETRY_QUEUE_URL'];
    if (!retry) throw new Error('NOTIFY_RETRY_QUEUE_URL is not set');
    return new SqsNotifyQueue(url, retry, new SQSClient({}));
  }

  async enqueue(jobs: readonly NotifyJob[], delaySeconds = 0): Promise<void> {
    const delay = Math.min(SQS_MAX_DELAY_SECONDS, Math.max(0, Math.round(delaySeconds)));
    for (let i = 0; i < jobs.length; i += 10) {
      const batch = jobs.slice(i, i + 10);
      const r = await this.client.send(
        new SendMessageBatchCommand({
          QueueUrl: delay > 0 ? this.retryQueueUrl : this.queueUrl,
          Entries: batch.map((job, j) => ({
            Id: `m${j}`,
            MessageBody: JSON.stringify(job),
            ...(delay > 0 ? { DelaySeconds: delay } : { MessageGroupId: messageGroupOf(job), MessageDeduplicationId: deduplicationIdOf(job) }),
          })),
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
 * `finishedBetween(after, through)` says whether those enqueued between two marks, and every job
 * they enqueued in turn (a retry, a re-check after a lease), have finished. `settledBetween` says
 * besides that none of them left its notice waiting for a job enqueued by others (held in its lane
 * behind an earlier notice, which hands it on): what a restart may skip.
 *
 * Like SQS, a job that throws is not lost: it runs again after `redeliverSeconds` (SQS's
 * visibility timeout, six notifier timeouts), up to `maxReceives` times in all; only then is it
 * given to `onError` (the dead-letter queue's place).
 */
/** What a job's run may say: its notice was left waiting for another job to hand it on (held in its lane). */
export interface JobOutcome {
  readonly waiting: boolean;
}

export class InProcessQueue implements NotifyQueue {
  private pending = 0;
  private waiters: (() => void)[] = [];
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private lastOrigin = 0;
  /** Unfinished jobs per origin: the id of the job first enqueued from outside a job. */
  private readonly open = new Map<number, number>();
  /** Origins one of whose jobs left its notice waiting for a job of another origin. */
  private readonly waiting = new Set<number>();
  private readonly origin = new AsyncLocalStorage<number>();
  /**
   * The job of each game and recipient running now (and those queued behind it): one player's
   * notices of one game run one after another, in the order they fell due, so a notice that fails
   * is held in its webhook lane before the next one looks at that lane (each game's notices
   * arrive in order). Other players and games go on meanwhile.
   */
  private readonly games = new Map<string, Promise<void>>();

  constructor(
    private readonly run: (job: NotifyJob) => Promise<JobOutcome | void>,
    private readonly opts: {
      delayScaleMs?: number;
      onError?: (e: unknown, job: NotifyJob) => void;
      /** Seconds before a job that threw runs again (default 180, the notifier queue's visibility timeout). */
      redeliverSeconds?: number;
      /** Runs of a job before it is given up (default 5, the notifier queue's maxReceiveCount). */
      maxReceives?: number;
      /** Jobs run at once (default: no bound; keep it unbounded when jobs sleep between retries, as in 'inline' mode). */
      concurrency?: number;
      /** Jobs run at once while work that goes first runs (yieldWhile); default `concurrency`. */
      yieldingConcurrency?: number;
    } = {},
  ) {}

  async enqueue(jobs: readonly NotifyJob[], delaySeconds = 0): Promise<void> {
    for (const job of jobs) this.schedule(job, delaySeconds);
  }

  private schedule(job: NotifyJob, delaySeconds: number): void {
    this.pending++;
    // A job enqueued while another runs belongs to that job's origin.
    const origin = this.origin.getStore() ?? ++this.lastOrigin;
    this.open.set(origin, (this.open.get(origin) ?? 0) + 1);
    const t = setTimeout(
      () => {
        this.timers.delete(t);
        if (this.stopped) return this.done();
        const game = `${job.notice.gameId}|${job.notice.player}`;
        // Run again in place after a throw, so the recipient's later notices of the game stay behind it.
        const attempt = async () => {
          for (let receive = 1; ; receive++) {
            // Stopped (or killed) while it waited behind the lane's earlier job: it does not run, as in a process that is gone.
            if (this.stopped) return;
            try {
              await this.slot();
              try {
                const outcome = await this.origin.run(origin, () => this.run(job));
                if (outcome?.waiting) this.waiting.add(origin);
                return;
              } finally {
                this.freeSlot();
              }
            } catch (e) {
              if (receive >= (this.opts.maxReceives ?? 5) || this.stopped) throw e;
              await new Promise((r) => setTimeout(r, (this.opts.redeliverSeconds ?? 180) * (this.opts.delayScaleMs ?? 1000)));
              if (this.stopped) throw e;
            }
          }
        };
        const run = (this.games.get(game) ?? Promise.resolve())
          .then(attempt)
          .catch((e) => (this.opts.onError ?? ((err) => console.error('[notify] job failed', err)))(e, job))
          .finally(() => {
            if (this.games.get(game) === run) this.games.delete(game);
            this.finish(origin);
            this.done();
          });
        this.games.set(game, run);
      },
      delaySeconds * (this.opts.delayScaleMs ?? 1000),
    );
    this.timers.add(t);
  }

  private running = 0;
  private readonly slotWaiters: (() => void)[] = [];

  /**
   * At most `concurrency` jobs run at once (SQS hands a Lambda a bounded batch, and reserved
   * concurrency bounds the Lambdas): a burst of thousands of jobs, as a restart that reads the
   * stream again enqueues, would otherwise all call the table at once and starve the projector.
   */
  private async slot(): Promise<void> {
    if (this.running < this.bound()) {
      this.running++;
      return;
    }
    await new Promise<void>((r) => this.slotWaiters.push(r));
  }

  private freeSlot(): void {
    // A slot above the bound of the moment (work that goes first began) is given back, not handed on.
    const next = this.running <= this.bound() ? this.slotWaiters.shift() : undefined;
    if (next) next();
    else this.running--;
  }

  /** Work that goes first (yieldWhile) running now. */
  private yielding = 0;

  private bound(): number {
    const concurrency = this.opts.concurrency ?? Infinity;
    return this.yielding > 0 ? Math.min(concurrency, this.opts.yieldingConcurrency ?? concurrency) : concurrency;
  }

  /**
   * Runs `work` while the jobs make way for it: no more than `yieldingConcurrency` jobs start
   * until it ends (those running finish). Locally the projector's batches go first: its read
   * models and the notify jobs call the same DynamoDB Local, in the same process, where in AWS
   * they are Lambdas of their own.
   */
  async yieldWhile<T>(work: () => Promise<T>): Promise<T> {
    this.yielding++;
    try {
      return await work();
    } finally {
      this.yielding--;
      while (this.running < this.bound() && this.slotWaiters.length > 0) {
        this.running++;
        this.slotWaiters.shift()!();
      }
    }
  }

  /**
   * Runs `work` as a start of its own: what it enqueues are new origins, whichever job's continuation
   * it runs in. A timer a job set carries that job's origin along (a stream poller woken by the job's
   * own write): a stream batch counted as that job's would leave no mark of its own, and look
   * settled while its jobs still wait to run.
   */
  outsideJobs<T>(work: () => Promise<T>): Promise<T> {
    return this.origin.exit(work);
  }

  /** Everything enqueued so far (0 before anything is), for finishedBetween(). */
  mark(): number {
    return this.lastOrigin;
  }

  /** Whether every job enqueued after mark `after` up to mark `through`, and everything those jobs enqueued, has finished. */
  finishedBetween(after: number, through: number): boolean {
    for (const origin of this.open.keys()) if (origin > after && origin <= through) return false;
    return true;
  }

  /** finishedBetween, and none of those jobs left its notice waiting for a job enqueued by others. */
  settledBetween(after: number, through: number): boolean {
    for (const origin of this.waiting) if (origin > after && origin <= through) return false;
    return this.finishedBetween(after, through);
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
