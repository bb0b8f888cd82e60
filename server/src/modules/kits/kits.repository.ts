import { sql, type Insertable } from 'kysely';
import type { KitAvailabilityFilters, WorkOrderFilters } from '@bolx/contracts';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { KitWorkOrderLineTable, KitWorkOrderTable } from '../../db/tables/kits.js';
import { listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

/** The reservations and ledger rows of a work order carry this document type and its WO number. */
export const WO_DOCUMENT = 'WO' as const;

const KIT_LIST: ListSpec = {
  sortable: { kitSkuCode: 's.sku_code', customerName: 'c.name', warehouseName: 'w.name' },
  defaultSort: { column: 's.sku_code', direction: 'asc' },
  searchable: ['s.sku_code', 's.description'],
  tieBreaker: 's.id',
};

const WORK_ORDER_LIST: ListSpec = {
  sortable: {
    woNumber: 'o.wo_number', status: 'o.status', type: 'o.type', quantity: 'o.quantity', createdAt: 'o.created_at',
    kitSkuCode: 'k.sku_code', customerName: 'c.name', completedAt: 'o.completed_at',
  },
  defaultSort: { column: 'o.id', direction: 'desc' },
  searchable: ['o.wo_number', 'k.sku_code', 'k.description'],
  tieBreaker: 'o.id',
};

/** Kit SKUs (with at least one component) of the clients each warehouse in scope serves: one row per warehouse and kit. */
function kitsQuery(db: Executor, scope: Scope, f: KitAvailabilityFilters) {
  return db.selectFrom('sku as s')
    .innerJoin('customer_warehouse as cw', 'cw.customer_id', 's.customer_id')
    .innerJoin('warehouse as w', 'w.id', 'cw.warehouse_id')
    .innerJoin('customer as c', 'c.id', 's.customer_id')
    .where('s.is_kit', '=', 1).where('s.is_active', '=', 1)
    .where((eb) => eb.exists(eb.selectFrom('kit_component as kc').select('kc.id').whereRef('kc.kit_sku_id', '=', 's.id')))
    .where(scope.where({ warehouse: 'cw.warehouse_id', customer: 's.customer_id' }, { warehouseId: f.warehouseId, customerId: f.customerId }));
}

function workOrdersQuery(db: Executor, scope: Scope, f: WorkOrderFilters) {
  let q = db.selectFrom('kit_work_order as o')
    .innerJoin('warehouse as w', 'w.id', 'o.warehouse_id')
    .innerJoin('customer as c', 'c.id', 'o.customer_id')
    .innerJoin('sku as k', 'k.id', 'o.kit_sku_id')
    .where(scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' }, { warehouseId: f.warehouseId, customerId: f.customerId }));
  if (f.status) q = q.where('o.status', '=', f.status);
  if (f.type) q = q.where('o.type', '=', f.type);
  if (f.kitSkuId) q = q.where('o.kit_sku_id', '=', f.kitSkuId);
  return q;
}

function workOrderColumns(q: ReturnType<typeof workOrdersQuery>) {
  const user = (column: 'o.created_by' | 'o.completed_by') => sql<string | null>`(select username from app_user u where u.id = ${sql.ref(column)})`;
  const code = (column: 'o.location_id' | 'o.component_location_id') => sql<string | null>`(select code from location l where l.id = ${sql.ref(column)})`;
  return q.selectAll('o').select([
    'w.name as warehouse_name', 'c.name as customer_name', 'k.sku_code as kit_sku_code', 'k.description as kit_description',
    code('o.location_id').as('location_code'), code('o.component_location_id').as('component_location_code'),
    sql<string | null>`(select so.so_number from sales_order_line sl join sales_order so on so.id = sl.order_id where sl.id = o.order_line_id)`.as('so_number'),
    user('o.created_by').as('created_by_name'), user('o.completed_by').as('completed_by_name'),
  ]);
}

export type WorkOrderRow = Awaited<ReturnType<ReturnType<typeof workOrderColumns>['executeTakeFirstOrThrow']>>;

/**
 * Free (allocatable now) stock by the allocation rules: a pickable, active location that is not quarantine, an
 * unexpired lot, no open hold on the location (for this client or every client) or on the balance; less what is
 * already allocated. The condition on a balance `b` at location `l`.
 */
function allocatable(today: string) {
  return sql<boolean>`b.on_hand - b.allocated > 0
    AND (b.expiry_date IS NULL OR b.expiry_date >= ${today})
    AND l.is_active = 1 AND l.is_pickable = 1 AND l.type <> 'quarantine'
    AND NOT EXISTS (SELECT 1 FROM stock_hold h WHERE h.is_open = 1
      AND ((h.location_id = b.location_id AND (h.customer_id IS NULL OR h.customer_id = b.customer_id)) OR h.balance_id = b.id))`;
}

/** Every query of the kits area. Work orders' statuses change only through the status machine, stock only through the engine. */
export const kitsRepository = {
  kitPage(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<KitAvailabilityFilters>) {
    return listRows(dialect, kitsQuery(db, scope, req.filters ?? {}), (q) => q.select([
      's.id as kit_sku_id', 's.sku_code', 's.description', 's.customer_id', 'c.name as customer_name', 'cw.warehouse_id', 'w.name as warehouse_name',
    ]), req, KIT_LIST);
  },

  /** Every component of these kits with its code. */
  componentsOf(db: Executor, kitSkuIds: number[]) {
    if (kitSkuIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('kit_component as k').innerJoin('sku as s', 's.id', 'k.component_sku_id')
      .select(['k.kit_sku_id', 'k.component_sku_id', 's.sku_code', 'k.quantity'])
      .where('k.kit_sku_id', 'in', kitSkuIds).orderBy('s.sku_code').execute();
  },

  /** Units on hand of these SKUs in each warehouse. */
  onHand(db: Executor, warehouseIds: number[], skuIds: number[]) {
    if (warehouseIds.length === 0 || skuIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('inventory_balance').select(['warehouse_id', 'sku_id', sql<number>`sum(on_hand)`.as('on_hand')])
      .where('warehouse_id', 'in', warehouseIds).where('sku_id', 'in', skuIds).groupBy(['warehouse_id', 'sku_id']).execute();
  },

  /** The free balances of a SKU at one location, in FEFO/FIFO order: what a take from that location uses. */
  freeAt(db: Executor, f: { warehouseId: number; customerId: number; skuId: number; locationId: number; today: string }) {
    return db.selectFrom('inventory_balance as b').innerJoin('location as l', 'l.id', 'b.location_id')
      .select(['b.id', 'b.lot', 'b.pallet', sql<number>`b.on_hand - b.allocated`.as('free')])
      .where('b.warehouse_id', '=', f.warehouseId).where('b.customer_id', '=', f.customerId).where('b.sku_id', '=', f.skuId)
      .where('b.location_id', '=', f.locationId)
      .where(sql<boolean>`b.on_hand - b.allocated > 0 AND (b.expiry_date IS NULL OR b.expiry_date >= ${f.today})`)
      .orderBy(sql`CASE WHEN b.expiry_date IS NULL THEN 1 ELSE 0 END`).orderBy('b.expiry_date').orderBy('b.received_at').orderBy('b.id')
      .execute();
  },

  /** Free units, unexpired, of these SKUs at these locations (Builds' own component sources), by location and SKU. */
  freeAtLocations(db: Executor, f: { locationIds: number[]; skuIds: number[]; today: string }) {
    if (f.locationIds.length === 0 || f.skuIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('inventory_balance as b').select(['b.location_id', 'b.sku_id', sql<number>`sum(b.on_hand - b.allocated)`.as('free')])
      .where('b.location_id', 'in', f.locationIds).where('b.sku_id', 'in', f.skuIds)
      .where(sql<boolean>`b.on_hand - b.allocated > 0 AND (b.expiry_date IS NULL OR b.expiry_date >= ${f.today})`)
      .groupBy(['b.location_id', 'b.sku_id']).execute();
  },

  /** The pickable location holding the most free units of these SKUs (where a kit is best built), if any. */
  async busiestLocation(db: Executor, f: { warehouseId: number; customerId: number; skuIds: number[]; today: string }) {
    if (f.skuIds.length === 0) return undefined;
    const row = await db.selectFrom('inventory_balance as b').innerJoin('location as l', 'l.id', 'b.location_id')
      .select(['b.location_id', sql<number>`sum(b.on_hand - b.allocated)`.as('free')])
      .where('b.warehouse_id', '=', f.warehouseId).where('b.customer_id', '=', f.customerId).where('b.sku_id', 'in', f.skuIds)
      .where(allocatable(f.today)).groupBy('b.location_id').orderBy(sql`2`, 'desc').orderBy('b.location_id').limit(1).executeTakeFirst();
    return row?.location_id;
  },

  /** The places of these balances (what a work order's reservations held). */
  places(db: Executor, balanceIds: number[]) {
    if (balanceIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('inventory_balance').select(['id', 'warehouse_id', 'customer_id', 'sku_id', 'location_id', 'lot', 'pallet'])
      .where('id', 'in', balanceIds).execute();
  },

  /** Units reserved for each work order's components, by WO number and component SKU. */
  reserved(db: Executor, woNumbers: string[]) {
    if (woNumbers.length === 0) return Promise.resolve([]);
    return db.selectFrom('stock_reservation').select(['document_id', 'sku_id', sql<number>`sum(quantity)`.as('reserved')])
      .where('document_type', '=', WO_DOCUMENT).where('document_id', 'in', woNumbers).where('quantity', '>', 0)
      .groupBy(['document_id', 'sku_id']).execute();
  },

  listWorkOrders(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<WorkOrderFilters>) {
    return listRows(dialect, workOrdersQuery(db, scope, req.filters ?? {}), workOrderColumns, req, WORK_ORDER_LIST);
  },

  /** A work order in the caller's scope (undefined: none, or another's). */
  find(db: Executor, scope: Scope, id: number) {
    return workOrderColumns(workOrdersQuery(db, scope, {}).where('o.id', '=', id)).executeTakeFirst();
  },

  /** The components of these work orders, with their codes. */
  lines(db: Executor, workOrderIds: number[]) {
    if (workOrderIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('kit_work_order_line as l').innerJoin('sku as s', 's.id', 'l.component_sku_id')
      .select(['l.work_order_id', 'l.component_sku_id', 's.sku_code', 'l.per_kit', 'l.quantity'])
      .where('l.work_order_id', 'in', workOrderIds).orderBy('s.sku_code').execute();
  },

  history(db: Executor, workOrderId: number) {
    return db.selectFrom('document_status_history').select(['from_status', 'to_status', 'at', 'username', 'reason'])
      .where('kind', '=', 'KIT_WORK_ORDER').where('document_id', '=', workOrderId).orderBy('id').execute();
  },

  /** A kit SKU of the client, with whether it is active. */
  kitSku(db: Executor, customerId: number, skuId: number) {
    return db.selectFrom('sku').select(['id', 'sku_code', 'is_kit', 'is_active']).where('id', '=', skuId).where('customer_id', '=', customerId).executeTakeFirst();
  },

  async insertWorkOrder(tx: Executor, values: Insertable<KitWorkOrderTable>) {
    return (await tx.insertInto('kit_work_order').values(values).returning('id').executeTakeFirstOrThrow()).id;
  },

  insertLines(tx: Executor, lines: Insertable<KitWorkOrderLineTable>[]) {
    return tx.insertInto('kit_work_order_line').values(lines).execute();
  },

  /** An order line with its order's warehouse, client and status, and whether its SKU is a kit. */
  orderLine(db: Executor, lineId: number) {
    return db.selectFrom('sales_order_line as l').innerJoin('sales_order as o', 'o.id', 'l.order_id').innerJoin('sku as s', 's.id', 'l.sku_id')
      .select(['l.id', 'l.sku_id', 'l.quantity', 'l.allocated_qty', 'o.warehouse_id', 'o.customer_id', 'o.status', 'o.so_number', 's.sku_code', 's.is_kit'])
      .where('l.id', '=', lineId).executeTakeFirst();
  },
};
