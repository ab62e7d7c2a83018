import { defineConfig } from 'vitest/config';
import { BUNDLE } from './infra/handler-function.js';

// In CI, .ci/run sets FIELDPOST_TEST_REPORT so it can print a plain "N passed, N failed" line.
const report = process.env.FIELDPOST_TEST_REPORT;

/**
 * The Lambda bundles swap the AWS SDK for the signed-fetch classes in functions/aws/
 * (BUNDLE.alias); these tests run a second time with that swap, against DynamoDB Local, so
 * the code Lambda runs is the code they check (call counts and injected faults included).
 */
const AS_BUNDLED = [
  'tests/store/dynamo-event-store.test.ts',
  'tests/store/tip-layout.test.ts',
  'tests/store/append-layout.test.ts',
  'tests/http/faults.test.ts',
  'tests/projections/project.test.ts',
  'tests/notify/lease.test.ts',
  'tests/notify/settings.test.ts',
  'tests/notify/sqs-queue.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['tests/support/global-setup.ts'],
    // Every reply from a local API is checked against its own OpenAPI document.
    setupFiles: ['tests/support/contract.ts'],
    // Two workers keep both cores busy (DynamoDB Local, chromium and the CLI's child processes wait
    // on I/O). Tests wait on conditions with generous bounds (tests/support/wait.ts), never on fixed
    // times: a busy machine makes them slower, not red.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report } } : {}),
    projects: [
      { extends: true, test: { name: 'node', include: ['tests/**/*.test.ts'] } },
      { extends: true, resolve: { alias: { ...BUNDLE.alias } }, test: { name: 'as-bundled', include: AS_BUNDLED } },
    ],
  },
});
