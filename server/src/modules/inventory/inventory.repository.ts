import { sql, type SqlBool } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Scope } from '../../platform/scope.js';
import { lockRowAsMutex, lockRows, type Dialect } from '../../db/dialect.js';

/** The balance key: where a quantity sits. */
export interface Place {
  warehouseId: number;
  customerId: number;
  skuId: number;
  locationId: number;
  lot: string;
  pallet: string;
}

export interface StockFilters { warehouseId?: number; customerId?: number; skuId?: number; locationId?: number; includeEmpty?: boolean }

export interface LedgerRow {
  place: Place;
  qtyChange: number;
  txnType: string;
  reason: string | null;
  documentType: string;
  documentId: string;
  userId: number | null;
  at: string;
}

/** Which table leads the stock list's joins (see stockList). */
export type StockLead = 'balance' | 'location' | 'sku';

/** The stock list's scope and filters, on the balance alias `b`. */
function stockConditions(scope: Scope, f: StockFilters) {
  const parts = [scope.where({ warehouse: 'b.warehouse_id', customer: 'b.customer_id' }, { warehouseId: f.warehouseId, customerId: f.customerId })];
  if (f.skuId) parts.push(sql<SqlBool>`b.sku_id = ${f.skuId}`);
  if (f.locationId) parts.push(sql<SqlBool>`b.location_id = ${f.locationId}`);
  if (!f.includeEmpty) parts.push(sql<SqlBool>`b.on_hand > 0`);
  return sql<SqlBool>`${sql.join(parts, sql` AND `)}`;
}

const placeWhere = (p: Place) => sql`warehouse_id = ${p.warehouseId} AND customer_id = ${p.customerId} AND sku_id = ${p.skuId}
  AND location_id = ${p.locationId} AND lot = ${p.lot} AND pallet = ${p.pallet}`;

/**
 * The only statements that change stock. Each is one conditional statement — race-free on both engines —
 * and callers pair each with its ledger row in the same transaction (see InventoryService.post).
 */
export const inventoryRepository = {
  /** Adds to a place, creating its balance row when new. */
  async addStock(tx: Executor, place: Place, qty: number, expiryDate: string | null, at: string, receivedAt: string | null = null) {
    return tx.insertInto('inventory_balance')
      .values({
        warehouse_id: place.warehouseId, customer_id: place.customerId, sku_id: place.skuId, location_id: place.locationId,
        lot: place.lot, pallet: place.pallet, expiry_date: expiryDate, on_hand: qty, allocated: 0, updated_at: at, received_at: receivedAt ?? at,
      })
      .onConflict((oc) => oc.columns(['warehouse_id', 'customer_id', 'sku_id', 'location_id', 'lot', 'pallet']).doUpdateSet({
        on_hand: sql`inventory_balance.on_hand + ${qty}`,
        expiry_date: sql`coalesce(inventory_balance.expiry_date, excluded.expiry_date)`,
        // An emptied place that fills again starts aging afresh.
        received_at: sql`CASE WHEN inventory_balance.on_hand = 0 THEN excluded.received_at ELSE coalesce(inventory_balance.received_at, excluded.received_at) END`,
        updated_at: at,
      }))
      .returning(['id', 'on_hand', 'expiry_date'])
      .executeTakeFirstOrThrow();
  },

  /**
   * Adds to many places in one statement, creating balance rows when new. An arrival without its own expiry or
   * receipt time takes those of `carriedFrom` (the movement's source), read by the statement itself.
   */
  addStocks(tx: Executor, legs: { place: Place; qty: number; expiryDate?: string | null; receivedAt?: string | null }[], carriedFrom: Place | undefined, at: string) {
    const carried = (column: 'expiry_date' | 'received_at') =>
      carriedFrom ? sql<string | null>`(select ${sql.ref(column)} from inventory_balance where ${placeWhere(carriedFrom)})` : null;
    return tx.insertInto('inventory_balance')
      .values(legs.map((leg) => ({
        warehouse_id: leg.place.warehouseId, customer_id: leg.place.customerId, sku_id: leg.place.skuId, location_id: leg.place.locationId,
        lot: leg.place.lot, pallet: leg.place.pallet, on_hand: leg.qty, allocated: 0, updated_at: at,
        expiry_date: leg.expiryDate !== undefined ? leg.expiryDate : carried('expiry_date'),
        received_at: leg.receivedAt != null ? leg.receivedAt : carriedFrom ? sql<string>`coalesce(${carried('received_at')}, ${at})` : at,
      })))
      .onConflict((oc) => oc.columns(['warehouse_id', 'customer_id', 'sku_id', 'location_id', 'lot', 'pallet']).doUpdateSet({
        on_hand: sql`inventory_balance.on_hand + excluded.on_hand`,
        expiry_date: sql`coalesce(inventory_balance.expiry_date, excluded.expiry_date)`,
        // An emptied place that fills again starts aging afresh.
        received_at: sql`CASE WHEN inventory_balance.on_hand = 0 THEN excluded.received_at ELSE coalesce(inventory_balance.received_at, excluded.received_at) END`,
        updated_at: at,
      }))
      .execute();
  },

  /** Takes from a place only if that much is free (on hand less allocated); undefined when it is not. */
  takeStock(tx: Executor, place: Place, qty: number, at: string) {
    return tx.updateTable('inventory_balance')
      .set({ on_hand: sql`on_hand - ${qty}`, updated_at: at })
      .where(sql<boolean>`${placeWhere(place)} AND on_hand - allocated >= ${qty}`)
      .returning(['id', 'on_hand', 'expiry_date'])
      .executeTakeFirst();
  },

  async insertLedger(tx: Executor, rows: LedgerRow[]) {
    return tx.insertInto('inventory_txn').values(rows.map((r) => ({
      at: r.at, warehouse_id: r.place.warehouseId, customer_id: r.place.customerId, sku_id: r.place.skuId,
      location_id: r.place.locationId, lot: r.place.lot, pallet: r.place.pallet, qty_change: r.qtyChange,
      txn_type: r.txnType, reason: r.reason, document_type: r.documentType, document_id: r.documentId, user_id: r.userId,
    }))).returning(['id', 'at', 'txn_type', 'qty_change', 'location_id', 'lot', 'pallet', 'document_type', 'document_id']).execute();
  },

  /** The open cycle counts holding any of these places' locations (for the places' customers). */
  heldBy(tx: Executor, places: Place[]) {
    return tx.selectFrom('cycle_count_location as h')
      .innerJoin('cycle_count as cc', 'cc.id', 'h.cycle_count_id')
      .innerJoin('location as l', 'l.id', 'h.location_id')
      .select(['h.location_id', 'h.customer_id', 'l.code as location_code', 'cc.count_no'])
      .where('h.is_open', '=', 1)
      .where('h.location_id', 'in', places.map((p) => p.locationId))
      .where('h.customer_id', 'in', places.map((p) => p.customerId))
      .execute()
      .then((rows) => rows.filter((r) => places.some((p) => p.locationId === r.location_id && p.customerId === r.customer_id)));
  },

  /** A pallet's stock at one location, locked until commit so it moves whole. */
  palletRows(tx: Executor, dialect: Dialect, warehouseId: number, pallet: string, locationId: number) {
    return lockRows(dialect, tx.selectFrom('inventory_balance').selectAll()
      .where('warehouse_id', '=', warehouseId).where('pallet', '=', pallet).where('location_id', '=', locationId).where('on_hand', '>', 0)
      .orderBy('id'));
  },

  /**
   * Free, unexpired stock of a SKU in active locations, in FEFO order: earliest expiry first, undated stock
   * last, then the oldest receipt. `locations` narrows to pick faces or to bulk storage (not pickable).
   */
  fefoCandidates(tx: Executor, f: { warehouseId: number; customerId: number; skuId: number; today: string; locations: 'all' | 'pickable' | 'bulk'; excludeLocationId?: number }) {
    let q = tx.selectFrom('inventory_balance as b')
      .innerJoin('location as l', 'l.id', 'b.location_id')
      .select(['b.id', 'b.location_id', 'b.lot', 'b.pallet', 'b.expiry_date', 'b.on_hand', 'b.allocated', 'l.code as location_code'])
      .where('b.warehouse_id', '=', f.warehouseId).where('b.customer_id', '=', f.customerId).where('b.sku_id', '=', f.skuId)
      .where(sql<boolean>`b.on_hand - b.allocated > 0`)
      .where((eb) => eb.or([eb('b.expiry_date', 'is', null), eb('b.expiry_date', '>=', f.today)]))
      .where('l.is_active', '=', 1);
    if (f.locations !== 'all') q = q.where('l.is_pickable', '=', f.locations === 'pickable' ? 1 : 0);
    if (f.excludeLocationId) q = q.where('b.location_id', '<>', f.excludeLocationId);
    return q.orderBy(sql`CASE WHEN b.expiry_date IS NULL THEN 1 ELSE 0 END`).orderBy('b.expiry_date').orderBy('b.received_at').orderBy('b.id').limit(200).execute();
  },

  /** Allocates up to `qty` of one balance only if that much is free and the lot is not expired: race-free. */
  allocate(tx: Executor, balanceId: number, qty: number, today: string, at: string) {
    return tx.updateTable('inventory_balance')
      .set({ allocated: sql`allocated + ${qty}`, updated_at: at })
      .where('id', '=', balanceId)
      .where(sql<boolean>`on_hand - allocated >= ${qty} AND (expiry_date IS NULL OR expiry_date >= ${today})`)
      .returning(['id', 'warehouse_id', 'customer_id', 'sku_id', 'location_id', 'lot', 'pallet', 'expiry_date', 'allocated'])
      .executeTakeFirst();
  },

  /** Releases an allocation only if at least that much is allocated. */
  deallocate(tx: Executor, place: Place, qty: number, at: string) {
    return tx.updateTable('inventory_balance')
      .set({ allocated: sql`allocated - ${qty}`, updated_at: at })
      .where(sql<boolean>`${placeWhere(place)} AND allocated >= ${qty}`)
      .returning(['id', 'allocated'])
      .executeTakeFirst();
  },

  /** A location's capacity, its row locked until commit: capacity checks into one location take turns. */
  lockLocation(tx: Executor, dialect: Dialect, locationId: number) {
    return lockRowAsMutex(dialect, tx.selectFrom('location').select(['id', 'code', 'capacity']).where('id', '=', locationId)).executeTakeFirst();
  },

  /** Many locations' capacities, their rows locked until commit in id order (see lockLocation). */
  lockLocations(tx: Executor, dialect: Dialect, locationIds: number[]) {
    return lockRowAsMutex(dialect, tx.selectFrom('location').select(['id', 'code', 'capacity']).where('id', 'in', locationIds).orderBy('id')).execute();
  },

  /** Units on hand at each of these locations, every client's. */
  onHandAtMany(tx: Executor, locationIds: number[]) {
    return tx.selectFrom('inventory_balance').select(['location_id', sql<number>`coalesce(sum(on_hand), 0)`.as('n')])
      .where('location_id', 'in', locationIds).groupBy('location_id').execute();
  },

  /** Units on hand at a location, every client's (its capacity is physical). */
  async onHandAt(tx: Executor, locationId: number) {
    const r = await tx.selectFrom('inventory_balance').select(sql<number>`coalesce(sum(on_hand), 0)`.as('n')).where('location_id', '=', locationId).executeTakeFirstOrThrow();
    return Number(r.n);
  },

  sku(db: Executor, skuId: number) {
    return db.selectFrom('sku').select(['id', 'customer_id', 'sku_code', 'is_active']).where('id', '=', skuId).executeTakeFirst();
  },

  findBalance(db: Executor, place: Place) {
    return db.selectFrom('inventory_balance').selectAll().where(placeWhere(place) as never).executeTakeFirst();
  },

  /** A customer's SKUs by code, whatever the case (one statement), for a sheet's SKU column. */
  async skusByCodes(db: Executor, customerId: number, codes: string[]) {
    const upper = [...new Set(codes.map((c) => c.toUpperCase()))];
    if (upper.length === 0) return [];
    return db.selectFrom('sku').select(['id', 'sku_code', 'is_active', 'is_lot_tracked', 'is_expiry_tracked', sql<string>`upper(sku_code)`.as('code')])
      .where('customer_id', '=', customerId).where(sql`upper(sku_code)`, 'in', upper).execute();
  },

  /** A place's balance, locked until commit (PostgreSQL) so a count's difference is taken against what it read. */
  lockBalance(tx: Executor, dialect: Dialect, place: Place) {
    return lockRows(dialect, tx.selectFrom('inventory_balance').select(['id', 'on_hand', 'allocated']).where(placeWhere(place) as never)).executeTakeFirst();
  },

  /** What a movement refers to, in one statement: the SKU's owner, each location's warehouse, the customer's warehouses. */
  async references(db: Executor, skuId: number, locationIds: number[], customerId: number) {
    const rows = await sql<{ kind: 's' | 'l' | 'w'; id: number; owner: number | null; is_active: number }>`
      select 's' as kind, id, customer_id as owner, is_active from sku where id = ${skuId}
      union all select 'l', id, warehouse_id, is_active from location where id in (${sql.join(locationIds.length ? locationIds : [0])})
      union all select 'w', warehouse_id, null, 1 from customer_warehouse where customer_id = ${customerId}`.execute(db);
    const of = (kind: 's' | 'l' | 'w') => rows.rows.filter((r) => r.kind === kind).map((r) => ({ id: Number(r.id), owner: Number(r.owner), is_active: Number(r.is_active) }));
    const [sku] = of('s');
    return {
      sku: sku && { id: sku.id, customer_id: sku.owner, is_active: sku.is_active },
      locations: of('l').map((l) => ({ id: l.id, warehouse_id: l.owner, is_active: l.is_active })),
      servedWarehouses: of('w').map((w) => w.id),
    };
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

  /** Balances whose on-hand differs from the sum of their ledger rows (or ledger sums with no balance row). */
  async reconcile(db: Executor, scope: Scope, filter: { warehouseId: number; customerId: number }) {
    const inScope = scope.where({ warehouse: 'warehouse_id', customer: 'customer_id' }, filter);
    const result = await sql<{
      warehouse_id: number; customer_id: number; sku_id: number; location_id: number; lot: string; pallet: string;
      on_hand: number | null; ledger_sum: number | null;
    }>`
      WITH ledger AS (
        SELECT warehouse_id, customer_id, sku_id, location_id, lot, pallet, SUM(qty_change) AS ledger_sum
        FROM inventory_txn WHERE ${inScope}
        GROUP BY warehouse_id, customer_id, sku_id, location_id, lot, pallet
      ), balances AS (
        SELECT warehouse_id, customer_id, sku_id, location_id, lot, pallet, on_hand FROM inventory_balance WHERE ${inScope}
      )
      SELECT b.warehouse_id, b.customer_id, b.sku_id, b.location_id, b.lot, b.pallet, b.on_hand, l.ledger_sum
      FROM balances b LEFT JOIN ledger l ON l.warehouse_id = b.warehouse_id AND l.customer_id = b.customer_id
        AND l.sku_id = b.sku_id AND l.location_id = b.location_id AND l.lot = b.lot AND l.pallet = b.pallet
      WHERE b.on_hand <> COALESCE(l.ledger_sum, 0)
      UNION ALL
      SELECT l.warehouse_id, l.customer_id, l.sku_id, l.location_id, l.lot, l.pallet, NULL, l.ledger_sum
      FROM ledger l WHERE l.ledger_sum <> 0 AND NOT EXISTS (
        SELECT 1 FROM balances b WHERE l.warehouse_id = b.warehouse_id AND l.customer_id = b.customer_id
          AND l.sku_id = b.sku_id AND l.location_id = b.location_id AND l.lot = b.lot AND l.pallet = b.pallet)
    `.execute(db);
    const checked = await db.selectFrom('inventory_balance').select(sql<number>`count(*)`.as('n')).where(inScope).executeTakeFirstOrThrow();
    return { differences: result.rows, checked: Number(checked.n) };
  },
};
