import { defineConfig } from 'vitest/config';

// End-to-end tests start real gw processes and local provider servers; on a
// 2-core machine they need more than vitest's 5 s default.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Writes the README's compatibility matrix from the cells the client tests record.
    globalSetup: ['test/support/compat-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
