import { sql } from 'kysely';
import type { SHORT_REASONS } from '@bolx/contracts';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

export interface BackorderFilters {
  warehouseId?: number;
  customerId?: number;
  skuId?: number;
  shortReason?: (typeof SHORT_REASONS)[number];
}

export const BACKORDER_LIST: ListSpec = {
  sortable: {
    soNumber: 'o.so_number', referenceNumber: 'o.reference_number', priority: 'o.priority', orderDate: 'o.order_date', status: 'o.status',
    skuCode: 's.sku_code', customerName: 'c.name', warehouseName: 'w.name', waitingSince: 'waiting_since', ageDays: 'waiting_since',
    quantity: 'l.quantity', allocatedQuantity: 'l.allocated_qty', shortReason: 'l.short_reason',
  },
  // Most urgent first, then the longest waiting (the order taken in first).
  defaultSort: { column: 'o.priority', direction: 'asc' },
  searchable: ['o.so_number', 'o.reference_number', 's.sku_code'],
  tieBreaker: 'l.id',
};

/** The lines waiting for stock: short lines of Backordered and Partially Allocated orders, in the caller's scope. */
function waitingLines(db: Executor, scope: Scope, f: BackorderFilters) {
  let q = db.selectFrom('sales_order_line as l')
    .innerJoin('sales_order as o', 'o.id', 'l.order_id')
    .innerJoin('sku as s', 's.id', 'l.sku_id')
    .innerJoin('warehouse as w', 'w.id', 'o.warehouse_id')
    .innerJoin('customer as c', 'c.id', 'o.customer_id')
    .where(scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' }, { warehouseId: f.warehouseId, customerId: f.customerId }))
    .where('o.status', 'in', ['Backordered', 'Partially Allocated'])
    .where(sql<boolean>`l.allocated_qty < l.quantity`);
  if (f.skuId) q = q.where('l.sku_id', '=', f.skuId);
  if (f.shortReason) q = q.where('l.short_reason', '=', f.shortReason);
  return q;
}

/**
 * A waiting line's columns. waiting_since: the order's move into its status (the status history), so an order
 * that went Backordered → Partially Allocated counts from the later move. free_now: the SKU's free stock in the
 * order's warehouse that allocation could take today — active pickable locations, unexpired, no open hold on the
 * location or the balance (the stock engine's own candidates say the same).
 */
function lineColumns(today: string) {
  return (q: ReturnType<typeof waitingLines>) => q.select([
    'l.id', 'l.order_id', 'o.so_number', 'o.reference_number', 'o.status', 'o.warehouse_id', 'w.name as warehouse_name', 'o.customer_id',
    'c.name as customer_name', 'l.sku_id', 's.sku_code', 's.description', 'o.priority', 'o.order_date', 'l.quantity', 'l.allocated_qty', 'l.short_reason',
    sql<string>`coalesce((select max(h.at) from document_status_history h
      where h.kind = 'SALES_ORDER' and h.document_id = o.id and h.to_status = o.status), o.updated_at)`.as('waiting_since'),
    sql<number>`(select coalesce(sum(b.on_hand - b.allocated), 0) from inventory_balance b
      inner join location bl on bl.id = b.location_id
      where b.warehouse_id = o.warehouse_id and b.customer_id = o.customer_id and b.sku_id = l.sku_id
        and b.on_hand > b.allocated and bl.is_active = 1 and bl.is_pickable = 1
        and (b.expiry_date is null or b.expiry_date >= ${today})
        and not exists (select 1 from stock_hold sh where sh.is_open = 1 and sh.warehouse_id = b.warehouse_id
          and (sh.balance_id = b.id or (sh.location_id = b.location_id and (sh.customer_id is null or sh.customer_id = b.customer_id)))))`.as('free_now'),
  ]);
}

export type BackorderRow = Awaited<ReturnType<ReturnType<ReturnType<typeof lineColumns>>['executeTakeFirstOrThrow']>>;

export const backorderRepository = {
  list(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<BackorderFilters>, today: string) {
    return listRows(dialect, waitingLines(db, scope, req.filters ?? {}), lineColumns(today), req, BACKORDER_LIST);
  },
};
