import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run test:reliability`: the chaos test, the isolation matrix and the route fuzz (issue 19, item 5), on SQLite,
// or on PostgreSQL when TEST_DATABASE_URL is set. One file at a time: the chaos test wants the machine's cores.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['reliability/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    // Kills what a file's servers left running after its own teardown, and fails the file if there was any.
    setupFiles: ['test/teardown-started-processes.ts'],
    testTimeout: 420_000,
    hookTimeout: 120_000,
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
  },
});
