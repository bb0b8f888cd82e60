import {
  JOB_BOARD_STATUSES, JOB_DONE_SHOWN_HOURS, JOB_STUCK_IDLE_MINUTES, JOB_STUCK_WAITING_MINUTES, type JobBoardGroup, type JobBoardStatus,
  type FloorTask, type FloorTaskKind, type JobTrackingRequest, type JobTrackingResult, type PickJobStatus, type TrackedJob,
} from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { jobTrackingRepository as repo, type RawTask } from './job-tracking.repository.js';

const MINUTE_MS = 60_000;
const n = (v: unknown) => Number(v ?? 0);
const minutesBetween = (from: string, to: number) => Math.max(0, Math.floor((to - Date.parse(from)) / MINUTE_MS));

/** Why a job is stuck at `now`, or null: in progress without a pick for too long, or waiting unstarted for too long. */
export function stuckReason(job: { status: string; createdAt: string; startedAt: string | null; lastActivityAt: string | null }, now: number): string | null {
  if (job.status === 'In Progress') {
    const idle = minutesBetween(job.lastActivityAt ?? job.startedAt ?? job.createdAt, now);
    return idle >= JOB_STUCK_IDLE_MINUTES ? `No pick for ${idle} min` : null;
  }
  if (job.status === 'Open' || job.status === 'Assigned') {
    const waiting = minutesBetween(job.createdAt, now);
    return waiting >= JOB_STUCK_WAITING_MINUTES ? `Not started after ${waiting} min` : null;
  }
  return null;
}

/** A pick job on the one task list: open and assigned jobs are not started, short ones still being worked. */
function pickJobTask(j: TrackedJob): FloorTask {
  const status = j.status === 'Done' ? 'Done' : j.status === 'In Progress' || j.status === 'Short' ? 'In Progress' : 'Open';
  return {
    kind: 'pick', documentId: j.jobId, reference: j.jobNumber, warehouseId: j.warehouseId, customerId: null, status, who: j.pickerName, createdAt: j.createdAt,
    startedAt: j.startedAt, finishedAt: j.finishedAt, lastActivityAt: j.lastActivityAt, durationMinutes: duration(j.startedAt, j.finishedAt, Date.parse(j.createdAt) + j.ageMinutes * MINUTE_MS),
    late: null, stuck: j.stuck, stuckReason: j.stuckReason,
  };
}
/** Start to finish, or to `now` while it runs; null before it starts. */
const duration = (startedAt: string | null, finishedAt: string | null, now: number) => (startedAt ? minutesBetween(startedAt, finishedAt ? Date.parse(finishedAt) : now) : null);
/** Tasks waiting to start that someone should pick up soon (a receipt or an RMA waits for its goods instead). */
const PROMPT_KINDS = new Set<FloorTaskKind>(['replenish', 'kit', 'count']);

/** A task as the list shows it: its duration, whether it is late (past its date) and whether it is stuck (as pick jobs are). */
export function floorTaskOf(r: RawTask, now: number): FloorTask {
  let stuck: string | null = null;
  if (r.status === 'In Progress') {
    const idle = minutesBetween(r.last_at ?? r.started_at ?? r.created_at, now);
    if (idle >= JOB_STUCK_IDLE_MINUTES) stuck = `No step for ${idle} min`;
  } else if (r.status === 'Open' && PROMPT_KINDS.has(r.kind)) {
    const waiting = minutesBetween(r.created_at, now);
    if (waiting >= JOB_STUCK_WAITING_MINUTES) stuck = `Not started after ${waiting} min`;
  }
  const today = new Date(now).toISOString().slice(0, 10);
  const late = r.status !== 'Done' && r.due && r.due.slice(0, 10) < today ? `${r.kind === 'rma-receipt' ? 'Expired' : 'Expected'} ${r.due.slice(0, 10)}` : null;
  return {
    kind: r.kind, documentId: r.id, reference: r.reference, warehouseId: r.warehouse_id, customerId: r.customer_id, status: r.status, who: r.who,
    createdAt: r.created_at, startedAt: r.started_at, finishedAt: r.finished_at, lastActivityAt: r.last_at, durationMinutes: duration(r.started_at, r.finished_at, now),
    late, stuck: stuck !== null, stuckReason: stuck,
  };
}

const emptyGroup = (key: string): JobBoardGroup => ({ key, jobs: Object.fromEntries(JOB_BOARD_STATUSES.map((s) => [s, 0])) as Record<JobBoardStatus, number>, units: 0, unitsPicked: 0, stuck: 0 });

/** Jobs counted per board column, with their units and stuck jobs, per key (picker, zone), sorted by key. */
function groupBy(jobs: TrackedJob[], keyOf: (j: TrackedJob) => string): JobBoardGroup[] {
  const groups = new Map<string, JobBoardGroup>();
  for (const j of jobs) {
    const key = keyOf(j);
    const g = groups.get(key) ?? emptyGroup(key);
    add(g, j);
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => a.key.localeCompare(b.key));
}
function add(g: JobBoardGroup, j: TrackedJob) {
  g.jobs[j.status as JobBoardStatus]++;
  g.units += j.units;
  g.unitsPicked += j.unitsPicked;
  if (j.stuck) g.stuck++;
}

const needsAction = (x: FloorTask) => x.stuck || x.late !== null;

/** The /JobTracking board: the floor's pick jobs by column, picker and zone, read live from the jobs and their tasks. */
export class JobTrackingService {
  private readonly db: Db;
  constructor(deps: Pick<ServiceDeps, 'db'>) {
    this.db = deps.db;
  }

  async board(principal: Principal, f: JobTrackingRequest, now = new Date()): Promise<JobTrackingResult> {
    // A client account is held to its own customer whatever it asks for (the scope refuses another with 403).
    const customerId = f.customerId || principal.customerId || undefined;
    principal.scope.assert({ warehouseId: f.warehouseId, customerId });
    const at = now.getTime();
    const rows = await repo.boardJobs(this.db, {
      scope: principal.scope, warehouseId: f.warehouseId || undefined, customerId, doneSince: new Date(at - JOB_DONE_SHOWN_HOURS * 3600_000).toISOString(),
    });
    const all = rows.map((r): TrackedJob => {
      const units = n(r.units);
      const lastActivityAt = r.last_pick_at ?? r.started_at ?? null;
      const job = { status: r.status, createdAt: r.created_at, startedAt: r.started_at ?? null, lastActivityAt };
      const reason = stuckReason(job, at);
      return {
        jobId: n(r.id), jobNumber: r.job_number, waveNumber: r.wave_number, warehouseId: n(r.warehouse_id), warehouseName: r.warehouse_name, zone: r.zone,
        status: r.status as PickJobStatus, pickerId: r.assigned_to == null ? null : n(r.assigned_to), pickerName: r.picker_name ?? null,
        lines: n(r.lines), linesPicked: n(r.lines_picked), units, unitsPicked: n(r.units_picked), unitsShort: n(r.units_short),
        progress: units ? Math.floor(((n(r.units_picked) + n(r.units_short)) / units) * 100) : 0,
        createdAt: r.created_at, startedAt: r.started_at ?? null, finishedAt: r.finished_at ?? null, lastActivityAt,
        ageMinutes: minutesBetween(r.created_at, r.finished_at ? Date.parse(r.finished_at) : at), stuck: reason !== null, stuckReason: reason,
      };
    });
    const jobs = all.filter((j) => (!f.statuses?.length || f.statuses.includes(j.status as JobBoardStatus))
      && (!f.pickerId || j.pickerId === f.pickerId) && (f.zone === undefined || (j.zone ?? '') === f.zone) && (!f.stuckOnly || j.stuck));
    const totals = emptyGroup('Total');
    for (const j of jobs) add(totals, j);
    const where = { scope: principal.scope, warehouseId: f.warehouseId || undefined, customerId, doneSince: new Date(at - JOB_DONE_SHOWN_HOURS * 3600_000).toISOString() };
    const others = (await repo.otherTasks(this.db, where)).map((r) => floorTaskOf(r, at));
    const tasks = [...all.map(pickJobTask), ...others]
      .filter((x) => (!f.kinds?.length || f.kinds.includes(x.kind)) && (!f.stuckOnly || x.stuck || x.late !== null))
      // What needs a supervisor first (stuck or late), then the newest: a busy day's finished work goes to the back.
      .sort((a, b) => Number(needsAction(b)) - Number(needsAction(a)) || b.createdAt.localeCompare(a.createdAt) || a.kind.localeCompare(b.kind) || a.documentId - b.documentId);
    return {
      jobs, tasks, totals, at: now.toISOString(),
      byPicker: groupBy(jobs, (j) => j.pickerName ?? '(unassigned)'),
      byZone: groupBy(jobs, (j) => j.zone ?? '(no zone)'),
    };
  }
}
