import { defineConfig } from 'vitest/config';

// In CI, .ci/run sets FIELDPOST_TEST_REPORT so it can print a plain "N passed, N failed" line.
const report = process.env.FIELDPOST_TEST_REPORT;

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
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
  },
});
