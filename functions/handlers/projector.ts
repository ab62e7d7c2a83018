import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { SqsNotifyQueue } from '../notify/queue.js';
import { tableFromEnv } from '../environment.js';
import { ReadModelStore } from '../projections/read-model-store.js';
import { repairStreamFailure, streamFailureSchema } from '../projections/repair.js';
import { processStreamRecords, type StreamDeps } from '../projections/stream.js';

/**
 * DynamoDB Streams → read models (inbox, lobby, summaries) + notification jobs on SQS.
 * Reports partial batch failures (the event source mapping needs
 * FunctionResponseTypes: ['ReportBatchItemFailures']); a filter on sk beginning HEAD keeps the
 * other records away, though they are ignored here anyway.
 *
 * The same function consumes the mapping's on-failure queue (functions/projections/repair.ts):
 * a batch given up on is read back from the stream and run again, so a game whose last record
 * failed does not keep a stale read model. A message that still fails is reported and retried by SQS.
 */
export interface ProjectorDeps extends StreamDeps {
  readonly streams: Pick<DynamoDBStreamsClient, 'send'>;
}

const isSqs = (event: DynamoDBStreamEvent | SQSEvent): event is SQSEvent => event.Records[0]?.eventSource === 'aws:sqs';

export function createProjectorHandler(deps: ProjectorDeps) {
  const batch = (records: Parameters<typeof processStreamRecords>[0]) => processStreamRecords(records, deps);
  return async (event: DynamoDBStreamEvent | SQSEvent): Promise<DynamoDBBatchResponse | SQSBatchResponse> => {
    if (!isSqs(event)) return { batchItemFailures: (await batch(event.Records)).batchItemFailures };
    const batchItemFailures: { itemIdentifier: string }[] = [];
    for (const message of event.Records) {
      try {
        const failure = streamFailureSchema.parse(JSON.parse(message.body));
        await repairStreamFailure(deps.streams, failure, batch);
      } catch (e) {
        batchItemFailures.push({ itemIdentifier: message.messageId });
        (deps.log ?? ((_level, msg, data) => console.error(JSON.stringify({ level: 'error', msg, ...data }))))('error', 'stream repair failed', {
          messageId: message.messageId,
          error: (e as Error).message,
        });
      }
    }
    return { batchItemFailures };
  };
}

let fromEnv: ((event: DynamoDBStreamEvent | SQSEvent) => Promise<DynamoDBBatchResponse | SQSBatchResponse>) | undefined;

export const handler = (event: DynamoDBStreamEvent | SQSEvent): Promise<DynamoDBBatchResponse | SQSBatchResponse> => {
  if (!fromEnv) {
    const { client, tableName } = tableFromEnv(process.env);
    fromEnv = createProjectorHandler({
      readModels: new ReadModelStore(client, tableName),
      queue: SqsNotifyQueue.fromEnv(process.env),
      streams: new DynamoDBStreamsClient({}),
    });
  }
  return fromEnv(event);
};
