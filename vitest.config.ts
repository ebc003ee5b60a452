import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ once: the CLI tests and the pack test use the compiled CLI.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two workers on two cores: much of the suite waits on loopback sockets, not the CPU.
    maxWorkers: 2,
    // Concurrent tests share one event loop with the servers they check: keep the crowd small.
    maxConcurrency: 3,
    reporters: ['default'],
    sequence: { sequencer: SlowFirstSequencer },
  },
});
