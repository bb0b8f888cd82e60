import type { Generated } from 'kysely';
import type { Id, Timestamp } from '../column-types.js';

/** A background job (migration 0016): what to run, how far it got, who may see it, and which node holds it. */
export interface JobTable {
  id: Id; name: string; payload_json: string; status: Generated<string>;
  progress_done: Generated<number>; progress_total: number | null; progress_message: string | null;
  attempts: Generated<number>; max_attempts: Generated<number>; backoff_ms: Generated<number>; run_after: Generated<Timestamp>;
  owner_user_id: number | null; warehouse_id: number | null; customer_id: number | null;
  lock_owner: string | null; locked_until: Timestamp | null; result_json: string | null; error: string | null;
  created_at: Generated<Timestamp>; updated_at: Generated<Timestamp>; started_at: Timestamp | null; finished_at: Timestamp | null;
}
/** A schedule registered in code, with its last fired slot and the next one. */
export interface JobScheduleTable {
  name: string; cron: string; time_zone: string; job_name: string;
  last_slot_at: Timestamp | null; last_job_id: number | null; next_slot_at: Timestamp | null;
  created_at: Generated<Timestamp>; updated_at: Generated<Timestamp>;
}
/** One fired slot of a schedule: the row whose insert claims the slot for one node. */
export interface JobScheduleSlotTable {
  schedule_name: string; slot_at: Timestamp; job_id: number | null; node: string; created_at: Generated<Timestamp>;
}

export interface JobTables {
  job: JobTable;
  job_schedule: JobScheduleTable;
  job_schedule_slot: JobScheduleSlotTable;
}
