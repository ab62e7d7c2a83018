import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { notifyJobSchema } from '../notify/decide.js';
import { boardPictureViaLambda } from '../notify/picture-client.js';
import type { Notifier } from '../notify/notifier.js';
import { SqsNotifyQueue } from '../notify/queue.js';
import { tableFromEnv } from '../environment.js';
import { createNotifier, retryPolicyFromEnv } from '../notify/wiring.js';

/**
 * SQS → email (SES) and webhooks. Each message is one notice (or one channel's retry).
 * A message that cannot be parsed or whose sending hit an infrastructure error is reported
 * in batchItemFailures (the event source mapping needs ReportBatchItemFailures): SQS
 * retries it and, after maxReceiveCount, moves it to the dead-letter queue. A receiver
 * that refuses a webhook is not an infrastructure error: that retry is a delayed message.
 *
 * A batch from the FIFO queue (functions/notify/queue.ts) holds each message group (one
 * recipient's notices of one game) in the order sent: a group's messages run one after another,
 * and once one fails, it and every later message of its group are reported failed without being
 * run, so SQS delivers them again in the same order (AWS's rule for FIFO partial batch failure).
 * Groups run side by side, and so do the retry queue's messages, which have no group.
 */
export function createNotifierHandler(
  notifier: Pick<Notifier, 'handle'>,
  log: (msg: string, data: Record<string, unknown>) => void = (msg, data) => console.error(JSON.stringify({ level: 'error', msg, ...data })),
) {
  const run = async (m: SQSRecord): Promise<boolean> => {
    try {
      const parsed = notifyJobSchema.safeParse(JSON.parse(m.body));
      if (!parsed.success) throw new Error(`not a notification job: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      await notifier.handle(parsed.data);
      return true;
    } catch (e) {
      log('notification job failed', { messageId: m.messageId, error: (e as Error).message });
      return false;
    }
  };
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: { itemIdentifier: string }[] = [];
    const lanes = new Map<string, SQSRecord[]>();
    const alone: SQSRecord[] = [];
    for (const m of event.Records) {
      const group = m.attributes.MessageGroupId;
      if (group === undefined) alone.push(m);
      else lanes.set(group, [...(lanes.get(group) ?? []), m]);
    }
    await Promise.all([
      ...alone.map(async (m) => {
        if (!(await run(m))) failures.push({ itemIdentifier: m.messageId });
      }),
      ...[...lanes.values()].map(async (group) => {
        for (const [i, m] of group.entries()) {
          if (await run(m)) continue;
          failures.push(...group.slice(i).map((x) => ({ itemIdentifier: x.messageId })));
          return;
        }
      }),
    ]);
    return { batchItemFailures: failures };
  };
}

let fromEnv: ((event: SQSEvent) => Promise<SQSBatchResponse>) | undefined;

export const handler = (event: SQSEvent): Promise<SQSBatchResponse> => {
  if (!fromEnv) {
    const { client, tableName } = tableFromEnv(process.env);
    // No allowPrivateWebhooks here: deployed webhooks are public https only (address-policy.ts).
    // The mail picture comes from the picture function (PICTURE_FUNCTION): this function may not
    // read game partitions, since it posts to URLs players choose (infra/fieldpost-stack.ts).
    const picture = process.env['PICTURE_FUNCTION'];
    fromEnv = createNotifierHandler(
      createNotifier({
        client,
        tableName,
        env: process.env,
        retry: retryPolicyFromEnv(process.env, 'requeue'),
        queue: SqsNotifyQueue.fromEnv(process.env),
        ...(picture ? { boardPicture: boardPictureViaLambda(new LambdaClient({}), picture) } : {}),
      }),
    );
  }
  return fromEnv(event);
};
