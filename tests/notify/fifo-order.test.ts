import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createNotifierHandler } from '../../functions/handlers/notifier.js';
import type { NotifyJob } from '../../functions/notify/decide.js';
import { messageGroupOf } from '../../functions/notify/queue.js';

/**
 * The AWS notifier's order (issue 18): two notices of one game to one player that arrive together
 * come from the FIFO queue in one message group, in the order sent, and the handler runs them one
 * after another in that order, never side by side; once one fails, the rest of its group is handed
 * back unrun, so SQS delivers them again behind it. Other groups and retry-queue messages go on.
 */
const job = (version: number, player = 'bob', gameId = 'g1'): NotifyJob => ({
  notice: {
    key: `${gameId}#turn#${player}#${version}`,
    kind: 'turn',
    gameId,
    title: 't',
    engine: 'e',
    player,
    seats: ['s'],
    asked: [],
    opponents: [],
    version,
    hash: 'h',
    at: '2026-01-01T00:00:00.000Z',
  },
});
/** A record as the FIFO event source delivers it (MessageGroupId set), or the retry queue (none). */
const fromFifo = (id: string, j: NotifyJob) => ({ messageId: id, body: JSON.stringify(j), attributes: { MessageGroupId: messageGroupOf(j) } });
const fromRetry = (id: string, j: NotifyJob) => ({ messageId: id, body: JSON.stringify(j), attributes: {} });
const event = (...records: object[]) => ({ Records: records }) as unknown as SQSEvent;
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('the AWS notifier keeps each game’s notices to a player in order', () => {
  it('runs the first attempts of two notices of one game that arrive together one after the other, the earlier first, even when it is the slower', async () => {
    const log: string[] = [];
    const handler = createNotifierHandler({
      handle: async (j) => {
        log.push(`start ${j.notice.player} v${j.notice.version}`);
        // The earlier notice takes longest: side by side, the later one would finish (be sent) first.
        for (let i = 0; i < (j.notice.version === 1 ? 4 : 1); i++) await tick();
        log.push(`end ${j.notice.player} v${j.notice.version}`);
        return [];
      },
    });
    const r = await handler(event(fromFifo('a', job(1)), fromFifo('b', job(2)), fromFifo('c', job(1, 'carol'))));
    expect(r.batchItemFailures).toEqual([]);
    const bob = log.filter((l) => l.includes('bob'));
    expect(bob).toEqual(['start bob v1', 'end bob v1', 'start bob v2', 'end bob v2']);
    // Another recipient's group is not held behind bob's: it started before bob's first ended.
    expect(log.indexOf('start carol v1')).toBeLessThan(log.indexOf('end bob v1'));
  });

  it('hands back a failed message and every later one of its group unrun, in order; other groups and retries go on', async () => {
    const ran: string[] = [];
    const handler = createNotifierHandler(
      {
        handle: async (j) => {
          ran.push(`${j.notice.player} v${j.notice.version}`);
          if (j.notice.player === 'bob' && j.notice.version === 2) throw new Error('table unavailable');
          return [];
        },
      },
      () => {},
    );
    const r = await handler(
      event(
        fromFifo('b1', job(1)),
        fromFifo('c1', job(1, 'carol')),
        fromFifo('b2', job(2)),
        fromFifo('b3', job(3)),
        fromRetry('r1', { ...job(7, 'bob', 'g9'), channel: 'wh1', attempt: 2 }),
        fromFifo('c2', job(2, 'carol')),
      ),
    );
    expect(r.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['b2', 'b3']);
    // bob v3 never ran: running it now would deliver it before v2, which SQS will deliver again.
    expect(ran).not.toContain('bob v3');
    expect(ran.sort()).toEqual(['bob v1', 'bob v2', 'bob v7', 'carol v1', 'carol v2']);
  });

  it('puts one player’s notices of one game in one group, and other games or players in others', () => {
    expect(messageGroupOf(job(1))).toBe(messageGroupOf(job(5)));
    expect(messageGroupOf(job(1))).not.toBe(messageGroupOf(job(1, 'carol')));
    expect(messageGroupOf(job(1))).not.toBe(messageGroupOf(job(1, 'bob', 'g2')));
    // Not fooled by a separator inside an id.
    expect(messageGroupOf(job(1, 'a\ng', 'x'))).not.toBe(messageGroupOf(job(1, 'a', 'g\nx')));
  });
});
