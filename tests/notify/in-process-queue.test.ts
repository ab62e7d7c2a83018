import { describe, expect, it } from 'vitest';
import { InProcessQueue } from '../../functions/notify/queue.js';
import { turnNotice } from './fixtures.js';

describe('the local notify queue', () => {
  it('runs at most `concurrency` jobs at once, and every job in the end', async () => {
    let running = 0;
    let most = 0;
    const ran: string[] = [];
    const queue = new InProcessQueue(
      async (job) => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 5));
        ran.push(job.notice.gameId);
        running--;
      },
      { delayScaleMs: 0, concurrency: 2 },
    );
    // Six games: their jobs could all run side by side; the bound holds them to two.
    const jobs = Array.from({ length: 6 }, () => ({ notice: turnNotice('q') }));
    await queue.enqueue(jobs);
    await queue.idle();
    expect(most).toBe(2);
    expect(ran.sort()).toEqual(jobs.map((j) => j.notice.gameId).sort());
  });

  it('makes way for work that goes first (the projector): no more than `yieldingConcurrency` jobs start until it ends', async () => {
    let running = 0;
    let most = 0;
    const queue = new InProcessQueue(
      async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 10));
        running--;
      },
      { delayScaleMs: 0, concurrency: 4, yieldingConcurrency: 1 },
    );
    const jobs = () => Array.from({ length: 20 }, () => ({ notice: turnNotice('y') }));
    let ranWhileYielding = 0;
    const work = queue.yieldWhile(async () => {
      await queue.enqueue(jobs());
      await new Promise((r) => setTimeout(r, 60));
      ranWhileYielding = most;
      return 'written';
    });
    expect(await work).toBe('written');
    // While the work ran, one job at a time; once it ended, the rest went four at a time.
    expect(ranWhileYielding).toBe(1);
    await queue.idle();
    expect(most).toBe(4);
  });

  it("once stopped (a killed consumer), a job waiting behind its lane's running one does not run", async () => {
    const ran: number[] = [];
    let release: () => void = () => {};
    const queue = new InProcessQueue(
      async (job) => {
        ran.push(job.notice.version);
        if (job.notice.version === 7) await new Promise<void>((r) => (release = r));
      },
      { delayScaleMs: 0 },
    );
    // One player's notices of one game: v42 waits behind v7 in their lane.
    const first = turnNotice('lane', { version: 7 });
    await queue.enqueue([{ notice: first }, { notice: { ...first, version: 42, key: `${first.gameId}#turn#p2#42` } }]);
    await new Promise((r) => setTimeout(r, 20));
    expect(ran).toEqual([7]);
    queue.stop();
    release();
    await queue.idle();
    // Before: v42 still ran after the stop, ahead of v7's retry in the consumer started next (out of order).
    expect(ran).toEqual([7]);
  });

  it('tells the jobs enqueued between two marks finished, and settled unless one left its notice waiting for another job to hand it on', async () => {
    let release: () => void = () => {};
    const queue = new InProcessQueue(
      async (job) => {
        if (job.notice.gameId.startsWith('slow')) await new Promise<void>((r) => (release = r));
        return { waiting: job.notice.gameId.startsWith('held') };
      },
      { delayScaleMs: 0 },
    );
    const m0 = queue.mark();
    await queue.enqueue([{ notice: turnNotice('slow') }]);
    const m1 = queue.mark();
    await queue.enqueue([{ notice: turnNotice('held') }]);
    const m2 = queue.mark();
    await queue.enqueue([{ notice: turnNotice('quick') }]);
    const m3 = queue.mark();
    await new Promise((r) => setTimeout(r, 20));
    // The first batch's job runs still; the second's finished but left its notice waiting; the third's is done.
    expect([queue.finishedBetween(m0, m1), queue.finishedBetween(m1, m2), queue.finishedBetween(m2, m3)]).toEqual([false, true, true]);
    expect([queue.settledBetween(m0, m1), queue.settledBetween(m1, m2), queue.settledBetween(m2, m3)]).toEqual([false, false, true]);
    expect(queue.finishedBetween(m0, m3)).toBe(false);
    release();
    await queue.idle();
    expect(queue.finishedBetween(m0, m3)).toBe(true);
    expect(queue.settledBetween(m0, m3)).toBe(false);
  });

  it("counts what work outside the jobs enqueues (a stream batch) as its own, even when it runs in a timer a job set (a poller the job's write woke)", async () => {
    let release: () => void = () => {};
    let batch: (() => Promise<void>) | undefined;
    const marks: { before: number; after: number }[] = [];
    const queue = new InProcessQueue(
      async (job) => {
        if (job.notice.gameId.startsWith('writer')) {
          // The job writes; the write wakes the poller, whose pass runs from this timer (in the job's async context).
          setTimeout(() => void batch!(), 0);
          return;
        }
        await new Promise<void>((r) => (release = r));
      },
      { delayScaleMs: 0 },
    );
    const passed = new Promise<void>((done) => {
      batch = () =>
        queue.outsideJobs(async () => {
          const before = queue.mark();
          await queue.enqueue([{ notice: turnNotice('slow') }]);
          marks.push({ before, after: queue.mark() });
          done();
        });
    });
    await queue.enqueue([{ notice: turnNotice('writer') }]);
    await passed;
    await new Promise((r) => setTimeout(r, 10));
    const [{ before, after }] = marks as [{ before: number; after: number }];
    // The batch's job waits: neither finished nor settled, so a restart hands its record over again.
    expect(after).toBeGreaterThan(before);
    expect(queue.finishedBetween(before, after)).toBe(false);
    expect(queue.settledBetween(before, after)).toBe(false);
    release();
    await queue.idle();
    expect(queue.settledBetween(before, after)).toBe(true);
  });
});
