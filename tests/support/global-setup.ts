import '../../functions/quiet-sdk.js';
import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../../functions/store/dynamodb-local.js';

/** One DynamoDB Local for the whole test run; each test file makes its own table. */
export default async function setup(project: TestProject) {
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
