import { z } from 'zod';
import type { Db } from '../../db/schema.js';
import type { Jobs } from './jobs.js';
import type { Schedules } from './schedules.js';

export const HOUSEKEEPING_JOB = 'platform.housekeeping';
/** Finished jobs and fired slots are kept this long (a job's owner can read its result meanwhile). */
export const KEEP_FINISHED_DAYS = 30;

/**
 * The platform's own schedule: every night, finished jobs and fired schedule slots past their keeping time go, so
 * the job tables stay the size of a month's work. A slot row older than every schedule's last slot is never read.
 */
export function registerHousekeeping(jobs: Jobs, schedules: Schedules, db: Db): void {
  jobs.register(HOUSEKEEPING_JOB, {
    payload: z.object({ slot: z.string() }),
    maxAttempts: 2,
    async run(payload) {
      const before = new Date(Date.parse(payload.slot) - KEEP_FINISHED_DAYS * 86_400_000).toISOString();
      const removedJobs = await db.deleteFrom('job')
        .where('status', 'in', ['succeeded', 'failed', 'cancelled']).where('finished_at', '<', before)
        .executeTakeFirst();
      const removedSlots = await db.deleteFrom('job_schedule_slot').where('slot_at', '<', before).executeTakeFirst();
      return { jobs: Number(removedJobs.numDeletedRows), slots: Number(removedSlots.numDeletedRows) };
    },
  });
  schedules.register({ name: HOUSEKEEPING_JOB, cron: '17 3 * * *', timeZone: 'UTC', job: HOUSEKEEPING_JOB, payload: (slot) => ({ slot }) });
}
