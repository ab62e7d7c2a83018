import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { SqsNotifyQueue } from '../notify/queue.js';
import { tableFromEnv } from '../notify/wiring.js';
import { ReadModelStore } from '../projections/read-model-store.js';
import { processStreamRecords, type StreamDeps } from '../projections/stream.js';

/**
 * DynamoDB Streams → read models (inbox, lobby, summaries) + notification jobs on SQS.
 * Reports partial batch failures (the event source mapping needs
 * FunctionResponseTypes: ['ReportBatchItemFailures']); a filter on sk = HEAD keeps the
 * other records away, though they are ignored here anyway.
 */
export function createProjectorHandler(deps: StreamDeps) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const r = await processStreamRecords(event.Records, deps);
    return { batchItemFailures: r.batchItemFailures };
  };
}

let fromEnv: ((event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>) | undefined;

export const handler = (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  if (!fromEnv) {
    const { client, tableName } = tableFromEnv(process.env);
    fromEnv = createProjectorHandler({ readModels: new ReadModelStore(client, tableName), queue: SqsNotifyQueue.fromEnv(process.env) });
  }
  return fromEnv(event);
};
