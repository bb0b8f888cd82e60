import {
  APPROVER_ROLES, RETURN_PHOTOS_PER_ITEM, RETURN_PHOTO_MAX_BYTES, RETURN_REASONS, RETURN_DISPOSITIONS, RMA_DEFAULT_DAYS, RMA_OPEN_STATUSES,
  type CreateRmaInput, type HubEventMap, type ReturnItem, type ReturnableOrder, type ReturnsReport, type RmaDetail, type RmaStatus, type RmaSummary,
  type disposeReturnInput, type inspectReturnInput, type manualReturnInput, type receiveReturnInput, type returnsReportRequest,
} from '@bolx/contracts';
import { z } from 'zod';
import type { Jobs, Schedules } from '../../platform/jobs/index.js';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { systemActor, type Actor } from '../../platform/actor.js';
import type { WarehouseTimeZones } from '../../platform/business-day.js';
import type { Change, ChangeRecorder } from '../../platform/change-recorder.js';
import { documentNumbers } from '../../platform/document-numbers.js';
import { toXlsx } from '../../platform/excel.js';
import { badRequest, conflict, forbidden, notFound, unprocessable } from '../../platform/errors.js';
import { checkUpload, readStoredFile, storeFile } from '../../platform/files.js';
import type { DomainEvents } from '../../platform/domain-events.js';
import type { FloorEvent, FloorEvents } from '../../platform/floor-events.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import { count } from '../../platform/plural.js';
import type { Principal } from '../../platform/principal.js';
import { Scope } from '../../platform/scope.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import type { Leg, StockEngine } from '../../platform/stock/stock-engine.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import type { ScanService } from '../scans/scans.service.js';
import { returnsRepository as repo, type ItemFilterValues, type ItemRow, type RmaFilterValues, type RmaRow } from './returns.repository.js';

const n = (v: unknown) => Number(v);
type SubEvent = HubEventMap['ReceiveRmaData']['subEvent'];
type ReceiveInput = z.infer<typeof receiveReturnInput>;
type InspectInput = z.infer<typeof inspectReturnInput>;
type DisposeInput = z.infer<typeof disposeReturnInput>;
type ManualInput = z.infer<typeof manualReturnInput>;
type ReportInput = z.infer<typeof returnsReportRequest>;

/** Where returned units wait for inspection: never allocated (the stock engine leaves returns locations out). */
const RECEIVING_TYPES = ['returns'];
/** A refurbish bench: a handling (non-storage) location that is neither a tote, a dock nor the returns area. */
const WORK_TYPES_EXCLUDED = ['tote', 'dock', 'returns'];

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const toSummary = (r: RmaRow): RmaSummary => ({
  uniqueid: r.id, rmaId: r.id, rmaNumber: r.rma_number, status: r.status as RmaStatus, warehouseId: r.warehouse_id, customerId: r.customer_id,
  customerName: r.customer_name, orderId: r.order_id, soNumber: r.so_number, referenceNumber: r.reference_number, resolution: r.resolution as RmaSummary['resolution'],
  expiresOn: r.expires_on, trackingNumber: r.tracking_number, carrier: r.carrier, units: n(r.units), receivedUnits: n(r.received_units),
  createdVia: r.created_via as 'screen' | 'api', createdAt: String(r.created_at),
});
const itemStatus = (r: ItemRow): ReturnItem['status'] => (r.disposition ? 'Disposed' : r.inspected_at ? 'Inspected' : 'Received');
const returnNumber = (r: { id: number; rma_number: string | null }) => r.rma_number ?? `RET-${r.id}`;

/**
 * Returns (issue 15). RMAs authorise an order line's units back — never more than it shipped less what other RMAs
 * (and parcels linked to it) already hold, checked with the order row locked so parallel requests queue. Returned
 * units come in to a returns location through the stock engine (ledger `return`, never allocated there), are
 * inspected, then disposed of: restocked to storage (ledger `return`; the engine's stock.posted event fills
 * waiting backorders), quarantined or sent to refurbish (held: not allocatable), or disposed (ledger `dispose`).
 * Every step is audited, told to the hub, and recorded in the activity log for billing.
 */
export class ReturnService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly timeZones: WarehouseTimeZones;
  private readonly statuses: StatusMachine;

  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder' | 'timeZones'>, private readonly parts: { stock: StockEngine; floorEvents: FloorEvents; scans: ScanService }) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.timeZones = deps.timeZones;
    this.statuses = new StatusMachine(deps);
  }

  // ----- RMAs -----

  async list(principal: Principal, req: ListRequest<RmaFilterValues>) {
    return toListPage(await repo.listRmas(this.db, this.dialect, principal.scope, req), toSummary);
  }

  async get(principal: Principal, rmaId: number): Promise<RmaDetail> {
    const row = await repo.findRma(this.db, principal.scope, rmaId);
    if (!row) throw notFound('RMA');
    return this.detail(row);
  }

  private async detail(row: RmaRow): Promise<RmaDetail> {
    const [lines, items, history] = await Promise.all([repo.rmaLines(this.db, [row.id]), repo.itemsOfRma(this.db, row.id), repo.history(this.db, row.id)]);
    return {
      ...toSummary(row), notes: row.notes,
      lines: lines.map((l) => ({
        lineId: l.id, orderLineId: l.order_line_id, skuId: l.sku_id, skuCode: l.sku_code, description: l.description ?? '', quantity: n(l.quantity),
        receivedQuantity: n(l.received_qty), reason: l.reason as RmaDetail['lines'][number]['reason'], expectedCondition: l.expected_condition as RmaDetail['lines'][number]['expectedCondition'], notes: l.notes,
      })),
      items: await this.toItems(items),
      history: history.map((h) => ({ from: h.from_status, to: h.to_status, at: String(h.at), username: h.username, reason: h.reason })),
    };
  }

  private async toItems(rows: ItemRow[]): Promise<ReturnItem[]> {
    const photos = await repo.photos(this.db, rows.map((r) => r.id));
    return rows.map((r) => ({
      uniqueid: r.id, itemId: r.id, status: itemStatus(r), rmaId: r.rma_id, rmaNumber: r.rma_number, rmaLineId: r.rma_line_id, returnNumber: returnNumber(r),
      warehouseId: r.warehouse_id, customerId: r.customer_id, customerName: r.customer_name, orderId: r.order_id, soNumber: r.so_number,
      skuId: r.sku_id, skuCode: r.sku_code, description: r.description ?? '', lot: r.lot, expiryDate: r.expiry_date, quantity: n(r.quantity),
      reason: r.reason as ReturnItem['reason'], locationId: r.location_id, locationCode: r.location_code, receivedAt: String(r.received_at), receivedBy: r.received_by,
      condition: r.condition as ReturnItem['condition'], notes: r.notes, inspectedAt: r.inspected_at && String(r.inspected_at),
      disposition: r.disposition as ReturnItem['disposition'], dispositionLocationCode: r.disposition_location_code, dispositionReason: r.disposition_reason,
      disposedAt: r.disposed_at && String(r.disposed_at),
      photos: photos.filter((p) => p.return_item_id === r.id).map((p) => ({ photoId: p.id, fileId: p.file_id, fileName: p.file_name })),
    }));
  }

  /** A client's order by number or reference, with what each line shipped and may still be returned. */
  async returnable(principal: Principal, q: { warehouseId: number; customerId: number; code: string }): Promise<ReturnableOrder> {
    principal.scope.assert(q);
    const order = await repo.orderByCode(this.db, principal.scope, q.warehouseId, q.customerId, q.code.trim());
    if (!order) throw notFound(`Order ${q.code}`);
    if (order.status !== 'Shipped') throw conflict(`Order ${order.so_number} is ${order.status}; only shipped orders can be returned`);
    const lines = await repo.returnableLines(this.db, order.id);
    return {
      orderId: order.id, soNumber: order.so_number, referenceNumber: order.reference_number, shipDate: order.ship_date, customerId: order.customer_id,
      lines: lines.filter((l) => n(l.shipped_qty) > 0).map((l) => ({
        orderLineId: l.id, skuId: l.sku_id, skuCode: l.sku_code, description: l.description ?? '', lot: l.lot || null,
        shipped: n(l.shipped_qty), returnable: Math.max(0, n(l.shipped_qty) - n(l.counted)),
      })),
    };
  }

  /**
   * Authorises a return against a shipped order (staff, the client account, or the client's API key). The order
   * row is locked first (a conditional UPDATE of the Shipped order), so RMAs for the same order are decided one
   * after another: each line's quantity is at most what it shipped less what is already returned or authorised.
   */
  async create(principal: Principal, input: CreateRmaInput, actor: Actor, via: 'screen' | 'api') {
    const order = await repo.order(this.db, principal.scope, input.orderId);
    if (!order) throw notFound('Order');
    const seen = new Set<number>();
    for (const [i, l] of input.lines.entries()) {
      if (seen.has(l.orderLineId)) throw badRequest('Each order line once per RMA', { [`lines.${i}.orderLineId`]: 'This line is already on the RMA' });
      seen.add(l.orderLineId);
    }
    const summary = await inTransaction(this.db, async (uow) => {
      await this.statuses.hold(uow, {
        kind: 'SALES_ORDER', id: order.id, in: ['Shipped'], refusal: (status) => `Order ${order.so_number} is ${status}; only shipped orders can be returned`,
      });
      const lines = new Map((await repo.returnableLines(uow.tx, order.id)).map((l) => [l.id, l]));
      for (const [i, l] of input.lines.entries()) {
        const line = lines.get(l.orderLineId);
        if (!line) throw unprocessable(`Line ${l.orderLineId} is not on order ${order.so_number}`, { [`lines.${i}.orderLineId`]: 'Not a line of this order' });
        const returnable = n(line.shipped_qty) - n(line.counted);
        if (l.quantity > returnable) {
          throw unprocessable(`${line.sku_code}: at most ${count(Math.max(0, returnable), 'unit')} can be returned (${n(line.shipped_qty)} shipped, ${n(line.counted)} already returned or authorised)`,
            { [`lines.${i}.quantity`]: `At most ${Math.max(0, returnable)}` });
        }
      }
      const now = new Date();
      const today = await this.timeZones.dayOf(order.warehouse_id, now, uow.tx);
      const expiresOn = input.expiresOn ?? addDays(today, RMA_DEFAULT_DAYS);
      if (expiresOn < today) throw badRequest('The authorisation cannot expire before today', { expiresOn: `On or after ${today}` });
      const { number } = await documentNumbers.next(uow, 'RMA');
      const rmaId = await repo.insertRma(uow.tx, {
        rma_number: number, warehouse_id: order.warehouse_id, customer_id: order.customer_id, order_id: order.id, resolution: input.resolution,
        expires_on: expiresOn, tracking_number: input.trackingNumber || null, carrier: input.carrier || null, notes: input.notes || null,
        created_via: via, created_by: actor.userId, at: now.toISOString(), status: input.trackingNumber ? 'In Transit' : 'Authorised',
      });
      await repo.insertRmaLines(uow.tx, input.lines.map((l) => ({
        rma_id: rmaId, order_line_id: l.orderLineId, sku_id: lines.get(l.orderLineId)!.sku_id, quantity: l.quantity, reason: l.reason,
        expected_condition: l.expectedCondition, notes: l.notes || null,
      })));
      const row = (await repo.findRma(uow.tx, Scope.everything, rmaId))!;
      await this.parts.floorEvents.record(uow, actor, [{
        kind: 'rma', warehouseId: order.warehouse_id, customerId: order.customer_id, orderId: order.id, docType: 'RMA', docId: rmaId,
        quantity: input.lines.reduce((s, l) => s + l.quantity, 0), detail: via,
      }], now);
      await this.recorder.record(uow, actor, this.change('create', 'AddRma', row, { lines: input.lines }));
      return toSummary(row);
    });
    return { message: `RMA ${summary.rmaNumber} created for order ${order.so_number}`, data: summary };
  }

  /** A return label's tracking number, entered by hand: an Authorised RMA is then In Transit. */
  async setTracking(principal: Principal, input: { rmaId: number; trackingNumber: string; carrier?: string }, actor: Actor) {
    const row = await this.scoped(principal, input.rmaId);
    const summary = await inTransaction(this.db, (uow) => this.inTransit(uow, actor, row, input.trackingNumber, input.carrier || row.carrier));
    return { message: `RMA ${row.rma_number}: tracking number ${input.trackingNumber} saved`, data: summary };
  }

  /** The return's tracking number on the RMA, which is then In Transit (from a number typed in, or a return label). */
  private async inTransit(uow: UnitOfWork, actor: Actor, row: Pick<RmaRow, 'id' | 'rma_number'>, trackingNumber: string, carrier: string | null) {
    await this.statuses.transition(uow, actor, {
      kind: 'RMA', id: row.id, to: 'In Transit', from: ['Authorised', 'In Transit'],
      set: { tracking_number: trackingNumber, carrier, updated_at: new Date().toISOString() },
      refusal: (s) => `RMA ${row.rma_number} is ${s}; a tracking number is added before the goods arrive`,
    });
    const after = (await repo.findRma(uow.tx, Scope.everything, row.id))!;
    await this.recorder.record(uow, actor, this.change('tracking', 'UpdateRma', after, { trackingNumber }));
    return toSummary(after);
  }

  /** A return label made in shipping puts its RMA In Transit, in the label's transaction. */
  followReturnLabels(domainEvents: DomainEvents): void {
    domainEvents.inTransaction('shipment.return-labelled', 'returns.return-labelled', async (e, { uow, actor }) => {
      const row = (await repo.findRma(uow.tx, Scope.everything, e.rmaId))!;
      await this.inTransit(uow, actor, row, e.trackingNumber, e.carrier.slice(0, 64));
    });
  }

  async cancel(principal: Principal, input: { rmaId: number; reason?: string }, actor: Actor) {
    return this.move(principal, input, actor, 'Cancelled', 'cancelled');
  }

  /** Closes an RMA with what came back: every unit received must have its disposition. */
  async close(principal: Principal, input: { rmaId: number; reason?: string }, actor: Actor) {
    return this.move(principal, input, actor, 'Closed', 'closed');
  }

  private async move(principal: Principal, input: { rmaId: number; reason?: string }, actor: Actor, to: 'Cancelled' | 'Closed', word: string) {
    const row = await this.scoped(principal, input.rmaId);
    const summary = await inTransaction(this.db, async (uow) => {
      if (to === 'Closed') {
        const progress = await repo.rmaProgress(uow.tx, row.id);
        if (progress.undisposed > 0) throw conflict(`RMA ${row.rma_number}: ${count(progress.undisposed, 'returned item')} still ${progress.undisposed === 1 ? 'waits' : 'wait'} for a disposition`);
      }
      await this.statuses.transition(uow, actor, { kind: 'RMA', id: row.id, to, reason: input.reason ?? null, set: { updated_at: new Date().toISOString() } });
      const after = (await repo.findRma(uow.tx, Scope.everything, row.id))!;
      await this.recorder.record(uow, actor, this.change(to === 'Closed' ? 'close' : 'cancel', 'UpdateRma', after, { reason: input.reason ?? null }));
      return toSummary(after);
    });
    return { message: `RMA ${row.rma_number} ${word}`, data: summary };
  }

  /** The nightly job: RMAs still waiting for their goods after their last day (in the warehouse's time zone) expire. */
  async expireDue(now = new Date()) {
    const actor = systemActor('returns.expire-rmas');
    const tomorrowUtc = addDays(now.toISOString().slice(0, 10), 2);
    let expired = 0;
    for (const r of await repo.dueToExpire(this.db, tomorrowUtc)) {
      const today = await this.timeZones.dayOf(r.warehouse_id, now);
      if (r.expires_on >= today) continue;
      const moved = await inTransaction(this.db, async (uow) => {
        const row = await this.statuses.transition(uow, actor, {
          kind: 'RMA', id: r.id, to: 'Expired', ifPossible: true, reason: `Not returned by ${r.expires_on}`, set: { updated_at: now.toISOString() },
        });
        if (!row) return false;
        const after = (await repo.findRma(uow.tx, Scope.everything, r.id))!;
        await this.recorder.record(uow, actor, this.change('expire', 'UpdateRma', after, { expiresOn: r.expires_on }));
        return true;
      });
      if (moved) expired++;
    }
    return { expired };
  }

  // ----- /Returns: scan, receive, inspect, dispose -----

  /**
   * The open RMAs a scan names in a warehouse: RMA number, order number or reference, or tracking number. With none
   * open, the finished ones (closed, expired, cancelled) are answered to be shown read-only, with why nothing is
   * left to receive — a clerk scanning a fully disposed RMA sees its state rather than "not found".
   */
  async scan(principal: Principal, input: { warehouseId: number; code: string }) {
    principal.scope.assert({ warehouseId: input.warehouseId });
    const code = input.code.trim();
    const open = await repo.rmasByCode(this.db, principal.scope, input.warehouseId, code, true);
    if (open.length > 0) return { code, rmas: open.map(toSummary) };
    const finished = await repo.rmasByCode(this.db, principal.scope, input.warehouseId, code, false);
    if (finished.length === 0) throw notFound(`No RMA matches '${code}' in this warehouse; an RMA`);
    const [first] = finished;
    const message = finished.length === 1
      ? `${first.rma_number} is ${first.status}: nothing is left to receive on it`
      : `No open RMA matches '${code}': ${finished.length} finished RMAs, nothing is left to receive`;
    return { code, rmas: finished.map(toSummary), message };
  }

  /**
   * Receives a scanned item against an RMA: the units into a returns location (ledger `return`, document RMA), an
   * item to inspect, the line's received count, the RMA Received. More than the line authorised is refused (409)
   * unless a manager approves; never more than the order line shipped less what else is returned.
   */
  async receive(principal: Principal, input: ReceiveInput, actor: Actor) {
    const head = await this.scoped(principal, input.rmaId);
    const result = await inTransaction(this.db, async (uow) => {
      // The RMA row first: receipts of one RMA take turns, so the over-receipt check reads what the others wrote.
      await this.statuses.hold(uow, {
        kind: 'RMA', id: head.id, in: [...RMA_OPEN_STATUSES], refusal: (s) => `RMA ${head.rma_number} is ${s}; nothing more can be received on it`,
      });
      const matches = (await this.parts.scans.skuMatches(uow.tx, head.warehouse_id, input.code)).filter((m) => m.customerId === head.customer_id);
      if (matches.length === 0) throw unprocessable(`No item of ${head.customer_name} matches '${input.code}'`, { code: 'Unknown item' });
      const lines = await repo.rmaLines(uow.tx, [head.id]);
      const candidates = lines.filter((l) => matches.some((m) => m.skuId === l.sku_id));
      const line = candidates.find((l) => n(l.received_qty) < n(l.quantity)) ?? candidates[0];
      if (!line) throw unprocessable(`${matches[0].skuCode} is not on RMA ${head.rma_number}`, { code: 'Not on this RMA' });
      const units = input.quantity * (matches.find((m) => m.skuId === line.sku_id)!.unitsPerScan || 1);
      const over = n(line.received_qty) + units - n(line.quantity);
      if (over > 0) {
        if (!input.approveOverReceipt) {
          throw conflict(`RMA ${head.rma_number} authorised ${count(n(line.quantity), 'unit')} of ${line.sku_code} and ${n(line.received_qty)} arrived; ${units} more is an over-receipt a manager must approve`);
        }
        if (!APPROVER_ROLES.includes(principal.role)) throw forbidden('Only a manager can approve an over-receipt');
      }
      const location = await this.receivingLocation(uow, head.warehouse_id, input.locationId);
      await repo.addReceived(uow.tx, line.id, units);
      await this.assertWithinShipped(uow, head.order_id, line.order_line_id, line.sku_code);
      const lot = input.lot ?? '';
      const expiryDate = input.expiryDate ?? (lot ? await repo.lotExpiry(uow.tx, head.customer_id, line.sku_id, lot) : null);
      const now = new Date();
      const day = await this.timeZones.dayOf(head.warehouse_id, now, uow.tx);
      const itemId = await repo.insertItem(uow.tx, {
        rma_id: head.id, rma_line_id: line.id, warehouse_id: head.warehouse_id, customer_id: head.customer_id, order_id: head.order_id,
        order_line_id: line.order_line_id, sku_id: line.sku_id, lot, expiry_date: expiryDate, quantity: units, reason: line.reason, location_id: location.id,
        business_day: day, received_at: now.toISOString(), received_by: actor.userId,
      });
      await this.parts.stock.post(uow, {
        documentType: 'RMA', documentId: head.rma_number, documentLine: String(line.id), reason: `Returned under ${head.rma_number}`,
        legs: [{ place: { warehouseId: head.warehouse_id, customerId: head.customer_id, skuId: line.sku_id, locationId: location.id, lot, pallet: '' }, qty: units, txnType: 'return', expiryDate, receivedAt: now.toISOString() }],
        record: { kind: 'Receive', after: { rmaNumber: head.rma_number, itemId, quantity: units } },
      }, actor);
      await this.statuses.transition(uow, actor, { kind: 'RMA', id: head.id, to: 'Received', from: ['Authorised', 'In Transit', 'Inspected', 'Received'], set: { updated_at: now.toISOString() } });
      await this.parts.floorEvents.record(uow, actor, [this.floorEvent('return-receive', head, head.id, { itemId, skuId: line.sku_id, locationId: location.id, quantity: units, orderLineId: line.order_line_id, detail: line.reason })], now);
      const after = (await repo.findRma(uow.tx, Scope.everything, head.id))!;
      await this.recorder.record(uow, actor, this.change('receive', 'ReceiveReturn', after, { itemId, skuId: line.sku_id, quantity: units, over: Math.max(0, over) }, itemId));
      return { itemId, units, skuCode: line.sku_code, after };
    });
    return { message: `${count(result.units, 'unit')} of ${result.skuCode} received on ${head.rma_number}`, data: await this.detail(result.after) };
  }

  /** Inspects a returned item not yet disposed of: its condition, notes (photos separately). */
  async inspect(principal: Principal, input: InspectInput, actor: Actor) {
    const item = await this.scopedItem(principal, input.itemId);
    const now = new Date();
    await inTransaction(this.db, async (uow) => {
      if (!await repo.inspect(uow.tx, item.id, { condition: input.condition, notes: input.notes || null, at: now.toISOString() })) {
        throw conflict(`${returnNumber(item)}: ${item.sku_code} is already disposed of`);
      }
      await this.parts.floorEvents.record(uow, actor, [this.floorEvent('return-inspect', item, item.rma_id, { itemId: item.id, skuId: item.sku_id, locationId: item.location_id, quantity: item.quantity, detail: input.condition })], now);
      if (item.rma_id) {
        const progress = await repo.rmaProgress(uow.tx, item.rma_id);
        if (progress.uninspected === 0) await this.statuses.transition(uow, actor, { kind: 'RMA', id: item.rma_id, to: 'Inspected', from: ['Received'], ifPossible: true });
      }
      await this.recorder.record(uow, actor, this.itemChange('inspect', 'InspectReturn', item, { condition: input.condition }));
    });
    return { message: `${item.sku_code} inspected: ${input.condition}`, data: (await this.toItems([(await repo.findItem(this.db, Scope.everything, item.id))!]))[0] };
  }

  /** An inspection photo: a PNG or JPEG (by its bytes) of at most 10 MB. */
  async addPhoto(principal: Principal, itemId: number, file: { fileName: string; bytes: Buffer } | null, actor: Actor) {
    if (!file) throw badRequest('Attach a photo', { file: 'Attach a photo' });
    const item = await this.scopedItem(principal, itemId);
    const checked = checkUpload(file, { allowed: ['png', 'jpeg'], maxBytes: RETURN_PHOTO_MAX_BYTES });
    await inTransaction(this.db, async (uow) => {
      if (await repo.photoCount(uow.tx, item.id) >= RETURN_PHOTOS_PER_ITEM) throw conflict(`At most ${RETURN_PHOTOS_PER_ITEM} photos an item`);
      const stored = await storeFile(uow.tx, { fileName: file.fileName, mimeType: checked.mimeType, bytes: file.bytes, createdBy: actor.userId });
      await uow.tx.insertInto('return_photo').values({ return_item_id: item.id, file_id: stored.id, uploaded_by: actor.userId, created_at: new Date().toISOString() }).execute();
      await this.recorder.record(uow, actor, this.itemChange('photo', 'InspectReturn', item, { fileId: stored.id, fileName: stored.fileName }));
    });
    return { message: `Photo added to ${item.sku_code}`, data: (await this.toItems([(await repo.findItem(this.db, Scope.everything, item.id))!]))[0] };
  }

  /** An inspection photo within the caller's scope; `rmaOnly`: only of an RMA's items (the RMA readers' route). */
  async photoFile(principal: Principal, photoId: number, rmaOnly = false) {
    const photo = await repo.photo(this.db, photoId);
    if (!photo) throw notFound('Photo');
    const item = await this.scopedItem(principal, photo.return_item_id);
    if (rmaOnly && item.rma_id === null) throw notFound('Photo');
    const file = await readStoredFile(this.db, photo.file_id);
    if (!file) throw notFound('Photo');
    return file;
  }

  /**
   * An inspected item's disposition, through the stock engine from where it waits: restock (a storage location of the
   * warehouse, never an expired lot; the arrival is ledger `return` and fills waiting backorders), quarantine (a
   * quarantine location, the balance held QUARANTINE), refurbish (a work location, held INSPECTION), dispose (ledger
   * `dispose` with its reason). An RMA whose units have all come and been disposed of is Closed.
   */
  async dispose(principal: Principal, input: DisposeInput, actor: Actor) {
    const item = await this.scopedItem(principal, input.itemId);
    if (item.disposition) throw conflict(`${returnNumber(item)}: ${item.sku_code} is already disposed of (${item.disposition})`);
    if (!item.inspected_at) throw conflict(`${returnNumber(item)}: inspect ${item.sku_code} before its disposition`);
    const reason = input.reason?.trim() || null;
    if (input.disposition === 'dispose' && !reason) throw badRequest('Please give a reason for disposing', { reason: 'Please give a reason for disposing' });
    if (input.disposition !== 'dispose' && !input.locationId) throw badRequest('Please select a location', { locationId: 'Please select a location' });
    const document = returnNumber(item);
    const now = new Date();
    await inTransaction(this.db, async (uow) => {
      const target = input.disposition === 'dispose' ? null : await this.dispositionLocation(uow, item, input.disposition, input.locationId!);
      if (input.disposition === 'restock' && item.expiry_date) {
        const today = await this.timeZones.dayOf(item.warehouse_id, now, uow.tx);
        if (item.expiry_date < today) {
          throw unprocessable(`Lot ${item.lot || '(none)'} of ${item.sku_code} expired on ${item.expiry_date}: it cannot be restocked; quarantine or dispose of it`, { disposition: 'Expired lot' });
        }
      }
      if (!await repo.dispose(uow.tx, item.id, { disposition: input.disposition, locationId: target?.id ?? null, reason, at: now.toISOString() })) {
        throw conflict(`${document}: ${item.sku_code} is already disposed of`);
      }
      const from = { warehouseId: item.warehouse_id, customerId: item.customer_id, skuId: item.sku_id, locationId: item.location_id, lot: item.lot, pallet: '' };
      const legs: Leg[] = target
        ? [{ place: from, qty: -item.quantity, txnType: 'move_out' }, { place: { ...from, locationId: target.id }, qty: item.quantity, txnType: 'return', expiryDate: item.expiry_date }]
        : [{ place: from, qty: -item.quantity, txnType: 'dispose' }];
      await this.parts.stock.post(uow, {
        documentType: item.rma_id ? 'RMA' : 'RETURN', documentId: document, documentLine: String(item.id),
        reason: input.disposition === 'dispose' ? `Disposed: ${reason}` : `Return ${input.disposition}`,
        legs, record: { kind: input.disposition === 'dispose' ? 'Adjust' : 'Move', after: { document, itemId: item.id, disposition: input.disposition, quantity: item.quantity } },
      }, actor);
      if (target && input.disposition !== 'restock') {
        const balanceId = await repo.balanceId(uow.tx, { ...from, locationId: target.id });
        await this.parts.stock.hold(uow, input.disposition === 'quarantine' ? 'QUARANTINE' : 'INSPECTION', document, item.warehouse_id, { balanceIds: [balanceId], customerId: item.customer_id }, actor);
      }
      await this.parts.floorEvents.record(uow, actor, [this.floorEvent('return-dispose', item, item.rma_id, {
        itemId: item.id, skuId: item.sku_id, locationId: target?.id ?? item.location_id, quantity: item.quantity, detail: input.disposition,
      })], now);
      if (item.rma_id) {
        const progress = await repo.rmaProgress(uow.tx, item.rma_id);
        if (progress.undisposed === 0 && progress.shortLines === 0) {
          await this.statuses.transition(uow, actor, { kind: 'RMA', id: item.rma_id, to: 'Closed', from: ['Received', 'Inspected'], ifPossible: true, reason: 'Every unit returned and disposed of' });
        }
      }
      await this.recorder.record(uow, actor, this.itemChange('dispose', 'DisposeReturn', item, { disposition: input.disposition, locationId: target?.id ?? null, reason }));
    });
    const label = input.disposition === 'dispose' ? 'disposed of' : input.disposition === 'restock' ? 'restocked' : input.disposition === 'quarantine' ? 'quarantined' : 'sent to refurbish';
    return { message: `${count(item.quantity, 'unit')} of ${item.sku_code} ${label}`, data: (await this.toItems([(await repo.findItem(this.db, Scope.everything, item.id))!]))[0] };
  }

  // ----- /ManualReturns -----

  async findSkus(principal: Principal, q: { warehouseId: number; customerId?: number; code: string }) {
    principal.scope.assert(q);
    const rows = await repo.skusByCode(this.db, principal.scope, q.warehouseId, q.customerId || undefined, q.code.trim());
    return rows.map((r) => ({ skuId: r.id, customerId: r.customer_id, customerName: r.customer_name, skuCode: r.sku_code, description: r.description ?? '' }));
  }

  /** A parcel without an RMA: the client's units into a returns location (ledger `return`, document RETURN), to inspect and dispose as any return. */
  async receiveManual(principal: Principal, input: ManualInput, actor: Actor) {
    principal.scope.assert({ warehouseId: input.warehouseId, customerId: input.customerId });
    const sku = await this.db.selectFrom('sku').select(['id', 'customer_id', 'sku_code']).where('id', '=', input.skuId).executeTakeFirst();
    if (!sku || sku.customer_id !== input.customerId) throw unprocessable('This item is not the client’s', { skuId: 'Not an item of this client' });
    const now = new Date();
    const orderId = input.orderId ?? (input.orderNumber ? await this.orderIdOf(principal, input.warehouseId, input.customerId, input.orderNumber) : undefined);
    const itemId = await inTransaction(this.db, async (uow) => {
      const location = await this.receivingLocation(uow, input.warehouseId, input.locationId);
      const link = orderId ? await this.orderLineFor(uow, principal, orderId, input.customerId, input.warehouseId, sku.id, sku.sku_code) : null;
      const lot = input.lot ?? '';
      const expiryDate = input.expiryDate ?? (lot ? await repo.lotExpiry(uow.tx, input.customerId, sku.id, lot) : null);
      const day = await this.timeZones.dayOf(input.warehouseId, now, uow.tx);
      const id = await repo.insertItem(uow.tx, {
        rma_id: null, rma_line_id: null, warehouse_id: input.warehouseId, customer_id: input.customerId, order_id: link?.orderId ?? null,
        order_line_id: link?.orderLineId ?? null, sku_id: sku.id, lot, expiry_date: expiryDate, quantity: input.quantity, reason: input.reason,
        location_id: location.id, business_day: day, received_at: now.toISOString(), received_by: actor.userId, notes: input.notes || null,
      });
      if (link) await this.assertWithinShipped(uow, link.orderId, link.orderLineId, sku.sku_code);
      await this.parts.stock.post(uow, {
        documentType: 'RETURN', documentId: `RET-${id}`, documentLine: String(id), reason: 'Returned without an RMA',
        legs: [{ place: { warehouseId: input.warehouseId, customerId: input.customerId, skuId: sku.id, locationId: location.id, lot, pallet: '' }, qty: input.quantity, txnType: 'return', expiryDate, receivedAt: now.toISOString() }],
        record: { kind: 'Receive', after: { returnNumber: `RET-${id}`, quantity: input.quantity } },
      }, actor);
      const item = (await repo.findItem(uow.tx, Scope.everything, id))!;
      await this.parts.floorEvents.record(uow, actor, [this.floorEvent('return-receive', item, null, { itemId: id, skuId: sku.id, locationId: location.id, quantity: input.quantity, detail: input.reason })], now);
      await this.recorder.record(uow, actor, this.itemChange('receive', 'ManualReturn', item, { quantity: input.quantity, orderId: link?.orderId ?? null }));
      return id;
    });
    return { message: `RET-${itemId}: ${count(input.quantity, 'unit')} of ${sku.sku_code} received without an RMA`, data: (await this.toItems([(await repo.findItem(this.db, Scope.everything, itemId))!]))[0] };
  }

  /** Links a parcel received without an RMA to the order it came from, once found (the order's line of that SKU). */
  async link(principal: Principal, input: { itemId: number; orderId?: number; orderNumber?: string }, actor: Actor) {
    const item = await this.scopedItem(principal, input.itemId);
    if (item.rma_id) throw conflict(`${returnNumber(item)} came under an RMA; its order is the RMA's`);
    if (item.order_id) throw conflict(`${returnNumber(item)} is already linked to order ${item.so_number}`);
    const orderId = input.orderId ?? await this.orderIdOf(principal, item.warehouse_id, item.customer_id, input.orderNumber!);
    await inTransaction(this.db, async (uow) => {
      const link = await this.orderLineFor(uow, principal, orderId, item.customer_id, item.warehouse_id, item.sku_id, item.sku_code);
      if (!await repo.linkOrder(uow.tx, item.id, link.orderId, link.orderLineId)) throw conflict(`${returnNumber(item)} is already linked`);
      await this.assertWithinShipped(uow, link.orderId, link.orderLineId, item.sku_code);
      await this.recorder.record(uow, actor, this.itemChange('link', 'LinkReturn', item, { orderId: link.orderId }));
    });
    const after = (await repo.findItem(this.db, Scope.everything, item.id))!;
    return { message: `${returnNumber(item)} linked to order ${after.so_number}`, data: (await this.toItems([after]))[0] };
  }

  async listItems(principal: Principal, req: ListRequest<ItemFilterValues>) {
    const page = await repo.listItems(this.db, this.dialect, principal.scope, req);
    return { items: await this.toItems(page.rows), totalCount: page.total };
  }

  // ----- /Return: the report -----

  async report(principal: Principal, input: ReportInput): Promise<ReturnsReport> {
    if (input.from > input.to) throw badRequest('The period ends before it starts', { to: 'On or after the start' });
    const filter = { warehouseId: input.warehouseId || undefined, customerId: input.customerId || undefined, from: input.from, to: input.to };
    const [rows, rmas, shipped, days] = await Promise.all([
      repo.reportItems(this.db, principal.scope, filter), repo.reportRmas(this.db, principal.scope, filter), repo.shippedBySku(this.db, principal.scope, filter),
      repo.reportDays(this.db, principal.scope, filter),
    ]);
    const sum = <K>(key: (r: (typeof rows)[number]) => K) => {
      const m = new Map<K, number>();
      for (const r of rows) m.set(key(r), (m.get(key(r)) ?? 0) + n(r.units));
      return m;
    };
    const byReason = sum((r) => r.reason);
    const byDisposition = sum((r) => r.disposition);
    const clients = new Map<number, { customerId: number; customerName: string; units: number }>();
    const skus = new Map<number, { skuId: number; skuCode: string; description: string; customerName: string; returned: number; shipped: number }>();
    for (const r of rows) {
      const c = clients.get(r.customer_id) ?? { customerId: r.customer_id, customerName: r.customer_name, units: 0 };
      c.units += n(r.units);
      clients.set(r.customer_id, c);
      const s = skus.get(r.sku_id) ?? { skuId: r.sku_id, skuCode: r.sku_code, description: r.description ?? '', customerName: r.customer_name, returned: 0, shipped: 0 };
      s.returned += n(r.units);
      skus.set(r.sku_id, s);
    }
    for (const r of shipped) {
      const s = skus.get(r.sku_id);
      if (s) s.shipped = n(r.shipped);
    }
    return {
      from: input.from, to: input.to,
      totals: {
        units: rows.reduce((s, r) => s + n(r.units), 0), items: rows.reduce((s, r) => s + n(r.items), 0), rmas,
        shipped: shipped.reduce((s, r) => s + n(r.shipped), 0),
      },
      byReason: RETURN_REASONS.map((reason) => ({ reason, units: byReason.get(reason) ?? 0 })),
      byDisposition: ([...RETURN_DISPOSITIONS, 'pending'] as const).map((disposition) => ({ disposition, units: byDisposition.get(disposition) ?? 0 })),
      byDay: days.map((d) => ({ day: d.business_day, disposition: d.disposition as ReturnsReport['byDay'][number]['disposition'], units: n(d.units) })),
      byClient: [...clients.values()].sort((a, b) => b.units - a.units),
      bySku: [...skus.values()].map((s) => ({ ...s, rate: s.shipped > 0 ? Math.round((s.returned / s.shipped) * 10000) / 10000 : null }))
        .sort((a, b) => b.returned - a.returned || a.skuCode.localeCompare(b.skuCode)),
    };
  }

  async reportXlsx(principal: Principal, input: ReportInput) {
    const report = await this.report(principal, input);
    type Row = { section: string; name: string; units: number | null; shipped: number | null; rate: string | null };
    const rows: Row[] = [
      ...report.byReason.map((r) => ({ section: 'Reason', name: r.reason, units: r.units, shipped: null, rate: null })),
      ...report.byDisposition.map((r) => ({ section: 'Disposition', name: r.disposition, units: r.units, shipped: null, rate: null })),
      ...report.byClient.map((r) => ({ section: 'Client', name: r.customerName, units: r.units, shipped: null, rate: null })),
      ...report.bySku.map((r) => ({ section: 'SKU', name: `${r.skuCode} (${r.customerName})`, units: r.returned, shipped: r.shipped, rate: r.rate === null ? null : `${(r.rate * 100).toFixed(1)}%` })),
    ];
    return toXlsx('Returns', [
      { header: 'Section', value: (r: Row) => r.section, width: 14 },
      { header: 'Name', value: (r: Row) => r.name, width: 36 },
      { header: 'Units returned', value: (r: Row) => r.units, width: 16 },
      { header: 'Units shipped', value: (r: Row) => r.shipped, width: 16 },
      { header: 'Return rate', value: (r: Row) => r.rate, width: 14 },
    ], rows, [`Processed returns from ${report.from} to ${report.to}`, `Units returned: ${report.totals.units}; RMAs: ${report.totals.rmas}; units shipped: ${report.totals.shipped}`]);
  }

  /** The locations a returns step may use in a warehouse (see dispositionLocation and receivingLocation). */
  async locations(principal: Principal, q: { warehouseId: number; purpose: string; search?: string }) {
    principal.scope.assert({ warehouseId: q.warehouseId });
    const where = q.purpose === 'receive' ? { types: RECEIVING_TYPES } : q.purpose === 'restock' ? { category: 'storage' }
      : q.purpose === 'quarantine' ? { types: ['quarantine'] } : { category: 'other', notTypes: WORK_TYPES_EXCLUDED };
    return (await repo.locations(this.db, q.warehouseId, where, q.search ?? '')).map((l) => ({ locationId: l.id, code: l.code, type: l.type }));
  }

  // ----- shared steps -----

  private async orderIdOf(principal: Principal, warehouseId: number, customerId: number, code: string) {
    const order = await repo.orderByCode(this.db, principal.scope, warehouseId, customerId, code.trim());
    if (!order) throw unprocessable(`No order ${code.trim()} of this client here`, { orderNumber: 'Order not found for this client' });
    return order.id;
  }

  private async scoped(principal: Principal, rmaId: number) {
    const row = await repo.findRma(this.db, principal.scope, rmaId);
    if (!row) throw notFound('RMA');
    return row;
  }

  private async scopedItem(principal: Principal, itemId: number) {
    const item = await repo.findItem(this.db, principal.scope, itemId);
    if (!item) throw notFound('Returned item');
    return item;
  }

  /** A returns location of the warehouse, active (422 naming the field otherwise). */
  private async receivingLocation(uow: UnitOfWork, warehouseId: number, locationId: number) {
    const l = await repo.location(uow.tx, locationId);
    if (!l) throw unprocessable('Location not found', { locationId: 'Location not found' });
    if (l.warehouse_id !== warehouseId) throw unprocessable(`Location ${l.code} is in another warehouse`, { locationId: 'A location of this warehouse' });
    if (n(l.is_active) !== 1) throw unprocessable(`Location ${l.code} is inactive`, { locationId: 'An active location' });
    if (!RECEIVING_TYPES.includes(l.type)) throw unprocessable(`Returns are received into a returns location; ${l.code} is a ${l.type} location`, { locationId: 'Choose a returns location' });
    return l;
  }

  /** Where a disposition sends the units: restock to storage, quarantine to quarantine, refurbish to a work location; all in the item's warehouse. */
  private async dispositionLocation(uow: UnitOfWork, item: ItemRow, disposition: string, locationId: number) {
    const l = await repo.location(uow.tx, locationId);
    if (!l) throw unprocessable('Location not found', { locationId: 'Location not found' });
    if (l.warehouse_id !== item.warehouse_id) throw unprocessable(`Location ${l.code} is in another warehouse`, { locationId: 'A location of this warehouse' });
    if (n(l.is_active) !== 1) throw unprocessable(`Location ${l.code} is inactive`, { locationId: 'An active location' });
    if (disposition === 'restock' && l.category !== 'storage') throw unprocessable(`Restock goes to a storage location; ${l.code} is a ${l.type} location`, { locationId: 'Choose a storage location' });
    if (disposition === 'quarantine' && l.type !== 'quarantine') throw unprocessable(`Quarantine goes to a quarantine location; ${l.code} is a ${l.type} location`, { locationId: 'Choose a quarantine location' });
    if (disposition === 'refurbish' && (l.category === 'storage' || WORK_TYPES_EXCLUDED.includes(l.type))) {
      throw unprocessable(`Refurbish goes to a work location (staging or quarantine); ${l.code} is a ${l.type} location`, { locationId: 'Choose a work location' });
    }
    return l;
  }

  /** The client's shipped order (in the caller's scope) and its line of the SKU, for a parcel received without an RMA. */
  private async orderLineFor(uow: UnitOfWork, principal: Principal, orderId: number, customerId: number, warehouseId: number, skuId: number, skuCode: string) {
    const order = await repo.order(uow.tx, principal.scope, orderId);
    if (!order || order.customer_id !== customerId || order.warehouse_id !== warehouseId) throw unprocessable('Order not found for this client', { orderId: 'Not an order of this client here' });
    if (order.status !== 'Shipped') throw unprocessable(`Order ${order.so_number} is ${order.status}; only shipped orders take returns`, { orderId: 'Not shipped' });
    const line = (await repo.returnableLines(uow.tx, order.id)).find((l) => l.sku_id === skuId && n(l.shipped_qty) > 0);
    if (!line) throw unprocessable(`Order ${order.so_number} shipped no ${skuCode}`, { orderId: `No ${skuCode} on this order` });
    return { orderId: order.id, orderLineId: line.id };
  }

  /**
   * Locks the order (its Shipped row) and checks that what its line now counts as returned stays within what it
   * shipped: the bound over every RMA and parcel, which even a manager's approval does not pass.
   */
  private async assertWithinShipped(uow: UnitOfWork, orderId: number, orderLineId: number, skuCode: string) {
    await this.statuses.hold(uow, { kind: 'SALES_ORDER', id: orderId, in: ['Shipped'] });
    const line = (await repo.returnableLines(uow.tx, orderId)).find((l) => l.id === orderLineId)!;
    if (n(line.counted) > n(line.shipped_qty)) {
      throw unprocessable(`${skuCode}: only ${count(n(line.shipped_qty), 'unit')} shipped on this order line; returns cannot exceed it`, { quantity: `More than shipped` });
    }
  }

  private floorEvent(kind: FloorEvent['kind'], owner: { warehouse_id: number; customer_id: number; order_id: number | null }, rmaId: number | null,
    e: { itemId: number; skuId: number; locationId: number; quantity: number; orderLineId?: number | null; detail: string }): FloorEvent {
    return {
      kind, warehouseId: owner.warehouse_id, customerId: owner.customer_id, orderId: owner.order_id, orderLineId: e.orderLineId ?? null, skuId: e.skuId,
      locationId: e.locationId, quantity: e.quantity, docType: rmaId ? 'RMA' : 'RETURN', docId: rmaId ?? e.itemId, detail: e.detail,
    };
  }

  private change(action: string, subEvent: SubEvent, row: RmaRow, after: Record<string, unknown>, itemId?: number): Change {
    return {
      audit: { action, entity: 'rma', entityId: row.id, warehouseId: row.warehouse_id, customerId: row.customer_id, after: { rmaNumber: row.rma_number, status: row.status, ...after } },
      events: { target: 'ReceiveRmaData', payload: { subEvent, payload: { rmaId: row.id, ...(itemId ? { itemId } : {}), status: row.status } }, warehouseId: row.warehouse_id, customerId: row.customer_id },
    };
  }

  private itemChange(action: string, subEvent: SubEvent, item: ItemRow, after: Record<string, unknown>): Change {
    return {
      audit: { action, entity: 'return_item', entityId: item.id, warehouseId: item.warehouse_id, customerId: item.customer_id, after: { returnNumber: returnNumber(item), ...after } },
      events: { target: 'ReceiveRmaData', payload: { subEvent, payload: { rmaId: item.rma_id, itemId: item.id } }, warehouseId: item.warehouse_id, customerId: item.customer_id },
    };
  }
}

export const EXPIRE_RMAS_JOB = 'returns.expire-rmas';

/** RMAs past their last day expire every hour (each warehouse's own day decides), as a scheduled job. */
export function registerRmaExpiry(jobs: Jobs, schedules: Schedules, returns: ReturnService): void {
  jobs.register(EXPIRE_RMAS_JOB, {
    payload: z.object({ slot: z.string() }),
    maxAttempts: 3,
    run: (payload) => returns.expireDue(new Date(payload.slot)),
  });
  schedules.register({ name: EXPIRE_RMAS_JOB, cron: '5 * * * *', timeZone: 'UTC', job: EXPIRE_RMAS_JOB, payload: (slot) => ({ slot }) });
}
