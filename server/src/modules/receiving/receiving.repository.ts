import { sql, type Insertable, type RawBuilder, type Selectable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { ReceivingOrderFilters } from '@bolx/contracts';
import type { DB, Executor } from '../../db/schema.js';
import type { ReferencedLocation } from '../../platform/stock/references.js';
import { lockRows, type Dialect } from '../../db/dialect.js';
import { dayInAnyZone } from '../../platform/business-day.js';
import type { ReceivingOrderLineTable, ReceivingOrderTable, ReceivingPutawayTable, ReceivingReceiptTable } from '../../db/tables/receiving.js';
import type { Scope } from '../../platform/scope.js';
import { skuCodeMatches } from '../../platform/sku-codes.js';

/** Statuses in which goods may still arrive, and in which putaway may run. */
export const RECEIVABLE = ['Open', 'Receiving'] as const;
export const PUTAWAY_OPEN = ['Receiving', 'Received'] as const;
/** Location types goods are received into, and the storage types they are put away to. */
export const INBOUND_TYPES = ['dock', 'staging'];
/** Where damaged units may be set aside (besides a dock or staging location). */
export const DAMAGED_TYPES = ['quarantine', 'returns'];

/** The scoped, filtered RO list before search, order and paging. */
function ordersQuery(db: Executor, scope: Scope, f: ReceivingOrderFilters) {
  let q = db.selectFrom('receiving_order as o')
    .innerJoin('warehouse as w', 'w.id', 'o.warehouse_id')
    .innerJoin('customer as c', 'c.id', 'o.customer_id')
    .where(scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' }, { warehouseId: f.warehouseId, customerId: f.customerId }));
  if (f.status) q = q.where('o.status', '=', f.status);
  if (f.fromDate) q = q.where('o.expected_date', '>=', f.fromDate);
  if (f.toDate) q = q.where('o.expected_date', '<=', f.toDate);
  return q;
}

/** An RO row's columns with its line totals: correlated sums on the line's order index, one statement per page. */
function orderColumns(q: ReturnType<typeof ordersQuery>) {
  const total = (expr: string) => sql<number>`(select coalesce(sum(${sql.raw(expr)}), 0) from receiving_order_line t where t.order_id = o.id)`;
  return q.selectAll('o').select([
    'w.name as warehouse_name', 'c.name as customer_name',
    sql<number>`(select count(*) from receiving_order_line t where t.order_id = o.id)`.as('line_count'),
    total('t.expected_qty').as('expected_qty'),
    total('t.received_qty').as('received_qty'),
    total('t.damaged_qty').as('damaged_qty'),
    total('t.putaway_qty').as('putaway_qty'),
    total('case when t.received_qty + t.damaged_qty > t.expected_qty then t.received_qty + t.damaged_qty - t.expected_qty else 0 end').as('over_qty'),
    total('case when t.received_qty + t.damaged_qty < t.expected_qty then t.expected_qty - t.received_qty - t.damaged_qty else 0 end').as('short_qty'),
  ]);
}

type ScanHit = {
  sku_id: number | null; sku_code: string; sku_active: number; description: string; is_lot_tracked: number; is_expiry_tracked: number;
  matched_by: 'sku' | 'upc' | 'barcode' | 'gtin'; line_id: number | null; line_no: number; expected_qty: number; received_qty: number; damaged_qty: number;
  putaway_qty: number; line_notes: string | null; line_lot: string; line_expiry: string | null;
};

/**
 * The SKU a code scanned on an order names (by code, UPC, barcode, then GTIN, among the order's client's), with
 * its line on the order: a SKU on the order before one that is not.
 */
function scanHit(orderId: number, code: string) {
  const customer = sql`(select customer_id from receiving_order where id = ${orderId})`;
  return sql<ScanHit>`(select s.id as sku_id, s.sku_code, s.is_active as sku_active, s.description, s.is_lot_tracked, s.is_expiry_tracked, m.matched_by,
      li.id as line_id, li.line_no, li.expected_qty, li.received_qty, li.damaged_qty, li.putaway_qty, li.notes as line_notes, li.lot as line_lot, li.expiry_date as line_expiry
    from (${skuCodeMatches(code, (column) => sql<boolean>`${sql.ref(column)} = ${customer}`)}) m join sku s on s.id = m.sku_id
    left join receiving_order_line li on li.order_id = ${orderId} and li.sku_id = s.id
    order by case when li.id is null then 1 else 0 end, m.rank limit 1)`;
}

type OrderQuery = SelectQueryBuilder<DB & { o: ReceivingOrderTable }, 'o', object>;

/**
 * The locations an operation names, joined beside its order's row: one row per location found (none: one row,
 * nulls). Typed by hand: Kysely cannot carry a generic query's joins through a helper.
 */
function withLocations<Q extends OrderQuery>(q: Q, ids: number[]) {
  return (q as OrderQuery)
    .leftJoin('location as loc', (j) => j.on('loc.id', 'in', ids.length ? ids : [0]))
    .leftJoin('location_type as lt', 'lt.code', 'loc.type')
    .select(['loc.id as loc_id', 'loc.code as loc_code', 'loc.warehouse_id as loc_warehouse_id', 'loc.is_active as loc_active', 'loc.type as loc_type',
      'loc.capacity as loc_capacity', 'lt.category as loc_category']) as unknown as SelectQueryBuilder<never, never, Selection<Q> & LocationColumns>;
}
type Selection<Q> = Q extends SelectQueryBuilder<infer _D, infer _T, infer O> ? O : never;
type LocationColumns = {
  loc_id: number | null; loc_code: string | null; loc_warehouse_id: number | null; loc_active: number | null; loc_type: string | null;
  loc_capacity: number | null; loc_category: string | null;
};

/** The locations of withLocations' rows, as the stock engine's reference check reads them (checkLocations). */
function locationsOf(rows: LocationColumns[]): Map<number, ReferencedLocation> {
  return new Map(rows.filter((r) => r.loc_id != null).map((r) => [Number(r.loc_id), {
    id: Number(r.loc_id), code: r.loc_code ?? '', warehouseId: Number(r.loc_warehouse_id), isActive: Number(r.loc_active) === 1, type: r.loc_type ?? '',
    category: r.loc_category, capacity: Number(r.loc_capacity ?? 0),
  }]));
}

/** An RO row's columns as orderColumns selects them (its own and its names and totals). */
const ORDER_FIELDS = [
  'id', 'ro_number', 'warehouse_id', 'customer_id', 'supplier', 'reference_number', 'expected_date', 'status', 'notes', 'created_by', 'created_at',
  'updated_at', 'received_at', 'finalized_at', 'closed_at', 'cancelled_at', 'warehouse_name', 'customer_name', 'line_count', 'expected_qty',
  'received_qty', 'damaged_qty', 'putaway_qty', 'over_qty', 'short_qty',
] as const;
type OrderFields = Awaited<ReturnType<ReturnType<typeof orderColumns>['executeTakeFirstOrThrow']>>;
const PLACE_FIELDS = ['id', 'code', 'warehouse_id', 'is_active', 'type', 'capacity', 'category'] as const;
const placeColumns = ['p1', 'p2'].flatMap((alias) => PLACE_FIELDS.map((f) => `${alias}_${f}`));

/** One location an operation names, beside its order's row as `<alias>_<column>` (nulls when there is none). */
function withPlace<Q extends OrderQuery>(q: Q, alias: 'p1' | 'p2', id: number | null) {
  const place = sql`(select l.id, l.code, l.warehouse_id, l.is_active, l.type, l.capacity, lt.category
    from location l left join location_type lt on lt.code = l.type where l.id = ${id ?? 0})`;
  const joined = (q as OrderQuery).leftJoin(place.as(alias), (j) => j.onTrue()) as unknown as OrderQuery;
  return joined.select(PLACE_FIELDS.map((f) => sql.ref(`${alias}.${f}`).as(`${alias}_${f}`))) as unknown as Q;
}

/** The places withPlace joined, as the stock engine's reference check reads them (checkLocations). */
function placesOf(row: Record<string, unknown>): Map<number, ReferencedLocation> {
  const places = new Map<number, ReferencedLocation>();
  for (const alias of ['p1', 'p2']) {
    const at = (f: string) => row[`${alias}_${f}`];
    if (at('id') == null) continue;
    places.set(Number(at('id')), {
      id: Number(at('id')), code: String(at('code') ?? ''), warehouseId: Number(at('warehouse_id')), isActive: Number(at('is_active')) === 1,
      type: String(at('type') ?? ''), category: (at('category') as string | null) ?? null, capacity: Number(at('capacity') ?? 0),
    });
  }
  return places;
}

/**
 * A line's count with the read of what it refers to folded in: ONE statement. `context` (a one-row read: the
 * order as orderColumns selects it, with `line_id` naming the line to count) is taken first as a materialized CTE —
 * on PostgreSQL locking the order row, which every receiving transaction takes before its lines — then the line
 * `line_id` names is updated by `set` where `where` holds. Answers the line as counted, and the context's columns
 * as they stood before the count (a CTE is read once, before the update on both engines); undefined when no line
 * was counted (the context found nothing, or `where` refused).
 */
async function countWithContext(tx: Executor, d: Dialect, context: OrderQuery, columns: readonly string[],
  set: Record<string, RawBuilder<number>>, where?: RawBuilder<SqlBool>) {
  let update = tx.with((cte) => cte('ctx').materialized(), () => lockRows(d, context, 'o') as never)
    .updateTable('receiving_order_line').set(set)
    .where('id', '=', sql<number>`(select line_id from ctx)`);
  if (where) update = update.where(where);
  // SQLite's RETURNING reads only the updated table: the context's columns come through scalar subqueries.
  const row = await update.returningAll()
    .returning(columns.map((c) => sql`(select ${sql.ref(`ctx.${c}`)} from ctx)`.as(`ctx_${c}`)))
    .executeTakeFirst() as (Selectable<ReceivingOrderLineTable> & Record<string, unknown>) | undefined;
  if (!row) return undefined;
  const read: Record<string, unknown> = Object.fromEntries(columns.map((c) => [c, row[`ctx_${c}`]]));
  const order = Object.fromEntries(ORDER_FIELDS.map((f) => [f, read[f]])) as unknown as OrderFields;
  const line: Selectable<ReceivingOrderLineTable> = {
    id: row.id, order_id: row.order_id, line_no: row.line_no, sku_id: row.sku_id, expected_qty: row.expected_qty, received_qty: row.received_qty,
    damaged_qty: row.damaged_qty, putaway_qty: row.putaway_qty, notes: row.notes, lot: row.lot, expiry_date: row.expiry_date,
  };
  return { order, line, context: read, places: placesOf(read) };
}

/** Every Kysely query of the receiving area. Stock itself changes only through InventoryService.post. */
export const receivingRepository = {
  orders: ordersQuery,
  orderColumns,

  findOrder(db: Executor, scope: Scope, id: number) {
    return orderColumns(ordersQuery(db, scope, {}).where('o.id', '=', id)).executeTakeFirst();
  },

  /**
   * What a receive scan refers to, in ONE statement: the RO in scope, the scanned code's SKU with its line on the
   * order (lines first; by code, UPC, barcode, then GTIN), and the locations named. Undefined when the RO is not in scope.
   */
  async orderForScan(db: Executor, scope: Scope, orderId: number, code: string, locationIds: number[]) {
    const rows = await withLocations(orderColumns(ordersQuery(db, scope, {}).where('o.id', '=', orderId))
      .leftJoin(scanHit(orderId, code).as('hit'), (j) => j.onTrue()).selectAll('hit'), locationIds).execute();
    if (!rows[0]) return undefined;
    const h = rows[0];
    // A SKU found has all its columns; a line found all of its own (left joins type them nullable).
    const match = h.sku_id == null ? undefined : {
      sku_id: h.sku_id, sku_code: h.sku_code!, sku_active: h.sku_active!, description: h.description!, is_lot_tracked: h.is_lot_tracked!,
      is_expiry_tracked: h.is_expiry_tracked!, matched_by: h.matched_by!, id: h.line_id, line_no: h.line_no!, expected_qty: h.expected_qty!,
      received_qty: h.received_qty!, damaged_qty: h.damaged_qty!, putaway_qty: h.putaway_qty!, notes: h.line_notes, lot: h.line_lot!, expiry_date: h.line_expiry,
    };
    return { order: h, match, locations: locationsOf(rows) };
  },

  /**
   * What a putaway refers to, in ONE statement: the RO in scope, the line with its SKU and the expiry of the stock
   * waiting at `source` (its lot and pallet at the dock), and the locations named. Undefined when the RO is not in scope.
   */
  async orderForPutaway(db: Executor, scope: Scope, orderId: number, lineId: number, source: { locationId: number; lot: string; pallet: string }, locationIds: number[]) {
    const rows = await withLocations(orderColumns(ordersQuery(db, scope, {}).where('o.id', '=', orderId))
      .leftJoin('receiving_order_line as li', (j) => j.on('li.order_id', '=', orderId).on('li.id', '=', lineId))
      .leftJoin('sku as s', 's.id', 'li.sku_id')
      .select(['li.id as line_id', 'li.line_no', 'li.sku_id', 'li.expected_qty as line_expected_qty', 'li.received_qty as line_received_qty',
        'li.damaged_qty as line_damaged_qty', 'li.putaway_qty as line_putaway_qty', 'li.notes as line_notes', 'li.lot as line_lot', 'li.expiry_date as line_expiry',
        's.sku_code', 's.description', 's.is_lot_tracked', 's.is_expiry_tracked'])
      .select(sql<string | null>`(select b.expiry_date from inventory_balance b where b.warehouse_id = o.warehouse_id and b.customer_id = o.customer_id
        and b.sku_id = li.sku_id and b.location_id = ${source.locationId} and b.lot = ${source.lot} and b.pallet = ${source.pallet})`.as('source_expiry')), locationIds).execute();
    if (!rows[0]) return undefined;
    const r = rows[0];
    const line = r.line_id == null ? undefined : {
      id: r.line_id, order_id: orderId, line_no: r.line_no!, sku_id: r.sku_id!, expected_qty: r.line_expected_qty!, received_qty: r.line_received_qty!,
      damaged_qty: r.line_damaged_qty!, putaway_qty: r.line_putaway_qty!, notes: r.line_notes, lot: r.line_lot!, expiry_date: r.line_expiry,
      sku_code: r.sku_code!, description: r.description!, is_lot_tracked: r.is_lot_tracked!, is_expiry_tracked: r.is_expiry_tracked!, source_expiry: r.source_expiry,
    };
    return { order: r, line, locations: locationsOf(rows) };
  },

  /**
   * A receive scan counted on its line, with what it refers to, in ONE statement (see countWithContext): the RO in
   * scope while it may still receive (Open or Receiving), the scanned code's SKU and its line on the order, the
   * expiry the scanned lot already carries in stock, and the dock and damage locations. Undefined when nothing was
   * counted: orderForScan then tells why.
   */
  async countScan(tx: Executor, d: Dialect, scope: Scope, p: { orderId: number; code: string; lot: string; good: number; damaged: number; locationId: number; damagedLocationId: number | null }) {
    const lotExpiry = sql<string | null>`(select b.expiry_date from inventory_balance b where ${p.lot} <> '' and b.customer_id = o.customer_id
      and b.sku_id = hit.sku_id and b.lot = ${p.lot} and b.expiry_date is not null limit 1)`;
    let context = orderColumns(ordersQuery(tx, scope, {}).where('o.id', '=', p.orderId).where('o.status', 'in', [...RECEIVABLE]))
      .leftJoin(scanHit(p.orderId, p.code).as('hit'), (j) => j.onTrue())
      .select(['hit.line_id', 'hit.sku_code', 'hit.sku_active', 'hit.description', 'hit.is_lot_tracked', 'hit.is_expiry_tracked', 'hit.matched_by', lotExpiry.as('lot_expiry')]) as unknown as OrderQuery;
    context = withPlace(withPlace(context, 'p1', p.locationId), 'p2', p.damagedLocationId);
    const hit = ['sku_code', 'sku_active', 'description', 'is_lot_tracked', 'is_expiry_tracked', 'matched_by', 'lot_expiry'] as const;
    const counted = await countWithContext(tx, d, context, [...ORDER_FIELDS, ...hit, ...placeColumns], {
      received_qty: sql<number>`received_qty + ${p.good}`, damaged_qty: sql<number>`damaged_qty + ${p.damaged}`,
    });
    if (!counted) return undefined;
    const c = counted.context;
    return {
      order: counted.order, places: counted.places, matchedBy: c.matched_by as ScanHit['matched_by'], lotExpiry: (c.lot_expiry as string | null) ?? null,
      line: { ...counted.line, sku_code: String(c.sku_code), description: String(c.description), is_lot_tracked: Number(c.is_lot_tracked), is_expiry_tracked: Number(c.is_expiry_tracked) },
    };
  },

  /**
   * A putaway counted on its line, with what it refers to, in ONE statement (see countWithContext): the RO in scope
   * while putaway runs (Receiving or Received), the line's SKU, the expiry of the stock waiting at the source (its
   * lot and pallet there), and both locations; counted only while that many good units wait for putaway.
   * Undefined when nothing was counted: orderForPutaway then tells why.
   */
  async countPutaway(tx: Executor, d: Dialect, scope: Scope, p: { orderId: number; lineId: number; quantity: number; fromLocationId: number; toLocationId: number; lot: string; pallet: string }) {
    let context = orderColumns(ordersQuery(tx, scope, {}).where('o.id', '=', p.orderId).where('o.status', 'in', [...PUTAWAY_OPEN]))
      .innerJoin('receiving_order_line as li', (j) => j.onRef('li.order_id', '=', 'o.id').on('li.id', '=', p.lineId))
      .innerJoin('sku as s', 's.id', 'li.sku_id')
      .select(['li.id as line_id', 's.sku_code', 's.description', 's.is_lot_tracked', 's.is_expiry_tracked'])
      .select(sql<string | null>`(select b.expiry_date from inventory_balance b where b.warehouse_id = o.warehouse_id and b.customer_id = o.customer_id
        and b.sku_id = li.sku_id and b.location_id = ${p.fromLocationId} and b.lot = ${p.lot} and b.pallet = ${p.pallet})`.as('source_expiry')) as unknown as OrderQuery;
    context = withPlace(withPlace(context, 'p1', p.fromLocationId), 'p2', p.toLocationId);
    const sku = ['sku_code', 'description', 'is_lot_tracked', 'is_expiry_tracked', 'source_expiry'] as const;
    const counted = await countWithContext(tx, d, context, [...ORDER_FIELDS, ...sku, ...placeColumns], { putaway_qty: sql<number>`putaway_qty + ${p.quantity}` },
      sql<SqlBool>`received_qty - putaway_qty >= ${p.quantity}`);
    if (!counted) return undefined;
    const c = counted.context;
    return {
      order: counted.order, places: counted.places,
      line: {
        ...counted.line, sku_code: String(c.sku_code), description: String(c.description), is_lot_tracked: Number(c.is_lot_tracked),
        is_expiry_tracked: Number(c.is_expiry_tracked), source_expiry: (c.source_expiry as string | null) ?? null,
      },
    };
  },

  /** The lines of the report (one row per RO line), scoped and filtered like the RO list. */
  lineReport(db: Executor, scope: Scope, f: ReceivingOrderFilters) {
    return ordersQuery(db, scope, f)
      .innerJoin('receiving_order_line as li', 'li.order_id', 'o.id')
      .innerJoin('sku as s', 's.id', 'li.sku_id');
  },

  /** Receipts (the inward log), scoped; the date range is the receipt's business day in its warehouse's time zone. */
  receiptReport(db: Executor, scope: Scope, f: ReceivingOrderFilters, dialect: Dialect) {
    let q = db.selectFrom('receiving_receipt as r')
      .innerJoin('receiving_order as o', 'o.id', 'r.order_id')
      .innerJoin('warehouse as w', 'w.id', 'o.warehouse_id')
      .innerJoin('customer as c', 'c.id', 'o.customer_id')
      .innerJoin('sku as s', 's.id', 'r.sku_id')
      .innerJoin('location as l', 'l.id', 'r.location_id')
      .leftJoin('location as dl', 'dl.id', 'r.damaged_location_id')
      .where(scope.where({ warehouse: 'r.warehouse_id', customer: 'r.customer_id' }, { warehouseId: f.warehouseId, customerId: f.customerId }));
    if (f.status) q = q.where('o.status', '=', f.status);
    const day = dialect.localDay(sql.ref('r.at'), sql.ref('w.timezone'));
    if (f.fromDate) q = q.where('r.at', '>=', dayInAnyZone(f.fromDate).from).where(day, '>=', f.fromDate);
    if (f.toDate) q = q.where('r.at', '<', dayInAnyZone(f.toDate).until).where(day, '<=', f.toDate);
    if (f.today) {
      // Each warehouse's today in its own zone; it began at most a day (and a DST hour) ago: an index-friendly bound beside it.
      const now = new Date();
      q = q.where('r.at', '>=', new Date(now.getTime() - 25 * 3600_000).toISOString()).where(day, '=', dialect.localDay(sql.val(now.toISOString()), sql.ref('w.timezone')));
    }
    return q;
  },

  lines(db: Executor, orderId: number) {
    return db.selectFrom('receiving_order_line as li').innerJoin('sku as s', 's.id', 'li.sku_id')
      .selectAll('li').select(['s.sku_code', 's.description', 's.is_lot_tracked', 's.is_expiry_tracked'])
      .where('li.order_id', '=', orderId).orderBy('li.line_no').execute();
  },

  line(db: Executor, orderId: number, lineId: number) {
    return db.selectFrom('receiving_order_line as li').innerJoin('sku as s', 's.id', 'li.sku_id')
      .selectAll('li').select(['s.sku_code', 's.description', 's.is_lot_tracked', 's.is_expiry_tracked'])
      .where('li.order_id', '=', orderId).where('li.id', '=', lineId).executeTakeFirst();
  },

  receipts(db: Executor, orderId: number) {
    return db.selectFrom('receiving_receipt as r').innerJoin('sku as s', 's.id', 'r.sku_id').innerJoin('location as l', 'l.id', 'r.location_id')
      .leftJoin('location as dl', 'dl.id', 'r.damaged_location_id')
      .selectAll('r').select(['s.sku_code', 'l.code as location_code', 'dl.code as damaged_location_code'])
      .where('r.order_id', '=', orderId).orderBy('r.id').execute();
  },

  putaways(db: Executor, orderId: number) {
    return db.selectFrom('receiving_putaway as p').innerJoin('receiving_order_line as li', 'li.id', 'p.line_id')
      .innerJoin('sku as s', 's.id', 'li.sku_id')
      .innerJoin('location as f', 'f.id', 'p.from_location_id').innerJoin('location as t', 't.id', 'p.to_location_id')
      .selectAll('p').select(['s.sku_code', 'f.code as from_code', 't.code as to_code'])
      .where('p.order_id', '=', orderId).orderBy('p.id').execute();
  },

  documents(db: Executor, orderId: number) {
    return db.selectFrom('receiving_order_document as d').innerJoin('stored_file as f', 'f.id', 'd.file_id')
      .select(['d.id', 'd.created_at', 'f.file_name', 'f.mime_type', 'f.size_bytes'])
      .where('d.order_id', '=', orderId).orderBy('d.id').execute();
  },

  document(db: Executor, documentId: number) {
    return db.selectFrom('receiving_order_document').selectAll().where('id', '=', documentId).executeTakeFirst();
  },

  async countDocuments(db: Executor, orderId: number) {
    const r = await db.selectFrom('receiving_order_document').select(sql<number>`count(*)`.as('n')).where('order_id', '=', orderId).executeTakeFirstOrThrow();
    return Number(r.n);
  },

  async insertDocument(tx: Executor, orderId: number, fileId: number) {
    await tx.insertInto('receiving_order_document').values({ order_id: orderId, file_id: fileId, created_at: new Date().toISOString() }).execute();
  },

  /**
   * A customer's SKUs matching scanned codes: the SKU code, its UPC, one of its barcodes, or a package GTIN.
   * One statement per kind, whatever the number of codes.
   */
  async skusByCodes(db: Executor, customerId: number, codes: string[]) {
    if (codes.length === 0) return [];
    const upper = [...new Set(codes.map((c) => c.toUpperCase()))];
    const [byCode, byUpc, byBarcode, byGtin] = await Promise.all([
      db.selectFrom('sku').select(['id', 'sku_code', 'is_active', 'is_lot_tracked', 'is_expiry_tracked', sql<string>`upper(sku_code)`.as('code')]).where('customer_id', '=', customerId).where(sql`upper(sku_code)`, 'in', upper).execute(),
      db.selectFrom('sku').select(['id', 'sku_code', 'is_active', 'is_lot_tracked', 'is_expiry_tracked', 'upc as code']).where('customer_id', '=', customerId).where('upc', 'in', codes).execute(),
      db.selectFrom('sku_barcode as b').innerJoin('sku as s', 's.id', 'b.sku_id').select(['s.id', 's.sku_code', 's.is_active', 's.is_lot_tracked', 's.is_expiry_tracked', 'b.barcode as code'])
        .where('b.customer_id', '=', customerId).where('b.barcode', 'in', codes).execute(),
      db.selectFrom('sku_package as p').innerJoin('sku as s', 's.id', 'p.sku_id').select(['s.id', 's.sku_code', 's.is_active', 's.is_lot_tracked', 's.is_expiry_tracked', 'p.gtin as code'])
        .where('p.customer_id', '=', customerId).where('p.gtin', 'in', codes).execute(),
    ]);
    return [
      ...byCode.map((r) => ({ ...r, matchedBy: 'sku' as const })), ...byUpc.map((r) => ({ ...r, matchedBy: 'upc' as const })),
      ...byBarcode.map((r) => ({ ...r, matchedBy: 'barcode' as const })), ...byGtin.map((r) => ({ ...r, matchedBy: 'gtin' as const })),
    ];
  },

  /** The expiry a lot of a SKU already carries anywhere in stock (a lot has one expiry date). */
  async lotExpiry(db: Executor, customerId: number, skuId: number, lot: string) {
    const row = await db.selectFrom('inventory_balance').select('expiry_date').where('customer_id', '=', customerId).where('sku_id', '=', skuId)
      .where('lot', '=', lot).where('expiry_date', 'is not', null).limit(1).executeTakeFirst();
    return row?.expiry_date ?? null;
  },

  /** A warehouse's active quarantine locations with what they hold, emptiest first: where an expired lot goes. */
  quarantineLocations(db: Executor, warehouseId: number, limit: number) {
    const onHand = sql<number>`(select coalesce(sum(b.on_hand), 0) from inventory_balance b where b.location_id = l.id)`;
    return db.selectFrom('location as l').select(['l.id', 'l.code', 'l.type', 'l.zone', 'l.capacity', onHand.as('on_hand')])
      .where('l.warehouse_id', '=', warehouseId).where('l.is_active', '=', 1).where('l.type', '=', 'quarantine')
      .orderBy(onHand).orderBy('l.code').limit(limit).execute();
  },

  async servesWarehouse(db: Executor, customerId: number, warehouseId: number) {
    return !!(await db.selectFrom('customer_warehouse').select('warehouse_id').where('customer_id', '=', customerId).where('warehouse_id', '=', warehouseId).executeTakeFirst());
  },

  /** A warehouse's active receiving and damaged-goods places, docks first, then by code. */
  dockLocations(db: Executor, warehouseId: number) {
    return db.selectFrom('location').select(['id', 'code', 'type']).where('warehouse_id', '=', warehouseId).where('is_active', '=', 1)
      .where('type', 'in', [...INBOUND_TYPES, ...DAMAGED_TYPES])
      .orderBy(sql`CASE type WHEN 'dock' THEN 0 WHEN 'staging' THEN 1 WHEN 'quarantine' THEN 2 ELSE 3 END`).orderBy('code').limit(500).execute();
  },

  async insertOrder(tx: Executor, values: {
    ro_number: string; warehouse_id: number; customer_id: number; supplier: string; reference_number: string; expected_date: string; notes: string | null;
    created_by: number | null; at: string;
  }) {
    const { at, ...rest } = values;
    const { id } = await tx.insertInto('receiving_order').values({ ...rest, status: 'Open', created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow();
    return { id, roNumber: values.ro_number };
  },

  async insertLines(tx: Executor, rows: Insertable<ReceivingOrderLineTable>[]) {
    for (let i = 0; i < rows.length; i += 500) await tx.insertInto('receiving_order_line').values(rows.slice(i, i + 500)).execute();
  },

  updateHeader(tx: Executor, id: number, values: { supplier: string; reference_number: string; expected_date: string; notes: string | null; updated_at: string }) {
    return tx.updateTable('receiving_order').set(values).where('id', '=', id).where('status', 'in', [...RECEIVABLE]).returning('status').executeTakeFirst();
  },

  updateLine(tx: Executor, id: number, values: { expected_qty: number; notes: string | null; line_no: number; lot: string; expiry_date: string | null }) {
    return tx.updateTable('receiving_order_line').set(values).where('id', '=', id).execute();
  },

  /** Removes lines nothing was received on; answers how many went (fewer means one had receipts meanwhile). */
  async deleteUntouchedLines(tx: Executor, ids: number[]) {
    if (ids.length === 0) return 0;
    const r = await tx.deleteFrom('receiving_order_line').where('id', 'in', ids).where('received_qty', '=', 0).where('damaged_qty', '=', 0).executeTakeFirst();
    return Number(r.numDeletedRows);
  },

  /**
   * Takes the RO row for the transaction without changing its status: the first row a receiving transaction
   * touches, so concurrent work on one RO queues on it and cannot deadlock.
   */
  lockOrder(tx: Executor, id: number, from: readonly string[], at: string) {
    return tx.updateTable('receiving_order').set({ updated_at: at }).where('id', '=', id).where('status', 'in', [...from])
      .returning(['id', 'status', 'received_at']).executeTakeFirst();
  },

  /** The condition on the RO row under which a finalized RO closes: every good unit received has been put away. */
  allPutAway() {
    return sql<SqlBool>`not exists (select 1 from receiving_order_line li where li.order_id = receiving_order.id and li.putaway_qty < li.received_qty)`;
  },

  /**
   * Receives lines as expected: each line's received count rises to what is still expected (less damaged), and
   * with `putaway` its putaway count by the same; computed by the statement from the row it updates.
   */
  async receiveLinesAsExpected(tx: Executor, orderId: number, lineIds: number[], putaway: boolean) {
    const remaining = sql<number>`expected_qty - received_qty - damaged_qty`;
    for (let i = 0; i < lineIds.length; i += 500) {
      await tx.updateTable('receiving_order_line')
        .set({ received_qty: sql`expected_qty - damaged_qty`, ...(putaway ? { putaway_qty: sql`putaway_qty + ${remaining}` } : {}) })
        .where('order_id', '=', orderId).where('id', 'in', lineIds.slice(i, i + 500)).where(sql<boolean>`${remaining} > 0`).execute();
    }
  },

  async insertReceipts(tx: Executor, rows: Insertable<ReceivingReceiptTable>[]) {
    for (let i = 0; i < rows.length; i += 500) await tx.insertInto('receiving_receipt').values(rows.slice(i, i + 500)).execute();
  },

  async insertPutaways(tx: Executor, rows: Insertable<ReceivingPutawayTable>[]) {
    for (let i = 0; i < rows.length; i += 500) await tx.insertInto('receiving_putaway').values(rows.slice(i, i + 500)).execute();
  },

  /**
   * For many SKUs at once: the active storage locations already holding each (most of the SKU first), with
   * what each location holds in all and its capacity — the first putaway suggestion of every line in one statement.
   */
  async skuStoragePlaces(db: Executor, p: { warehouseId: number; customerId: number; skuIds: number[] }) {
    if (p.skuIds.length === 0) return [];
    // Two single-table-led statements: the SKUs' places, then those locations with what each holds. One join
    // of balances, locations and sums was planned as nested loops by PostgreSQL for 750 SKUs just received
    // (no statistics for them yet) and took most of a second.
    const held = await db.selectFrom('inventory_balance').select(['sku_id', 'location_id', sql<number>`sum(on_hand)`.as('sku_on_hand')])
      .where('warehouse_id', '=', p.warehouseId).where('customer_id', '=', p.customerId).where('sku_id', 'in', p.skuIds).where('on_hand', '>', 0)
      .groupBy(['sku_id', 'location_id']).execute();
    if (held.length === 0) return [];
    const places = new Map((await db.selectFrom('location as l').innerJoin('location_type as lt', 'lt.code', 'l.type')
      .select(['l.id', 'l.code', 'l.capacity', sql<number>`(select coalesce(sum(b.on_hand), 0) from inventory_balance b where b.location_id = l.id)`.as('on_hand')])
      .where('l.id', 'in', [...new Set(held.map((h) => h.location_id))]).where('l.is_active', '=', 1).where('lt.category', '=', 'storage')
      .execute()).map((l) => [l.id, l]));
    return held.filter((h) => places.has(h.location_id))
      .map((h) => ({ sku_id: h.sku_id, sku_on_hand: Number(h.sku_on_hand), ...places.get(h.location_id)! }))
      .sort((x, y) => x.sku_id - y.sku_id || y.sku_on_hand - x.sku_on_hand || x.code.localeCompare(y.code));
  },

  /** Up to `limit` active, empty storage locations of a warehouse, of the preferred types first, tightest capacity first. */
  emptyStorage(db: Executor, warehouseId: number, preferTypes: string[], limit: number) {
    return db.selectFrom('location as l').innerJoin('location_type as lt', 'lt.code', 'l.type')
      .select(['l.id', 'l.code', 'l.capacity', sql<number>`0`.as('on_hand')])
      .where('l.warehouse_id', '=', warehouseId).where('l.is_active', '=', 1).where('lt.category', '=', 'storage')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('inventory_balance as b').select('b.id').whereRef('b.location_id', '=', 'l.id').where('b.on_hand', '>', 0))))
      .orderBy(sql`case ${sql.join(preferTypes.map((t, i) => sql`when l.type = ${t} then ${sql.lit(i)}`), sql` `)} else ${sql.lit(preferTypes.length)} end`)
      .orderBy(sql`case when l.capacity = 0 then 1 else 0 end`).orderBy('l.capacity').orderBy('l.code').limit(limit).execute();
  },

  insertReceipt(tx: Executor, values: Insertable<ReceivingReceiptTable>) {
    return tx.insertInto('receiving_receipt').values(values).returning('id').executeTakeFirstOrThrow();
  },

  insertPutaway(tx: Executor, values: Insertable<ReceivingPutawayTable>) {
    return tx.insertInto('receiving_putaway').values(values).returning('id').executeTakeFirstOrThrow();
  },

  /**
   * Putaway candidates in the warehouse: active storage locations that already hold this SKU of this customer
   * (most stock first), then empty ones (nobody's stock) of the preferred types, tightest fitting capacity first.
   */
  async putawayCandidates(db: Executor, p: { warehouseId: number; customerId: number; skuId: number; quantity: number; preferTypes: string[] }, limit: number) {
    const onHand = sql<number>`(select coalesce(sum(b2.on_hand), 0) from inventory_balance b2 where b2.location_id = l.id)`;
    const storage = db.selectFrom('location as l').innerJoin('location_type as lt', 'lt.code', 'l.type')
      .where('l.warehouse_id', '=', p.warehouseId).where('l.is_active', '=', 1).where('lt.category', '=', 'storage');
    const fits = sql<boolean>`(l.capacity = 0 OR l.capacity - ${onHand} >= ${p.quantity})`;
    const [withSku, empty] = await Promise.all([
      storage.select(['l.id', 'l.code', 'l.type', 'l.zone', 'l.capacity', onHand.as('on_hand')])
        .where((eb) => eb.exists(eb.selectFrom('inventory_balance as b').select('b.id').whereRef('b.location_id', '=', 'l.id')
          .where('b.customer_id', '=', p.customerId).where('b.sku_id', '=', p.skuId).where('b.on_hand', '>', 0)))
        .where(fits).orderBy(onHand, 'desc').orderBy('l.code').limit(limit).execute(),
      storage.select(['l.id', 'l.code', 'l.type', 'l.zone', 'l.capacity', sql<number>`0`.as('on_hand')])
        .where((eb) => eb.not(eb.exists(eb.selectFrom('inventory_balance as b').select('b.id').whereRef('b.location_id', '=', 'l.id').where('b.on_hand', '>', 0))))
        .where(sql<boolean>`(l.capacity = 0 OR l.capacity >= ${p.quantity})`)
        .orderBy(sql`case ${sql.join(p.preferTypes.map((t, i) => sql`when l.type = ${t} then ${sql.lit(i)}`), sql` `)} else ${sql.lit(p.preferTypes.length)} end`)
        .orderBy(sql`case when l.capacity = 0 then 1 else 0 end`).orderBy('l.capacity').orderBy('l.code').limit(limit).execute(),
    ]);
    return { withSku, empty };
  },
};
