import { sql } from 'kysely';
import type { CheckPickScanResult, PickJobDetail, PickJobSummary, PickScanStep, ShortReason } from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import type { WarehouseTimeZones } from '../../platform/business-day.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { conflict, notFound, unprocessable } from '../../platform/errors.js';
import { jobPickEvents, standingPick, type FloorEvent, type FloorEvents } from '../../platform/floor-events.js';
import { count } from '../../platform/plural.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import type { ReservedMove, StockEngine } from '../../platform/stock/stock-engine.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import type { CycleCountService } from '../cycle-counts/cycle-counts.service.js';
import type { OrderService } from '../orders/orders.service.js';
import type { ScanService } from '../scans/scans.service.js';
import type { PickJobService } from '../waves/pick-jobs.service.js';
import type { WaveService } from '../waves/waves.service.js';
import { jobChange, waveChange } from '../waves/wave-views.js';
import { checkScan, expectationOf } from './pick-scans.js';
import { FINISHED_JOB_STATUSES, pickingRepository as repo, type StopTask } from './picking.repository.js';

const n = (v: unknown) => Number(v ?? 0);
/** A reservation's owner: the order line (document SO, its number, the line id), as allocation made it. */
const ownerOf = (soNumber: string, lineId: number) => ({ documentType: 'SO', documentId: soNumber, documentLine: String(lineId) });
const placeOf = (t: { warehouse_id: number; customer_id: number; sku_id: number; location_id: number; lot: string; pallet: string }) =>
  ({ warehouseId: t.warehouse_id, customerId: t.customer_id, skuId: t.sku_id, locationId: t.location_id, lot: t.lot, pallet: t.pallet });
const remainingOf = (t: StopTask) => n(t.quantity) - n(t.picked_qty) - n(t.short_qty);

type JobRow = NonNullable<Awaited<ReturnType<typeof repo.job>>>;
interface StopScans { locationCode: string; itemCode?: string; lot?: string }
/** Units taken from one task of a stop into its slot's tote. */
interface Take { task: StopTask; quantity: number }

/**
 * Picking (scan to confirm): each stop's scans checked (location, item, lot, tote), confirmed picks moving the
 * reserved units from the bin to the order's tote through the stock engine (the reservation moves with them), short
 * picks (the rest released, a spot count of the bin, the line allocated again elsewhere and appended to the job, or
 * left short), and undo of the caller's last pick. One transaction per request, which first takes the job's row:
 * two pickers on one job take turns, and each task is picked by one conditional statement, so nothing is picked twice.
 */
export class PickingService {
  private readonly db: Db;
  private readonly recorder: ChangeRecorder;
  private readonly timeZones: WarehouseTimeZones;
  private readonly statuses: StatusMachine;

  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder' | 'timeZones'>, private readonly parts: {
    stock: StockEngine; floorEvents: FloorEvents; scans: ScanService; cycleCounts: CycleCountService; orders: OrderService; pickJobs: PickJobService; waves: WaveService;
  }) {
    this.db = deps.db;
    this.recorder = deps.recorder;
    this.timeZones = deps.timeZones;
    this.statuses = new StatusMachine(deps);
  }

  /** Checks one scan of a stop; nothing is written. */
  async checkPickScan(principal: Principal, input: { jobId: number; stopSeq: number; step: PickScanStep; code: string }): Promise<CheckPickScanResult> {
    const job = await this.visibleJob(this.db, principal, input.jobId);
    const tasks = await this.stop(this.db, job.id, input.stopSeq);
    const items = input.step === 'item' ? await this.parts.scans.skuMatches(this.db, job.warehouse_id, input.code) : [];
    return checkScan(expectationOf(tasks), input.step, input.code, items);
  }

  /** Confirms a stop's pick: the scans checked again, the quantity shared over its open tasks in task order. */
  async confirmPick(principal: Principal, input: StopScans & { jobId: number; stopSeq: number; quantity: number }, actor: Actor) {
    return this.inJob(principal, input.jobId, actor, async (uow, job) => {
      const tasks = await this.stop(uow.tx, job.id, input.stopSeq);
      await this.assertScans(uow.tx, job, tasks, input, true);
      const need = tasks.filter((t) => t.status === 'Open').reduce((s, t) => s + remainingOf(t), 0);
      if (input.quantity > need) {
        throw unprocessable(need === 0 ? 'This stop is already picked' : `This stop needs ${count(need, 'more unit')}`, { quantity: `At most ${need}` });
      }
      await this.pick(uow, actor, job, tasks, input.quantity);
      return `Picked ${count(input.quantity, 'unit')} of ${tasks[0].sku_code} at ${tasks[0].location_code}`;
    });
  }

  /**
   * A short pick: the units found are picked, the rest of the stop's tasks is short. Their reservations at the bin
   * are given back, the bin gets a spot count (one per location), and each short line is allocated again elsewhere
   * (pickable, not this bin) — the new places appended to this job as stops at the end of its path — or, when
   * nothing is free, the line holds fewer units and says why.
   */
  async shortPick(principal: Principal, input: StopScans & { jobId: number; stopSeq: number; foundQuantity: number; reason?: string }, actor: Actor) {
    return this.inJob(principal, input.jobId, actor, async (uow, job) => {
      const tasks = await this.stop(uow.tx, job.id, input.stopSeq);
      await this.assertScans(uow.tx, job, tasks, input, input.foundQuantity > 0);
      const need = tasks.filter((t) => t.status === 'Open').reduce((s, t) => s + remainingOf(t), 0);
      if (need === 0) throw unprocessable('This stop is already picked', { foundQuantity: 'Nothing is left to pick here' });
      if (input.foundQuantity >= need) throw unprocessable(`This stop needs ${count(need, 'unit')}: confirm the pick instead`, { foundQuantity: `Fewer than ${need}` });
      if (input.foundQuantity > 0) await this.pick(uow, actor, job, tasks, input.foundQuantity);
      const after = await this.stop(uow.tx, job.id, input.stopSeq);
      const shorts: { task: StopTask; quantity: number }[] = [];
      for (const task of after.filter((t) => t.status === 'Open')) {
        const quantity = await repo.closeShort(uow.tx, task.id);
        if (quantity > 0) shorts.push({ task, quantity });
      }
      await this.parts.stock.releasePart(uow, shorts.map((s) => ({ owner: ownerOf(s.task.so_number, s.task.order_line_id), place: placeOf(s.task), quantity: s.quantity })));
      const first = after[0];
      const countDate = await this.timeZones.dayOf(job.warehouse_id, new Date(), uow.tx);
      const spot = await this.parts.cycleCounts.spotCount(uow, actor, {
        warehouseId: job.warehouse_id, customerId: first.customer_id, locationId: first.location_id, countDate,
        note: `Short pick in ${job.job_number} at ${first.location_code}${input.reason ? `: ${input.reason}` : ''}`,
      });
      const reallocated = await this.allocateAgain(uow, job, first, shorts);
      await this.parts.floorEvents.record(uow, actor, shorts.map((s) => this.floorEvent('short', job, s.task, s.quantity)));
      await this.finish(uow, actor, job, [...new Set(shorts.map((s) => s.task.order_id))]);
      const short = shorts.reduce((s, x) => s + x.quantity, 0);
      return [
        `${count(short, 'unit')} short at ${first.location_code}`,
        reallocated.units > 0 ? `${count(reallocated.units, 'unit')} to pick at ${count(reallocated.stops, 'new stop')}` : null,
        reallocated.units < short ? `${count(short - reallocated.units, 'unit')} not found elsewhere` : null,
        spot ? `spot count ${spot.countNo}` : null,
      ].filter(Boolean).join('; ');
    });
  }

  /** Takes back the caller's last pick of the job (tote to bin), while the job is not finished. */
  async undoPick(principal: Principal, input: { jobId: number }, actor: Actor) {
    return this.inJob(principal, input.jobId, actor, async (uow, job) => {
      const last = standingPick(await jobPickEvents(uow.tx, job.id, principal.userId));
      if (!last) throw conflict('You have no pick of this job to undo');
      const task = (await repo.task(uow.tx, job.id, n(last.task_id)))!;
      if (task.status === 'Short') throw conflict(`The stop at ${task.location_code} was short-picked: its picks cannot be undone`);
      const quantity = n(last.quantity);
      if (!(await repo.removePicked(uow.tx, task.id, quantity))) throw conflict('This pick was changed meanwhile; reload the job');
      await this.parts.stock.moveReserved(uow, {
        documentType: 'PICK', documentId: job.job_number, reason: `Undo pick ${job.job_number}`, outType: 'reverse', inType: 'reverse',
        moves: [{
          owner: ownerOf(task.so_number, task.order_line_id), from: { ...placeOf(task), locationId: n(task.tote_location_id), pallet: '' },
          to: task.location_id, toPallet: task.pallet, quantity, documentLine: String(task.id),
        }],
        record: { kind: 'Pick', skuId: task.sku_id, locationId: task.location_id, after: { job: job.job_number, undo: true, taskId: task.id, quantity } },
      }, actor);
      await repo.addLinePicked(uow.tx, task.order_line_id, -quantity);
      const back = await this.statuses.transition(uow, actor, { kind: 'SALES_ORDER', id: task.order_id, to: 'Picking', from: ['Picked'], ifPossible: true, set: { updated_at: new Date().toISOString() } });
      if (back) await this.parts.orders.recordFloorChange(uow, actor, task.order_id, { action: 'unpick', subEvent: 'PickOrder', before: { status: 'Picked' } });
      await this.parts.floorEvents.record(uow, actor, [this.floorEvent('unpick', job, task, quantity)]);
      return `Undone: ${count(quantity, 'unit')} of ${task.sku_code} back to ${task.location_code}`;
    }, { undo: true });
  }

  /** The job as the picking screen shows it, for the caller (its last pick is the caller's). */
  async detail(principal: Principal, jobId: number): Promise<PickJobDetail> {
    const job = await this.visibleJob(this.db, principal, jobId);
    return this.detailOf(this.db, job.id, principal.userId);
  }

  // ---- the steps ----

  /**
   * Runs a picking step in one transaction on a job the caller may pick: it takes the job's row first (Open or
   * Assigned → In Progress, assigned to the caller, on the first pick), refusing a finished job and one another
   * user is picking; then the step, the job's change (audit + hub UpdateJob), and answers the job.
   */
  private async inJob(principal: Principal, jobId: number, actor: Actor, step: (uow: UnitOfWork, job: JobRow) => Promise<string>, opts: { undo?: boolean } = {}) {
    return inTransaction(this.db, async (uow) => {
      const job = await this.visibleJob(uow.tx, principal, jobId);
      this.assertPickable(job, principal, opts.undo);
      const at = new Date().toISOString();
      const claimed = await this.statuses.transition(uow, actor, {
        kind: 'PICK_JOB', id: job.id, to: 'In Progress', from: opts.undo ? ['In Progress'] : ['Open', 'Assigned', 'In Progress'], ifPossible: true,
        when: sql`(pick_job.assigned_to IS NULL OR pick_job.assigned_to = ${principal.userId})`,
        set: { assigned_to: principal.userId, started_at: sql`coalesce(started_at, ${at})`, updated_at: at },
      });
      if (!claimed) {
        // Changed since it was read (finished, or taken by another picker): the refusal names what it is now.
        this.assertPickable((await repo.job(uow.tx, job.id))!, principal, opts.undo);
        throw conflict('This job changed meanwhile; reload it');
      }
      const current = { ...job, status: 'In Progress', assigned_to: principal.userId };
      if (claimed.previous_status !== 'In Progress') await this.startWave(uow, actor, job);
      const message = await step(uow, current);
      const detail = await this.detailOf(uow.tx, job.id, principal.userId);
      await this.recorder.record(uow, actor, jobChange(summaryOf(detail), opts.undo ? 'unpick' : 'pick', { status: job.status }, { message }));
      return { message, job: detail };
    });
  }

  private assertPickable(job: JobRow, principal: Principal, undo = false) {
    if ((FINISHED_JOB_STATUSES as readonly string[]).includes(job.status)) {
      throw conflict(`Job ${job.job_number} is ${job.status === 'Short' ? 'finished short' : job.status.toLowerCase()}${undo ? ': its picks cannot be undone' : ''}`);
    }
    if (job.assigned_to !== null && n(job.assigned_to) !== principal.userId) throw conflict(`This job is being picked by ${job.assigned_to_name ?? 'another user'}`);
    if (undo && job.status !== 'In Progress') throw conflict('You have no pick of this job to undo');
  }

  /** A job of a warehouse in the caller's scope; 404 otherwise (nothing learnt about another warehouse's jobs). */
  private async visibleJob(db: Executor, principal: Principal, jobId: number) {
    const job = await repo.job(db, jobId);
    if (!job || !principal.scope.canSeeWarehouse(job.warehouse_id)) throw notFound('Pick job');
    return job;
  }

  private async stop(db: Executor, jobId: number, seq: number) {
    const tasks = await repo.stopTasks(db, jobId, seq);
    if (tasks.length === 0) throw unprocessable(`This job has no stop ${seq}`, { stopSeq: 'No such stop in this job' });
    return tasks;
  }

  /** The server's own check of a stop's scans: a wrong one is a 422 naming its field, before anything moves. */
  private async assertScans(db: Executor, job: JobRow, tasks: StopTask[], scans: StopScans, withItem: boolean) {
    const stop = expectationOf(tasks);
    const location = checkScan(stop, 'location', scans.locationCode);
    if (!location.ok) throw unprocessable(location.message, { locationCode: location.message });
    if (!withItem && !scans.itemCode) return;
    if (!scans.itemCode) throw unprocessable('Scan the item', { itemCode: 'Scan the item' });
    const item = checkScan(stop, 'item', scans.itemCode, await this.parts.scans.skuMatches(db, job.warehouse_id, scans.itemCode));
    if (!item.ok) throw unprocessable(item.message, { itemCode: item.message });
    const lot = checkScan(stop, 'lot', scans.lot ?? '');
    if (!lot.ok) throw unprocessable(lot.message, { lot: lot.message });
  }

  /**
   * Picks `quantity` units of a stop: shared over its open tasks in task order, each task taken by one conditional
   * statement, the units moved bin → the slot's tote with their reservation (one engine call), the lines' picked
   * units, a 'pick' floor event per task, the orders' statuses and the job's end.
   */
  private async pick(uow: UnitOfWork, actor: Actor, job: JobRow, tasks: StopTask[], quantity: number) {
    const takes: Take[] = [];
    let left = quantity;
    for (const task of tasks.filter((t) => t.status === 'Open')) {
      if (left === 0) break;
      const take = Math.min(left, remainingOf(task));
      if (take <= 0) continue;
      if (task.tote_location_id === null) throw conflict(`Scan a tote for slot ${task.slot} first`);
      takes.push({ task, quantity: take });
      left -= take;
    }
    for (const t of takes) {
      if (!(await repo.addPicked(uow.tx, t.task.id, t.quantity))) throw conflict('This stop was picked meanwhile; reload the job');
    }
    const moves: ReservedMove[] = takes.map((t) => ({
      owner: ownerOf(t.task.so_number, t.task.order_line_id), from: placeOf(t.task), to: n(t.task.tote_location_id), quantity: t.quantity, documentLine: String(t.task.id),
    }));
    const first = tasks[0];
    await this.parts.stock.moveReserved(uow, {
      documentType: 'PICK', documentId: job.job_number, reason: `Pick ${job.job_number}`, outType: 'pick_out', inType: 'pick_in', moves,
      record: { kind: 'Pick', skuId: first.sku_id, locationId: first.location_id, after: { job: job.job_number, stop: first.seq, picks: takes.map((t) => ({ taskId: t.task.id, quantity: t.quantity, tote: t.task.tote_code })) } },
    }, actor);
    for (const t of [...takes].sort((a, b) => a.task.order_line_id - b.task.order_line_id)) await repo.addLinePicked(uow.tx, t.task.order_line_id, t.quantity);
    await this.parts.floorEvents.record(uow, actor, takes.map((t) => this.floorEvent('pick', job, t.task, t.quantity)));
    await this.finish(uow, actor, job, [...new Set(takes.map((t) => t.task.order_id))]);
  }

  /**
   * After tasks changed: each order Released → Picking on its first pick, Picking → Picked when none of its tasks
   * (in any job) is open; the job Done (or Short) when none of its tasks is, and then its wave Done when every job
   * is. Each order's row is taken before its tasks are counted (orders in id order), and the wave's before its jobs
   * are, so two jobs finishing at once see each other's tasks.
   */
  private async finish(uow: UnitOfWork, actor: Actor, job: JobRow, orderIds: number[]) {
    const at = new Date().toISOString();
    for (const orderId of [...orderIds].sort((a, b) => a - b)) {
      const row = await this.statuses.transition(uow, actor, { kind: 'SALES_ORDER', id: orderId, to: 'Picking', from: ['Released', 'Picking'], set: { updated_at: at } });
      if (row.previous_status === 'Released') await this.parts.orders.recordFloorChange(uow, actor, orderId, { action: 'pick', subEvent: 'PickOrder', before: { status: 'Released' } });
      const open = (await repo.openTasksByOrder(uow.tx, [orderId])).get(orderId) ?? 0;
      if (open === 0) {
        await this.statuses.transition(uow, actor, { kind: 'SALES_ORDER', id: orderId, to: 'Picked', from: ['Picking'], set: { updated_at: at } });
        await this.parts.orders.recordFloorChange(uow, actor, orderId, { action: 'picked', subEvent: 'PickOrder', before: { status: 'Picking' } });
      }
    }
    const progress = await repo.jobProgress(uow.tx, job.id);
    if (progress.open > 0) return;
    await this.statuses.transition(uow, actor, { kind: 'PICK_JOB', id: job.id, to: progress.short > 0 ? 'Short' : 'Done', from: ['In Progress'], set: { finished_at: at, updated_at: at } });
    const wave = await repo.lockWave(uow.tx, job.wave_id, at);
    if (wave.status === 'Done' || wave.status === 'Cancelled') return;
    if ((await repo.unfinishedJobs(uow.tx, job.wave_id)) === 0) {
      const done = await this.statuses.transition(uow, actor, { kind: 'WAVE', id: job.wave_id, to: 'Done', from: ['Open', 'In Progress'], set: { updated_at: at } });
      await this.recordWave(uow, actor, job.wave_id, 'finish', done.previous_status);
    }
  }

  /** A wave is In Progress from the first pick of any of its jobs. */
  private async startWave(uow: UnitOfWork, actor: Actor, job: JobRow) {
    if (job.wave_status !== 'Open') return;
    const started = await this.statuses.transition(uow, actor, {
      kind: 'WAVE', id: job.wave_id, to: 'In Progress', from: ['Open'], ifPossible: true, set: { updated_at: new Date().toISOString() },
    });
    if (started) await this.recordWave(uow, actor, job.wave_id, 'start', 'Open');
  }

  /** The wave's audit row and UpdateWave (payload: its summary after the change). */
  private async recordWave(uow: UnitOfWork, actor: Actor, waveId: number, action: string, before: string) {
    await this.recorder.record(uow, actor, waveChange(await this.parts.waves.summaryWithin(uow.tx, waveId), action, 'UpdateWave', { status: before }));
  }

  /**
   * Allocates each short line again from pickable stock elsewhere (not the short bin) in one engine call; the places
   * found become new stops at the end of the job's path (by location code), one task per line and place. What is not
   * found leaves the line holding fewer units, with the reason.
   */
  private async allocateAgain(uow: UnitOfWork, job: JobRow, stop: StopTask, shorts: { task: StopTask; quantity: number }[]) {
    const byLine = new Map<number, number>();
    for (const s of shorts) byLine.set(s.task.order_line_id, (byLine.get(s.task.order_line_id) ?? 0) + s.quantity);
    if (byLine.size === 0) return { units: 0, stops: 0 };
    const lines = await repo.lines(uow.tx, [...byLine.keys()]);
    const results = await this.parts.stock.allocateMany(uow, lines.map((line) => {
      const quantity = byLine.get(line.id)!;
      const unit = n(line.units_per_package);
      return {
        owner: ownerOf(line.so_number, line.id), warehouseId: line.warehouse_id, customerId: line.customer_id, skuId: line.sku_id, quantity,
        lot: line.lot || undefined, locations: 'pickable' as const, excludeLocationId: stop.location_id, allowPartial: true,
        multipleOf: unit > 1 && quantity % unit === 0 ? unit : undefined,
      };
    }));
    const takes = lines.flatMap((line, i) => results[i].lines.map((l) => ({ line, l })));
    const codes = await repo.locationCodes(uow.tx, [...new Set(takes.map((t) => t.l.place.locationId))]);
    const stopKey = (p: { locationId: number; skuId: number; lot: string; pallet: string }) => `${p.locationId}|${p.skuId}|${p.lot}|${p.pallet}`;
    const keys = [...new Set(takes.map((t) => stopKey(t.l.place)))]
      .sort((a, b) => (codes.get(Number(a.split('|')[0])) ?? '').localeCompare(codes.get(Number(b.split('|')[0])) ?? '') || a.localeCompare(b));
    const base = await repo.lastSeq(uow.tx, job.id);
    const seqOf = new Map(keys.map((k, i) => [k, base + 1 + i]));
    await repo.insertTasks(uow.tx, takes.map(({ line, l }) => ({
      job_id: job.id, seq: seqOf.get(stopKey(l.place))!, order_id: line.order_id, order_line_id: line.id, warehouse_id: line.warehouse_id,
      customer_id: line.customer_id, sku_id: line.sku_id, location_id: l.place.locationId, lot: l.place.lot, pallet: l.place.pallet, quantity: l.quantity,
    })));
    for (const [i, line] of lines.entries()) {
      const r = results[i];
      await repo.setLineAllocation(uow.tx, line.id, r.allocated - byLine.get(line.id)!, r.short > 0 ? (r.shortReason ?? 'no-stock' as ShortReason) : null);
    }
    return { units: results.reduce((s, r) => s + r.allocated, 0), stops: keys.length };
  }

  private floorEvent(kind: 'pick' | 'short' | 'unpick', job: JobRow, task: StopTask, quantity: number): FloorEvent {
    return {
      kind, warehouseId: job.warehouse_id, customerId: task.customer_id, jobId: job.id, taskId: task.id, orderId: task.order_id,
      orderLineId: task.order_line_id, skuId: task.sku_id, locationId: task.location_id, quantity,
    };
  }

  /**
   * The job as the job screens read it (the pick-job service's detail), its last pick being the one the caller's UndoPick
   * would take back (picks and unpicks of the caller as a stack: several picks may be undone one after another).
   */
  private async detailOf(db: Executor, jobId: number, userId: number): Promise<PickJobDetail> {
    return this.parts.pickJobs.detailWithin(db, jobId, userId);
  }
}

const summaryOf = (d: PickJobDetail): PickJobSummary => {
  const { totes: _totes, stops: _stops, lastPick: _last, ...summary } = d;
  return summary;
};
