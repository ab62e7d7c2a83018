import '../../functions/quiet-sdk.js';
import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../../functions/store/dynamodb-local.js';
import { ensureWebBuild } from '../../functions/local/web-client.js';

/** One DynamoDB Local for the whole test run; each test file makes its own table. */
export default async function setup(project: TestProject) {
  // The web client's build (web/dist): the browser, bundle-size and CDK tests read it. Built
  // once here when missing or older than its sources, so `npm ci && npm test` works on a fresh clone.
  await ensureWebBuild();
  const dynamo = await startDynamoLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return async () => {
    await dynamo.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
