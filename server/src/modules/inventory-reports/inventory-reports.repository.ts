import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
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

  availability(db: Executor, scope: Scope, f: ReportFilter, today: string) {
    const expired = sql<number>`sum(CASE WHEN b.expiry_date IS NOT NULL AND b.expiry_date < ${today} THEN b.on_hand - b.allocated ELSE 0 END)`;
    const g = balances(db, scope, f)
      .select(['b.warehouse_id', 'b.customer_id', 'b.sku_id', expired.as('expired'), ...totals])
      .groupBy(['b.warehouse_id', 'b.customer_id', 'b.sku_id']);
    return db.selectFrom(db.selectFrom(g.as('g'))
      .innerJoin('warehouse as w', 'w.id', 'g.warehouse_id').innerJoin('customer as c', 'c.id', 'g.customer_id').innerJoin('sku as s', 's.id', 'g.sku_id')
      .selectAll('g').select(['w.name as warehouse_name', 'c.name as customer_name', 's.sku_code', 's.description as sku_description']).as('r'));
  },

  /** Balance rows with when their stock arrived (aging); with `expiry`, only lots expiring by `by` (and from `from`). */
  places(db: Executor, scope: Scope, f: ReportFilter, expiry?: { by: string; from?: string }) {
    let q = named(db, scope, f);
    if (expiry) {
      q = q.where('b.expiry_date', 'is not', null).where('b.expiry_date', '<=', expiry.by);
      if (expiry.from) q = q.where('b.expiry_date', '>=', expiry.from);
    }
    return db.selectFrom(q.select(['b.id', 'b.warehouse_id', 'w.name as warehouse_name', 'b.customer_id', 'c.name as customer_name', 'b.sku_id', 's.sku_code',
      's.description as sku_description', 'b.location_id', 'l.code as location_code', 'b.lot', 'b.pallet', 'b.expiry_date', 'b.on_hand', 'b.allocated',
      sql<string | null>`coalesce(b.received_at, b.updated_at)`.as('received_at')]).as('r'));
  },

  /** Ledger rows after and up to `asOf` (each counted up to `cap`): which way "as of" is cheaper to compute. */
  async ledgerSplit(db: Executor, scope: Scope, f: ReportFilter, asOf: string, cap: number) {
    const side = (op: '>' | '<=') => {
      let q = db.selectFrom('inventory_txn').select(sql<number>`1`.as('one'))
        .where(scope.where({ warehouse: 'warehouse_id', customer: 'customer_id' }, f)).where('at', op, asOf);
      if (f.skuId) q = q.where('sku_id', '=', f.skuId);
      if (f.locationId) q = q.where('location_id', '=', f.locationId);
      return db.selectFrom(q.limit(cap).as('x')).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow().then((r) => Number(r.n));
    };
    const [after, upTo] = await Promise.all([side('>'), side('<=')]);
    return { after, upTo };
  },

  /**
   * Stock as it stood at `asOf`, from the ledger: either the ledger rows up to then ('forward'), or today's
   * balances less every ledger row since ('backward', cheap for recent dates; exact while the ledger sums to
   * the balances, which Reconcile proves).
   */
  asOf(db: Executor, scope: Scope, f: ReportFilter, asOf: string, direction: 'forward' | 'backward') {
    const keys = ['warehouse_id', 'customer_id', 'sku_id', 'location_id', 'lot', 'pallet'] as const;
    let now = db.selectFrom('inventory_balance').select([...keys, sql<number>`on_hand`.as('q')])
      .where(scope.where({ warehouse: 'warehouse_id', customer: 'customer_id' }, f));
    let ledger = db.selectFrom('inventory_txn')
      .select([...keys, (direction === 'backward' ? sql<number>`0 - qty_change` : sql<number>`qty_change`).as('q')])
      .where(scope.where({ warehouse: 'warehouse_id', customer: 'customer_id' }, f)).where('at', direction === 'backward' ? '>' : '<=', asOf);
    if (f.skuId) { now = now.where('sku_id', '=', f.skuId); ledger = ledger.where('sku_id', '=', f.skuId); }
    if (f.locationId) { now = now.where('location_id', '=', f.locationId); ledger = ledger.where('location_id', '=', f.locationId); }
    const rows = direction === 'backward' ? now.unionAll(ledger) : ledger;
    const grouped = db.selectFrom(rows.as('x'))
      .select(['x.warehouse_id', 'x.customer_id', 'x.sku_id', 'x.location_id', 'x.lot', 'x.pallet', sql<number>`sum(x.q)`.as('on_hand')])
      .groupBy(['x.warehouse_id', 'x.customer_id', 'x.sku_id', 'x.location_id', 'x.lot', 'x.pallet'])
      .having(sql<number>`sum(x.q)`, '<>', 0);
    const named = db.selectFrom(grouped.as('g'))
      .innerJoin('warehouse as w', 'w.id', 'g.warehouse_id')
      .innerJoin('customer as c', 'c.id', 'g.customer_id')
      .innerJoin('sku as s', 's.id', 'g.sku_id')
      .innerJoin('location as l', 'l.id', 'g.location_id')
      .select(['g.warehouse_id', 'w.name as warehouse_name', 'g.customer_id', 'c.name as customer_name', 'g.sku_id', 's.sku_code', 'g.location_id',
        'l.code as location_code', 'g.lot', 'g.pallet', 'g.on_hand',
        sql<string>`g.warehouse_id || '|' || g.customer_id || '|' || g.sku_id || '|' || g.location_id || '|' || g.lot || '|' || g.pallet`.as('row_key')]);
    return db.selectFrom(named.as('r'));
  },
};
