export { Jobs, jobView, DEFAULT_WORKER_OPTIONS, type JobContext, type JobHandler, type EnqueueOptions, type JobRow, type WorkerOptions } from './jobs.js';
export { Schedules, type ScheduleDefinition } from './schedules.js';
export { parseCron, previousSlot, nextSlot } from './cron.js';
export { exactlyOnce } from './once.js';
export { registerHousekeeping, HOUSEKEEPING_JOB, KEEP_FINISHED_DAYS } from './housekeeping.js';
