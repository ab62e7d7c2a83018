import '../../functions/quiet-sdk.js';
import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../../functions/store/dynamodb-local.js';
import { ensureWebBuild } from '../../functions/local/web-client.js';
import { bundleScripts } from './script-bundles.js';

let shared: { users: number; started: Promise<Awaited<ReturnType<typeof startDynamoLocal>>>; scripts: ReturnType<typeof bundleScripts> } | undefined;

/**
 * One DynamoDB Local for the whole test run, shared by both test projects (vitest.config.ts);
 * each test file makes its own table.
 */
export default async function setup(project: TestProject) {
  // The web client's build (web/dist): the browser, bundle-size and CDK tests read it. Built
  // once here when missing or older than its sources, so `npm ci && npm test` works on a fresh clone.
  shared ??= { users: 0, started: ensureWebBuild().then(() => startDynamoLocal()), scripts: bundleScripts() };
  shared.users++;
  const dynamo = await shared.started;
  project.provide('dynamoEndpoint', dynamo.endpoint);
  // The CLI and the verifier, bundled once for every test that runs them (tests/support/run-script.ts).
  const scripts = await shared.scripts;
  project.provide('scriptBundles', scripts.files);
  return async () => {
    if (shared && --shared.users === 0) {
      shared = undefined;
      scripts.remove();
      await dynamo.stop();
    }
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    scriptBundles: Record<string, string>;
  }
}
