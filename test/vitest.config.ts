import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['test/**/*.test.ts'],
    // The command line compiled once before the tests that start it (compile-cli.setup.ts).
    globalSetup: ['test/compile-cli.setup.ts'],
    // Real servers and real builds: generous per-test limits, never assertions on time.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
