import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { businessDay } from '../../platform/business-day.js';
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

  /**
   * Today's order figures, each warehouse's today in its own zone: open orders due today or late, backorders, and
   * orders shipped today.
   */
  orderToday(db: Executor, d: Dialect, scope: Scope, f: Filter, now: string) {
    const today = d.localDay(sql.lit(now), sql.ref('wh.timezone'));
    // Every zone's today began less than two days ago: the bound keeps shipped history out before the exact zone test.
    const since = new Date(Date.parse(now) - 2 * 864e5).toISOString();
    const open = sql`o.status not in (${sql.join(CLOSED_ORDER_STATUSES.map((s) => sql.lit(s)))})`;
    return db.selectFrom('sales_order as o').innerJoin('warehouse as wh', 'wh.id', 'o.warehouse_id')
      .select([
        sql<number>`coalesce(sum(case when ${open} and o.requested_ship_date = ${today} then 1 else 0 end), 0)`.as('due'),
        sql<number>`coalesce(sum(case when ${open} and o.requested_ship_date < ${today} then 1 else 0 end), 0)`.as('late'),
        sql<number>`coalesce(sum(case when o.status = 'Backordered' then 1 else 0 end), 0)`.as('backordered'),
        sql<number>`coalesce(sum(case when o.status = 'Shipped' and o.shipped_at >= ${since} and ${d.localDay(sql.ref('o.shipped_at'), sql.ref('wh.timezone'))} = ${today} then 1 else 0 end), 0)`.as('shipped'),
      ])
      .where(scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' }, f))
      .where((eb) => eb.or([eb('o.status', 'not in', [...CLOSED_ORDER_STATUSES]), eb('o.shipped_at', '>=', since)]))
      .executeTakeFirstOrThrow();
  },

  /** Units picked today (each warehouse's business day) and the seconds of picking, idle gaps left out. */
  picksToday(db: Executor, d: Dialect, scope: Scope, f: Filter, now: string, idleGap: number) {
    const utcToday = businessDay('UTC', now);
    return db.selectFrom('floor_event as e').innerJoin('warehouse as wh', 'wh.id', 'e.warehouse_id')
      .select([
        sql<number>`coalesce(sum(e.quantity), 0)`.as('units'),
        sql<number>`coalesce(sum(case when e.seconds_since_previous <= ${idleGap} then e.seconds_since_previous else 0 end), 0)`.as('seconds'),
      ])
      .where('e.kind', '=', 'pick')
      // Every zone's today lies within a day of UTC's: the bounds keep the index, the zone test is exact.
      .where('e.business_day', '>=', d.addDays(sql.lit(utcToday), -1)).where('e.business_day', '<=', d.addDays(sql.lit(utcToday), 1))
      .where('e.business_day', '=', d.localDay(sql.lit(now), sql.ref('wh.timezone')))
      .where(scope.where({ warehouse: 'e.warehouse_id', customer: 'e.customer_id' }, f))
      .executeTakeFirstOrThrow();
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
