import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { ReplenishmentTaskStatus, ReplenishmentTaskTable } from '../../db/tables/inventory-operations.js';
import type { Dialect } from '../../db/dialect.js';
import { listAll, listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

export interface RuleFilter { warehouseId?: number; customerId?: number; skuId?: number; belowMin?: boolean }
export interface TaskFilter { warehouseId?: number; customerId?: number; status?: ReplenishmentTaskStatus }

/** What sits at a rule's pick location (every lot and pallet), from the balances. */
const onHandAt = sql<number>`(SELECT coalesce(sum(b.on_hand), 0) FROM inventory_balance b
  WHERE b.warehouse_id = r.warehouse_id AND b.sku_id = r.sku_id AND b.location_id = r.location_id AND b.customer_id = r.customer_id)`;

export const RULE_LIST: ListSpec = {
  sortable: { skuCode: 's.sku_code', locationCode: 'l.code', minQty: 'r.min_qty', maxQty: 'r.max_qty', customerName: 'c.name' },
  defaultSort: { column: 'l.code', direction: 'asc' },
  searchable: ['s.sku_code', 'l.code'],
  tieBreaker: 'r.id',
};
export const TASK_LIST: ListSpec = {
  sortable: { createdAt: 't.created_at', skuCode: 's.sku_code', fromLocationCode: 'fl.code', toLocationCode: 'tl.code', status: 't.status' },
  defaultSort: { column: 't.created_at', direction: 'desc' },
  searchable: ['s.sku_code', 'fl.code', 'tl.code', 't.lot', 't.pallet'],
  tieBreaker: 't.id',
};

export const replenishmentRepository = {
  /** A page of the min/max rules and its total. */
  listRules(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<RuleFilter>) {
    return listRows(dialect, replenishmentRepository.rules(db, scope, req.filters ?? {}), ruleListColumns, req, RULE_LIST);
  },

  /** A page of the replenishment tasks and its total. */
  listTasks(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<TaskFilter>) {
    return listRows(dialect, replenishmentRepository.tasks(db, scope, req.filters ?? {}), taskListColumns, req, TASK_LIST);
  },

  /** Every task of the list, for a download. */
  listAllTasks(db: Executor, dialect: Dialect, scope: Scope, req: Pick<ListRequest<TaskFilter>, 'filters' | 'searchQuery' | 'sort'>) {
    return listAll(dialect, replenishmentRepository.tasks(db, scope, req.filters ?? {}), taskListColumns, req, TASK_LIST);
  },

  location(db: Executor, id: number) {
    return db.selectFrom('location').select(['id', 'warehouse_id', 'is_active', 'is_pickable']).where('id', '=', id).executeTakeFirst();
  },

  upsertRule(tx: Executor, v: { warehouseId: number; customerId: number; skuId: number; locationId: number; minQty: number; maxQty: number; isActive: boolean }) {
    const now = new Date().toISOString();
    return tx.insertInto('replenishment_rule').values({
      warehouse_id: v.warehouseId, customer_id: v.customerId, sku_id: v.skuId, location_id: v.locationId, min_qty: v.minQty, max_qty: v.maxQty,
      is_active: v.isActive ? 1 : 0, created_at: now, updated_at: now,
    }).onConflict((oc) => oc.columns(['warehouse_id', 'sku_id', 'location_id']).doUpdateSet({
      min_qty: v.minQty, max_qty: v.maxQty, is_active: v.isActive ? 1 : 0, updated_at: now,
    })).returning('id').executeTakeFirstOrThrow().then((r) => r.id);
  },

  rules(db: Executor, scope: Scope, f: RuleFilter) {
    let q = db.selectFrom('replenishment_rule as r')
      .innerJoin('warehouse as w', 'w.id', 'r.warehouse_id')
      .innerJoin('customer as c', 'c.id', 'r.customer_id')
      .innerJoin('sku as s', 's.id', 'r.sku_id')
      .innerJoin('location as l', 'l.id', 'r.location_id')
      .where(scope.where({ warehouse: 'r.warehouse_id', customer: 'r.customer_id' }, f));
    if (f.skuId) q = q.where('r.sku_id', '=', f.skuId);
    if (f.belowMin) q = q.where('r.is_active', '=', 1).where(sql<boolean>`${onHandAt} < r.min_qty`);
    return q;
  },
  onHandAt,

  /** Active rules below min with no open task: what a generation run replenishes. */
  dueRules(db: Executor, scope: Scope, f: { warehouseId: number; customerId?: number }) {
    return replenishmentRepository.rules(db, scope, { ...f, belowMin: true })
      .where((eb) => eb.not(eb.exists(eb.selectFrom('replenishment_task as t').select('t.id').whereRef('t.rule_id', '=', 'r.id').where('t.status', '=', 'Open'))))
      .select(['r.id', 'r.warehouse_id', 'r.customer_id', 'r.sku_id', 'r.location_id', 'r.min_qty', 'r.max_qty', 's.sku_code', 'l.code as location_code', onHandAt.as('on_hand')])
      .orderBy('r.id').limit(1000).execute();
  },

  insertTask(tx: Executor, values: Insertable<ReplenishmentTaskTable>) {
    return tx.insertInto('replenishment_task').values(values).returning('id').executeTakeFirstOrThrow().then((r) => r.id);
  },

  findTask(db: Executor, id: number) {
    return db.selectFrom('replenishment_task').selectAll().where('id', '=', id).executeTakeFirst();
  },



  tasks(db: Executor, scope: Scope, f: TaskFilter) {
    let q = db.selectFrom('replenishment_task as t')
      .innerJoin('customer as c', 'c.id', 't.customer_id')
      .innerJoin('sku as s', 's.id', 't.sku_id')
      .innerJoin('location as fl', 'fl.id', 't.from_location_id')
      .innerJoin('location as tl', 'tl.id', 't.to_location_id')
      .leftJoin('app_user as u', 'u.id', 't.completed_by')
      .where(scope.where({ warehouse: 't.warehouse_id', customer: 't.customer_id' }, f));
    if (f.status) q = q.where('t.status', '=', f.status);
    return q;
  },
};

/** The columns of a rule list row, with the pick face's on hand. */
export const ruleListColumns = (q: ReturnType<typeof replenishmentRepository.rules>) => q.select([
  'r.id', 'r.warehouse_id', 'w.name as warehouse_name', 'r.customer_id', 'c.name as customer_name', 'r.sku_id', 's.sku_code', 's.description as sku_description',
  'r.location_id', 'l.code as location_code', 'r.min_qty', 'r.max_qty', 'r.is_active', replenishmentRepository.onHandAt.as('on_hand'),
]);

/** The columns of a task list row. */
export const taskListColumns = (q: ReturnType<typeof replenishmentRepository.tasks>) => q.select([
  't.id', 't.rule_id', 't.warehouse_id', 't.customer_id', 'c.name as customer_name', 't.sku_id', 's.sku_code', 't.from_location_id',
  'fl.code as from_code', 't.to_location_id', 'tl.code as to_code', 't.lot', 't.pallet', 't.quantity', 't.moved_qty', 't.status',
  't.created_at', 'u.username as completed_by_name', 't.completed_at', 't.document_id',
]);
