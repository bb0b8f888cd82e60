import type { Insertable, Selectable } from 'kysely';
import {
  LOCATION_UPLOAD_COLUMNS, MAX_LABELS_PER_PRINT, MAX_LOCATIONS_PER_CALL, MSG_LOCATION,
  type FilterLabel, type Location, type LocationCategory, type LocationFilters, type LocationInput, type LocationPatternInput,
  type CodeSymbology, type LocationBatch, type LocationType, type PrintLabelsRequest, type UpdateLocationInput,
} from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { LocationTable } from '../../db/tables/locations.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { badRequest, conflict, notFound, unprocessable } from '../../platform/errors.js';
import { toXlsx } from '../../platform/excel.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { code128ReadablePng, code128ReadableSvg, labelsPdf, qrPng, qrSvg } from './labels.js';
import { expandPattern, patternCount } from './pattern.js';
import { locationRepository as repo, type LocationQuery, type StockView } from './locations.repository.js';
import { occupancyPercent } from './occupancy.js';
import { count as countOf } from '../../platform/plural.js';
import { readSheet, rowErrorDetails, validateRows } from './upload.js';

/** How many codes a preview shows, and how many clashes it names. */
const PREVIEW_SAMPLE = 20;

/** A location row with its warehouse's name, its kind and its units on hand (pg sums arrive as text). */
type LocationRow = Selectable<LocationTable> & { warehouse_name: string; category: string | null; on_hand: number | string | null };

/** Percent of capacity used, one decimal; capacity 0 means unlimited, so there is no percentage. */
export function occupancyOf(onHand: number, capacity: number): number | null {
  return capacity > 0 ? Math.round((onHand / capacity) * 1000) / 10 : null;
}

export function toLocation(r: LocationRow): Location {
  const onHand = Number(r.on_hand ?? 0);
  return {
    uniqueid: r.id, locationId: r.id, warehouseId: r.warehouse_id, warehouseName: r.warehouse_name, locationCode: r.code,
    locationType: r.type, category: r.category === 'other' ? 'other' : 'storage', zone: r.zone, aisle: r.aisle, rack: r.rack,
    level: r.level, bin: r.bin, capacity: r.capacity, maxWeightKg: r.max_weight_kg == null ? null : Number(r.max_weight_kg),
    isPickable: r.is_pickable === 1, description: r.description, isActive: r.is_active === 1, onHand,
    occupancy: occupancyOf(onHand, r.capacity), createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

/** A client account sees its own units; staff see everything in the location. */
const viewOf = (principal: Principal): StockView => (principal.role === 'Client' ? 'own' : 'all');

function columnsOf(input: Omit<LocationInput, 'warehouseId'>) {
  return {
    code: input.locationCode, type: input.locationType, capacity: input.capacity, description: input.description || null,
    zone: input.zone ?? null, aisle: input.aisle ?? null, rack: input.rack ?? null, level: input.level ?? null, bin: input.bin ?? null,
    max_weight_kg: input.maxWeightKg ?? null, is_pickable: input.isPickable ? 1 : 0, is_active: input.isActive ? 1 : 0,
  };
}

const codeTaken = (code: string) => conflict(`Location code ${code} already exists in this warehouse`);

export class LocationService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder'>) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
  }

  async types(): Promise<LocationType[]> {
    return (await repo.types(this.db)).map((t) => ({ id: t.id, code: t.code, name: t.name, category: t.category === 'other' ? 'other' : 'storage' }));
  }

  private query(principal: Principal, category: LocationCategory, filters: LocationFilters = {}): LocationQuery {
    return { scope: principal.scope, view: viewOf(principal), category, filters };
  }

  async list(principal: Principal, req: ListRequest<LocationFilters>, category: LocationCategory) {
    const q = this.query(principal, category, req.filters);
    return toListPage(await repo.list(this.db, this.dialect, q, req), toLocation);
  }

  async download(principal: Principal, req: Pick<ListRequest<LocationFilters>, 'filters' | 'searchQuery' | 'sort'>, category: LocationCategory) {
    const q = this.query(principal, category, req.filters);
    const rows = (await repo.listAll(this.db, this.dialect, q, req)).map(toLocation);
    return toXlsx(category === 'other' ? 'Other Locations' : 'Locations', [
      { header: 'Warehouse', value: (l) => l.warehouseName, width: 24 }, { header: 'Location Code', value: (l) => l.locationCode, width: 20 },
      { header: 'Location Type', value: (l) => l.locationType }, { header: 'Zone', value: (l) => l.zone }, { header: 'Aisle', value: (l) => l.aisle },
      { header: 'Rack', value: (l) => l.rack }, { header: 'Level', value: (l) => l.level }, { header: 'Bin', value: (l) => l.bin },
      { header: 'Capacity', value: (l) => l.capacity }, { header: 'On Hand', value: (l) => l.onHand },
      { header: 'Occupancy %', value: (l) => l.occupancy }, { header: 'Description', value: (l) => l.description, width: 30 },
      { header: 'Status', value: (l) => (l.isActive ? 'Active' : 'Inactive') },
    ], rows);
  }

  async filterLabels(principal: Principal): Promise<FilterLabel[]> {
    const [types, zones] = await Promise.all([repo.types(this.db), repo.zones(this.db, this.query(principal, 'storage'))]);
    return [
      { key: 'type', label: 'Location Type', type: 'select', options: types.filter((t) => t.category === 'storage').map((t) => ({ label: t.name, value: t.code })) },
      { key: 'zone', label: 'Zone', type: 'select', options: zones.map((z) => ({ label: z.zone!, value: z.zone! })) },
      { key: 'occupied', label: 'Occupancy', type: 'select', options: [{ label: 'All', value: 'all' }, { label: 'Empty', value: 'empty' }, { label: 'Occupied', value: 'occupied' }] },
      { key: 'isActive', label: 'Status', type: 'select', options: [{ label: 'All', value: 'all' }, { label: 'Active', value: 'active' }, { label: 'Inactive', value: 'inactive' }] },
    ];
  }

  /** One location: 403 outside the caller's warehouses; for a client, 404 unless it holds the client's stock. */
  async get(principal: Principal, id: number): Promise<Location> {
    const row = await repo.findById(this.db, id, principal.scope, viewOf(principal));
    if (!row) throw notFound('Location');
    principal.scope.assert({ warehouseId: row.warehouse_id });
    if (viewOf(principal) === 'own' && !row.in_use_by_scope) throw notFound('Location');
    return toLocation(row);
  }

  /** Per-warehouse storage positions in use, for the occupancy gauges (spec section 9: 70 and 90 percent). */
  async occupancy(principal: Principal, warehouseId?: number) {
    const rows = await repo.positions(this.db, principal.scope, warehouseId || undefined);
    return rows.map((r) => {
      const total = Number(r.total);
      const used = Number(r.used);
      return { warehouseId: r.id, warehouseName: r.name, totalPositions: total, usedPositions: used, occupancy: total ? occupancyPercent(used, total) : null };
    });
  }

  private async assertType(code: string) {
    const type = await repo.findType(this.db, code);
    if (!type) throw badRequest('Unknown location type', { locationType: MSG_LOCATION.type });
    return type;
  }

  /** The warehouse a write goes to: in the caller's scope, and real. */
  private async writableWarehouse(principal: Principal, warehouseId: number) {
    principal.scope.assert({ warehouseId });
    const warehouse = await repo.warehouse(this.db, warehouseId);
    if (!warehouse) throw notFound('Warehouse');
    return warehouse;
  }

  async create(principal: Principal, input: LocationInput, actor: Actor) {
    await this.writableWarehouse(principal, input.warehouseId);
    await this.assertType(input.locationType);
    const now = new Date().toISOString();
    const location = await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      if ((await repo.existingCodes(tx, input.warehouseId, [input.locationCode])).length) throw codeTaken(input.locationCode);
      const id = await repo.insert(tx, { ...columnsOf(input), warehouse_id: input.warehouseId, created_at: now, updated_at: now });
      const created = toLocation((await repo.findById(tx, id, principal.scope, 'all'))!);
      await this.recorder.record(uow, actor, {
        audit: { action: 'create', entity: 'location', entityId: id, warehouseId: input.warehouseId, after: created },
        events: { target: 'ReceiveLocationData', payload: { subEvent: 'AddLocation', payload: created }, warehouseId: created.warehouseId },
      });
      return created;
    });
    return { message: MSG_LOCATION.created, data: location };
  }

  async update(principal: Principal, input: UpdateLocationInput, actor: Actor) {
    const before = await this.get(principal, input.locationId);
    await this.assertType(input.locationType);
    if (!input.isActive && before.isActive && before.onHand > 0) throw unprocessable('This location holds stock; move it out before deactivating the location');
    const location = await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      if (input.locationCode !== before.locationCode && (await repo.existingCodes(tx, before.warehouseId, [input.locationCode])).length) {
        throw codeTaken(input.locationCode);
      }
      await repo.update(tx, input.locationId, { ...columnsOf(input), updated_at: new Date().toISOString() });
      const after = toLocation((await repo.findById(tx, input.locationId, principal.scope, 'all'))!);
      await this.recorder.record(uow, actor, {
        audit: { action: 'update', entity: 'location', entityId: input.locationId, warehouseId: before.warehouseId, before, after },
        events: { target: 'ReceiveLocationData', payload: { subEvent: 'UpdateLocation', payload: after }, warehouseId: after.warehouseId },
      });
      return after;
    });
    return { message: MSG_LOCATION.updated, data: location };
  }

  /** What a pattern would create and which of its codes already exist; writes nothing. */
  async previewPattern(principal: Principal, input: LocationPatternInput) {
    await this.writableWarehouse(principal, input.warehouseId);
    const count = patternCount(input);
    const withinLimit = count <= MAX_LOCATIONS_PER_CALL;
    const codes = withinLimit ? expandPattern(input).map((l) => l.code) : [];
    const conflicts = withinLimit ? await repo.existingCodes(this.db, input.warehouseId, codes) : [];
    return {
      count, limit: MAX_LOCATIONS_PER_CALL, withinLimit, sample: codes.slice(0, PREVIEW_SAMPLE), lastCode: codes.at(-1) ?? null,
      conflicts: conflicts.slice(0, PREVIEW_SAMPLE), conflictCount: conflicts.length,
    };
  }

  /** Every combination of the pattern, or nothing: one existing code refuses the whole batch. */
  async createByPattern(principal: Principal, input: LocationPatternInput, actor: Actor) {
    await this.writableWarehouse(principal, input.warehouseId);
    await this.assertType(input.type);
    const count = patternCount(input);
    if (count > MAX_LOCATIONS_PER_CALL) {
      throw badRequest(`A pattern may create at most ${MAX_LOCATIONS_PER_CALL.toLocaleString('en-US')} locations at a time; this one makes ${count.toLocaleString('en-US')}`);
    }
    const now = new Date().toISOString();
    const planned = expandPattern(input);
    const rows: Insertable<LocationTable>[] = planned.map((p) => ({
      warehouse_id: input.warehouseId, code: p.code, type: input.type, zone: p.zone, aisle: p.aisle, rack: p.rack, level: p.level, bin: p.bin,
      capacity: input.capacity, description: input.description || null, max_weight_kg: input.maxWeightKg ?? null,
      is_pickable: input.isPickable ? 1 : 0, is_active: 1, created_at: now, updated_at: now,
    }));
    const codes = planned.map((p) => p.code);
    await this.insertAll(input.warehouseId, rows, actor, { action: 'createByPattern', pattern: input, codes }, 'pattern');
    return { message: `${countOf(count, 'location')} created successfully`, data: { count, firstCode: codes[0], lastCode: codes[codes.length - 1] } };
  }

  /** An uploaded CSV/XLSX sheet of locations: every row checked; any bad row (422, with each row's errors) writes nothing. */
  async upload(principal: Principal, file: { warehouseId: number; fileName: string; content: Buffer }, actor: Actor) {
    await this.writableWarehouse(principal, file.warehouseId);
    const sheet = await readSheet({ fileName: file.fileName, bytes: file.content });
    const types = await repo.types(this.db);
    const typeOf = (value: string) => types.find((t) => t.code === value.toLowerCase() || t.name.toLowerCase() === value.toLowerCase())?.code;
    const { locations, errors } = validateRows(sheet, typeOf);
    const taken = new Set(await repo.existingCodes(this.db, file.warehouseId, locations.map((l) => l.code)));
    for (const l of locations) if (taken.has(l.code)) errors.push({ row: l.row, column: 'Location Code', message: 'Location code already exists in this warehouse' });
    if (errors.length) {
      throw unprocessable(`The file has ${countOf(errors.length, 'error')}; nothing was imported`, rowErrorDetails(errors));
    }
    const now = new Date().toISOString();
    const rows: Insertable<LocationTable>[] = locations.map((l) => ({
      warehouse_id: file.warehouseId, code: l.code, type: l.type, zone: l.zone, aisle: l.aisle, rack: l.rack, level: l.level, bin: l.bin,
      capacity: l.capacity, description: l.description, is_active: 1, created_at: now, updated_at: now,
    }));
    const codes = locations.map((l) => l.code);
    await this.insertAll(file.warehouseId, rows, actor, { action: 'upload', fileName: file.fileName, codes }, 'upload');
    return { message: `${countOf(rows.length, 'location')} uploaded successfully`, data: { count: rows.length, fileName: file.fileName } };
  }

  /**
   * Inserts a batch in one transaction with one audit row naming every code. The clash check runs inside the
   * transaction; a code taken meanwhile trips the unique key, which rolls the whole batch back as well. One
   * AddLocations event tells the open lists to reload (thousands of rows are not sent over the hub).
   */
  private async insertAll(
    warehouseId: number, rows: Insertable<LocationTable>[], actor: Actor, audit: { action: string; codes: string[]; [k: string]: unknown },
    source: LocationBatch['source'],
  ) {
    const { action, ...after } = audit;
    await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      const clashes = await repo.existingCodes(tx, warehouseId, audit.codes);
      if (clashes.length) {
        throw conflict(`Location code ${clashes[0]} already exists in this warehouse`, `${clashes.length} of the codes already exist: ${clashes.slice(0, PREVIEW_SAMPLE).join(', ')}`);
      }
      await repo.insertMany(tx, rows);
      const batch: LocationBatch = { warehouseId, count: rows.length, firstCode: audit.codes[0], lastCode: audit.codes[audit.codes.length - 1], source };
      await this.recorder.record(uow, actor, {
        audit: { action, entity: 'location', warehouseId, after: { count: rows.length, ...after } },
        events: { target: 'ReceiveLocationData', payload: { subEvent: 'AddLocations', payload: batch }, warehouseId },
      });
    });
  }

  /** The upload template: the header row of the columns UploadLocations reads. */
  template(): Promise<Buffer> {
    return toXlsx('Locations', LOCATION_UPLOAD_COLUMNS.map((header) => ({ header, value: () => null, width: Math.max(14, header.length + 4) })), []);
  }

  async printLabels(principal: Principal, req: PrintLabelsRequest): Promise<Buffer> {
    const warehouse = await this.writableWarehouse(principal, req.warehouseId);
    const selection = req.locationIds ? { locationIds: req.locationIds } : req;
    const rows = await repo.forLabels(this.db, req.warehouseId, selection, MAX_LABELS_PER_PRINT + 1);
    if (rows.length === 0) throw notFound('Locations');
    if (rows.length > MAX_LABELS_PER_PRINT) throw badRequest(`At most ${MAX_LABELS_PER_PRINT} labels per print; narrow the code range or filters`);
    if (req.locationIds && rows.length !== new Set(req.locationIds).size) throw notFound('Location');
    return labelsPdf(rows.map((r) => ({ code: r.code, warehouseName: warehouse.name })), req.labelSize, req.symbology);
  }

  /** The /QRCode screen's image of typed text: a QR code, or a Code 128 (which holds ASCII only). */
  async qrCode(text: string, format: 'png' | 'svg', symbology: CodeSymbology = 'qr'): Promise<{ type: string; body: Buffer | string }> {
    const code128Refused = badRequest('This text cannot be encoded as a Code 128 (printable ASCII only)');
    // bwip-js would take other characters byte by byte, and a scanner would read back something else.
    if (symbology === 'code128' && !/^[\x20-\x7E]+$/.test(text)) throw code128Refused;
    try {
      if (symbology === 'code128') {
        return format === 'svg' ? { type: 'image/svg+xml', body: code128ReadableSvg(text) } : { type: 'image/png', body: await code128ReadablePng(text) };
      }
      return format === 'svg' ? { type: 'image/svg+xml', body: qrSvg(text) } : { type: 'image/png', body: await qrPng(text, 6) };
    } catch {
      throw symbology === 'code128' ? code128Refused : badRequest('This text cannot be encoded as a QR code');
    }
  }
}
