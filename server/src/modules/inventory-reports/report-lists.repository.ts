import type { SelectQueryBuilder } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import { listAll, listRows, type ListRequest, type ListSpec } from '../../platform/list.js';

const spec = (sortable: Record<string, string>, defaultColumn: string, searchable: string[], tieBreaker: string): ListSpec =>
  ({ sortable, defaultSort: { column: defaultColumn, direction: 'asc' }, searchable, tieBreaker });

/** Each inventory report's list spec, over the columns its query (inventory-reports.repository.ts) names `r`. */
export const REPORT_LISTS = {
  OnHandBySku: spec({ skuCode: 'r.sku_code', customerName: 'r.customer_name', onHand: 'r.on_hand', available: 'r.available' }, 'r.sku_code', ['r.sku_code', 'r.sku_description'], 'r.row_key'),
  OnHandByLocation: spec({ locationCode: 'r.location_code', customerName: 'r.customer_name', onHand: 'r.on_hand' }, 'r.location_code', ['r.location_code'], 'r.row_key'),
  OnHandByLot: spec({ skuCode: 'r.sku_code', lot: 'r.lot', expiryDate: 'r.expiry_date', onHand: 'r.on_hand' }, 'r.sku_code', ['r.sku_code', 'r.lot'], 'r.row_key'),
  OnHandByPallet: spec({ pallet: 'r.pallet', locationCode: 'r.location_code', onHand: 'r.on_hand' }, 'r.pallet', ['r.pallet', 'r.location_code'], 'r.row_key'),
  Availability: spec({ skuCode: 'r.sku_code', onHand: 'r.on_hand', available: 'r.available', expired: 'r.expired' }, 'r.sku_code', ['r.sku_code', 'r.sku_description'], 'r.row_key'),
  // Oldest first: sorting by the received time is sorting by age.
  Aging: spec({ ageDays: 'r.received_at', skuCode: 'r.sku_code', locationCode: 'r.location_code', onHand: 'r.on_hand' }, 'r.received_at', ['r.sku_code', 'r.location_code', 'r.lot', 'r.pallet'], 'r.id'),
  StockAsOf: spec({ skuCode: 'r.sku_code', locationCode: 'r.location_code', onHand: 'r.on_hand' }, 'r.location_code', ['r.sku_code', 'r.location_code', 'r.lot', 'r.pallet'], 'r.row_key'),
  ExpiringLots: spec({ expiryDate: 'r.expiry_date', skuCode: 'r.sku_code', locationCode: 'r.location_code', onHand: 'r.on_hand', customerName: 'r.customer_name' },
    'r.expiry_date', ['r.sku_code', 'r.lot', 'r.location_code', 'r.pallet'], 'r.id'),
} satisfies Record<string, ListSpec>;
export type ReportListName = keyof typeof REPORT_LISTS;

type ReportQuery = SelectQueryBuilder<any, any, {}>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The reports' pages and downloads: a report's query (built for its filters and day) paged with its spec. */
export const reportListRepository = {
  list(dialect: Dialect, name: ReportListName, query: ReportQuery, req: ListRequest<unknown>) {
    return listRows(dialect, query, (q) => q.selectAll(), req, REPORT_LISTS[name]);
  },

  listAll(dialect: Dialect, name: ReportListName, query: ReportQuery, req: Pick<ListRequest<unknown>, 'searchQuery' | 'sort'>) {
    return listAll(dialect, query, (q) => q.selectAll(), req, REPORT_LISTS[name]);
  },
};
