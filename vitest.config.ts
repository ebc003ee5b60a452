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
    // Test files share their worker's module cache: importing the same modules afresh in every file
    // cost tens of seconds of CPU a run. Files that change process-wide state restore it
    // (test/model/explore-engines.test.ts's memo switches), and every file stops what it started.
    isolate: false,
    // Three workers on two cores: much of the suite waits on loopback sockets, not the CPU (the
    // checker's waits count only time it could attend to, src/wire/patient-timer.ts).
    maxWorkers: 3,
    // Concurrent tests share one event loop with the servers they check: keep the crowd small.
    maxConcurrency: 3,
    reporters: ['default'],
    sequence: { sequencer: SlowFirstSequencer },
  },
});
