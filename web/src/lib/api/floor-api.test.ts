import { describe, expect, it } from 'vitest';
import type { PickJobSummary, WaveSummary } from '@bolx/contracts';
import { jobListChange, waveListChange } from './floor-api';

const wave = { waveId: 3, waveNumber: 'WAVE-000003', status: 'In Progress' } as WaveSummary;
const job = { jobId: 8, jobNumber: 'JOB-000008', waveId: 3, status: 'Assigned' } as PickJobSummary;

describe('the floor lists follow ReceiveWaveData', () => {
  it('upserts a wave from its own event, and reloads the waves when a job moves their counts', () => {
    expect(waveListChange({ subEvent: 'AddWave', payload: wave })).toEqual({ type: 'upsert', item: wave });
    expect(waveListChange({ subEvent: 'UpdateWave', payload: wave })).toEqual({ type: 'upsert', item: wave });
    expect(waveListChange({ subEvent: 'UpdateJob', payload: job })).toBe('reload');
    expect(waveListChange({ subEvent: 'UpdateWave', payload: null })).toBe('reload');
  });

  it('upserts a job from its event, and reloads the jobs when a wave is added or changed (its jobs come or go)', () => {
    expect(jobListChange({ subEvent: 'UpdateJob', payload: job })).toEqual({ type: 'upsert', item: job });
    expect(jobListChange({ subEvent: 'AddWave', payload: wave })).toBe('reload');
    expect(jobListChange({ subEvent: 'UpdateWave', payload: wave })).toBe('reload');
    expect(jobListChange({ subEvent: 'UpdateJob', payload: 'nonsense' })).toBe('reload');
  });
});
