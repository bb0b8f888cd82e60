import { useCallback, useEffect, useRef, useState } from 'react';
import type { JobView } from '@bolx/contracts';
import { followJob, jobsApi } from '../../../lib/api/jobs-api';
import { floorApi } from '../../../lib/api/floor-api';
import { useAppStore } from '../../../lib/hooks';
import { runOf, type AllocationRun } from '../floor-model';

/** The run this tab follows, so coming back to /BatchAllocation picks its card up again (the job goes on meanwhile). */
const FOLLOWED_JOB_KEY = 'bolx.batchAllocation.jobId';

const remember = (jobId: number | null) => {
  try {
    if (jobId === null) sessionStorage.removeItem(FOLLOWED_JOB_KEY);
    else sessionStorage.setItem(FOLLOWED_JOB_KEY, String(jobId));
  } catch {
    // storage refused (private mode): the card just is not resumed
  }
};
const remembered = (): number | null => {
  try {
    const id = Number(sessionStorage.getItem(FOLLOWED_JOB_KEY));
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
};

/**
 * Follows one batch allocation job (over the hub's ReceiveJobData, and the job status API when events may have
 * been missed) into its progress card's state; when it ends, the lists that show orders are fetched again.
 */
export function useAllocationRun() {
  const store = useAppStore();
  const [run, setRun] = useState<AllocationRun | null>(null);
  const stop = useRef<(() => void) | null>(null);

  const fetchJob = useCallback(async (jobId: number) => {
    const read = store.dispatch(jobsApi.endpoints.getJob.initiate(jobId, { subscribe: false, forceRefetch: true }));
    return (await read).data;
  }, [store]);

  const follow = useCallback((job: JobView) => {
    stop.current?.();
    setRun(runOf(job));
    remember(job.jobId);
    stop.current = followJob(job.jobId, {
      fetchJob,
      onChange: (j) => setRun(runOf(j)),
      onDone: (j) => {
        setRun(runOf(j));
        remember(null);
        store.dispatch(floorApi.util.invalidateTags([{ type: 'Order', id: 'LIST' }]));
      },
    });
  }, [fetchJob, store]);

  useEffect(() => {
    const jobId = remembered();
    if (jobId !== null) void fetchJob(jobId).then((job) => job && follow(job), () => remember(null));
    return () => stop.current?.();
  }, [fetchJob, follow]);

  const dismiss = useCallback(() => {
    stop.current?.();
    stop.current = null;
    remember(null);
    setRun(null);
  }, []);

  return { run, follow, dismiss };
}
