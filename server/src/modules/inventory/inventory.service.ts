import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import { INVENTORY_UPLOAD_COLUMNS, uploadInventoryFields } from '@bolx/contracts';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { toXlsx } from '../../platform/excel.js';
import { parseFields, type ReceivedUpload } from '../../platform/files.js';
import { parseDay, rowErrorDetails, rowErrorSummary, type RowError } from '../../platform/sheet.js';
import { readCountSheet, validateCountRows } from './import.js';
import { badRequest, notFound, unprocessable } from '../../platform/errors.js';
import { count, noun, signedCount } from '../../platform/plural.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import { pick, type Leg, type Place, type StockEngine } from '../../platform/stock/stock-engine.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import { FloorEvents } from '../../platform/floor-events.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { inventoryRepository as repo, type StockFilters } from './inventory.repository.js';
import { stockListRepository } from './stock-list.repository.js';

/** The balance key and a movement's leg, for modules that post through the stock engine. */
export type { Place, Leg };

/** An adjustment's quantity and why (the adjustments module posts it). */
export interface AdjustmentInput { quantityChange: number; reasonCode: string; expiryDate?: string; note?: string }

/**
 * Inventory's screens and lists: moves, pallet moves, adjustments' postings, the stock list, imports and the
 * reconciliation. Every quantity change goes through the stock engine (platform/stock), injected here.
 */
export class InventoryService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  /** The activity log: a move is labour (productivity, labour time per task type). */
  private readonly floor: FloorEvents;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder' | 'timeZones'>, private readonly stock: StockEngine) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.floor = new FloorEvents(deps.timeZones);
  }

  async move(principal: Principal, input: Place & { toLocationId: number; quantity: number; note?: string }, actor: Actor) {
    if (input.toLocationId === input.locationId) throw badRequest('Choose a different destination location', { toLocationId: 'Same as the source location' });
    const from: Place = pick(input);
    const to: Place = { ...from, locationId: input.toLocationId };
    principal.scope.assert({ warehouseId: from.warehouseId, customerId: from.customerId });
    const result = await inTransaction(this.db, async (uow) => {
      await this.floor.record(uow, actor, [{ kind: 'move', warehouseId: from.warehouseId, customerId: from.customerId, skuId: from.skuId, locationId: to.locationId, quantity: input.quantity }]);
      return this.stock.post(uow, {
        documentType: 'MOVE', reason: input.note ?? null,
        // Checked in the posting's own statement: a move costs no statement for its references.
        references: { warehouseId: from.warehouseId, customerId: from.customerId, skuId: from.skuId, locationIds: [from.locationId, to.locationId] },
        legs: [{ place: from, qty: -input.quantity, txnType: 'move_out' }, { place: to, qty: input.quantity, txnType: 'move_in' }],
        record: { kind: 'Move', after: { from, to, quantity: input.quantity } },
      }, actor);
    });
    return { message: `Moved ${count(input.quantity, 'unit')}`, data: result };
  }

  /** Moves every line of a pallet (licence plate) at one location to another, in one transaction. */
  async movePallet(principal: Principal, input: { warehouseId: number; pallet: string; fromLocationId: number; toLocationId: number; note?: string }, actor: Actor) {
    if (input.toLocationId === input.fromLocationId) throw badRequest('Choose a different destination location', { toLocationId: 'Same as the source location' });
    principal.scope.assert({ warehouseId: input.warehouseId });
    await this.stock.references({ warehouseId: input.warehouseId, customerId: 0, locationIds: [input.fromLocationId, input.toLocationId] });
    const result = await inTransaction(this.db, async (uow) => {
      const rows = await repo.palletRows(uow.tx, this.dialect, input.warehouseId, input.pallet, input.fromLocationId, input.toLocationId);
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
      const quantity = rows.reduce((n, r) => n + r.on_hand, 0);
      // One step per line of the pallet (each client's SKU is its own work to bill), all one moment.
      await this.floor.record(uow, actor, rows.map((r) => ({
        kind: 'move' as const, warehouseId: r.warehouse_id, customerId: r.customer_id, skuId: r.sku_id, locationId: input.toLocationId, quantity: r.on_hand, detail: 'pallet',
      })));
      const posted = await this.stock.post(uow, {
        documentType: 'PALLET_MOVE', reason: input.note ?? null, legs, quantityField: 'pallet',
        record: { kind: 'MovePallet', after: { pallet: input.pallet, from: input.fromLocationId, to: input.toLocationId, lines: rows.length, quantity } },
      }, actor);
      return { ...posted, quantity };
    });
    return { message: `Moved pallet ${input.pallet} (${count(result.quantity, 'unit')})`, data: { document: result.document, entries: result.entries } };
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
    await this.stock.references({ warehouseId: fields.warehouseId, customerId: fields.customerId, locationIds: [fields.locationId] });

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
      await this.stock.assertNotHeld(uow.tx, [placeOf(lines[0])]);
      const legs: Leg[] = [];
      const shortRows: RowError[] = [];
      // A count's balances, locked in one statement (in id order, as every lock of balances is).
      const balances = counting ? await this.stock.lockBalances(uow, lines.map(placeOf)) : [];
      for (const [i, line] of lines.entries()) {
        const place = placeOf(line);
        let qty = line.quantity;
        if (counting) {
          const balance = balances[i];
          if (balance && line.quantity < balance.allocated) {
            shortRows.push({ row: line.row, column: 'Quantity', message: `${count(balance.allocated, 'unit')} of ${line.skuCode} ${noun(balance.allocated, 'is', 'are')} allocated here; the count cannot be less` });
          }
          qty = line.quantity - (balance?.on_hand ?? 0);
        }
        if (qty !== 0) legs.push({ place, qty, txnType: counting ? 'count' : 'opening', expiryDate: line.expiryDate });
      }
      if (shortRows.length) throw unprocessable(rowErrorSummary(shortRows, 'imported'), rowErrorDetails(shortRows));
      const reason = `${fields.inventoryType} of ${countDate} (${file.fileName.slice(0, 100)})`;
      const first = placeOf(lines[0]);
      const record = {
        kind: 'Import' as const, skuId: new Set(lines.map((l) => l.skuId)).size === 1 ? first.skuId : 0,
        after: { inventoryType: fields.inventoryType, countDate, fileName: file.fileName, rows: lines.length, changes: legs.map((l) => ({ skuId: l.place.skuId, lot: l.place.lot, pallet: l.place.pallet, qty: l.qty })) },
      };
      // A count that matched everywhere changes no stock: the import is still audited, through the recorder.
      const posted = legs.length ? await this.stock.post(uow, { documentType: 'IMPORT', reason, legs, record }, actor) : await this.recordEmptyImport(uow, actor, first, record);
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

  reconcile(principal: Principal, filter: { warehouseId: number; customerId: number }) {
    return this.stock.reconcile(principal.scope, filter);
  }

  private async recordEmptyImport(uow: UnitOfWork, actor: Actor, place: Place, record: { kind: 'Import'; skuId: number; after: unknown }) {
    const document = randomUUID();
    await this.recorder.record(uow, actor, {
      audit: { action: 'import', entity: 'inventory', entityId: document, warehouseId: place.warehouseId, customerId: place.customerId, after: record.after },
      events: { target: 'ReceiveInventoryData', payload: { subEvent: 'Import', payload: { document, skuId: record.skuId || null, locationIds: [place.locationId] } }, warehouseId: place.warehouseId, customerId: place.customerId },
    });
    return { document, entries: [] };
  }
}
