import { sql, type Insertable } from 'kysely';
import type { OrderFilters } from '@bolx/contracts';
import { compiledOnce } from '../../db/compiled-once.js';
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

/** The names an order's summary shows beside its own columns, as correlated subqueries of the order row `o`. */
function orderNames(o: string) {
  const t = sql.raw(o);
  return [
    sql<string | null>`(select account_name from customer_integration ci where ci.id = ${t}.carrier_account_id)`.as('carrier_name'),
    sql<string | null>`(select username from app_user u where u.id = ${t}.created_by)`.as('created_by_name'),
    sql<string | null>`(select name from warehouse tw where tw.id = ${t}.to_warehouse_id)`.as('to_warehouse_name'),
    sql<string | null>`(select ro_number from receiving_order ro where ro.id = ${t}.receiving_order_id)`.as('receiving_order_number'),
  ];
}

/**
 * orderNames and the warehouse's and customer's names, as columns a statement on `sales_order` itself returns (the
 * allocation's hold): with the order's lines read in the same transaction, all its summary needs.
 */
export const SALES_ORDER_NAMES = [
  sql<string>`(select name from warehouse w where w.id = sales_order.warehouse_id)`.as('warehouse_name'),
  sql<string>`(select name from customer c where c.id = sales_order.customer_id)`.as('customer_name'),
  ...orderNames('sales_order'),
];

/** An order row's columns with its line totals: correlated sums on the line's order index, one statement per page. */
function orderColumns(q: ReturnType<typeof ordersQuery>) {
  const total = (column: string) => sql<number>`(select coalesce(sum(${sql.ref(`t.${column}`)}), 0) from sales_order_line t where t.order_id = o.id)`;
  return q.selectAll('o').select([
    'w.name as warehouse_name', 'c.name as customer_name',
    ...orderNames('o'),
    sql<number>`(select count(*) from sales_order_line t where t.order_id = o.id)`.as('line_count'),
    total('quantity').as('ordered_qty'), total('allocated_qty').as('allocated_total'), total('shipped_qty').as('shipped_total'),
  ]);
}

export interface IntakeSku { id: number; sku_code: string; description: string; is_active: number; is_lot_tracked: number; is_kit: number }
type IntakeFactRow = { repeat_id: number | null; serves: number | null } & { [K in keyof IntakeSku]: IntakeSku[K] | null };

export type OrderRow = Awaited<ReturnType<ReturnType<typeof orderColumns>['executeTakeFirstOrThrow']>>;

/** An order's insert (orderRepository.insertOrder), compiled once per set of columns given. */
const insertOrderOnce = compiledOnce(String, (db, columns: string, ...values: unknown[]) => db.insertInto('sales_order')
  .values(Object.fromEntries(columns.split(',').map((c, i) => [c, values[i]])) as Insertable<SalesOrderTable>)
  .onConflict((oc) => oc.columns(['customer_id', 'reference_number']).doNothing())
  .returningAll()
  .returning(SALES_ORDER_NAMES));

/** The columns an order line is written with (the others keep their defaults: nothing allocated or shipped yet). */
const LINE_COLUMNS = ['order_id', 'line_no', 'sku_id', 'quantity', 'package_id', 'units_per_package', 'lot', 'notes'] as const;

/** An order's lines' insert, compiled once per number of lines. */
const insertLinesOnce = compiledOnce(String, (db, count: number, ...values: unknown[]) => db.insertInto('sales_order_line')
  .values(Array.from({ length: count }, (_, row) => Object.fromEntries(LINE_COLUMNS.map((c, i) => [c, values[row * LINE_COLUMNS.length + i]])) as Insertable<SalesOrderLineTable>))
  .returning(['id', 'line_no', 'sku_id', 'quantity', 'lot']));

/** One order with its totals, compiled once per scope: the intake and allocation read it after each write. */
const findOne = compiledOnce(
  (scope: Scope) => JSON.stringify([scope.warehouses, scope.customers]),
  (db, scope, id: number) => orderColumns(ordersQuery(db, scope, {}).where('o.id', '=', id)),
);

/** repo.intakeFacts' statement, compiled once per number of SKUs: every intake runs it. */
const intakeFactsOnce = compiledOnce(String, (db, _skus: number, customerId: number, warehouseId: number, referenceNumber: string, ...skuIds: (number | null)[]) => {
  const statement = sql<IntakeFactRow>`
      select (select o.id from sales_order o where o.customer_id = ${customerId} and o.reference_number = ${referenceNumber}) as repeat_id,
        (select 1 from customer_warehouse cw where cw.customer_id = ${customerId} and cw.warehouse_id = ${warehouseId}) as serves,
        s.id, s.sku_code, s.description, s.is_active, s.is_lot_tracked, s.is_kit
      from (select 1 as one) x
      left join sku s on s.customer_id = ${customerId} and s.id in (${sql.join(skuIds)})`;
  return { compile: () => statement.compile(db) };
});

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
  async find(db: Executor, scope: Scope, id: number): Promise<OrderRow | undefined> {
    return (await findOne(db, scope, id))[0];
  },

  /** Orders in the caller's scope, with their totals (those it may not see are absent): one statement per 500. */
  async findMany(db: Executor, scope: Scope, ids: number[]) {
    if (ids.length === 1) return findOne(db, scope, ids[0]);
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
  /**
   * A new order: its row as written with the names its summary shows (SALES_ORDER_NAMES), or undefined when the
   * customer's reference is taken.
   */
  async insertOrder(tx: Executor, values: Insertable<SalesOrderTable>) {
    const columns = (Object.keys(values) as (keyof SalesOrderTable)[]).filter((c) => values[c] !== undefined);
    const [r] = await insertOrderOnce(tx, columns.join(','), ...columns.map((c) => values[c]));
    return r;
  },

  /** A new order's lines: the columns of LINE_COLUMNS only. */
  insertLines(tx: Executor, lines: Pick<Insertable<SalesOrderLineTable>, (typeof LINE_COLUMNS)[number]>[]) {
    return insertLinesOnce(tx, lines.length, ...lines.flatMap((l) => LINE_COLUMNS.map((c) => l[c] ?? null)));
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

  /**
   * What an intake looks up before anything else, in one statement: the order the customer's reference already
   * names, whether the warehouse serves the client, and which of the lines' SKUs are the client's (a row each; one
   * row with no SKU when none is).
   */
  async intakeFacts(db: Executor, customerId: number, warehouseId: number, referenceNumber: string, skuIds: number[]) {
    const rows = await intakeFactsOnce(db, Math.max(skuIds.length, 1), customerId, warehouseId, referenceNumber, ...(skuIds.length ? skuIds : [null]));
    const repeatId = rows[0]?.repeat_id;
    return {
      repeatId: repeatId == null ? undefined : Number(repeatId),
      servesWarehouse: rows[0]?.serves != null,
      skus: rows.filter((r): r is IntakeFactRow & IntakeSku => r.id != null),
    };
  },

  servesWarehouse(db: Executor, customerId: number, warehouseId: number) {
    return db.selectFrom('customer_warehouse').select('warehouse_id').where('customer_id', '=', customerId).where('warehouse_id', '=', warehouseId)
      .executeTakeFirst().then((r) => !!r);
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
