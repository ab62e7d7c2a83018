import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetRecordsCommand, DynamoDBStreamsClient } from '../../functions/aws/dynamodb-streams.js';
import { InvokeCommand, LambdaClient } from '../../functions/aws/lambda.js';
import { ConflictException, CreateScheduleCommand, SchedulerClient } from '../../functions/aws/scheduler.js';
import { SendEmailCommand, SESv2Client } from '../../functions/aws/sesv2.js';
import { SendMessageBatchCommand, SQSClient } from '../../functions/aws/sqs.js';
import { readParameter } from '../../functions/aws/ssm.js';

/** The error a call fails with (the test fails if it does not). */
async function failure<E = ServiceError>(call: Promise<unknown>): Promise<E> {
  try {
    await call;
  } catch (e) {
    return e as E;
  }
  throw new Error('the call did not fail');
}
type ServiceError = Error & { $metadata: { attempts: number; httpStatusCode: number }; Item?: Record<string, Record<string, unknown>> };

/**
 * The SQS, SSM, Scheduler, Lambda, SES and Streams calls of the Lambda bundles (functions/aws/), each
 * against a local HTTP server standing in for the service: the request each sends (path,
 * target, signature scope, body), how each reads the reply, its errors and retries.
 */

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}
type Reply = { status: number; headers?: Record<string, string>; body: string | Buffer };

const seen: Seen[] = [];
let replies: Reply[] = [];
let endpoint = '';
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
    const r = replies.shift() ?? { status: 200, body: '{}' };
    res.writeHead(r.status, r.headers ?? {});
    res.end(r.body);
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const config = () => ({ endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret', sessionToken: 'token' } });
const next = (...r: Reply[]) => {
  seen.length = 0;
  replies = r;
};
const json = (b: Buffer) => JSON.parse(b.toString('utf8')) as Record<string, unknown>;

describe('AWS calls of the Lambda bundles', () => {
  it('SQS SendMessageBatch: the JSON protocol, signed for sqs in the region with the session token', async () => {
    next({ status: 200, body: JSON.stringify({ Successful: [{ Id: 'm0' }], Failed: [{ Id: 'm1', Code: 'X', Message: 'no' }] }) });
    const input = { QueueUrl: 'https://sqs.eu-west-1.amazonaws.com/1/q', Entries: [{ Id: 'm0', MessageBody: '{"a":1}', DelaySeconds: 5 }] };
    const out = await new SQSClient(config()).send(new SendMessageBatchCommand(input));
    expect(out.Failed).toEqual([{ Id: 'm1', Code: 'X', Message: 'no' }]);
    const [r] = seen;
    expect(r!.method).toBe('POST');
    expect(r!.headers['x-amz-target']).toBe('AmazonSQS.SendMessageBatch');
    expect(r!.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(r!.headers['x-amz-security-token']).toBe('token');
    expect(r!.headers['authorization']).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/eu-west-1\/sqs\/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token;x-amz-target, Signature=[0-9a-f]{64}$/,
    );
    expect(json(r!.body)).toEqual(input);
  });

  it("SSM GetParameter: the JSON 1.1 protocol, signed for ssm; the parameter's value, or an error naming it", async () => {
    next({ status: 200, body: JSON.stringify({ Parameter: { Name: '/Fieldpost/api/web-client-id', Type: 'String', Value: 'client-1', Version: 1 } }) });
    expect(await readParameter('/Fieldpost/api/web-client-id', config())).toBe('client-1');
    const [r] = seen;
    expect(r!.headers['x-amz-target']).toBe('AmazonSSM.GetParameter');
    expect(r!.headers['content-type']).toBe('application/x-amz-json-1.1');
    expect(r!.headers['authorization']).toMatch(/Credential=AKID\/\d{8}\/eu-west-1\/ssm\/aws4_request/);
    expect(json(r!.body)).toEqual({ Name: '/Fieldpost/api/web-client-id' });
    next({ status: 400, headers: { 'x-amzn-errortype': 'ParameterNotFound' }, body: JSON.stringify({ __type: 'ParameterNotFound' }) });
    expect((await failure(readParameter('/nope', config()))).name).toBe('ParameterNotFound');
    next({ status: 200, body: JSON.stringify({ Parameter: { Name: '/empty' } }) });
    await expect(readParameter('/empty', config())).rejects.toThrow(/\/empty has no value/);
  });

  it('Scheduler CreateSchedule: POST /schedules/<name> with an idempotency token; a 409 is a ConflictException', async () => {
    next(
      { status: 200, body: JSON.stringify({ ScheduleArn: 'arn:s' }) },
      { status: 409, headers: { 'x-amzn-errortype': 'ConflictException:http://internal' }, body: '{"Message":"exists"}' },
    );
    const input = {
      Name: 'g-1 wake',
      GroupName: 'fieldpost',
      ScheduleExpression: 'at(2026-11-25T10:00:00)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: 'arn:f', RoleArn: 'arn:r', Input: '{}' },
    };
    const scheduler = new SchedulerClient(config());
    expect(await scheduler.send(new CreateScheduleCommand(input))).toEqual({ ScheduleArn: 'arn:s' });
    expect(seen[0]!.path).toBe('/schedules/g-1%20wake');
    const { ClientToken, ...body } = json(seen[0]!.body);
    expect(body).toEqual({
      GroupName: 'fieldpost',
      ScheduleExpression: 'at(2026-11-25T10:00:00)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: 'arn:f', RoleArn: 'arn:r', Input: '{}' },
    });
    expect(ClientToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[0]!.headers['authorization']).toContain('/eu-west-1/scheduler/aws4_request');
    const e = await failure(scheduler.send(new CreateScheduleCommand(input)));
    expect(e).toBeInstanceOf(ConflictException);
    expect([e.name, e.message]).toEqual(['ConflictException', 'exists']);
  });

  it('Lambda Invoke: the payload as the body, the function error from its header', async () => {
    next({ status: 200, headers: { 'x-amz-function-error': 'Unhandled' }, body: '{"errorMessage":"boom"}' });
    const out = await new LambdaClient(config()).send(
      new InvokeCommand({ FunctionName: 'arn:aws:lambda:eu-west-1:1:function:picture', Payload: new TextEncoder().encode('{"x":1}') }),
    );
    expect(seen[0]!.path).toBe('/2015-03-31/functions/arn%3Aaws%3Alambda%3Aeu-west-1%3A1%3Afunction%3Apicture/invocations');
    expect(seen[0]!.body.toString()).toBe('{"x":1}');
    expect(out.StatusCode).toBe(200);
    expect(out.FunctionError).toBe('Unhandled');
    expect(new TextDecoder().decode(out.Payload)).toBe('{"errorMessage":"boom"}');
  });

  it('SES v2 SendEmail: simple content to /v2/email/outbound-emails, attachments base64, signed for ses', async () => {
    next({ status: 200, body: '{"MessageId":"m-1"}' });
    const out = await new SESv2Client(config()).send(
      new SendEmailCommand({
        FromEmailAddress: 'turns@example.org',
        Destination: { ToAddresses: ['a@example.org'] },
        Content: {
          Simple: {
            Subject: { Data: 'Your move' },
            Body: { Text: { Data: 'hi' } },
            Attachments: [{ FileName: 'board.png', RawContent: new Uint8Array([137, 80, 78, 71]) }],
          },
        },
      }),
    );
    expect(out.MessageId).toBe('m-1');
    expect(seen[0]!.path).toBe('/v2/email/outbound-emails');
    expect(seen[0]!.headers['authorization']).toContain('/eu-west-1/ses/aws4_request');
    const body = json(seen[0]!.body) as { Content: { Simple: { Attachments: { RawContent: string }[] } } };
    expect(body.Content.Simple.Attachments[0]!.RawContent).toBe(Buffer.from([137, 80, 78, 71]).toString('base64'));
  });

  it('DynamoDB Streams GetRecords: images with binary decoded and the creation time as a Date, as the SDK gives them', async () => {
    next({
      status: 200,
      body: JSON.stringify({
        Records: [
          {
            eventName: 'MODIFY',
            dynamodb: {
              ApproximateCreationDateTime: 1764064800,
              Keys: { pk: { S: 'GAME#g' } },
              NewImage: { recent: { B: 'AQI=' }, l: { L: [{ B: 'Aw==' }] } },
            },
          },
        ],
      }),
    });
    const out = (await new DynamoDBStreamsClient(config()).send(new GetRecordsCommand({ ShardIterator: 'it', Limit: 10 }))) as {
      Records: { dynamodb: { ApproximateCreationDateTime: Date; NewImage: { recent: { B: Uint8Array }; l: { L: { B: Uint8Array }[] } } } }[];
    };
    expect(seen[0]!.headers['x-amz-target']).toBe('DynamoDBStreams_20120810.GetRecords');
    expect(seen[0]!.headers['authorization']).toContain('/eu-west-1/dynamodb/aws4_request');
    const d = out.Records[0]!.dynamodb;
    expect(d.ApproximateCreationDateTime).toEqual(new Date(1764064800_000));
    expect(d.NewImage.recent.B).toEqual(new Uint8Array([1, 2]));
    expect(d.NewImage.l.L[0]!.B).toEqual(new Uint8Array([3]));
  });

  it('retries a 5xx and throttling as the SDK does (3 attempts), then throws the last error with its name; a client error is not retried', async () => {
    const throttled = { status: 400, body: JSON.stringify({ __type: 'com.amazonaws.sqs#ThrottlingException', message: 'slow down' }) };
    next({ status: 500, body: '{"__type":"InternalError"}' }, throttled, { status: 200, body: '{"Successful":[]}' });
    const sqs = new SQSClient(config());
    const batch = new SendMessageBatchCommand({ QueueUrl: 'q', Entries: [] });
    expect(await sqs.send(batch)).toEqual({ Successful: [] });
    expect(seen).toHaveLength(3);

    next(throttled, throttled, throttled, { status: 200, body: '{}' });
    const e = await failure(sqs.send(batch));
    expect([e.name, e.message, e.$metadata.attempts, e.$metadata.httpStatusCode]).toEqual(['ThrottlingException', 'slow down', 3, 400]);
    expect(seen).toHaveLength(3);

    next({ status: 400, body: JSON.stringify({ __type: 'com.amazonaws.sqs#InvalidParameterValue', message: 'bad' }) });
    expect((await failure(sqs.send(batch))).name).toBe('InvalidParameterValue');
    expect(seen).toHaveLength(1);
  });

  it('takes credentials and region from the Lambda environment', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'ENVKEY', AWS_SECRET_ACCESS_KEY: 'envsecret', AWS_SESSION_TOKEN: 'envtoken', AWS_REGION: 'us-east-2' });
    try {
      next({ status: 200, body: '{}' });
      await new SQSClient({ endpoint }).send(new SendMessageBatchCommand({ QueueUrl: 'q', Entries: [] }));
      expect(seen[0]!.headers['authorization']).toMatch(/Credential=ENVKEY\/\d{8}\/us-east-2\/sqs\/aws4_request/);
      expect(seen[0]!.headers['x-amz-security-token']).toBe('envtoken');
    } finally {
      for (const k of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_REGION']) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  });
});
