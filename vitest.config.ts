// One vitest run for every kind of test. The global setup starts DynamoDB Local, fauxqs and the local
// runtime once; worker-env points each test worker's SDK clients and config at them.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'sdk/typescript/test/**/*.test.ts'],
    globalSetup: ['test/setup/global-setup.ts'],
    setupFiles: ['test/setup/worker-env.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
