import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests talk to a real database; keep logs quiet unless asked.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
  },
});
