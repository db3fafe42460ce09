// One vitest run for every kind of test. The global setup starts DynamoDB Local, fauxqs and the local
// runtime once; worker-env points each test worker's SDK clients and config at them.
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/setup/sequencer.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'sdk/typescript/test/**/*.test.ts'],
    globalSetup: ['test/setup/global-setup.ts'],
    setupFiles: ['test/setup/worker-env.ts'],
    pool: 'forks',
    // Four files at a time whatever the core count (vitest's default is one fewer than the cores: a
    // single worker on two). Most of a file's time is waiting — on the shared runtime, a runtime of
    // its own starting or restarting, a lease, a retry schedule, a rate-limit window — and files never
    // share records (each registers its own agents, each client sends from its own address).
    maxWorkers: 4,
    sequence: { sequencer: LongestFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
