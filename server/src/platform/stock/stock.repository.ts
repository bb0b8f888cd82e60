import { sql, type Insertable, type Selectable, type QueryCreator, type RawBuilder, type SqlBool } from 'kysely';
import { STOCK_HOLD_TYPES, type ShortReason } from '@bolx/contracts';
import { compiledOnce } from '../../db/compiled-once.js';
import type { DB, Executor, InventoryTxnTable } from '../../db/schema.js';
import type { StockReservationTable } from '../../db/tables/stock.js';
import type { Scope } from '../scope.js';
import type { ReferenceRequest } from './references.js';
import { lockRowAsMutex, lockRows, SQL_CONFLICT, type Dialect } from '../../db/dialect.js';
import { writeBehind } from '../../db/pg-driver.js';

/** The balance key: where a quantity sits. */
export interface Place {
  warehouseId: number;
  customerId: number;
  skuId: number;
  locationId: number;
  lot: string;
  pallet: string;
}

export interface LedgerRow {
  place: Place;
  qtyChange: number;
  txnType: string;
  reason: string | null;
  documentType: string;
  documentId: string;
  documentLine: string | null;
  businessDay: string;
  expiryDate: string | null;
  receivedAt: string | null;
  /**
   * PostgreSQL, an arrival of a reserved move: the place its units left (same warehouse, client, SKU and lot), whose
   * balance's expiry and receipt time it takes as it is written, where `expiryDate`/`receivedAt` are null.
   */
  carriedFrom?: { locationId: number; pallet: string } | null;
  userId: number | null;
  at: string;
}

export interface ReservationOwner { documentType: string; documentId: string; documentLine?: string }

const PG_TYPES: Record<string, string> = {
  at: 'timestamptz', received_at: 'timestamptz', warehouse_id: 'integer', customer_id: 'integer', sku_id: 'integer', location_id: 'integer',
  qty_change: 'integer', user_id: 'integer', carried_location_id: 'integer',
};

/** The reference check as one condition (references.ts says the same in words, for the refusal). */
function referencesHold(r: ReferenceRequest) {
  const ids = [...new Set(r.locationIds)];
  const parts = [];
  if (r.skuId) parts.push(sql`exists (select 1 from sku where id = ${r.skuId} and customer_id = ${r.customerId}${r.activeSku ? sql` and is_active = 1` : sql``})`);
  if (r.customerId) parts.push(sql`exists (select 1 from customer_warehouse where customer_id = ${r.customerId} and warehouse_id = ${r.warehouseId})`);
  if (ids.length) {
    parts.push(sql`(select count(*) from location l left join location_type lt on lt.code = l.type
      where l.id in (${sql.join(ids)}) and l.warehouse_id = ${r.warehouseId} and l.is_active = 1
      ${r.categories ? sql`and lt.category in (${sql.join([...r.categories])})` : sql``}) = ${ids.length}`);
  }
  return parts.length ? sql.join(parts, sql` and `) : sql`1 = 1`;
}

const placeWhere = (p: Place) => sql`warehouse_id = ${p.warehouseId} AND customer_id = ${p.customerId} AND sku_id = ${p.skuId}
  AND location_id = ${p.locationId} AND lot = ${p.lot} AND pallet = ${p.pallet}`;

/**
 * The one order balances are locked in: by id (allocation's lockBalances, a count's snapshot, a pallet's rows).
 * A statement that changes several balances in any other order (a posting's ledger rows in place order, an UPDATE
 * in its join's order) could hold one balance while waiting for another that an id-order locker holds while
 * waiting for the first: a deadlock. So such a statement first locks the balances it will change that exist,
 * ORDER BY id FOR UPDATE, in a materialized CTE (`balances_locked`) that `LOCKED_FIRST` makes it wait on before
 * anything else — inside the statement, no statement of its own. PostgreSQL only: SQLite has one writer.
 */
const lockInIdOrder = (which: RawBuilder<SqlBool>) => sql<{ id: number }>`SELECT id FROM inventory_balance WHERE ${which} ORDER BY id FOR UPDATE`;
/** `balancesLocked` as the CTE of a raw statement (after its first CTE). */
const balancesLocked = (which: RawBuilder<SqlBool>) => sql`, balances_locked AS MATERIALIZED (${lockInIdOrder(which)})`;
/** The executor's statements with `balances_locked` (of the balances `which` names) as their first CTE, on PostgreSQL. */
const withBalancesLocked = (tx: Executor, d: Dialect, which: () => RawBuilder<SqlBool>): QueryCreator<DB> =>
  (d.engine === 'postgres' ? tx.with((cte) => cte('balances_locked').materialized(), () => sql`(${lockInIdOrder(which())})`) as unknown as QueryCreator<DB> : tx);
/** balancesLocked on PostgreSQL; nothing on SQLite. */
const pgLock = (d: Dialect, which: RawBuilder<SqlBool>) => (d.engine === 'postgres' ? balancesLocked(which) : sql``);
/** ` AND LOCKED_FIRST` on PostgreSQL; nothing on SQLite. */
const pgLockedFirst = (d: Dialect) => (d.engine === 'postgres' ? sql` AND ${LOCKED_FIRST}` : sql``);
/** A one-time condition (never false) that reads the whole of `balances_locked` before the statement's first row. */
const LOCKED_FIRST = sql<SqlBool>`(SELECT count(*) FROM balances_locked) >= 0`;
/** The balances at these places (typed for PostgreSQL's VALUES). */
const atPlaces = (places: Place[]) => sql<SqlBool>`(warehouse_id, customer_id, sku_id, location_id, lot, pallet) IN (VALUES ${sql.join(places.map((p) =>
  sql`(cast(${p.warehouseId} as integer), cast(${p.customerId} as integer), cast(${p.skuId} as integer), cast(${p.locationId} as integer), cast(${p.lot} as text), cast(${p.pallet} as text))`))})`;

/** Where allocation may take from: the whole warehouse, its pick faces, or bulk storage (not pickable). */
export type AllocationLocations = 'all' | 'pickable' | 'bulk';

/** What a line may be allocated from. `lot`: that lot only (empty or omitted: any). */
export interface AllocationFilter {
  warehouseId: number; customerId: number; today: string; locations: AllocationLocations;
  lot?: string; excludeLocationId?: number;
}

/** Candidates read per round: a line needing more reads again. */
export const ALLOCATION_CANDIDATES = 200;

/**
 * Location types whose stock is set aside, never allocated: damaged goods and expired lots (quarantine), and units
 * back from customers waiting for inspection (returns: issue 15 disposes of them from there).
 */
const QUARANTINE_TYPES = ['quarantine', 'returns'];

/** An open hold of one of these kinds on the balance `b`, or on its location (for its client or every client). */
function held(b: string, holdTypes: readonly string[]) {
  const t = sql.raw(b);
  const kinds = sql`h.hold_type IN (${sql.join([...holdTypes])})`;
  return sql<boolean>`(EXISTS (SELECT 1 FROM stock_hold h WHERE h.location_id = ${t}.location_id AND h.is_open = 1 AND ${kinds}
      AND (h.customer_id IS NULL OR h.customer_id = ${t}.customer_id))
    OR EXISTS (SELECT 1 FROM stock_hold h WHERE h.balance_id = ${t}.id AND h.is_open = 1 AND ${kinds}))`;
}

/**
 * A balance `b` stock can be taken from by hand now (a manual shipment's picker): some free, its location active and
 * not a quarantine location, no open hold of any kind. Allocation adds its own rules (expiry, pickable) on top.
 */
export function takeable(b: string) {
  const t = sql.raw(b);
  return sql<SqlBool>`(${t}.on_hand - ${t}.allocated > 0
    AND EXISTS (SELECT 1 FROM location tl WHERE tl.id = ${t}.location_id AND tl.is_active = 1 AND tl.type NOT IN (${sql.join(QUARANTINE_TYPES)}))
    AND NOT ${held(b, STOCK_HOLD_TYPES)})`;
}

/**
 * The allocation rules as one condition on a balance `b` at location `l`: some free (packages: allocation-plan.ts), not
 * expired, no open hold of any kind (quarantine, inspection, a cycle count), its location active, not a
 * quarantine location, pickable or bulk when asked; the lot when one is asked for. The candidates query, the
 * conditional UPDATE and the free-stock figure all use it, so they agree.
 */
function allocatable(b: string, l: string, f: AllocationFilter) {
  const [t, loc] = [sql.raw(b), sql.raw(l)];
  const parts = [
    sql`${t}.on_hand - ${t}.allocated > 0`,
    // Not an OR: SQLite would answer it from the (customer, expiry) index, reading every dated balance of the client.
    sql`coalesce(${t}.expiry_date, '9999-12-31') >= ${f.today}`,
    sql`${loc}.is_active = 1`,
    sql`${loc}.type NOT IN (${sql.join(QUARANTINE_TYPES)})`,
    sql`NOT ${held(b, STOCK_HOLD_TYPES)}`,
  ];
  if (f.locations !== 'all') parts.push(sql`${loc}.is_pickable = ${f.locations === 'pickable' ? 1 : 0}`);
  if (f.lot) parts.push(sql`${t}.lot = ${f.lot}`);
  if (f.excludeLocationId) parts.push(sql`${t}.location_id <> ${f.excludeLocationId}`);
  return sql<boolean>`(${sql.join(parts, sql` AND `)})`;
}

/**
 * Why allocation may not take a free balance, the first that applies: an expired lot, quarantine (a quarantine
 * or inspection hold, or a quarantine location), a cycle count's hold, a location inactive or (for pick-face
 * allocation) not pickable; else 'no-stock' (free but not usable: less than a package, a location left out).
 */
function blockedBy(b: string, l: string, f: AllocationFilter) {
  const [t, loc] = [sql.raw(b), sql.raw(l)];
  const unpickable = f.locations === 'pickable' ? sql` OR ${loc}.is_pickable = 0` : sql``;
  return sql<ShortReason>`CASE
    WHEN ${t}.expiry_date IS NOT NULL AND ${t}.expiry_date < ${f.today} THEN 'expired-only'
    WHEN ${loc}.type IN (${sql.join(QUARANTINE_TYPES)}) OR ${held(b, ['QUARANTINE', 'INSPECTION'])} THEN 'in-quarantine'
    WHEN ${held(b, ['CYCLE_COUNT'])} THEN 'held-by-count'
    WHEN ${loc}.is_active = 0${unpickable} THEN 'not-pickable'
    ELSE 'no-stock' END`;
}

/**
 * The stock engine's statements. Stock on hand changes only by inserting ledger rows: each row moves its balance
 * (migration 0014's trigger), so a posting is one statement. Allocations are conditional updates paired with
 * their owners' reservation rows — race-free on both engines.
 */
/** The allocation candidates' select (stockRepository.allocationCandidates). */
function candidatesQuery(tx: Executor, f: AllocationFilter & { skuIds: number[] }) {
  const ranked = tx.selectFrom('inventory_balance as b')
    .innerJoin('location as l', 'l.id', 'b.location_id')
    .select(['b.id', 'b.sku_id', 'b.location_id', 'b.lot', 'b.pallet', 'b.expiry_date', 'b.on_hand', 'b.allocated', 'l.code as location_code',
      sql<number>`row_number() OVER (PARTITION BY b.sku_id ORDER BY CASE WHEN b.expiry_date IS NULL THEN 1 ELSE 0 END, b.expiry_date,
        CASE WHEN b.received_at IS NULL THEN 1 ELSE 0 END, b.received_at, b.id)`.as('rank')])
    .where('b.warehouse_id', '=', f.warehouseId).where('b.customer_id', '=', f.customerId).where('b.sku_id', 'in', f.skuIds)
    .where(allocatable('b', 'l', f));
  return tx.selectFrom(ranked.as('c')).selectAll().where('c.rank', '<=', ALLOCATION_CANDIDATES).orderBy('c.sku_id').orderBy('c.rank');
}

/**
 * The candidates' select compiled once per shape (which rules apply, how many SKUs): building it cost more than
 * SQLite's run of it for one order. The filter's values are the query's parameters.
 */
const candidatesOnce = compiledOnce(
  (s: { locations: AllocationLocations; lot: boolean; exclude: boolean; skus: number }) => `${s.locations}|${s.lot}|${s.exclude}|${s.skus}`,
  (tx, s, warehouseId: number, customerId: number, today: string, lot: string | undefined, excludeLocationId: number | undefined, ...skuIds: number[]) =>
    candidatesQuery(tx, { warehouseId, customerId, today, locations: s.locations, lot: s.lot ? lot : undefined, excludeLocationId: s.exclude ? excludeLocationId : undefined, skuIds }),
);

/** The columns of a reservation reserveMany writes besides its timestamps, in the order its values come. */
const RESERVATION_COLUMNS = ['balance_id', 'warehouse_id', 'customer_id', 'sku_id', 'document_type', 'document_id', 'document_line', 'quantity'] as const;

/** reserveMany's upsert compiled once per number of rows: every allocation writes one, building it cost more than running it. */
const reserveManyOnce = compiledOnce(String, (tx, count: number, at: string, ...values: unknown[]) => tx.insertInto('stock_reservation')
  .values(Array.from({ length: count }, (_, row) => ({
    ...Object.fromEntries(RESERVATION_COLUMNS.map((c, i) => [c, values[row * RESERVATION_COLUMNS.length + i]])) as Insertable<StockReservationTable>,
    created_at: at, updated_at: at,
  })))
  .onConflict((oc) => oc.columns(['document_type', 'document_id', 'document_line', 'balance_id']).doUpdateSet({
    quantity: sql`stock_reservation.quantity + excluded.quantity`, updated_at: at,
  })));

/** The conditional UPDATE of stockRepository.allocate (its rules: allocatable). */
function allocateStatement(tx: Executor, dialect: Dialect, takes: { id: unknown; quantity: unknown }[], f: AllocationFilter, at: unknown) {
  const int = (v: unknown) => (dialect.engine === 'postgres' ? sql`cast(${v} as integer)` : sql`${v}`);
  const values = sql.join(takes.map((t) => sql`(${int(t.id)}, ${int(t.quantity)})`));
  return sql<{ id: number; warehouse_id: number; customer_id: number; sku_id: number; location_id: number; lot: string; pallet: string; expiry_date: string | null }>`
    WITH take(id, quantity) AS (VALUES ${values})${pgLock(dialect, sql`id IN (SELECT id FROM take)`)}
    UPDATE inventory_balance SET allocated = inventory_balance.allocated + take.quantity, updated_at = ${at}
    FROM take
    WHERE inventory_balance.id = take.id AND inventory_balance.on_hand - inventory_balance.allocated >= take.quantity${pgLockedFirst(dialect)}
      AND EXISTS (SELECT 1 FROM location l WHERE l.id = inventory_balance.location_id AND ${allocatable('inventory_balance', 'l', f)})
    RETURNING inventory_balance.id, inventory_balance.warehouse_id, inventory_balance.customer_id, inventory_balance.sku_id,
      inventory_balance.location_id, inventory_balance.lot, inventory_balance.pallet, inventory_balance.expiry_date`;
}

/** Takes up to which the allocation UPDATE is kept compiled: orders' lines, one at a time or a few. */
const ALLOCATE_ONCE_MAX_TAKES = 64;

/**
 * The allocation UPDATE compiled once per shape (how many takes, which rules apply), as the candidates are: every
 * allocation runs it. The dialect follows the engine, which compiledOnce keys by already.
 */
const allocateOnce = compiledOnce(
  (s: { dialect: Dialect; takes: number; locations: AllocationLocations; lot: boolean; exclude: boolean }) => `${s.takes}|${s.locations}|${s.lot}|${s.exclude}`,
  (tx, s, warehouseId: number, customerId: number, today: string, lot: string | undefined, excludeLocationId: number | undefined, at: string, ...takes: number[]) => {
    const f: AllocationFilter = { warehouseId, customerId, today, locations: s.locations, lot: s.lot ? lot : undefined, excludeLocationId: s.exclude ? excludeLocationId : undefined };
    const statement = allocateStatement(tx, s.dialect, Array.from({ length: s.takes }, (_, i) => ({ id: takes[2 * i], quantity: takes[2 * i + 1] })), f, at);
    return { compile: () => statement.compile(tx) };
  },
);

/** A ledger row's columns as insertLedger writes them, in order. */
const LEDGER_COLUMNS = [
  'at', 'warehouse_id', 'customer_id', 'sku_id', 'location_id', 'lot', 'pallet', 'qty_change', 'txn_type', 'reason', 'document_type', 'document_id',
  'user_id', 'document_line', 'business_day', 'expiry_date', 'received_at',
] as const;
type LedgerValues = { [C in (typeof LEDGER_COLUMNS)[number]]: Insertable<InventoryTxnTable>[C] };
const LEDGER_RETURNED = ['id', 'at', 'txn_type', 'qty_change', 'location_id', 'lot', 'pallet', 'document_type', 'document_id', 'document_line'] as const;

/**
 * The insert of ledger rows. The rows are written only if the `references` hold, in the same statement: nothing is
 * inserted otherwise. SQLite: a VALUES list (a UNION ALL of selects with references). PostgreSQL: ledgerInsertPg.
 */
function ledgerInsert(tx: Executor, values: LedgerValues[], references?: ReferenceRequest) {
  if (!references) return tx.insertInto('inventory_txn').values(values).returning(LEDGER_RETURNED);
  const selects = values.map((v) => sql`select ${sql.join(LEDGER_COLUMNS.map((c) => sql`${v[c]} as ${sql.ref(c)}`))}`);
  return tx.insertInto('inventory_txn').columns([...LEDGER_COLUMNS])
    .expression(sql`select * from (${sql.join(selects, sql` union all `)}) as v where ${referencesHold(references)}` as never)
    .returning(LEDGER_RETURNED);
}

/**
 * The insert of ledger rows on PostgreSQL. Its rows (`v`): many arrive as one array per column and are unnested, so
 * the statement has 19 parameters for any number of rows (a UNION ALL of a ship confirm's 1,500 rows took PostgreSQL
 * 0.7 s to plan, longer than the rest of the ship confirm); a few are a VALUES list, one text per number of rows,
 * which PostgreSQL plans once per connection: a generic plan cannot know an unnest's row count, so it always found
 * the unnest dearer than planning it anew for the arrays at hand, and planned every pick's ledger insert again.
 * The balances the rows move (the trigger, at the statement's end) are locked first, by id; the `references` hold
 * or nothing is written.
 */
function ledgerInsertPg(rows: RawBuilder<unknown>, references?: ReferenceRequest) {
  const names = sql.join(LEDGER_COLUMNS.map((c) => sql.ref(c)));
  const conditions = [...(references ? [referencesHold(references)] : []), LOCKED_FIRST];
  // A carried arrival's expiry and receipt time: its source balance's, read before any row of the statement moves it
  // (the trigger runs after the insert's rows are all chosen; a take changes no expiry or receipt time anyway).
  const carried = (c: 'expiry_date' | 'received_at') => sql`CASE WHEN v.carried_location_id IS NULL THEN v.${sql.ref(c)} ELSE (SELECT b.${sql.ref(c)}
    FROM inventory_balance b WHERE b.warehouse_id = v.warehouse_id AND b.customer_id = v.customer_id AND b.sku_id = v.sku_id
      AND b.location_id = v.carried_location_id AND b.lot = coalesce(v.lot, '') AND b.pallet = v.carried_pallet) END`;
  const selected = sql.join(LEDGER_COLUMNS.map((c) => (c === 'expiry_date' || c === 'received_at' ? carried(c) : sql`v.${sql.ref(c)}`)));
  return sql<Pick<Selectable<InventoryTxnTable>, (typeof LEDGER_RETURNED)[number]>>`
    WITH v(${sql.join(PG_ROW_COLUMNS.map((c) => sql.ref(c)))}) AS (${rows})${balancesLocked(sql`(warehouse_id, customer_id, sku_id, location_id, lot, pallet)
      IN (SELECT warehouse_id, customer_id, sku_id, location_id, coalesce(lot, ''), coalesce(pallet, '') FROM v)`)}
    INSERT INTO inventory_txn (${names}) SELECT ${selected} FROM v WHERE ${sql.join(conditions, sql` AND `)}
    RETURNING ${sql.join(LEDGER_RETURNED.map((c) => sql.ref(c)))}`;
}
/** ledgerInsertPg's columns after the ledger's own: where a carried arrival's units left (LedgerRow.carriedFrom). */
const CARRIED_COLUMNS = ['carried_location_id', 'carried_pallet'] as const;
const PG_ROW_COLUMNS = [...LEDGER_COLUMNS, ...CARRIED_COLUMNS];
const pgType = (c: (typeof PG_ROW_COLUMNS)[number]) => sql.raw(PG_TYPES[c] ?? 'text');
/** ledgerInsertPg's rows as one array per column (PG_ROW_COLUMNS' order). */
const unnested = (columns: unknown[]) => sql`SELECT * FROM unnest(${sql.join(PG_ROW_COLUMNS.map((c, i) => sql`cast(${columns[i]} as ${pgType(c)}[])`))})`;
/** ledgerInsertPg's rows as a VALUES list: `values`, PG_ROW_COLUMNS' values of each row in turn. */
const listed = (rows: number, values: unknown[]) => sql`VALUES ${sql.join(Array.from({ length: rows }, (_, r) =>
  sql`(${sql.join(PG_ROW_COLUMNS.map((c, i) => sql`cast(${values[r * PG_ROW_COLUMNS.length + i]} as ${pgType(c)})`))})`))}`;

/** ledgerInsertPg without references of a few rows, compiled once per number of rows. */
const ledgerInsertPgOnce = compiledOnce(String, (_db, rows: number, ...values: unknown[]) => ledgerInsertPg(listed(rows, values)));

/** ledgerInsert without references on SQLite, compiled once per number of rows. `values`: LEDGER_COLUMNS' a row. */
const ledgerInsertOnce = compiledOnce(String, (tx, rows: number, ...values: unknown[]) =>
  ledgerInsert(tx, Array.from({ length: rows }, (_, r) => Object.fromEntries(LEDGER_COLUMNS.map((c, i) => [c, values[r * LEDGER_COLUMNS.length + i]])) as LedgerValues)));

/** A place's values in the order placeAt reads them. */
const placeValues = (p: Place): unknown[] => [p.warehouseId, p.customerId, p.skuId, p.locationId, p.lot, p.pallet];
/** The place whose values (placeValues) start at `k` of a compiled statement's values. */
const placeAt = (v: unknown[], k: number): Place =>
  ({ warehouseId: v[k] as number, customerId: v[k + 1] as number, skuId: v[k + 2] as number, locationId: v[k + 3] as number, lot: v[k + 4] as string, pallet: v[k + 5] as string });

/**
 * Statements of a few rows are compiled once per shape (every pick sends them); a large one (a ship confirm's) is
 * built each time, so the cache holds no statement of thousands of parameters.
 */
const FEW_ROWS = 16;

/**
 * stockRepository.takeReserved's statement. `v`: the places' values, then each take's owner, place and quantity.
 * It checks itself (it is sent without waiting for its answer): a take whose owner holds less at its place than it
 * takes fails it with "Only N units reserved here for this line; M asked" (what the reservation held before), the
 * first such take in order; a balance allocated less than its reservations gave, with "Less stock is reserved…".
 */
const takeReservedStatement = (_db: Executor, s: { places: number; takes: number }, at: string, ...v: unknown[]) => {
  const places = Array.from({ length: s.places }, (_, i) => placeAt(v, 6 * i));
  const takes = Array.from({ length: s.takes }, (_, i) => {
    const k = 6 * s.places + 10 * i;
    return { owner: { documentType: v[k] as string, documentId: v[k + 1] as string, documentLine: v[k + 2] as string }, place: placeAt(v, k + 3), quantity: v[k + 9] as number };
  });
  const values = sql.join(takes.map(({ owner: o, place: p, quantity }, i) => sql`(${sql.lit(i)}, cast(${o.documentType} as text), cast(${o.documentId} as text), cast(${o.documentLine} as text),
    cast(${p.warehouseId} as integer), cast(${p.customerId} as integer), cast(${p.skuId} as integer), cast(${p.locationId} as integer), cast(${p.lot} as text), cast(${p.pallet} as text),
    cast(${quantity} as integer))`));
  const ownerAt = (r: string, b: string) => sql.raw(`${b}.id = ${r}.balance_id AND ${b}.warehouse_id = m.warehouse_id AND ${b}.customer_id = m.customer_id
    AND ${b}.sku_id = m.sku_id AND ${b}.location_id = m.location_id AND ${b}.lot = m.lot AND ${b}.pallet = m.pallet
    AND ${r}.document_type = m.document_type AND ${r}.document_id = m.document_id AND ${r}.document_line = m.document_line`);
  // The reservation a short take found, as it was before this statement (a statement does not see its own writes).
  const held = sql`greatest(coalesce((SELECT r.quantity FROM stock_reservation r, inventory_balance b WHERE ${ownerAt('r', 'b')}), 0), 0)`;
  return sql<{ taken: number }>`
    WITH balances_locked AS MATERIALIZED (${lockInIdOrder(atPlaces(places))}),
    m(ord, document_type, document_id, document_line, warehouse_id, customer_id, sku_id, location_id, lot, pallet, quantity) AS (VALUES ${values}),
    shrunk AS (UPDATE stock_reservation r SET quantity = r.quantity - m.quantity, updated_at = ${at}
      FROM m, inventory_balance b
      WHERE ${ownerAt('r', 'b')} AND r.quantity >= m.quantity AND ${LOCKED_FIRST}
      RETURNING r.balance_id, m.ord, m.quantity),
    freed AS (UPDATE inventory_balance SET allocated = inventory_balance.allocated - g.quantity, updated_at = ${at}
      FROM (SELECT balance_id, sum(quantity) AS quantity FROM shrunk GROUP BY balance_id) g
      WHERE inventory_balance.id = g.balance_id AND inventory_balance.allocated >= g.quantity
      RETURNING inventory_balance.id)
    SELECT CASE
      WHEN (SELECT count(*) FROM shrunk) < ${sql.lit(s.takes)} THEN bolx_refuse((SELECT ${SQL_CONFLICT} || 'Only ' || ${held}
        || CASE WHEN ${held} = 1 THEN ' unit' ELSE ' units' END || ' reserved here for this line; ' || m.quantity || ' asked'
        FROM m WHERE m.ord NOT IN (SELECT ord FROM shrunk) ORDER BY m.ord LIMIT 1))
      WHEN (SELECT count(*) FROM freed) < (SELECT count(DISTINCT balance_id) FROM shrunk)
        THEN bolx_refuse(${sql.lit(`${SQL_CONFLICT}Less stock is reserved here than is being moved`)})
      ELSE 1 END AS taken`;
};
const takeReservedOnce = compiledOnce((s: { places: number; takes: number }) => `${s.places}|${s.takes}`, takeReservedStatement);

/** stockRepository.allocateArrivedAndReserve's statement. `v`: each place's values and quantity, then each owner's place, owner and quantity. */
const allocateArrivedStatement = (_db: Executor, s: { rows: number; owners: number }, at: string, ...v: unknown[]) => {
  const rows = Array.from({ length: s.rows }, (_, i) => ({ place: placeAt(v, 7 * i), quantity: v[7 * i + 6] as number }));
  const owners = Array.from({ length: s.owners }, (_, i) => {
    const k = 7 * s.rows + 10 * i;
    return { place: placeAt(v, k), owner: { documentType: v[k + 6] as string, documentId: v[k + 7] as string, documentLine: v[k + 8] as string }, quantity: v[k + 9] as number };
  });
  const place = (p: Place) => sql`cast(${p.customerId} as integer), cast(${p.skuId} as integer), cast(${p.locationId} as integer), cast(${p.lot} as text), cast(${p.pallet} as text)`;
  const takes = sql.join(rows.map((r) => sql`(${place(r.place)}, cast(${r.quantity} as integer))`));
  const reserving = sql.join(owners.map((o) => sql`(${place(o.place)}, cast(${o.owner.documentType} as text), cast(${o.owner.documentId} as text),
    cast(${o.owner.documentLine} as text), cast(${o.quantity} as integer))`));
  const samePlace = (a: string, b: string) => sql.raw(`${a}.customer_id = ${b}.customer_id AND ${a}.sku_id = ${b}.sku_id AND ${a}.location_id = ${b}.location_id AND ${a}.lot = ${b}.lot AND ${a}.pallet = ${b}.pallet`);
  return sql<{ reserved: number }>`
    WITH take(customer_id, sku_id, location_id, lot, pallet, quantity) AS (VALUES ${takes}),
    allocated AS (UPDATE inventory_balance SET allocated = inventory_balance.allocated + take.quantity, updated_at = ${at}
      FROM take WHERE inventory_balance.warehouse_id = ${rows[0].place.warehouseId} AND ${samePlace('inventory_balance', 'take')}
        AND inventory_balance.on_hand - inventory_balance.allocated >= take.quantity
      RETURNING inventory_balance.id, inventory_balance.warehouse_id, inventory_balance.customer_id, inventory_balance.sku_id, inventory_balance.location_id,
        inventory_balance.lot, inventory_balance.pallet),
    owner(customer_id, sku_id, location_id, lot, pallet, document_type, document_id, document_line, quantity) AS (VALUES ${reserving}),
    reserved AS (INSERT INTO stock_reservation (balance_id, warehouse_id, customer_id, sku_id, document_type, document_id, document_line, quantity, created_at, updated_at)
      SELECT a.id, a.warehouse_id, a.customer_id, a.sku_id, o.document_type, o.document_id, o.document_line, o.quantity, cast(${at} as timestamptz), cast(${at} as timestamptz)
      FROM owner o JOIN allocated a ON ${samePlace('a', 'o')}
      ON CONFLICT (document_type, document_id, document_line, balance_id) DO UPDATE SET quantity = stock_reservation.quantity + excluded.quantity, updated_at = excluded.updated_at
      RETURNING id)
    SELECT CASE WHEN (SELECT count(*) FROM allocated) = ${sql.lit(s.rows)} AND (SELECT count(*) FROM reserved) = ${sql.lit(s.owners)} THEN 1
      ELSE bolx_refuse(${sql.lit(`${SQL_CONFLICT}The stock moved could not be reserved where it arrived`)}) END AS reserved`;
};
const allocateArrivedOnce = compiledOnce((s: { rows: number; owners: number }) => `${s.rows}|${s.owners}`, allocateArrivedStatement);

export const stockRepository = {
  /**
   * The ledger rows, in one statement (a posting's batch): each moves its balance (migration 0014's trigger). With
   * `references`, written only if they hold. Without and of a few rows, compiled once per engine and number of rows
   * (every pick, pack and move sends one).
   */
  async insertLedger(tx: Executor, rows: LedgerRow[], dialect?: Dialect, references?: ReferenceRequest) {
    const values = rows.map((r) => ({
      at: r.at, warehouse_id: r.place.warehouseId, customer_id: r.place.customerId, sku_id: r.place.skuId,
      location_id: r.place.locationId, lot: r.place.lot, pallet: r.place.pallet, qty_change: r.qtyChange,
      txn_type: r.txnType, reason: r.reason, document_type: r.documentType, document_id: r.documentId, user_id: r.userId,
      document_line: r.documentLine, business_day: r.businessDay, expiry_date: r.expiryDate, received_at: r.receivedAt,
    }));
    if (dialect?.engine === 'postgres') {
      const rowValues = rows.map((r, k) => [...LEDGER_COLUMNS.map((c) => values[k][c]), r.carriedFrom?.locationId ?? null, r.carriedFrom?.pallet ?? null]);
      if (!references && rows.length <= FEW_ROWS) return ledgerInsertPgOnce(tx, rows.length, ...rowValues.flat());
      const columns = PG_ROW_COLUMNS.map((_, i) => rowValues.map((v) => v[i]));
      return (await ledgerInsertPg(unnested(columns), references).execute(tx)).rows;
    }
    if (rows.some((r) => r.carriedFrom)) throw new Error('A carried arrival is written on PostgreSQL only');
    if (references || values.length > FEW_ROWS) return ledgerInsert(tx, values, references).execute();
    return ledgerInsertOnce(tx, values.length, ...values.flatMap((v) => LEDGER_COLUMNS.map((c) => v[c])));
  },

  /** Every ledger row of a document, oldest first (what a reversal takes back). */
  documentRows(tx: Executor, documentType: string, documentId: string) {
    return tx.selectFrom('inventory_txn').selectAll().where('document_type', '=', documentType).where('document_id', '=', documentId).orderBy('id').execute();
  },

  /** The open holds on any of these places: a hold on the location (the place's client's, or every client's) or on the balance. */
  heldBy(tx: Executor, places: Place[]) {
    return tx.selectFrom('stock_hold as h')
      .leftJoin('location as l', 'l.id', 'h.location_id')
      .leftJoin('inventory_balance as b', 'b.id', 'h.balance_id')
      .select(['h.hold_type', 'h.document_id', 'h.customer_id', 'h.location_id', 'b.location_id as balance_location_id', 'l.code as location_code',
        'b.customer_id as b_customer_id', 'b.sku_id as b_sku_id', 'b.lot as b_lot', 'b.pallet as b_pallet'])
      .where('h.is_open', '=', 1)
      .where((eb) => eb.or([
        eb('h.location_id', 'in', places.map((p) => p.locationId)),
        eb('b.location_id', 'in', places.map((p) => p.locationId)),
      ]))
      .execute()
      .then((rows) => rows.filter((r) => places.some((p) => r.location_id != null
        ? p.locationId === r.location_id && (r.customer_id == null || r.customer_id === p.customerId)
        : p.locationId === r.balance_location_id && p.customerId === r.b_customer_id && p.skuId === r.b_sku_id && p.lot === r.b_lot && p.pallet === r.b_pallet)));
  },

  placeHolds(tx: Executor, rows: { warehouse_id: number; customer_id: number | null; location_id: number | null; balance_id: number | null; hold_type: string; document_id: string; placed_by: number | null; placed_at: string }[]) {
    return tx.insertInto('stock_hold').values(rows).execute();
  },

  liftHolds(tx: Executor, holdType: string, documentId: string, at: string) {
    return tx.updateTable('stock_hold').set({ is_open: 0, lifted_at: at }).where('hold_type', '=', holdType).where('document_id', '=', documentId).where('is_open', '=', 1).execute();
  },

  locationCodes(tx: Executor, ids: number[]) {
    return tx.selectFrom('location').select(['id', 'code']).where('id', 'in', ids).execute();
  },

  /**
   * The balances lines of these SKUs may take from (see `allocatable`), each SKU's in FEFO/FIFO order: earliest
   * expiry first, undated stock last, then the oldest receipt; at most ALLOCATION_CANDIDATES per SKU. With their
   * location codes, for the lines' allocations. One statement for a whole batch.
   */
  allocationCandidates(tx: Executor, f: AllocationFilter & { skuIds: number[] }) {
    const { warehouseId, customerId, today, locations, lot, excludeLocationId, skuIds } = f;
    // As allocatable(): an empty lot or no excluded location adds no condition.
    const shape = { locations, lot: !!lot, exclude: !!excludeLocationId, skus: skuIds.length };
    return candidatesOnce(tx, shape, warehouseId, customerId, today, lot, excludeLocationId, ...skuIds);
  },

  /**
   * Allocates each take's quantity of its balance only if that much is free and the balance is still allocatable
   * (not expired, not held, its location still active, pickable when asked) — each row's condition checked as it
   * is updated, so a hold placed since the candidates were read cannot be allocated through. One statement for
   * many balances (each at most once); answers the balances allocated, a take missing when its balance no longer qualified.
   */
  allocate(tx: Executor, dialect: Dialect, takes: { id: number; quantity: number }[], f: AllocationFilter, at: string) {
    // A large batch's count seldom comes again: built as it comes, not kept.
    if (takes.length > ALLOCATE_ONCE_MAX_TAKES) return allocateStatement(tx, dialect, takes, f, at).execute(tx).then((r) => r.rows);
    const shape = { dialect, takes: takes.length, locations: f.locations, lot: !!f.lot, exclude: !!f.excludeLocationId };
    return allocateOnce(tx, shape, f.warehouseId, f.customerId, f.today, f.lot, f.excludeLocationId, at, ...takes.flatMap((t) => [t.id, t.quantity]));
  },

  /**
   * Locks every balance of these SKUs (one warehouse and client) until commit, in id order (PostgreSQL; SQLite has
   * one writer): allocations of many lines take their balances before reading them, so two batches over the same
   * SKUs take turns instead of deadlocking halfway, and nothing they read changes before their UPDATE.
   * Releases deallocate in balance id order too. One statement per 1,000 SKUs.
   */
  async lockBalances(tx: Executor, dialect: Dialect, f: { warehouseId: number; customerId: number; skuIds: number[] }) {
    if (dialect.engine !== 'postgres') return;
    for (let i = 0; i < f.skuIds.length; i += 1000) {
      await tx.selectFrom('inventory_balance').select('id')
        .where('warehouse_id', '=', f.warehouseId).where('customer_id', '=', f.customerId).where('sku_id', 'in', f.skuIds.slice(i, i + 1000))
        .orderBy('id').forUpdate().execute();
    }
  },

  /** Each owner's reservation of a balance grows by its quantity (created when new): one statement (each owner and balance at most once). */
  async reserveMany(tx: Executor, rows: { owner: ReservationOwner; balance: { id: number; warehouse_id: number; customer_id: number; sku_id: number }; quantity: number }[], at: string) {
    await reserveManyOnce(tx, rows.length, at, ...rows.flatMap(({ owner, balance, quantity }) => [
      balance.id, balance.warehouse_id, balance.customer_id, balance.sku_id, owner.documentType, owner.documentId, owner.documentLine ?? '', quantity,
    ]));
  },

  /** Units allocatable now per SKU (the same rules as the candidates). */
  freeStock(tx: Executor, f: AllocationFilter & { skuIds: number[] }) {
    return tx.selectFrom('inventory_balance as b')
      .innerJoin('location as l', 'l.id', 'b.location_id')
      .select(['b.sku_id', sql<number>`sum(b.on_hand - b.allocated)`.as('free')])
      .where('b.warehouse_id', '=', f.warehouseId).where('b.customer_id', '=', f.customerId).where('b.sku_id', 'in', f.skuIds)
      .where(allocatable('b', 'l', f))
      .groupBy('b.sku_id').execute();
  },

  /**
   * A SKU's free stock that allocation may not take, in units by why not (`blockedBy`); what is free and not
   * blocked (less than a package, a location left out) counts as 'no-stock'. One statement.
   */
  blockedStock(tx: Executor, f: AllocationFilter & { skuId: number }) {
    return tx.selectFrom('inventory_balance as b')
      .innerJoin('location as l', 'l.id', 'b.location_id')
      .select([blockedBy('b', 'l', f).as('reason'), sql<number>`sum(b.on_hand - b.allocated)`.as('units')])
      .where('b.warehouse_id', '=', f.warehouseId).where('b.customer_id', '=', f.customerId).where('b.sku_id', '=', f.skuId)
      .where(sql<boolean>`b.on_hand - b.allocated > 0`)
      .$if(!!f.lot, (q) => q.where('b.lot', '=', f.lot!))
      .groupBy(sql`1`).execute();
  },

  /**
   * blockedStock for many SKUs at once: per SKU, the units held back by each reason. One statement.
   */
  blockedStockMany(tx: Executor, f: AllocationFilter & { skuIds: number[] }) {
    return tx.selectFrom('inventory_balance as b')
      .innerJoin('location as l', 'l.id', 'b.location_id')
      .select(['b.sku_id', blockedBy('b', 'l', f).as('reason'), sql<number>`sum(b.on_hand - b.allocated)`.as('units')])
      .where('b.warehouse_id', '=', f.warehouseId).where('b.customer_id', '=', f.customerId).where('b.sku_id', 'in', f.skuIds)
      .where(sql<boolean>`b.on_hand - b.allocated > 0`)
      .$if(!!f.lot, (q) => q.where('b.lot', '=', f.lot!))
      .groupBy([sql`1`, sql`2`]).execute();
  },

  /** Empties reservations (released or consumed): they stay as the owner's record, with nothing open. */
  emptyReservations(tx: Executor, ids: number[], at: string) {
    return tx.updateTable('stock_reservation').set({ quantity: 0, updated_at: at }).where('id', 'in', ids).execute();
  },

  transferReservations(tx: Executor, from: ReservationOwner, to: ReservationOwner, at: string) {
    return tx.updateTable('stock_reservation')
      .set({ document_type: to.documentType, document_id: to.documentId, document_line: to.documentLine ?? '', updated_at: at })
      .where('document_type', '=', from.documentType).where('document_id', '=', from.documentId).where('document_line', '=', from.documentLine ?? '')
      .execute();
  },

  openReservations(tx: Executor, dialect: Dialect, owner: ReservationOwner) {
    return lockRows(dialect, tx.selectFrom('stock_reservation').select(['id', 'balance_id', 'quantity'])
      .where('document_type', '=', owner.documentType).where('document_id', '=', owner.documentId)
      .where('document_line', '=', owner.documentLine ?? '').where('quantity', '>', 0).orderBy('balance_id')).execute();
  },

  /**
   * The open reservations of these owners (one document type), with their balances' places, expiry and receipt
   * time, locked until commit on PostgreSQL with their balances (in balance id order): what a release gives back.
   * `places`: instead, the balances at these places are locked (by id, before the reservations): every balance a
   * reserved move changes, where the units leave and where they arrive, in one order, in this one statement.
   */
  reservationsOf(tx: Executor, dialect: Dialect, documentType: string, documentIds: string[], documentLines?: string[], places?: Place[]) {
    const pg = dialect.engine === 'postgres';
    const from = places ? withBalancesLocked(tx, dialect, () => atPlaces(places)) : tx;
    return lockRows(dialect, from.selectFrom('stock_reservation as r')
      .innerJoin('inventory_balance as b', 'b.id', 'r.balance_id')
      .select(['r.id', 'r.balance_id', 'r.quantity', 'r.document_id', 'r.document_line',
        'b.warehouse_id', 'b.customer_id', 'b.sku_id', 'b.location_id', 'b.lot', 'b.pallet', 'b.expiry_date', 'b.received_at'])
      .where('r.document_type', '=', documentType).where('r.document_id', 'in', documentIds).where('r.quantity', '>', 0)
      // Only the lines moved, when few: a pick from a long order does not read (and lock) the whole order's reservations.
      .$if(documentLines !== undefined, (q) => q.where('r.document_line', 'in', documentLines!))
      .$if(pg && places !== undefined, (q) => q.where(LOCKED_FIRST))
      .orderBy('r.balance_id'), pg && places ? 'r' : undefined).execute();
  },

  /** Each reservation row shrinks by its quantity only if it holds that much: one statement; answers the rows shrunk. */
  shrinkReservations(tx: Executor, dialect: Dialect, rows: { id: number; quantity: number }[], at: string) {
    const int = (v: number) => (dialect.engine === 'postgres' ? sql`cast(${v} as integer)` : sql`${v}`);
    const values = sql.join(rows.map((r) => sql`(${int(r.id)}, ${int(r.quantity)})`));
    return sql<{ id: number }>`
      WITH take(id, quantity) AS (VALUES ${values})
      UPDATE stock_reservation SET quantity = stock_reservation.quantity - take.quantity, updated_at = ${at}
      FROM take WHERE stock_reservation.id = take.id AND stock_reservation.quantity >= take.quantity
      RETURNING stock_reservation.id`.execute(tx).then((r) => r.rows);
  },

  /** Each balance's allocated falls by its quantity only if that much is allocated: one statement; answers the balances changed. */
  deallocateMany(tx: Executor, dialect: Dialect, rows: { id: number; quantity: number }[], at: string) {
    const int = (v: number) => (dialect.engine === 'postgres' ? sql`cast(${v} as integer)` : sql`${v}`);
    const values = sql.join(rows.map((r) => sql`(${int(r.id)}, ${int(r.quantity)})`));
    return sql<{ id: number }>`
      WITH give(id, quantity) AS (VALUES ${values})${pgLock(dialect, sql`id IN (SELECT id FROM give)`)}
      UPDATE inventory_balance SET allocated = inventory_balance.allocated - give.quantity, updated_at = ${at}
      FROM give WHERE inventory_balance.id = give.id AND inventory_balance.allocated >= give.quantity${pgLockedFirst(dialect)}
      RETURNING inventory_balance.id`.execute(tx).then((r) => r.rows);
  },

  /**
   * PostgreSQL: a reserved move's whole giving up at its sources in one statement — every balance at `places` locked
   * in id order first (as reservationsOf does), then each owner's reservation at each place shrunk by its quantity
   * only if it holds that much, and each balance's allocated lowered by what its reservations gave. `takes`: each
   * owner and place at most once. Nothing waits for its answer: it goes with the transaction's next statement (the
   * move's ledger rows, whose arrivals carry their sources' expiry and receipt time), and checks itself — less
   * reserved than taken fails the transaction with a 409 saying how much was.
   */
  async takeReserved(tx: Executor, places: Place[], takes: { owner: ReservationOwner; place: Place; quantity: number }[], at: string) {
    const shape = { places: places.length, takes: takes.length };
    const values = [...places.flatMap(placeValues), ...takes.flatMap((t) => [t.owner.documentType, t.owner.documentId, t.owner.documentLine ?? '', ...placeValues(t.place), t.quantity])];
    const query = takes.length <= FEW_ROWS ? takeReservedOnce.compiled(tx, shape, at, ...values) : takeReservedStatement(tx, shape, at, ...values).compile(tx);
    await writeBehind(tx, query, () => undefined);
  },

  /**
   * PostgreSQL: allocateArrivedAt and the owners' reservations of the balances it finds (reserveMany) in one
   * statement — a round trip fewer on every pick. `owners`: each owner and place at most once, every place among
   * `rows`. Nothing waits for its answer: it goes with the transaction's next statement (writeBehind), and checks
   * itself — a place not free, or an owner not reserved, fails the transaction with a 409.
   */
  async allocateArrivedAndReserve(tx: Executor, rows: { place: Place; quantity: number }[], owners: { owner: ReservationOwner; place: Place; quantity: number }[], at: string) {
    const shape = { rows: rows.length, owners: owners.length };
    const values = [...rows.flatMap((r) => [...placeValues(r.place), r.quantity]),
      ...owners.flatMap((o) => [...placeValues(o.place), o.owner.documentType, o.owner.documentId, o.owner.documentLine ?? '', o.quantity])];
    const query = owners.length <= FEW_ROWS ? allocateArrivedOnce.compiled(tx, shape, at, ...values) : allocateArrivedStatement(tx, shape, at, ...values).compile(tx);
    await writeBehind(tx, query, () => undefined);
  },

  /**
   * Each place's balance (of one warehouse) has its allocated grow by its quantity only if that much is free (no
   * other rule: stock arriving reserved), found by its place in the same statement: one statement for any number
   * of places (each at most once). Answers the balances changed with their places.
   */
  allocateArrivedAt(tx: Executor, dialect: Dialect, rows: { place: Place; quantity: number }[], at: string) {
    const pg = dialect.engine === 'postgres';
    const int = (v: number) => (pg ? sql`cast(${v} as integer)` : sql`${v}`);
    const text = (v: string) => (pg ? sql`cast(${v} as text)` : sql`${v}`);
    const values = sql.join(rows.map(({ place: p, quantity }) =>
      sql`(${int(p.customerId)}, ${int(p.skuId)}, ${int(p.locationId)}, ${text(p.lot)}, ${text(p.pallet)}, ${int(quantity)})`));
    return sql<{ id: number; customer_id: number; sku_id: number; location_id: number; lot: string; pallet: string }>`
      WITH take(customer_id, sku_id, location_id, lot, pallet, quantity) AS (VALUES ${values})
      UPDATE inventory_balance SET allocated = inventory_balance.allocated + take.quantity, updated_at = ${at}
      FROM take WHERE inventory_balance.warehouse_id = ${rows[0].place.warehouseId} AND inventory_balance.customer_id = take.customer_id
        AND inventory_balance.sku_id = take.sku_id AND inventory_balance.location_id = take.location_id AND inventory_balance.lot = take.lot
        AND inventory_balance.pallet = take.pallet AND inventory_balance.on_hand - inventory_balance.allocated >= take.quantity
      RETURNING inventory_balance.id, inventory_balance.customer_id, inventory_balance.sku_id, inventory_balance.location_id,
        inventory_balance.lot, inventory_balance.pallet`.execute(tx).then((r) => r.rows);
  },

  /** Releases `qty` allocated units of one balance only if at least that much is allocated. */
  deallocate(tx: Executor, balanceId: number, qty: number, at: string) {
    return tx.updateTable('inventory_balance')
      .set({ allocated: sql`allocated - ${qty}`, updated_at: at })
      .where('id', '=', balanceId).where('allocated', '>=', qty)
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

  /** The balances at these places (those that exist), locked until commit in id order (PostgreSQL): one statement. */
  lockBalancesAt(tx: Executor, dialect: Dialect, places: Place[]) {
    const which = dialect.engine === 'postgres' ? atPlaces(places) : sql<SqlBool>`(${sql.join(places.map((p) => sql`(${placeWhere(p)})`), sql` OR `)})`;
    return lockRows(dialect, tx.selectFrom('inventory_balance')
      .select(['id', 'warehouse_id', 'customer_id', 'sku_id', 'location_id', 'lot', 'pallet', 'on_hand', 'allocated'])
      .where(which).orderBy('id')).execute();
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

  /** Balances whose allocated figure differs from the sum of their open reservations. */
  async reconcileReservations(db: Executor, scope: Scope, filter: { warehouseId: number; customerId: number }) {
    const inScope = scope.where({ warehouse: 'b.warehouse_id', customer: 'b.customer_id' }, filter);
    const result = await sql<{
      id: number; warehouse_id: number; customer_id: number; sku_id: number; location_id: number; lot: string; pallet: string; allocated: number; reserved: number;
    }>`
      SELECT b.id, b.warehouse_id, b.customer_id, b.sku_id, b.location_id, b.lot, b.pallet, b.allocated, COALESCE(r.reserved, 0) AS reserved
      FROM inventory_balance b LEFT JOIN (
        SELECT balance_id, SUM(quantity) AS reserved FROM stock_reservation WHERE quantity > 0 GROUP BY balance_id
      ) r ON r.balance_id = b.id
      WHERE ${inScope} AND b.allocated <> COALESCE(r.reserved, 0)
    `.execute(db);
    return result.rows;
  },
};
