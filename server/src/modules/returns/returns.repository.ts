import { sql, type SelectQueryBuilder } from 'kysely';
import { RMA_OPEN_STATUSES } from '@bolx/contracts';
import type { DB, Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

export interface RmaFilterValues { warehouseId?: number; customerId?: number; status?: string; orderId?: number }
export interface ItemFilterValues {
  warehouseId?: number; customerId?: number; status?: string; manual?: boolean; rmaId?: number; from?: string; to?: string;
}

const RMA_LIST: ListSpec = {
  sortable: {
    rmaNumber: 'r.rma_number', status: 'r.status', soNumber: 'o.so_number', customerName: 'c.name', expiresOn: 'r.expires_on', createdAt: 'r.created_at',
  },
  defaultSort: { column: 'r.id', direction: 'desc' },
  searchable: ['r.rma_number', 'o.so_number', 'o.reference_number', 'r.tracking_number'],
  tieBreaker: 'r.id',
};
const ITEM_LIST: ListSpec = {
  sortable: { receivedAt: 'i.received_at', skuCode: 's.sku_code', customerName: 'c.name', quantity: 'i.quantity', disposition: 'i.disposition' },
  defaultSort: { column: 'i.id', direction: 'desc' },
  searchable: ['s.sku_code', 's.description', 'r.rma_number', 'o.so_number'],
  tieBreaker: 'i.id',
};

/**
 * What an order line already counts as returned: each RMA line still open at what it authorised (or received,
 * when a manager let more in), a closed, expired or cancelled one at what actually came; and parcels without an
 * RMA linked to the line. One correlated expression, read after the order row is locked.
 */
const countedOf = (orderLine: string) => sql<number>`(
  coalesce((SELECT sum(CASE WHEN rr.status IN (${sql.join([...RMA_OPEN_STATUSES])})
      THEN CASE WHEN rl.received_qty > rl.quantity THEN rl.received_qty ELSE rl.quantity END ELSE rl.received_qty END)
    FROM rma_line rl INNER JOIN rma rr ON rr.id = rl.rma_id WHERE rl.order_line_id = ${sql.ref(orderLine)}), 0)
  + coalesce((SELECT sum(ri.quantity) FROM return_item ri WHERE ri.rma_id IS NULL AND ri.order_line_id = ${sql.ref(orderLine)}), 0))`;

function rmasQuery(db: Executor, scope: Scope, f: RmaFilterValues) {
  let q = db.selectFrom('rma as r').innerJoin('sales_order as o', 'o.id', 'r.order_id').innerJoin('customer as c', 'c.id', 'r.customer_id')
    .where(scope.where({ warehouse: 'r.warehouse_id', customer: 'r.customer_id' }, { warehouseId: f.warehouseId, customerId: f.customerId }));
  if (f.status) q = q.where('r.status', '=', f.status);
  if (f.orderId) q = q.where('r.order_id', '=', f.orderId);
  return q;
}
const rmaColumns = <O>(q: SelectQueryBuilder<DB, 'rma' | 'sales_order' | 'customer' | any, O>) => q.select([
  'r.id', 'r.rma_number', 'r.status', 'r.warehouse_id', 'r.customer_id', 'c.name as customer_name', 'r.order_id', 'o.so_number', 'o.reference_number',
  'r.resolution', 'r.expires_on', 'r.tracking_number', 'r.carrier', 'r.created_via', 'r.created_at', 'r.notes',
  sql<number>`(SELECT coalesce(sum(quantity), 0) FROM rma_line WHERE rma_id = r.id)`.as('units'),
  sql<number>`(SELECT coalesce(sum(received_qty), 0) FROM rma_line WHERE rma_id = r.id)`.as('received_units'),
]);
export type RmaRow = { id: number; rma_number: string; status: string; warehouse_id: number; customer_id: number; customer_name: string; order_id: number;
  so_number: string; reference_number: string; resolution: string; expires_on: string; tracking_number: string | null; carrier: string | null;
  created_via: string; created_at: string; notes: string | null; units: number; received_units: number };

function itemsQuery(db: Executor, scope: Scope, f: ItemFilterValues) {
  let q = db.selectFrom('return_item as i').innerJoin('sku as s', 's.id', 'i.sku_id').innerJoin('customer as c', 'c.id', 'i.customer_id')
    .innerJoin('location as l', 'l.id', 'i.location_id').leftJoin('rma as r', 'r.id', 'i.rma_id').leftJoin('sales_order as o', 'o.id', 'i.order_id')
    .leftJoin('location as dl', 'dl.id', 'i.disposition_location_id').leftJoin('app_user as u', 'u.id', 'i.received_by')
    .where(scope.where({ warehouse: 'i.warehouse_id', customer: 'i.customer_id' }, { warehouseId: f.warehouseId, customerId: f.customerId }));
  if (f.status === 'Received') q = q.where('i.inspected_at', 'is', null).where('i.disposition', 'is', null);
  if (f.status === 'Inspected') q = q.where('i.inspected_at', 'is not', null).where('i.disposition', 'is', null);
  if (f.status === 'Disposed') q = q.where('i.disposition', 'is not', null);
  if (f.manual === true) q = q.where('i.rma_id', 'is', null);
  if (f.manual === false) q = q.where('i.rma_id', 'is not', null);
  if (f.rmaId) q = q.where('i.rma_id', '=', f.rmaId);
  if (f.from) q = q.where('i.business_day', '>=', f.from);
  if (f.to) q = q.where('i.business_day', '<=', f.to);
  return q;
}
const itemColumns = <O>(q: SelectQueryBuilder<any, any, O>) => q.select([
  'i.id', 'i.rma_id', 'r.rma_number', 'i.rma_line_id', 'i.warehouse_id', 'i.customer_id', 'c.name as customer_name', 'i.order_id', 'o.so_number',
  'i.sku_id', 's.sku_code', 's.description', 'i.lot', 'i.expiry_date', 'i.quantity', 'i.reason', 'i.location_id', 'l.code as location_code',
  'i.received_at', 'u.username as received_by', 'i.condition', 'i.notes', 'i.inspected_at', 'i.disposition', 'dl.code as disposition_location_code',
  'i.disposition_reason', 'i.disposed_at',
]);
export type ItemRow = { id: number; rma_id: number | null; rma_number: string | null; rma_line_id: number | null; warehouse_id: number; customer_id: number;
  customer_name: string; order_id: number | null; so_number: string | null; sku_id: number; sku_code: string; description: string | null; lot: string;
  expiry_date: string | null; quantity: number; reason: string; location_id: number; location_code: string; received_at: string; received_by: string | null;
  condition: string | null; notes: string | null; inspected_at: string | null; disposition: string | null; disposition_location_code: string | null;
  disposition_reason: string | null; disposed_at: string | null };

/** Every statement of the returns area. */
export const returnsRepository = {
  listRmas(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<RmaFilterValues>) {
    return listRows(dialect, rmasQuery(db, scope, req.filters ?? {}), (q) => rmaColumns(q) as any, req, RMA_LIST) as Promise<{ rows: RmaRow[]; total: number }>;
  },
  findRma(db: Executor, scope: Scope, id: number) {
    return (rmaColumns(rmasQuery(db, scope, {}).where('r.id', '=', id)) as any).executeTakeFirst() as Promise<RmaRow | undefined>;
  },
  /** The RMAs of a warehouse a scan names (the open ones, or any): by RMA number, order number or reference, or tracking number. */
  rmasByCode(db: Executor, scope: Scope, warehouseId: number, code: string, openOnly: boolean) {
    const all = rmasQuery(db, scope, { warehouseId });
    const q = (openOnly ? all.where('r.status', 'in', [...RMA_OPEN_STATUSES]) : all)
      .where((eb) => eb.or([eb('r.rma_number', '=', code), eb('o.so_number', '=', code), eb('o.reference_number', '=', code), eb('r.tracking_number', '=', code)]));
    return (rmaColumns(q) as any).orderBy('r.id', 'desc').limit(50).execute() as Promise<RmaRow[]>;
  },
  rmaLines(db: Executor, rmaIds: number[]) {
    if (rmaIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('rma_line as l').innerJoin('sku as s', 's.id', 'l.sku_id')
      .select(['l.id', 'l.rma_id', 'l.order_line_id', 'l.sku_id', 's.sku_code', 's.description', 'l.quantity', 'l.received_qty', 'l.reason', 'l.expected_condition', 'l.notes'])
      .where('l.rma_id', 'in', rmaIds).orderBy('l.id').execute();
  },
  history(db: Executor, rmaId: number) {
    return db.selectFrom('document_status_history').select(['from_status', 'to_status', 'at', 'username', 'reason'])
      .where('kind', '=', 'RMA').where('document_id', '=', rmaId).orderBy('id').execute();
  },

  listItems(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<ItemFilterValues>) {
    return listRows(dialect, itemsQuery(db, scope, req.filters ?? {}), (q) => itemColumns(q) as any, req, ITEM_LIST) as Promise<{ rows: ItemRow[]; total: number }>;
  },
  findItem(db: Executor, scope: Scope, id: number) {
    return (itemColumns(itemsQuery(db, scope, {}).where('i.id', '=', id)) as any).executeTakeFirst() as Promise<ItemRow | undefined>;
  },
  itemsOfRma(db: Executor, rmaId: number) {
    return (itemColumns(itemsQuery(db, { where: () => sql`1 = 1` } as unknown as Scope, {}).where('i.rma_id', '=', rmaId)) as any).orderBy('i.id').execute() as Promise<ItemRow[]>;
  },
  photos(db: Executor, itemIds: number[]) {
    if (itemIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('return_photo as p').innerJoin('stored_file as f', 'f.id', 'p.file_id')
      .select(['p.id', 'p.return_item_id', 'p.file_id', 'f.file_name']).where('p.return_item_id', 'in', itemIds).orderBy('p.id').execute();
  },
  photo(db: Executor, photoId: number) {
    return db.selectFrom('return_photo').select(['id', 'return_item_id', 'file_id']).where('id', '=', photoId).executeTakeFirst();
  },
  photoCount(db: Executor, itemId: number) {
    return db.selectFrom('return_photo').select(sql<number>`count(*)`.as('n')).where('return_item_id', '=', itemId).executeTakeFirstOrThrow().then((r) => Number(r.n));
  },

  /** A shipped order's header in the caller's scope, found by id. */
  order(db: Executor, scope: Scope, id: number) {
    return db.selectFrom('sales_order as o').select(['o.id', 'o.so_number', 'o.reference_number', 'o.warehouse_id', 'o.customer_id', 'o.status', 'o.ship_date'])
      .where('o.id', '=', id).where(scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' })).executeTakeFirst();
  },
  /** An order of a client in a warehouse by its number or reference, in the caller's scope. */
  orderByCode(db: Executor, scope: Scope, warehouseId: number, customerId: number, code: string) {
    return db.selectFrom('sales_order as o').select(['o.id', 'o.so_number', 'o.reference_number', 'o.warehouse_id', 'o.customer_id', 'o.status', 'o.ship_date'])
      .where('o.warehouse_id', '=', warehouseId).where('o.customer_id', '=', customerId)
      .where((eb) => eb.or([eb('o.so_number', '=', code), eb('o.reference_number', '=', code)]))
      .where(scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' })).orderBy('o.id', 'desc').executeTakeFirst();
  },
  /** An order's lines with what they shipped and what is already returned or authorised (see countedOf). */
  returnableLines(tx: Executor, orderId: number) {
    return tx.selectFrom('sales_order_line as ol').innerJoin('sku as s', 's.id', 'ol.sku_id')
      .select(['ol.id', 'ol.sku_id', 's.sku_code', 's.description', 'ol.lot', 'ol.shipped_qty', countedOf('ol.id').as('counted')])
      .where('ol.order_id', '=', orderId).orderBy('ol.line_no').execute();
  },

  insertRma(tx: Executor, row: { rma_number: string; warehouse_id: number; customer_id: number; order_id: number; resolution: string; expires_on: string;
    tracking_number: string | null; carrier: string | null; notes: string | null; created_via: string; created_by: number | null; at: string; status: string }) {
    const { at, ...rest } = row;
    return tx.insertInto('rma').values({ ...rest, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow().then((r) => Number(r.id));
  },
  insertRmaLines(tx: Executor, rows: { rma_id: number; order_line_id: number; sku_id: number; quantity: number; reason: string; expected_condition: string; notes: string | null }[]) {
    return tx.insertInto('rma_line').values(rows).execute();
  },
  addReceived(tx: Executor, lineId: number, quantity: number) {
    return tx.updateTable('rma_line').set({ received_qty: sql`received_qty + ${quantity}` }).where('id', '=', lineId).execute();
  },

  /** A location as a returns step checks it: its warehouse, type, category, whether active. */
  location(tx: Executor, id: number) {
    return tx.selectFrom('location as l').innerJoin('location_type as t', 't.code', 'l.type')
      .select(['l.id', 'l.code', 'l.warehouse_id', 'l.type', 't.category', 'l.is_active']).where('l.id', '=', id).executeTakeFirst();
  },
  /** A lot's expiry as the warehouse's stock knows it (any balance of the client's SKU and lot). */
  lotExpiry(tx: Executor, customerId: number, skuId: number, lot: string) {
    return tx.selectFrom('inventory_balance').select('expiry_date').where('customer_id', '=', customerId).where('sku_id', '=', skuId).where('lot', '=', lot)
      .where('expiry_date', 'is not', null).orderBy('expiry_date').limit(1).executeTakeFirst().then((r) => r?.expiry_date ?? null);
  },
  balanceId(tx: Executor, p: { warehouseId: number; customerId: number; skuId: number; locationId: number; lot: string }) {
    return tx.selectFrom('inventory_balance').select('id').where('warehouse_id', '=', p.warehouseId).where('customer_id', '=', p.customerId)
      .where('sku_id', '=', p.skuId).where('location_id', '=', p.locationId).where('lot', '=', p.lot).where('pallet', '=', '').executeTakeFirstOrThrow().then((r) => Number(r.id));
  },

  insertItem(tx: Executor, row: { rma_id: number | null; rma_line_id: number | null; warehouse_id: number; customer_id: number; order_id: number | null;
    order_line_id: number | null; sku_id: number; lot: string; expiry_date: string | null; quantity: number; reason: string; location_id: number;
    business_day: string; received_at: string; received_by: number | null; notes?: string | null }) {
    return tx.insertInto('return_item').values(row).returning('id').executeTakeFirstOrThrow().then((r) => Number(r.id));
  },
  /** Inspects an item not yet disposed of: one conditional statement (none: it is disposed, or gone). */
  inspect(tx: Executor, id: number, v: { condition: string; notes: string | null; at: string }) {
    return tx.updateTable('return_item').set({ condition: v.condition, notes: v.notes, inspected_at: v.at })
      .where('id', '=', id).where('disposition', 'is', null).returning('id').executeTakeFirst();
  },
  /** Takes an inspected item's disposition: one conditional statement, so two clerks never dispose of the same units twice. */
  dispose(tx: Executor, id: number, v: { disposition: string; locationId: number | null; reason: string | null; at: string }) {
    return tx.updateTable('return_item').set({ disposition: v.disposition, disposition_location_id: v.locationId, disposition_reason: v.reason, disposed_at: v.at })
      .where('id', '=', id).where('disposition', 'is', null).where('inspected_at', 'is not', null).returning('id').executeTakeFirst();
  },
  linkOrder(tx: Executor, id: number, orderId: number, orderLineId: number) {
    return tx.updateTable('return_item').set({ order_id: orderId, order_line_id: orderLineId })
      .where('id', '=', id).where('rma_id', 'is', null).where('order_id', 'is', null).returning('id').executeTakeFirst();
  },
  /** How an RMA's units stand: lines short of what was authorised, items not yet inspected, items not yet disposed. */
  rmaProgress(tx: Executor, rmaId: number) {
    return tx.selectFrom('rma').select([
      sql<number>`(SELECT count(*) FROM rma_line WHERE rma_id = rma.id AND received_qty < quantity)`.as('short_lines'),
      sql<number>`(SELECT count(*) FROM return_item WHERE rma_id = rma.id AND inspected_at IS NULL)`.as('uninspected'),
      sql<number>`(SELECT count(*) FROM return_item WHERE rma_id = rma.id AND disposition IS NULL)`.as('undisposed'),
    ]).where('id', '=', rmaId).executeTakeFirstOrThrow().then((r) => ({ shortLines: Number(r.short_lines), uninspected: Number(r.uninspected), undisposed: Number(r.undisposed) }));
  },
  /** RMAs still waiting for their goods whose last day is before `day` (the caller checks each warehouse's own day). */
  dueToExpire(db: Executor, day: string) {
    return db.selectFrom('rma').select(['id', 'warehouse_id', 'expires_on', 'rma_number']).where('status', 'in', ['Authorised', 'In Transit'])
      .where('expires_on', '<', day).orderBy('id').limit(1000).execute();
  },

  skusByCode(db: Executor, scope: Scope, warehouseId: number, customerId: number | undefined, code: string) {
    let q = db.selectFrom('sku as s').innerJoin('customer as c', 'c.id', 's.customer_id')
      .innerJoin('customer_warehouse as cw', (j) => j.onRef('cw.customer_id', '=', 's.customer_id').on('cw.warehouse_id', '=', warehouseId))
      .select(['s.id', 's.customer_id', 'c.name as customer_name', 's.sku_code', 's.description'])
      .where((eb) => eb.or([eb('s.sku_code', '=', code), eb('s.upc', '=', code)]))
      .where(scope.where({ customer: 's.customer_id' }));
    if (customerId) q = q.where('s.customer_id', '=', customerId);
    return q.orderBy('s.sku_code').limit(50).execute();
  },

  // ----- the report -----
  reportDays(db: Executor, scope: Scope, f: { warehouseId?: number; customerId?: number; from: string; to: string }) {
    return itemsQuery(db, scope, f).select(['i.business_day', sql<string>`coalesce(i.disposition, 'pending')`.as('disposition'), sql<number>`sum(i.quantity)`.as('units')])
      .groupBy(['i.business_day', sql`coalesce(i.disposition, 'pending')`]).orderBy('i.business_day').execute();
  },
  /** Active locations of a warehouse of these types (or category), by code, for the returns screens' pickers. */
  locations(db: Executor, warehouseId: number, where: { types?: string[]; category?: string; notTypes?: string[] }, search: string) {
    let q = db.selectFrom('location as l').innerJoin('location_type as t', 't.code', 'l.type').select(['l.id', 'l.code', 'l.type'])
      .where('l.warehouse_id', '=', warehouseId).where('l.is_active', '=', 1);
    if (where.types) q = q.where('l.type', 'in', where.types);
    if (where.category) q = q.where('t.category', '=', where.category);
    if (where.notTypes) q = q.where('l.type', 'not in', where.notTypes);
    if (search) q = q.where('l.code', 'like', `${search.replace(/[%_\\]/g, '')}%`);
    return q.orderBy('l.code').limit(50).execute();
  },
  reportItems(db: Executor, scope: Scope, f: { warehouseId?: number; customerId?: number; from: string; to: string }) {
    return itemsQuery(db, scope, f).select([
      'i.reason', sql<string>`coalesce(i.disposition, 'pending')`.as('disposition'), 'i.customer_id', 'c.name as customer_name', 'i.sku_id', 's.sku_code', 's.description',
      sql<number>`sum(i.quantity)`.as('units'), sql<number>`count(*)`.as('items'),
    ]).groupBy(['i.reason', sql`coalesce(i.disposition, 'pending')`, 'i.customer_id', 'c.name', 'i.sku_id', 's.sku_code', 's.description']).execute();
  },
  reportRmas(db: Executor, scope: Scope, f: { warehouseId?: number; customerId?: number; from: string; to: string }) {
    return itemsQuery(db, scope, f).where('i.rma_id', 'is not', null).select(sql<number>`count(DISTINCT i.rma_id)`.as('n')).executeTakeFirstOrThrow().then((r) => Number(r.n));
  },
  /** Units shipped per SKU in the period (by ship date), in the caller's scope. */
  shippedBySku(db: Executor, scope: Scope, f: { warehouseId?: number; customerId?: number; from: string; to: string }) {
    return db.selectFrom('sales_order_line as ol').innerJoin('sales_order as o', 'o.id', 'ol.order_id').innerJoin('sku as s', 's.id', 'ol.sku_id')
      .innerJoin('customer as c', 'c.id', 'o.customer_id')
      .select(['ol.sku_id', 's.sku_code', 's.description', 'c.name as customer_name', sql<number>`sum(ol.shipped_qty)`.as('shipped')])
      .where(scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' }, { warehouseId: f.warehouseId, customerId: f.customerId }))
      .where('o.ship_date', '>=', f.from).where('o.ship_date', '<=', f.to).where('ol.shipped_qty', '>', 0)
      .groupBy(['ol.sku_id', 's.sku_code', 's.description', 'c.name']).execute();
  },
};
