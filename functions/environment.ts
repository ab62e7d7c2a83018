import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Clock } from './ports.js';

/**
 * What every handler takes from its environment, in a module of its own: a handler that only
 * needs the table (the projector, the scheduler, the digest) loads none of the notifier's code.
 */
export type Env = Readonly<Record<string, string | undefined>>;

/** The wall clock, as ISO-8601 UTC. */
export const systemClock: Clock = { now: () => new Date().toISOString() };

/** The table client the handlers use: DYNAMODB_ENDPOINT points it at DynamoDB Local (whose dummy credentials never leave the machine). */
export function tableFromEnv(env: Env): { client: DynamoDBClient; tableName: string } {
  const tableName = env['TABLE_NAME'];
  if (!tableName) throw new Error('TABLE_NAME is not set');
  const endpoint = env['DYNAMODB_ENDPOINT'];
  const client = endpoint
    ? new DynamoDBClient({ endpoint, region: env['AWS_REGION'] ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } })
    : new DynamoDBClient({});
  return { client, tableName };
}
