import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { dayInAnyZone } from '../../platform/business-day.js';
import type { Scope } from '../../platform/scope.js';

/** One warehouse and one client of the caller's scope, over business days (inclusive) of the warehouse's zone. */
export interface AnalysisWhere { scope: Scope; warehouseId: number; customerId: number; from: string; to: string }

/** Index-friendly instant bounds around the business days (any zone), beside the exact per-zone day test. */
const instants = (w: AnalysisWhere) => ({ lo: dayInAnyZone(w.from).from, hi: dayInAnyZone(w.to).until });
const tenant = (w: AnalysisWhere, alias: string) =>
  w.scope.where({ warehouse: `${alias}.warehouse_id`, customer: `${alias}.customer_id` }, { warehouseId: w.warehouseId, customerId: w.customerId });

/** A count per business day and order type (RO counts carry no type). */
export interface DayCount { day: string; order_type: string | null; n: number | string }

export const assistantRepository = {
  /** The warehouses in scope by name (the chat's first choices). */
  warehouses(db: Executor, scope: Scope) {
    return db.selectFrom('warehouse as w').select(['w.id', 'w.name', 'w.timezone'])
      .where(scope.where({ warehouse: 'w.id' })).where('w.is_active', '=', 1).orderBy('w.name').orderBy('w.id').execute();
  },

  /** The clients in scope served from warehouses in scope (or from the one given), with the warehouse of each. */
  clients(db: Executor, scope: Scope, warehouseId?: number) {
    let q = db.selectFrom('customer_warehouse as cw').innerJoin('customer as c', 'c.id', 'cw.customer_id')
      .select(['c.id', 'c.name', 'cw.warehouse_id'])
      .where(scope.where({ warehouse: 'cw.warehouse_id', customer: 'cw.customer_id' })).where('c.is_active', '=', 1);
    if (warehouseId) q = q.where('cw.warehouse_id', '=', warehouseId);
    return q.orderBy('c.name').orderBy('c.id').execute();
  },

  /** Orders received (created) per business day of the warehouse, by order type. */
  ordersReceived(db: Executor, d: Dialect, w: AnalysisWhere): Promise<DayCount[]> {
    const { lo, hi } = instants(w);
    const day = d.localDay(sql.ref('o.created_at'), sql.ref('wh.timezone'));
    return db.selectFrom('sales_order as o').innerJoin('warehouse as wh', 'wh.id', 'o.warehouse_id')
      .select([day.as('day'), 'o.order_type', sql<number>`count(*)`.as('n')])
      .where(tenant(w, 'o')).where('o.created_at', '>=', lo).where('o.created_at', '<', hi)
      .where(day, '>=', w.from).where(day, '<=', w.to)
      .groupBy([day, 'o.order_type']).execute();
  },

  /** Orders that reached a status (Released: processed; Shipped) per business day, each order once a day. */
  ordersReaching(db: Executor, d: Dialect, w: AnalysisWhere, status: 'Released' | 'Shipped'): Promise<DayCount[]> {
    const { lo, hi } = instants(w);
    const day = d.localDay(sql.ref('h.at'), sql.ref('wh.timezone'));
    return db.selectFrom('document_status_history as h')
      .innerJoin('sales_order as o', 'o.id', 'h.document_id').innerJoin('warehouse as wh', 'wh.id', 'o.warehouse_id')
      .select([day.as('day'), 'o.order_type', sql<number>`count(distinct h.document_id)`.as('n')])
      .where('h.kind', '=', 'SALES_ORDER').where('h.to_status', '=', status).where('h.at', '>=', lo).where('h.at', '<', hi)
      .where(tenant(w, 'o')).where(day, '>=', w.from).where(day, '<=', w.to)
      .groupBy([day, 'o.order_type']).execute();
  },

  /** Receiving orders per business day of their first receipt (received_at) or of their finalizing (finalized_at). */
  receivingOrders(db: Executor, d: Dialect, w: AnalysisWhere, at: 'received_at' | 'finalized_at'): Promise<DayCount[]> {
    const { lo, hi } = instants(w);
    const day = d.localDay(sql.ref(`r.${at}`), sql.ref('wh.timezone'));
    return db.selectFrom('receiving_order as r').innerJoin('warehouse as wh', 'wh.id', 'r.warehouse_id')
      .select([day.as('day'), sql<null>`null`.as('order_type'), sql<number>`count(*)`.as('n')])
      .where(tenant(w, 'r')).where(`r.${at}`, '>=', lo).where(`r.${at}`, '<', hi)
      .where(day, '>=', w.from).where(day, '<=', w.to)
      .groupBy(day).execute();
  },

  /** Orders received within the days, by their status now. */
  ordersByStatus(db: Executor, d: Dialect, w: AnalysisWhere) {
    const { lo, hi } = instants(w);
    const day = d.localDay(sql.ref('o.created_at'), sql.ref('wh.timezone'));
    return db.selectFrom('sales_order as o').innerJoin('warehouse as wh', 'wh.id', 'o.warehouse_id')
      .select(['o.status', sql<number>`count(*)`.as('n')])
      .where(tenant(w, 'o')).where('o.created_at', '>=', lo).where('o.created_at', '<', hi)
      .where(day, '>=', w.from).where(day, '<=', w.to)
      .groupBy('o.status').execute();
  },
};
