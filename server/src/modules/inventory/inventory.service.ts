import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import { writeAudit, type AuditEntry } from '../../platform/audit.js';
import { INVENTORY_UPLOAD_COLUMNS, INVENTORY_UPLOAD_MAX_BYTES, uploadInventoryFields, type HubEventMap } from '@bolx/contracts';
import { toXlsx } from '../../platform/excel.js';
import { parseFields, type ReceivedUpload } from '../../platform/files.js';
import { parseDay, rowErrorDetails, rowErrorSummary, type RowError } from '../../platform/sheet.js';
import { readCountSheet, validateCountRows } from './import.js';
import { badRequest, conflict, notFound, unprocessable } from '../../platform/errors.js';
import { count, noun, signedCount } from '../../platform/plural.js';
import type { DomainEvent, EventBus } from '../../platform/events.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import type { ServiceDeps } from '../../services.js';
import { inventoryRepository as repo, type Place, type StockFilters } from './inventory.repository.js';
import { stockListRepository } from './stock-list.repository.js';

/** The balance key, for modules that post through this service. */
export type { Place };

/** One side of a stock movement: a signed quantity at a place, with its ledger type. */
export interface Leg {
  place: Place;
  qty: number;
  txnType: string;
  /** For stock arriving at a place: the lot's expiry (moves carry the source's along). */
  expiryDate?: string | null;
  /** For stock arriving at a place: when it was first received, for aging (moves carry the source's along). */
  receivedAt?: string | null;
}

export interface Movement {
  documentType: string;
  /** The document's id (a count, a task…); a fresh one when omitted. */
  documentId?: string;
  reason: string | null;
  legs: Leg[];
  /** The request field a short take is reported on (default `quantity`). */
  quantityField?: string;
}

export type StockChangeKind = HubEventMap['ReceiveInventoryData']['subEvent'];
export interface AdjustmentInput { quantityChange: number; reasonCode: string; expiryDate?: string; note?: string }

/**
 * The inventory engine. Every quantity change goes through `post`: each leg is one conditional statement on
 * its balance plus its ledger row, in the caller's transaction, so stock is never lost, doubled or negative
 * and the ledger always sums to the balances.
 */
export class InventoryService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly events: EventBus;
  constructor(deps: ServiceDeps) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.events = deps.events;
  }

  /**
   * Applies a movement inside an open transaction; throws 422 (rolling everything back) when stock is short.
   * Legs at one place are netted first (a receipt put away in the same document leaves its dock as it was).
   * Balances are touched in place order, so two opposite moves cannot deadlock: each take is one conditional
   * UPDATE, and each run of arrivals one multi-row upsert — 750 lines cost a few statements, not 750.
   */
  async post(uow: UnitOfWork, movement: Movement, actor: Actor) {
    const at = new Date().toISOString();
    const document = movement.documentId ?? randomUUID();
    const sources = movement.legs.filter((l) => l.qty < 0);
    // Stock arriving from another place keeps that place's lot expiry and age: read by the upsert itself.
    const carriedFrom = sources[0]?.place;
    const net = new Map<string, Leg>();
    for (const leg of movement.legs) {
      const key = placeKey(leg.place);
      const seen = net.get(key);
      if (!seen) net.set(key, { ...leg });
      else {
        seen.qty += leg.qty;
        if (seen.expiryDate === undefined) seen.expiryDate = leg.expiryDate;
        if (seen.receivedAt === undefined) seen.receivedAt = leg.receivedAt;
      }
    }
    const ordered = [...net.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, leg]) => leg).filter((l) => l.qty !== 0);
    let arrivals: Leg[] = [];
    const flush = async () => {
      for (let i = 0; i < arrivals.length; i += BATCH) await repo.addStocks(uow.tx, arrivals.slice(i, i + BATCH), carriedFrom, at);
      arrivals = [];
    };
    for (const leg of ordered) {
      if (leg.qty > 0) { arrivals.push(leg); continue; }
      await flush();
      const taken = await repo.takeStock(uow.tx, leg.place, -leg.qty, at);
      if (!taken) throw await this.shortage(uow, leg.place, -leg.qty, movement.quantityField ?? 'quantity');
    }
    await flush();
    // Checked after taking, while this transaction holds the balance rows: a count created meanwhile is seen,
    // so stock never leaves a location under count (409).
    if (sources.length) await this.assertNotHeld(uow, sources.map((l) => l.place));
    const rows = movement.legs.map((leg) => ({
      place: leg.place, qtyChange: leg.qty, txnType: leg.txnType, reason: movement.reason,
      documentType: movement.documentType, documentId: document, userId: actor.userId, at,
    }));
    const entries = [];
    for (let i = 0; i < rows.length; i += BATCH) entries.push(...await repo.insertLedger(uow.tx, rows.slice(i, i + BATCH)));
    return {
      document,
      entries: entries.map((e) => ({
        id: e.id, at: e.at, txnType: e.txn_type, qtyChange: e.qty_change, locationId: e.location_id, lot: e.lot, pallet: e.pallet,
        documentType: e.document_type, documentId: e.document_id,
      })),
    };
  }

  /**
   * The refusal of a take larger than the free stock (on hand less allocated): 422 naming the field and the free
   * figure, so the user sees what can be taken. Never clamped to it — moving less than asked is a silent error.
   */
  private async shortage(uow: UnitOfWork, place: Place, asked: number, field: string) {
    const balance = await repo.findBalance(uow.tx, place);
    const free = Math.max(0, (balance?.on_hand ?? 0) - (balance?.allocated ?? 0));
    return unprocessable(`Not enough free stock at this place: ${count(free, 'unit')} available, ${asked} asked`, { [field]: `At most ${free} available` });
  }

  /**
   * Refuses (422) `quantity` more units at a location beyond its capacity (0: unlimited), inside the caller's
   * transaction, before the stock is posted there. The location row is locked first and held until commit,
   * so two arrivals checked at once take turns and cannot both claim the same room (read-then-write would).
   */
  async assertRoom(uow: UnitOfWork, locationId: number, quantity: number) {
    const location = await repo.lockLocation(uow.tx, this.dialect, locationId);
    if (!location) throw notFound('Location');
    if (location.capacity <= 0) return;
    const room = location.capacity - (await repo.onHandAt(uow.tx, locationId));
    if (room < quantity) throw unprocessable(`Location ${location.code} has room for ${Math.max(0, room)} more ${noun(Math.max(0, room), 'unit')}`, { toLocationId: 'Not enough free capacity' });
  }

  /** assertRoom for many locations at once (quantity by location id): two statements whatever their number. */
  async assertRoomMany(uow: UnitOfWork, quantities: Map<number, number>) {
    const ids = [...quantities.keys()];
    if (ids.length === 0) return;
    const locations = await repo.lockLocations(uow.tx, this.dialect, ids);
    if (locations.length !== ids.length) throw notFound('Location');
    const limited = locations.filter((l) => l.capacity > 0);
    if (limited.length === 0) return;
    const held = new Map((await repo.onHandAtMany(uow.tx, limited.map((l) => l.id))).map((r) => [r.location_id, Number(r.n)]));
    for (const l of limited) {
      const room = l.capacity - (held.get(l.id) ?? 0);
      if (room < quantities.get(l.id)!) throw unprocessable(`Location ${l.code} has room for ${Math.max(0, room)} more ${noun(Math.max(0, room), 'unit')}`, { toLocationId: 'Not enough free capacity' });
    }
  }

  private async assertNotHeld(uow: UnitOfWork, places: Place[]) {
    const [held] = await repo.heldBy(uow.tx, places);
    if (held) {
      throw conflict(`Location ${held.location_code} is being counted (cycle count ${held.count_no})`,
        'Nothing can be moved or adjusted out of it until the count is approved or cancelled');
    }
  }

  /** 404 unless the SKU is this customer's. */
  async assertSku(customerId: number, skuId: number) {
    const sku = await repo.sku(this.db, skuId);
    if (!sku || sku.customer_id !== customerId) throw notFound('SKU');
    return sku;
  }

  /** Checks that the SKU is the customer's, the locations are the warehouse's and active, and all is in scope. */
  async assertReferences(principal: Principal, place: Place, locationIds: number[]) {
    principal.scope.assert({ warehouseId: place.warehouseId, customerId: place.customerId });
    const refs = await repo.references(this.db, place.skuId, locationIds, place.customerId);
    if (!refs.sku || refs.sku.customer_id !== place.customerId) throw notFound('SKU');
    if (!refs.servedWarehouses.includes(place.warehouseId)) throw unprocessable('This client is not served by this warehouse');
    for (const id of locationIds) {
      const loc = refs.locations.find((l) => l.id === id);
      if (!loc || loc.warehouse_id !== place.warehouseId) throw notFound('Location');
      if (loc.is_active !== 1) throw unprocessable('This location is inactive');
    }
  }

  async move(principal: Principal, input: Place & { toLocationId: number; quantity: number; note?: string }, actor: Actor) {
    if (input.toLocationId === input.locationId) throw badRequest('Choose a different destination location', { toLocationId: 'Same as the source location' });
    const from: Place = pick(input);
    const to: Place = { ...from, locationId: input.toLocationId };
    await this.assertReferences(principal, from, [from.locationId, to.locationId]);
    const result = await inTransaction(this.db, async (uow) => {
      const posted = await this.post(uow, {
        documentType: 'MOVE', reason: input.note ?? null,
        legs: [{ place: from, qty: -input.quantity, txnType: 'move_out' }, { place: to, qty: input.quantity, txnType: 'move_in' }],
      }, actor);
      await this.recordChange(uow, actor, 'Move', posted.document, from, [from.locationId, to.locationId], { from, to, quantity: input.quantity });
      return posted;
    });
    return { message: `Moved ${count(input.quantity, 'unit')}`, data: result };
  }

  /**
   * Posts an adjustment in an open transaction; the caller has checked its references (assertReferences).
   * Only the adjustments module calls it, which keeps every adjustment as a row.
   */
  async postAdjustment(uow: UnitOfWork, place: Place, input: AdjustmentInput, actor: Actor, documentId?: string) {
    const posted = await this.post(uow, {
      documentType: 'ADJUSTMENT', documentId, reason: [input.reasonCode, input.note].filter(Boolean).join(': '),
      legs: [{ place, qty: input.quantityChange, txnType: 'adjust', expiryDate: input.expiryDate ?? null }], quantityField: 'quantityChange',
    }, actor);
    await this.recordChange(uow, actor, 'Adjust', posted.document, place, [place.locationId], { place, quantityChange: input.quantityChange, reasonCode: input.reasonCode });
    return posted;
  }

  /** Moves every line of a pallet (licence plate) at one location to another, in one transaction. */
  async movePallet(principal: Principal, input: { warehouseId: number; pallet: string; fromLocationId: number; toLocationId: number; note?: string }, actor: Actor) {
    if (input.toLocationId === input.fromLocationId) throw badRequest('Choose a different destination location', { toLocationId: 'Same as the source location' });
    principal.scope.assert({ warehouseId: input.warehouseId });
    const refs = await repo.references(this.db, 0, [input.fromLocationId, input.toLocationId], 0);
    for (const id of [input.fromLocationId, input.toLocationId]) {
      const loc = refs.locations.find((l) => l.id === id);
      if (!loc || loc.warehouse_id !== input.warehouseId) throw notFound('Location');
      if (loc.is_active !== 1) throw unprocessable('This location is inactive');
    }
    const result = await inTransaction(this.db, async (uow) => {
      const rows = await repo.palletRows(uow.tx, this.dialect, input.warehouseId, input.pallet, input.fromLocationId).execute();
      if (rows.length === 0) throw notFound('Pallet at this location');
      for (const r of rows) principal.scope.assert({ customerId: r.customer_id });
      if (rows.some((r) => r.allocated > 0)) throw unprocessable('This pallet has allocated stock', 'Release or pick the allocated units before moving the whole pallet');
      const legs: Leg[] = rows.flatMap((r) => {
        const from: Place = { warehouseId: r.warehouse_id, customerId: r.customer_id, skuId: r.sku_id, locationId: r.location_id, lot: r.lot, pallet: r.pallet };
        return [
          { place: from, qty: -r.on_hand, txnType: 'move_out' },
          { place: { ...from, locationId: input.toLocationId }, qty: r.on_hand, txnType: 'move_in', expiryDate: r.expiry_date, receivedAt: r.received_at },
        ];
      });
      const posted = await this.post(uow, { documentType: 'PALLET_MOVE', reason: input.note ?? null, legs, quantityField: 'pallet' }, actor);
      const first = legs[0].place;
      const quantity = rows.reduce((n, r) => n + r.on_hand, 0);
      await this.recordChange(uow, actor, 'MovePallet', posted.document, { ...first, skuId: rows.length === 1 ? first.skuId : 0 },
        [input.fromLocationId, input.toLocationId], { pallet: input.pallet, from: input.fromLocationId, to: input.toLocationId, lines: rows.length, quantity });
      return { ...posted, quantity };
    });
    return { message: `Moved pallet ${input.pallet} (${count(result.quantity, 'unit')})`, data: { document: result.document, entries: result.entries } };
  }

  /**
   * The allocation primitive (orders use it): takes `quantity` of a SKU's free stock FEFO — earliest expiry
   * first, never an expired lot — inside the caller's transaction. Each take is one conditional UPDATE; when
   * another transaction got to a balance first, the candidates are read again, so parallel allocations never
   * over-allocate. Short stock throws 422 (rolling the caller back) unless `allowPartial`.
   */
  async allocate(uow: UnitOfWork, req: {
    warehouseId: number; customerId: number; skuId: number; quantity: number;
    today?: string; locations?: 'all' | 'pickable' | 'bulk'; excludeLocationId?: number; allowPartial?: boolean;
    /** Take from the first (FEFO) balance only: a replenishment task moves one source. */
    singleSource?: boolean;
  }) {
    const today = req.today ?? new Date().toISOString().slice(0, 10);
    const at = new Date().toISOString();
    const lines: { balanceId: number; place: Place; expiryDate: string | null; quantity: number }[] = [];
    let need = req.quantity;
    for (let round = 0; need > 0 && round < 20; round++) {
      const candidates = await repo.fefoCandidates(uow.tx, { ...req, today, locations: req.locations ?? 'all' });
      if (candidates.length === 0) break;
      let raced = false;
      for (const c of candidates) {
        const want = Math.min(need, c.on_hand - c.allocated);
        const row = await repo.allocate(uow.tx, c.id, want, today, at);
        if (!row) { raced = true; break; } // changed since read: read again, keeping FEFO order
        lines.push({
          balanceId: row.id, expiryDate: row.expiry_date, quantity: want,
          place: { warehouseId: row.warehouse_id, customerId: row.customer_id, skuId: row.sku_id, locationId: row.location_id, lot: row.lot, pallet: row.pallet },
        });
        need -= want;
        if (need === 0 || req.singleSource) break;
      }
      if (req.singleSource && lines.length > 0) break;
      if (!raced && need > 0 && candidates.length < 200) break;
    }
    if (need > 0 && !req.allowPartial) throw unprocessable('Not enough stock to allocate', `${need} of ${count(req.quantity, 'unit')} ${noun(need, 'is', 'are')} not free in unexpired lots`);
    return { allocated: req.quantity - need, short: need, lines };
  }

  /** Releases an allocation at a place inside the caller's transaction; 409 when less than that is allocated. */
  async deallocate(uow: UnitOfWork, place: Place, quantity: number) {
    const row = await repo.deallocate(uow.tx, place, quantity, new Date().toISOString());
    if (!row) throw conflict('Less stock is allocated here than is being released');
    return row;
  }

  /** Audit row and hub event for a stock change; every posting caller records one in its transaction. */
  async recordChange(uow: UnitOfWork, actor: Actor, kind: StockChangeKind, document: string, place: Place, locationIds: number[], after: unknown) {
    const change = this.changeOf(kind, document, place, locationIds, after);
    await writeAudit(uow.tx as Tx, actor, change.audit);
    await this.events.record(uow.tx, change.event, uow.afterCommit);
  }

  /** The audit entry and event of a stock change, for a caller that writes them with its own (one statement each). */
  changeOf(kind: StockChangeKind, document: string, place: Place, locationIds: number[], after: unknown): { audit: AuditEntry; event: DomainEvent } {
    return {
      audit: { action: kind.toLowerCase(), entity: 'inventory', entityId: document, warehouseId: place.warehouseId, customerId: place.customerId, after },
      event: {
        target: 'ReceiveInventoryData', payload: { subEvent: kind, payload: { document, skuId: place.skuId || null, locationIds } },
        warehouseId: place.warehouseId, customerId: place.customerId,
      },
    };
  }

  /**
   * Opening stock or a stock count from a sheet, into one location of a warehouse for one client. Every row is
   * checked first (any bad row: 422 with every row's errors, nothing written). Then, in ONE transaction, each
   * row posts through the ledger: Opening Stock adds its quantity; Stock Count posts the difference between
   * the count and the locked balance. A count below what is allocated is refused and rolls everything back.
   */
  async importStock(principal: Principal, upload: ReceivedUpload, actor: Actor) {
    const fields = parseFields(uploadInventoryFields, upload.fields);
    if (!upload.file) throw badRequest('Please choose a file', { file: 'Please choose a file' });
    const countDate = parseDay(fields.countDate);
    if (!countDate) throw badRequest('Please select count date!', { countDate: 'Please select count date!' });
    principal.scope.assert({ warehouseId: fields.warehouseId, customerId: fields.customerId });
    const refs = await repo.references(this.db, 0, [fields.locationId], fields.customerId);
    if (!refs.servedWarehouses.includes(fields.warehouseId)) throw unprocessable('This client is not served by this warehouse');
    const location = refs.locations[0];
    if (!location || location.warehouse_id !== fields.warehouseId) throw notFound('Location');
    if (location.is_active !== 1) throw unprocessable('This location is inactive');

    const file = upload.file;
    const rows = await readCountSheet(file);
    const skus = await repo.skusByCodes(this.db, fields.customerId, rows.map((r) => r.cells.SKU ?? '').filter(Boolean));
    const { lines, errors } = validateCountRows(rows, fields.inventoryType, skus);
    if (errors.length) throw unprocessable(rowErrorSummary(errors, 'imported'), rowErrorDetails(errors));

    const counting = fields.inventoryType === 'Stock Count';
    const placeOf = (l: (typeof lines)[number]): Place => ({
      warehouseId: fields.warehouseId, customerId: fields.customerId, skuId: l.skuId, locationId: fields.locationId, lot: l.lot, pallet: l.pallet,
    });
    const result = await inTransaction(this.db, async (uow) => {
      // Stock may not be added to, or counted in, a location another count holds: it would skew that count.
      await this.assertNotHeld(uow, [placeOf(lines[0])]);
      const legs: Leg[] = [];
      const shortRows: RowError[] = [];
      for (const line of lines) {
        const place = placeOf(line);
        let qty = line.quantity;
        if (counting) {
          const balance = await repo.lockBalance(uow.tx, this.dialect, place);
          if (balance && line.quantity < balance.allocated) {
            shortRows.push({ row: line.row, column: 'Quantity', message: `${count(balance.allocated, 'unit')} of ${line.skuCode} ${noun(balance.allocated, 'is', 'are')} allocated here; the count cannot be less` });
          }
          qty = line.quantity - (balance?.on_hand ?? 0);
        }
        if (qty !== 0) legs.push({ place, qty, txnType: counting ? 'count' : 'opening', expiryDate: line.expiryDate });
      }
      if (shortRows.length) throw unprocessable(rowErrorSummary(shortRows, 'imported'), rowErrorDetails(shortRows));
      const reason = `${fields.inventoryType} of ${countDate} (${file.fileName.slice(0, 100)})`;
      const posted = legs.length ? await this.post(uow, { documentType: 'IMPORT', reason, legs }, actor) : { document: randomUUID(), entries: [] };
      const first = placeOf(lines[0]);
      await this.recordChange(uow, actor, 'Import', posted.document, { ...first, skuId: new Set(lines.map((l) => l.skuId)).size === 1 ? first.skuId : 0 },
        [fields.locationId], { inventoryType: fields.inventoryType, countDate, fileName: file.fileName, rows: lines.length, changes: legs.map((l) => ({ skuId: l.place.skuId, lot: l.place.lot, pallet: l.place.pallet, qty: l.qty })) });
      return { document: posted.document, posted: legs.length, units: legs.reduce((n, l) => n + l.qty, 0) };
    });
    const message = counting
      ? `Stock count imported: ${result.posted} of ${count(lines.length, 'row')} differed (${signedCount(result.units, 'unit')})`
      : `Opening stock imported: ${count(result.units, 'unit')} on ${count(lines.length, 'row')}`;
    return { message, data: { fileName: file.fileName, rows: lines.length, ...result } };
  }

  /** The count sheet template: its header row and one example row. */
  importTemplate() {
    const example: Record<(typeof INVENTORY_UPLOAD_COLUMNS)[number], string> = { SKU: 'SKU-CODE', Quantity: '100', Lot: '', 'Expiry Date': '', Pallet: '' };
    return toXlsx('Inventory', INVENTORY_UPLOAD_COLUMNS.map((c) => ({ header: c, value: (r: typeof example) => r[c], width: 18 })), [example]);
  }

  async stockOnHand(principal: Principal, req: ListRequest<StockFilters>) {
    return toListPage(await stockListRepository.list(this.db, this.dialect, principal.scope, req), (r) => ({
      uniqueid: r.id, warehouseId: r.warehouse_id, warehouseName: r.warehouse_name, customerId: r.customer_id, customerName: r.customer_name,
      skuId: r.sku_id, skuCode: r.sku_code, skuDescription: r.description, locationId: r.location_id, locationCode: r.location_code,
      lot: r.lot, expiryDate: r.expiry_date, pallet: r.pallet, onHand: r.on_hand, allocated: r.allocated, available: r.on_hand - r.allocated,
    }));
  }

  async reconcile(principal: Principal, filter: { warehouseId: number; customerId: number }) {
    const { differences, checked } = await repo.reconcile(this.db, principal.scope, filter);
    return {
      balanced: differences.length === 0,
      checkedBalances: checked,
      differences: differences.map((d) => ({
        warehouseId: d.warehouse_id, customerId: d.customer_id, skuId: d.sku_id, locationId: d.location_id, lot: d.lot, pallet: d.pallet,
        onHand: Number(d.on_hand ?? 0), ledgerSum: Number(d.ledger_sum ?? 0), difference: Number(d.on_hand ?? 0) - Number(d.ledger_sum ?? 0),
      })),
    };
  }
}

/** Rows per multi-row statement: well inside both engines' bound-parameter limits. */
const BATCH = 500;

const placeKey = (p: Place) =>
  [p.warehouseId, p.customerId, p.skuId, p.locationId].map((n) => String(n).padStart(10, '0')).join('|') + `|${p.lot}|${p.pallet}`;

export function pick(p: Place): Place {
  return { warehouseId: p.warehouseId, customerId: p.customerId, skuId: p.skuId, locationId: p.locationId, lot: p.lot ?? '', pallet: p.pallet ?? '' };
}
