import type { ReceivingOrderFilters } from '@bolx/contracts';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { listAll, listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';
import { receivingRepository } from './receiving.repository.js';

/**
 * The receiving lists (the RO report, its lines, the inward log): their specs, columns and calls, each answering
 * {rows, total}. Beside receiving.repository.ts, whose queries they page.
 */
export const ORDER_LIST: ListSpec = {
  sortable: {
    roNumber: 'o.ro_number', supplier: 'o.supplier', expectedDeliveryDate: 'o.expected_date', status: 'o.status', createdAt: 'o.created_at',
    customerName: 'c.name', warehouseName: 'w.name', referenceNumber: 'o.reference_number',
  },
  defaultSort: { column: 'o.id', direction: 'desc' },
  searchable: ['o.ro_number', 'o.supplier', 'o.reference_number', 'c.name'],
  tieBreaker: 'o.id',
};
export const DETAIL_LIST: ListSpec = {
  sortable: { roNumber: 'o.ro_number', skuCode: 's.sku_code', expectedDeliveryDate: 'o.expected_date', supplier: 'o.supplier', status: 'o.status' },
  defaultSort: { column: 'o.id', direction: 'desc' },
  searchable: ['o.ro_number', 'o.supplier', 's.sku_code', 's.description'],
  tieBreaker: 'li.id',
};
export const INWARD_LIST: ListSpec = {
  sortable: { receivedAt: 'r.at', roNumber: 'o.ro_number', skuCode: 's.sku_code', locationCode: 'l.code', lot: 'r.lot', expiryDate: 'r.expiry_date' },
  defaultSort: { column: 'r.at', direction: 'desc' },
  searchable: ['o.ro_number', 'o.supplier', 's.sku_code', 'r.lot', 'r.pallet', 'r.carton', 'l.code'],
  tieBreaker: 'r.id',
};

type ListBody = ListRequest<ReceivingOrderFilters>;
type DownloadBody = Pick<ListBody, 'filters' | 'searchQuery' | 'sort'>;

export const receivingListRepository = {
  /** A page of receiving orders with their line totals, and its total (the RO report). */
  listOrders(db: Executor, dialect: Dialect, scope: Scope, req: ListBody) {
    return listRows(dialect, receivingRepository.orders(db, scope, req.filters ?? {}), receivingRepository.orderColumns, req, ORDER_LIST);
  },

  listAllOrders(db: Executor, dialect: Dialect, scope: Scope, req: DownloadBody) {
    return listAll(dialect, receivingRepository.orders(db, scope, req.filters ?? {}), receivingRepository.orderColumns, req, ORDER_LIST);
  },

  /** A page of RO lines with their order and SKU, and its total (the RO report details). */
  listLines(db: Executor, dialect: Dialect, scope: Scope, req: ListBody) {
    return listRows(dialect, receivingRepository.lineReport(db, scope, req.filters ?? {}), detailColumns, req, DETAIL_LIST);
  },

  listAllLines(db: Executor, dialect: Dialect, scope: Scope, req: DownloadBody) {
    return listAll(dialect, receivingRepository.lineReport(db, scope, req.filters ?? {}), detailColumns, req, DETAIL_LIST);
  },

  /** A page of receipts (the inward log), and its total. */
  listReceipts(db: Executor, dialect: Dialect, scope: Scope, req: ListBody) {
    return listRows(dialect, receivingRepository.receiptReport(db, scope, req.filters ?? {}, dialect), inwardColumns, req, INWARD_LIST);
  },

  listAllReceipts(db: Executor, dialect: Dialect, scope: Scope, req: DownloadBody) {
    return listAll(dialect, receivingRepository.receiptReport(db, scope, req.filters ?? {}, dialect), inwardColumns, req, INWARD_LIST);
  },
};

/** A report line's columns: the RO line with its order and SKU. */
const detailColumns = <Q extends ReturnType<typeof receivingRepository.lineReport>>(q: Q) => q.selectAll('li').select([
  'o.ro_number', 'o.supplier', 'o.expected_date', 'o.status', 'w.name as warehouse_name', 'c.name as customer_name',
  's.sku_code', 's.description', 's.is_lot_tracked', 's.is_expiry_tracked',
]);
export type DetailRow = Awaited<ReturnType<ReturnType<typeof detailColumns>['execute']>>[number];

/** An inward log row's columns: the receipt with its order, SKU and locations. */
const inwardColumns = <Q extends ReturnType<typeof receivingRepository.receiptReport>>(q: Q) => q.selectAll('r').select([
  'o.ro_number', 'o.supplier', 'w.name as warehouse_name', 'c.name as customer_name', 's.sku_code', 's.description',
  'l.code as location_code', 'dl.code as damaged_location_code',
]);
export type InwardRow = Awaited<ReturnType<ReturnType<typeof inwardColumns>['execute']>>[number];
