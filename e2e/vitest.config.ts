import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['specs/**/*.spec.ts'],
    // One browser at a time on a 2-core machine; each file starts its own server on its own database.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // What a browser screen shows arrives with its chunk and its data: on a busy 2-core machine that can take more than
    // expect.poll's 1 s default, which made journeys fail on timing alone.
    expect: { poll: { timeout: 10_000 } },
    // In CI the journeys share 2 cores with the PostgreSQL suite; a journey that lost a wait to load alone gets one more
    // attempt (as Playwright's own runner does in CI). A real defect fails both attempts.
    retry: process.env.CI ? 1 : 0,
    setupFiles: ['support/report-failed-attempts.ts'],
  },
});
