import { TransactionCanceledException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The document client every store here writes through: attributes left undefined are not written. */
export const documentClient = (client: DynamoDBClient): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });

/** Whether a write was refused by its condition (alone, or as one item of a transaction). */
export function isConditionFailure(e: unknown): boolean {
  if (e instanceof TransactionCanceledException) return (e.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed');
  return (e as { name?: string } | null)?.name === 'ConditionalCheckFailedException';
}
