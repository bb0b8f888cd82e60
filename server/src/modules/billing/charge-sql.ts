import { sql, type RawBuilder } from 'kysely';
import { CHARGE_TYPES, type ChargeType } from '@bolx/contracts';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { FAMILIES, type Family, type Scope3 } from './charges.js';

/**
 * Charges built by the database, one family at a time: each family is one SELECT of candidate charges (a source
 * and the charge type it gives rise to, named by its key), rated by a join to the card in force on its day, and
 * inserted with INSERT…SELECT — a fixed few statements whatever the month holds. The unique key
 * (customer, warehouse, charge type, key) bills a source once: a key taken by any run is skipped (ON CONFLICT).
 *
 * Every candidate SELECT gives the columns of CandidateRow; amounts follow the one rounding rule (contracts'
 * chargeAmount) in integer arithmetic on both engines: half away from zero of quantity × rate ÷ divisor, or, for a
 * carrier's cost plus markup, of cost × (10000 + bp) ÷ 10000.
 */
export interface CandidateRow { charge_type: ChargeType; qualifier: string; charge_key: string; source_type: string; source_id: string; source_doc: string | null; day: string; quantity: number | string; base_minor: number | string | null; n: number }

const lits = (values: readonly string[]) => sql.join(values.map((v) => sql.lit(v)));
const text = (x: RawBuilder<unknown>) => sql`CAST(${x} AS TEXT)`;
const NO_BASE = sql`CAST(NULL AS BIGINT)`;

/** One candidate row's columns, in CandidateRow's order. */
function row(c: { type: string | RawBuilder<unknown>; qualifier?: RawBuilder<unknown>; key: RawBuilder<unknown>; sourceType: string | RawBuilder<unknown>; sourceId: RawBuilder<unknown>; doc: RawBuilder<unknown>; day: RawBuilder<unknown>; quantity: RawBuilder<unknown>; base?: RawBuilder<unknown> }) {
  return sql`${typeof c.type === 'string' ? sql.lit(c.type) : c.type} AS charge_type, ${c.qualifier ?? sql.lit('')} AS qualifier, ${c.key} AS charge_key,
    ${typeof c.sourceType === 'string' ? sql.lit(c.sourceType) : c.sourceType} AS source_type, ${c.sourceId} AS source_id, ${c.doc} AS source_doc, ${c.day} AS day, CAST(${c.quantity} AS BIGINT) AS quantity, ${c.base ?? NO_BASE} AS base_minor`;
}

const ledgerScope = (s: Scope3, t = 't') => sql`${sql.ref(`${t}.warehouse_id`)} = ${s.warehouseId} AND ${sql.ref(`${t}.customer_id`)} = ${s.customerId}
  AND ${sql.ref(`${t}.business_day`)} >= ${s.from} AND ${sql.ref(`${t}.business_day`)} <= ${s.to}`;
const eventScope = (s: Scope3, kinds: string[], e = 'e') => sql`${ledgerScope(s, e)} AND ${sql.ref(`${e}.kind`)} IN (${lits(kinds)})`;

/** The document an event belongs to, as a charge names it (the charge's source_doc; credits and links read it). */
const eventDoc = sql`CASE WHEN e.doc_type IS NOT NULL AND e.doc_id IS NOT NULL THEN e.doc_type || ':' || ${text(sql`e.doc_id`)}
  WHEN e.carton_id IS NOT NULL THEN 'CTN:' || ${text(sql`e.carton_id`)} WHEN e.order_id IS NOT NULL THEN 'SO:' || ${text(sql`e.order_id`)} END`;

/**
 * Which rows a family reads. The run reads every row of its period. The live accrual reads a window: the rows after
 * a mark (`after`: the ledger's, the activity log's and the snapshots' last ids the accrual's materialisation read)
 * up to another (`upTo`; none: all). A window's candidates are signed (n): added to the candidates of the rows up to
 * its start they make the candidates of every row up to its end. A key's candidate depends on its own rows only, so
 * a window touches only the keys of its rows: a per-row charge is its row's; a first-of-key charge is made when the
 * key's first row of the period is in the window (found by the key's index, not a scan of the period); a per-order
 * charge whose units grew is taken back as it stood (n = -1) and made again.
 */
export interface Marks { txn: number; event: number; snapshot: number }
export interface Window { after: Marks; upTo: Marks | null }
type Source = keyof Marks;

/** A row charged: every row of the period (no window), or a row in the window. */
const inWindow = (w: Window | undefined, alias: string, t: Source) => (w
  ? sql`${sql.ref(`${alias}.id`)} > ${w.after[t]}${w.upTo ? sql` AND ${sql.ref(`${alias}.id`)} <= ${w.upTo[t]}` : sql``}`
  : sql`1 = 1`);
/** A row looked at (an earlier row of a key, an order's units): up to the window's end. */
const seen = (w: Window | undefined, alias: string, t: Source) => (w?.upTo ? sql`${sql.ref(`${alias}.id`)} <= ${w.upTo[t]}` : sql`1 = 1`);
const ONE = sql`1`;

/**
 * Where a window after a mark reads its rows: the live accrual's window (rows after its materialisation's marks) is
 * a quarter of an hour of rows, found by their ids (a range scan of the primary key, materialised once: the planner
 * cannot prefer the client's month by date to it) and then narrowed to the client; any other read is of the tables.
 */
const afterMark = (w?: Window): w is Window => !!w && (w.after.txn > 0 || w.after.event > 0);
const WINDOW_TXN = 'billing_window_txn';
const WINDOW_EVENT = 'billing_window_event';
const txnRows = (w?: Window) => sql.table(afterMark(w) ? WINDOW_TXN : 'inventory_txn');
const eventRows = (w?: Window) => sql.table(afterMark(w) ? WINDOW_EVENT : 'floor_event');
/** The WITH clause a window after a mark needs (its rows by id range), to head the statement its candidates are in; else nothing. */
export function windowRowsOf(w?: Window): RawBuilder<unknown> {
  if (!afterMark(w)) return sql``;
  const upTo = (t: Source) => (w.upTo ? sql` AND id <= ${w.upTo[t]}` : sql``);
  return sql`WITH ${sql.table(WINDOW_TXN)} AS MATERIALIZED (SELECT * FROM inventory_txn WHERE id > ${w.after.txn}${upTo('txn')}),
    ${sql.table(WINDOW_EVENT)} AS MATERIALIZED (SELECT * FROM floor_event WHERE id > ${w.after.event}${upTo('event')}) `;
}

/**
 * The first event of each key (an RMA opened twice, a carton closed again): a key is one charge. The run groups the
 * period's events by key; a window asks, of each of its events, whether an earlier one has its key (`same`: the
 * key's columns equal, so the lookup uses their index).
 */
const firstOfKey = (s: Scope3, kinds: string[], key: RawBuilder<unknown>, where: RawBuilder<unknown>, same: RawBuilder<unknown>, w?: Window) => (w
  ? sql`${inWindow(w, 'e', 'event')} AND NOT EXISTS (SELECT 1 FROM floor_event f WHERE ${eventScope(s, kinds, 'f')} AND ${same} AND f.id < e.id)`
  : sql`e.id IN (SELECT MIN(f.id) FROM floor_event f WHERE ${eventScope(s, kinds, 'f')} AND ${where} GROUP BY ${key})`);

/**
 * Receiving: per unit (each receipt row), per order, line and pallet (the first receipt row of each), per carton
 * (the first receive event of the order naming an inbound carton).
 */
function receiving(s: Scope3, w?: Window) {
  const receiptsOf = (a: string) => sql`${ledgerScope(s, a)} AND ${sql.ref(`${a}.document_type`)} = 'RECEIPT' AND ${sql.ref(`${a}.txn_type`)} IN ('receive', 'receive_damaged') AND ${sql.ref(`${a}.qty_change`)} > 0`;
  const firstOf = (where: RawBuilder<unknown>, same: RawBuilder<unknown>) =>
    sql`${receiptsOf('t')} AND ${inWindow(w, 't', 'txn')} AND ${where} AND NOT EXISTS (SELECT 1 FROM inventory_txn r WHERE ${receiptsOf('r')} AND r.document_id = t.document_id AND ${same} AND r.id < t.id)`;
  const doc = sql`'RECEIPT:' || t.document_id`;
  const txnId = text(sql`t.id`);
  const cartonOf = (e: string) => sql`${sql.ref(`${e}.carton_code`)} IS NOT NULL AND ${sql.ref(`${e}.carton_code`)} <> '' AND ${sql.ref(`${e}.doc_type`)} IS NOT NULL AND ${sql.ref(`${e}.doc_id`)} IS NOT NULL`;
  const cartonKey = (e: string) => sql`'ctn:' || ${sql.ref(`${e}.doc_type`)} || ':' || ${text(sql.ref(`${e}.doc_id`))} || ':' || ${sql.ref(`${e}.carton_code`)}`;
  // A window reads its own rows, each looking up whether an earlier receipt of its order (line, pallet) was there.
  const perRow = sql`SELECT ${row({ type: 'receiving_unit', key: sql`'txn:' || ${txnId}`, sourceType: 'ledger', sourceId: txnId, doc, day: sql`t.business_day`, quantity: sql`t.qty_change` })}, ${ONE} AS n
      FROM ${txnRows(w)} t WHERE ${receiptsOf('t')} AND ${inWindow(w, 't', 'txn')}
    UNION ALL SELECT ${row({ type: 'receiving_order', key: sql`'ro:' || t.document_id`, sourceType: 'document', sourceId: sql`t.document_id`, doc, day: sql`t.business_day`, quantity: sql`1` })}, ${ONE} AS n
      FROM ${txnRows(w)} t WHERE ${firstOf(sql`1 = 1`, sql`1 = 1`)}
    UNION ALL SELECT ${row({ type: 'receiving_line', key: sql`'line:' || t.document_id || ':' || t.document_line`, sourceType: 'ledger', sourceId: txnId, doc, day: sql`t.business_day`, quantity: sql`1` })}, ${ONE} AS n
      FROM ${txnRows(w)} t WHERE ${firstOf(sql`t.document_line IS NOT NULL AND t.document_line <> ''`, sql`r.document_line = t.document_line`)}
    UNION ALL SELECT ${row({ type: 'receiving_pallet', key: sql`'pal:' || t.document_id || ':' || t.pallet`, sourceType: 'ledger', sourceId: txnId, doc, day: sql`t.business_day`, quantity: sql`1` })}, ${ONE} AS n
      FROM ${txnRows(w)} t WHERE ${firstOf(sql`t.pallet IS NOT NULL AND t.pallet <> ''`, sql`r.pallet = t.pallet`)}`;
  // A run reads the period's receipts once, ranked within their order, line and pallet: each row gives its unit
  // charge and, where it is the first of its order, line or pallet, that charge too.
  const ranked = sql`(SELECT t.id, t.document_id, t.document_line, t.pallet, t.business_day, t.qty_change,
      ROW_NUMBER() OVER (PARTITION BY t.document_id ORDER BY t.id) AS of_order,
      ROW_NUMBER() OVER (PARTITION BY t.document_id, t.document_line ORDER BY t.id) AS of_line,
      ROW_NUMBER() OVER (PARTITION BY t.document_id, t.pallet ORDER BY t.id) AS of_pallet
    FROM inventory_txn t WHERE ${receiptsOf('t')})`;
  const kinds = sql`(SELECT 'receiving_unit' AS kind UNION ALL SELECT 'receiving_order' UNION ALL SELECT 'receiving_line' UNION ALL SELECT 'receiving_pallet')`;
  const once = sql`SELECT ${row({
    type: sql`k.kind`,
    key: sql`CASE k.kind WHEN 'receiving_unit' THEN 'txn:' || ${txnId} WHEN 'receiving_order' THEN 'ro:' || t.document_id
      WHEN 'receiving_line' THEN 'line:' || t.document_id || ':' || t.document_line ELSE 'pal:' || t.document_id || ':' || t.pallet END`,
    sourceType: sql`CASE WHEN k.kind = 'receiving_order' THEN 'document' ELSE 'ledger' END`,
    sourceId: sql`CASE WHEN k.kind = 'receiving_order' THEN t.document_id ELSE ${txnId} END`,
    doc, day: sql`t.business_day`, quantity: sql`CASE WHEN k.kind = 'receiving_unit' THEN t.qty_change ELSE 1 END`,
  })}, ${ONE} AS n FROM ${ranked} t CROSS JOIN ${kinds} k
    WHERE k.kind = 'receiving_unit' OR (k.kind = 'receiving_order' AND t.of_order = 1)
      OR (k.kind = 'receiving_line' AND t.of_line = 1 AND t.document_line IS NOT NULL AND t.document_line <> '')
      OR (k.kind = 'receiving_pallet' AND t.of_pallet = 1 AND t.pallet IS NOT NULL AND t.pallet <> '')`;
  return sql`
    ${w ? perRow : once}
    UNION ALL SELECT ${row({ type: 'receiving_carton', key: cartonKey('e'), sourceType: 'event', sourceId: text(sql`e.id`), doc: eventDoc, day: sql`e.business_day`, quantity: sql`1` })}, ${ONE} AS n
      FROM ${eventRows(w)} e WHERE ${w ? sql`${eventScope(s, ['receive'])} AND ${cartonOf('e')} AND ` : sql``}${firstOfKey(s, ['receive'], cartonKey('f'), cartonOf('f'),
        sql`f.doc_type = e.doc_type AND f.doc_id = e.doc_id AND f.carton_code = e.carton_code`, w)}`;
}

/** Storage: each snapshot day gives a charge per measure held (pallets, cm³, units, locations by type). */
function storage(s: Scope3, d: Dialect, w?: Window) {
  const scope = sql`s.warehouse_id = ${s.warehouseId} AND s.customer_id = ${s.customerId} AND s.day >= ${s.from} AND s.day <= ${s.to} AND ${inWindow(w, 's', 'snapshot')}`;
  const measure = (type: ChargeType, column: string) => sql`SELECT ${row({
    type, key: sql`'snap:' || s.day`, sourceType: 'snapshot', sourceId: text(sql`s.id`), doc: sql`'SNAP:' || s.day`, day: sql`s.day`, quantity: sql.ref(`s.${column}`),
  })}, ${ONE} AS n FROM storage_snapshot s WHERE ${scope} AND ${sql.ref(`s.${column}`)} > 0`;
  return sql`${measure('storage_pallet_day', 'pallets')} UNION ALL ${measure('storage_cbm_day', 'volume_cm3')} UNION ALL ${measure('storage_unit_month', 'units')}
    UNION ALL SELECT ${row({
      type: 'storage_location_month', qualifier: sql`j.key`, key: sql`'snap:' || s.day || ':' || j.key`, sourceType: 'snapshot', sourceId: text(sql`s.id`),
      doc: sql`'SNAP:' || s.day`, day: sql`s.day`, quantity: sql`j.value`,
    })}, ${ONE} AS n FROM storage_snapshot s CROSS JOIN ${d.jsonEntries(sql.ref('s.locations_json'), 'j')} WHERE ${scope} AND CAST(j.value AS BIGINT) > 0`;
}

/** Fulfilment: each line shipped, each carton closed, and per order shipped: the order, its first unit, its further units. */
function fulfilment(s: Scope3, w?: Window) {
  const cartonKey = (e: string) => sql`CASE WHEN ${sql.ref(`${e}.carton_id`)} IS NOT NULL THEN 'ctn:' || ${text(sql.ref(`${e}.carton_id`))} ELSE 'fe:' || ${text(sql.ref(`${e}.id`))} END`;
  // Per order: its shipped units and the day of its first ship event (a window: of the orders it ships, as they
  // stand at its end, and with n = -1 as they stood at its start).
  const touched = w ? sql` AND f.order_id IN (SELECT g.order_id FROM ${eventRows(w)} g WHERE ${eventScope(s, ['ship'], 'g')} AND g.order_id IS NOT NULL AND ${inWindow(w, 'g', 'event')})` : sql``;
  const orders = (upTo: RawBuilder<unknown>) => sql`(SELECT o.order_id, o.units, e.business_day FROM (
      SELECT f.order_id, MIN(f.id) AS first_id, SUM(f.quantity) AS units FROM floor_event f WHERE ${eventScope(s, ['ship'], 'f')} AND f.order_id IS NOT NULL AND ${upTo}${touched} GROUP BY f.order_id
    ) o JOIN floor_event e ON e.id = o.first_id)`;
  const perOrder = (type: ChargeType, quantity: RawBuilder<unknown>, where: RawBuilder<unknown>) => {
    const at = (upTo: RawBuilder<unknown>, n: number) => sql`SELECT ${row({
      type, key: sql`'so:' || ${text(sql`o.order_id`)}`, sourceType: 'document', sourceId: text(sql`o.order_id`), doc: sql`'SO:' || ${text(sql`o.order_id`)}`, day: sql`o.business_day`, quantity,
    })}, ${sql.lit(n)} AS n FROM ${orders(upTo)} o WHERE ${where}`;
    return w && w.after.event > 0 ? sql`${at(seen(w, 'f', 'event'), 1)} UNION ALL ${at(sql`f.id <= ${w.after.event}`, -1)}` : at(seen(w, 'f', 'event'), 1);
  };
  return sql`
    SELECT ${row({ type: 'order_carton', key: cartonKey('e'), sourceType: 'event', sourceId: text(sql`e.id`), doc: sql`CASE WHEN e.order_id IS NOT NULL THEN 'SO:' || ${text(sql`e.order_id`)} ELSE ${eventDoc} END`, day: sql`e.business_day`, quantity: sql`1` })}, ${ONE} AS n
      FROM ${eventRows(w)} e WHERE ${w ? sql`${eventScope(s, ['close-carton'])} AND ` : sql``}${firstOfKey(s, ['close-carton'], cartonKey('f'), sql`1 = 1`, sql`e.carton_id IS NOT NULL AND f.carton_id = e.carton_id`, w)}
    UNION ALL SELECT ${row({ type: 'order_line', key: sql`'fe:' || ${text(sql`e.id`)}`, sourceType: 'event', sourceId: text(sql`e.id`), doc: sql`'SO:' || ${text(sql`e.order_id`)}`, day: sql`e.business_day`, quantity: sql`1` })}, ${ONE} AS n
      FROM ${eventRows(w)} e WHERE ${eventScope(s, ['ship'])} AND e.order_id IS NOT NULL AND ${inWindow(w, 'e', 'event')}
    UNION ALL ${perOrder('order', sql`1`, sql`1 = 1`)}
    UNION ALL ${perOrder('order_first_unit', sql`1`, sql`o.units >= 1`)}
    UNION ALL ${perOrder('order_additional_unit', sql`o.units - 1`, sql`o.units > 1`)}`;
}

/** Shipping: each label's fee, and its carrier cost plus the card's markup. */
function shipping(s: Scope3, w?: Window) {
  const label = (type: ChargeType, base: RawBuilder<unknown>, where: RawBuilder<unknown>) => sql`SELECT ${row({
    type, key: sql`'fe:' || ${text(sql`e.id`)}`, sourceType: 'event', sourceId: text(sql`e.id`), doc: sql`'LABEL:' || COALESCE(${eventDoc}, ${text(sql`e.id`)})`,
    day: sql`e.business_day`, quantity: sql`1`, base,
  })}, ${ONE} AS n FROM ${eventRows(w)} e WHERE ${eventScope(s, ['label'])} AND ${inWindow(w, 'e', 'event')} AND ${where}`;
  return sql`${label('label_fee', NO_BASE, sql`1 = 1`)} UNION ALL ${label('carrier_markup', sql`CAST(e.amount_minor AS BIGINT)`, sql`e.amount_minor IS NOT NULL`)}`;
}

/** Returns: each RMA opened, each unit received back, each unit disposed of (by its disposition). */
function returns(s: Scope3, w?: Window) {
  const rmaKey = (e: string) => sql`CASE WHEN ${sql.ref(`${e}.doc_id`)} IS NOT NULL THEN 'rma:' || ${text(sql.ref(`${e}.doc_id`))} ELSE 'fe:' || ${text(sql.ref(`${e}.id`))} END`;
  const base = { sourceType: 'event', sourceId: text(sql`e.id`), doc: eventDoc, day: sql`e.business_day` };
  // An RMA's events name it as their document (RMA, its id): the lookup of an earlier one goes by that index.
  return sql`
    SELECT ${row({ ...base, type: 'return_rma', key: rmaKey('e'), quantity: sql`1` })}, ${ONE} AS n FROM ${eventRows(w)} e
      WHERE ${w ? sql`${eventScope(s, ['rma'])} AND ` : sql``}${firstOfKey(s, ['rma'], rmaKey('f'), sql`1 = 1`, sql`e.doc_id IS NOT NULL AND f.doc_id = e.doc_id AND f.doc_type = e.doc_type`, w)}
    UNION ALL SELECT ${row({ ...base, type: 'return_unit', key: sql`'fe:' || ${text(sql`e.id`)}`, quantity: sql`e.quantity` })}, ${ONE} AS n
      FROM ${eventRows(w)} e WHERE ${eventScope(s, ['return-receive'])} AND ${inWindow(w, 'e', 'event')} AND e.quantity > 0
    UNION ALL SELECT ${row({ ...base, type: 'return_disposition', qualifier: sql`COALESCE(e.detail, '')`, key: sql`'fe:' || ${text(sql`e.id`)}`, quantity: sql`e.quantity` })}, ${ONE} AS n
      FROM ${eventRows(w)} e WHERE ${eventScope(s, ['return-dispose'])} AND ${inWindow(w, 'e', 'event')} AND e.quantity > 0`;
}

/** Kitting: kits made by work orders (the ledger's kit_produce of a kit SKU). */
function kitting(s: Scope3, w?: Window) {
  const txnId = text(sql`t.id`);
  return sql`SELECT ${row({ type: 'kit_build', key: sql`'txn:' || ${txnId}`, sourceType: 'ledger', sourceId: txnId, doc: sql`'WO:' || t.document_id`, day: sql`t.business_day`, quantity: sql`t.qty_change` })}, ${ONE} AS n
    FROM ${txnRows(w)} t JOIN sku k ON k.id = t.sku_id WHERE ${ledgerScope(s)} AND ${inWindow(w, 't', 'txn')} AND t.document_type = 'WO' AND t.txn_type = 'kit_produce' AND k.is_kit = 1 AND t.qty_change > 0`;
}

/**
 * A family's candidate charges: a SELECT of CandidateRow's columns (and n: 1, or -1 for one a window takes back). A
 * window after a mark reads its rows from the WITH clause of windowRowsOf, which the statement must begin with.
 */
export function candidatesOf(family: Family, s: Scope3, d: Dialect, w?: Window): RawBuilder<CandidateRow> {
  const q = family === 'storage' ? storage(s, d, w) : family === 'receiving' ? receiving(s, w) : family === 'fulfilment' ? fulfilment(s, w)
    : family === 'shipping' ? shipping(s, w) : family === 'returns' ? returns(s, w) : kitting(s, w);
  return q as RawBuilder<CandidateRow>;
}

const typesBy = (divisor: string) => (Object.keys(CHARGE_TYPES) as ChargeType[]).filter((t) => CHARGE_TYPES[t].divisor === divisor);

/** n ÷ d rounded half away from zero, in integers (d > 0): the rounding rule of contracts' divideRounded. */
const rounded = (n: RawBuilder<unknown>, d: RawBuilder<unknown>) => sql`CASE WHEN ${n} >= 0 THEN (2 * ${n} + ${d}) / (2 * ${d}) ELSE -((2 * -(${n}) + ${d}) / (2 * ${d})) END`;

/** The version of the customer's card in force on a candidate's day, and its rate for the charge type: its qualifier's own, else the general one. */
const rateJoin = (s: Scope3) => sql`
  JOIN rate_card_version v ON v.customer_id = ${s.customerId} AND v.warehouse_id = ${s.warehouseId} AND v.effective_from <= c.day AND (v.effective_to IS NULL OR v.effective_to >= c.day)
  LEFT JOIN rate_card_rate rq ON rq.version_id = v.id AND rq.charge_type = c.charge_type AND rq.qualifier = c.qualifier
  LEFT JOIN rate_card_rate rg ON rg.version_id = v.id AND rg.charge_type = c.charge_type AND rg.qualifier = ''`;

/** Candidates rated: their rate, markup, divisor and amount (the columns billing_charge keeps); unrated ones drop out. */
export function rated(candidates: RawBuilder<CandidateRow>, s: Scope3, d: Dialect, weighted = false) {
  const divisor = sql`CASE WHEN c.charge_type IN (${lits(typesBy('month'))}) THEN ${d.daysInMonth(sql`c.day`)}
    WHEN c.charge_type IN (${lits(typesBy('cm3'))}) THEN 1000000 WHEN c.charge_type IN (${lits(typesBy('hour'))}) THEN 60 ELSE 1 END`;
  const markup = sql`CASE WHEN c.charge_type = 'carrier_markup' THEN COALESCE(rq.markup_bp, rg.markup_bp) ELSE 0 END`;
  const rate = sql`CASE WHEN c.charge_type = 'carrier_markup' THEN COALESCE(c.base_minor, 0) ELSE COALESCE(rq.rate_minor, rg.rate_minor) END`;
  // Without a markup the 10000s cancel (smaller products, the same rounded result).
  const amount = sql`CASE WHEN x.markup_bp = 0 THEN ${rounded(sql`x.quantity * x.rate_minor`, sql`x.divisor`)}
    ELSE ${rounded(sql`x.quantity * x.rate_minor * (10000 + x.markup_bp)`, sql`(10000 * x.divisor)`)} END`;
  return sql`SELECT x.*, ${amount} AS amount_minor FROM (
      SELECT c.charge_type, c.qualifier, c.charge_key, c.source_type, c.source_id, c.source_doc, c.day, c.quantity,
        ${rate} AS rate_minor, ${markup} AS markup_bp, ${divisor} AS divisor, v.id AS rate_version_id${weighted ? sql`, c.n` : sql``}
      FROM (${candidates}) c ${rateJoin(s)} WHERE COALESCE(rq.id, rg.id) IS NOT NULL
    ) x`;
}

/** Inserts a family's rated charges for the invoice; a charge whose key any run took already is skipped. */
export async function insertCharges(tx: Executor, d: Dialect, invoiceId: number, s: Scope3, family: Family): Promise<void> {
  // A family's month of charges (100,000 labels' fees and costs) is sorted by key before it is written: in memory
  // (this transaction only), not in temporary files as PostgreSQL's default 4 MB would have it.
  if (d.engine === 'postgres') await sql`SET LOCAL work_mem = '64MB'`.execute(tx);
  // WHERE true: SQLite's parser needs it before ON CONFLICT in INSERT…SELECT. One order (type, key) for every run:
  // concurrent runs meet on the same keys in the same order, so they wait on each other instead of deadlocking.
  await sql`INSERT INTO billing_charge (customer_id, warehouse_id, charge_type, qualifier, charge_key, source_type, source_id, source_doc, day, quantity,
      rate_minor, markup_bp, divisor, amount_minor, rate_version_id, invoice_id)
    SELECT CAST(${s.customerId} AS INTEGER), CAST(${s.warehouseId} AS INTEGER), r.charge_type, r.qualifier, r.charge_key, r.source_type, r.source_id, r.source_doc, r.day, r.quantity,
      r.rate_minor, r.markup_bp, r.divisor, r.amount_minor, r.rate_version_id, CAST(${invoiceId} AS INTEGER)
    FROM (${rated(candidatesOf(family, s, d), s, d)}) r WHERE true ORDER BY r.charge_type, r.charge_key
    ON CONFLICT (customer_id, warehouse_id, charge_type, charge_key) DO NOTHING`.execute(tx);
}

/**
 * How many sources of a family are activity with no rate: sources on days whose card has no rate of the family at all
 * (a card with some of the family's rates chose not to charge the others).
 */
export async function unratedSources(db: Executor, d: Dialect, s: Scope3, family: Family): Promise<number> {
  const r = await sql<{ n: number | string }>`SELECT COUNT(DISTINCT c.source_id) AS n FROM (${candidatesOf(family, s, d)}) c
    WHERE NOT EXISTS (SELECT 1 FROM rate_card_version v JOIN rate_card_rate rr ON rr.version_id = v.id
      WHERE v.customer_id = ${s.customerId} AND v.warehouse_id = ${s.warehouseId} AND v.effective_from <= c.day AND (v.effective_to IS NULL OR v.effective_to >= c.day)
        AND rr.charge_type IN (${lits(FAMILIES[family])}))`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}
