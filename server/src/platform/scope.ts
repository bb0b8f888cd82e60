import { sql, type Expression, type SqlBool } from 'kysely';
import { forbidden } from './errors.js';

export type IdSet = 'all' | readonly number[];

/**
 * Where a record belongs, as a live event carries it, by the columns its list holds rows to: a warehouse, a
 * customer (null when the row has none), or for a record of several warehouses (a user), those warehouses.
 */
export interface Tenancy {
  warehouseId?: number | null;
  customerId?: number | null;
  anyWarehouseOf?: readonly number[];
}

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

  /**
   * The in-memory twin of `where()`, for a record already in hand (a live event): whether the caller's lists would
   * show it. A record of several warehouses shows when any of them is in scope, or the caller sees every warehouse.
   */
  admits(record: Tenancy): boolean {
    // As in SQL, a row whose column is NULL passes only an unrestricted condition ('all').
    if ('warehouseId' in record && !inSet(this.warehouses, record.warehouseId ?? null)) return false;
    if ('customerId' in record && !inSet(this.customers, record.customerId ?? null)) return false;
    if (record.anyWarehouseOf && this.warehouses !== 'all' && !record.anyWarehouseOf.some((id) => this.canSeeWarehouse(id))) return false;
    return true;
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

function inSet(ids: IdSet, id: number | null): boolean {
  return ids === 'all' || (id !== null && ids.includes(id));
}

function condition(column: string, ids: IdSet): Expression<SqlBool> {
  if (ids === 'all') return sql<SqlBool>`1 = 1`;
  if (ids.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${sql.ref(column)} IN (${sql.join(ids.map((id) => sql.lit(Math.trunc(id))))})`;
}
