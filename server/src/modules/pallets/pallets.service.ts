import {
  MAX_PALLETS_PER_FILE, MSG_PALLET, PALLET_DIMENSION_MAX_CM, PALLET_ID, PALLET_TYPES, PALLET_UPLOAD_COLUMNS, PALLET_WEIGHT_MAX_KG,
  type CreatePalletInput, type Pallet, type PalletType,
} from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { documentNumbers } from '../../platform/document-numbers.js';
import { conflict, unprocessable } from '../../platform/errors.js';
import { toXlsx } from '../../platform/excel.js';
import { UPLOAD_MAX_BYTES } from '../../platform/files.js';
import { nextSscc } from '../../platform/gs1.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import { count } from '../../platform/plural.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { readSheet, rowErrorDetails, rowErrorSummary, type RowError } from '../../platform/sheet.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import { palletRepository as repo, type NewPallet, type PalletFilterValues, type PalletRow } from './pallets.repository.js';

type Column = (typeof PALLET_UPLOAD_COLUMNS)[number];
/** A pallet as the form or a sheet row gives it, before its id and SSCC are settled. */
type Described = Omit<NewPallet, 'pallet_code' | 'sscc' | 'created_by' | 'created_at' | 'updated_at'> & { pallet_code: string | null };

const REQUIRED: Column[] = ['Pallet Type', 'Length (cm)', 'Width (cm)', 'Height (cm)', 'Weight Capacity (kg)', 'Current Location'];
const SAMPLE = [
  { id: 'PAL-0001', type: 'standard', l: 120, w: 100, h: 150, kg: 1000, at: 'A-01-01' },
  { id: '', type: 'euro', l: 120, w: 80, h: 144, kg: 1500, at: 'A-01-02' },
];

const toPallet = (r: PalletRow): Pallet => ({
  uniqueid: r.id, palletId: r.pallet_code, sscc: r.sscc, palletType: r.pallet_type as PalletType, lengthCm: Number(r.length_cm), widthCm: Number(r.width_cm),
  heightCm: Number(r.height_cm), weightCapacityKg: Number(r.weight_capacity_kg), warehouseId: r.warehouse_id, customerId: r.customer_id,
  customerName: r.customer_name, locationId: r.location_id, locationCode: r.location_code, onHand: Number(r.on_hand), createdAt: String(r.created_at),
});

/** A number cell from min (exclusive of 0) to max; null when it is not one. */
const measure = (text: string | undefined, max: number) => {
  const v = Number((text ?? '').replace(',', '.'));
  return text && Number.isFinite(v) && v > 0 && v <= max ? v : null;
};

/**
 * The pallet register (issue 18): licence plates with their type, size, weight capacity and current location, one
 * by one or from a sheet (all or nothing, every bad row reported). The id is the one stock rows carry in their
 * `pallet` column; without one given, a client's pallet takes its SSCC (the client has a GS1 prefix) or a PLT-
 * number. A pallet id is unique in its warehouse: a duplicate, in the file or already registered, is refused.
 */
export class PalletService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;

  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder'>) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
  }

  async list(principal: Principal, req: ListRequest<PalletFilterValues>) {
    return toListPage(await repo.list(this.db, this.dialect, principal.scope, req), toPallet);
  }

  async create(principal: Principal, input: CreatePalletInput, actor: Actor) {
    await this.owner(principal, input.warehouseId, input.customerId);
    const locationId = input.locationId ?? (await repo.locationsByCode(this.db, input.warehouseId, [input.locationCode!.toUpperCase()])).get(input.locationCode!.toUpperCase());
    const location = locationId ? await repo.location(this.db, locationId) : undefined;
    if (!location || location.warehouse_id !== input.warehouseId || !location.is_active) {
      throw unprocessable(`No location ${input.locationCode ?? input.locationId} in this warehouse`, { [input.locationId ? 'locationId' : 'locationCode']: 'Not a location of this warehouse' });
    }
    const [saved] = await this.register(input.warehouseId, [{
      warehouse_id: input.warehouseId, customer_id: input.customerId ?? null, pallet_code: input.palletId ?? null, pallet_type: input.palletType,
      length_cm: input.lengthCm, width_cm: input.widthCm, height_cm: input.heightCm, weight_capacity_kg: input.weightCapacityKg, location_id: location.id,
    }], actor, { action: 'create' });
    return { message: `Pallet ${saved} created`, data: { palletId: saved } };
  }

  /** A CSV or XLSX sheet of pallets: every row checked; any bad row (422, each row's errors) writes nothing. */
  async upload(principal: Principal, upload: { warehouseId: number; customerId?: number; fileName: string; bytes: Buffer }, actor: Actor) {
    await this.owner(principal, upload.warehouseId, upload.customerId);
    const sheet = await readSheet(upload, { columns: PALLET_UPLOAD_COLUMNS, required: REQUIRED, maxRows: MAX_PALLETS_PER_FILE, noun: 'pallets', maxBytes: UPLOAD_MAX_BYTES });
    const locations = await repo.locationsByCode(this.db, upload.warehouseId, [...new Set(sheet.rows.map((r) => (r.cells['Current Location'] ?? '').toUpperCase()).filter(Boolean))]);
    const errors: RowError[] = [];
    const firstRowOf = new Map<string, number>();
    const pallets: (Described & { row: number })[] = [];
    for (const { row, cells } of sheet.rows) {
      const before = errors.length;
      const fail = (column: Column, message: string) => errors.push({ row, column, message });
      const id = cells['Pallet ID'] ?? '';
      if (id && !PALLET_ID.test(id)) fail('Pallet ID', MSG_PALLET.id);
      else if (id && firstRowOf.has(id)) fail('Pallet ID', `Duplicate of row ${firstRowOf.get(id)}`);
      else if (id) firstRowOf.set(id, row);
      const type = (cells['Pallet Type'] ?? '').toLowerCase();
      if (!PALLET_TYPES.includes(type as PalletType)) fail('Pallet Type', `${MSG_PALLET.type} (${PALLET_TYPES.join(', ')})`);
      const sizes = (['Length (cm)', 'Width (cm)', 'Height (cm)'] as const).map((c) => {
        const v = measure(cells[c], PALLET_DIMENSION_MAX_CM);
        if (v === null) fail(c, `Enter a number above 0 and at most ${PALLET_DIMENSION_MAX_CM}`);
        return v;
      });
      const kg = measure(cells['Weight Capacity (kg)'], PALLET_WEIGHT_MAX_KG);
      if (kg === null) fail('Weight Capacity (kg)', `Enter a number above 0 and at most ${PALLET_WEIGHT_MAX_KG}`);
      const code = (cells['Current Location'] ?? '').toUpperCase();
      const locationId = locations.get(code);
      if (!code) fail('Current Location', MSG_PALLET.location);
      else if (!locationId) fail('Current Location', `No location ${code.slice(0, 32)} in this warehouse`);
      if (errors.length === before) {
        pallets.push({
          row, warehouse_id: upload.warehouseId, customer_id: upload.customerId || null, pallet_code: id || null, pallet_type: type,
          length_cm: sizes[0]!, width_cm: sizes[1]!, height_cm: sizes[2]!, weight_capacity_kg: kg!, location_id: locationId!,
        });
      }
    }
    const taken = new Set(await repo.existing(this.db, upload.warehouseId, [...firstRowOf.keys()]));
    for (const [id, row] of firstRowOf) if (taken.has(id)) errors.push({ row, column: 'Pallet ID', message: `Pallet ${id} already exists in this warehouse` });
    if (errors.length) throw unprocessable(rowErrorSummary(errors, 'uploaded'), rowErrorDetails(errors));
    const ids = await this.register(upload.warehouseId, pallets.map(({ row: _row, ...p }) => p), actor, { action: 'upload', fileName: upload.fileName });
    return { message: `${count(ids.length, 'pallet')} uploaded successfully`, data: { count: ids.length, fileName: upload.fileName } };
  }

  /** The upload template: the columns UploadPallets reads, with two sample rows (the second left to be numbered). */
  template(): Promise<Buffer> {
    const cells: Record<Column, (s: (typeof SAMPLE)[number]) => string | number> = {
      'Pallet ID': (s) => s.id, 'Pallet Type': (s) => s.type, 'Length (cm)': (s) => s.l, 'Width (cm)': (s) => s.w, 'Height (cm)': (s) => s.h,
      'Weight Capacity (kg)': (s) => s.kg, 'Current Location': (s) => s.at,
    };
    return toXlsx('Pallets', PALLET_UPLOAD_COLUMNS.map((header) => ({ header, value: cells[header], width: Math.max(14, header.length + 4) })), SAMPLE, [
      'One pallet per row. Pallet ID: the licence plate (letters, digits, . _ -); leave it empty to have one given (the SSCC when the client has a GS1 prefix).',
      `Pallet Type: ${PALLET_TYPES.join(', ')}. Dimensions in cm, weight capacity in kg. Current Location: a location code of the warehouse.`,
    ]);
  }

  /** The caller may work in the warehouse (and for the client, who must be served there). */
  private async owner(principal: Principal, warehouseId: number, customerId?: number) {
    principal.scope.assert({ warehouseId, customerId });
    if (customerId && !await repo.servedAt(this.db, warehouseId, customerId)) throw unprocessable('This client is not served at this warehouse', { customerId: 'Not served at this warehouse' });
  }

  /**
   * Inserts the pallets in one transaction: the ids not given are settled here (SSCC or PLT- number, in the same
   * transaction, so a rollback gives them back); a clash with a pallet registered meanwhile is refused (409).
   */
  private async register(warehouseId: number, pallets: Described[], actor: Actor, audit: { action: string; fileName?: string }) {
    return inTransaction(this.db, async (uow) => {
      const now = new Date().toISOString();
      const gs1 = new Map<number, boolean>();
      const rows: NewPallet[] = [];
      for (const p of pallets) {
        if (p.customer_id && !gs1.has(p.customer_id)) gs1.set(p.customer_id, await repo.hasGs1Prefix(uow.tx, p.customer_id));
        const sscc = p.customer_id && gs1.get(p.customer_id) ? await nextSscc(uow, p.customer_id) : null;
        rows.push({ ...p, pallet_code: p.pallet_code ?? sscc ?? await this.numbered(uow), sscc, created_by: actor.userId, created_at: now, updated_at: now });
      }
      const codes = rows.map((r) => r.pallet_code);
      const clashes = await repo.existing(uow.tx, warehouseId, codes);
      if (clashes.length) throw conflict(`Pallet ${clashes[0]} already exists in this warehouse`);
      await repo.insertMany(uow.tx, rows);
      await this.recorder.record(uow, actor, {
        audit: { action: audit.action, entity: 'pallet', warehouseId, after: { count: rows.length, palletIds: codes.slice(0, 200), ...(audit.fileName ? { fileName: audit.fileName } : {}) } },
        events: { target: 'ReceivePalletData', payload: { subEvent: 'AddPallets', payload: { warehouseId, count: rows.length } }, warehouseId },
      });
      return codes;
    });
  }

  private async numbered(uow: UnitOfWork) {
    return (await documentNumbers.next(uow, 'PLT')).number;
  }
}
