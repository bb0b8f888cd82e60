import { describe, expect, it, vi } from 'vitest';
import type { JobView } from '@bolx/contracts';
import { createHubEventBus } from '../hub/hub-events';
import { followJob } from './jobs-api';

const job = (jobId: number, status: JobView['status'], extra: Partial<JobView> = {}): JobView => ({
  jobId, name: 'upload.locations', status, progress: { done: 0, total: null, message: null, percent: null }, attempts: 1, maxAttempts: 3,
  warehouseId: 1, customerId: null, ownerUserId: 7, result: null, error: null, createdAt: '', startedAt: null, finishedAt: null, ...extra,
});

describe('followJob', () => {
  it('ends once on the job’s own finishing event, ignoring other jobs’; progress goes to onChange', async () => {
    const bus = createHubEventBus();
    const onDone = vi.fn();
    const onChange = vi.fn();
    followJob(5, { bus, onDone, onChange, fetchJob: async () => job(5, 'queued'), pollMs: 60_000 });
    await Promise.resolve();
    bus.emit('ReceiveJobData', { subEvent: 'JobSucceeded', payload: job(6, 'succeeded') });
    bus.emit('ReceiveJobData', { subEvent: 'JobProgress', payload: job(5, 'running') });
    expect(onDone).not.toHaveBeenCalled();
    bus.emit('ReceiveJobData', { subEvent: 'JobSucceeded', payload: job(5, 'succeeded', { result: { message: 'ok' } }) });
    bus.emit('ReceiveJobData', { subEvent: 'JobSucceeded', payload: job(5, 'succeeded') });
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(onDone.mock.calls[0][0].result).toEqual({ message: 'ok' });
    expect(onChange.mock.calls.map((c) => c[0].status)).toEqual(['queued', 'running']);
  });

  it('learns the end from the status API when the hub missed it (a job already finished)', async () => {
    const bus = createHubEventBus();
    const onDone = vi.fn();
    followJob(5, { bus, onDone, fetchJob: async () => job(5, 'failed', { error: { status: 422, message: 'bad rows' } }), pollMs: 60_000 });
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(onDone.mock.calls[0][0].error.message).toBe('bad rows');
  });
});
