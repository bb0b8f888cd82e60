import { ERROR_CODES, STAFF_ROLES, type PickJobDetail } from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { AppError, conflict, notFound, unprocessable } from '../../platform/errors.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import { Scope } from '../../platform/scope.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import type { OrderRelease } from './order-release.js';
import { readJobDetail, wavesRepository as repo, type JobFilterValues } from './waves.repository.js';
import { jobChange, toJobSummary, toWaveSummary, waveChange } from './wave-views.js';

const n = (v: unknown) => Number(v);

/**
 * Pick jobs: the list (a picker's own with `mine`), one job with its totes and walking path, assigning and taking
 * jobs (one conditional UPDATE decides who gets a job, so two pickers never share one), totes for its orders, and
 * cancelling a job no one has picked from. Every change of a job is recorded with UpdateJob.
 */
export class PickJobService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly statuses: StatusMachine;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder'>, private readonly release: OrderRelease) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.statuses = new StatusMachine(deps);
  }

  async list(principal: Principal, req: ListRequest<JobFilterValues & { mine?: boolean }>) {
    const { mine, ...filters } = req.filters ?? {};
    const own = mine ? { assignedTo: principal.userId ?? -1 } : {};
    return toListPage(await repo.listJobs(this.db, this.dialect, principal.scope, { ...req, filters: { ...filters, ...own } }), toJobSummary);
  }

  async get(principal: Principal, jobId: number): Promise<PickJobDetail> {
    const job = await readJobDetail(this.db, principal.scope, jobId, principal.userId);
    if (!job) throw notFound('Pick job');
    return job;
  }

  /** A job's detail read in the caller's transaction, whatever the scope (picking answers with it after a pick); lastPick is the user's. */
  async detailWithin(db: Executor, jobId: number, userId: number | null): Promise<PickJobDetail> {
    const job = await readJobDetail(db, Scope.everything, jobId, userId);
    if (!job) throw notFound('Pick job');
    return job;
  }

  /** A supervisor assigns a job to a picker of its warehouse, or (no user) gives it back to Open; only before picking starts. */
  async assign(principal: Principal, input: { jobId: number; userId?: number }, actor: Actor) {
    const job = await this.owned(principal, input.jobId);
    const user = input.userId ? await repo.userOfWarehouse(this.db, input.userId, n(job.warehouse_id), STAFF_ROLES) : undefined;
    if (input.userId && !user) throw unprocessable('This user does not work in the job’s warehouse', { userId: 'This user does not work in the job’s warehouse' });
    const detail = await inTransaction(this.db, async (uow) => {
      await this.statuses.transition(uow, actor, {
        kind: 'PICK_JOB', id: input.jobId, to: user ? 'Assigned' : 'Open', from: ['Open', 'Assigned'],
        set: { assigned_to: user ? n(user.id) : null, updated_at: new Date().toISOString() },
        refusal: (status) => `Pick job is ${status}; only an Open or Assigned job can be assigned`,
      });
      return this.recordJob(uow, actor, input.jobId, user ? 'assign' : 'unassign', { status: job.status, assignedTo: job.assigned_to });
    });
    return { message: user ? `${detail.jobNumber} is assigned to ${user.username}` : `${detail.jobNumber} is open for any picker`, data: detail };
  }

  /**
   * The caller's next job in a warehouse: their own Assigned job first, else the most urgent, oldest Open one, taken
   * by one conditional UPDATE (Open → Assigned to the caller). A picker who loses a job to another at the same moment
   * takes the next. 404 when no job is waiting.
   */
  async takeNext(principal: Principal, input: { warehouseId: number }, actor: Actor) {
    principal.scope.assert({ warehouseId: input.warehouseId });
    const userId = principal.userId;
    const detail = await inTransaction(this.db, async (uow) => {
      const own = await repo.ownAssigned(uow.tx, input.warehouseId, userId);
      if (own) return (await readJobDetail(uow.tx, Scope.everything, n(own.id), principal.userId))!;
      const tried: number[] = [];
      for (;;) {
        const next = await repo.nextOpen(uow.tx, input.warehouseId, tried);
        if (!next) throw new AppError(404, ERROR_CODES.NOT_FOUND, 'No pick job is waiting');
        const taken = await this.statuses.transition(uow, actor, {
          kind: 'PICK_JOB', id: n(next.id), to: 'Assigned', from: ['Open'], ifPossible: true,
          set: { assigned_to: userId, updated_at: new Date().toISOString() },
        });
        if (taken) return this.recordJob(uow, actor, n(next.id), 'take', { status: 'Open', assignedTo: null });
        tried.push(n(next.id));
      }
    });
    return { message: `${detail.jobNumber} is yours`, data: detail };
  }

  /**
   * Totes for a job's orders, by slot: each a tote location of the job's warehouse, active, empty, not the tote of
   * another live job (nor of another slot of this one), named once. 422 naming `totes[i].toteCode`; nothing is written.
   */
  async assignTotes(principal: Principal, input: { jobId: number; totes: { slot: number; toteCode: string }[] }, actor: Actor) {
    const job = await this.owned(principal, input.jobId);
    const detail = await inTransaction(this.db, async (uow) => {
      await this.statuses.hold(uow, {
        kind: 'PICK_JOB', id: input.jobId, in: ['Open', 'Assigned', 'In Progress'], set: { updated_at: new Date().toISOString() },
        refusal: (status) => `Pick job is ${status}; totes are set before it is done`,
      });
      const slots = await repo.jobOrders(uow.tx, input.jobId);
      const codes = [...new Set(input.totes.map((t) => t.toteCode))];
      const found = new Map((await repo.totes(uow.tx, n(job.warehouse_id), codes, input.jobId)).map((l) => [l.code.toUpperCase(), l]));
      const renamed = new Set(input.totes.map((t) => t.slot));
      const keptTotes = new Map(slots.filter((s) => s.tote_location_id != null && !renamed.has(n(s.slot))).map((s) => [n(s.tote_location_id), n(s.slot)]));
      const details: Record<string, string> = {};
      const seenCodes = new Map<string, number>();
      const seenSlots = new Set<number>();
      const chosen: { slot: number; locationId: number }[] = [];
      input.totes.forEach((t, i) => {
        const at = `totes.${i}`;
        const code = t.toteCode.toUpperCase();
        const tote = found.get(code);
        if (!slots.some((s) => n(s.slot) === t.slot)) details[`${at}.slot`] = `The job has no slot ${t.slot}`;
        else if (seenSlots.has(t.slot)) details[`${at}.slot`] = `Slot ${t.slot} is named twice`;
        else if (seenCodes.has(code)) details[`${at}.toteCode`] = `Tote ${t.toteCode} is named twice (slot ${seenCodes.get(code)})`;
        else if (!tote) details[`${at}.toteCode`] = `No location ${t.toteCode} in this warehouse`;
        else if (tote.type !== 'tote') details[`${at}.toteCode`] = `Location ${tote.code} is not a tote`;
        else if (n(tote.is_active) !== 1) details[`${at}.toteCode`] = `Tote ${tote.code} is inactive`;
        else if (n(tote.on_hand) > 0) details[`${at}.toteCode`] = `Tote ${tote.code} is not empty`;
        else if (tote.busy_in) details[`${at}.toteCode`] = `Tote ${tote.code} is in use by ${tote.busy_in}`;
        else if (keptTotes.has(n(tote.id))) details[`${at}.toteCode`] = `Tote ${tote.code} is already the tote of slot ${keptTotes.get(n(tote.id))}`;
        else chosen.push({ slot: t.slot, locationId: n(tote.id) });
        seenSlots.add(t.slot);
        if (!seenCodes.has(code)) seenCodes.set(code, t.slot);
      });
      if (Object.keys(details).length) throw unprocessable(Object.values(details)[0], details);
      const before = slots.map((s) => ({ slot: n(s.slot), toteCode: s.tote_code }));
      await repo.setTotes(uow.tx, input.jobId, chosen);
      return this.recordJob(uow, actor, input.jobId, 'assign-totes', { totes: before }, { totes: input.totes });
    });
    return { message: `Totes set for ${detail.jobNumber}`, data: detail };
  }

  /**
   * Cancels a job no one has picked from (Open or Assigned). Its orders that are in no other live job go back to
   * what their lines hold; when every job of the wave is cancelled, so is the wave.
   */
  async cancel(principal: Principal, input: { jobId: number; reason?: string }, actor: Actor) {
    const job = await this.owned(principal, input.jobId);
    const reason = input.reason ?? null;
    const detail = await inTransaction(this.db, async (uow) => {
      await this.statuses.transition(uow, actor, {
        kind: 'PICK_JOB', id: input.jobId, to: 'Cancelled', from: ['Open', 'Assigned'], reason, set: { updated_at: new Date().toISOString() },
        refusal: (status) => `Pick job is ${status}; only an Open or Assigned job can be cancelled`,
      });
      if (await repo.jobPickStarted(uow.tx, input.jobId)) throw conflict('Picking has started on this job: it can no longer be cancelled');
      const freed = await repo.ordersFreedBy(uow.tx, [input.jobId]);
      const changes = await this.release.takeBack(uow, actor, freed.map((o) => n(o.id)), reason);
      const waveId = n(job.wave_id);
      const jobs = await repo.jobsOfWave(uow.tx, waveId);
      if (jobs.every((j) => j.status === 'Cancelled')) {
        const wave = await this.statuses.transition(uow, actor, { kind: 'WAVE', id: waveId, to: 'Cancelled', from: ['Open'], reason, ifPossible: true, set: { updated_at: new Date().toISOString() } });
        if (wave) changes.push(waveChange(toWaveSummary((await repo.findWave(uow.tx, Scope.everything, waveId))!), 'cancel', 'UpdateWave', { status: 'Open' }));
      }
      if (changes.length) await this.recorder.record(uow, actor, ...changes);
      return this.recordJob(uow, actor, input.jobId, 'cancel', { status: job.status }, reason ? { reason } : undefined);
    });
    return { message: `${detail.jobNumber} is cancelled`, data: detail };
  }

  /** A job in the caller's warehouses (404 otherwise). */
  private async owned(principal: Principal, jobId: number) {
    const job = await repo.findJob(this.db, principal.scope, jobId);
    if (!job) throw notFound('Pick job');
    return job;
  }

  /** Records a job's change (audit + UpdateJob) and answers its detail as it now is. */
  private async recordJob(uow: UnitOfWork, actor: Actor, jobId: number, action: string, before?: unknown, extra?: Record<string, unknown>) {
    const detail = (await readJobDetail(uow.tx, Scope.everything, jobId, actor.userId))!;
    const { totes: _t, stops: _s, lastPick: _l, ...summary } = detail;
    await this.recorder.record(uow, actor, jobChange(summary, action, before, extra));
    return detail;
  }
}
