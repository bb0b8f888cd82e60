import { sql, type Insertable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { ReceivingOrderFilters } from '@bolx/contracts';
import type { DB, Executor } from '../../db/schema.js';
import type { ReferencedLocation } from '../../platform/stock/references.js';
import type { Dialect } from '../../db/dialect.js';
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

/**
 * An RO row's line totals and names, answered by the statement that takes the row (a transition or a hold of
 * the status machine, or `lockWithTotals`): what a receipt adds its own change to, without reading the order again.
 */
function totalsReturning() {
  const total = (expr: string) => sql<number>`(select coalesce(sum(${sql.raw(expr)}), 0) from receiving_order_line t where t.order_id = receiving_order.id)`;
  return [
    sql<string>`(select name from warehouse w where w.id = receiving_order.warehouse_id)`.as('warehouse_name'),
    sql<string>`(select name from customer c where c.id = receiving_order.customer_id)`.as('customer_name'),
    sql<number>`(select count(*) from receiving_order_line t where t.order_id = receiving_order.id)`.as('line_count'),
    total('t.expected_qty').as('expected_qty'), total('t.received_qty').as('received_qty'), total('t.damaged_qty').as('damaged_qty'),
    total('t.putaway_qty').as('putaway_qty'),
    total('case when t.received_qty + t.damaged_qty > t.expected_qty then t.received_qty + t.damaged_qty - t.expected_qty else 0 end').as('over_qty'),
    total('case when t.received_qty + t.damaged_qty < t.expected_qty then t.expected_qty - t.received_qty - t.damaged_qty else 0 end').as('short_qty'),
  ];
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
    const customer = sql`(select customer_id from receiving_order where id = ${orderId})`;
    const hit = sql<ScanHit>`(select s.id as sku_id, s.sku_code, s.is_active as sku_active, s.description, s.is_lot_tracked, s.is_expiry_tracked, m.matched_by,
        li.id as line_id, li.line_no, li.expected_qty, li.received_qty, li.damaged_qty, li.putaway_qty, li.notes as line_notes, li.lot as line_lot, li.expiry_date as line_expiry
      from (${skuCodeMatches(code, (column) => sql<boolean>`${sql.ref(column)} = ${customer}`)}) m join sku s on s.id = m.sku_id
      left join receiving_order_line li on li.order_id = ${orderId} and li.sku_id = s.id
      order by case when li.id is null then 1 else 0 end, m.rank limit 1)`;
    const rows = await withLocations(orderColumns(ordersQuery(db, scope, {}).where('o.id', '=', orderId))
      .leftJoin(hit.as('hit'), (j) => j.onTrue()).selectAll('hit'), locationIds).execute();
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

  totalsReturning,

  /**
   * Takes the RO row (the first row every receiving transaction touches, so concurrent work on one RO queues on
   * it and cannot deadlock) while it is in one of `from`, changing no status, answering it with its totals.
   */
  lockWithTotals(tx: Executor, id: number, from: readonly string[], at: string) {
    return tx.updateTable('receiving_order').set({ updated_at: at }).where('id', '=', id).where('status', 'in', [...from])
      .returningAll().returning(totalsReturning()).executeTakeFirst();
  },

  /** Takes the RO row for the transaction without changing its status (see `lockWithTotals`). */
  lockOrder(tx: Executor, id: number, from: readonly string[], at: string) {
    return tx.updateTable('receiving_order').set({ updated_at: at }).where('id', '=', id).where('status', 'in', [...from])
      .returning(['id', 'status', 'received_at']).executeTakeFirst();
  },

  /** Counts a receipt on its line: one atomic increment, so parallel scans never lose or double a unit. */
  addReceived(tx: Executor, lineId: number, good: number, damaged: number) {
    return tx.updateTable('receiving_order_line')
      .set({ received_qty: sql`received_qty + ${good}`, damaged_qty: sql`damaged_qty + ${damaged}` })
      .where('id', '=', lineId).returningAll().executeTakeFirst();
  },

  /** Counts a putaway on its line only if that many good units are still waiting for it. */
  addPutaway(tx: Executor, lineId: number, qty: number) {
    return tx.updateTable('receiving_order_line').set({ putaway_qty: sql`putaway_qty + ${qty}` })
      .where('id', '=', lineId).where(sql<boolean>`received_qty - putaway_qty >= ${qty}`).returningAll().executeTakeFirst();
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
