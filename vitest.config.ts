import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/support/longest-first-sequencer.js';

// Two tiers (docs/testing.md). unit: everything outside test/e2e/, in-process only; its
// setup file makes starting a process or listening on a port throw. e2e: real gw processes,
// local provider servers, redis, PostgreSQL, Chromium and the coding tools. On a 2-core
// machine the e2e tests need more than vitest's 5 s default.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // Longest files first (test/support/file-durations.json), so no long file starts last and leaves a worker idle.
    sequence: { sequencer: LongestFirstSequencer },
    // The flaky reporter names every e2e test that passed only on its retry (below).
    reporters: ['default', './test/support/flaky-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/e2e/**'],
          setupFiles: ['test/support/unit-tier-setup.ts'],
          // One module graph per worker instead of one per file: halves the tier's CPU time.
          // Unit tests leave no global behind (timers, env, mocks), so nothing leaks between files.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // Each file in its own fork. Without isolation (one module graph per worker, as in the unit tier)
          // the run took 810 s instead of ~900, but a file's late work reached the next file: a login-code wait
          // rejected 15 s after its file ended, an unhandled error that fails the whole run whatever the retry.
          // The setup file still fails a file that leaves a process, a server, the environment or the working
          // folder behind (test/support/e2e-file-guard.ts), for the day isolation goes again.
          isolate: true,
          setupFiles: ['test/support/e2e-tier-setup.ts'],
          // One retry: real processes on a loaded 2-core machine sometimes miss a moment. A test that passes only
          // on its retry is listed at the end of the run and in test-results/flaky.txt (test/support/flaky-reporter.ts).
          retry: 1,
          // Clears the compatibility cells the client tests record (npm run compat writes docs/compatibility.md from them);
          // stops the PostgreSQL servers the workers shared (one per worker, test/support/database-servers.ts).
          globalSetup: ['test/support/compat-global-setup.ts', 'test/support/database-servers-global-setup.ts'],
        },
      },
    ],
  },
});
