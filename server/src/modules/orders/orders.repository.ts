import { sql, type Insertable } from 'kysely';
import type { OrderFilters } from '@bolx/contracts';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { SalesOrderLineTable, SalesOrderTable } from '../../db/tables/orders.js';
import { listRows, searchCondition, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

export const ORDER_LIST: ListSpec = {
  sortable: {
    soNumber: 'o.so_number', referenceNumber: 'o.reference_number', orderDate: 'o.order_date', requestedShipDate: 'o.requested_ship_date',
    priority: 'o.priority', status: 'o.status', orderType: 'o.order_type', createdAt: 'o.created_at', customerName: 'c.name',
    warehouseName: 'w.name', shipToName: 'o.ship_to_name',
  },
  defaultSort: { column: 'o.id', direction: 'desc' },
  // Search by the order's numbers or its ship-to.
  searchable: ['o.so_number', 'o.reference_number', 'o.ship_to_name', 'o.ship_to_city', 'o.ship_to_email'],
  tieBreaker: 'o.id',
};

/** The scoped, filtered order list before search, order and paging. */
function ordersQuery(db: Executor, scope: Scope, f: OrderFilters) {
  let q = db.selectFrom('sales_order as o')
    .innerJoin('warehouse as w', 'w.id', 'o.warehouse_id')
    .innerJoin('customer as c', 'c.id', 'o.customer_id')
    .where(scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' }, { warehouseId: f.warehouseId, customerId: f.customerId }));
  if (f.status) q = q.where('o.status', '=', f.status);
  if (f.orderType) q = q.where('o.order_type', '=', f.orderType);
  if (f.priority) q = q.where('o.priority', '=', f.priority);
  if (f.carrierAccountId) q = q.where('o.carrier_account_id', '=', f.carrierAccountId);
  if (f.fromDate) q = q.where('o.order_date', '>=', f.fromDate);
  if (f.toDate) q = q.where('o.order_date', '<=', f.toDate);
  return q;
}

/** An order row's columns with its line totals: correlated sums on the line's order index, one statement per page. */
function orderColumns(q: ReturnType<typeof ordersQuery>) {
  const total = (column: string) => sql<number>`(select coalesce(sum(${sql.ref(`t.${column}`)}), 0) from sales_order_line t where t.order_id = o.id)`;
  return q.selectAll('o').select([
    'w.name as warehouse_name', 'c.name as customer_name',
    sql<string | null>`(select account_name from customer_integration ci where ci.id = o.carrier_account_id)`.as('carrier_name'),
    sql<string | null>`(select username from app_user u where u.id = o.created_by)`.as('created_by_name'),
    sql<string | null>`(select name from warehouse tw where tw.id = o.to_warehouse_id)`.as('to_warehouse_name'),
    sql<string | null>`(select ro_number from receiving_order ro where ro.id = o.receiving_order_id)`.as('receiving_order_number'),
    sql<number>`(select count(*) from sales_order_line t where t.order_id = o.id)`.as('line_count'),
    total('quantity').as('ordered_qty'), total('allocated_qty').as('allocated_total'), total('shipped_qty').as('shipped_total'),
  ]);
}

export type OrderRow = Awaited<ReturnType<ReturnType<typeof orderColumns>['executeTakeFirstOrThrow']>>;

/** Every query of the orders area. Orders' statuses change only through the status machine. */
export const orderRepository = {
  list(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<OrderFilters>) {
    return listRows(dialect, ordersQuery(db, scope, req.filters ?? {}), orderColumns, req, ORDER_LIST);
  },

  /**
   * The ids of the orders the list's filters and search match in the caller's scope, oldest first (a bulk allocation
   * serves the orders waiting longest first), at most `limit`: a bulk action "on all orders matching the filters".
   */
  async matchingIds(db: Executor, dialect: Dialect, scope: Scope, filters: OrderFilters, searchQuery: string, limit: number): Promise<number[]> {
    const search = searchCondition(dialect, ORDER_LIST.searchable, searchQuery);
    const base = ordersQuery(db, scope, filters);
    const rows = await (search ? base.where(search) : base).select('o.id').orderBy('o.id', 'asc').limit(limit).execute();
    return rows.map((r) => Number(r.id));
  },

  /** An order in the caller's scope, with its totals (undefined: none, or another's). */
  find(db: Executor, scope: Scope, id: number) {
    return orderColumns(ordersQuery(db, scope, {}).where('o.id', '=', id)).executeTakeFirst();
  },

  /** Orders in the caller's scope, with their totals (those it may not see are absent): one statement per 500. */
  async findMany(db: Executor, scope: Scope, ids: number[]) {
    const rows: OrderRow[] = [];
    for (let i = 0; i < ids.length; i += 500) rows.push(...await orderColumns(ordersQuery(db, scope, {}).where('o.id', 'in', ids.slice(i, i + 500))).execute());
    return rows;
  },

  /** The order a customer's reference names, whoever may see it (the caller was checked against the customer). */
  findByReference(db: Executor, customerId: number, referenceNumber: string) {
    return db.selectFrom('sales_order').select(['id']).where('customer_id', '=', customerId).where('reference_number', '=', referenceNumber).executeTakeFirst();
  },

  /** Where an order belongs, unscoped: a refused caller learns only 403 vs 404 as for any other record. */
  owner(db: Executor, id: number) {
    return db.selectFrom('sales_order').select(['id', 'warehouse_id', 'customer_id', 'status']).where('id', '=', id).executeTakeFirst();
  },

  lines(db: Executor, orderId: number) {
    return db.selectFrom('sales_order_line as l')
      .innerJoin('sku as s', 's.id', 'l.sku_id')
      .leftJoin('sku_package as p', 'p.id', 'l.package_id')
      .select(['l.id', 'l.line_no', 'l.sku_id', 's.sku_code', 's.description', 's.is_kit', 'l.quantity', 'l.package_id', 'p.package_name',
        'l.units_per_package', 'l.lot', 'l.allocated_qty', 'l.shipped_qty', 'l.notes', 'l.short_reason'])
      .where('l.order_id', '=', orderId).orderBy('l.line_no').execute();
  },

  history(db: Executor, orderId: number) {
    return db.selectFrom('document_status_history').select(['from_status', 'to_status', 'at', 'username', 'reason'])
      .where('kind', '=', 'SALES_ORDER').where('document_id', '=', orderId).orderBy('id').execute();
  },

  /**
   * Takes the order in: one insert that does nothing when the customer's reference is already taken (the unique
   * index decides, whatever the concurrency: PostgreSQL waits for a concurrent taker and then does nothing).
   * Answers the new id, or undefined for a repeat.
   */
  async insertOrder(tx: Executor, values: Insertable<SalesOrderTable>) {
    const r = await tx.insertInto('sales_order').values(values)
      .onConflict((oc) => oc.columns(['customer_id', 'reference_number']).doNothing())
      .returning('id').executeTakeFirst();
    return r?.id;
  },

  insertLines(tx: Executor, lines: Insertable<SalesOrderLineTable>[]) {
    return tx.insertInto('sales_order_line').values(lines).returning(['id', 'line_no', 'sku_id', 'quantity', 'lot']).execute();
  },

  /** Links the expected receiving order a Transfer or Purchase order made. */
  setReceivingOrder(tx: Executor, orderId: number, receivingOrderId: number) {
    return tx.updateTable('sales_order').set({ receiving_order_id: receivingOrderId }).where('id', '=', orderId).execute();
  },

  /** A warehouse's name and address (a Transfer's destination, shipped to). */
  warehouse(db: Executor, id: number) {
    return db.selectFrom('warehouse').select(['id', 'name', 'address1', 'address2', 'city', 'state', 'zip', 'country', 'is_active']).where('id', '=', id).executeTakeFirst();
  },

  /** Counts per status in the caller's scope and filters (a status with no order is absent). */
  statusCounts(db: Executor, scope: Scope, f: Omit<OrderFilters, 'status'>) {
    return ordersQuery(db, scope, f).select(['o.status', sql<number>`count(*)`.as('n')]).groupBy('o.status').execute();
  },

  servesWarehouse(db: Executor, customerId: number, warehouseId: number) {
    return db.selectFrom('customer_warehouse').select('warehouse_id').where('customer_id', '=', customerId).where('warehouse_id', '=', warehouseId)
      .executeTakeFirst().then((r) => !!r);
  },

  skus(db: Executor, customerId: number, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return db.selectFrom('sku').select(['id', 'sku_code', 'is_active', 'is_lot_tracked', 'is_kit']).where('customer_id', '=', customerId).where('id', 'in', ids).execute();
  },

  /** A customer's SKUs by code, whatever its case (the orders sheet names SKUs by code). */
  async skusByCodes(db: Executor, customerId: number, codes: string[]) {
    const upper = [...new Set(codes.map((c) => c.toUpperCase()))];
    const found = [];
    for (let at = 0; at < upper.length; at += 500) {
      found.push(...await db.selectFrom('sku').select(['id', 'sku_code', 'is_active', 'is_lot_tracked', sql<string>`upper(sku_code)`.as('code')])
        .where('customer_id', '=', customerId).where(sql`upper(sku_code)`, 'in', upper.slice(at, at + 500)).execute());
    }
    return found;
  },

  /** Warehouses by code (a Transfer's destination in the orders sheet). */
  warehousesByCode(db: Executor, codes: string[]) {
    const upper = [...new Set(codes.map((c) => c.toUpperCase()))];
    if (upper.length === 0) return Promise.resolve([]);
    return db.selectFrom('warehouse').select(['id', sql<string>`upper(code)`.as('code')]).where(sql`upper(code)`, 'in', upper).execute();
  },

  /** Every package level of these SKUs (for the units a level holds, and the sheet's Package by name or type). */
  packages(db: Executor, customerId: number, skuIds: number[]) {
    if (skuIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('sku_package').select(['id', 'sku_id', 'parent_id', 'quantity', 'package_name', 'package_type']).where('customer_id', '=', customerId).where('sku_id', 'in', skuIds).execute();
  },

  /** Which of these kit SKUs have at least one component. */
  kitsWithComponents(db: Executor, customerId: number, kitIds: number[]) {
    return db.selectFrom('kit_component').select('kit_sku_id').distinct().where('customer_id', '=', customerId).where('kit_sku_id', 'in', kitIds)
      .execute().then((rows) => rows.map((r) => Number(r.kit_sku_id)));
  },

  /** A customer's active carrier account. */
  carrierAccount(db: Executor, customerId: number, id: number) {
    return db.selectFrom('customer_integration').select(['id', 'account_name']).where('id', '=', id).where('customer_id', '=', customerId)
      .where('kind', '=', 'carrier').where('is_active', '=', 1).executeTakeFirst();
  },

  /** A customer's active carrier accounts with their carrier's name (the order form's choices). */
  carrierAccounts(db: Executor, customerId: number) {
    return db.selectFrom('customer_integration as ci').innerJoin('integration_type as it', 'it.id', 'ci.integration_type_id')
      .select(['ci.id', 'ci.account_name', 'it.name as carrier_name']).where('ci.customer_id', '=', customerId)
      .where('ci.kind', '=', 'carrier').where('ci.is_active', '=', 1).orderBy('ci.account_name').orderBy('ci.id').execute();
  },
};
