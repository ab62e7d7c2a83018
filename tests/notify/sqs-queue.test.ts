import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotifyJob } from '../../functions/notify/decide.js';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SqsNotifyQueue } from '../../functions/notify/queue.js';

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

const job = (i: number): NotifyJob => ({
  notice: {
    key: `k${i}`,
    kind: 'turn',
    gameId: 'g',
    title: 't',
    engine: 'e',
    player: 'p',
    seats: ['p1'],
    asked: [],
    opponents: [],
    version: i,
    hash: 'h',
    at: '2026-01-01T00:00:00.000Z',
  },
});

describe('SQS notify queue (AWS SDK against a local SQS stand-in)', () => {
  const queueUrl = 'https://sqs.eu-west-1.amazonaws.com/123456789012/notify';
  const client = () =>
    new SQSClient({
      endpoint: url,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret', sessionToken: 'session-token' },
      maxAttempts: 1,
    });

  it('sends jobs in signed batches of ten with the delay clamped to 900 s', async () => {
    const q = new SqsNotifyQueue(queueUrl, client());
    await q.enqueue(
      Array.from({ length: 12 }, (_, i) => job(i)),
      5000,
    );
    expect(requests).toHaveLength(2);
    expect(requests.map((r) => r.body.Entries.length)).toEqual([10, 2]);
    const first = requests[0]!;
    expect(first.body.QueueUrl).toBe(queueUrl);
    expect(first.body.Entries[0].DelaySeconds).toBe(900);
    expect(JSON.parse(first.body.Entries[3].MessageBody)).toEqual(job(3));
    expect(first.headers['x-amz-target']).toBe('AmazonSQS.SendMessageBatch');
    expect(first.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(first.headers['x-amz-security-token']).toBe('session-token');
    expect(first.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-west-1\/sqs\/aws4_request, /);
  });

  it('throws when SQS refuses a message or the call, so the stream record is retried', async () => {
    const q = new SqsNotifyQueue(queueUrl, client());
    reply = () => ({ status: 200, body: { Successful: [], Failed: [{ Id: 'm0', Code: 'X', Message: 'too big', SenderFault: true }] } });
    await expect(q.enqueue([job(1)])).rejects.toThrow(/too big/);
    reply = () => ({ status: 400, body: { __type: 'com.amazon.coral.service#AccessDeniedException', message: 'denied' } });
    await expect(q.enqueue([job(1)])).rejects.toThrow(/denied/);
  });
});
