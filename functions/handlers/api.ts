import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { engineCatalog } from '../engine-catalog.js';
import { authenticatorFromEnv } from '../http/auth.js';
import { createApi } from '../http/api.js';
import type { ApiHandler } from '../http/router.js';

/**
 * Lambda entry for HTTP events in payload format 2.0 (a function URL, or API Gateway HTTP API). Built once per container:
 * env → DynamoDB client → store → service → router. /local/token is never served here.
 */
function fromEnv(env: NodeJS.ProcessEnv): ApiHandler {
  const tableName = env['TABLE_NAME'];
  if (!tableName) throw new Error('TABLE_NAME is not set');
  const endpoint = env['DYNAMODB_ENDPOINT'];
  const client = new DynamoDBClient(endpoint ? { endpoint } : {});
  return createApi({ client, tableName, engines: engineCatalog, authenticate: authenticatorFromEnv(env) }).handler;
}

export const handler: ApiHandler = fromEnv(process.env);
