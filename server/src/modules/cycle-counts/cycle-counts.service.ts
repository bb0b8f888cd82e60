import {
  APPROVER_ROLES, COUNT_OVERRIDE_REASON_MESSAGE, CYCLE_COUNT_STATUSES, type ApproveCycleCountRequest, type FilterLabel, type Role,
} from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { CycleCountStatus } from '../../db/tables/inventory-operations.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { domainEvent, type RaisedEvent } from '../../platform/domain-events.js';
import { badRequest, conflict, forbidden, notFound, unprocessable } from '../../platform/errors.js';
import type { ListRequest } from '../../platform/list.js';
import { toXlsx } from '../../platform/excel.js';
import { count as countOf, signedCount } from '../../platform/plural.js';
import type { Principal } from '../../platform/principal.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import { FloorEvents } from '../../platform/floor-events.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import { documentNumbers } from '../../platform/document-numbers.js';
import type { Leg, StockEngine } from '../../platform/stock/stock-engine.js';
import { cycleCountRepository as repo, type CountSelection, type CycleCountFilter } from './cycle-counts.repository.js';
import { cycleCountListColumns } from './cycle-counts.repository.js';

const changedMeanwhile = () => 'The count changed meanwhile; reload it';

/** A count larger than this is refused: narrow the selection. */
export const MAX_COUNT_LINES = 5000;

type CreateInput = CountSelection & { countType: string; isBlind: boolean; countDate: string; note?: string };

/** Whoever entered a count or recount of a line: they never approve its count (the counter can make any number match). */
const countedBy = (line: { counted_by: number | null; recounted_by: number | null }, userId: number) =>
  line.counted_by === userId || line.recounted_by === userId;
/**
 * The one exception: a Super Administrator may approve a count they counted (a site with one administrator could
 * never approve otherwise), giving a reason that the audit log and the count's history keep.
 */
const mayOverrideOwnCount = (role: Role) => role === 'SuperAdministrator';
const placeKey = (p: { sku_id: number; location_id: number; lot: string; pallet: string }) => `${p.sku_id}|${p.location_id}|${p.lot}|${p.pallet}`;

/**
 * Cycle counts: a snapshot of a client's stock (by location range, SKU or ABC class) whose locations are held
 * while it is open; counts (blind unless chosen otherwise), a recount of every line with a variance, and an
 * approval that posts each line's difference through the ledger with the count as the document.
 */
export class CycleCountService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly statuses: StatusMachine;
  /** The activity log: each line counted is labour (productivity, labour time per task type). */
  private readonly floor: FloorEvents;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder' | 'timeZones'>, private readonly stock: StockEngine) {
    this.floor = new FloorEvents(deps.timeZones);
    this.statuses = new StatusMachine(deps);
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
  }

  filterLabels(): FilterLabel[] {
    return [{ key: 'status', label: 'Status', type: 'select', options: CYCLE_COUNT_STATUSES.map((s) => ({ label: s, value: s })) }];
  }

  async create(principal: Principal, input: CreateInput, actor: Actor) {
    principal.scope.assert({ warehouseId: input.warehouseId, customerId: input.customerId });
    if (input.selection === 'sku') await this.stock.references({ warehouseId: input.warehouseId, customerId: input.customerId, skuId: input.skuId!, locationIds: [] });
    const created = await inTransaction(this.db, async (uow) => {
      const stock = await repo.snapshot(uow.tx, this.dialect, input, MAX_COUNT_LINES + 1);
      if (stock.length === 0) throw unprocessable('Nothing to count', 'None of this client’s stock matches the selection');
      if (stock.length > MAX_COUNT_LINES) throw unprocessable('Too many places to count at once', `Narrow the selection to at most ${MAX_COUNT_LINES} places`);
      const locationIds = [...new Set(stock.map((b) => b.location_id))];
      // Checked after the snapshot has locked the rows, so two counts of the same stock cannot both be made.
      const ours = new Set(stock.map(placeKey));
      const overlap = (await repo.openLinesAt(uow.tx, input.customerId, locationIds)).find((l) => ours.has(placeKey(l)));
      if (overlap) throw conflict(`Some of this stock is already in open cycle count ${overlap.count_no}`);
      const now = new Date().toISOString();
      const countNo = (await documentNumbers.next(uow, 'CC')).number;
      const id = await repo.insertCount(uow.tx, {
        count_no: countNo, warehouse_id: input.warehouseId, customer_id: input.customerId,
        count_type: input.countType, selection: input.selection, location_from: input.selection === 'location' ? input.locationFrom!.toUpperCase() : null,
        location_to: input.selection === 'location' ? input.locationTo!.toUpperCase() : null, sku_id: input.selection === 'sku' ? input.skuId! : null,
        abc_class: input.selection === 'abc' ? input.abcClass! : null, is_blind: input.isBlind ? 1 : 0, status: 'Open',
        count_date: input.countDate, note: input.note ?? null, created_by: actor.userId, created_at: now, updated_at: now,
      });
      await repo.insertLines(uow.tx, stock.map((b) => ({
        cycle_count_id: id, warehouse_id: b.warehouse_id, customer_id: b.customer_id, sku_id: b.sku_id, location_id: b.location_id,
        lot: b.lot, pallet: b.pallet, expiry_date: b.expiry_date, expected_qty: b.on_hand,
      })));
      await this.stock.hold(uow, 'CYCLE_COUNT', countNo, input.warehouseId, { locationIds, customerId: input.customerId }, actor);
      await this.record(uow, actor, 'create', id, input, 'AddCycleCount', 'Open', { countNo, lines: stock.length, locations: locationIds.length });
      return { id, countNo, lines: stock.length };
    });
    return { message: `Cycle count ${created.countNo} created with ${countOf(created.lines, 'line')}`, data: await this.detail(principal, created.id) };
  }

  /**
   * A spot count of one location's stock of a client, in the caller's transaction (a short pick asks for one where
   * the units were not found). One count per location: a count already open there is answered, not a second made.
   * Answers null when the client has nothing on hand there (nothing to count). The location is held while it is open.
   */
  async spotCount(uow: UnitOfWork, actor: Actor, input: { warehouseId: number; customerId: number; locationId: number; countDate: string; note: string }) {
    const location = await repo.locationCode(uow.tx, input.locationId);
    const selection: CountSelection = { warehouseId: input.warehouseId, customerId: input.customerId, selection: 'location', locationFrom: location, locationTo: location };
    const stock = await repo.snapshot(uow.tx, this.dialect, selection, MAX_COUNT_LINES + 1);
    // Checked after the snapshot has locked the rows, so two short picks at one bin cannot both make a count.
    const open = await repo.openLinesAt(uow.tx, input.customerId, [input.locationId]);
    if (open.length) return { countNo: open[0].count_no, created: false };
    if (stock.length === 0) return null;
    const now = new Date().toISOString();
    const countNo = (await documentNumbers.next(uow, 'CC')).number;
    const id = await repo.insertCount(uow.tx, {
      count_no: countNo, warehouse_id: input.warehouseId, customer_id: input.customerId, count_type: 'spot', selection: 'location',
      location_from: location, location_to: location, sku_id: null, abc_class: null, is_blind: 1, status: 'Open',
      count_date: input.countDate, note: input.note, created_by: actor.userId, created_at: now, updated_at: now,
    });
    await repo.insertLines(uow.tx, stock.map((b) => ({
      cycle_count_id: id, warehouse_id: b.warehouse_id, customer_id: b.customer_id, sku_id: b.sku_id, location_id: b.location_id,
      lot: b.lot, pallet: b.pallet, expiry_date: b.expiry_date, expected_qty: b.on_hand,
    })));
    await this.stock.hold(uow, 'CYCLE_COUNT', countNo, input.warehouseId, { locationIds: [input.locationId], customerId: input.customerId }, actor);
    await this.record(uow, actor, 'create', id, input, 'AddCycleCount', 'Open', { countNo, lines: stock.length, locations: 1, spot: true });
    return { countNo, created: true };
  }

  private async load(principal: Principal, id: number) {
    const count = await repo.findById(this.db, id);
    if (!count) throw notFound('Cycle count');
    principal.scope.assert({ warehouseId: count.warehouse_id, customerId: count.customer_id });
    return count;
  }

  /** The count and its lines; a blind count hides expected quantities from everyone but approvers until approved. */
  async detail(principal: Principal, id: number) {
    const count = await this.load(principal, id);
    const [row] = await this.select(repo.filtered(this.db, principal.scope, {}).where('cc.id', '=', id)).execute();
    const hide = count.is_blind === 1 && count.status !== 'Approved' && !APPROVER_ROLES.includes(principal.role);
    const rows = await repo.lines(this.db, id);
    const lines = rows.map((l) => {
      const finalQty = l.recount_qty ?? l.counted_qty;
      return {
        lineId: l.id, skuId: l.sku_id, skuCode: l.sku_code, skuDescription: l.sku_description, locationId: l.location_id,
        locationCode: l.location_code, lot: l.lot, pallet: l.pallet, expiryDate: l.expiry_date,
        expectedQty: hide ? null : l.expected_qty, countedQty: l.counted_qty, needsRecount: l.needs_recount === 1, recountQty: l.recount_qty,
        finalQty, variance: hide || finalQty == null ? null : finalQty - l.expected_qty,
      };
    });
    const countedByYou = rows.some((l) => countedBy(l, principal.userId));
    const history = (await repo.history(this.db, id)).map((h) => {
      const after = h.after_json ? (JSON.parse(h.after_json) as { status?: string; overrideReason?: string }) : {};
      return { at: h.at, action: h.action, by: h.username, status: after.status ?? null, overrideReason: after.overrideReason ?? null };
    });
    return { count: toCount(row as CountRow), lines, countedByYou, mayOverride: countedByYou && mayOverrideOwnCount(principal.role), history };
  }

  /** The count sheet for counters: every place to count, with a blank to write in (no expected column when blind). */
  async countSheet(principal: Principal, id: number) {
    const { count, lines } = await this.detail(principal, id);
    const blind = lines.some((l) => l.expectedQty === null);
    type Line = (typeof lines)[number];
    return { countNo: count.countNo, workbook: await toXlsx(count.countNo, [
      { header: 'Line', value: (l: Line) => l.lineId }, { header: 'Location', value: (l: Line) => l.locationCode },
      { header: 'SKU', value: (l: Line) => l.skuCode }, { header: 'Description', value: (l: Line) => l.skuDescription, width: 30 },
      { header: 'Lot', value: (l: Line) => l.lot }, { header: 'Expiry', value: (l: Line) => l.expiryDate }, { header: 'Pallet', value: (l: Line) => l.pallet },
      ...(blind ? [] : [{ header: 'Expected', value: (l: Line) => l.expectedQty }]),
      { header: 'Counted', value: (l: Line) => l.recountQty ?? l.countedQty },
    ], lines) };
  }

  /**
   * Enters counts. While open, every line may be counted (and counted again); once all are, lines whose count
   * differs from the expected quantity go to a recount, and the count is ready for approval when none remain.
   */
  async enterCounts(principal: Principal, input: { cycleCountId: number; counts: { lineId: number; quantity: number }[] }, actor: Actor) {
    const count = await this.load(principal, input.cycleCountId);
    if (count.status !== 'Open' && count.status !== 'Recount') throw conflict(`Cycle count ${count.count_no} is ${count.status.toLowerCase()}: no counts can be entered`);
    const ids = new Set(input.counts.map((c) => c.lineId));
    if (ids.size !== input.counts.length) throw badRequest('Each line may be counted once per entry', { counts: 'A line appears twice' });
    const lines = new Map((await repo.lines(this.db, count.id)).map((l) => [l.id, l]));
    for (const c of input.counts) {
      const line = lines.get(c.lineId);
      if (!line) throw badRequest('A line is not part of this count', { counts: `Line ${c.lineId} is not in ${count.count_no}` });
      if (count.status === 'Recount' && line.needs_recount !== 1) {
        throw badRequest('Only lines with a variance are recounted', { counts: `${line.location_code} ${line.sku_code} needs no recount` });
      }
    }
    const status = await inTransaction(this.db, async (uow) => {
      // Claims the phase: a count approved, cancelled or moved on meanwhile refuses the entry.
      const phase = count.status as 'Open' | 'Recount';
      await this.statuses.hold(uow, { kind: 'CYCLE_COUNT', id: count.id, in: [phase], set: { updated_at: new Date().toISOString() }, refusal: changedMeanwhile });
      const at = new Date().toISOString();
      for (const c of input.counts) {
        if (phase === 'Open') await repo.enterCount(uow.tx, c.lineId, c.quantity, principal.userId, at);
        else await repo.enterRecount(uow.tx, c.lineId, c.quantity, principal.userId, at);
      }
      await this.floor.record(uow, actor, input.counts.map((c) => {
        const line = lines.get(c.lineId)!;
        return {
          kind: 'count' as const, warehouseId: line.warehouse_id, customerId: line.customer_id, skuId: line.sku_id, locationId: line.location_id,
          quantity: c.quantity, docType: 'CYCLE_COUNT', docId: count.id, detail: phase === 'Open' ? 'count' : 'recount',
        };
      }), new Date(at));
      let next: CycleCountStatus = phase;
      const left = await repo.outstanding(uow.tx, count.id);
      if (phase === 'Open' && left.uncounted === 0) next = (await repo.flagVariances(uow.tx, count.id)) > 0 ? 'Recount' : 'Counted';
      else if (phase === 'Recount' && left.unrecounted === 0) next = 'Counted';
      if (next !== phase) await this.statuses.transition(uow, actor, { kind: 'CYCLE_COUNT', id: count.id, to: next, from: [phase], set: { updated_at: at } });
      await this.record(uow, actor, phase === 'Open' ? 'count' : 'recount', count.id, this.target(count), 'UpdateCycleCount', next, { lines: input.counts.length });
      return next;
    });
    const message = status === 'Recount' ? 'Counts saved: lines with a variance need a recount'
      : status === 'Counted' ? 'Counts saved: the count is ready for approval' : 'Counts saved';
    return { message, data: await this.detail(principal, count.id) };
  }

  /**
   * Posts every line's difference (final count − expected) through the ledger, with the count as the document.
   * Approving posts stock like an adjustment, so — as for adjustments — nobody approves their own work: whoever
   * entered a count or recount of it (managers see expected quantities even on blind counts) cannot approve it.
   */
  async approve(principal: Principal, input: ApproveCycleCountRequest, actor: Actor) {
    const count = await this.load(principal, input.cycleCountId);
    if (count.status !== 'Counted') {
      throw conflict(count.status === 'Open' || count.status === 'Recount'
        ? `Cycle count ${count.count_no} still has lines to count or recount` : `Cycle count ${count.count_no} is ${count.status.toLowerCase()}`);
    }
    const lines = await repo.lines(this.db, count.id);
    // Counts entered after this read move the count out of 'Counted', which the approval's claim below refuses.
    const ownCount = lines.some((l) => countedBy(l, principal.userId));
    if (ownCount && !mayOverrideOwnCount(principal.role)) {
      throw forbidden(`You counted lines of cycle count ${count.count_no}; another manager must approve it`);
    }
    const overrideReason = input.overrideReason;
    if (ownCount && !overrideReason) throw badRequest(COUNT_OVERRIDE_REASON_MESSAGE, { overrideReason: COUNT_OVERRIDE_REASON_MESSAGE });
    // A reason where no rule is overridden would read in the history as an override that never was.
    if (!ownCount && overrideReason) {
      throw badRequest('No override is needed: you did not count this count', { overrideReason: 'Only a count you counted needs an override reason' });
    }
    const posted = await inTransaction(this.db, async (uow) => {
      const at = new Date().toISOString();
      await this.statuses.transition(uow, actor, {
        kind: 'CYCLE_COUNT', id: count.id, to: 'Approved', reason: overrideReason ?? null, refusal: changedMeanwhile,
        set: { approved_by: principal.userId, approved_at: at, document_id: count.count_no, updated_at: at },
      });
      // Released first: the count's own corrections must not be held by it.
      await this.stock.lift(uow, 'CYCLE_COUNT', count.count_no);
      const legs: Leg[] = lines.flatMap((l) => {
        const diff = (l.recount_qty ?? l.counted_qty ?? l.expected_qty) - l.expected_qty;
        if (diff === 0) return [];
        return [{
          place: { warehouseId: l.warehouse_id, customerId: l.customer_id, skuId: l.sku_id, locationId: l.location_id, lot: l.lot, pallet: l.pallet },
          qty: diff, txnType: 'count' as const, expiryDate: l.expiry_date, documentLine: String(l.id),
        }];
      });
      const result = legs.length
        ? await this.stock.post(uow, {
          documentType: 'CYCLE_COUNT', documentId: count.count_no, reason: `Cycle count ${count.count_no}`, legs, quantityField: 'counts',
          record: { kind: 'CycleCount', skuId: 0, after: { countNo: count.count_no, variances: legs.map((l) => ({ ...l.place, qty: l.qty })) } },
        }, actor)
        : { document: count.count_no, entries: [] };
      await this.record(uow, actor, 'approve', count.id, this.target(count), 'UpdateCycleCount', 'Approved',
        { document: count.count_no, lines: legs.length, ...(overrideReason ? { overrideReason } : {}) },
        [domainEvent('cycle-count.approved', { cycleCountId: count.id, countNo: count.count_no, ...this.target(count), document: legs.length ? result.document : null, varianceLines: legs.length })]);
      return result;
    });
    const units = posted.entries.reduce((n, e) => n + e.qtyChange, 0);
    const approved = `Cycle count ${count.count_no} approved${overrideReason ? ' by override' : ''}`;
    return {
      message: posted.entries.length ? `${approved}: ${countOf(posted.entries.length, 'difference')} posted (${signedCount(units, 'unit')})`
        : `${approved}: no differences`,
      data: posted,
    };
  }

  async cancel(principal: Principal, input: { cycleCountId: number }, actor: Actor) {
    const count = await this.load(principal, input.cycleCountId);
    await inTransaction(this.db, async (uow) => {
      await this.statuses.transition(uow, actor, {
        kind: 'CYCLE_COUNT', id: count.id, to: 'Cancelled', set: { updated_at: new Date().toISOString() },
        refusal: (current) => `Cycle count ${count.count_no} is ${current.toLowerCase()}: it cannot be cancelled`,
      });
      await this.stock.lift(uow, 'CYCLE_COUNT', count.count_no);
      await this.record(uow, actor, 'cancel', count.id, this.target(count), 'UpdateCycleCount', 'Cancelled', {});
    });
    return { message: `Cycle count ${count.count_no} cancelled`, data: { cycleCountId: count.id } };
  }

  private target = (c: { warehouse_id: number; customer_id: number }) => ({ warehouseId: c.warehouse_id, customerId: c.customer_id });

  private async record(uow: UnitOfWork, actor: Actor, action: string, id: number, t: { warehouseId: number; customerId: number }, subEvent: 'AddCycleCount' | 'UpdateCycleCount', status: string, after: object,
    raises: RaisedEvent[] = []) {
    await this.recorder.record(uow, actor, {
      audit: { action, entity: 'cycle_count', entityId: id, warehouseId: t.warehouseId, customerId: t.customerId, after: { status, ...after } },
      events: { target: 'ReceiveCycleCountData', payload: { subEvent, payload: { cycleCountId: id, status } }, warehouseId: t.warehouseId, customerId: t.customerId },
      raises,
    });
  }

  private select = cycleCountListColumns;

  async list(principal: Principal, req: ListRequest<CycleCountFilter>) {
    const page = await repo.list(this.db, this.dialect, principal.scope, req);
    return { totalCount: page.total, items: (page.rows as CountRow[]).map(toCount) };
  }

  async download(principal: Principal, req: Pick<ListRequest<CycleCountFilter>, 'filters' | 'searchQuery' | 'sort'>) {
    const rows = ((await repo.listAll(this.db, this.dialect, principal.scope, req)) as CountRow[]).map(toCount);
    return toXlsx('Cycle Counts', [
      { header: 'Count No', value: (r) => r.countNo }, { header: 'Client', value: (r) => r.customerName, width: 24 },
      { header: 'Type', value: (r) => r.countType }, { header: 'Selection', value: (r) => r.selection },
      { header: 'From', value: (r) => r.locationFrom }, { header: 'To', value: (r) => r.locationTo }, { header: 'ABC', value: (r) => r.abcClass },
      { header: 'Blind', value: (r) => (r.isBlind ? 'Yes' : 'No') }, { header: 'Count Date', value: (r) => r.countDate },
      { header: 'Status', value: (r) => r.status }, { header: 'Lines', value: (r) => r.lineCount }, { header: 'Counted', value: (r) => r.countedLines },
      { header: 'Recounts', value: (r) => r.recountLines }, { header: 'Created By', value: (r) => r.createdBy }, { header: 'Approved By', value: (r) => r.approvedBy },
    ], rows);
  }
}

type CountRow = {
  id: number; count_no: string; warehouse_id: number; warehouse_name: string; customer_id: number; customer_name: string; count_type: string;
  selection: string; location_from: string | null; location_to: string | null; sku_id: number | null; abc_class: string | null; is_blind: number;
  status: CycleCountStatus; count_date: string; note: string | null; created_by_name: string | null; created_at: string;
  approved_by_name: string | null; approved_at: string | null; document_id: string | null; line_count: number; counted_lines: number; recount_lines: number;
};
const toCount = (r: CountRow) => ({
  cycleCountId: r.id, countNo: r.count_no, warehouseId: r.warehouse_id, warehouseName: r.warehouse_name, customerId: r.customer_id,
  customerName: r.customer_name, countType: r.count_type, selection: r.selection, locationFrom: r.location_from, locationTo: r.location_to,
  skuId: r.sku_id, abcClass: r.abc_class, isBlind: r.is_blind === 1, status: r.status, countDate: r.count_date, note: r.note,
  lineCount: Number(r.line_count), countedLines: Number(r.counted_lines), recountLines: Number(r.recount_lines),
  createdBy: r.created_by_name, createdAt: r.created_at, approvedBy: r.approved_by_name, approvedAt: r.approved_at, document: r.document_id,
});
