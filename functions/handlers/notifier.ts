import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { notifyJobSchema } from '../notify/decide.js';
import type { Notifier } from '../notify/notifier.js';
import { SqsNotifyQueue } from '../notify/queue.js';
import { createNotifier, retryPolicyFromEnv, tableFromEnv } from '../notify/wiring.js';

/**
 * SQS → email (SES) and webhooks. Each message is one notice (or one channel's retry).
 * A message that cannot be parsed or whose sending hit an infrastructure error is reported
 * in batchItemFailures (the event source mapping needs ReportBatchItemFailures): SQS
 * retries it and, after maxReceiveCount, moves it to the dead-letter queue. A receiver
 * that refuses a webhook is not an infrastructure error: that retry is a delayed message.
 */
export function createNotifierHandler(
  notifier: Pick<Notifier, 'handle'>,
  log: (msg: string, data: Record<string, unknown>) => void = (msg, data) => console.error(JSON.stringify({ level: 'error', msg, ...data })),
) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: { itemIdentifier: string }[] = [];
    await Promise.all(
      event.Records.map(async (m) => {
        try {
          const parsed = notifyJobSchema.safeParse(JSON.parse(m.body));
          if (!parsed.success) throw new Error(`not a notification job: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
          await notifier.handle(parsed.data);
        } catch (e) {
          failures.push({ itemIdentifier: m.messageId });
          log('notification job failed', { messageId: m.messageId, error: (e as Error).message });
        }
      }),
    );
    return { batchItemFailures: failures };
  };
}

let fromEnv: ((event: SQSEvent) => Promise<SQSBatchResponse>) | undefined;

export const handler = (event: SQSEvent): Promise<SQSBatchResponse> => {
  if (!fromEnv) {
    const { client, tableName } = tableFromEnv(process.env);
    // No allowPrivateWebhooks here: deployed webhooks are public https only (address-policy.ts).
    // No board picture either: the picture is the recipient's view, folded from the game's
    // partition, and this function (which posts to URLs players choose) may not read game
    // partitions (infra/fieldpost-stack.ts). Mail from the local runtime carries it.
    fromEnv = createNotifierHandler(
      createNotifier({ client, tableName, env: process.env, retry: retryPolicyFromEnv(process.env, 'requeue'), queue: SqsNotifyQueue.fromEnv(process.env) }),
    );
  }
  return fromEnv(event);
};

/**
 * The rasterizer the mail picture uses, bundled with its WebAssembly and fonts (copied beside
 * the bundle by infra/handler-function.ts); exported so the bundle test can prove it draws in
 * Lambda's plain Node, ready for a deployed picture source (see the comment in `handler`).
 */
export { svgToPng } from '../notify/png.js';
