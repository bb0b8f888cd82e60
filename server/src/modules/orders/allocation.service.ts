import { CLIENT_CANCELLABLE_ORDER_STATUSES, ORDER_BATCH_MATCHING_MAX, sourcesOf } from '@bolx/contracts';
import type { AllocationResult, OrderBatchInput, OrderBatchResult, OrderStatus, OrderSummary, ShortReason } from '@bolx/contracts';
import { sql } from 'kysely';
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
import { orderRepository as orders, SALES_ORDER_NAMES, type OrderRow } from './orders.repository.js';
import { toSummary } from './orders.service.js';

const n = (v: unknown) => Number(v);

/** What allocation reads of an order it holds besides its row: its client's backorder setting and its names (one constant: holdMany keeps its statement compiled per list). */
const HELD_ORDER_COLUMNS = [sql<number>`(select c.allow_backorders from customer c where c.id = sales_order.customer_id)`.as('allow_backorders'), ...SALES_ORDER_NAMES];

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
type AllocLine = Awaited<ReturnType<typeof alloc.linesOf>>[number];
/** An order row as allocation holds it: the row, with its customer's backorder setting. */
type HeldOrder = { id: number; so_number: string; warehouse_id: number; customer_id: number; order_type: string; status: OrderStatus; allow_backorders: number };

/** Orders allocated in one transaction by a batch: a fixed number of statements each, locks held a short while. */
export const ORDERS_PER_TRANSACTION = 200;
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

  /**
   * Allocates each order's short lines from free pickable stock (FEFO/FIFO, the engine's rules) and sets its status.
   * Set-based: the orders go ORDERS_PER_TRANSACTION to a transaction (allocateSet), in the order given (earlier
   * orders are served first when they compete for stock). One order's refusal never stops the others.
   */
  async allocate(principal: Principal, input: OrderBatchInput, actor: Actor): Promise<AllocationResult> {
    const orderIds = [...new Set(await this.batchIds(principal, input))];
    const visible = new Map((await orders.findMany(this.db, principal.scope, orderIds)).map((o) => [n(o.id), o]));
    const answers = new Map<number, OrderOutcome | AppError>();
    const toAllocate: number[] = [];
    for (const id of orderIds) {
      const order = visible.get(id);
      if (order?.order_type === 'Purchase') answers.set(id, conflict(`Order ${order.so_number} is a purchase order: it brings goods in, nothing is allocated to it`));
      else if (order) toAllocate.push(id);
    }
    for (let i = 0; i < toAllocate.length; i += ORDERS_PER_TRANSACTION) {
      const part = toAllocate.slice(i, i + ORDERS_PER_TRANSACTION);
      for (const [id, answer] of await inTransaction(this.db, (uow) => this.allocateSet(uow, actor, part, 'AllocateOrder'))) answers.set(id, answer!);
    }
    const outcomes: OrderOutcome[] = [];
    const batch: OrderBatchResult = { done: [], refused: [] };
    for (const orderId of orderIds) {
      const order = visible.get(orderId);
      const answer = answers.get(orderId);
      if (!order || !answer) batch.refused.push({ orderId, soNumber: null, message: 'Order not found' });
      else if (answer instanceof AppError) batch.refused.push({ orderId, soNumber: order.so_number, message: answer.message.replace(/^Order is/, `Order ${order.so_number} is`) });
      else {
        outcomes.push(answer);
        batch.done.push({ orderId, soNumber: order.so_number, status: answer.status });
      }
    }
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
   * Allocates one order's short lines in the caller's transaction (allocateSet for one order): 409 unless it is New,
   * Partially Allocated or Backordered. Answers undefined only for `onlyWhenChanged` with nothing changed.
   */
  async allocateOrder(uow: UnitOfWork, actor: Actor, orderId: number, subEvent: OrderSubEvent, onlyWhenChanged = false): Promise<OrderOutcome | undefined> {
    const answer = (await this.allocateSet(uow, actor, [orderId], subEvent, onlyWhenChanged)).get(orderId);
    if (answer instanceof AppError) throw answer;
    return answer;
  }

  /**
   * Allocates the short lines of many orders in the caller's transaction, in a fixed number of statements whatever
   * their number: the order rows are held first (one conditional UPDATE; an order not New, Partially Allocated or
   * Backordered is refused with its 409, a purchase order likewise), their lines read in one statement, and every
   * short line of every order allocated in one call of the stock engine (its balances locked first, in one
   * statement), the orders in the order given and each order's lines by SKU; then the lines, the statuses with
   * their history, the audit rows, hub events and domain events each in one statement (per few hundred rows).
   * Every line whole → Allocated; some short → Backordered when the customer lets orders wait, else Partially
   * Allocated — also when nothing at all could be allocated, so the order shows on /BKO with its short reasons
   * instead of looking untouched. `onlyWhenChanged` (backorders filled as stock arrives): an order to which no unit
   * was added and whose status stays is left as it was, answered undefined. Answers each order's outcome or refusal.
   */
  async allocateSet(uow: UnitOfWork, actor: Actor, orderIds: number[], subEvent: OrderSubEvent, onlyWhenChanged = false): Promise<Map<number, OrderOutcome | AppError | undefined>> {
    const answers = new Map<number, OrderOutcome | AppError | undefined>();
    const { held, refused } = await this.statuses.holdMany<'SALES_ORDER', HeldOrder>(uow, {
      kind: 'SALES_ORDER', ids: orderIds, in: ALLOCATABLE,
      returning: HELD_ORDER_COLUMNS,
      refusal: (status) => `Order is ${status}; only New, Partially Allocated or Backordered orders are allocated`,
    });
    for (const [id, err] of refused) answers.set(id, err);
    const byId = new Map<number, HeldOrder>();
    for (const order of held) {
      if (order.order_type === 'Purchase') answers.set(n(order.id), conflict(`Order ${order.so_number} is a purchase order: it brings goods in, nothing is allocated to it`));
      else byId.set(n(order.id), order);
    }
    const linesOf = new Map<number, AllocLine[]>();
    for (const line of await alloc.linesOf(uow.tx, [...byId.keys()])) linesOf.set(n(line.order_id), [...(linesOf.get(n(line.order_id)) ?? []), line]);
    // In the order given; each order's lines by SKU, so allocations lock a SKU's balances in one order.
    const chosen = orderIds.filter((id, i) => byId.has(id) && orderIds.indexOf(id) === i).map((id) => {
      const byLineNo = linesOf.get(id) ?? [];
      const sorted = [...byLineNo].sort((a, b) => a.sku_id - b.sku_id || n(a.line_no) - n(b.line_no));
      return { order: byId.get(id)!, byLineNo, sorted, short: sorted.filter((line) => n(line.allocated_qty) < n(line.quantity)) };
    });
    const short = chosen.flatMap((c) => c.short.map((line) => ({ order: c.order, line })));
    const results = await this.stock.allocateMany(uow, short.map(({ order, line }) => ({
      owner: ownerOf(order.so_number, line.id), warehouseId: n(order.warehouse_id), customerId: n(order.customer_id), skuId: line.sku_id,
      quantity: n(line.quantity) - n(line.allocated_qty), lot: line.lot || undefined, locations: 'pickable' as const,
      multipleOf: n(line.units_per_package), allowPartial: true,
    })), { lockBalances: true });
    const taken = new Map(results.map((result, i) => [short[i].line.id, result]));
    const changed: { lineId: number; allocated: number; shortReason: ShortReason | null }[] = [];
    const moving: { order: HeldOrder; to: OrderStatus; lines: LineOutcome[]; shipped: number; skuOf: Map<number, number> }[] = [];
    for (const { order, byLineNo, sorted } of chosen) {
      let added = 0;
      const lines: LineOutcome[] = [];
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
      lines.sort((a, b) => a.lineNo - b.lineNo);
      const to = heldStatus(lines.every((l) => l.shortQuantity === 0), n(order.allow_backorders) === 1);
      if (onlyWhenChanged && added === 0 && to === order.status) {
        answers.set(n(order.id), undefined);
        continue;
      }
      moving.push({ order, to, lines, shipped: byLineNo.reduce((sum, l) => sum + n(l.shipped_qty), 0), skuOf: new Map(byLineNo.map((l) => [l.id, l.sku_id])) });
    }
    await alloc.setLines(uow.tx, this.dialect, changed);
    if (moving.length === 0) return answers;
    const moved = await this.statuses.transitionMany(uow, actor, {
      kind: 'SALES_ORDER', moves: moving.map((m) => ({ id: n(m.order.id), to: m.to })), from: ALLOCATABLE, set: { updated_at: new Date().toISOString() },
    });
    const rowAfter = new Map(moved.map((r) => [n(r.id), r]));
    const changes = moving.map(({ order, to, lines, shipped, skuOf }) => {
      // The summary after, from what this transaction read and wrote: the held row's names, the moved row, the lines' totals.
      const summary = toSummary({
        ...order, ...rowAfter.get(n(order.id))!, line_count: lines.length, ordered_qty: lines.reduce((sum, l) => sum + l.quantity, 0),
        allocated_total: lines.reduce((sum, l) => sum + l.allocatedQuantity, 0), shipped_total: shipped,
      } as unknown as OrderRow);
      answers.set(summary.orderId, {
        orderId: summary.orderId, soNumber: summary.soNumber, status: to, orderedQuantity: summary.orderedQuantity, allocatedQuantity: summary.allocatedQuantity, lines,
      });
      return orderChange(summary, {
        action: 'allocate', subEvent, before: { status: order.status },
        raises: [domainEvent('order.allocated', {
          orderId: summary.orderId, soNumber: summary.soNumber, status: to, warehouseId: summary.warehouseId, customerId: summary.customerId,
          lines: lines.map((l) => ({ lineId: l.lineId, skuId: skuOf.get(l.lineId)!, allocated: l.allocatedQuantity, short: l.shortQuantity, shortReason: l.shortReason })),
        })],
      });
    });
    await this.recorder.record(uow, actor, ...changes);
    return answers;
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
    const [before] = await orders.findMany(this.db, principal.scope, [input.orderId]);
    if (!before) throw notFound('Order');
    const after = (await inTransaction(this.db, (uow) => this.moveSet(uow, actor, [before.id], move, input.reason))).get(before.id)!;
    if (after instanceof AppError) throw after;
    return { message: `Order ${after.soNumber} ${move.done}`, data: after };
  }

  /** A move of many orders: ORDERS_PER_TRANSACTION to a transaction, set-based (moveSet); one's refusal never stops the others. */
  private async batch(principal: Principal, input: OrderBatchInput, actor: Actor, move: Move): Promise<OrderBatchResult> {
    const orderIds = [...new Set(await this.batchIds(principal, input))];
    const visible = new Map((await orders.findMany(this.db, principal.scope, orderIds)).map((o) => [n(o.id), o]));
    const seen = orderIds.filter((id) => visible.has(id));
    const answers = new Map<number, OrderSummary | AppError>();
    for (let i = 0; i < seen.length; i += ORDERS_PER_TRANSACTION) {
      const part = seen.slice(i, i + ORDERS_PER_TRANSACTION);
      for (const [id, answer] of await inTransaction(this.db, (uow) => this.moveSet(uow, actor, part, move, input.reason))) answers.set(id, answer);
    }
    const result: OrderBatchResult = { done: [], refused: [] };
    for (const orderId of orderIds) {
      const order = visible.get(orderId);
      const answer = answers.get(orderId);
      if (!order || !answer) result.refused.push({ orderId, soNumber: null, message: 'Order not found' });
      else if (answer instanceof AppError) result.refused.push({ orderId, soNumber: order.so_number, message: answer.message.replace(/^Order is/, `Order ${order.so_number} is`) });
      else result.done.push({ orderId, soNumber: order.so_number, status: answer.status });
    }
    return result;
  }

  /**
   * Moves many orders in the caller's transaction in a fixed number of statements: held first (one conditional
   * UPDATE; one not in a status to move is refused with its 409), moved with their history rows, what they hold given
   * back (every reservation of their lines, in three statements), their lines cleared, then the audit rows and hub
   * events. Answers each order's summary after the move, or its refusal.
   */
  private async moveSet(uow: UnitOfWork, actor: Actor, orderIds: number[], move: Move, reason?: string): Promise<Map<number, OrderSummary | AppError>> {
    const answers = new Map<number, OrderSummary | AppError>();
    const from = (move.from ?? (sourcesOf('SALES_ORDER', move.to) as OrderStatus[])).filter((s) => s !== move.to);
    const { held, refused } = await this.statuses.holdMany<'SALES_ORDER', { id: number; so_number: string; status: OrderStatus }>(uow, {
      kind: 'SALES_ORDER', ids: orderIds, in: from, to: move.to,
    });
    for (const [id, err] of refused) answers.set(id, err);
    if (held.length === 0) return answers;
    const ids = held.map((o) => n(o.id));
    await this.statuses.transitionMany(uow, actor, {
      kind: 'SALES_ORDER', moves: ids.map((id) => ({ id, to: move.to })), from, reason: reason ?? null, set: { updated_at: new Date().toISOString() },
    });
    if (move.releases) {
      await this.stock.releaseDocuments(uow, 'SO', held.map((o) => o.so_number));
      await alloc.clearLinesOf(uow.tx, ids);
    }
    const after = new Map((await orders.findMany(uow.tx, Scope.everything, ids)).map((r) => [n(r.id), toSummary(r)]));
    await this.recorder.record(uow, actor, ...held.map((o) => {
      const summary = after.get(n(o.id))!;
      answers.set(summary.orderId, summary);
      return orderChange(summary, { action: move.action, subEvent: move.subEvent, before: { status: o.status }, extra: reason ? { reason } : undefined });
    }));
    return answers;
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
}
