import type { BatchRuleCriteria, CreateWaveInput, OrderStatus, PickStrategy } from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import type { Change, ChangeRecorder } from '../../platform/change-recorder.js';
import { documentNumbers } from '../../platform/document-numbers.js';
import { conflict, notFound, unprocessable } from '../../platform/errors.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import { Scope } from '../../platform/scope.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import type { OrderService } from '../orders/orders.service.js';
import { OrderRelease } from './order-release.js';
import { cutWave, type PickWork } from './pick-path.js';
import { wavesRepository as repo, type CandidateRow, type WaveFilterValues } from './waves.repository.js';
import { jobChange, toJobSummary, toWaveSummary, waveChange } from './wave-views.js';

const n = (v: unknown) => Number(v);
/** Statuses an order is released from: Allocated, or short when its customer lets it wait (checked per order). */
const SHORT: OrderStatus[] = ['Partially Allocated', 'Backordered'];

interface Refusal { orderId: number; soNumber: string | null; message: string }

/**
 * Waves: releasing orders to the floor and cutting their pick work into jobs by strategy, the wave list, one wave
 * with its jobs, and cancelling a wave no one has picked from. A wave is one transaction: its orders are released
 * (each through the status machine; one refused never stops the others), its jobs, orders by slot and tasks in
 * walking order written, and every change recorded together.
 */
export class WaveService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly statuses: StatusMachine;
  readonly release: OrderRelease;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder'>, orders: OrderService) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.statuses = new StatusMachine(deps);
    this.release = new OrderRelease(this.statuses, orders);
  }

  async create(principal: Principal, input: CreateWaveInput, actor: Actor, ruleId: number | null = null) {
    principal.scope.assert({ warehouseId: input.warehouseId });
    if (input.criteria && input.criteria.warehouseId !== input.warehouseId) {
      throw unprocessable('The rule is for another warehouse', { 'criteria.warehouseId': 'The rule is for another warehouse' });
    }
    const ids = input.orderIds ? [...new Set(input.orderIds)] : await repo.matching(this.db, principal.scope, input.criteria as BatchRuleCriteria, ['Allocated']);
    if (ids.length === 0) throw unprocessable('No allocated order matches the rule', { criteria: 'No allocated order matches the rule' });
    const result = await inTransaction(this.db, (uow) => this.write(uow, principal, actor, input, ids, ruleId));
    const { wave, released, refused } = result;
    const refusedText = refused.length ? `; ${refused.length} refused` : '';
    return { message: `Wave ${wave.waveNumber} released: ${released.length} ${released.length === 1 ? 'order' : 'orders'} in ${wave.jobCount} ${wave.jobCount === 1 ? 'job' : 'jobs'}${refusedText}`, data: result };
  }

  private async write(uow: UnitOfWork, principal: Principal, actor: Actor, input: CreateWaveInput, ids: number[], ruleId: number | null) {
    const found = new Map((await repo.candidates(uow.tx, ids)).map((o) => [n(o.id), o]));
    const refused: Refusal[] = [];
    const eligible: CandidateRow[] = [];
    for (const id of ids) {
      const order = found.get(id);
      const message = this.refusal(principal, input.warehouseId, order);
      if (message) refused.push({ orderId: id, soNumber: order && principal.scope.canSeeCustomer(n(order.customer_id)) ? order.so_number : null, message });
      else eligible.push(order!);
    }
    // What each order holds, and where: an order holding nothing has nothing to pick.
    const reservations = await repo.reservations(uow.tx, eligible.map((o) => o.so_number));
    const holding = new Set(reservations.map((r) => r.document_id));
    const withWork = eligible.filter((o) => {
      if (holding.has(o.so_number)) return true;
      refused.push({ orderId: n(o.id), soNumber: o.so_number, message: `Order ${o.so_number} holds no allocated stock: there is nothing to pick` });
      return false;
    });
    if (withWork.length === 0) throw unprocessable(`No order can be released: ${refused[0].message}`, { orderIds: refused[0].message });

    const at = new Date().toISOString();
    const waveNumber = (await documentNumbers.next(uow, 'WAVE')).number;
    const waveId = await repo.insertWave(uow.tx, {
      wave_number: waveNumber, warehouse_id: input.warehouseId, strategy: input.strategy, totes_per_job: input.strategy === 'cluster' ? input.totesPerJob : 1,
      rule_id: ruleId, created_by: actor.userId, at,
    });
    const changes: Change[] = [];
    const released: CandidateRow[] = [];
    for (const order of withWork) {
      const change = await this.release.release(uow, actor, { id: n(order.id), status: order.status }, { id: waveId, number: waveNumber });
      if (change) {
        changes.push(change);
        released.push(order);
      } else {
        refused.push({ orderId: n(order.id), soNumber: order.so_number, message: `Order ${order.so_number} changed meanwhile; try again` });
      }
    }
    if (released.length === 0) throw conflict('Every order changed meanwhile; try again');

    const releasedBy = new Map(released.map((o) => [o.so_number, o]));
    const work: PickWork[] = reservations.filter((r) => releasedBy.has(r.document_id)).map((r) => ({
      orderId: n(releasedBy.get(r.document_id)!.id), orderLineId: n(r.document_line), customerId: n(r.customer_id), skuId: n(r.sku_id), lot: r.lot, pallet: r.pallet,
      quantity: n(r.quantity),
      place: { locationId: n(r.location_id), code: r.code, zone: r.zone, aisle: r.aisle, rack: r.rack, level: r.level, bin: r.bin },
    }));
    const jobs = cutWave(input.strategy as PickStrategy, released.map((o) => ({ orderId: n(o.id), priority: n(o.priority), requestedShipDate: o.requested_ship_date, customerId: n(o.customer_id) })),
      work, input.totesPerJob);
    const jobIds: number[] = [];
    for (const job of jobs) {
      const jobNumber = (await documentNumbers.next(uow, 'JOB')).number;
      const jobId = await repo.insertJob(uow.tx, { job_number: jobNumber, wave_id: waveId, warehouse_id: input.warehouseId, strategy: input.strategy, zone: job.zone, priority: job.priority, at });
      jobIds.push(jobId);
      await repo.insertJobOrders(uow.tx, job.orderIds.map((orderId, i) => ({ job_id: jobId, order_id: orderId, slot: i + 1 })));
      await repo.insertTasks(uow.tx, job.tasks.map((t) => ({
        job_id: jobId, seq: t.seq, order_id: t.orderId, order_line_id: t.orderLineId, warehouse_id: input.warehouseId, customer_id: t.customerId,
        sku_id: t.skuId, location_id: t.place.locationId, lot: t.lot, pallet: t.pallet, quantity: t.quantity,
      })));
    }
    const wave = toWaveSummary((await repo.findWave(uow.tx, Scope.everything, waveId))!);
    const jobSummaries = (await repo.jobsOfWave(uow.tx, waveId)).map(toJobSummary);
    await this.recorder.record(uow, actor, ...changes, waveChange(wave, 'create', 'AddWave', undefined, { ruleId, jobs: jobSummaries.map((j) => j.jobNumber) }),
      ...jobSummaries.map((j) => jobChange(j, 'create')));
    return {
      wave,
      released: released.map((o) => ({ orderId: n(o.id), soNumber: o.so_number })),
      refused,
    };
  }

  /** Why an order cannot go into this wave, or null when it can. Another client's order is simply not found. */
  private refusal(principal: Principal, warehouseId: number, order: CandidateRow | undefined): string | null {
    if (!order || !principal.scope.canSeeWarehouse(n(order.warehouse_id)) || !principal.scope.canSeeCustomer(n(order.customer_id))) return 'Order not found';
    const so = order.so_number;
    if (n(order.warehouse_id) !== warehouseId) return `Order ${so} is in another warehouse`;
    if (order.order_type === 'Purchase') return `Order ${so} is a purchase order: nothing is picked for it`;
    if (order.status === 'Allocated') return null;
    if (SHORT.includes(order.status as OrderStatus)) {
      return n(order.allow_backorders) === 1 ? null
        : `Order ${so} is ${order.status} and its client does not allow backorders: allocate it in full first`;
    }
    if (order.status === 'Released') return `Order ${so} is already released`;
    return `Order ${so} is ${order.status}; only Allocated orders are released`;
  }

  async list(principal: Principal, req: ListRequest<WaveFilterValues>) {
    return toListPage(await repo.listWaves(this.db, this.dialect, principal.scope, req), toWaveSummary);
  }

  /** A wave's summary read in the caller's transaction, whatever the scope (picking records the wave's progress with it). */
  async summaryWithin(db: Executor, waveId: number) {
    const row = await repo.findWave(db, Scope.everything, waveId);
    if (!row) throw notFound('Wave');
    return toWaveSummary(row);
  }

  /** One wave with its jobs; 404 outside the caller's warehouses. */
  async get(principal: Principal, waveId: number) {
    const row = await repo.findWave(this.db, principal.scope, waveId);
    if (!row) throw notFound('Wave');
    return { ...toWaveSummary(row), jobs: (await repo.jobsOfWave(this.db, waveId)).map(toJobSummary) };
  }

  /**
   * Cancels a wave no one has picked from (every job Open or Assigned, no unit picked or short): its jobs are
   * Cancelled and its orders go back to what their lines hold, reservations untouched.
   */
  async cancel(principal: Principal, input: { waveId: number; reason?: string }, actor: Actor) {
    const owner = await repo.findWave(this.db, principal.scope, input.waveId);
    if (!owner) throw notFound('Wave');
    const reason = input.reason ?? null;
    const wave = await inTransaction(this.db, async (uow) => {
      await this.statuses.transition(uow, actor, {
        kind: 'WAVE', id: input.waveId, to: 'Cancelled', from: ['Open'], reason, set: { updated_at: new Date().toISOString() },
        refusal: (status) => `Wave is ${status}; only an Open wave can be cancelled`,
      });
      const jobs = await repo.jobsOfWave(uow.tx, input.waveId);
      const started = jobs.find((j) => !['Open', 'Assigned', 'Cancelled'].includes(j.status));
      if (started || await repo.wavePickStarted(uow.tx, input.waveId)) {
        throw conflict(`Picking has started${started ? ` on ${started.job_number}` : ''}: the wave can no longer be cancelled`);
      }
      const live = jobs.filter((j) => j.status !== 'Cancelled');
      for (const job of live) {
        await this.statuses.transition(uow, actor, { kind: 'PICK_JOB', id: n(job.id), to: 'Cancelled', from: ['Open', 'Assigned'], reason, set: { updated_at: new Date().toISOString() } });
      }
      const freed = live.length ? await repo.ordersFreedBy(uow.tx, live.map((j) => n(j.id))) : [];
      const orderChanges = await this.release.takeBack(uow, actor, freed.map((o) => n(o.id)), reason);
      const after = toWaveSummary((await repo.findWave(uow.tx, Scope.everything, input.waveId))!);
      const jobsAfter = (await repo.jobsOfWave(uow.tx, input.waveId)).filter((j) => live.some((l) => n(l.id) === n(j.id))).map(toJobSummary);
      await this.recorder.record(uow, actor, ...orderChanges, waveChange(after, 'cancel', 'UpdateWave', { status: 'Open' }, reason ? { reason } : undefined),
        ...jobsAfter.map((j) => jobChange(j, 'cancel', { status: live.find((l) => n(l.id) === j.jobId)!.status })));
      return after;
    });
    return { message: `Wave ${wave.waveNumber} is cancelled; its orders are back to be released again`, data: wave };
  }
}
