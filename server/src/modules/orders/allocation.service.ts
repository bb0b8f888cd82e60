import { CLIENT_CANCELLABLE_ORDER_STATUSES, ORDER_BATCH_MATCHING_MAX } from '@bolx/contracts';
import type { AllocationResult, OrderBatchInput, OrderBatchResult, OrderStatus, OrderSummary, ShortReason } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { domainEvent } from '../../platform/domain-events.js';
import { AppError, conflict, notFound, unprocessable } from '../../platform/errors.js';
import type { Principal } from '../../platform/principal.js';
import { Scope } from '../../platform/scope.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import type { StockEngine } from '../../platform/stock/stock-engine.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import { allocationRepository as alloc } from './allocation.repository.js';
import { orderChange, type OrderSubEvent } from './order-changes.js';
import { orderRepository as orders, type OrderRow } from './orders.repository.js';
import { toSummary } from './orders.service.js';

const n = (v: unknown) => Number(v);

/** The statuses allocation runs from: an order not yet allocated, or one still short. */
const ALLOCATABLE: OrderStatus[] = ['New', 'Partially Allocated', 'Backordered'];
/** Statuses a client account may still cancel from: before the order is released to the floor. */
const CLIENT_CANCELLABLE: OrderStatus[] = [...CLIENT_CANCELLABLE_ORDER_STATUSES];

/**
 * The status an order's holding gives it: every line whole → Allocated; some short → Backordered when the customer
 * lets orders wait, else Partially Allocated. (An order taken back from the floor goes back to this too.)
 */
export const heldStatus = (whole: boolean, allowBackorders: boolean): OrderStatus =>
  (whole ? 'Allocated' : allowBackorders ? 'Backordered' : 'Partially Allocated');

/** A reservation's owner: the order line (document SO, its number, the line id). */
const ownerOf = (soNumber: string, lineId: number) => ({ documentType: 'SO', documentId: soNumber, documentLine: String(lineId) });

type LineOutcome = AllocationResult['orders'][number]['lines'][number];
type OrderOutcome = AllocationResult['orders'][number];

/** A status move a person makes on an order, and what it does to the stock the order holds. */
interface Move {
  to: OrderStatus;
  action: string;
  subEvent: OrderSubEvent;
  done: string;
  /** Gives back every unit the order holds (its lines' reservations), in the move's transaction. */
  releases: boolean;
  from?: OrderStatus[];
}

/**
 * What an order holds of the stock: allocation (the dashboard's Allocate, and backorders filled as stock arrives),
 * giving it back (Unallocate), and the moves that end or stop an order (cancel, hold, release the hold), one order
 * or a batch. Each order is its own transaction: the order row is taken first (the status machine's conditional
 * UPDATE), then its reservations (the stock engine), so two runs on one order take turns and the locks are always
 * taken in the same order. In a batch, one order's refusal never stops the others.
 */
export class OrderAllocationService {
  private readonly db: Db;
  private readonly dialect: ServiceDeps['dialect'];
  private readonly recorder: ChangeRecorder;
  private readonly statuses: StatusMachine;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder'>, private readonly stock: StockEngine) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.statuses = new StatusMachine(deps);
  }

  /** Allocates each order's short lines from free pickable stock (FEFO/FIFO, the engine's rules) and sets its status. */
  async allocate(principal: Principal, input: OrderBatchInput, actor: Actor): Promise<AllocationResult> {
    const outcomes: OrderOutcome[] = [];
    const orderIds = await this.batchIds(principal, input);
    const batch = await this.eachOrder(principal, orderIds, async (order) => {
      if (order.order_type === 'Purchase') throw conflict(`Order ${order.so_number} is a purchase order: it brings goods in, nothing is allocated to it`);
      const outcome = await inTransaction(this.db, (uow) => this.allocateOrder(uow, actor, order.id, 'AllocateOrder'));
      outcomes.push(outcome!);
      return outcome!.status;
    });
    const shortLinesByReason: Partial<Record<ShortReason, number>> = {};
    for (const line of outcomes.flatMap((o) => o.lines)) if (line.shortReason) shortLinesByReason[line.shortReason] = (shortLinesByReason[line.shortReason] ?? 0) + 1;
    const counted = (status: OrderStatus) => outcomes.filter((o) => o.status === status).length;
    return {
      ...batch, orders: outcomes,
      summary: {
        orders: orderIds.length, allocated: counted('Allocated'), partiallyAllocated: counted('Partially Allocated'), backordered: counted('Backordered'),
        refused: batch.refused.length, shortLinesByReason,
      },
    };
  }

  /**
   * Allocates one order's short lines in the caller's transaction. The order row is held first (409 unless New,
   * Partially Allocated or Backordered). Then: every line whole → Allocated; some short → Backordered when the
   * customer lets orders wait, else Partially Allocated — also when nothing at all could be allocated, so the order
   * shows on /BKO with its short reasons instead of looking untouched. `onlyWhenChanged` (backorders filled as stock
   * arrives): nothing is recorded when no unit was added. Answers undefined only then.
   */
  async allocateOrder(uow: UnitOfWork, actor: Actor, orderId: number, subEvent: OrderSubEvent, onlyWhenChanged = false): Promise<OrderOutcome | undefined> {
    const held = await this.statuses.hold(uow, {
      kind: 'SALES_ORDER', id: orderId, in: ALLOCATABLE,
      refusal: (status) => `Order is ${status}; only New, Partially Allocated or Backordered orders are allocated`,
    });
    const order = (await alloc.order(uow.tx, orderId))!;
    let added = 0;
    const lines: LineOutcome[] = [];
    const changed: { lineId: number; allocated: number; shortReason: ShortReason | null }[] = [];
    const byLineNo = await alloc.lines(uow.tx, orderId);
    // Lines by SKU: two orders' allocations lock the SKUs' balances in the same order (fewer deadlocks on PostgreSQL).
    const sorted = [...byLineNo].sort((a, b) => a.sku_id - b.sku_id || n(a.line_no) - n(b.line_no));
    const short = sorted.filter((line) => n(line.allocated_qty) < n(line.quantity));
    // The order's short lines in one call: a fixed number of statements for the order, whatever its lines.
    const taken = new Map((await this.stock.allocateMany(uow, short.map((line) => ({
      owner: ownerOf(order.so_number, line.id), warehouseId: order.warehouse_id, customerId: order.customer_id, skuId: line.sku_id,
      quantity: n(line.quantity) - n(line.allocated_qty), lot: line.lot || undefined, locations: 'pickable' as const,
      multipleOf: n(line.units_per_package), allowPartial: true,
    })))).map((result, i) => [short[i].id, result]));
    for (const line of sorted) {
      const quantity = n(line.quantity);
      let allocated = n(line.allocated_qty);
      let shortReason = (line.short_reason ?? null) as ShortReason | null;
      const take = taken.get(line.id);
      if (take) {
        allocated += take.allocated;
        added += take.allocated;
        // A kit line short of built kits waits for a kit build, whatever else is missing.
        shortReason = take.short === 0 ? null : n(line.is_kit) === 1 ? 'awaiting-kit-build' : take.shortReason ?? 'no-stock';
        changed.push({ lineId: line.id, allocated, shortReason });
      }
      lines.push({
        lineId: line.id, lineNo: n(line.line_no), skuCode: line.sku_code, quantity, allocatedQuantity: allocated,
        shortQuantity: quantity - allocated, shortReason: allocated < quantity ? shortReason : null,
      });
    }
    await alloc.setLines(uow.tx, changed);
    lines.sort((a, b) => a.lineNo - b.lineNo);
    const skuOf = new Map(byLineNo.map((l) => [l.id, l.sku_id]));
    const to = heldStatus(lines.every((l) => l.shortQuantity === 0), n(order.allow_backorders) === 1);
    if (onlyWhenChanged && added === 0 && to === held.status) return undefined;
    await this.statuses.transition(uow, actor, { kind: 'SALES_ORDER', id: orderId, to, from: ALLOCATABLE, set: { updated_at: new Date().toISOString() } });
    const after = await this.summary(uow, orderId);
    await this.recorder.record(uow, actor, orderChange(after, {
      action: 'allocate', subEvent, before: { status: held.status },
      raises: [domainEvent('order.allocated', {
        orderId, soNumber: after.soNumber, status: to, warehouseId: after.warehouseId, customerId: after.customerId,
        lines: lines.map((l) => ({ lineId: l.lineId, skuId: skuOf.get(l.lineId)!, allocated: l.allocatedQuantity, short: l.shortQuantity, shortReason: l.shortReason })),
      })],
    }));
    return { orderId, soNumber: after.soNumber, status: to, orderedQuantity: after.orderedQuantity, allocatedQuantity: after.allocatedQuantity, lines };
  }

  /** Gives back everything the orders hold: each goes back to New, its lines' reservations released. */
  unallocate(principal: Principal, input: OrderBatchInput, actor: Actor) {
    return this.batch(principal, input, actor, {
      to: 'New', action: 'unallocate', subEvent: 'UnallocateOrder', done: 'is unallocated', releases: true, from: ['Allocated', 'Partially Allocated', 'Backordered'],
    });
  }

  /**
   * Stops orders before the floor takes them. A held order gives back what it holds: it may wait a long time, and
   * stock others can ship must not sit reserved for it; releasing the hold takes it back to New to be allocated again.
   */
  holdMany(principal: Principal, input: OrderBatchInput, actor: Actor) {
    return this.batch(principal, input, actor, this.holdMove());
  }

  releaseHolds(principal: Principal, input: OrderBatchInput, actor: Actor) {
    return this.batch(principal, input, actor, this.releaseMove());
  }

  /** Cancels orders picking has not started (a client account: only before release), giving back what they hold. */
  cancelMany(principal: Principal, input: OrderBatchInput, actor: Actor) {
    return this.batch(principal, input, actor, this.cancelMove(principal));
  }

  hold(principal: Principal, input: { orderId: number; reason?: string }, actor: Actor) {
    return this.one(principal, input, actor, this.holdMove());
  }

  releaseHold(principal: Principal, input: { orderId: number; reason?: string }, actor: Actor) {
    return this.one(principal, input, actor, this.releaseMove());
  }

  cancel(principal: Principal, input: { orderId: number; reason?: string }, actor: Actor) {
    return this.one(principal, input, actor, this.cancelMove(principal));
  }

  private holdMove(): Move {
    return { to: 'On Hold', action: 'hold', subEvent: 'HoldOrder', done: 'is on hold', releases: true };
  }

  private releaseMove(): Move {
    return { to: 'New', action: 'release-hold', subEvent: 'ReleaseHold', done: 'is released from hold', releases: false, from: ['On Hold'] };
  }

  private cancelMove(principal: Principal): Move {
    return { to: 'Cancelled', action: 'cancel', subEvent: 'CancelOrder', done: 'is cancelled', releases: true, ...(principal.role === 'Client' ? { from: CLIENT_CANCELLABLE } : {}) };
  }

  /** One order's move, answered as the single endpoints do (404 outside the caller's scope, 409 when it cannot move). */
  private async one(principal: Principal, input: { orderId: number; reason?: string }, actor: Actor, move: Move) {
    const before = await orders.find(this.db, principal.scope, input.orderId);
    if (!before) throw notFound('Order');
    const after = await inTransaction(this.db, (uow) => this.moveOrder(uow, actor, before, move, input.reason));
    return { message: `Order ${after.soNumber} ${move.done}`, data: after };
  }

  private async batch(principal: Principal, input: OrderBatchInput, actor: Actor, move: Move): Promise<OrderBatchResult> {
    return this.eachOrder(principal, await this.batchIds(principal, input), async (order) =>
      (await inTransaction(this.db, (uow) => this.moveOrder(uow, actor, order, move, input.reason))).status);
  }

  private async moveOrder(uow: UnitOfWork, actor: Actor, before: OrderRow, move: Move, reason?: string) {
    await this.statuses.transition(uow, actor, {
      kind: 'SALES_ORDER', id: before.id, to: move.to, ...(move.from ? { from: move.from } : {}), reason: reason ?? null,
      set: { updated_at: new Date().toISOString() },
    });
    if (move.releases) await this.releaseAll(uow, before.id, before.so_number);
    const after = await this.summary(uow, before.id);
    await this.recorder.record(uow, actor, orderChange(after, { action: move.action, subEvent: move.subEvent, before: { status: before.status }, extra: reason ? { reason } : undefined }));
    return after;
  }

  /** Releases every reservation of the order's lines and sets them back to nothing allocated. */
  private async releaseAll(uow: UnitOfWork, orderId: number, soNumber: string) {
    for (const line of await alloc.lines(uow.tx, orderId)) {
      if (n(line.allocated_qty) > 0) await this.stock.release(uow, ownerOf(soNumber, line.id));
    }
    await alloc.clearLines(uow.tx, orderId);
  }

  /**
   * The orders a batch names: the picked ids, or every order its filters and search match in the caller's scope —
   * at most ORDER_BATCH_MATCHING_MAX, else 422 and nothing done (a bulk action must not run for minutes unseen).
   */
  private async batchIds(principal: Principal, input: OrderBatchInput): Promise<number[]> {
    if (input.orderIds) return input.orderIds;
    const ids = await orders.matchingIds(this.db, this.dialect, principal.scope, input.filters ?? {}, input.searchQuery ?? '', ORDER_BATCH_MATCHING_MAX + 1);
    if (ids.length > ORDER_BATCH_MATCHING_MAX) {
      const why = `More than ${ORDER_BATCH_MATCHING_MAX.toLocaleString('en-US')} orders match the filters: narrow them`;
      throw unprocessable(why, { filters: why });
    }
    return ids;
  }

  /**
   * Runs `work` for each order in the caller's scope, each on its own: an order the caller may not see is refused
   * as not found (nothing learnt about another client's orders), and a refusal (4xx) is that order's answer.
   */
  private async eachOrder(principal: Principal, ids: number[], work: (order: OrderRow) => Promise<OrderStatus>): Promise<OrderBatchResult> {
    const result: OrderBatchResult = { done: [], refused: [] };
    for (const orderId of [...new Set(ids)]) {
      const order = await orders.find(this.db, principal.scope, orderId);
      if (!order) {
        result.refused.push({ orderId, soNumber: null, message: 'Order not found' });
        continue;
      }
      try {
        result.done.push({ orderId, soNumber: order.so_number, status: await work(order) });
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        result.refused.push({ orderId, soNumber: order.so_number, message: err.message.replace(/^Order is/, `Order ${order.so_number} is`) });
      }
    }
    return result;
  }

  private async summary(uow: UnitOfWork, orderId: number): Promise<OrderSummary> {
    return toSummary((await orders.find(uow.tx, Scope.everything, orderId))!);
  }
}
