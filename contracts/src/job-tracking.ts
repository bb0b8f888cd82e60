// /JobTracking (issue 17): the floor's pick jobs on one live board — open, assigned, in progress, short and done —
// by picker and zone, with progress (lines and units picked of the total), age, and the jobs that are stuck.
import { z } from 'zod';
import { field, INT_MAX } from './fields.js';
import { PICK_JOB_STATUSES } from './floor.js';

/** The board's columns, in the order a job moves through them (Cancelled jobs are not on the board). */
export const JOB_BOARD_STATUSES = ['Open', 'Assigned', 'In Progress', 'Short', 'Done'] as const;
export type JobBoardStatus = (typeof JOB_BOARD_STATUSES)[number];
/** A job in progress with no pick for this long is stuck (the picker left it, or cannot find the stock). */
export const JOB_STUCK_IDLE_MINUTES = 30;
/** An open or assigned job nobody has started for this long is stuck (no picker, or the picker is elsewhere). */
export const JOB_STUCK_WAITING_MINUTES = 120;
/** Done jobs stay on the board for this long after they finish. */
export const JOB_DONE_SHOWN_HOURS = 24;

/** Every kind of floor task on the one live list, besides pick jobs' own board. */
export const FLOOR_TASK_KINDS = ['receive', 'putaway', 'pick', 'pack', 'count', 'replenish', 'kit', 'rma-receipt'] as const;
export type FloorTaskKind = (typeof FLOOR_TASK_KINDS)[number];
export const FLOOR_TASK_KIND_LABELS: Record<FloorTaskKind, string> = {
  receive: 'Receive', putaway: 'Putaway', pick: 'Pick job', pack: 'Pack', count: 'Count', replenish: 'Replenishment', kit: 'Kit work order', 'rma-receipt': 'RMA receipt',
};
export const jobTrackingRequest = z.strictObject({
  warehouseId: field.int(0, INT_MAX).optional(),
  customerId: field.int(0, INT_MAX).optional(),
  /** Only these columns of the board (all when omitted). */
  statuses: z.array(z.enum(JOB_BOARD_STATUSES, { error: `Choose from: ${JOB_BOARD_STATUSES.join(', ')}` })).max(JOB_BOARD_STATUSES.length).optional(),
  /** Only one picker's jobs. */
  pickerId: field.int(0, INT_MAX).optional(),
  /** Only one zone's jobs ('' for jobs without a zone). */
  zone: field.text(16).optional(),
  stuckOnly: z.boolean().optional(),
  /** The task list: only these kinds (all when omitted). */
  kinds: z.array(z.enum(FLOOR_TASK_KINDS, { error: 'Not a task kind' })).max(FLOOR_TASK_KINDS.length).optional(),
});
export type JobTrackingRequest = z.input<typeof jobTrackingRequest>;

export const trackedJob = z.object({
  jobId: z.number().int(),
  jobNumber: z.string(),
  waveNumber: z.string(),
  warehouseId: z.number().int(),
  warehouseName: z.string(),
  zone: z.string().nullable(),
  status: z.enum(PICK_JOB_STATUSES),
  pickerId: z.number().int().nullable(),
  pickerName: z.string().nullable(),
  lines: z.number().int(),
  linesPicked: z.number().int(),
  units: z.number().int(),
  unitsPicked: z.number().int(),
  unitsShort: z.number().int(),
  /** Units picked or short of the total, as a whole percentage. */
  progress: z.number().int(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** The last pick of the job (or its start). */
  lastActivityAt: z.string().nullable(),
  /** Minutes from creation to now, or to its finish for a done job. */
  ageMinutes: z.number().int(),
  stuck: z.boolean(),
  stuckReason: z.string().nullable(),
});
export type TrackedJob = z.infer<typeof trackedJob>;

/** One picker's or zone's row of the board: jobs per column, units picked of the total, stuck jobs. */
export const jobBoardGroup = z.object({
  key: z.string(),
  jobs: z.record(z.enum(JOB_BOARD_STATUSES), z.number().int()),
  units: z.number().int(),
  unitsPicked: z.number().int(),
  stuck: z.number().int(),
});
export type JobBoardGroup = z.infer<typeof jobBoardGroup>;

export const FLOOR_TASK_STATUSES = ['Open', 'In Progress', 'Done'] as const;

/** One task of any kind: its document, who works it, where it stands, when it began and ended, and whether it is late or stuck. */
export const floorTask = z.object({
  kind: z.enum(FLOOR_TASK_KINDS),
  /** The task's document id (a pick job, an RO, a carton, a count, a replenishment task, a work order, an RMA). */
  documentId: z.number().int(),
  reference: z.string(),
  warehouseId: z.number().int(),
  customerId: z.number().int().nullable(),
  status: z.enum(FLOOR_TASK_STATUSES),
  who: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  lastActivityAt: z.string().nullable(),
  /** Start to finish (or to now while it runs), whole minutes; null before it starts. */
  durationMinutes: z.number().int().nullable(),
  /** Why it is late (past its expected or expiry date), or null. */
  late: z.string().nullable(),
  stuck: z.boolean(),
  stuckReason: z.string().nullable(),
});
export type FloorTask = z.infer<typeof floorTask>;

export const jobTrackingResult = z.object({
  jobs: z.array(trackedJob),
  /** Every task of every kind (pick jobs included), active or done within JOB_DONE_SHOWN_HOURS, oldest first. */
  tasks: z.array(floorTask),
  totals: jobBoardGroup,
  byPicker: z.array(jobBoardGroup),
  byZone: z.array(jobBoardGroup),
  /** When the board was read: ages are counted to it. */
  at: z.string(),
});
export type JobTrackingResult = z.infer<typeof jobTrackingResult>;
