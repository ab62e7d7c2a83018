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
});
