import {
  ERROR_CODES, ORDER_PRIORITY_DEFAULT, ORDER_STATUSES, type CreateOrderInput, type ShortReason, type OrderFilters, type OrderSource, type OrderStatus, type OrderSummary,
} from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { domainEvent, type RaisedEvent } from '../../platform/domain-events.js';
import { AppError, conflict, notFound, unprocessable } from '../../platform/errors.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import { Scope } from '../../platform/scope.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { documentNumbers } from '../../platform/document-numbers.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import { unitsOfPackage } from '../scans/scans.service.js';
import { orderRepository as repo, type IntakeSku, type OrderRow } from './orders.repository.js';
import { allocationRepository } from './allocation.repository.js';
import { orderChange, type OrderSubEvent } from './order-changes.js';
import { orderDocumentRepository } from './order-documents.repository.js';
import type { OrderReceipts } from './order-receipts.js';

type Line = Awaited<ReturnType<typeof repo.lines>>[number];
type History = Awaited<ReturnType<typeof repo.history>>[number];
type Level = Awaited<ReturnType<typeof repo.packages>>[number];
type IntakeFacts = Awaited<ReturnType<typeof repo.intakeFacts>>;
/** An order that passed the intake's checks, with what they read: its SKUs, their package levels, each line's units per package. */
interface CheckedOrder { input: CreateOrderInput; skus: Map<number, IntakeSku>; levels: Level[]; units: number[] }

const n = (v: unknown) => Number(v);
const orNull = (s: string | undefined) => (s === undefined || s === '' ? null : s);

export const toSummary = (r: OrderRow): OrderSummary => ({
  uniqueid: r.id, orderId: r.id, soNumber: r.so_number, warehouseId: r.warehouse_id, warehouseName: r.warehouse_name, customerId: r.customer_id,
  customerName: r.customer_name, orderType: r.order_type as OrderSummary['orderType'], referenceNumber: r.reference_number, orderDate: r.order_date,
  requestedShipDate: r.requested_ship_date, priority: n(r.priority), shipToName: r.ship_to_name, shipToAddress1: r.ship_to_address1,
  shipToAddress2: r.ship_to_address2, shipToCity: r.ship_to_city, shipToState: r.ship_to_state, shipToZip: r.ship_to_zip,
  shipToCountry: r.ship_to_country, shipToPhone: r.ship_to_phone, shipToEmail: r.ship_to_email,
  carrierAccountId: r.carrier_account_id == null ? null : n(r.carrier_account_id), carrierName: r.carrier_name, carrierService: r.carrier_service,
  notes: r.notes, toWarehouseId: r.to_warehouse_id == null ? null : n(r.to_warehouse_id), toWarehouseName: r.to_warehouse_name,
  receivingOrderId: r.receiving_order_id == null ? null : n(r.receiving_order_id), receivingOrderNumber: r.receiving_order_number,
  status: r.status as OrderStatus, source: r.source as OrderSource, lineCount: n(r.line_count), orderedQuantity: n(r.ordered_qty),
  allocatedQuantity: n(r.allocated_total), shippedQuantity: n(r.shipped_total), createdBy: r.created_by_name, createdAt: r.created_at, updatedAt: r.updated_at,
});

type Reservation = Awaited<ReturnType<typeof allocationRepository.reservations>>[number];

const toLine = (l: Line, reservations: Reservation[]) => ({
  lineId: l.id, lineNo: n(l.line_no), skuId: l.sku_id, skuCode: l.sku_code, skuDescription: l.description, isKit: n(l.is_kit) === 1,
  quantity: n(l.quantity), packageId: l.package_id == null ? null : n(l.package_id), packageName: l.package_name ?? null,
  unitsPerPackage: n(l.units_per_package), lot: l.lot, allocatedQuantity: n(l.allocated_qty), shippedQuantity: n(l.shipped_qty), notes: l.notes,
  shortReason: (l.short_reason ?? null) as ShortReason | null,
  allocations: reservations.filter((r) => r.document_line === String(l.id)).map((r) => ({
    balanceId: n(r.balance_id), locationId: n(r.location_id), locationCode: r.location_code, lot: r.lot, expiryDate: r.expiry_date, pallet: r.pallet, quantity: n(r.quantity),
  })),
});

const toHistory = (h: History) => ({ fromStatus: h.from_status, toStatus: h.to_status, at: h.at, username: h.username, reason: h.reason });

const toDocument = (d: Awaited<ReturnType<typeof orderDocumentRepository.list>>[number]) => ({
  id: d.id, fileName: d.file_name, size: n(d.size_bytes), uploadedAt: d.created_at, uploadedBy: d.username,
});

const usedByAnother = (reference: string) => new AppError(409, ERROR_CODES.CONFLICT, `Reference number ${reference} is already used by another order of this client`,
  { referenceNumber: 'Already used by another order of this client' });

/** Thrown inside the intake's transaction when the reference was taken meanwhile: rolls back (the SO number too). */
class RepeatedReference extends Error {}

/**
 * Outbound orders: intake (one method for the order form, the Add Data upload and the client API), the list, the
 * status counts, one order with its lines (and where their allocated units are) and history. Allocation and the
 * status moves a person makes (hold, release the hold, cancel) are in allocation.service.ts: each changes what
 * the order holds.
 */
export class OrderService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  /** receipts: the receiving orders Transfer and Purchase orders make (order-receipts.ts). */
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder'>, private readonly receipts?: OrderReceipts) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
  }

  /**
   * Takes an order in. A reference the customer already used answers that order (nothing written, `duplicate`),
   * never a second one: the unique index decides, so however many identical requests arrive at once, one order is
   * made and every other answers it. Every reference is checked before anything is written; a bad one is a 4xx
   * naming the field.
   */
  async intake(principal: Principal, input: CreateOrderInput, actor: Actor, source: OrderSource) {
    principal.scope.assert({ warehouseId: input.warehouseId, customerId: input.customerId });
    const facts = await this.facts(this.db, input);
    if (facts.repeatId !== undefined) return this.repeatOf(principal, input, facts.repeatId);
    const checked = await this.check(this.db, input, facts);
    try {
      const { order } = await inTransaction(this.db, (uow) => this.write(uow, checked, actor, source));
      return { message: `Order ${order.soNumber} created successfully`, data: { ...order, duplicate: false } };
    } catch (err) {
      if (!(err instanceof RepeatedReference)) throw err;
      const existing = await this.repeated(principal, input);
      if (!existing) throw err;
      return existing;
    }
  }

  /**
   * The intake inside the caller's transaction (the Add Data upload takes a whole file in one): the same checks and
   * writes; a reference already used answers its order (duplicate). A reference taken by a concurrent request
   * meanwhile is a 409, and the caller's transaction goes with it.
   */
  async intakeWithin(uow: UnitOfWork, principal: Principal, input: CreateOrderInput, actor: Actor, source: OrderSource) {
    principal.scope.assert({ warehouseId: input.warehouseId, customerId: input.customerId });
    const facts = await this.facts(uow.tx, input);
    let id = facts.repeatId;
    if (id === undefined) {
      const checked = await this.check(uow.tx, input, facts);
      try {
        id = (await this.write(uow, checked, actor, source)).orderId;
      } catch (err) {
        if (err instanceof RepeatedReference) throw conflict(`Reference number ${input.referenceNumber} was taken in meanwhile; upload the file again`);
        throw err;
      }
    }
    const row = await repo.find(uow.tx, principal.scope, id);
    if (!row) throw usedByAnother(input.referenceNumber);
    return { ...toSummary(row), duplicate: facts.repeatId !== undefined };
  }

  /**
   * Writes a checked order, its lines, what it brings in (a Transfer's or Purchase order's RO), its audit row and
   * events. Answers the order as GetOrder shows it: its row read in the transaction, its lines as written (with what
   * the check read of their SKUs and package levels); a new order has no history, reservations or documents yet.
   */
  private async write(uow: UnitOfWork, checked: CheckedOrder, actor: Actor, source: OrderSource) {
    const { input, skus, levels, units } = checked;
    const so = (await documentNumbers.next(uow, 'SO')).number;
    const at = new Date().toISOString();
    const inserted = await repo.insertOrder(uow.tx, {
      so_number: so, warehouse_id: input.warehouseId, customer_id: input.customerId, order_type: input.orderType,
      reference_number: input.referenceNumber, order_date: input.orderDate, requested_ship_date: input.requestedShipDate ?? null,
      priority: input.priority ?? ORDER_PRIORITY_DEFAULT, ship_to_name: orNull(input.shipToName), ship_to_address1: orNull(input.shipToAddress1),
      ship_to_address2: orNull(input.shipToAddress2), ship_to_city: orNull(input.shipToCity), ship_to_state: orNull(input.shipToState),
      ship_to_zip: orNull(input.shipToZip), ship_to_country: orNull(input.shipToCountry), ship_to_phone: orNull(input.shipToPhone),
      ship_to_email: orNull(input.shipToEmail), carrier_account_id: input.carrierAccountId ?? null, carrier_service: orNull(input.carrierService),
      notes: orNull(input.notes), to_warehouse_id: input.toWarehouseId ?? null, status: 'New', source, created_by: actor.userId, created_at: at, updated_at: at,
    });
    if (inserted === undefined) throw new RepeatedReference();
    const orderId = n(inserted.id);
    const lines = await repo.insertLines(uow.tx, input.lines.map((l, i) => ({
      order_id: orderId, line_no: i + 1, sku_id: l.skuId, quantity: l.quantity, package_id: l.packageId ?? null,
      units_per_package: units[i], lot: l.lot ?? '', notes: orNull(l.notes),
    })));
    const relinked = await this.receipts?.taken(uow, actor, {
      orderId, soNumber: so, orderType: input.orderType, warehouseId: input.warehouseId, customerId: input.customerId, toWarehouseId: input.toWarehouseId ?? null,
      orderDate: input.orderDate, requestedShipDate: input.requestedShipDate ?? null, shipToName: orNull(input.shipToName),
      lines: lines.map((l) => ({ skuId: n(l.sku_id), quantity: n(l.quantity), lot: l.lot })),
    });
    // The row as written, with the lines' totals (nothing allocated or shipped yet); read again only when its receiving order was linked to it.
    const after = toSummary(relinked ? (await repo.find(uow.tx, Scope.everything, orderId))! : {
      ...inserted, line_count: lines.length, ordered_qty: lines.reduce((sum, l) => sum + n(l.quantity), 0), allocated_total: 0, shipped_total: 0,
    });
    await this.record(uow, actor, after, 'create', 'AddOrder', undefined, { source }, [domainEvent('order.created', {
      orderId, soNumber: so, warehouseId: input.warehouseId, customerId: input.customerId, orderType: input.orderType,
      referenceNumber: input.referenceNumber, priority: after.priority, source,
      lines: lines.map((l) => ({ lineId: l.id, skuId: l.sku_id, quantity: n(l.quantity), lot: l.lot })),
    })]);
    const written = [...lines].sort((a, b) => n(a.line_no) - n(b.line_no)).map((l): Line => {
      const { packageId, notes } = input.lines[n(l.line_no) - 1];
      const sku = skus.get(n(l.sku_id))!;
      return {
        id: l.id, line_no: l.line_no, sku_id: l.sku_id, sku_code: sku.sku_code, description: sku.description, is_kit: sku.is_kit, quantity: l.quantity,
        package_id: packageId ?? null, package_name: packageId ? levels.find((p) => n(p.id) === packageId)?.package_name ?? null : null,
        units_per_package: units[n(l.line_no) - 1], lot: l.lot, allocated_qty: 0, shipped_qty: 0, notes: orNull(notes), short_reason: null,
      };
    });
    const order = { ...after, lines: written.map((l) => toLine(l, [])), history: [], documents: [] };
    return { orderId, order };
  }

  /** The answer to a reference the customer already used: that order, when the caller may see it; else 409. */
  private async repeated(principal: Principal, input: CreateOrderInput) {
    const hit = await repo.findByReference(this.db, input.customerId, input.referenceNumber);
    return hit ? this.repeatOf(principal, input, hit.id) : undefined;
  }

  /** The answer to a reference the customer already used for order `id`. */
  private async repeatOf(principal: Principal, input: CreateOrderInput, id: number) {
    const row = await repo.find(this.db, principal.scope, id);
    if (!row) throw usedByAnother(input.referenceNumber);
    const order = await this.detail(this.db, principal.scope, id);
    return { message: `Reference number ${input.referenceNumber} is order ${order.soNumber}: nothing new was created`, data: { ...order, duplicate: true } };
  }

  /** The units each line's package level holds (1 without one). */
  private unitsPerPackage(input: CreateOrderInput, packages: Level[]) {
    const levels = packages.map((p) => ({ id: n(p.id), skuId: n(p.sku_id), parentId: p.parent_id == null ? null : n(p.parent_id), quantity: n(p.quantity) }));
    return input.lines.map((l) => (l.packageId ? unitsOfPackage(levels.filter((p) => p.skuId === l.skuId), l.packageId) : 1));
  }

  /** The intake's first lookups (repo.intakeFacts) for an order as it came in. */
  private facts(db: Executor, input: CreateOrderInput) {
    return repo.intakeFacts(db, input.customerId, input.warehouseId, input.referenceNumber, [...new Set(input.lines.map((l) => l.skuId))]);
  }

  /**
   * Every reference of an order before anything is written: the warehouse serves the client, the carrier account is
   * the client's, each line's SKU is the client's and active (a kit has components), its package level is the
   * SKU's and the quantity a whole number of it, and a lot only on a SKU that tracks lots. 422 naming each field.
   */
  private async check(db: Executor, order: CreateOrderInput, facts: IntakeFacts): Promise<CheckedOrder> {
    // The review keeps the client, warehouse and lines: the facts read for the order as it came in hold for it.
    const { input, details } = this.receipts ? await this.receipts.review(db, order) : { input: order, details: {} as Record<string, string> };
    if (!facts.servesWarehouse) {
      throw unprocessable('This client is not served by this warehouse', { warehouseId: 'This client is not served by this warehouse' });
    }
    if (input.carrierAccountId && !(await repo.carrierAccount(db, input.customerId, input.carrierAccountId))) {
      throw unprocessable('Not an active carrier account of this client', { carrierAccountId: 'Not an active carrier account of this client' });
    }
    const skus = new Map(facts.skus.map((s) => [n(s.id), s]));
    const kits = [...skus.values()].filter((s) => n(s.is_kit) === 1).map((s) => n(s.id));
    const withComponents = new Set(kits.length ? (await repo.kitsWithComponents(db, input.customerId, kits)) : []);
    const levels = await repo.packages(db, input.customerId, [...new Set(input.lines.filter((l) => l.packageId).map((l) => l.skuId))]);
    const units = this.unitsPerPackage(input, levels);
    input.lines.forEach((l, i) => {
      const sku = skus.get(l.skuId);
      const at = `lines.${i}`;
      if (!sku) details[`${at}.skuId`] = 'Not a SKU of this client';
      else if (n(sku.is_active) !== 1) details[`${at}.skuId`] = `SKU ${sku.sku_code} is inactive`;
      else if (n(sku.is_kit) === 1 && !withComponents.has(n(sku.id))) details[`${at}.skuId`] = `Kit ${sku.sku_code} has no components`;
      else if (l.lot && n(sku.is_lot_tracked) !== 1) details[`${at}.lot`] = `SKU ${sku.sku_code} does not track lots`;
      else if (l.packageId && !levels.some((p) => n(p.id) === l.packageId && n(p.sku_id) === l.skuId)) details[`${at}.packageId`] = `Not a package level of SKU ${sku.sku_code}`;
      else if (l.quantity % units[i] !== 0) details[`${at}.quantity`] = `Order whole packages: a multiple of ${units[i]} units`;
    });
    if (Object.keys(details).length) throw unprocessable(Object.values(details)[0], details);
    return { input, skus, levels, units };
  }

  async list(principal: Principal, req: ListRequest<OrderFilters>) {
    return toListPage(await repo.list(this.db, this.dialect, principal.scope, req), toSummary);
  }

  /** How many orders are in each status (every status named), in the caller's scope and filters. */
  async statusCounts(principal: Principal, req: { filters?: Omit<OrderFilters, 'status'> }) {
    const rows = await repo.statusCounts(this.db, principal.scope, req.filters ?? {});
    const by = new Map(rows.map((r) => [r.status, n(r.n)]));
    const counts = ORDER_STATUSES.map((status) => ({ status, count: by.get(status) ?? 0 }));
    return { total: counts.reduce((s, c) => s + c.count, 0), counts };
  }

  /** The customer's active carrier accounts, for the order form (a customer outside the caller's scope: 403). */
  async carrierAccounts(principal: Principal, customerId: number) {
    principal.scope.assert({ customerId });
    return (await repo.carrierAccounts(this.db, customerId)).map((a) => ({ carrierAccountId: n(a.id), accountName: a.account_name, carrierName: a.carrier_name }));
  }

  /** An order's summary as the lists show it, read in the caller's transaction (another module's change records it). */
  async summaryWithin(db: Executor, orderId: number): Promise<OrderSummary> {
    const row = await repo.find(db, Scope.everything, orderId);
    if (!row) throw notFound('Order');
    return toSummary(row);
  }

  /**
   * Records a change the floor made to an order (its status moved by picking, packing, shipping): the audit row and
   * hub event with the order's summary after it, in the caller's transaction. Answers the summary.
   */
  async recordFloorChange(uow: UnitOfWork, actor: Actor, orderId: number, c: { action: string; subEvent: OrderSubEvent; before?: unknown; extra?: Record<string, unknown> }) {
    const after = await this.summaryWithin(uow.tx, orderId);
    await this.recorder.record(uow, actor, orderChange(after, c));
    return after;
  }

  /** One order with its lines and its status history; 404 when there is none in the caller's scope. */
  async get(principal: Principal, orderId: number) {
    return this.detail(this.db, principal.scope, orderId);
  }

  private async detail(db: Executor, scope: Scope, id: number) {
    const row = await repo.find(db, scope, id);
    if (!row) throw notFound('Order');
    const [lines, history, reservations, documents] = await Promise.all([
      repo.lines(db, id), repo.history(db, id), allocationRepository.reservations(db, row.so_number), orderDocumentRepository.list(db, id),
    ]);
    return { ...toSummary(row), lines: lines.map((l) => toLine(l, reservations)), history: history.map(toHistory), documents: documents.map(toDocument) };
  }

  /** The audit row, hub event and domain events of an order's change, in its transaction. */
  private record(uow: UnitOfWork, actor: Actor, after: OrderSummary, action: string, subEvent: OrderSubEvent, before?: unknown, extra?: Record<string, unknown>,
    raises: RaisedEvent[] = []) {
    return this.recorder.record(uow, actor, orderChange(after, { action, subEvent, before, extra, raises }));
  }
}

