import {
  MAX_RO_DOCUMENTS, MAX_RO_UPLOAD_ROWS, MSG_RECEIVING, RO_DOCUMENT_MAX_BYTES, RO_STATUSES, RO_UPLOAD_COLUMNS, roDocumentFields, uploadReceivingOrderFields,
  type CreateReceivingOrderInput, type DockLocation, type ReceiveAsExpectedInput, type FilterLabel, type HubEventMap, type PutawayInput, type ReceiveItemInput, type ReceivingOrderDetail,
  type ReceivingOrderFilters, type ReceivingOrderSummary, type ReceivingStatus, type UpdateReceivingOrderInput,
} from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { domainEvent, type RaisedEvent } from '../../platform/domain-events.js';
import { badRequest, conflict, notFound, unprocessable } from '../../platform/errors.js';
import { toXlsx, type ExcelColumn } from '../../platform/excel.js';
import { checkUpload, parseFields, readStoredFile, storeFile, type ReceivedUpload, type UploadRule } from '../../platform/files.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import { Scope } from '../../platform/scope.js';
import { parseDay, readSheet, rowErrorDetails, rowErrorSummary, type RowError } from '../../platform/sheet.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import type { WarehouseTimeZones } from '../../platform/business-day.js';
import { documentNumbers } from '../../platform/document-numbers.js';
import type { Change } from '../../platform/change-recorder.js';
import type { Posting, StockEngine } from '../../platform/stock/stock-engine.js';
import { checkLocations, type ReferencedLocation } from '../../platform/stock/references.js';
import type { FloorEvent, FloorEvents } from '../../platform/floor-events.js';
import { count, noun } from '../../platform/plural.js';
import { planPutaway } from './putaway-plan.js';
import { DAMAGED_TYPES, INBOUND_TYPES, PUTAWAY_OPEN, RECEIVABLE, receivingRepository as repo } from './receiving.repository.js';
import { receivingListRepository as lists, type DetailRow, type InwardRow } from './receiving-lists.repository.js';

const DOCUMENT_RULE: UploadRule = { allowed: ['xlsx', 'csv'], maxBytes: RO_DOCUMENT_MAX_BYTES };
const SUGGESTIONS = 5;
type Column = (typeof RO_UPLOAD_COLUMNS)[number];

const n = (v: unknown) => Number(v ?? 0);
type OrderRow = NonNullable<Awaited<ReturnType<typeof repo.findOrder>>>;
type LineRow = Awaited<ReturnType<typeof repo.lines>>[number];

export function toSummary(r: OrderRow): ReceivingOrderSummary {
  return {
    uniqueid: r.id, receivingOrderId: r.id, roNumber: r.ro_number, warehouseId: r.warehouse_id, warehouseName: r.warehouse_name,
    customerId: r.customer_id, customerName: r.customer_name, supplier: r.supplier, referenceNumber: r.reference_number,
    expectedDeliveryDate: r.expected_date, status: r.status as ReceivingStatus, notes: r.notes, lineCount: n(r.line_count),
    expectedQuantity: n(r.expected_qty), receivedQuantity: n(r.received_qty), damagedQuantity: n(r.damaged_qty),
    overQuantity: n(r.over_qty), shortQuantity: n(r.short_qty), putawayQuantity: n(r.putaway_qty),
    createdAt: r.created_at, receivedAt: r.received_at, finalizedAt: r.finalized_at, closedAt: r.closed_at, cancelledAt: r.cancelled_at,
  };
}

/** A line with its over/short: what arrived (good + damaged) against what was expected. */
export function toLine(r: Pick<LineRow, 'id' | 'line_no' | 'sku_id' | 'sku_code' | 'description' | 'is_lot_tracked' | 'is_expiry_tracked' | 'expected_qty' | 'received_qty' | 'damaged_qty' | 'putaway_qty' | 'notes' | 'lot' | 'expiry_date'>) {
  const arrived = r.received_qty + r.damaged_qty;
  return {
    lineId: r.id, lineNo: r.line_no, skuId: r.sku_id, skuCode: r.sku_code, skuDescription: r.description,
    isLotTracked: r.is_lot_tracked === 1, isExpiryTracked: r.is_expiry_tracked === 1, expectedQuantity: r.expected_qty,
    receivedQuantity: r.received_qty, damagedQuantity: r.damaged_qty, overQuantity: Math.max(0, arrived - r.expected_qty),
    shortQuantity: Math.max(0, r.expected_qty - arrived), putawayQuantity: r.putaway_qty, awaitingPutaway: r.received_qty - r.putaway_qty,
    notes: r.notes, lot: r.lot, expiryDate: r.expiry_date,
  };
}

/**
 * The order's row after one line's counts changed (its totals as they stood, from the statement that counted
 * it): the sums move by the line's change, over and short by the line's own over/short before and after.
 */
export function withLineChange<O extends OrderRow>(order: O, expected: number, lineAfter: { received_qty: number; damaged_qty: number; putaway_qty: number },
  delta: { received: number; damaged: number; putaway: number }): O {
  const arrivedAfter = lineAfter.received_qty + lineAfter.damaged_qty;
  const arrivedBefore = arrivedAfter - delta.received - delta.damaged;
  const over = (arrived: number) => Math.max(0, arrived - expected);
  const short = (arrived: number) => Math.max(0, expected - arrived);
  return {
    ...order,
    received_qty: n(order.received_qty) + delta.received, damaged_qty: n(order.damaged_qty) + delta.damaged, putaway_qty: n(order.putaway_qty) + delta.putaway,
    over_qty: n(order.over_qty) - over(arrivedBefore) + over(arrivedAfter), short_qty: n(order.short_qty) - short(arrivedBefore) + short(arrivedAfter),
  };
}

function toReceipt(r: Awaited<ReturnType<typeof repo.receipts>>[number]) {
  return {
    receiptId: r.id, lineId: r.line_id, skuCode: r.sku_code, locationId: r.location_id, locationCode: r.location_code, lot: r.lot,
    expiryDate: r.expiry_date, pallet: r.pallet, carton: r.carton, quantity: r.quantity, damagedQuantity: r.damaged_qty,
    damagedLocationCode: r.damaged_location_code ?? null, document: r.document_id, receivedBy: r.username, receivedAt: r.at,
  };
}

const statusMessage = (status: string) => `This receiving order is ${status}`;
const inactiveLocation = (code: string) => `Location ${code} is inactive`;
/** A lot past its expiry date (today, UTC, as allocation reckons it, is still good). */
/** Whether a lot's expiry date is before `today` (the warehouse's business day, in its own time zone). */
const isExpired = (expiryDate: string | null | undefined, today: string) => !!expiryDate && expiryDate < today;

/**
 * Inbound: receiving orders, receipts into a dock, putaway to storage, finalizing, and the RO reports. Stock
 * changes only through the stock engine's post, inside this service's transactions, so a receipt's ledger rows,
 * balances, line counts, audit row and events commit together or not at all.
 */
/** What a change of an order raises beside its audit row and hub event. */
type DomainEffects = { raises?: RaisedEvent[]; mayClose?: boolean };

export class ReceivingService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly statuses: StatusMachine;
  private readonly timeZones: WarehouseTimeZones;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder' | 'timeZones'>, private readonly stock: StockEngine, private readonly floorEvents: FloorEvents) {
    this.statuses = new StatusMachine(deps);
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.timeZones = deps.timeZones;
  }

  // ----- reading -----

  async list(principal: Principal, req: ListRequest<ReceivingOrderFilters>) {
    return toListPage(await lists.listOrders(this.db, this.dialect, principal.scope, req), toSummary);
  }

  /** One RO in the caller's scope (another customer's or warehouse's is "not found"). */
  private async order(principal: Principal, id: number) {
    const row = await repo.findOrder(this.db, principal.scope, id);
    if (!row) throw notFound('Receiving order');
    return row;
  }

  async get(principal: Principal, id: number): Promise<ReceivingOrderDetail> {
    const order = await this.order(principal, id);
    const [lines, receipts, putaways, documents] = await Promise.all([
      repo.lines(this.db, id), repo.receipts(this.db, id), repo.putaways(this.db, id), repo.documents(this.db, id),
    ]);
    return {
      ...toSummary(order),
      lines: lines.map(toLine),
      receipts: receipts.map(toReceipt),
      putaways: putaways.map((p) => ({
        putawayId: p.id, lineId: p.line_id, skuCode: p.sku_code, fromLocationCode: p.from_code, toLocationCode: p.to_code, lot: p.lot,
        pallet: p.pallet, quantity: p.quantity, document: p.document_id, putawayBy: p.username, putawayAt: p.at,
      })),
      documents: documents.map((d) => ({ documentId: d.id, fileName: d.file_name, mimeType: d.mime_type, sizeBytes: n(d.size_bytes), uploadedAt: d.created_at })),
    };
  }

  filterLabels(): FilterLabel[] {
    return [
      { key: 'status', label: 'Status', type: 'select', options: RO_STATUSES.map((s) => ({ label: s, value: s })) },
      { key: 'fromDate', label: 'Expected From', type: 'date' },
      { key: 'toDate', label: 'Expected To', type: 'date' },
    ];
  }

  // ----- creating and changing an RO -----

  /** Checks the customer is served by the warehouse, in scope, and that every line names one of its active SKUs once. */
  private async checkLines(principal: Principal, warehouseId: number, customerId: number, lines: { skuId: number; lot?: string; expiryDate?: string }[]) {
    principal.scope.assert({ warehouseId, customerId });
    // The warehouse serves the client (422 when not) and the lines' SKUs: one round trip.
    const { skus } = await this.stock.references({ warehouseId, customerId, skuIds: lines.map((l) => l.skuId), locationIds: [] });
    const details: Record<string, string> = {};
    const seen = new Map<number, number>();
    lines.forEach((l, i) => {
      const sku = skus.get(l.skuId);
      if (!sku) details[`lines.${i}.skuId`] = 'Not a SKU of this client';
      else if (!sku.isActive) details[`lines.${i}.skuId`] = `SKU ${sku.code} is inactive`;
      else if (seen.has(l.skuId)) details[`lines.${i}.skuId`] = `SKU ${sku.code} is already on line ${seen.get(l.skuId)! + 1}`;
      else if (l.lot && !sku.isLotTracked) details[`lines.${i}.lot`] = `SKU ${sku.code} does not track lots`;
      else if (l.expiryDate && !sku.isExpiryTracked) details[`lines.${i}.expiryDate`] = `SKU ${sku.code} does not track expiry dates`;
      seen.set(l.skuId, seen.get(l.skuId) ?? i);
    });
    if (Object.keys(details).length) throw badRequest(Object.values(details)[0], details);
  }

  async create(principal: Principal, input: CreateReceivingOrderInput, actor: Actor) {
    await this.checkLines(principal, input.warehouseId, input.customerId, input.lines);
    const order = await inTransaction(this.db, async (uow) => {
      const { id } = await this.insertOrder(uow, input, input.lines, actor);
      const created = await this.changed(uow, actor, id, 'create', 'AddReceivingOrder');
      return created;
    });
    return { message: `Receiving order ${order.roNumber} created successfully`, data: order };
  }

  /**
   * An expected RO made by another document in its transaction (a Transfer's goods due at its destination, a
   * Purchase order's goods): the caller has checked the client, the warehouse and the SKUs; one line per SKU.
   */
  async createExpected(uow: UnitOfWork, actor: Actor, h: { warehouseId: number; customerId: number; supplier: string; expectedDeliveryDate: string; referenceNumber: string; notes?: string },
    lines: { skuId: number; expectedQuantity: number; lot?: string }[]) {
    const created = await this.insertOrder(uow, h, lines, actor);
    await this.changed(uow, actor, created.id, 'create', 'AddReceivingOrder', undefined, { referenceNumber: h.referenceNumber });
    return created;
  }

  private async insertOrder(uow: UnitOfWork, h: { warehouseId: number; customerId: number; supplier: string; expectedDeliveryDate: string; referenceNumber?: string; notes?: string }, lines: { skuId: number; expectedQuantity: number; notes?: string; lot?: string; expiryDate?: string }[], actor: Actor) {
    const tx = uow.tx;
    const created = await repo.insertOrder(tx, {
      ro_number: (await documentNumbers.next(uow, 'RO')).number, warehouse_id: h.warehouseId, customer_id: h.customerId, supplier: h.supplier, reference_number: h.referenceNumber ?? '',
      expected_date: h.expectedDeliveryDate, notes: h.notes || null, created_by: actor.userId, at: new Date().toISOString(),
    });
    await repo.insertLines(tx, lines.map((l, i) => ({ order_id: created.id, line_no: i + 1, sku_id: l.skuId, expected_qty: l.expectedQuantity, notes: l.notes || null, lot: l.lot ?? '', expiry_date: l.expiryDate || null })));
    return created;
  }

  /**
   * Audits a change and raises its event, in the change's transaction; answers the RO as it now stands — read
   * again unless the caller knows it (`after`). `also`: other changes written with the order's in one statement
   * each. `raises`: its domain events; `mayClose`: a change that can close the order raises
   * receiving-order.closed when it did.
   */
  private async changed(uow: UnitOfWork, actor: Actor, id: number, action: string, subEvent: ReceivingSubEvent, before?: unknown, extra?: Record<string, unknown>,
    opts: { after?: ReceivingOrderSummary; also?: Change[] } & DomainEffects = {}) {
    const after = opts.after ?? toSummary((await repo.findOrder(uow.tx, Scope.everything, id))!);
    await this.recorder.record(uow, actor, this.orderChange(id, action, subEvent, after, before, extra, opts), ...(opts.also ?? []));
    return after;
  }

  /** Posts stock with the order's change: the engine writes the order's audit row and event with its own, in its two statements. */
  private async postWithOrder(uow: UnitOfWork, actor: Actor, id: number, action: string, subEvent: ReceivingSubEvent, after: ReceivingOrderSummary,
    extra: Record<string, unknown>, posting: Posting, effects: DomainEffects = {}) {
    const movement = await this.stock.post(uow, posting, actor, [this.orderChange(id, action, subEvent, after, undefined, extra, effects)]);
    return { after, movement };
  }

  /** The audit row, hub event and domain events of an order's change. */
  private orderChange(id: number, action: string, subEvent: ReceivingSubEvent, after: ReceivingOrderSummary, before?: unknown, extra?: Record<string, unknown>,
    effects: DomainEffects = {}): Change {
    const raises = [...(effects.raises ?? [])];
    if (effects.mayClose && after.status === 'Closed') {
      raises.push(domainEvent('receiving-order.closed', { receivingOrderId: id, roNumber: after.roNumber, warehouseId: after.warehouseId, customerId: after.customerId }));
    }
    return {
      audit: { action, entity: 'receiving_order', entityId: id, warehouseId: after.warehouseId, customerId: after.customerId, before, after: extra ? { ...after, ...extra } : after },
      events: { target: 'ReceiveReceivingData', payload: { subEvent, payload: after, ...(extra ? { detail: extra } : {}) }, warehouseId: after.warehouseId, customerId: after.customerId },
      raises,
    };
  }

  async update(principal: Principal, input: UpdateReceivingOrderInput, actor: Actor) {
    const before = await this.order(principal, input.receivingOrderId);
    if (!(RECEIVABLE as readonly string[]).includes(before.status)) throw unprocessable(`${statusMessage(before.status)}; it can no longer be changed`);
    await this.checkLines(principal, before.warehouse_id, before.customer_id, input.lines);
    const order = await inTransaction(this.db, async (uow) => {
      const at = new Date().toISOString();
      // The RO row first: receipts on this order wait until the lines are rewritten.
      const header = await repo.updateHeader(uow.tx, before.id, {
        supplier: input.supplier, reference_number: input.referenceNumber ?? '', expected_date: input.expectedDeliveryDate, notes: input.notes || null, updated_at: at,
      });
      if (!header) throw unprocessable('This receiving order was finalized or cancelled meanwhile; it can no longer be changed');
      const existing = await repo.lines(uow.tx, before.id);
      const wanted = new Map(input.lines.map((l, i) => [l.skuId, { ...l, lineNo: i + 1 }]));
      const removed = existing.filter((l) => !wanted.has(l.sku_id));
      const blocked = removed.filter((l) => l.received_qty + l.damaged_qty > 0);
      if (blocked.length) throw unprocessable(`SKU ${blocked[0].sku_code} has receipts and cannot be removed from the order`);
      await repo.deleteUntouchedLines(uow.tx, removed.map((l) => l.id));
      // Line numbers follow the order sent.
      for (const line of existing.filter((l) => wanted.has(l.sku_id))) {
        const w = wanted.get(line.sku_id)!;
        await repo.updateLine(uow.tx, line.id, { expected_qty: w.expectedQuantity, notes: w.notes || null, line_no: w.lineNo, lot: w.lot ?? '', expiry_date: w.expiryDate || null });
      }
      const known = new Set(existing.map((l) => l.sku_id));
      await repo.insertLines(uow.tx, [...wanted.values()].filter((w) => !known.has(w.skuId))
        .map((w) => ({ order_id: before.id, line_no: w.lineNo, sku_id: w.skuId, expected_qty: w.expectedQuantity, notes: w.notes || null, lot: w.lot ?? '', expiry_date: w.expiryDate || null })));
      return this.changed(uow, actor, before.id, 'update', 'UpdateReceivingOrder', { ...toSummary(before), lines: existing.map(toLine) });
    });
    return { message: `Receiving order ${order.roNumber} updated successfully`, data: order };
  }

  async cancel(principal: Principal, input: { receivingOrderId: number; reason?: string }, actor: Actor) {
    const before = await this.order(principal, input.receivingOrderId);
    const order = await inTransaction(this.db, async (uow) => {
      const at = new Date().toISOString();
      await this.statuses.transition(uow, actor, {
        kind: 'RECEIVING_ORDER', id: before.id, to: 'Cancelled', reason: input.reason ?? null, set: { cancelled_at: at, updated_at: at },
        refusal: (now) => (now === 'Receiving' ? 'Goods have been received on this order; finalize it instead' : `${statusMessage(now)}; it cannot be cancelled`),
      });
      return this.changed(uow, actor, before.id, 'cancel', 'CancelReceivingOrder', toSummary(before), { reason: input.reason ?? null });
    });
    return { message: `Receiving order ${order.roNumber} cancelled`, data: order };
  }

  /** Ends receiving: over, short and damaged are fixed as they stand; the RO closes once all is put away. */
  async finalize(principal: Principal, input: { receivingOrderId: number; reason?: string }, actor: Actor) {
    const before = await this.order(principal, input.receivingOrderId);
    const order = await inTransaction(this.db, async (uow) => {
      const at = new Date().toISOString();
      await this.finalizeIn(uow, actor, before.id, at, input.reason ?? null);
      const lines = (await repo.lines(uow.tx, before.id)).map(toLine);
      const discrepancies = lines.filter((l) => l.overQuantity || l.shortQuantity || l.damagedQuantity)
        .map((l) => ({ skuCode: l.skuCode, expected: l.expectedQuantity, received: l.receivedQuantity, damaged: l.damagedQuantity, over: l.overQuantity, short: l.shortQuantity }));
      return this.changed(uow, actor, before.id, 'finalize', 'FinalizeReceivingOrder', toSummary(before), { discrepancies, reason: input.reason ?? null }, { mayClose: true });
    });
    const notes = [order.overQuantity && `${order.overQuantity} over`, order.shortQuantity && `${order.shortQuantity} short`, order.damagedQuantity && `${order.damagedQuantity} damaged`].filter(Boolean);
    return { message: `Receiving order ${order.roNumber} finalized${notes.length ? ` (${notes.join(', ')})` : ''}`, data: order };
  }

  /**
   * The first receipt moves an Open RO to Receiving; the later ones hold it there (no transition, no history
   * row, one statement). Which of the two is decided from the order as read before: an order seen Receiving can
   * only have moved on since, which the hold refuses (409). (A scan's count takes the order itself, and
   * transitions only an Open one.)
   */
  private startReceiving(uow: UnitOfWork, actor: Actor, order: { id: number; status: string; received_at: string | null }, at: string) {
    const refusal = (now: string) => `This receiving order is ${now}; nothing more can be received on it`;
    return order.status === 'Receiving'
      ? this.statuses.hold(uow, { kind: 'RECEIVING_ORDER', id: order.id, in: ['Receiving'], set: { updated_at: at }, refusal })
      : this.statuses.transition(uow, actor, {
        kind: 'RECEIVING_ORDER', id: order.id, to: 'Receiving', from: RECEIVABLE, set: { received_at: order.received_at ?? at, updated_at: at }, refusal,
      });
  }

  /** Receiving → Received (over, short and damaged fixed as they stand), and on to Closed when nothing waits for putaway. */
  private async finalizeIn(uow: UnitOfWork, actor: Actor, id: number, at: string, reason: string | null) {
    await this.statuses.transition(uow, actor, {
      kind: 'RECEIVING_ORDER', id, to: 'Received', reason, set: { finalized_at: at, updated_at: at },
      refusal: (now) => (now === 'Open' ? 'Nothing has been received on this order yet; cancel it instead' : `${statusMessage(now)}; it cannot be finalized`),
    });
    await this.closeIfPutAway(uow, actor, id, at);
  }

  /** Closes a finalized RO once every good unit received has been put away; undefined when something still waits. */
  private closeIfPutAway(uow: UnitOfWork, actor: Actor, id: number, at: string) {
    return this.statuses.transition(uow, actor, {
      kind: 'RECEIVING_ORDER', id, to: 'Closed', when: repo.allPutAway(), ifPossible: true, set: { closed_at: at, updated_at: at },
    });
  }

  // ----- receiving and putaway -----

  /** Checks locations are the RO warehouse's and active (the stock engine's one reference check), and answers them by id. */
  private async locationsOf(warehouseId: number, ids: number[]) {
    return (await this.stock.references({ warehouseId, customerId: 0, locationIds: ids }, { inactiveLocation })).locations;
  }

  /**
   * A scan: goods of one RO line arrive at a dock or staging location; good units go into stock there. The read of
   * what the scan refers to is folded into the count on its line (one statement, the order row taken first), and
   * the scan is checked after: a refusal rolls the count back with everything else.
   */
  async receive(principal: Principal, input: ReceiveItemInput, actor: Actor) {
    if (input.damagedLocationId && !input.damagedQuantity) throw badRequest('A damage location needs a damaged quantity', { damagedQuantity: 'Enter the damaged quantity' });
    const damagedId = input.damagedLocationId && input.damagedQuantity ? input.damagedLocationId : null;
    const ids = [input.locationId, ...(damagedId ? [damagedId] : [])];
    let dockCode = '';
    const result = await inTransaction(this.db, async (uow) => {
      const at = new Date().toISOString();
      const counted = await repo.countScan(uow.tx, this.dialect, principal.scope, {
        orderId: input.receivingOrderId, code: input.scanCode, lot: input.lot, good: input.quantity, damaged: input.damagedQuantity, locationId: input.locationId, damagedLocationId: damagedId,
      });
      if (!counted) throw await this.scanRefusal(uow.tx, principal, input, ids);
      const { order, line, places, matchedBy } = counted;
      if (line.is_lot_tracked === 1 && !input.lot) throw badRequest(`SKU ${line.sku_code} is lot-tracked: enter its lot`, { lot: 'Please enter lot!' });
      if (line.is_expiry_tracked === 1 && !input.expiryDate) throw badRequest(`SKU ${line.sku_code} tracks expiry: enter its expiry date`, { expiryDate: 'Please enter expiry date!' });
      // A lot or an expiry on a SKU that tracks neither would split its stock into places nothing else knows of.
      if (input.lot && line.is_lot_tracked !== 1) throw badRequest(`SKU ${line.sku_code} does not track lots: leave the lot empty`, { lot: 'This SKU does not track lots' });
      if (input.expiryDate && line.is_expiry_tracked !== 1) throw badRequest(`SKU ${line.sku_code} does not track expiry: leave the expiry date empty`, { expiryDate: 'This SKU does not track expiry dates' });
      if (isExpired(input.expiryDate, await this.timeZones.dayOf(order.warehouse_id, new Date(at), uow.tx)) && !input.confirmExpired) {
        throw conflict(`${input.lot ? `Lot ${input.lot} of ` : ''}${line.sku_code} expired on ${input.expiryDate}`, MSG_RECEIVING.expiredLot);
      }
      if (input.lot && input.expiryDate && counted.lotExpiry && counted.lotExpiry !== input.expiryDate) {
        throw unprocessable(`Lot ${input.lot} of ${line.sku_code} already has expiry date ${counted.lotExpiry}`, { expiryDate: `This lot expires on ${counted.lotExpiry}` });
      }
      checkLocations(places, { warehouseId: order.warehouse_id, locationIds: ids }, { inactiveLocation });
      const dock = places.get(input.locationId)!;
      if (!INBOUND_TYPES.includes(dock.type)) throw unprocessable(`Receive into a dock or staging location; ${dock.code} is a ${dock.type} location`, { locationId: 'Choose a dock or staging location' });
      dockCode = dock.code;
      const damagedAt = damagedId ? places.get(damagedId)! : null;
      if (damagedAt && ![...DAMAGED_TYPES, ...INBOUND_TYPES].includes(damagedAt.type)) {
        throw unprocessable(`Damaged goods go to a quarantine, returns, dock or staging location; ${damagedAt.code} is a ${damagedAt.type} location`, { damagedLocationId: 'Choose a quarantine location' });
      }
      // The first receipt moves an Open RO to Receiving (its history row and event); the order was taken already.
      const started: OrderRow = order.status === 'Receiving' ? order : { ...order, ...await this.startReceiving(uow, actor, order, at) };
      const place = { warehouseId: order.warehouse_id, customerId: order.customer_id, skuId: line.sku_id, lot: input.lot, pallet: input.pallet };
      const legs = [
        ...(input.quantity > 0 ? [{ place: { ...place, locationId: dock.id }, qty: input.quantity, txnType: 'receive' as const, expiryDate: input.expiryDate ?? null, receivedAt: at }] : []),
        ...(damagedAt ? [{ place: { ...place, locationId: damagedAt.id }, qty: input.damagedQuantity, txnType: 'receive_damaged' as const, expiryDate: input.expiryDate ?? null, receivedAt: at }] : []),
      ];
      // The RO is the ledger document of its receipts and putaways.
      const posting: Posting | undefined = legs.length ? {
        documentType: 'RECEIPT', documentId: order.ro_number, documentLine: String(line.id), reason: input.note ?? null, legs,
        // The references read by the count hold in the posting's own statement (nothing is posted otherwise).
        references: { warehouseId: order.warehouse_id, customerId: order.customer_id, skuId: line.sku_id, locationIds: legs.map((l) => l.place.locationId) },
        record: { kind: 'Receive', locationId: dock.id, after: { receivingOrderId: order.id, roNumber: order.ro_number, quantity: input.quantity, damagedQuantity: input.damagedQuantity } },
      } : undefined;
      // The RO is the ledger document of its receipts (posted last, with the order's audit row and event).
      const movement = posting ? { document: order.ro_number } : null;
      const receipt = await repo.insertReceipt(uow.tx, {
        order_id: order.id, line_id: line.id, warehouse_id: order.warehouse_id, customer_id: order.customer_id, sku_id: line.sku_id,
        location_id: dock.id, lot: input.lot, expiry_date: input.expiryDate ?? null, pallet: input.pallet, quantity: input.quantity,
        damaged_qty: input.damagedQuantity, damaged_location_id: damagedAt?.id ?? null, document_id: movement?.document ?? '',
        user_id: actor.userId, username: actor.username, at, carton: input.carton,
      });
      const detail = {
        receiptId: receipt.id, document: movement?.document ?? null, skuId: line.sku_id, skuCode: line.sku_code, locationIds: legs.map((l) => l.place.locationId),
        lot: input.lot, expiryDate: input.expiryDate ?? null, pallet: input.pallet, quantity: input.quantity, damagedQuantity: input.damagedQuantity,
      };
      const state = toSummary(withLineChange(started, line.expected_qty, line, { received: input.quantity, damaged: input.damagedQuantity, putaway: 0 }));
      const raises = [domainEvent('receipt.posted', {
        receivingOrderId: order.id, roNumber: order.ro_number, warehouseId: order.warehouse_id, customerId: order.customer_id, document: movement?.document ?? null,
        lines: [{ lineId: line.id, skuId: line.sku_id, locationId: dock.id, lot: input.lot, expiryDate: input.expiryDate ?? null, quantity: input.quantity, damagedQuantity: input.damagedQuantity, damagedLocationId: damagedAt?.id ?? null }],
      })];
      await this.floorEvents.record(uow, actor, legs.map((l) => this.floorEvent('receive', order, line.sku_id, l.place.locationId, l.qty, l.txnType === 'receive_damaged' ? 'damaged' : null, input.carton)), new Date(at));
      if (!posting) {
        const after = await this.changed(uow, actor, order.id, 'receive', 'ReceiveItem', undefined, detail, { after: state, raises });
        return { order: after, line: toLine(line), movement: null, matchedBy };
      }
      const posted = await this.postWithOrder(uow, actor, order.id, 'receive', 'ReceiveItem', state, detail, posting, { raises });
      return { order: posted.after, line: toLine(line), movement: posted.movement, matchedBy };
    });
    const parts = [input.quantity && `${input.quantity} good`, input.damagedQuantity && `${input.damagedQuantity} damaged`].filter(Boolean).join(' and ');
    return { message: `Received ${parts} of ${result.line.skuCode} into ${dockCode}`, data: result };
  }

  /** Why a scan counted nothing (its order's refusal, as the status table and the order's lines say). */
  private async scanRefusal(tx: Executor, principal: Principal, input: ReceiveItemInput, ids: number[]) {
    const found = await repo.orderForScan(tx, principal.scope, input.receivingOrderId, input.scanCode, ids);
    if (!found) return notFound('Receiving order');
    const { order, match } = found;
    // Receiving moves the order to Receiving: from a status the table does not allow, a refused transition (409).
    if (!(RECEIVABLE as readonly string[]).includes(order.status)) return conflict(`${statusMessage(order.status)}; nothing more can be received on it`);
    if (!match) return unprocessable(`No SKU of ${order.customer_name} matches '${input.scanCode}'`, { scanCode: 'Unknown SKU, barcode or GTIN' });
    if (match.id == null) return unprocessable(`SKU ${match.sku_code} is not on receiving order ${order.ro_number}`, { scanCode: 'Not on this receiving order' });
    return conflict('This receiving order changed meanwhile; scan again');
  }

  /** A receiving step for the activity log labour reports and billing read: the RO is its document. */
  private floorEvent(kind: 'receive' | 'putaway', order: { id: number; warehouse_id: number; customer_id: number }, skuId: number, locationId: number,
    quantity: number, detail: string | null = null, cartonCode: string | null = null): FloorEvent {
    return { kind, warehouseId: order.warehouse_id, customerId: order.customer_id, skuId, locationId, quantity, docType: 'RO', docId: order.id, detail, cartonCode };
  }

  /**
   * Receive as expected: every chosen line's remaining quantity arrives with the lot and expiry the order
   * announced, into a dock — or straight on to each line's first putaway suggestion (an expired lot: the
   * first quarantine location) — in one transaction with one ledger document, a fixed number of statements
   * whatever the number of lines. With `finalize` the order is finalized too (and closes when all is put away).
   */
  async receiveAsExpected(principal: Principal, input: ReceiveAsExpectedInput, actor: Actor) {
    const order = await this.order(principal, input.receivingOrderId);
    // Receiving moves the order to Receiving: from a status the table does not allow, a refused transition (409).
    if (!(RECEIVABLE as readonly string[]).includes(order.status)) throw conflict(`${statusMessage(order.status)}; nothing more can be received on it`);
    const all = await repo.lines(this.db, order.id);
    const byId = new Map(all.map((l) => [l.id, l]));
    const unknown = (input.lineIds ?? []).map((id, i) => [i, id] as const).filter(([, id]) => !byId.has(id));
    if (unknown.length) throw badRequest(`Line ${unknown[0][1]} is not on receiving order ${order.ro_number}`, Object.fromEntries(unknown.map(([i]) => [`lineIds.${i}`, 'Not a line of this receiving order'])));
    const remaining = (l: LineRow) => l.expected_qty - l.received_qty - l.damaged_qty;
    const chosen = (input.lineIds ? [...new Set(input.lineIds)].map((id) => byId.get(id)!) : all).filter((l) => remaining(l) > 0);
    if (chosen.length === 0) throw unprocessable('Nothing more is expected on these lines', { lineIds: 'Every unit expected has arrived' });
    const missing: Record<string, string> = {};
    for (const l of chosen) {
      if (l.is_lot_tracked === 1 && !l.lot) missing[`lines.${l.line_no}.lot`] = `SKU ${l.sku_code} is lot-tracked and line ${l.line_no} names no lot: scan it in`;
      else if (l.is_expiry_tracked === 1 && !l.expiry_date) missing[`lines.${l.line_no}.expiryDate`] = `SKU ${l.sku_code} tracks expiry and line ${l.line_no} names no expiry date: scan it in`;
    }
    if (Object.keys(missing).length) throw badRequest(Object.values(missing)[0], missing);
    const today = await this.timeZones.dayOf(order.warehouse_id);
    const expired = chosen.filter((l) => isExpired(l.expiry_date, today));
    if (expired.length && !input.confirmExpired) {
      const l = expired[0];
      throw conflict(`${expired.length === 1 ? '' : `${expired.length} lines have expired lots: `}${l.lot ? `Lot ${l.lot} of ` : ''}${l.sku_code} expired on ${l.expiry_date}`, MSG_RECEIVING.expiredLot);
    }
    const dock = (await this.locationsOf(order.warehouse_id, [input.locationId])).get(input.locationId)!;
    if (!INBOUND_TYPES.includes(dock.type)) throw unprocessable(`Receive into a dock or staging location; ${dock.code} is a ${dock.type} location`, { locationId: 'Choose a dock or staging location' });
    const targets = input.putaway ? await this.planTargets(order, chosen.map((l) => ({ lineId: l.id, skuId: l.sku_id, skuCode: l.sku_code, quantity: remaining(l), expired: isExpired(l.expiry_date, today) }))) : null;

    const result = await inTransaction(this.db, async (uow) => {
      const at = new Date().toISOString();
      await this.startReceiving(uow, actor, order, at);
      // Read again under the order's lock: a scan may have landed since; what is still expected is what arrives.
      const now = new Map((await repo.lines(uow.tx, order.id)).map((l) => [l.id, l]));
      const lines = chosen.map((l) => ({ ...now.get(l.id)!, quantity: remaining(now.get(l.id)!) })).filter((l) => l.quantity > 0);
      if (lines.length === 0) throw unprocessable('Nothing more is expected on these lines', { lineIds: 'Every unit expected has arrived' });
      await repo.receiveLinesAsExpected(uow.tx, order.id, lines.map((l) => l.id), !!targets);
      const base = { warehouseId: order.warehouse_id, customerId: order.customer_id };
      if (targets) {
        const room = new Map<number, number>();
        for (const l of lines) room.set(targets.get(l.id)!.locationId, (room.get(targets.get(l.id)!.locationId) ?? 0) + l.quantity);
        await this.stock.assertRoomMany(uow, room);
      }
      // Straight to putaway, the goods are received where they are put: one ledger row a line (the receipt and
      // putaway rows still say they came through the dock).
      const legs = lines.map((l) => ({
        place: { ...base, skuId: l.sku_id, lot: l.lot, pallet: '', locationId: targets?.get(l.id)?.locationId ?? dock.id },
        qty: l.quantity, txnType: 'receive' as const, expiryDate: l.expiry_date, receivedAt: at, documentLine: String(l.id),
      }));
      const quantity = lines.reduce((n, l) => n + l.quantity, 0);
      const movement = await this.stock.post(uow, {
        documentType: 'RECEIPT', documentId: order.ro_number, reason: 'Received as expected', legs,
        record: { kind: 'Receive', locationId: dock.id, after: { receivingOrderId: order.id, roNumber: order.ro_number, asExpected: true, lines: lines.length, quantity } },
      }, actor);
      const who = { document_id: movement.document, user_id: actor.userId, username: actor.username, at };
      await repo.insertReceipts(uow.tx, lines.map((l) => ({
        order_id: order.id, line_id: l.id, ...{ warehouse_id: order.warehouse_id, customer_id: order.customer_id }, sku_id: l.sku_id, location_id: dock.id,
        lot: l.lot, expiry_date: l.expiry_date, pallet: '', quantity: l.quantity, damaged_qty: 0, damaged_location_id: null, ...who,
      })));
      const putaways = targets ? lines.map((l) => ({ lineId: l.id, skuCode: l.sku_code, ...targets.get(l.id)!, quantity: l.quantity })) : [];
      if (targets) {
        await repo.insertPutaways(uow.tx, lines.map((l) => ({
          order_id: order.id, line_id: l.id, from_location_id: dock.id, to_location_id: targets.get(l.id)!.locationId, lot: l.lot, pallet: '', quantity: l.quantity, ...who,
        })));
      }
      // Each line received at the dock, and with putaway each put away at its target: one statement for them all.
      await this.floorEvents.record(uow, actor, [
        ...lines.map((l) => this.floorEvent('receive', order, l.sku_id, dock.id, l.quantity)),
        ...(targets ? lines.map((l) => this.floorEvent('putaway', order, l.sku_id, targets.get(l.id)!.locationId, l.quantity)) : []),
      ], new Date(at));
      if (input.finalize) {
        await this.finalizeIn(uow, actor, order.id, at, null);
      }
      const received = domainEvent('receipt.posted', {
        receivingOrderId: order.id, roNumber: order.ro_number, warehouseId: order.warehouse_id, customerId: order.customer_id, document: movement.document,
        lines: lines.map((l) => ({
          lineId: l.id, skuId: l.sku_id, locationId: targets?.get(l.id)?.locationId ?? dock.id, lot: l.lot, expiryDate: l.expiry_date, quantity: l.quantity, damagedQuantity: 0, damagedLocationId: null,
        })),
      });
      const after = await this.changed(uow, actor, order.id, input.finalize ? 'receive_as_expected_and_finalize' : 'receive_as_expected', 'ReceiveItem', undefined,
        { document: movement.document, asExpected: true, lineCount: lines.length, quantity, putaway: !!targets, finalized: input.finalize }, { raises: [received], mayClose: true });
      return { order: after, document: movement.document, lineCount: lines.length, quantity, putaways };
    });
    const where = targets ? 'and put away' : `into ${dock.code}`;
    const end = result.order.status === 'Closed' ? '; the order is closed' : result.order.status === 'Received' ? '; the order is finalized' : '';
    return { message: `Received ${count(result.quantity, 'unit')} on ${count(result.lineCount, 'line')} of ${order.ro_number} as expected ${where}${end}`, data: result };
  }

  /** Each line's putaway target (see planPutaway); an expired lot goes to the first quarantine location. 422 when a line finds no room. */
  private async planTargets(order: OrderRow, lines: { lineId: number; skuId: number; skuCode: string; quantity: number; expired: boolean }[]) {
    const good = lines.filter((l) => !l.expired);
    const [holding, empty, quarantine] = await Promise.all([
      repo.skuStoragePlaces(this.db, { warehouseId: order.warehouse_id, customerId: order.customer_id, skuIds: [...new Set(good.map((l) => l.skuId))] }),
      repo.emptyStorage(this.db, order.warehouse_id, ['shelf', 'rack', 'aisle', 'zone'], good.length),
      good.length < lines.length ? repo.quarantineLocations(this.db, order.warehouse_id, 1) : Promise.resolve([]),
    ]);
    const { targets, unplaced } = planPutaway(good, holding, empty);
    if (unplaced.length) {
      throw unprocessable(`No storage location has room for ${unplaced.length === 1 ? `SKU ${unplaced[0].skuCode}` : `${count(unplaced.length, 'line')} (first: SKU ${unplaced[0].skuCode})`}; receive into the dock and put away by hand`, { putaway: 'Not enough free storage' });
    }
    if (good.length < lines.length) {
      if (!quarantine[0]) throw unprocessable('This warehouse has no active quarantine location for the expired lots', { putaway: 'No quarantine location' });
      for (const l of lines.filter((x) => x.expired)) targets.set(l.lineId, { locationId: quarantine[0].id, locationCode: quarantine[0].code });
    }
    return targets;
  }

  /**
   * The receive panel's docks, staging areas and damaged-goods places, read under the InBound module (a receiving
   * user need not hold the Location module), in the caller's warehouses only.
   */
  async dockLocations(principal: Principal, warehouseId: number): Promise<DockLocation[]> {
    principal.scope.assert({ warehouseId });
    const rows = await repo.dockLocations(this.db, warehouseId);
    return rows.map((r) => ({ locationId: r.id, locationCode: r.code, locationType: r.type as DockLocation['locationType'] }));
  }

  /** Where to put a line's goods: locations already holding the SKU, else empty ones of a fitting type and capacity. */
  async suggestPutaway(principal: Principal, q: { receivingOrderId: number; lineId: number; quantity?: number; pallet?: string; lot?: string }) {
    const order = await this.order(principal, q.receivingOrderId);
    const line = await repo.line(this.db, order.id, q.lineId);
    if (!line) throw notFound('Receiving order line');
    const quantity = q.quantity ?? Math.max(1, line.received_qty - line.putaway_qty);
    // A pallet goes to racking (or a floor zone); loose units to shelving first.
    const preferTypes = q.pallet ? ['rack', 'zone', 'aisle', 'shelf'] : ['shelf', 'rack', 'aisle', 'zone'];
    // An expired lot is never offered a storage (pickable) place: only quarantine.
    if (q.lot && isExpired(await repo.lotExpiry(this.db, order.customer_id, line.sku_id, q.lot), await this.timeZones.dayOf(order.warehouse_id))) {
      const places = await repo.quarantineLocations(this.db, order.warehouse_id, SUGGESTIONS);
      return {
        skuId: line.sku_id, quantity, suggestions: places.map((r) => ({
          locationId: r.id, locationCode: r.code, locationType: r.type, zone: r.zone, capacity: r.capacity, onHand: n(r.on_hand),
          freeCapacity: r.capacity > 0 ? r.capacity - n(r.on_hand) : null, reason: 'Quarantine (expired lot)' as const,
        })),
      };
    }
    const { withSku, empty } = await repo.putawayCandidates(this.db, { warehouseId: order.warehouse_id, customerId: order.customer_id, skuId: line.sku_id, quantity, preferTypes }, SUGGESTIONS);
    const suggestion = (r: (typeof withSku)[number], reason: 'SKU already here' | 'Empty location') => ({
      locationId: r.id, locationCode: r.code, locationType: r.type, zone: r.zone, capacity: r.capacity, onHand: n(r.on_hand),
      freeCapacity: r.capacity > 0 ? r.capacity - n(r.on_hand) : null, reason,
    });
    const suggestions = [...withSku.map((r) => suggestion(r, 'SKU already here')), ...empty.map((r) => suggestion(r, 'Empty location'))].slice(0, SUGGESTIONS);
    return { skuId: line.sku_id, quantity, suggestions };
  }

  /** Moves received goods from the dock to storage through the ledger, and counts them on the line. */
  async putaway(principal: Principal, input: PutawayInput, actor: Actor) {
    if (input.toLocationId === input.fromLocationId) throw badRequest('Choose a different destination location', { toLocationId: 'Same as the source location' });
    const ids = [input.fromLocationId, input.toLocationId];
    let said = { sku: '', to: '' };
    const result = await inTransaction(this.db, async (uow) => {
      const at = new Date().toISOString();
      // The order (taken first), the line with the expiry of its stock at the source, and the locations, read by the
      // statement that counts the putaway on its line while that many units wait: checked after, a refusal rolls it back.
      const place = {
        orderId: input.receivingOrderId, lineId: input.lineId, quantity: input.quantity, fromLocationId: input.fromLocationId, toLocationId: input.toLocationId, lot: input.lot, pallet: input.pallet,
      };
      // On PostgreSQL a putaway that waited for a receipt's lock on the order read the line as it was before that
      // receipt: counted again, now holding the lock, it sees the units that arrived (SQLite never gets here twice).
      const counted = await repo.countPutaway(uow.tx, this.dialect, principal.scope, place)
        ?? (this.dialect.engine === 'postgres' ? await repo.countPutaway(uow.tx, this.dialect, principal.scope, place) : undefined);
      if (!counted) throw await this.putawayRefusal(uow.tx, principal, input, ids, at);
      const { order, line, places } = counted;
      const { from, to } = await this.checkPutaway(uow.tx, order, line, places, ids, at);
      said = { sku: line.sku_code, to: to.code };
      // Atomic: the destination is locked while its room is checked and filled (parallel putaways take turns).
      await this.stock.assertRoom(uow, to.id, input.quantity, to.capacity);
      // The RO is the ledger document of its putaways (posted last, with the order's audit row and event).
      const document = order.ro_number;
      const putaway = await repo.insertPutaway(uow.tx, {
        order_id: order.id, line_id: line.id, from_location_id: from.id, to_location_id: to.id, lot: input.lot, pallet: input.pallet,
        quantity: input.quantity, document_id: document, user_id: actor.userId, username: actor.username, at,
      });
      let state = withLineChange(order, line.expected_qty, line, { received: 0, damaged: 0, putaway: input.quantity });
      // Only a finalized order closes, once its last units are put away.
      if (order.status === 'Received' && await this.closeIfPutAway(uow, actor, order.id, at)) state = { ...state, status: 'Closed', closed_at: at, updated_at: at };
      const detail = { putawayId: putaway.id, document, skuId: line.sku_id, skuCode: line.sku_code, locationIds: [from.id, to.id], quantity: input.quantity };
      const stockPlace = { warehouseId: order.warehouse_id, customerId: order.customer_id, skuId: line.sku_id, lot: input.lot, pallet: input.pallet };
      await this.floorEvents.record(uow, actor, [this.floorEvent('putaway', order, line.sku_id, to.id, input.quantity)], new Date(at));
      const { after, movement } = await this.postWithOrder(uow, actor, order.id, 'putaway', 'Putaway', toSummary(state), detail, {
        documentType: 'PUTAWAY', documentId: document, reason: null, documentLine: String(line.id),
        references: { warehouseId: order.warehouse_id, customerId: order.customer_id, skuId: line.sku_id, locationIds: ids },
        legs: [{ place: { ...stockPlace, locationId: from.id }, qty: -input.quantity, txnType: 'putaway_out' }, { place: { ...stockPlace, locationId: to.id }, qty: input.quantity, txnType: 'putaway_in' }],
        record: { kind: 'Putaway', after: { receivingOrderId: order.id, roNumber: order.ro_number, from: from.id, to: to.id, quantity: input.quantity } },
      }, { mayClose: true });
      return { order: after, line: toLine(line), movement };
    });
    return { message: `Put away ${count(input.quantity, 'unit')} of ${said.sku} to ${said.to}`, data: result };
  }

  /** A putaway's places: from a dock or staging location, to storage — or, for an expired lot, to quarantine. */
  private async checkPutaway(tx: Executor, order: { warehouse_id: number }, line: { source_expiry: string | null }, places: Map<number, ReferencedLocation>, ids: number[], at: string) {
    checkLocations(places, { warehouseId: order.warehouse_id, locationIds: ids }, { inactiveLocation });
    const from = places.get(ids[0])!;
    const to = places.get(ids[1])!;
    if (!INBOUND_TYPES.includes(from.type)) throw unprocessable(`Put away from the dock or staging location the goods were received into; ${from.code} is a ${from.type} location`, { fromLocationId: 'Choose a dock or staging location' });
    if (isExpired(line.source_expiry, await this.timeZones.dayOf(order.warehouse_id, new Date(at), tx))) {
      if (to.type !== 'quarantine') throw unprocessable(`This lot has expired: put it away to a quarantine location; ${to.code} is a ${to.type} location`, { toLocationId: 'Choose a quarantine location' });
    } else if (to.category !== 'storage') {
      throw unprocessable(`Put away to a storage location (rack, shelf, zone or aisle); ${to.code} is a ${to.type} location`, { toLocationId: 'Choose a storage location' });
    }
    return { from, to };
  }

  /** Why a putaway counted nothing: its order, its line, its places, or fewer units waiting than asked. */
  private async putawayRefusal(tx: Executor, principal: Principal, input: PutawayInput, ids: number[], at: string) {
    const found = await repo.orderForPutaway(tx, principal.scope, input.receivingOrderId, input.lineId, { locationId: input.fromLocationId, lot: input.lot, pallet: input.pallet }, ids);
    if (!found) return notFound('Receiving order');
    const { order, line, locations } = found;
    if (!(PUTAWAY_OPEN as readonly string[]).includes(order.status)) return unprocessable(`${statusMessage(order.status)}; nothing can be put away on it`);
    if (!line) return notFound('Receiving order line');
    await this.checkPutaway(tx, order, line, locations, ids, at);
    const waiting = line.received_qty - line.putaway_qty;
    if (waiting >= input.quantity) return conflict('This receiving order changed meanwhile; try again');
    return unprocessable(`Only ${count(waiting, 'unit')} of ${line.sku_code} ${noun(waiting, 'is', 'are')} waiting for putaway on this order`, { quantity: 'More than is waiting for putaway' });
  }

  // ----- upload and documents -----

  /**
   * A CSV/XLSX sheet of RO lines: rows sharing supplier, expected date and reference make one RO. Every row is
   * checked first; any bad row answers 422 with every row's errors and writes nothing.
   */
  async upload(principal: Principal, upload: ReceivedUpload, actor: Actor) {
    const fields = parseFields(uploadReceivingOrderFields, upload.fields);
    if (!upload.file) throw badRequest('Please choose a file', { file: 'Please choose a file' });
    principal.scope.assert({ warehouseId: fields.warehouseId, customerId: fields.customerId });
    if (!(await repo.servesWarehouse(this.db, fields.customerId, fields.warehouseId))) throw unprocessable('This client is not served by this warehouse');
    const { rows, mimeType } = await readSheet<Column>(upload.file, { columns: RO_UPLOAD_COLUMNS, required: ['SKU', 'Expected Quantity'], maxRows: MAX_RO_UPLOAD_ROWS, noun: 'lines', maxBytes: RO_DOCUMENT_MAX_BYTES });
    const skus = await repo.skusByCodes(this.db, fields.customerId, rows.map((r) => r.cells.SKU ?? '').filter(Boolean));
    const skuOf = (code: string) => {
      const upper = code.toUpperCase();
      return skus.find((s) => s.matchedBy === 'sku' && s.code === upper) ?? skus.find((s) => s.code === code);
    };

    const errors: RowError[] = [];
    const groups = new Map<string, { supplier: string; expectedDeliveryDate: string; referenceNumber: string; lines: { skuId: number; expectedQuantity: number; notes?: string; lot?: string; expiryDate?: string; row: number }[] }>();
    for (const { row, cells } of rows) {
      const fail = (column: Column, message: string) => errors.push({ row, column, message });
      const before = errors.length;
      const supplier = cells.Supplier || fields.supplier || '';
      if (!supplier) fail('Supplier', MSG_RECEIVING.supplier);
      else if (supplier.length > 128) fail('Supplier', 'At most 128 characters');
      const date = cells['Expected Delivery Date'] || fields.expectedDeliveryDate || '';
      const day = parseDay(date);
      if (!date) fail('Expected Delivery Date', MSG_RECEIVING.expectedDate);
      else if (!day) fail('Expected Delivery Date', `'${date.slice(0, 32)}' is not a date (use YYYY-MM-DD)`);
      const reference = cells['Reference Number'] || fields.referenceNumber || '';
      if (reference.length > 64) fail('Reference Number', 'At most 64 characters');
      const code = cells.SKU ?? '';
      const sku = code ? skuOf(code) : undefined;
      if (!code) fail('SKU', MSG_RECEIVING.sku);
      else if (!sku) fail('SKU', `No SKU of this client matches '${code.slice(0, 64)}'`);
      else if (sku.is_active !== 1) fail('SKU', `SKU ${sku.sku_code} is inactive`);
      const qtyText = cells['Expected Quantity'] ?? '';
      const qty = Number(qtyText);
      if (!qtyText) fail('Expected Quantity', 'Please enter expected quantity!');
      else if (!Number.isInteger(qty) || qty <= 0 || qty > 10_000_000) fail('Expected Quantity', 'Expected quantity must be a whole number above 0');
      const notes = cells.Notes ?? '';
      if (notes.length > 255) fail('Notes', 'At most 255 characters');
      const lot = cells.Lot ?? '';
      if (lot.length > 64) fail('Lot', 'At most 64 characters');
      else if (lot && sku && sku.is_lot_tracked !== 1) fail('Lot', `SKU ${sku.sku_code} does not track lots`);
      const expiryText = cells['Expiry Date'] ?? '';
      const expiryDate = expiryText ? parseDay(expiryText) : null;
      if (expiryText && !expiryDate) fail('Expiry Date', `'${expiryText.slice(0, 32)}' is not a date (use YYYY-MM-DD)`);
      else if (expiryText && sku && sku.is_expiry_tracked !== 1) fail('Expiry Date', `SKU ${sku.sku_code} does not track expiry dates`);
      if (errors.length !== before) continue;
      const key = JSON.stringify([supplier.toLowerCase(), day, reference.toLowerCase()]);
      const group = groups.get(key) ?? { supplier, expectedDeliveryDate: day!, referenceNumber: reference, lines: [] };
      groups.set(key, group);
      const twin = group.lines.find((l) => l.skuId === sku!.id);
      if (twin) fail('SKU', `SKU ${sku!.sku_code} is already on row ${twin.row} of the same order`);
      else group.lines.push({ skuId: sku!.id, expectedQuantity: qty, notes: notes || undefined, lot: lot || undefined, expiryDate: expiryDate ?? undefined, row });
    }
    if (errors.length) {
      throw unprocessable(rowErrorSummary(errors, 'uploaded'), rowErrorDetails(errors));
    }

    const file = upload.file;
    const orders = await inTransaction(this.db, async (uow) => {
      const stored = await storeFile(uow.tx, { fileName: file.fileName, mimeType, bytes: file.bytes, createdBy: actor.userId });
      const out: { receivingOrderId: number; roNumber: string; lineCount: number }[] = [];
      for (const g of groups.values()) {
        const { id, roNumber } = await this.insertOrder(uow, { warehouseId: fields.warehouseId, customerId: fields.customerId, ...g }, g.lines, actor);
        await repo.insertDocument(uow.tx, id, stored.id);
        await this.changed(uow, actor, id, 'upload', 'AddReceivingOrder', undefined, { fileName: stored.fileName });
        out.push({ receivingOrderId: id, roNumber, lineCount: g.lines.length });
      }
      return out;
    });
    const message = orders.length === 1 ? `Receiving order ${orders[0].roNumber} uploaded successfully` : `${count(orders.length, 'receiving order')} uploaded successfully`;
    return { message, data: { fileName: file.fileName, orders } };
  }

  async addDocument(principal: Principal, upload: ReceivedUpload, actor: Actor) {
    const { receivingOrderId: id } = parseFields(roDocumentFields, upload.fields);
    if (!upload.file) throw badRequest('Please choose a file', { file: 'Please choose a file' });
    const { mimeType } = checkUpload(upload.file, DOCUMENT_RULE);
    const order = await this.order(principal, id);
    const file = upload.file;
    const after = await inTransaction(this.db, async (uow) => {
      // The RO row first, so two uploads at once cannot both pass the count.
      await repo.lockOrder(uow.tx, order.id, RO_STATUSES, new Date().toISOString());
      if (await repo.countDocuments(uow.tx, order.id) >= MAX_RO_DOCUMENTS) throw unprocessable(`A receiving order may hold at most ${MAX_RO_DOCUMENTS} documents`);
      const stored = await storeFile(uow.tx, { fileName: file.fileName, mimeType, bytes: file.bytes, createdBy: actor.userId });
      await repo.insertDocument(uow.tx, order.id, stored.id);
      return this.changed(uow, actor, order.id, 'add_document', 'AddDocument', undefined, { fileName: stored.fileName });
    });
    return { message: 'Document added successfully', data: after };
  }

  async document(principal: Principal, documentId: number) {
    const doc = await repo.document(this.db, documentId);
    if (!doc) throw notFound('Document');
    await this.order(principal, doc.order_id);
    const file = await readStoredFile(this.db, doc.file_id);
    if (!file) throw notFound('Document');
    return file;
  }

  /** The upload template: its header row and one example line. */
  template() {
    const example: Record<Column, string> = { Supplier: 'Acme Supplies', 'Expected Delivery Date': new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10), 'Reference Number': 'PO-1001', SKU: 'SKU-CODE', 'Expected Quantity': '100', Notes: '', Lot: '', 'Expiry Date': '' };
    return toXlsx('Receiving Order', RO_UPLOAD_COLUMNS.map((c): ExcelColumn<Record<Column, string>> => ({ header: c, value: (r) => r[c], width: 22 })), [example]);
  }

  // ----- reports -----

  async details(principal: Principal, req: ListRequest<ReceivingOrderFilters>) {
    return toListPage(await lists.listLines(this.db, this.dialect, principal.scope, req), toDetail);
  }

  async inward(principal: Principal, req: ListRequest<ReceivingOrderFilters>) {
    return toListPage(await lists.listReceipts(this.db, this.dialect, principal.scope, req), toInward);
  }

  async downloadSummary(principal: Principal, req: Pick<ListRequest<ReceivingOrderFilters>, 'filters' | 'searchQuery' | 'sort'>) {
    const rows = (await lists.listAllOrders(this.db, this.dialect, principal.scope, req)).map(toSummary);
    return toXlsx<ReceivingOrderSummary>('RO Report', [
      { header: 'RO Number', value: (r) => r.roNumber }, { header: 'Warehouse', value: (r) => r.warehouseName, width: 20 },
      { header: 'Client', value: (r) => r.customerName, width: 24 }, { header: 'Supplier', value: (r) => r.supplier, width: 24 },
      { header: 'Reference Number', value: (r) => r.referenceNumber }, { header: 'Expected Delivery Date', value: (r) => r.expectedDeliveryDate },
      { header: 'Status', value: (r) => r.status }, { header: 'Lines', value: (r) => r.lineCount },
      { header: 'Expected', value: (r) => r.expectedQuantity }, { header: 'Received', value: (r) => r.receivedQuantity },
      { header: 'Damaged', value: (r) => r.damagedQuantity }, { header: 'Over', value: (r) => r.overQuantity }, { header: 'Short', value: (r) => r.shortQuantity },
      { header: 'Put Away', value: (r) => r.putawayQuantity }, { header: 'Created', value: (r) => r.createdAt, width: 24 },
      { header: 'Finalized', value: (r) => r.finalizedAt, width: 24 },
    ], rows);
  }

  async downloadDetails(principal: Principal, req: Pick<ListRequest<ReceivingOrderFilters>, 'filters' | 'searchQuery' | 'sort'>) {
    const rows = (await lists.listAllLines(this.db, this.dialect, principal.scope, req)).map(toDetail);
    return toXlsx<ReturnType<typeof toDetail>>('RO Report Details', [
      { header: 'RO Number', value: (r) => r.roNumber }, { header: 'Warehouse', value: (r) => r.warehouseName, width: 20 },
      { header: 'Client', value: (r) => r.customerName, width: 24 }, { header: 'Supplier', value: (r) => r.supplier, width: 24 },
      { header: 'Expected Delivery Date', value: (r) => r.expectedDeliveryDate }, { header: 'Status', value: (r) => r.status },
      { header: 'Line', value: (r) => r.lineNo }, { header: 'SKU', value: (r) => r.skuCode }, { header: 'Description', value: (r) => r.skuDescription, width: 30 },
      { header: 'Expected', value: (r) => r.expectedQuantity }, { header: 'Received', value: (r) => r.receivedQuantity },
      { header: 'Damaged', value: (r) => r.damagedQuantity }, { header: 'Over', value: (r) => r.overQuantity }, { header: 'Short', value: (r) => r.shortQuantity },
      { header: 'Put Away', value: (r) => r.putawayQuantity },
    ], rows);
  }

  async downloadInward(principal: Principal, req: Pick<ListRequest<ReceivingOrderFilters>, 'filters' | 'searchQuery' | 'sort'>) {
    const rows = (await lists.listAllReceipts(this.db, this.dialect, principal.scope, req)).map(toInward);
    return toXlsx<ReturnType<typeof toInward>>('RO Inward', [
      { header: 'Received At', value: (r) => r.receivedAt, width: 24 }, { header: 'RO Number', value: (r) => r.roNumber },
      { header: 'Warehouse', value: (r) => r.warehouseName, width: 20 }, { header: 'Client', value: (r) => r.customerName, width: 24 },
      { header: 'Supplier', value: (r) => r.supplier, width: 24 }, { header: 'SKU', value: (r) => r.skuCode },
      { header: 'Description', value: (r) => r.skuDescription, width: 30 }, { header: 'Location', value: (r) => r.locationCode },
      { header: 'Lot', value: (r) => r.lot }, { header: 'Expiry Date', value: (r) => r.expiryDate }, { header: 'Pallet', value: (r) => r.pallet },
      { header: 'Carton', value: (r) => r.carton }, { header: 'Good', value: (r) => r.quantity }, { header: 'Damaged', value: (r) => r.damagedQuantity },
      { header: 'Damage Location', value: (r) => r.damagedLocationCode }, { header: 'Received By', value: (r) => r.receivedBy },
    ], rows);
  }
}

type ReceivingSubEvent = HubEventMap['ReceiveReceivingData']['subEvent'];

function toDetail(r: DetailRow) {
  return {
    ...toLine(r), uniqueid: r.id, receivingOrderId: r.order_id, roNumber: r.ro_number, warehouseName: r.warehouse_name,
    customerName: r.customer_name, supplier: r.supplier, expectedDeliveryDate: r.expected_date, status: r.status as ReceivingStatus,
  };
}

function toInward(r: InwardRow) {
  return {
    ...toReceipt(r), uniqueid: r.id, receivingOrderId: r.order_id, roNumber: r.ro_number, warehouseName: r.warehouse_name,
    customerName: r.customer_name, supplier: r.supplier, skuDescription: r.description,
  };
}

/** The sheet date rule lives with the sheet reader; kept exported here for this module's callers. */
export { parseDay };
