import { sql, type Insertable } from 'kysely';
import { OPEN_COUNT_STATUSES } from '@bolx/contracts';
import type { Executor } from '../../db/schema.js';
import { lockRows, type Dialect } from '../../db/dialect.js';
import type { CycleCountLineTable, CycleCountStatus, CycleCountTable } from '../../db/tables/inventory-operations.js';
import { listAll, listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

export interface CycleCountFilter { warehouseId?: number; customerId?: number; status?: CycleCountStatus }
export interface CountSelection {
  warehouseId: number; customerId: number; selection: 'location' | 'sku' | 'abc';
  locationFrom?: string; locationTo?: string; skuId?: number; abcClass?: string;
}

export const COUNT_LIST: ListSpec = {
  sortable: { countNo: 'cc.count_no', countDate: 'cc.count_date', status: 'cc.status', createdAt: 'cc.created_at', customerName: 'c.name' },
  defaultSort: { column: 'cc.created_at', direction: 'desc' },
  searchable: ['cc.count_no', 'cc.location_from', 'cc.location_to', 'cc.note'],
  tieBreaker: 'cc.id',
};

export const cycleCountRepository = {
  /** A page of the count list and its total. */
  list(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<CycleCountFilter>) {
    return listRows(dialect, cycleCountRepository.filtered(db, scope, req.filters ?? {}), cycleCountListColumns, req, COUNT_LIST);
  },

  /** Every count of the list, for a download. */
  listAll(db: Executor, dialect: Dialect, scope: Scope, req: Pick<ListRequest<CycleCountFilter>, 'filters' | 'searchQuery' | 'sort'>) {
    return listAll(dialect, cycleCountRepository.filtered(db, scope, req.filters ?? {}), cycleCountListColumns, req, COUNT_LIST);
  },

  /**
   * The client's stock the count covers, locked until commit (so no move slips between the snapshot and the
   * hold). Only the balance rows are locked: locations and SKUs are narrowed by subqueries.
   */
  snapshot(tx: Executor, dialect: Dialect, s: CountSelection, limit: number) {
    let q = tx.selectFrom('inventory_balance as b')
      .select(['b.id', 'b.warehouse_id', 'b.customer_id', 'b.sku_id', 'b.location_id', 'b.lot', 'b.pallet', 'b.expiry_date', 'b.on_hand'])
      .where('b.warehouse_id', '=', s.warehouseId).where('b.customer_id', '=', s.customerId).where('b.on_hand', '>', 0);
    if (s.selection === 'location') {
      q = q.where('b.location_id', 'in', (eb) => eb.selectFrom('location').select('id').where('warehouse_id', '=', s.warehouseId)
        .where(sql<boolean>`upper(code) >= ${s.locationFrom!.toUpperCase()} AND upper(code) <= ${s.locationTo!.toUpperCase()}`));
    } else if (s.selection === 'sku') {
      q = q.where('b.sku_id', '=', s.skuId!);
    } else {
      q = q.where('b.sku_id', 'in', (eb) => eb.selectFrom('sku').select('id').where('customer_id', '=', s.customerId).where('abc_class', '=', s.abcClass!));
    }
    return lockRows(dialect, q.orderBy('b.id').limit(limit)).execute();
  },

  /** Lines of other open counts of the client at these locations (a place may be in one open count only). */
  openLinesAt(tx: Executor, customerId: number, locationIds: number[]) {
    return tx.selectFrom('cycle_count_line as li').innerJoin('cycle_count as cc', 'cc.id', 'li.cycle_count_id')
      .select(['li.sku_id', 'li.location_id', 'li.lot', 'li.pallet', 'cc.count_no'])
      .where('li.customer_id', '=', customerId).where('li.location_id', 'in', locationIds)
      .where('cc.status', 'in', [...OPEN_COUNT_STATUSES]).execute();
  },

  /** A location's code (upper case, as a location selection compares it). */
  async locationCode(tx: Executor, locationId: number) {
    const row = await tx.selectFrom('location').select('code').where('id', '=', locationId).executeTakeFirstOrThrow();
    return row.code.toUpperCase();
  },

  async insertCount(tx: Executor, values: Insertable<CycleCountTable>) {
    const { id } = await tx.insertInto('cycle_count').values(values).returning('id').executeTakeFirstOrThrow();
    return id;
  },

  async insertLines(tx: Executor, lines: Insertable<CycleCountLineTable>[]) {
    for (let i = 0; i < lines.length; i += 200) await tx.insertInto('cycle_count_line').values(lines.slice(i, i + 200)).execute();
  },

  findById(db: Executor, id: number) {
    return db.selectFrom('cycle_count').selectAll().where('id', '=', id).executeTakeFirst();
  },

  lines(db: Executor, countId: number) {
    return db.selectFrom('cycle_count_line as li')
      .innerJoin('sku as s', 's.id', 'li.sku_id')
      .innerJoin('location as l', 'l.id', 'li.location_id')
      .selectAll('li').select(['s.sku_code', 's.description as sku_description', 'l.code as location_code'])
      .where('li.cycle_count_id', '=', countId).orderBy('l.code').orderBy('s.sku_code').orderBy('li.id').execute();
  },

  enterCount(tx: Executor, lineId: number, qty: number, userId: number, at: string) {
    return tx.updateTable('cycle_count_line').set({ counted_qty: qty, counted_by: userId, counted_at: at }).where('id', '=', lineId).execute();
  },

  enterRecount(tx: Executor, lineId: number, qty: number, userId: number, at: string) {
    return tx.updateTable('cycle_count_line').set({ recount_qty: qty, recounted_by: userId, recounted_at: at })
      .where('id', '=', lineId).where('needs_recount', '=', 1).execute();
  },

  /** Flags every counted line whose count differs from the expected quantity; answers how many. */
  async flagVariances(tx: Executor, countId: number) {
    const r = await tx.updateTable('cycle_count_line').set({ needs_recount: 1 })
      .where('cycle_count_id', '=', countId).where(sql<boolean>`counted_qty <> expected_qty`).executeTakeFirst();
    return Number(r.numUpdatedRows);
  },

  /** Lines still waiting: uncounted, or flagged for recount and not yet recounted. */
  async outstanding(tx: Executor, countId: number) {
    const r = await tx.selectFrom('cycle_count_line').select([
      sql<number>`sum(CASE WHEN counted_qty IS NULL THEN 1 ELSE 0 END)`.as('uncounted'),
      sql<number>`sum(CASE WHEN needs_recount = 1 AND recount_qty IS NULL THEN 1 ELSE 0 END)`.as('unrecounted'),
    ]).where('cycle_count_id', '=', countId).executeTakeFirstOrThrow();
    return { uncounted: Number(r.uncounted ?? 0), unrecounted: Number(r.unrecounted ?? 0) };
  },

  filtered(db: Executor, scope: Scope, f: CycleCountFilter) {
    let q = db.selectFrom('cycle_count as cc')
      .innerJoin('warehouse as w', 'w.id', 'cc.warehouse_id')
      .innerJoin('customer as c', 'c.id', 'cc.customer_id')
      .leftJoin('app_user as cu', 'cu.id', 'cc.created_by')
      .leftJoin('app_user as au', 'au.id', 'cc.approved_by')
      .where(scope.where({ warehouse: 'cc.warehouse_id', customer: 'cc.customer_id' }, f));
    if (f.status) q = q.where('cc.status', '=', f.status);
    return q;
  },

  /** The count's history: its own audit rows, oldest first (who, when, what, and the status and reason recorded). */
  history(db: Executor, id: number) {
    return db.selectFrom('audit_log').select(['at', 'action', 'username', 'after_json'])
      .where('entity', '=', 'cycle_count').where('entity_id', '=', String(id)).orderBy('id').execute();
  },
};

/** The columns of a count list row, with its line, counted and recount totals. */
export const cycleCountListColumns = (q: ReturnType<typeof cycleCountRepository.filtered>) => q.select([
  'cc.id', 'cc.count_no', 'cc.warehouse_id', 'w.name as warehouse_name', 'cc.customer_id', 'c.name as customer_name', 'cc.count_type',
  'cc.selection', 'cc.location_from', 'cc.location_to', 'cc.sku_id', 'cc.abc_class', 'cc.is_blind', 'cc.status', 'cc.count_date', 'cc.note',
  'cu.username as created_by_name', 'cc.created_at', 'au.username as approved_by_name', 'cc.approved_at', 'cc.document_id',
  sql<number>`(SELECT count(*) FROM cycle_count_line x WHERE x.cycle_count_id = cc.id)`.as('line_count'),
  sql<number>`(SELECT count(*) FROM cycle_count_line x WHERE x.cycle_count_id = cc.id AND x.counted_qty IS NOT NULL)`.as('counted_lines'),
  sql<number>`(SELECT count(*) FROM cycle_count_line x WHERE x.cycle_count_id = cc.id AND x.needs_recount = 1)`.as('recount_lines'),
]);
