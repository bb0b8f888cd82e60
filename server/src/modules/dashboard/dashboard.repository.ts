import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Scope } from '../../platform/scope.js';
import type { OrderStatus, ReceivingStatus } from '@bolx/contracts';
import { positionCounts } from '../locations/position-counts.js';

type Filter = { warehouseId: number; customerId: number };

/** RO statuses (modules/receiving) that count as an open receipt on the dashboard. */
export const OPEN_RO_STATUSES = ['Open', 'Receiving', 'Received'] as const satisfies readonly ReceivingStatus[];

/** Order statuses (modules/orders) that no longer count as open: shipped, or cancelled. */
export const CLOSED_ORDER_STATUSES = ['Shipped', 'Cancelled'] as const satisfies readonly OrderStatus[];

export const dashboardRepository = {
  stockTotals(db: Executor, scope: Scope, f: Filter) {
    return db.selectFrom('inventory_balance as b')
      .select([
        sql<number>`coalesce(sum(b.on_hand), 0)`.as('units'),
      ])
      .where(scope.where({ warehouse: 'b.warehouse_id', customer: 'b.customer_id' }, f))
      .executeTakeFirstOrThrow();
  },

  skuCount(db: Executor, scope: Scope, f: Filter) {
    let q = db.selectFrom('sku as s').select(sql<number>`count(*)`.as('n')).where('s.is_active', '=', 1)
      .where(scope.where({ customer: 's.customer_id' }, { customerId: f.customerId }));
    if (f.warehouseId) {
      q = q.where((eb) => eb.exists(eb.selectFrom('customer_warehouse as cw').select('cw.customer_id')
        .whereRef('cw.customer_id', '=', 's.customer_id').where('cw.warehouse_id', '=', f.warehouseId)));
    }
    return q.executeTakeFirstOrThrow().then((r) => Number(r.n));
  },

  /** Per warehouse of the filter: storage positions, and those holding the filter's stock (occupancy's one rule: positionCounts). */
  locationOccupancy(db: Executor, scope: Scope, f: Filter) {
    return db.selectFrom('warehouse as w')
      .where(scope.where({ warehouse: 'w.id' }, { warehouseId: f.warehouseId }))
      .select((eb) => {
        const counts = positionCounts(db, eb.ref('w.id'), { scope, customerId: f.customerId });
        return [counts.total.as('total'), counts.used.as('used')];
      })
      .execute();
  },

  /** Receiving orders still to be worked: not yet closed or cancelled. */
  openReceiptCount(db: Executor, scope: Scope, f: Filter) {
    return db.selectFrom('receiving_order as o').select(sql<number>`count(*)`.as('n'))
      .where('o.status', 'in', [...OPEN_RO_STATUSES])
      .where(scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' }, f))
      .executeTakeFirstOrThrow().then((r) => Number(r.n));
  },

  /** Outbound orders still to be shipped: every status but Shipped and Cancelled. */
  openOrderCount(db: Executor, scope: Scope, f: Filter) {
    return db.selectFrom('sales_order as o').select(sql<number>`count(*)`.as('n'))
      .where('o.status', 'not in', [...CLOSED_ORDER_STATUSES])
      .where(scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' }, f))
      .executeTakeFirstOrThrow().then((r) => Number(r.n));
  },

  stockByWarehouse(db: Executor, scope: Scope, f: Filter) {
    return db.selectFrom('inventory_balance as b').innerJoin('warehouse as w', 'w.id', 'b.warehouse_id')
      .select(['w.name as warehouseName', sql<number>`sum(b.on_hand)`.as('units')])
      .where(scope.where({ warehouse: 'b.warehouse_id', customer: 'b.customer_id' }, f))
      .groupBy('w.name').orderBy('w.name').execute();
  },

  stockByCustomer(db: Executor, scope: Scope, f: Filter) {
    return db.selectFrom('inventory_balance as b').innerJoin('customer as c', 'c.id', 'b.customer_id')
      .select(['c.name as customerName', sql<number>`sum(b.on_hand)`.as('units')])
      .where(scope.where({ warehouse: 'b.warehouse_id', customer: 'b.customer_id' }, f))
      .groupBy('c.name').orderBy('c.name').execute();
  },
};
