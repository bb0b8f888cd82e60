import { ADJUSTMENT_REASON_LABELS, ADJUSTMENT_REASONS, ADJUSTMENT_STATUSES, type FilterLabel, type HubEventMap } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { AdjustmentRequestTable, AdjustmentStatus } from '../../db/tables/inventory-operations.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { domainEvent, type RaisedEvent } from '../../platform/domain-events.js';
import { conflict, forbidden, notFound, unprocessable } from '../../platform/errors.js';
import type { ListRequest } from '../../platform/list.js';
import { toXlsx } from '../../platform/excel.js';
import type { Principal } from '../../platform/principal.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import { FloorEvents } from '../../platform/floor-events.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import { documentNumbers } from '../../platform/document-numbers.js';
import type { Selectable } from 'kysely';
import type { AdjustmentInput } from '../inventory/inventory.service.js';
import { pick, type Place, type StockEngine } from '../../platform/stock/stock-engine.js';
import { count, signedCount } from '../../platform/plural.js';
import { adjustmentRepository as repo, type AdjustmentFilter } from './adjustments.repository.js';

type Row = {
  id: number; warehouse_id: number; warehouse_name: string; customer_id: number; customer_name: string; sku_id: number; sku_code: string;
  location_id: number; location_code: string; lot: string; pallet: string; expiry_date: string | null; quantity_change: number;
  reason_code: string; note: string | null; status: AdjustmentStatus; requested_by_name: string | null;
  requested_at: string; decided_by_name: string | null; decided_at: string | null; decision_note: string | null; document_id: string | null;
};
const toRow = (r: Row) => ({
  adjustmentId: r.id, warehouseId: r.warehouse_id, warehouseName: r.warehouse_name, customerId: r.customer_id, customerName: r.customer_name,
  skuId: r.sku_id, skuCode: r.sku_code, locationId: r.location_id, locationCode: r.location_code, lot: r.lot, pallet: r.pallet,
  expiryDate: r.expiry_date, quantityChange: r.quantity_change, reasonCode: r.reason_code, note: r.note, status: r.status,
  requestedBy: r.requested_by_name, requestedAt: r.requested_at, decidedBy: r.decided_by_name, decidedAt: r.decided_at,
  decisionNote: r.decision_note, document: r.document_id,
});

const placeOf = (r: Selectable<AdjustmentRequestTable>): Place => ({
  warehouseId: r.warehouse_id, customerId: r.customer_id, skuId: r.sku_id, locationId: r.location_id, lot: r.lot, pallet: r.pallet,
});

/** The domain event of an adjustment that reached the ledger. */
const adjustmentPosted = (adjustmentId: number, document: string, place: Place, quantityChange: number, reasonCode: string) => domainEvent('adjustment.posted', {
  adjustmentId, document, warehouseId: place.warehouseId, customerId: place.customerId, skuId: place.skuId, locationId: place.locationId, quantityChange, reasonCode,
});

const decidedMeanwhile = () => 'This adjustment was decided by someone else meanwhile';

/**
 * Adjustments with reason codes. One of more units than the customer's approval threshold is held as a
 * pending request and posted to the ledger only when a manager approves it.
 */
export class AdjustmentService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly statuses: StatusMachine;
  /** The activity log: an adjustment posted is labour (productivity, labour time per task type). */
  private readonly floor: FloorEvents;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder' | 'timeZones'>, private readonly stock: StockEngine) {
    this.floor = new FloorEvents(deps.timeZones);
    this.statuses = new StatusMachine(deps);
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
  }

  /**
   * The SKU is the client's, the location the warehouse's and active, the warehouse serves the client — and all in
   * scope. Stock added carries a lot or an expiry only when its SKU tracks them: one on an untracked SKU would split
   * its stock into places nothing else knows of (taking away from such stock, left by older versions, stays possible).
   */
  private async assertReferences(principal: Principal, place: Place, input?: AdjustmentInput) {
    principal.scope.assert({ warehouseId: place.warehouseId, customerId: place.customerId });
    const { sku } = await this.stock.references({ warehouseId: place.warehouseId, customerId: place.customerId, skuId: place.skuId, locationIds: [place.locationId] });
    if (!sku || !input || input.quantityChange <= 0) return;
    if (place.lot && !sku.isLotTracked) throw unprocessable(`SKU ${sku.code} does not track lots: leave the lot empty`, { lot: 'This SKU does not track lots' });
    if (input.expiryDate && !sku.isExpiryTracked) {
      throw unprocessable(`SKU ${sku.code} does not track expiry dates: leave the expiry date empty`, { expiryDate: 'This SKU does not track expiry dates' });
    }
  }

  /** Posts an adjustment through the stock engine (which writes its ledger row, audit row and event). */
  private async postAdjustment(uow: UnitOfWork, place: Place, input: AdjustmentInput, actor: Actor, documentId: string, adjustmentId: number) {
    await this.floor.record(uow, actor, [{
      kind: 'adjust', warehouseId: place.warehouseId, customerId: place.customerId, skuId: place.skuId, locationId: place.locationId,
      quantity: input.quantityChange, docType: 'ADJUSTMENT', docId: adjustmentId, detail: input.reasonCode,
    }]);
    return this.stock.post(uow, {
      documentType: 'ADJUSTMENT', documentId, reason: [input.reasonCode, input.note].filter(Boolean).join(': '),
      legs: [{ place, qty: input.quantityChange, txnType: 'adjust', expiryDate: input.expiryDate ?? null }], quantityField: 'quantityChange',
      record: { kind: 'Adjust', after: { place, quantityChange: input.quantityChange, reasonCode: input.reasonCode } },
    }, actor);
  }

  filterLabels(): FilterLabel[] {
    return [{ key: 'status', label: 'Status', type: 'select', options: ADJUSTMENT_STATUSES.map((s) => ({ label: s, value: s })) }];
  }

  reasonCodes() {
    return ADJUSTMENT_REASONS.map((code) => ({ code, name: ADJUSTMENT_REASON_LABELS[code] }));
  }

  /**
   * Every adjustment is kept as a row: within the customer's threshold it is posted at once ('Posted'), above it
   * held 'Pending' for a manager. A posted one gets the next ADJ number, its ledger document.
   */
  async create(principal: Principal, input: Place & AdjustmentInput, actor: Actor) {
    const place = pick(input);
    await this.assertReferences(principal, place, input);
    const threshold = await repo.threshold(this.db, place.customerId);
    const immediate = threshold == null || Math.abs(input.quantityChange) <= threshold;
    const result = await inTransaction(this.db, async (uow) => {
      const documentId = immediate ? (await documentNumbers.next(uow, 'ADJ')).number : null;
      const id = await repo.insert(uow.tx, {
        warehouse_id: place.warehouseId, customer_id: place.customerId, sku_id: place.skuId, location_id: place.locationId,
        lot: place.lot, pallet: place.pallet, expiry_date: input.expiryDate ?? null, quantity_change: input.quantityChange,
        reason_code: input.reasonCode, note: input.note ?? null, status: immediate ? 'Posted' : 'Pending', requested_by: actor.userId,
        requested_at: new Date().toISOString(), document_id: documentId,
      });
      if (!immediate) {
        await this.record(uow, actor, 'request', id, place, 'AdjustmentRequested', 'Pending', { ...input, threshold });
        return { status: 'Pending' as const, adjustmentId: id, document: null, entries: [] };
      }
      const posted = await this.postAdjustment(uow, place, input, actor, documentId!, id);
      await this.record(uow, actor, 'post', id, place, 'AdjustmentPosted', 'Posted', { ...input, document: documentId },
        [adjustmentPosted(id, documentId!, place, input.quantityChange, input.reasonCode)]);
      return { status: 'Posted' as const, adjustmentId: id, document: posted.document, entries: posted.entries };
    });
    return {
      message: immediate
        ? `Adjusted by ${signedCount(input.quantityChange, 'unit')}`
        : `Adjustments of more than ${count(threshold, 'unit')} need a manager's approval: the request is pending`,
      data: result,
    };
  }

  /** A request this principal may decide: in scope, still pending, and not their own (four eyes on every held change). */
  private async pending(principal: Principal, id: number, action: 'approve' | 'reject') {
    const req = await repo.findById(this.db, id);
    if (!req) throw notFound('Adjustment');
    principal.scope.assert({ warehouseId: req.warehouse_id, customerId: req.customer_id });
    if (req.status !== 'Pending') throw conflict(`This adjustment is already ${req.status.toLowerCase()}`);
    if (req.requested_by === principal.userId) throw forbidden(`You cannot ${action} your own adjustment request; another manager must decide it`);
    return req;
  }

  /** Posts a pending adjustment. Short stock refuses it (422) and it stays pending; two approvers cannot both post it. */
  async approve(principal: Principal, input: { adjustmentId: number; note?: string }, actor: Actor) {
    const req = await this.pending(principal, input.adjustmentId, 'approve');
    const place = placeOf(req);
    await this.assertReferences(principal, place);
    const posted = await inTransaction(this.db, async (uow) => {
      // Posting makes it a ledger document: it takes its ADJ number now (a refused approval gives the number back).
      const documentId = (await documentNumbers.next(uow, 'ADJ')).number;
      await this.statuses.transition(uow, actor, {
        kind: 'ADJUSTMENT', id: req.id, to: 'Approved', reason: input.note ?? null, refusal: decidedMeanwhile,
        set: { decided_by: principal.userId, decided_at: new Date().toISOString(), decision_note: input.note ?? null, document_id: documentId },
      });
      const result = await this.postAdjustment(uow, place, {
        quantityChange: req.quantity_change, reasonCode: req.reason_code, expiryDate: req.expiry_date ?? undefined, note: req.note ?? undefined,
      }, actor, documentId, req.id);
      await this.record(uow, actor, 'approve', req.id, place, 'AdjustmentApproved', 'Approved', { document: documentId, note: input.note ?? null },
        [adjustmentPosted(req.id, documentId, place, req.quantity_change, req.reason_code)]);
      return result;
    });
    return { message: 'Adjustment approved and posted', data: { status: 'Posted' as const, adjustmentId: req.id, document: posted.document, entries: posted.entries } };
  }

  async reject(principal: Principal, input: { adjustmentId: number; note?: string }, actor: Actor) {
    const req = await this.pending(principal, input.adjustmentId, 'reject');
    await inTransaction(this.db, async (uow) => {
      await this.statuses.transition(uow, actor, {
        kind: 'ADJUSTMENT', id: req.id, to: 'Rejected', reason: input.note ?? null, refusal: decidedMeanwhile,
        set: { decided_by: principal.userId, decided_at: new Date().toISOString(), decision_note: input.note ?? null },
      });
      await this.record(uow, actor, 'reject', req.id, placeOf(req), 'AdjustmentRejected', 'Rejected', { note: input.note ?? null });
    });
    return { message: 'Adjustment rejected', data: { adjustmentId: req.id } };
  }

  private async record(uow: UnitOfWork, actor: Actor, action: string, id: number, place: Place, subEvent: HubEventMap['ReceiveAdjustmentData']['subEvent'], status: string, after: unknown,
    raises: RaisedEvent[] = []) {
    await this.recorder.record(uow, actor, {
      audit: { action, entity: 'adjustment_request', entityId: id, warehouseId: place.warehouseId, customerId: place.customerId, after: { status, ...(after as object) } },
      events: { target: 'ReceiveAdjustmentData', payload: { subEvent, payload: { adjustmentId: id, status } }, warehouseId: place.warehouseId, customerId: place.customerId },
      raises,
    });
  }

  async list(principal: Principal, req: ListRequest<AdjustmentFilter>) {
    const page = await repo.list(this.db, this.dialect, principal.scope, req);
    return { totalCount: page.total, items: (page.rows as Row[]).map(toRow) };
  }

  async download(principal: Principal, req: Pick<ListRequest<AdjustmentFilter>, 'filters' | 'searchQuery' | 'sort'>) {
    const rows = ((await repo.listAll(this.db, this.dialect, principal.scope, req)) as Row[]).map(toRow);
    return toXlsx('Adjustments', [
      { header: 'Requested At', value: (r) => r.requestedAt, width: 24 }, { header: 'Client', value: (r) => r.customerName, width: 24 },
      { header: 'SKU', value: (r) => r.skuCode }, { header: 'Location', value: (r) => r.locationCode }, { header: 'Lot', value: (r) => r.lot },
      { header: 'Pallet', value: (r) => r.pallet }, { header: 'Quantity', value: (r) => r.quantityChange }, { header: 'Reason', value: (r) => r.reasonCode },
      { header: 'Note', value: (r) => r.note, width: 30 }, { header: 'Status', value: (r) => r.status }, { header: 'Requested By', value: (r) => r.requestedBy },
      { header: 'Decided By', value: (r) => r.decidedBy }, { header: 'Decided At', value: (r) => r.decidedAt, width: 24 },
    ], rows);
  }
}
