import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { dayInAnyZone } from '../../platform/business-day.js';
import type { Scope } from '../../platform/scope.js';

export interface ReportFilter { warehouseId?: number; customerId?: number; skuId?: number; locationId?: number }

/**
 * The inventory reports' queries. Every one but "as of" reads the balances (never the ledger), so they stay
 * fast however long the ledger grows; grouped reports are wrapped as a subquery `r` so paging and the total
 * are the usual two statements.
 */
function balances(db: Executor, scope: Scope, f: ReportFilter) {
  let q = db.selectFrom('inventory_balance as b')
    .where(scope.where({ warehouse: 'b.warehouse_id', customer: 'b.customer_id' }, f))
    .where('b.on_hand', '>', 0);
  if (f.skuId) q = q.where('b.sku_id', '=', f.skuId);
  if (f.locationId) q = q.where('b.location_id', '=', f.locationId);
  return q;
}

/** A balance row with its names, for the per-place reports. */
function named(db: Executor, scope: Scope, f: ReportFilter) {
  return balances(db, scope, f)
    .innerJoin('warehouse as w', 'w.id', 'b.warehouse_id')
    .innerJoin('customer as c', 'c.id', 'b.customer_id')
    .innerJoin('sku as s', 's.id', 'b.sku_id')
    .innerJoin('location as l', 'l.id', 'b.location_id');
}

/** The business day now (`now`, an ISO instant) in the zone of the warehouse aliased `w`. */
const todayIn = (d: Dialect, now: string, warehouse = 'w') => d.localDay(sql.val(now), sql.ref(`${warehouse}.timezone`));

/**
 * Whether a ledger row (of inventory_txn, unaliased) is up to `asOf` or after it. `asOf` is an instant, or a
 * business day (YYYY-MM-DD): up to the end of that day in the row's warehouse's zone. For a day, rows outside the
 * band where some zone is still on that day are decided by the time alone, so the range index still serves.
 */
function ledgerSide(d: Dialect, asOf: string, side: 'upTo' | 'after'): RawBuilder<SqlBool> {
  if (asOf.length !== 10) return side === 'upTo' ? sql<SqlBool>`at <= ${asOf}` : sql<SqlBool>`at > ${asOf}`;
  const { from, until } = dayInAnyZone(asOf);
  const day = d.localDay(sql.ref('at'), sql`(select w.timezone from warehouse w where w.id = inventory_txn.warehouse_id)`);
  return side === 'upTo'
    ? sql<SqlBool>`(at < ${from} OR (at < ${until} AND ${day} <= ${asOf}))`
    : sql<SqlBool>`(at >= ${until} OR (at >= ${from} AND ${day} > ${asOf}))`;
}

const sum = (col: string) => sql<number>`sum(${sql.ref(col)})`;
const free = sql<number>`sum(b.on_hand - b.allocated)`;
/** Groups are disjoint sets of balance rows, so the smallest id is a unique key: the lists' tie-breaker. */
const rowKey = sql<number>`min(b.id)`.as('row_key');
const totals = [sum('b.on_hand').as('on_hand'), sum('b.allocated').as('allocated'), free.as('available'), rowKey] as const;

// Grouped reports aggregate the balance rows alone (the balance key's index serves the grouping), then name
// the far fewer groups.
export const inventoryReportRepository = {
  onHandBySku(db: Executor, scope: Scope, f: ReportFilter) {
    const g = balances(db, scope, f)
      .select(['b.warehouse_id', 'b.customer_id', 'b.sku_id', sql<number>`count(DISTINCT b.location_id)`.as('location_count'), ...totals])
      .groupBy(['b.warehouse_id', 'b.customer_id', 'b.sku_id']);
    return db.selectFrom(db.selectFrom(g.as('g'))
      .innerJoin('warehouse as w', 'w.id', 'g.warehouse_id').innerJoin('customer as c', 'c.id', 'g.customer_id').innerJoin('sku as s', 's.id', 'g.sku_id')
      .selectAll('g').select(['w.name as warehouse_name', 'c.name as customer_name', 's.sku_code', 's.description as sku_description']).as('r'));
  },

  onHandByLocation(db: Executor, scope: Scope, f: ReportFilter) {
    const g = balances(db, scope, f)
      .select(['b.warehouse_id', 'b.location_id', 'b.customer_id', sql<number>`count(DISTINCT b.sku_id)`.as('sku_count'), ...totals])
      .groupBy(['b.warehouse_id', 'b.location_id', 'b.customer_id']);
    return db.selectFrom(db.selectFrom(g.as('g'))
      .innerJoin('warehouse as w', 'w.id', 'g.warehouse_id').innerJoin('customer as c', 'c.id', 'g.customer_id').innerJoin('location as l', 'l.id', 'g.location_id')
      .selectAll('g').select(['w.name as warehouse_name', 'c.name as customer_name', 'l.code as location_code', 'l.type as location_type']).as('r'));
  },

  onHandByLot(db: Executor, scope: Scope, f: ReportFilter) {
    const g = balances(db, scope, f)
      .select(['b.warehouse_id', 'b.customer_id', 'b.sku_id', 'b.lot', 'b.expiry_date', sql<number>`count(DISTINCT b.location_id)`.as('location_count'), ...totals])
      .groupBy(['b.warehouse_id', 'b.customer_id', 'b.sku_id', 'b.lot', 'b.expiry_date']);
    return db.selectFrom(db.selectFrom(g.as('g'))
      .innerJoin('warehouse as w', 'w.id', 'g.warehouse_id').innerJoin('customer as c', 'c.id', 'g.customer_id').innerJoin('sku as s', 's.id', 'g.sku_id')
      .selectAll('g').select(['w.name as warehouse_name', 'c.name as customer_name', 's.sku_code']).as('r'));
  },

  onHandByPallet(db: Executor, scope: Scope, f: ReportFilter) {
    const g = balances(db, scope, f).where('b.pallet', '<>', '')
      .select(['b.warehouse_id', 'b.pallet', 'b.location_id', 'b.customer_id', sql<number>`count(DISTINCT b.sku_id)`.as('sku_count'), ...totals])
      .groupBy(['b.warehouse_id', 'b.pallet', 'b.location_id', 'b.customer_id']);
    return db.selectFrom(db.selectFrom(g.as('g'))
      .innerJoin('warehouse as w', 'w.id', 'g.warehouse_id').innerJoin('customer as c', 'c.id', 'g.customer_id').innerJoin('location as l', 'l.id', 'g.location_id')
      .selectAll('g').select(['w.name as warehouse_name', 'c.name as customer_name', 'l.code as location_code']).as('r'));
  },

  /** Expired is past its expiry date on the business day now in its warehouse's zone. */
  availability(db: Executor, scope: Scope, f: ReportFilter, d: Dialect, now: string) {
    const expired = sql<number>`sum(CASE WHEN b.expiry_date IS NOT NULL AND b.expiry_date < ${todayIn(d, now, 'bw')} THEN b.on_hand - b.allocated ELSE 0 END)`;
    const g = balances(db, scope, f).innerJoin('warehouse as bw', 'bw.id', 'b.warehouse_id')
      .select(['b.warehouse_id', 'b.customer_id', 'b.sku_id', expired.as('expired'), ...totals])
      .groupBy(['b.warehouse_id', 'b.customer_id', 'b.sku_id']);
    return db.selectFrom(db.selectFrom(g.as('g'))
      .innerJoin('warehouse as w', 'w.id', 'g.warehouse_id').innerJoin('customer as c', 'c.id', 'g.customer_id').innerJoin('sku as s', 's.id', 'g.sku_id')
      .selectAll('g').select(['w.name as warehouse_name', 'c.name as customer_name', 's.sku_code', 's.description as sku_description']).as('r'));
  },

  /**
   * Balance rows with when their stock arrived (aging) and their warehouse's zone; with `expiry`, only lots expiring
   * within `days` of the business day now in their warehouse's zone (and not before it, unless expired ones count).
   */
  places(db: Executor, scope: Scope, f: ReportFilter, expiry?: { d: Dialect; now: string; days: number; includeExpired: boolean }) {
    let q = named(db, scope, f);
    if (expiry) {
      const today = todayIn(expiry.d, expiry.now);
      // The UTC day is within a day of every zone's: a plain bound for the expiry index beside the exact per-zone one.
      const utcDay = (days: number) => new Date(Date.parse(expiry.now) + days * 864e5).toISOString().slice(0, 10);
      q = q.where('b.expiry_date', 'is not', null).where('b.expiry_date', '<=', utcDay(expiry.days + 1)).where('b.expiry_date', '<=', expiry.d.addDays(today, expiry.days));
      if (!expiry.includeExpired) q = q.where('b.expiry_date', '>=', utcDay(-1)).where('b.expiry_date', '>=', today);
    }
    return db.selectFrom(q.select(['b.id', 'b.warehouse_id', 'w.name as warehouse_name', 'w.timezone', 'b.customer_id', 'c.name as customer_name', 'b.sku_id', 's.sku_code',
      's.description as sku_description', 'b.location_id', 'l.code as location_code', 'b.lot', 'b.pallet', 'b.expiry_date', 'b.on_hand', 'b.allocated',
      sql<string | null>`coalesce(b.received_at, b.updated_at)`.as('received_at')]).as('r'));
  },

  /**
   * Whether the ledger holds no more rows after `asOf` than up to it (those after counted up to `cap`): then "as of"
   * is cheaper backward from today's balances. The rows up to it are counted only as far as the rows after: a recent
   * date reads a few rows, not `cap` of a year's.
   */
  async fewerAfter(db: Executor, scope: Scope, f: ReportFilter, asOf: string, cap: number, d: Dialect): Promise<boolean> {
    const side = async (which: 'after' | 'upTo', limit: number) => {
      if (limit === 0) return 0;
      let q = db.selectFrom('inventory_txn').select(sql<number>`1`.as('one'))
        .where(scope.where({ warehouse: 'warehouse_id', customer: 'customer_id' }, f)).where(ledgerSide(d, asOf, which));
      if (f.skuId) q = q.where('sku_id', '=', f.skuId);
      if (f.locationId) q = q.where('location_id', '=', f.locationId);
      return db.selectFrom(q.limit(limit).as('x')).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow().then((r) => Number(r.n));
    };
    const after = await side('after', cap);
    return (await side('upTo', after)) >= after;
  },

  /**
   * Stock as it stood at `asOf`, from the ledger: either the ledger rows up to then ('forward'), or today's
   * balances less every ledger row since ('backward', cheap for recent dates; exact while the ledger sums to
   * the balances, which Reconcile proves). `asOf` is an instant or a business day (see ledgerSide).
   */
  asOf(db: Executor, scope: Scope, f: ReportFilter, asOf: string, direction: 'forward' | 'backward', d: Dialect) {
    const keys = ['warehouse_id', 'customer_id', 'sku_id', 'location_id', 'lot', 'pallet'] as const;
    let now = db.selectFrom('inventory_balance').select([...keys, sql<number>`on_hand`.as('q')])
      .where(scope.where({ warehouse: 'warehouse_id', customer: 'customer_id' }, f));
    let ledger = db.selectFrom('inventory_txn')
      .select([...keys, (direction === 'backward' ? sql<number>`0 - qty_change` : sql<number>`qty_change`).as('q')])
      .where(scope.where({ warehouse: 'warehouse_id', customer: 'customer_id' }, f)).where(ledgerSide(d, asOf, direction === 'backward' ? 'after' : 'upTo'));
    if (f.skuId) { now = now.where('sku_id', '=', f.skuId); ledger = ledger.where('sku_id', '=', f.skuId); }
    if (f.locationId) { now = now.where('location_id', '=', f.locationId); ledger = ledger.where('location_id', '=', f.locationId); }
    const rows = direction === 'backward' ? now.unionAll(ledger) : ledger;
    const grouped = db.selectFrom(rows.as('x'))
      .select(['x.warehouse_id', 'x.customer_id', 'x.sku_id', 'x.location_id', 'x.lot', 'x.pallet', sql<number>`sum(x.q)`.as('on_hand')])
      .groupBy(['x.warehouse_id', 'x.customer_id', 'x.sku_id', 'x.location_id', 'x.lot', 'x.pallet'])
      .having(sql<number>`sum(x.q)`, '<>', 0);
    // The names looked up by key, a row at a time: joined, PostgreSQL takes the grouped places (their HAVING) for a
    // handful and nests every location over them (20,000 places × 1,000 locations compared, seconds).
    const named = db.selectFrom(grouped.as('g'))
      .select((eb) => ['g.warehouse_id', eb.selectFrom('warehouse as w').select('w.name').whereRef('w.id', '=', 'g.warehouse_id').as('warehouse_name'),
        'g.customer_id', eb.selectFrom('customer as c').select('c.name').whereRef('c.id', '=', 'g.customer_id').as('customer_name'),
        'g.sku_id', eb.selectFrom('sku as s').select('s.sku_code').whereRef('s.id', '=', 'g.sku_id').as('sku_code'), 'g.location_id',
        eb.selectFrom('location as l').select('l.code').whereRef('l.id', '=', 'g.location_id').as('location_code'), 'g.lot', 'g.pallet', 'g.on_hand',
        sql<string>`g.warehouse_id || '|' || g.customer_id || '|' || g.sku_id || '|' || g.location_id || '|' || g.lot || '|' || g.pallet`.as('row_key')]);
    return db.selectFrom(named.as('r'));
  },
};
