import { sql, type SqlBool } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Scope } from '../../platform/scope.js';
import { lockRows, type Dialect } from '../../db/dialect.js';

import type { Place } from '../../platform/stock/stock-engine.js';
import { takeable } from '../../platform/stock/stock.repository.js';

export type { Place };

export interface StockFilters { warehouseId?: number; customerId?: number; skuId?: number; locationId?: number; includeEmpty?: boolean; takeableOnly?: boolean }

/** Which table leads the stock list's joins (see stockList). */
export type StockLead = 'balance' | 'location' | 'sku';

/** The stock list's scope and filters, on the balance alias `b`. */
function stockConditions(scope: Scope, f: StockFilters) {
  const parts = [scope.where({ warehouse: 'b.warehouse_id', customer: 'b.customer_id' }, { warehouseId: f.warehouseId, customerId: f.customerId })];
  if (f.skuId) parts.push(sql<SqlBool>`b.sku_id = ${f.skuId}`);
  if (f.locationId) parts.push(sql<SqlBool>`b.location_id = ${f.locationId}`);
  if (!f.includeEmpty) parts.push(sql<SqlBool>`b.on_hand > 0`);
  if (f.takeableOnly) parts.push(takeable('b'));
  return sql<SqlBool>`${sql.join(parts, sql` AND `)}`;
}

/** Inventory's own reads: the stock list, pallets and SKUs. Stock changes live in platform/stock. */
export const inventoryRepository = {
  /**
   * A pallet's stock at one location, locked until commit so it moves whole — with the pallet's balances where it
   * goes (`toLocationId`), so a pallet move locks every balance it changes at once, in id order as every lock of
   * balances is (platform/stock). Answers only the rows with stock at `locationId`.
   */
  async palletRows(tx: Executor, dialect: Dialect, warehouseId: number, pallet: string, locationId: number, toLocationId: number) {
    const rows = await lockRows(dialect, tx.selectFrom('inventory_balance').selectAll()
      .where('warehouse_id', '=', warehouseId).where('pallet', '=', pallet).where('location_id', 'in', [locationId, toLocationId])
      .orderBy('id')).execute();
    return rows.filter((r) => r.location_id === locationId && r.on_hand > 0);
  },

  sku(db: Executor, skuId: number) {
    return db.selectFrom('sku').select(['id', 'customer_id', 'sku_code', 'is_active']).where('id', '=', skuId).executeTakeFirst();
  },

  /** A customer's SKUs by code, whatever the case (one statement), for a sheet's SKU column. */
  async skusByCodes(db: Executor, customerId: number, codes: string[]) {
    const upper = [...new Set(codes.map((c) => c.toUpperCase()))];
    if (upper.length === 0) return [];
    return db.selectFrom('sku').select(['id', 'sku_code', 'is_active', 'is_lot_tracked', 'is_expiry_tracked', sql<string>`upper(sku_code)`.as('code')])
      .where('customer_id', '=', customerId).where(sql`upper(sku_code)`, 'in', upper).execute();
  },

  /** The balances of the stock list (scope and filters), without its joins: what its count needs. */
  stockBalances(db: Executor, scope: Scope, f: StockFilters) {
    return db.selectFrom('inventory_balance as b').where(stockConditions(scope, f));
  },

  /**
   * The stock list: balances with their warehouse, client, SKU and location. Every join follows a NOT NULL
   * foreign key, so it neither drops nor repeats a balance and stockBalances counts the same rows.
   *
   * `lead` names the table whose order the list is sorted by. Leading with it (its code index walked in order,
   * the balances of each row fetched by index: migration 0011) lets a page stop after its rows instead of
   * joining and sorting every balance in scope first — 100,000 balances took SQLite 100+ ms a page. SQLite
   * keeps the left table of a CROSS JOIN as the outer loop; PostgreSQL plans it as the inner join it is (an
   * incremental sort over the same walk). Only worth it while no filter pins the list to one SKU or location.
   */
  stockList(db: Executor, scope: Scope, f: StockFilters, lead: StockLead = 'balance') {
    const where = stockConditions(scope, f);
    if (lead === 'location') {
      return db.selectFrom('location as l').crossJoin('inventory_balance as b')
        .innerJoin('warehouse as w', 'w.id', 'b.warehouse_id')
        .innerJoin('customer as c', 'c.id', 'b.customer_id')
        .innerJoin('sku as s', 's.id', 'b.sku_id')
        .whereRef('b.location_id', '=', 'l.id').where(where);
    }
    if (lead === 'sku') {
      return db.selectFrom('sku as s').crossJoin('inventory_balance as b')
        .innerJoin('warehouse as w', 'w.id', 'b.warehouse_id')
        .innerJoin('customer as c', 'c.id', 'b.customer_id')
        .innerJoin('location as l', 'l.id', 'b.location_id')
        .whereRef('b.sku_id', '=', 's.id').where(where);
    }
    return db.selectFrom('inventory_balance as b')
      .innerJoin('warehouse as w', 'w.id', 'b.warehouse_id')
      .innerJoin('customer as c', 'c.id', 'b.customer_id')
      .innerJoin('sku as s', 's.id', 'b.sku_id')
      .innerJoin('location as l', 'l.id', 'b.location_id')
      .where(where);
  },
};
