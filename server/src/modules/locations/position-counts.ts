import { sql, type Expression, type ExpressionBuilder } from 'kysely';
import type { DB, Executor } from '../../db/schema.js';
import type { LocationTable } from '../../db/tables/locations.js';
import type { Scope } from '../../platform/scope.js';

// The locations module's occupancy queries, as fragments other modules' repositories embed in their own statements
// (the dashboard, the warehouse cards): kept out of locations.repository, which only this module may import.

export type LocationEb = ExpressionBuilder<DB & { l: LocationTable }, 'l'>;

export function otherTypeCodes(db: Executor) {
  return db.selectFrom('location_type').select('code').where('category', '=', 'other');
}

/**
 * Occupancy's one rule (GetLocationOccupancy, the dashboard tiles, the WarehouseSelection cards): the positions are
 * the active storage locations (rack, shelf, zone, aisle), and one is used when a balance there holds a positive
 * on-hand quantity. The handling areas (dock, staging, returns, quarantine: the "other" category) are left out:
 * goods only pass through them and they hold no storage capacity, so counting them would make a warehouse look
 * fuller the more it receives. An emptied balance row (on hand 0) stays behind after a move and is not stock.
 */
export function storagePositions(db: Executor) {
  return db.selectFrom('location as l').where('l.is_active', '=', 1).where('l.type', 'not in', otherTypeCodes(db));
}

/** The occupied test for a storage position `l`; `customerId` narrows it to one client's stock (0 = everyone's). */
export function holdsStock(eb: LocationEb, stock: { scope?: Scope; warehouseId?: number; customerId?: number } = {}) {
  let q = eb.selectFrom('inventory_balance as b').select(sql.lit(1).as('one')).whereRef('b.location_id', '=', 'l.id').where('b.on_hand', '>', 0);
  if (stock.scope) q = q.where(stock.scope.where({ warehouse: 'b.warehouse_id', customer: 'b.customer_id' }, { warehouseId: stock.warehouseId, customerId: stock.customerId }));
  return eb.exists(q);
}

/**
 * Occupancy's two figures for one warehouse (`warehouseId`, a column of the outer query), as correlated subqueries:
 * its storage positions, and those holding stock that `stock` admits (the caller's scope, one client when given).
 * Every occupancy on every screen is built from these, so the card, the dashboard and the gauges cannot disagree.
 */
export function positionCounts(db: Executor, warehouseId: Expression<number>, stock: { scope: Scope; customerId?: number }) {
  const positions = () => storagePositions(db).where('l.warehouse_id', '=', warehouseId);
  return {
    total: positions().select(sql<number>`count(*)`.as('n')),
    used: positions().where((l) => holdsStock(l, stock)).select(sql<number>`count(*)`.as('n')),
  };
}
