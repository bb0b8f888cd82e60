import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';
import { inventoryRepository, type StockFilters, type StockLead } from './inventory.repository.js';

/**
 * The stock-on-hand list (/Move, the inventory screens): its spec and its one call. Apart from
 * inventory.repository.ts, whose statements are the ledger's, so the list's spec has one home.
 */
export const STOCK_LIST: ListSpec = {
  sortable: {
    skuCode: 's.sku_code', locationCode: 'l.code', onHand: 'b.on_hand', expiryDate: 'b.expiry_date', customerName: 'c.name', warehouseName: 'w.name',
  },
  defaultSort: { column: 'l.code', direction: 'asc' },
  searchable: ['s.sku_code', 's.description', 'l.code', 'b.lot', 'b.pallet'],
  tieBreaker: 'b.id',
};

/** The table to lead the stock list with: the one sorted by, unless a filter already pins the list to one SKU or location. */
export function stockLead(req: ListRequest<StockFilters>, f: StockFilters): StockLead {
  const column = (req.sort && STOCK_LIST.sortable[req.sort.field]) || STOCK_LIST.defaultSort.column;
  if (column === 'l.code' && !f.skuId) return 'location';
  if (column === 's.sku_code' && !f.locationId) return 'sku';
  return 'balance';
}

export const stockListRepository = {
  /** A page of stock places (warehouse, client, SKU, location, lot, pallet) and its total, counted on the balances alone. */
  list(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<StockFilters>) {
    const filters = req.filters ?? {};
    return listRows(dialect, inventoryRepository.stockList(db, scope, filters, stockLead(req, filters)), (q) => q.select([
      'b.id', 'b.warehouse_id', 'w.name as warehouse_name', 'b.customer_id', 'c.name as customer_name', 'b.sku_id', 's.sku_code',
      's.description', 'b.location_id', 'l.code as location_code', 'b.lot', 'b.expiry_date', 'b.pallet', 'b.on_hand', 'b.allocated',
    ]), req, STOCK_LIST, inventoryRepository.stockBalances(db, scope, filters));
  },
};
