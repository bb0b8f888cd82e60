import { sql, type Expression, type SqlBool } from 'kysely';
import { forbidden } from './errors.js';

export type IdSet = 'all' | readonly number[];

/**
 * The warehouses and customers a caller may see. Every tenant-bound query goes through `where()`; nothing
 * re-derives the scope by hand. A Client account's customer set is its own customer alone.
 */
export class Scope {
  constructor(
    readonly warehouses: IdSet,
    readonly customers: IdSet,
  ) {}

  static readonly everything = new Scope('all', 'all');

  canSeeWarehouse(id: number): boolean {
    return this.warehouses === 'all' || this.warehouses.includes(id);
  }
  canSeeCustomer(id: number): boolean {
    return this.customers === 'all' || this.customers.includes(id);
  }

  /** Throws 403 unless the caller may see this warehouse / customer (0 or undefined means "all in scope"). */
  assert(target: { warehouseId?: number | null; customerId?: number | null }): void {
    if (target.warehouseId && !this.canSeeWarehouse(target.warehouseId)) throw forbidden('This warehouse is outside your access');
    if (target.customerId && !this.canSeeCustomer(target.customerId)) throw forbidden('This client is outside your access');
  }

  /**
   * A WHERE condition holding rows to the scope, and to the header filter's warehouse/customer when one is
   * chosen (0 = all). Column names are trusted SQL identifiers such as 'sku.customer_id'.
   */
  where(
    columns: { warehouse?: string; customer?: string },
    filter: { warehouseId?: number | null; customerId?: number | null } = {},
  ): Expression<SqlBool> {
    this.assert(filter);
    const parts: Expression<SqlBool>[] = [];
    if (columns.warehouse) parts.push(condition(columns.warehouse, filter.warehouseId ? [filter.warehouseId] : this.warehouses));
    if (columns.customer) parts.push(condition(columns.customer, filter.customerId ? [filter.customerId] : this.customers));
    return parts.length === 0 ? sql<SqlBool>`1 = 1` : sql<SqlBool>`${sql.join(parts, sql` AND `)}`;
  }
}

function condition(column: string, ids: IdSet): Expression<SqlBool> {
  if (ids === 'all') return sql<SqlBool>`1 = 1`;
  if (ids.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${sql.ref(column)} IN (${sql.join(ids.map((id) => sql.lit(Math.trunc(id))))})`;
}
