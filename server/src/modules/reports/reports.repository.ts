import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { LABOUR_IDLE_GAP_SECONDS, ORDER_TYPES_SHIPPED } from '@bolx/contracts';
import type { DB, Executor } from '../../db/schema.js';
import type { FloorEventTable } from '../../db/tables/floor.js';
import type { ReportFloorDayTable } from '../../db/tables/reports.js';
import { FLOOR_DAY_KEY, FLOOR_ROLLUP, floorDayDelta, markOf } from './report-rollups.js';
import type { Dialect } from '../../db/dialect.js';
import { addDays, dayInAnyZone } from '../../platform/business-day.js';
import type { Scope } from '../../platform/scope.js';

/** What every query of a report is held to: the caller's scope, the header's warehouse/client, the business days. */
export interface ReportWhere {
  scope: Scope; warehouseId?: number; customerId?: number; from: string; to: string; userId?: number; kind?: string;
  /** The warehouses' time zones the rows may be in: SQLite then computes their local days natively (Dialect.localDay). */
  zones?: readonly string[];
}

/** Index-friendly instant bounds around the business days (any zone), beside the exact per-zone day test. */
const instants = (w: ReportWhere) => ({ lo: dayInAnyZone(w.from).from, hi: dayInAnyZone(w.to).until });
/** The local day of an instant column in its warehouse's zone (alias wh), for rows within the report's instants. */
const localDay = (d: Dialect, w: ReportWhere, column: string) => {
  const { lo, hi } = instants(w);
  return d.localDay(sql.ref(column), sql.ref('wh.timezone'), w.zones ? { zones: w.zones, from: lo, until: hi } : undefined);
};
/**
 * Whether an instant column falls on the report's business days in its warehouse's zone. The instants well inside
 * the range (on a day of it in every zone) pass by their time alone: the local day is computed only for the rows
 * at the range's two ends, not for a year of rows.
 */
const withinDays = (d: Dialect, w: ReportWhere, column: string) => {
  const surelyFrom = dayInAnyZone(addDays(w.from, -1)).until;
  const surelyUntil = dayInAnyZone(addDays(w.to, 1)).from;
  const dayExpr = localDay(d, w, column);
  return sql<SqlBool>`((${sql.ref(column)} >= ${surelyFrom} AND ${sql.ref(column)} < ${surelyUntil}) OR (${dayExpr} >= ${w.from} AND ${dayExpr} <= ${w.to}))`;
};
const orderScope = (w: ReportWhere): Expression<SqlBool> =>
  w.scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' }, { warehouseId: w.warehouseId, customerId: w.customerId });

/**
 * The orders shipped within the days (x: document_id, shipped_at — the last time it turned Shipped) with the order,
 * its warehouse, client and carrier account. The last shipping of each order first, grouped by the order alone: a
 * local day is monotonic in time, so the day of the last instant is the last day. Grouped by an expression, not the
 * column: SQLite would read the (kind, document) index for its order, that is every order's history whatever the range.
 */
function shippedWithNames(db: Executor, d: Dialect, w: ReportWhere) {
  const { lo, hi } = instants(w);
  const orderOf = sql<number>`h.document_id + 0`;
  const last = db.selectFrom('document_status_history as h')
    .innerJoin('sales_order as o', 'o.id', 'h.document_id').innerJoin('warehouse as wh', 'wh.id', 'o.warehouse_id')
    .select([orderOf.as('document_id'), sql<string>`max(h.at)`.as('shipped_at')])
    .where('h.kind', '=', 'SALES_ORDER').where('h.to_status', '=', 'Shipped').where('h.at', '>=', lo).where('h.at', '<', hi)
    .where(orderScope(w)).where(withinDays(d, w, 'h.at'))
    .groupBy(orderOf);
  return db.selectFrom(last.as('x'))
    .innerJoin('sales_order as o', 'o.id', 'x.document_id').innerJoin('warehouse as wh', 'wh.id', 'o.warehouse_id')
    .innerJoin('customer as c', 'c.id', 'o.customer_id')
    .leftJoin('customer_integration as ci', 'ci.id', 'o.carrier_account_id');
}

/** The key an order-profile or on-time row groups by. */
export type OrderGroupKey = 'customer' | 'carrier' | 'service' | 'day';

export const reportRepository = {
  /** Orders received (created) per business day of their warehouse. */
  ordersReceivedPerDay(db: Executor, d: Dialect, w: ReportWhere) {
    return reportRepository.ordersReceivedPerDayQuery(db, d, w).execute();
  },
  ordersReceivedPerDayQuery(db: Executor, d: Dialect, w: ReportWhere) {
    const { lo, hi } = instants(w);
    const dayExpr = localDay(d, w, 'o.created_at');
    return db.selectFrom('sales_order as o').innerJoin('warehouse as wh', 'wh.id', 'o.warehouse_id')
      .select([dayExpr.as('day'), sql<number>`count(*)`.as('n')])
      .where(orderScope(w)).where('o.order_type', 'in', ORDER_TYPES_SHIPPED)
      .where('o.created_at', '>=', lo).where('o.created_at', '<', hi).where(withinDays(d, w, 'o.created_at'))
      .groupBy(dayExpr);
  },

  /** Orders that reached a status (Released: processed; Shipped) per business day, each order once a day. */
  ordersReachingPerDay(db: Executor, d: Dialect, w: ReportWhere, status: 'Released' | 'Shipped') {
    return reportRepository.ordersReachingPerDayQuery(db, d, w, status).execute();
  },
  ordersReachingPerDayQuery(db: Executor, d: Dialect, w: ReportWhere, status: 'Released' | 'Shipped') {
    const { lo, hi } = instants(w);
    const dayExpr = localDay(d, w, 'h.at');
    return db.selectFrom('document_status_history as h')
      .innerJoin('sales_order as o', 'o.id', 'h.document_id').innerJoin('warehouse as wh', 'wh.id', 'o.warehouse_id')
      .select([dayExpr.as('day'), sql<number>`count(distinct h.document_id)`.as('n')])
      .where('h.kind', '=', 'SALES_ORDER').where('h.to_status', '=', status).where('h.at', '>=', lo).where('h.at', '<', hi)
      .where(orderScope(w)).where(withinDays(d, w, 'h.at'))
      .groupBy(dayExpr);
  },

  /**
   * Each order shipped within the days: milliseconds from received to its last shipping, as Date.parse takes them
   * apart (whole milliseconds of each instant). One number an order, not its row: the fulfilment time distribution.
   */
  fulfilmentMs(db: Executor, d: Dialect, w: ReportWhere) {
    return reportRepository.fulfilmentMsQuery(db, d, w).execute();
  },
  fulfilmentMsQuery(db: Executor, d: Dialect, w: ReportWhere) {
    const ms = d.engine === 'postgres'
      ? sql<number>`floor(extract(epoch from x.shipped_at) * 1000) - floor(extract(epoch from o.created_at) * 1000)`
      // julianday keeps the milliseconds; its rounding error is far below one, so the rounded difference is exact.
      : sql<number>`CAST(round((julianday(x.shipped_at) - julianday(o.created_at)) * 86400000) AS INTEGER)`;
    return shippedWithNames(db, d, w).select(ms.as('ms'));
  },
  /**
   * The orders shipped within the days per group (client, carrier, service or ship day): shipped, with a requested
   * ship date, and shipped on or before it (the warehouse's business days compared as text).
   */
  onTimeGroups(db: Executor, d: Dialect, w: ReportWhere, group: OrderGroupKey) {
    return reportRepository.onTimeGroupsQuery(db, d, w, group).execute();
  },
  onTimeGroupsQuery(db: Executor, d: Dialect, w: ReportWhere, group: OrderGroupKey) {
    const shipDay = localDay(d, w, 'x.shipped_at');
    const key = group === 'customer' ? sql<string>`c.name` : group === 'carrier' ? sql<string>`coalesce(ci.account_name, '(none)')`
      : group === 'service' ? sql<string>`coalesce(o.carrier_service, '(none)')` : shipDay;
    const dated = sql<SqlBool>`o.requested_ship_date IS NOT NULL AND o.requested_ship_date <> ''`;
    return shippedWithNames(db, d, w)
      .select([
        key.as('group_key'), sql<number>`count(*)`.as('shipped'), sql<number>`sum(case when ${dated} then 1 else 0 end)`.as('dated'),
        sql<number>`sum(case when ${dated} and ${shipDay} <= o.requested_ship_date then 1 else 0 end)`.as('on_time'),
      ])
      .groupBy(key);
  },

  /** Orders received within the days, grouped: orders, lines, units, and how many were ever backordered. */
  orderProfile(db: Executor, d: Dialect, w: ReportWhere, group: OrderGroupKey) {
    return reportRepository.orderProfileQuery(db, d, w, group).execute();
  },
  orderProfileQuery(db: Executor, d: Dialect, w: ReportWhere, group: OrderGroupKey) {
    const { lo, hi } = instants(w);
    const key = group === 'customer' ? sql<string>`c.name` : group === 'carrier' ? sql<string>`coalesce(ci.account_name, '(none)')`
      : group === 'service' ? sql<string>`coalesce(o.carrier_service, '(none)')` : localDay(d, w, 'o.created_at');
    // Each order in range once with its lines (through their (order, line) key) and whether it was ever backordered,
    // then the groups: no distinct counts over every line. The orders ever backordered are joined as a set, not
    // tested an order at a time: PostgreSQL prices that test per line and compiles the statement (JIT) for longer
    // than it runs.
    const everBackordered = db.selectFrom('document_status_history as bh').select('bh.document_id').distinct()
      .where('bh.kind', '=', 'SALES_ORDER').where('bh.to_status', '=', 'Backordered');
    const perOrder = db.selectFrom('sales_order as o').innerJoin('warehouse as wh', 'wh.id', 'o.warehouse_id')
      .innerJoin('customer as c', 'c.id', 'o.customer_id')
      .leftJoin('customer_integration as ci', 'ci.id', 'o.carrier_account_id')
      .leftJoin('sales_order_line as l', 'l.order_id', 'o.id')
      .leftJoin(everBackordered.as('bo'), 'bo.document_id', 'o.id')
      .select([
        key.as('group_key'), sql<number>`count(l.id)`.as('lines'), sql<number | null>`sum(l.quantity)`.as('units'),
        sql<number>`case when o.status = 'Backordered' or max(bo.document_id) is not null then 1 else 0 end`.as('backordered'),
      ])
      .where(orderScope(w)).where('o.order_type', 'in', ORDER_TYPES_SHIPPED)
      .where('o.created_at', '>=', lo).where('o.created_at', '<', hi).where(withinDays(d, w, 'o.created_at'))
      .groupBy(['o.id', key]);
    return db.selectFrom(perOrder.as('x'))
      .select([
        'x.group_key', sql<number>`count(*)`.as('orders'), sql<number>`sum(x.lines)`.as('lines'), sql<number>`coalesce(sum(x.units), 0)`.as('units'),
        sql<number>`sum(x.backordered)`.as('backordered'),
      ])
      .groupBy('x.group_key');
  },

  /**
   * The activity log's steps within the days, summed per user, task type and bucket (business day, or UTC hour
   * whose local label the service takes): steps, units, distinct order lines, and seconds of work (a gap to the
   * user's previous step up to `idleGap` counts as work on this step; a longer one is idle).
   */
  floorWork(db: Executor, d: Dialect, w: ReportWhere, idleGap: number, byHour: boolean) {
    // Per day (at the labour idle gap the sums hold): the daily sums and the events after their mark.
    return byHour || idleGap !== LABOUR_IDLE_GAP_SECONDS ? reportRepository.floorWorkQuery(db, w, idleGap, byHour).execute() : reportRepository.floorDaysQuery(db, d, w).execute();
  },
  /**
   * The activity log per user, task type, warehouse and business day from report_floor_day and the events after
   * its mark, in one statement (one snapshot: a rollup run between two reads would count events twice).
   */
  floorDaysQuery(db: Executor, d: Dialect, w: ReportWhere) {
    const filtered = <Q extends SelectQueryBuilder<DB & { e: ReportFloorDayTable | FloorEventTable }, 'e', object>>(q: Q): Q => {
      let out = q.where(w.scope.where({ warehouse: 'e.warehouse_id', customer: 'e.customer_id' }, { warehouseId: w.warehouseId, customerId: w.customerId }))
        .where('e.business_day', '>=', w.from).where('e.business_day', '<=', w.to);
      if (w.userId) out = out.where('e.user_id', '=', w.userId);
      if (w.kind) out = out.where('e.kind', '=', w.kind);
      return out as Q;
    };
    const stored = filtered(db.selectFrom('report_floor_day as e')
      .select(['e.warehouse_id', 'e.customer_id', 'e.user_id', 'e.kind', 'e.business_day', sql<number>`e.steps`.as('steps'), sql<number>`e.units`.as('units'),
        sql<number>`e.lines`.as('lines'), sql<number>`e.seconds`.as('seconds')]));
    const delta = filtered(floorDayDelta(db, d, markOf(FLOOR_ROLLUP), null, true)).groupBy([...FLOOR_DAY_KEY]);
    return db.selectFrom(stored.unionAll(delta).as('x')).leftJoin('app_user as u', 'u.id', 'x.user_id')
      .select([
        'x.user_id', 'u.username', 'x.kind', 'x.warehouse_id', sql<string>`x.business_day`.as('bucket'), sql<number>`SUM(x.steps)`.as('steps'),
        sql<number>`SUM(x.units)`.as('units'), sql<number>`SUM(x.lines)`.as('lines'), sql<number>`SUM(x.seconds)`.as('seconds'),
      ])
      .groupBy(['x.user_id', 'u.username', 'x.kind', 'x.warehouse_id', 'x.business_day']);
  },
  /** The activity log's steps straight from the events (by UTC hour, or at another idle gap). */
  floorWorkQuery(db: Executor, w: ReportWhere, idleGap: number, byHour: boolean) {
    let q = db.selectFrom('floor_event as e').leftJoin('app_user as u', 'u.id', 'e.user_id')
      .select([
        'e.user_id', 'u.username', 'e.kind', 'e.warehouse_id',
        byHour ? sql<number>`cast(e.at_ms / 3600000 as integer)`.as('bucket') : sql<string>`e.business_day`.as('bucket'),
        sql<number>`count(*)`.as('steps'), sql<number>`coalesce(sum(e.quantity), 0)`.as('units'),
        sql<number>`count(distinct e.order_line_id)`.as('lines'),
        sql<number>`coalesce(sum(case when e.seconds_since_previous <= ${idleGap} then e.seconds_since_previous else 0 end), 0)`.as('seconds'),
      ])
      .where(w.scope.where({ warehouse: 'e.warehouse_id', customer: 'e.customer_id' }, { warehouseId: w.warehouseId, customerId: w.customerId }))
      .where('e.business_day', '>=', w.from).where('e.business_day', '<=', w.to)
      .where('e.user_id', 'is not', null);
    if (w.userId) q = q.where('e.user_id', '=', w.userId);
    if (w.kind) q = q.where('e.kind', '=', w.kind);
    return q.groupBy(['e.user_id', 'u.username', 'e.kind', 'e.warehouse_id', byHour ? sql`cast(e.at_ms / 3600000 as integer)` : sql`e.business_day`]);
  },

  standards(db: Executor, warehouseIds: 'all' | readonly number[]) {
    let q = db.selectFrom('labour_standard').select(['warehouse_id', 'kind', 'units_per_hour']);
    if (warehouseIds !== 'all') q = q.where('warehouse_id', 'in', warehouseIds.length ? [...warehouseIds] : [0]);
    return q.execute();
  },

  timeZones(db: Executor) {
    return db.selectFrom('warehouse').select(['id', 'timezone']).execute();
  },

  warehouseExists(db: Executor, id: number) {
    return db.selectFrom('warehouse').select('timezone').where('id', '=', id).executeTakeFirst();
  },
  customerExists(db: Executor, id: number) {
    return db.selectFrom('customer').select('id').where('id', '=', id).executeTakeFirst();
  },
  userExists(db: Executor, id: number) {
    return db.selectFrom('app_user').select('id').where('id', '=', id).executeTakeFirst();
  },

  views(db: Executor, userId: number, report: string) {
    return db.selectFrom('report_view').select(['id', 'report', 'name', 'filters', 'updated_at']).where('user_id', '=', userId).where('report', '=', report).orderBy('name').execute();
  },
};
