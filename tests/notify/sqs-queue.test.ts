import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotifyJob } from '../../functions/notify/decide.js';
import { SQSClient } from '@aws-sdk/client-sqs';
import { deduplicationIdOf, messageGroupOf, SqsNotifyQueue } from '../../functions/notify/queue.js';

const requests: { headers: IncomingHttpHeaders; body: any }[] = [];
let reply: (body: any) => { status: number; body: unknown } = (b) => ({
  status: 200,
  body: {
    Successful: b.Entries.map((e: any) => ({ Id: e.Id, MessageId: `id-${e.Id}`, MD5OfMessageBody: createHash('md5').update(e.MessageBody).digest('hex') })),
    Failed: [],
  },
});
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    requests.push({ headers: req.headers, body });
    const r = reply(body);
    res.writeHead(r.status, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(r.body));
  });
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

const job = (i: number, player = 'p', gameId = 'g'): NotifyJob => ({
  notice: {
    key: `k${i}`,
    kind: 'turn',
    gameId,
    title: 't',
    engine: 'e',
    player,
    seats: ['p1'],
    asked: [],
    opponents: [],
    version: i,
    hash: 'h',
    at: '2026-01-01T00:00:00.000Z',
  },
});

describe('SQS notify queue (AWS SDK against a local SQS stand-in)', () => {
  const queueUrl = 'https://sqs.eu-west-1.amazonaws.com/123456789012/notify.fifo';
  const retryUrl = 'https://sqs.eu-west-1.amazonaws.com/123456789012/notify-retry';
  const client = () =>
    new SQSClient({
      endpoint: url,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret', sessionToken: 'session-token' },
      maxAttempts: 1,
    });

  it('sends jobs due now to the FIFO queue, one message group per recipient and game, in the order given', async () => {
    requests.length = 0;
    const q = new SqsNotifyQueue(queueUrl, retryUrl, client());
    await q.enqueue([job(1, 'bob', 'g1'), job(2, 'bob', 'g1'), job(3, 'carol', 'g1'), job(4, 'bob', 'g2')]);
    expect(requests).toHaveLength(1);
    const { QueueUrl, Entries } = requests[0]!.body;
    expect(QueueUrl).toBe(queueUrl);
    // The order of one group is the order of the batch: SQS keeps it, and no DelaySeconds (a FIFO queue refuses one).
    expect(Entries.map((e: any) => JSON.parse(e.MessageBody).notice.key)).toEqual(['k1', 'k2', 'k3', 'k4']);
    for (const e of Entries) expect(e).not.toHaveProperty('DelaySeconds');
    const groups = Entries.map((e: any) => e.MessageGroupId);
    expect(groups[0]).toBe(groups[1]);
    expect(new Set(groups).size).toBe(3);
    expect(groups[0]).toBe(messageGroupOf(job(9, 'bob', 'g1')));
    expect(groups[0]).toMatch(/^[0-9a-f]{64}$/);
    // Deduplicated by notice: the same notice enqueued again (a stream batch run twice) carries the same id.
    expect(Entries[0].MessageDeduplicationId).toBe(deduplicationIdOf(job(1, 'bob', 'g1')));
    expect(new Set(Entries.map((e: any) => e.MessageDeduplicationId)).size).toBe(4);
  });

  it('gives a channel job the notifier hands on an id of its own each time, so a second hand-on is not dropped as a copy', () => {
    const handOn = { ...job(1, 'bob', 'g1'), channel: 'wh1', attempt: 1 };
    let n = 0;
    const unique = () => `u${++n}`;
    expect(deduplicationIdOf(handOn, unique)).not.toBe(deduplicationIdOf(handOn, unique));
    expect(deduplicationIdOf(handOn, unique)).not.toBe(deduplicationIdOf(job(1, 'bob', 'g1')));
    // Hostile ids are only hashed.
    expect(messageGroupOf(job(1, '__proto__', 'constructor'))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sends jobs due later to the standard retry queue, in signed batches of ten with the delay clamped to 900 s', async () => {
    requests.length = 0;
    const q = new SqsNotifyQueue(queueUrl, retryUrl, client());
    await q.enqueue(
      Array.from({ length: 12 }, (_, i) => job(i)),
      5000,
    );
    expect(requests).toHaveLength(2);
    expect(requests.map((r) => r.body.Entries.length)).toEqual([10, 2]);
    const first = requests[0]!;
    expect(first.body.QueueUrl).toBe(retryUrl);
    expect(first.body.Entries[0].DelaySeconds).toBe(900);
    expect(first.body.Entries[0]).not.toHaveProperty('MessageGroupId');
    expect(JSON.parse(first.body.Entries[3].MessageBody)).toEqual(job(3));
    expect(first.headers['x-amz-target']).toBe('AmazonSQS.SendMessageBatch');
    expect(first.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(first.headers['x-amz-security-token']).toBe('session-token');
    expect(first.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-west-1\/sqs\/aws4_request, /);
  });

  it('throws when SQS refuses a message or the call, so the stream record is retried', async () => {
    const q = new SqsNotifyQueue(queueUrl, retryUrl, client());
    reply = () => ({ status: 200, body: { Successful: [], Failed: [{ Id: 'm0', Code: 'X', Message: 'too big', SenderFault: true }] } });
    await expect(q.enqueue([job(1)])).rejects.toThrow(/too big/);
    reply = () => ({ status: 400, body: { __type: 'com.amazon.coral.service#AccessDeniedException', message: 'denied' } });
    await expect(q.enqueue([job(1)])).rejects.toThrow(/denied/);
  });
});
