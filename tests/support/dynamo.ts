import { inject } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { localClient } from '../../functions/store/dynamodb-local.js';
import { ensureTable } from '../../functions/store/table.js';

/** A fresh table on the run's DynamoDB Local, so test files never see each other's data. */
export async function freshTable(prefix = 't'): Promise<{ client: DynamoDBClient; tableName: string; endpoint: string }> {
  const endpoint = inject('dynamoEndpoint');
  const client = localClient(endpoint);
  const tableName = `${prefix}-${randomUUID().slice(0, 8)}`;
  await ensureTable(client, tableName);
  return { client, tableName, endpoint };
}
