import { sql, type ExpressionBuilder } from 'kysely';
import type { DB, Executor, InventoryBalanceTable } from '../../db/schema.js';
import { dayInAnyZone } from '../../platform/business-day.js';
import { holdsStock, storagePositions } from '../locations/position-counts.js';
import type { ReportWhere } from './reports.repository.js';

const stockWhere = (w: ReportWhere) => ({ scope: w.scope, warehouseId: w.warehouseId, customerId: w.customerId });
const warehouseOf = (w: ReportWhere, column: string) => w.scope.where({ warehouse: column }, { warehouseId: w.warehouseId });

/** The /OtherReports queries: locations, SKU velocity, dead stock, the audit log, dock-to-stock. */
export const otherReportRepository = {
  /** Storage positions per warehouse and zone, and those holding stock the caller may see (occupancy's one rule). */
  positionsByZone(db: Executor, w: ReportWhere) {
    return storagePositions(db).innerJoin('warehouse as wh', 'wh.id', 'l.warehouse_id')
      .select((eb) => [
        'wh.name as warehouse_name', sql<string>`coalesce(l.zone, '')`.as('zone'), sql<number>`count(*)`.as('total'),
        sql<number>`sum(case when ${holdsStock(eb, stockWhere(w))} then 1 else 0 end)`.as('used'),
      ])
      .where(warehouseOf(w, 'l.warehouse_id'))
      .groupBy(['wh.name', sql`coalesce(l.zone, '')`]).orderBy('wh.name').orderBy(sql`coalesce(l.zone, '')`)
      .execute();
  },
  /** Storage positions holding no stock at all. */
  emptyPositions(db: Executor, w: ReportWhere) {
    return storagePositions(db).innerJoin('warehouse as wh', 'wh.id', 'l.warehouse_id')
      .select(['wh.name as warehouse_name', 'l.code', 'l.zone', 'l.type'])
      .where(warehouseOf(w, 'l.warehouse_id')).where((eb) => eb.not(holdsStock(eb)))
      .orderBy('wh.name').orderBy('l.code')
      .execute();
  },
  /**
   * Every active SKU of the clients in view with its picks within the business days (units, picks, order lines)
   * and its stored ABC class. With a warehouse chosen, the clients it serves and the picks made there.
   */
  skuVelocity(db: Executor, w: ReportWhere) {
    const picks = otherReportRepository.skuPicksQuery(db, w);
    let q = db.selectFrom('sku as s').innerJoin('customer as c', 'c.id', 's.customer_id').leftJoin(picks.as('p'), 'p.sku_id', 's.id')
      .select(['s.id', 's.sku_code', 's.description', 'c.name as customer_name', 's.abc_class', sql<number>`coalesce(p.units, 0)`.as('units'),
        sql<number>`coalesce(p.picks, 0)`.as('picks'), sql<number>`coalesce(p.lines, 0)`.as('lines')])
      .where('s.is_active', '=', 1).where(w.scope.where({ customer: 's.customer_id' }, { customerId: w.customerId }));
    if (w.warehouseId) {
      q = q.where((eb) => eb.exists(eb.selectFrom('customer_warehouse as cw').select('cw.customer_id')
        .whereRef('cw.customer_id', '=', 's.customer_id').where('cw.warehouse_id', '=', w.warehouseId!)));
    }
    return q.orderBy(sql`coalesce(p.units, 0)`, 'desc').orderBy('s.sku_code').execute();
  },
  /** Stock on hand per warehouse, client and SKU whose last ledger movement is before `before` (an instant). */
  deadStock(db: Executor, w: ReportWhere, before: string) {
    return otherReportRepository.deadStockQuery(db, w, before).execute();
  },
  deadStockQuery(db: Executor, w: ReportWhere, before: string) {
    const last = (eb: ExpressionBuilder<DB & { b: InventoryBalanceTable }, 'b'>) =>
      eb.selectFrom('inventory_txn as t').select(sql<string>`max(t.at)`.as('m'))
        .whereRef('t.warehouse_id', '=', 'b.warehouse_id').whereRef('t.customer_id', '=', 'b.customer_id').whereRef('t.sku_id', '=', 'b.sku_id');
    return db.selectFrom('inventory_balance as b')
      .innerJoin('sku as s', 's.id', 'b.sku_id').innerJoin('customer as c', 'c.id', 'b.customer_id').innerJoin('warehouse as wh', 'wh.id', 'b.warehouse_id')
      .select((eb) => ['wh.name as warehouse_name', 'c.name as customer_name', 's.sku_code', 's.description', sql<number>`sum(b.on_hand)`.as('on_hand'), last(eb).as('last_at')])
      .where('b.on_hand', '>', 0)
      .where(w.scope.where({ warehouse: 'b.warehouse_id', customer: 'b.customer_id' }, { warehouseId: w.warehouseId, customerId: w.customerId }))
      .groupBy(['b.warehouse_id', 'b.customer_id', 'b.sku_id', 'wh.name', 'c.name', 's.sku_code', 's.description'])
      .having((eb) => eb(last(eb), '<', before))
      .orderBy('wh.name').orderBy('c.name').orderBy('s.sku_code')
      ;
  },
  /** Audit rows within the business days (any zone's bounds; the service keeps the chosen zone's), newest first. */
  auditRows(db: Executor, w: ReportWhere, limit: number) {
    return otherReportRepository.auditRowsQuery(db, w, limit).execute();
  },
  auditRowsQuery(db: Executor, w: ReportWhere, limit: number) {
    return db.selectFrom('audit_log as a')
      .select(['a.at', 'a.username', 'a.action', 'a.entity', 'a.entity_id', 'a.warehouse_id'])
      .where('a.at', '>=', dayInAnyZone(w.from).from).where('a.at', '<', dayInAnyZone(w.to).until)
      .where(w.scope.where({ warehouse: 'a.warehouse_id', customer: 'a.customer_id' }, { warehouseId: w.warehouseId, customerId: w.customerId }))
      .orderBy('a.at', 'desc').orderBy('a.id', 'desc').limit(limit)
      ;
  },
  /** Receiving orders with a putaway within the days: first receipt, last putaway, units received good and put away. */
  dockToStock(db: Executor, w: ReportWhere) {
    return otherReportRepository.dockToStockQuery(db, w).execute();
  },
  dockToStockQuery(db: Executor, w: ReportWhere) {
    const lo = dayInAnyZone(w.from).from;
    const hi = dayInAnyZone(w.to).until;
    // Only the orders put away within the range (index receiving_putaway_at), then their receipts and putaways by order.
    const inRange = db.selectFrom('receiving_putaway as pr').select('pr.order_id').where('pr.at', '>=', lo).where('pr.at', '<', hi);
    const receipts = db.selectFrom('receiving_receipt as r').select(['r.order_id', sql<string>`min(r.at)`.as('first_receipt'), sql<number>`sum(r.quantity)`.as('received')])
      .where('r.order_id', 'in', inRange).groupBy('r.order_id');
    const putaways = db.selectFrom('receiving_putaway as p').select(['p.order_id', sql<string>`max(p.at)`.as('last_putaway'), sql<number>`sum(p.quantity)`.as('put_away')])
      .where('p.order_id', 'in', inRange).groupBy('p.order_id');
    return db.selectFrom('receiving_order as o')
      .innerJoin(receipts.as('rc'), 'rc.order_id', 'o.id').innerJoin(putaways.as('pa'), 'pa.order_id', 'o.id')
      .innerJoin('customer as c', 'c.id', 'o.customer_id')
      .select(['o.ro_number', 'o.warehouse_id', 'c.name as customer_name', 'rc.first_receipt', 'rc.received', 'pa.last_putaway', 'pa.put_away'])
      .where(w.scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' }, { warehouseId: w.warehouseId, customerId: w.customerId }))
      .where('pa.last_putaway', '>=', lo).where('pa.last_putaway', '<', hi)
      .orderBy('pa.last_putaway');
  },
  /** The SKU velocity report's picks: per SKU within the business days (index floor_event_day or _billing). */
  skuPicksQuery(db: Executor, w: ReportWhere) {
    return db.selectFrom('floor_event as e')
      .select(['e.sku_id', sql<number>`sum(e.quantity)`.as('units'), sql<number>`count(*)`.as('picks'), sql<number>`count(distinct e.order_line_id)`.as('lines')])
      .where('e.kind', '=', 'pick').where('e.business_day', '>=', w.from).where('e.business_day', '<=', w.to)
      .where(w.scope.where({ warehouse: 'e.warehouse_id', customer: 'e.customer_id' }, { warehouseId: w.warehouseId, customerId: w.customerId }))
      .groupBy('e.sku_id');
  },
  /** Writes the ABC classes (SKU id → class) that differ from the stored ones; returns the SKUs changed with before/after. */
  async setAbcClasses(tx: Executor, classes: { id: number; before: string | null; after: string }[], at: string) {
    const changed = classes.filter((c) => c.before !== c.after);
    for (const cls of ['A', 'B', 'C']) {
      const ids = changed.filter((c) => c.after === cls).map((c) => c.id);
      for (let i = 0; i < ids.length; i += 1000) {
        await tx.updateTable('sku').set({ abc_class: cls, updated_at: at }).where('id', 'in', ids.slice(i, i + 1000)).execute();
      }
    }
    return changed;
  },
};
