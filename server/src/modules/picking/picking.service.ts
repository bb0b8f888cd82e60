import { sql } from 'kysely';
import type { CheckPickScanResult, OrderStatus, PickJobDetail, PickJobProgress, PickJobSummary, PickResult, PickScanStep, ShortReason } from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import type { WarehouseTimeZones } from '../../platform/business-day.js';
import type { Change, ChangeRecorder } from '../../platform/change-recorder.js';
import { conflict, notFound, unprocessable } from '../../platform/errors.js';
import { jobPickEvents, standingPick, type FloorEvent, type FloorEvents } from '../../platform/floor-events.js';
import { count } from '../../platform/plural.js';
import type { Caller, Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import type { ReservedMove, StockEngine } from '../../platform/stock/stock-engine.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import type { CycleCountService } from '../cycle-counts/cycle-counts.service.js';
import { orderChange } from '../orders/order-changes.js';
import type { OrderService } from '../orders/orders.service.js';
import type { ScanService } from '../scans/scans.service.js';
import type { PickJobService } from '../waves/pick-jobs.service.js';
import type { WaveService } from '../waves/waves.service.js';
import { jobChange, toLastPick, toStops, waveChange } from '../waves/wave-views.js';
import { checkScan, expectationOf } from './pick-scans.js';
import { FINISHED_JOB_STATUSES, jobReturning, pickingRepository as repo, type LineRow, type PickingJob, type PickProgress, type StopTask } from './picking.repository.js';

const n = (v: unknown) => Number(v ?? 0);
/** A reservation's owner: the order line (document SO, its number, the line id), as allocation made it. */
const ownerOf = (soNumber: string, lineId: number) => ({ documentType: 'SO', documentId: soNumber, documentLine: String(lineId) });
const placeOf = (t: { warehouse_id: number; customer_id: number; sku_id: number; location_id: number; lot: string; pallet: string }) =>
  ({ warehouseId: t.warehouse_id, customerId: t.customer_id, skuId: t.sku_id, locationId: t.location_id, lot: t.lot, pallet: t.pallet });
const remainingOf = (t: StopTask) => n(t.quantity) - n(t.picked_qty) - n(t.short_qty);
const same = (a: string, b: string) => a.trim().toUpperCase() === b.trim().toUpperCase();

interface StopScans { locationCode: string; itemCode?: string; lot?: string }
/** Units taken from one task of a stop into its slot's tote. */
interface Take { task: StopTask; quantity: number }
/** An order a step touched: its number and its status as the step found it. */
interface TouchedOrder { id: number; soNumber: string; status: string }

/**
 * One picking request in its transaction: the job as claimed, its status before, and the changes (audit rows and
 * hub events) gathered on the way, written together — in the stock engine's own two statements when the step
 * moves stock after settling, else at the end.
 */
interface Step {
  uow: UnitOfWork;
  actor: Actor;
  job: PickingJob;
  before: string;
  changes: Change[];
  /** The job's progress and the orders' statuses once settled. */
  progress?: PickJobProgress;
  orders: PickResult['orders'];
  /**
   * What the step does to the job's wave, last: start it (the job's first pick) or finish it (the job finished).
   * The wave's row is shared by every job of the wave, so it is taken just before commit: taken early, it held
   * every other picker's first (or last) pick of the wave for the whole of this step.
   */
  startsWave?: boolean;
  finishesWave?: boolean;
  /** The step's stop, when it was read with the job's hold (the caller's own job In Progress): see inJob. */
  stopTasks?: StopTask[];
}
/** What a step answers beside the job's progress and the orders (see pickResult). */
interface Outcome { message: string; stops: PickResult['stops']; lines: LineRow[]; lastPick: PickResult['lastPick'] }

/**
 * Picking (scan to confirm): each stop's scans checked (location, item, lot, tote), confirmed picks moving the
 * reserved units from the bin to the order's tote through the stock engine (the reservation moves with them), short
 * picks (the rest released, a spot count of the bin, the line allocated again elsewhere and appended to the job, or
 * left short), and undo of the caller's last pick. One transaction per request, which first takes the job's row:
 * two pickers on one job take turns, and each task is picked by one conditional statement, so nothing is picked twice.
 *
 * A step costs the same statements however long its job: it reads and writes the stop, its order lines and the
 * job's totals, and answers only those (pickResult) — the status bookkeeping (tasks, lines, orders Released →
 * Picking → Picked, the job, the wave) is set-based, and an order or job whose status does not change costs nothing.
 */
export class PickingService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly timeZones: WarehouseTimeZones;
  private readonly statuses: StatusMachine;

  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder' | 'timeZones'>, private readonly parts: {
    stock: StockEngine; floorEvents: FloorEvents; scans: ScanService; cycleCounts: CycleCountService; orders: OrderService; pickJobs: PickJobService; waves: WaveService;
  }) {
    this.db = deps.db;
    this.dialect = deps.dialect;
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
  async confirmPick(caller: Caller, input: StopScans & { jobId: number; stopSeq: number; quantity: number }, actor: Actor) {
    return this.inJob(caller, input.jobId, actor, async (step) => {
      const tasks = await this.stop(step.uow.tx, step.job.id, input.stopSeq, true, step.stopTasks);
      await this.assertScans(step.uow.tx, step.job, tasks, input, true);
      const need = tasks.filter((t) => t.status === 'Open').reduce((s, t) => s + remainingOf(t), 0);
      if (input.quantity > need) {
        throw unprocessable(need === 0 ? 'This stop is already picked' : `This stop needs ${count(need, 'more unit')}`, { quantity: `At most ${need}` });
      }
      const message = `Picked ${count(input.quantity, 'unit')} of ${tasks[0].sku_code} at ${tasks[0].location_code}`;
      const takes = this.share(tasks, input.quantity);
      const at = new Date();
      const picks = takes.map((t) => this.floorEvent('pick', step.job, t.task, t.quantity));
      const taken = await this.take(step, takes, { events: picks, at });
      // On PostgreSQL the pick's statement goes with the stock engine's first (one round trip); its answer is read
      // after, and a refusal then still rolls the whole step back. The job's and orders' changes follow the move.
      await this.movePicked(step, takes);
      const { lines, progress, eventIds } = await taken.result();
      await this.settle(step, takes.map((t) => t.task), 'pick', message, progress);
      const events = eventIds ? recordedEvents(eventIds, picks, at) : await this.record(step, picks, at);
      const last = events.at(-1)!;
      return {
        message, stops: toStops(this.after(tasks, takes)), lines,
        lastPick: { eventId: last.id, taskId: n(last.taskId), quantity: last.quantity, at: last.at },
      };
    }, { stopSeq: input.stopSeq });
  }

  /**
   * A short pick: the units found are picked, the rest of the stop's tasks is short. Their reservations at the bin
   * are given back, the bin gets a spot count (one per location), and each short line is allocated again elsewhere
   * (pickable, not this bin) — the new places appended to this job as stops at the end of its path — or, when
   * nothing is free, the line holds fewer units and says why.
   */
  async shortPick(caller: Caller, input: StopScans & { jobId: number; stopSeq: number; foundQuantity: number; reason?: string }, actor: Actor) {
    return this.inJob(caller, input.jobId, actor, async (step) => {
      const { uow, job } = step;
      const tasks = await this.stop(uow.tx, job.id, input.stopSeq, true, step.stopTasks);
      await this.assertScans(uow.tx, job, tasks, input, input.foundQuantity > 0);
      const need = tasks.filter((t) => t.status === 'Open').reduce((s, t) => s + remainingOf(t), 0);
      if (need === 0) throw unprocessable('This stop is already picked', { foundQuantity: 'Nothing is left to pick here' });
      if (input.foundQuantity >= need) throw unprocessable(`This stop needs ${count(need, 'unit')}: confirm the pick instead`, { foundQuantity: `Fewer than ${need}` });
      const takes = input.foundQuantity > 0 ? this.share(tasks, input.foundQuantity) : [];
      const { lines: picked } = await (await this.take(step, takes)).result();
      // The found units leave the bin before the spot count holds it.
      if (takes.length) await this.movePicked(step, takes);
      const shorts = (await repo.closeShort(uow.tx, job.id, input.stopSeq))
        .map((s) => ({ task: tasks.find((t) => t.id === s.id)!, quantity: s.quantity })).filter((s) => s.quantity > 0);
      await this.parts.stock.releasePart(uow, shorts.map((s) => ({ owner: ownerOf(s.task.so_number, s.task.order_line_id), place: placeOf(s.task), quantity: s.quantity })));
      const first = tasks[0];
      const countDate = await this.timeZones.dayOf(job.warehouse_id, new Date(), uow.tx);
      const spot = await this.parts.cycleCounts.spotCount(uow, step.actor, {
        warehouseId: job.warehouse_id, customerId: first.customer_id, locationId: first.location_id, countDate,
        note: `Short pick in ${job.job_number} at ${first.location_code}${input.reason ? `: ${input.reason}` : ''}`,
      });
      const reallocated = await this.allocateAgain(uow, job, first, shorts);
      const short = shorts.reduce((s, x) => s + x.quantity, 0);
      const message = [
        `${count(short, 'unit')} short at ${first.location_code}`,
        reallocated.units > 0 ? `${count(reallocated.units, 'unit')} to pick at ${count(reallocated.stops, 'new stop')}` : null,
        reallocated.units < short ? `${count(short - reallocated.units, 'unit')} not found elsewhere` : null,
        spot ? `spot count ${spot.countNo}` : null,
      ].filter(Boolean).join('; ');
      await this.settle(step, [...takes.map((t) => t.task), ...shorts.map((s) => s.task)], 'pick', message);
      await this.record(step, [
        ...takes.map((t) => this.floorEvent('pick', job, t.task, t.quantity)),
        ...shorts.map((s) => this.floorEvent('short', job, s.task, s.quantity)),
      ]);
      const [stops, picks] = await Promise.all([
        repo.stops(uow.tx, job.id, [input.stopSeq, ...reallocated.seqs]), jobPickEvents(uow.tx, job.id, step.actor.userId ?? 0),
      ]);
      return { message, stops: toStops(stops), lines: latestLines([...picked, ...reallocated.lines]), lastPick: toLastPick(standingPick(picks)) };
    }, { stopSeq: input.stopSeq });
  }

  /** Takes back the caller's last pick of the job (tote to bin), while the job is not finished. */
  async undoPick(caller: Caller, input: { jobId: number }, actor: Actor) {
    return this.inJob(caller, input.jobId, actor, async (step) => {
      const { uow, job } = step;
      const picks = await jobPickEvents(uow.tx, job.id, caller.userId);
      const last = standingPick(picks);
      if (!last) throw conflict('You have no pick of this job to undo');
      const tasks = await repo.stopOfTask(uow.tx, this.dialect, job.id, n(last.task_id));
      const task = tasks.find((t) => t.id === n(last.task_id))!;
      if (task.status === 'Short') throw conflict(`The stop at ${task.location_code} was short-picked: its picks cannot be undone`);
      const quantity = n(last.quantity);
      if (!(await repo.removePicked(uow.tx, task.id, quantity))) throw conflict('This pick was changed meanwhile; reload the job');
      const lines = await repo.addLinesPicked(uow.tx, [{ lineId: task.order_line_id, delta: -quantity }]);
      const message = `Undone: ${count(quantity, 'unit')} of ${task.sku_code} back to ${task.location_code}`;
      await this.settle(step, [task], 'unpick', message);
      await this.parts.stock.moveReserved(uow, {
        documentType: 'PICK', documentId: job.job_number, reason: `Undo pick ${job.job_number}`, outType: 'reverse', inType: 'reverse',
        moves: [{
          owner: ownerOf(task.so_number, task.order_line_id), from: { ...placeOf(task), locationId: n(task.tote_location_id), pallet: '' },
          to: task.location_id, toPallet: task.pallet, quantity, documentLine: String(task.id),
        }],
        record: { kind: 'Pick', skuId: task.sku_id, locationId: task.location_id, after: { job: job.job_number, undo: true, taskId: task.id, quantity } },
      }, step.actor, this.flush(step));
      await this.record(step, [this.floorEvent('unpick', job, task, quantity)]);
      const after = tasks.map((t) => (t.id === task.id ? { ...t, picked_qty: n(t.picked_qty) - quantity, status: 'Open' } : t));
      // The stack of the caller's picks and unpicks, with this unpick on it.
      return { message, stops: toStops(after), lines, lastPick: toLastPick(standingPick([...picks, { ...last, kind: 'unpick' }])) };
    }, { undo: true });
  }

  /** The job as the picking screen shows it, for the caller (its last pick is the caller's). */
  async detail(principal: Principal, jobId: number): Promise<PickJobDetail> {
    const job = await this.visibleJob(this.db, principal, jobId);
    return this.parts.pickJobs.detailWithin(this.db, job.id, principal.userId);
  }

  // ---- the steps ----

  /**
   * Runs a picking step in one transaction on a job the caller may pick. It takes the job's row first: the caller's
   * job In Progress in one statement; otherwise through the status machine (Open or Assigned → In Progress, assigned
   * to the caller, on the first pick, starting the wave), refusing a finished job and one another user is picking.
   * Then the step, the changes it gathered, and the answer: what the step changed (pickResult).
   */
  private async inJob(caller: Caller, jobId: number, actor: Actor, work: (step: Step) => Promise<Outcome>, opts: { undo?: boolean; stopSeq?: number } = {}): Promise<PickResult> {
    return inTransaction(this.db, async (uow) => {
      const at = new Date().toISOString();
      // The caller's session is checked with the job's hold (PostgreSQL: one round trip); a refusal rolls back the hold.
      const session = await caller.check(uow.tx);
      const { job: held, tasks } = opts.stopSeq === undefined ? { job: await repo.holdOwn(uow.tx, this.dialect, jobId, caller.userId, at), tasks: undefined }
        : await repo.holdOwnWithStop(uow.tx, this.dialect, jobId, caller.userId, opts.stopSeq, at);
      const principal = await session.principal();
      if (held && !principal.scope.canSeeWarehouse(held.warehouse_id)) throw notFound('Pick job');
      const step: Step = { uow, actor, job: held!, before: 'In Progress', changes: [], orders: [], stopTasks: tasks };
      if (!held) await this.claim(step, principal, jobId, at, opts.undo ?? false);
      const outcome = await work(step);
      if (step.startsWave) await this.startWave(step);
      if (step.finishesWave) await this.finishWave(step, new Date().toISOString());
      if (step.changes.length) await this.recorder.record(uow, actor, ...this.flush(step));
      return { message: outcome.message, job: step.progress!, stops: outcome.stops, lines: outcome.lines.map(toLine), orders: step.orders, lastPick: outcome.lastPick };
    });
  }

  /** The first step on a job (or a refusal): Open or Assigned → In Progress for the caller, through the status machine. */
  private async claim(step: Step, principal: Principal, jobId: number, at: string, undo: boolean) {
    const { uow, actor } = step;
    const job = await this.visibleJob(uow.tx, principal, jobId);
    this.assertPickable(job, principal, undo);
    const claimed = await this.statuses.transition<'PICK_JOB', PickingJob & Record<string, unknown>>(uow, actor, {
      kind: 'PICK_JOB', id: job.id, to: 'In Progress', from: undo ? ['In Progress'] : ['Open', 'Assigned', 'In Progress'], ifPossible: true,
      when: sql`(pick_job.assigned_to IS NULL OR pick_job.assigned_to = ${principal.userId})`,
      set: { assigned_to: principal.userId, started_at: sql`coalesce(started_at, ${at})`, updated_at: at },
      returning: jobReturning,
    });
    if (!claimed) {
      // Changed since it was read (finished, or taken by another picker): the refusal names what it is now.
      this.assertPickable((await repo.job(uow.tx, job.id))!, principal, undo);
      throw conflict('This job changed meanwhile; reload it');
    }
    step.job = claimed;
    step.before = job.status;
    if (claimed.previous_status !== 'In Progress') step.startsWave = true;
  }

  private assertPickable(job: PickingJob, principal: Principal, undo = false) {
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

  /** A stop's tasks (its orders taken until commit when `lock`), or those `known` (read with the job's hold); 422 for a stop the job has not. */
  private async stop(db: Executor, jobId: number, seq: number, lock = false, known?: StopTask[]) {
    const tasks = known ?? await repo.stopTasks(db, this.dialect, jobId, seq, lock);
    if (tasks.length === 0) throw unprocessable(`This job has no stop ${seq}`, { stopSeq: 'No such stop in this job' });
    return tasks;
  }

  /** The server's own check of a stop's scans: a wrong one is a 422 naming its field, before anything moves. */
  private async assertScans(db: Executor, job: PickingJob, tasks: StopTask[], scans: StopScans, withItem: boolean) {
    const stop = expectationOf(tasks);
    const location = checkScan(stop, 'location', scans.locationCode);
    if (!location.ok) throw unprocessable(location.message, { locationCode: location.message });
    if (!withItem && !scans.itemCode) return;
    if (!scans.itemCode) throw unprocessable('Scan the item', { itemCode: 'Scan the item' });
    // The stop's own SKU code names its SKU (one scan, one unit): only another code needs the scan resolver.
    const items = same(scans.itemCode, stop.skuCode) ? [] : await this.parts.scans.skuMatches(db, job.warehouse_id, scans.itemCode);
    const item = items.length === 0 && same(scans.itemCode, stop.skuCode) ? { ok: true, message: stop.skuCode } : checkScan(stop, 'item', scans.itemCode, items);
    if (!item.ok) throw unprocessable(item.message, { itemCode: item.message });
    const lot = checkScan(stop, 'lot', scans.lot ?? '');
    if (!lot.ok) throw unprocessable(lot.message, { lot: lot.message });
  }

  /** `quantity` units of a stop shared over its open tasks in task order; 409 for a slot still without a tote. */
  private share(tasks: StopTask[], quantity: number): Take[] {
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
    return takes;
  }

  /**
   * The tasks picked (one conditional statement; 409 when one changed meanwhile) and their lines' picked units (one
   * more). With `recording` on PostgreSQL: both, the progress settle reads and the step's floor events, in one statement,
   * sent with the step's next one: `result()`, read after that, answers them (or the 409).
   */
  private async take(step: Step, takes: Take[], recording?: { events: FloorEvent[]; at: Date }): Promise<{ result(): Promise<{ lines: LineRow[]; progress?: PickProgress; eventIds?: number[] }> }> {
    if (takes.length === 0) return { result: async () => ({ lines: [] }) };
    const orders = new Map(takes.map((t) => [t.task.order_id, t.task]));
    for (const task of orders.values()) {
      if (!['Released', 'Picking'].includes(task.order_status)) throw conflict(`Order ${task.so_number} is ${task.order_status}; it cannot be picked`);
    }
    const picks = takes.map((t) => ({ taskId: t.task.id, quantity: t.quantity }));
    const byLine = new Map<number, number>();
    for (const t of takes) byLine.set(t.task.order_line_id, (byLine.get(t.task.order_line_id) ?? 0) + t.quantity);
    const deltas = [...byLine].map(([lineId, delta]) => ({ lineId, delta }));
    if (recording && this.dialect.engine === 'postgres') {
      const events = await this.parts.floorEvents.values(step.uow, step.actor, recording.events, recording.at);
      const sent = await repo.pickAndProgress(step.uow.tx, picks, deltas, step.job.id, touchedOrders(takes.map((t) => t.task)).map((o) => o.id), events);
      return {
        async result() {
          const done = await sent.result();
          if (done.taken !== takes.length) throw conflict('This stop was picked meanwhile; reload the job');
          return { lines: done.lines, progress: done.progress, eventIds: done.eventIds };
        },
      };
    }
    if ((await repo.addPicked(step.uow.tx, picks)) !== takes.length) throw conflict('This stop was picked meanwhile; reload the job');
    const lines = await repo.addLinesPicked(step.uow.tx, deltas);
    return { result: async () => ({ lines }) };
  }

  /** The picked units bin → each slot's tote, with their reservation (one engine call), carrying the changes settled so far. */
  private async movePicked(step: Step, takes: Take[]) {
    const moves: ReservedMove[] = takes.map((t) => ({
      owner: ownerOf(t.task.so_number, t.task.order_line_id), from: placeOf(t.task), to: n(t.task.tote_location_id), quantity: t.quantity, documentLine: String(t.task.id),
    }));
    const first = takes[0].task;
    await this.parts.stock.moveReserved(step.uow, {
      documentType: 'PICK', documentId: step.job.job_number, reason: `Pick ${step.job.job_number}`, outType: 'pick_out', inType: 'pick_in', moves,
      record: { kind: 'Pick', skuId: first.sku_id, locationId: first.location_id, after: { job: step.job.job_number, stop: first.seq, picks: takes.map((t) => ({ taskId: t.task.id, quantity: t.quantity, tote: t.task.tote_code })) } },
    }, step.actor, this.flush(step));
  }

  /**
   * After the tasks changed: the job's progress and the touched orders' open tasks in one read; then only what
   * changes status does: each order Released → Picking on its first pick, Picking → Picked when none of its tasks
   * (in any job) is open, Picked → Picking when a pick is undone; the job Done (or Short) when none of its tasks is
   * open, and then its wave Done when every job is. The changes (the job's UpdateJob every step, the orders' and
   * wave's when they move) join the step's. The orders' rows were taken with the stop, and the wave's is taken
   * before its jobs are counted, so two jobs finishing at once see each other's tasks.
   */
  private async settle(step: Step, tasks: StopTask[], action: 'pick' | 'unpick', message: string, known?: PickProgress) {
    const { uow, actor, job } = step;
    const touched = touchedOrders(tasks);
    const progress = known ?? await repo.progress(uow.tx, job.id, touched.map((o) => o.id));
    const at = new Date().toISOString();
    const moved: { order: TouchedOrder; to: string }[] = [];
    for (const order of touched) {
      const open = progress.openByOrder.get(order.id) ?? 0;
      let status = order.status;
      const go = async (from: OrderStatus, to: OrderStatus) => {
        await this.statuses.transition(uow, actor, { kind: 'SALES_ORDER', id: order.id, to, from: [from], set: { updated_at: at } });
        status = to;
      };
      if (status === 'Released') await go('Released', 'Picking');
      if (status === 'Picking' && open === 0) await go('Picking', 'Picked');
      else if (status === 'Picked' && open > 0) await go('Picked', 'Picking');
      if (status !== order.status) moved.push({ order, to: status });
      step.orders.push({ orderId: order.id, soNumber: order.soNumber, status: status as OrderStatus });
    }
    for (const { order, to } of moved) {
      const after = await this.parts.orders.summaryWithin(uow.tx, order.id);
      const what = to === 'Picked' ? 'picked' : order.status === 'Picked' ? 'unpick' : 'pick';
      step.changes.push(orderChange(after, { action: what, subEvent: 'PickOrder', before: { status: order.status } }));
    }
    let status = job.status;
    let finishedAt = job.finished_at;
    if (progress.open === 0 && status === 'In Progress') {
      status = progress.short > 0 ? 'Short' : 'Done';
      finishedAt = at;
      await this.statuses.transition(uow, actor, { kind: 'PICK_JOB', id: job.id, to: status as 'Done' | 'Short', from: ['In Progress'], set: { finished_at: at, updated_at: at } });
    }
    const summary: PickJobSummary = {
      uniqueid: job.id, jobId: job.id, jobNumber: job.job_number, waveId: job.wave_id, waveNumber: job.wave_number, warehouseId: job.warehouse_id,
      strategy: job.strategy as PickJobSummary['strategy'], zone: job.zone, status: status as PickJobSummary['status'],
      assignedTo: job.assigned_to == null ? null : n(job.assigned_to), assignedToName: job.assigned_to_name ?? actor.username,
      orderCount: n(job.order_count), stopCount: progress.stops, units: progress.units, pickedUnits: progress.pickedUnits, shortUnits: progress.shortUnits,
      startedAt: job.started_at, finishedAt, createdAt: job.created_at,
    };
    step.changes.push(jobChange(summary, action, { status: step.before }, { message }));
    step.progress = {
      jobId: summary.jobId, jobNumber: summary.jobNumber, status: summary.status, assignedTo: summary.assignedTo, assignedToName: summary.assignedToName,
      stopCount: progress.stops, stopsDone: progress.stopsDone, units: progress.units, pickedUnits: progress.pickedUnits, shortUnits: progress.shortUnits,
      startedAt: summary.startedAt, finishedAt,
    };
    if (status === 'Done' || status === 'Short') step.finishesWave = true;
  }

  /** The wave Done when its last job finishes (its row taken before its jobs are counted). */
  private async finishWave(step: Step, at: string) {
    const { uow, actor, job } = step;
    const wave = await repo.lockWave(uow.tx, job.wave_id, at);
    if (wave.status === 'Done' || wave.status === 'Cancelled') return;
    if ((await repo.unfinishedJobs(uow.tx, job.wave_id)) > 0) return;
    const done = await this.statuses.transition(uow, actor, { kind: 'WAVE', id: job.wave_id, to: 'Done', from: ['Open', 'In Progress'], set: { updated_at: at } });
    step.changes.push(waveChange(await this.parts.waves.summaryWithin(uow.tx, job.wave_id), 'finish', 'UpdateWave', { status: done.previous_status }));
  }

  /** A wave is In Progress from the first pick of any of its jobs. */
  private async startWave(step: Step) {
    const { uow, actor, job } = step;
    if (job.wave_status !== 'Open') return;
    const started = await this.statuses.transition(uow, actor, {
      kind: 'WAVE', id: job.wave_id, to: 'In Progress', from: ['Open'], ifPossible: true, set: { updated_at: new Date().toISOString() },
    });
    if (started) step.changes.push(waveChange(await this.parts.waves.summaryWithin(uow.tx, job.wave_id), 'start', 'UpdateWave', { status: 'Open' }));
  }

  /** The changes gathered so far, handed to whoever writes them next (and no longer the step's). */
  private flush(step: Step): Change[] {
    return step.changes.splice(0, step.changes.length);
  }

  /** The step's floor events, one statement; answers them (ids in the order given). */
  private async record(step: Step, events: FloorEvent[], at = new Date()) {
    const rows = await this.parts.floorEvents.record(step.uow, step.actor, events, at);
    return recordedEvents(rows.map((r) => r.id), events, at);
  }

  /** The stop's tasks as the takes leave them. */
  private after(tasks: StopTask[], takes: Take[]): StopTask[] {
    return tasks.map((t) => {
      const take = takes.find((x) => x.task.id === t.id);
      if (!take) return t;
      const picked = n(t.picked_qty) + take.quantity;
      return { ...t, picked_qty: picked, status: picked + n(t.short_qty) >= n(t.quantity) ? 'Picked' : 'Open' };
    });
  }

  /**
   * Allocates each short line again from pickable stock elsewhere (not the short bin) in one engine call; the places
   * found become new stops at the end of the job's path (by location code), one task per line and place. What is not
   * found leaves the line holding fewer units, with the reason. Answers the units and stops found, the new stops'
   * seqs and the lines as they now are.
   */
  private async allocateAgain(uow: UnitOfWork, job: PickingJob, stop: StopTask, shorts: { task: StopTask; quantity: number }[]) {
    const byLine = new Map<number, number>();
    for (const s of shorts) byLine.set(s.task.order_line_id, (byLine.get(s.task.order_line_id) ?? 0) + s.quantity);
    if (byLine.size === 0) return { units: 0, stops: 0, seqs: [] as number[], lines: [] as LineRow[] };
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
    const base = keys.length ? await repo.lastSeq(uow.tx, job.id) : 0;
    const seqOf = new Map(keys.map((k, i) => [k, base + 1 + i]));
    await repo.insertTasks(uow.tx, takes.map(({ line, l }) => ({
      job_id: job.id, seq: seqOf.get(stopKey(l.place))!, order_id: line.order_id, order_line_id: line.id, warehouse_id: line.warehouse_id,
      customer_id: line.customer_id, sku_id: line.sku_id, location_id: l.place.locationId, lot: l.place.lot, pallet: l.place.pallet, quantity: l.quantity,
    })));
    const after: LineRow[] = [];
    for (const [i, line] of lines.entries()) {
      const r = results[i];
      after.push(await repo.setLineAllocation(uow.tx, line.id, r.allocated - byLine.get(line.id)!, r.short > 0 ? (r.shortReason ?? 'no-stock' as ShortReason) : null));
    }
    return { units: results.reduce((s, r) => s + r.allocated, 0), stops: keys.length, seqs: [...seqOf.values()], lines: after };
  }

  private floorEvent(kind: 'pick' | 'short' | 'unpick', job: PickingJob, task: StopTask, quantity: number): FloorEvent {
    return {
      kind, warehouseId: job.warehouse_id, customerId: task.customer_id, jobId: job.id, taskId: task.id, orderId: task.order_id,
      orderLineId: task.order_line_id, skuId: task.sku_id, locationId: task.location_id, quantity,
    };
  }
}

/** Floor events as written (their ids in the order given, as both engines draw them), for the answer. */
function recordedEvents(ids: number[], events: FloorEvent[], at: Date) {
  return ids.map((id, i) => ({ id, taskId: events[i].taskId ?? null, quantity: events[i].quantity ?? 0, at: at.toISOString() }));
}

/** The orders of some tasks, by id: each with its number and status as the tasks read them. */
function touchedOrders(tasks: StopTask[]): TouchedOrder[] {
  return [...new Map<number, TouchedOrder>(tasks.map((t) => [t.order_id, { id: t.order_id, soNumber: t.so_number, status: t.order_status }])).values()]
    .sort((a, b) => a.id - b.id);
}

const toLine = (l: LineRow): PickResult['lines'][number] => ({
  orderLineId: n(l.id), orderId: n(l.order_id), quantity: n(l.quantity), allocatedQuantity: n(l.allocated_qty), pickedQuantity: n(l.picked_qty),
});

/** Lines as the last write of each left them. */
function latestLines(rows: LineRow[]): LineRow[] {
  return [...new Map(rows.map((r) => [n(r.id), r])).values()].sort((a, b) => n(a.id) - n(b.id));
}
