import type { SelectQueryBuilder } from 'kysely';
import { AGING_BUCKETS } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { toXlsx, type ExcelColumn } from '../../platform/excel.js';
import { businessDay } from '../../platform/business-day.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import type { Scope } from '../../platform/scope.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { inventoryReportRepository as repo, type ReportFilter } from './inventory-reports.repository.js';
import { reportListRepository as reportLists } from './report-lists.repository.js';

/** Filters every report takes, plus the few that only some use. */
export type ReportFilters = ReportFilter & { days?: number; includeExpired?: boolean; asOf?: string };
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
/** `now` is one instant for the whole report; each row's business day is taken in its own warehouse's zone. */
interface Ctx { now: string; dialect: Dialect; filters: ReportFilters }

interface ReportDef {
  sheet: string;
  base(db: Db, scope: Scope, ctx: Ctx): SelectQueryBuilder<any, any, {}> | Promise<SelectQueryBuilder<any, any, {}>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  map(row: Row, ctx: Ctx): Row;
  columns: ExcelColumn<Row>[];
}

const DAY = 864e5;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to.slice(0, 10)) - Date.parse(from.slice(0, 10))) / DAY);
const n = (v: unknown) => Number(v ?? 0);
const agingBucket = (days: number) => (days <= 30 ? AGING_BUCKETS[0] : days <= 60 ? AGING_BUCKETS[1] : days <= 90 ? AGING_BUCKETS[2] : days <= 180 ? AGING_BUCKETS[3] : AGING_BUCKETS[4]);
/** Ledger rows counted on each side of an as-of date, to choose the cheaper way (counting stops here). */
const AS_OF_COUNT_CAP = 200_000;

const names = (r: Row) => ({ warehouseId: r.warehouse_id, warehouseName: r.warehouse_name, customerId: r.customer_id, customerName: r.customer_name });
const totals = (r: Row) => ({ onHand: n(r.on_hand), allocated: n(r.allocated), available: n(r.on_hand) - n(r.allocated) });
const common: ExcelColumn<Row>[] = [{ header: 'Warehouse', value: (r) => r.warehouseName, width: 20 }, { header: 'Client', value: (r) => r.customerName, width: 24 }];
const qtyColumns: ExcelColumn<Row>[] = [
  { header: 'On Hand', value: (r) => r.onHand }, { header: 'Allocated', value: (r) => r.allocated }, { header: 'Available', value: (r) => r.available },
];

/** Every inventory report: its query, item shape and workbook columns (its list spec: report-lists.repository.ts). */
export const REPORTS = {
  OnHandBySku: {
    sheet: 'On Hand by SKU',
    base: (db, scope, ctx) => repo.onHandBySku(db, scope, ctx.filters),
    map: (r) => ({ ...names(r), skuId: r.sku_id, skuCode: r.sku_code, skuDescription: r.sku_description, locationCount: n(r.location_count), ...totals(r) }),
    columns: [...common, { header: 'SKU', value: (r) => r.skuCode }, { header: 'Description', value: (r) => r.skuDescription, width: 30 }, { header: 'Locations', value: (r) => r.locationCount }, ...qtyColumns],
  },
  OnHandByLocation: {
    sheet: 'On Hand by Location',
    base: (db, scope, ctx) => repo.onHandByLocation(db, scope, ctx.filters),
    map: (r) => ({ ...names(r), locationId: r.location_id, locationCode: r.location_code, locationType: r.location_type, skuCount: n(r.sku_count), ...totals(r) }),
    columns: [...common, { header: 'Location', value: (r) => r.locationCode }, { header: 'Type', value: (r) => r.locationType }, { header: 'SKUs', value: (r) => r.skuCount }, ...qtyColumns],
  },
  OnHandByLot: {
    sheet: 'On Hand by Lot',
    base: (db, scope, ctx) => repo.onHandByLot(db, scope, ctx.filters),
    map: (r) => ({ ...names(r), skuId: r.sku_id, skuCode: r.sku_code, lot: r.lot, expiryDate: r.expiry_date, locationCount: n(r.location_count), ...totals(r) }),
    columns: [...common, { header: 'SKU', value: (r) => r.skuCode }, { header: 'Lot', value: (r) => r.lot }, { header: 'Expiry', value: (r) => r.expiryDate }, { header: 'Locations', value: (r) => r.locationCount }, ...qtyColumns],
  },
  OnHandByPallet: {
    sheet: 'On Hand by Pallet',
    base: (db, scope, ctx) => repo.onHandByPallet(db, scope, ctx.filters),
    map: (r) => ({ ...names(r), pallet: r.pallet, locationId: r.location_id, locationCode: r.location_code, skuCount: n(r.sku_count), onHand: n(r.on_hand), allocated: n(r.allocated) }),
    columns: [...common, { header: 'Pallet', value: (r) => r.pallet }, { header: 'Location', value: (r) => r.locationCode }, { header: 'SKUs', value: (r) => r.skuCount },
      { header: 'On Hand', value: (r) => r.onHand }, { header: 'Allocated', value: (r) => r.allocated }],
  },
  Availability: {
    sheet: 'Availability',
    base: (db, scope, ctx) => repo.availability(db, scope, ctx.filters, ctx.dialect, ctx.now),
    map: (r) => ({ ...names(r), skuId: r.sku_id, skuCode: r.sku_code, skuDescription: r.sku_description, ...totals(r), expired: n(r.expired), allocatable: n(r.on_hand) - n(r.allocated) - n(r.expired) }),
    columns: [...common, { header: 'SKU', value: (r) => r.skuCode }, { header: 'Description', value: (r) => r.skuDescription, width: 30 }, ...qtyColumns,
      { header: 'Expired', value: (r) => r.expired }, { header: 'Allocatable', value: (r) => r.allocatable }],
  },
  Aging: {
    sheet: 'Aging',
    base: (db, scope, ctx) => repo.places(db, scope, ctx.filters),
    map: (r, ctx) => {
      const ageDays = r.received_at ? Math.max(0, daysBetween(businessDay(r.timezone, r.received_at), businessDay(r.timezone, ctx.now))) : 0;
      return {
        uniqueid: r.id, ...names(r), skuId: r.sku_id, skuCode: r.sku_code, locationId: r.location_id, locationCode: r.location_code, lot: r.lot, pallet: r.pallet,
        receivedAt: r.received_at, ageDays, bucket: agingBucket(ageDays), onHand: n(r.on_hand),
      };
    },
    columns: [...common, { header: 'SKU', value: (r) => r.skuCode }, { header: 'Location', value: (r) => r.locationCode }, { header: 'Lot', value: (r) => r.lot },
      { header: 'Pallet', value: (r) => r.pallet }, { header: 'Received', value: (r) => r.receivedAt, width: 24 }, { header: 'Age (days)', value: (r) => r.ageDays },
      { header: 'Bucket', value: (r) => r.bucket }, { header: 'On Hand', value: (r) => r.onHand }],
  },
  StockAsOf: {
    sheet: 'Stock As Of',
    base: async (db, scope, ctx) => {
      // A date means the end of that business day in each warehouse's zone (an instant is taken as it is).
      const asOf = ctx.filters.asOf!;
      // Sum whichever side of the date holds fewer ledger rows: recent dates go back from today's balances.
      const backward = await repo.fewerAfter(db, scope, ctx.filters, asOf, AS_OF_COUNT_CAP, ctx.dialect);
      return repo.asOf(db, scope, ctx.filters, asOf, backward ? 'backward' : 'forward', ctx.dialect);
    },
    map: (r) => ({ ...names(r), skuId: r.sku_id, skuCode: r.sku_code, locationId: r.location_id, locationCode: r.location_code, lot: r.lot, pallet: r.pallet, onHand: n(r.on_hand) }),
    columns: [...common, { header: 'SKU', value: (r) => r.skuCode }, { header: 'Location', value: (r) => r.locationCode }, { header: 'Lot', value: (r) => r.lot },
      { header: 'Pallet', value: (r) => r.pallet }, { header: 'On Hand', value: (r) => r.onHand }],
  },
  ExpiringLots: {
    sheet: 'Expiring Lots',
    base: (db, scope, ctx) => repo.places(db, scope, ctx.filters, {
      d: ctx.dialect, now: ctx.now, days: ctx.filters.days ?? 30, includeExpired: ctx.filters.includeExpired !== false,
    }),
    map: (r, ctx) => {
      const daysToExpiry = daysBetween(businessDay(r.timezone, ctx.now), r.expiry_date);
      return {
        uniqueid: r.id, ...names(r), skuId: r.sku_id, skuCode: r.sku_code, skuDescription: r.sku_description, locationId: r.location_id, locationCode: r.location_code,
        lot: r.lot, pallet: r.pallet, expiryDate: r.expiry_date, daysToExpiry, status: daysToExpiry < 0 ? 'Expired' : 'Expiring', onHand: n(r.on_hand), allocated: n(r.allocated),
      };
    },
    columns: [...common, { header: 'SKU', value: (r) => r.skuCode }, { header: 'Lot', value: (r) => r.lot }, { header: 'Expiry', value: (r) => r.expiryDate },
      { header: 'Days to Expiry', value: (r) => r.daysToExpiry }, { header: 'Status', value: (r) => r.status }, { header: 'Location', value: (r) => r.locationCode },
      { header: 'Pallet', value: (r) => r.pallet }, { header: 'On Hand', value: (r) => r.onHand }, { header: 'Allocated', value: (r) => r.allocated }],
  },
} satisfies Record<string, ReportDef>;
export type ReportName = keyof typeof REPORTS;

/** The inventory reports: on hand by SKU, location, lot and pallet; availability; aging; stock as of a date; expiry. */
export class InventoryReportService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect'>) {
    this.db = deps.db;
    this.dialect = deps.dialect;
  }

  private ctx(filters: ReportFilters | undefined): Ctx {
    return { now: new Date().toISOString(), dialect: this.dialect, filters: filters ?? {} };
  }

  async list(name: ReportName, principal: Principal, req: ListRequest<ReportFilters>) {
    const def: ReportDef = REPORTS[name];
    const ctx = this.ctx(req.filters);
    return toListPage(await reportLists.list(this.dialect, name, await def.base(this.db, principal.scope, ctx), req), (r: Row) => def.map(r, ctx));
  }

  async download(name: ReportName, principal: Principal, req: Pick<ListRequest<ReportFilters>, 'filters' | 'searchQuery' | 'sort'>) {
    return toXlsx(REPORTS[name].sheet, (REPORTS[name] as ReportDef).columns, await this.rows(name, principal.scope, req));
  }

  /**
   * Every row of a report (up to the export limit) in its list's order, shaped as its list shows them: what a
   * download writes, and what the report screens (/InventoryReports) build their tables, totals and charts from.
   */
  async rows(name: ReportName, scope: Scope, req: Pick<ListRequest<ReportFilters>, 'filters' | 'searchQuery' | 'sort'>): Promise<Row[]> {
    const def: ReportDef = REPORTS[name];
    const ctx = this.ctx(req.filters);
    const rows = (await reportLists.listAll(this.dialect, name, await def.base(this.db, scope, ctx), req)) as Row[];
    return rows.map((r) => def.map(r, ctx));
  }
}
