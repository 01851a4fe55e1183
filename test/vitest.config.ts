import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['test/**/*.test.ts'],
    // Real servers and real builds: generous per-test limits, never assertions on time.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
