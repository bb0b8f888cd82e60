import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { dayInAnyZone } from '../../platform/business-day.js';
import type { ReportWhere } from './reports.repository.js';

/** Index-friendly instant bounds around the business days (any zone), beside the exact per-zone day test. */
const instants = (w: ReportWhere) => ({ lo: dayInAnyZone(w.from).from, hi: dayInAnyZone(w.to).until });
const scoped = (w: ReportWhere, warehouse: string, customer: string) =>
  w.scope.where({ warehouse, customer }, { warehouseId: w.warehouseId, customerId: w.customerId });

/** The /InboundReports queries over the receiving orders, their receipts at the dock and their putaways. */
export const inboundReportRepository = {
  /** Receipts per business day of their warehouse: scans, orders received into, good and damaged units. */
  receiptsPerDay(db: Executor, d: Dialect, w: ReportWhere) {
    const { lo, hi } = instants(w);
    const day = d.localDay(sql.ref('r.at'), sql.ref('wh.timezone'));
    return db.selectFrom('receiving_receipt as r').innerJoin('warehouse as wh', 'wh.id', 'r.warehouse_id')
      .select([day.as('day'), sql<number>`count(*)`.as('receipts'), sql<number>`count(distinct r.order_id)`.as('orders'),
        sql<number>`sum(r.quantity)`.as('units'), sql<number>`sum(r.damaged_qty)`.as('damaged')])
      .where(scoped(w, 'r.warehouse_id', 'r.customer_id')).where('r.at', '>=', lo).where('r.at', '<', hi)
      .where(day, '>=', w.from).where(day, '<=', w.to)
      .groupBy(day).execute();
  },

  /** Units put away per business day (a putaway belongs to its order's warehouse and client). */
  putawaysPerDay(db: Executor, d: Dialect, w: ReportWhere) {
    const { lo, hi } = instants(w);
    const day = d.localDay(sql.ref('p.at'), sql.ref('wh.timezone'));
    return db.selectFrom('receiving_putaway as p').innerJoin('receiving_order as o', 'o.id', 'p.order_id').innerJoin('warehouse as wh', 'wh.id', 'o.warehouse_id')
      .select([day.as('day'), sql<number>`sum(p.quantity)`.as('units')])
      .where(scoped(w, 'o.warehouse_id', 'o.customer_id')).where('p.at', '>=', lo).where('p.at', '<', hi)
      .where(day, '>=', w.from).where(day, '<=', w.to)
      .groupBy(day).execute();
  },

  /** Receiving orders due (their expected delivery date, a business day) per day, cancelled ones aside. */
  expectedPerDay(db: Executor, w: ReportWhere) {
    return db.selectFrom('receiving_order as o')
      .select(['o.expected_date as day', sql<number>`count(*)`.as('orders')])
      .where(scoped(w, 'o.warehouse_id', 'o.customer_id')).where('o.status', '<>', 'Cancelled')
      .where('o.expected_date', '>=', w.from).where('o.expected_date', '<=', w.to)
      .groupBy('o.expected_date').execute();
  },

  /** Every receiving order in view now, per status: orders, lines, expected, received, damaged and awaiting putaway. */
  byStatus(db: Executor, w: ReportWhere) {
    const lines = db.selectFrom('receiving_order_line as li')
      .select(['li.order_id', sql<number>`count(*)`.as('lines'), sql<number>`sum(li.expected_qty)`.as('expected'), sql<number>`sum(li.received_qty)`.as('received'),
        sql<number>`sum(li.damaged_qty)`.as('damaged'), sql<number>`sum(li.received_qty - li.putaway_qty)`.as('awaiting')])
      .groupBy('li.order_id');
    return db.selectFrom('receiving_order as o').leftJoin(lines.as('l'), 'l.order_id', 'o.id')
      .select(['o.status', sql<number>`count(*)`.as('orders'), sql<number>`coalesce(sum(l.lines), 0)`.as('lines'), sql<number>`coalesce(sum(l.expected), 0)`.as('expected'),
        sql<number>`coalesce(sum(l.received), 0)`.as('received'), sql<number>`coalesce(sum(l.damaged), 0)`.as('damaged'), sql<number>`coalesce(sum(l.awaiting), 0)`.as('awaiting')])
      .where(scoped(w, 'o.warehouse_id', 'o.customer_id'))
      .groupBy('o.status').execute();
  },

  /**
   * Receiving orders finalized (turned Received) within the business days, per supplier or client: what arrived
   * (good + damaged) against what was expected, line by line — over, short and damaged units.
   */
  accuracy(db: Executor, d: Dialect, w: ReportWhere, by: 'supplier' | 'customer') {
    const { lo, hi } = instants(w);
    const day = d.localDay(sql.ref('o.finalized_at'), sql.ref('wh.timezone'));
    const arrived = sql`(li.received_qty + li.damaged_qty)`;
    return db.selectFrom('receiving_order as o').innerJoin('warehouse as wh', 'wh.id', 'o.warehouse_id').innerJoin('customer as c', 'c.id', 'o.customer_id')
      .innerJoin('receiving_order_line as li', 'li.order_id', 'o.id')
      .select([
        (by === 'supplier' ? sql<string>`o.supplier` : sql<string>`c.name`).as('group_key'),
        sql<number>`count(distinct o.id)`.as('orders'), sql<number>`count(*)`.as('lines'), sql<number>`sum(li.expected_qty)`.as('expected'),
        sql<number>`sum(li.received_qty)`.as('received'), sql<number>`sum(li.damaged_qty)`.as('damaged'),
        sql<number>`sum(case when ${arrived} > li.expected_qty then ${arrived} - li.expected_qty else 0 end)`.as('over'),
        sql<number>`sum(case when li.expected_qty > ${arrived} then li.expected_qty - ${arrived} else 0 end)`.as('short'),
        sql<number>`sum(case when ${arrived} = li.expected_qty and li.damaged_qty = 0 then 1 else 0 end)`.as('exact'),
      ])
      .where(scoped(w, 'o.warehouse_id', 'o.customer_id')).where('o.finalized_at', 'is not', null)
      .where('o.finalized_at', '>=', lo).where('o.finalized_at', '<', hi).where(day, '>=', w.from).where(day, '<=', w.to)
      .groupBy(by === 'supplier' ? 'o.supplier' : 'c.name').execute();
  },
};
