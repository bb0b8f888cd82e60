import { FINISHED_JOB_STATUSES, type JobView } from '@bolx/contracts';
import { baseApi } from './base-api';
import { hubEvents, type HubEventBus } from '../hub/hub-events';

/** A background job's status (its owner's): what a progress card reads when the hub may have missed an event. */
export const jobsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getJob: build.query<JobView, number>({
      query: (jobId) => ({ url: 'Common/Job/GetJob', params: { jobId } }),
      keepUnusedDataFor: 0,
    }),
    /** Cancels a job that has not started (409 once it runs: its work is all or nothing, and goes on). */
    cancelJob: build.mutation<{ message: string; data: JobView }, number>({
      query: (jobId) => ({ url: 'Common/Job/CancelJob', method: 'POST', body: { jobId } }),
    }),
  }),
});

export interface FollowJobOptions {
  /** Each change of the job as it runs (progress), and its end. */
  onChange?: (job: JobView) => void;
  onDone: (job: JobView) => void;
  /** Reads the job now (the status API): at the start, and every `pollMs` in case the hub was down meanwhile. */
  fetchJob: (jobId: number) => Promise<JobView | undefined>;
  bus?: HubEventBus;
  pollMs?: number;
}

/**
 * Follows a job to its end: its hub events (ReceiveJobData, its owner's only) as they come, and the status API now
 * and then, since events sent while the connection was down are not replayed. `onDone` runs once. Returns a stop.
 */
export function followJob(jobId: number, opts: FollowJobOptions): () => void {
  const bus = opts.bus ?? hubEvents;
  let over = false;
  const seen = (job: JobView) => {
    if (over || job.jobId !== jobId) return;
    if (!FINISHED_JOB_STATUSES.includes(job.status)) {
      opts.onChange?.(job);
      return;
    }
    stop();
    opts.onDone(job);
  };
  const off = bus.on('ReceiveJobData', (event) => seen(event.payload));
  const offResync = bus.onResync(() => void poll());
  const poll = async () => {
    try {
      const job = await opts.fetchJob(jobId);
      if (job) seen(job);
    } catch {
      // the next poll, or the hub, tells
    }
  };
  const timer = setInterval(() => void poll(), opts.pollMs ?? 3000);
  function stop() {
    over = true;
    off();
    offResync();
    clearInterval(timer);
  }
  void poll();
  return stop;
}
