import { beforeEach, onTestFailed } from 'vitest';

// A journey that passes on CI's retry is reported as passed, and its first attempt's error is lost; printed here,
// the CI log says what the first attempt ran into (a load-only wait, or a defect that shows now and then).
beforeEach(() => {
  onTestFailed(({ task }) => {
    const error = task.result?.errors?.[0];
    console.error(`FAILED ATTEMPT ${task.result?.retryCount ?? 0} of "${task.name}": ${error?.message ?? 'no error'}\n${error?.stack?.split('\n').slice(0, 6).join('\n') ?? ''}`);
  });
});
