import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

const RULE_LIST: ListSpec = {
  sortable: { name: 'r.name', lastRunAt: 'r.last_run_at', updatedAt: 'r.updated_at' },
  defaultSort: { column: 'r.name', direction: 'asc' },
  searchable: ['r.name'],
  tieBreaker: 'r.id',
};

function rulesQuery(db: Executor, scope: Scope, f: { warehouseId?: number }) {
  return db.selectFrom('batch_rule as r').where(scope.where({ warehouse: 'r.warehouse_id' }, { warehouseId: f.warehouseId }));
}

function ruleColumns(q: ReturnType<typeof rulesQuery>) {
  return q.selectAll('r').select(sql<string | null>`(select username from app_user u where u.id = r.created_by)`.as('created_by_name'));
}
export type RuleRow = Awaited<ReturnType<ReturnType<typeof ruleColumns>['executeTakeFirstOrThrow']>>;

/** Saved batch-allocation rules: one warehouse's each, unique by name there. */
export const batchRulesRepository = {
  list(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<{ warehouseId?: number }>) {
    return listRows(dialect, rulesQuery(db, scope, req.filters ?? {}), ruleColumns, req, RULE_LIST);
  },

  find(db: Executor, scope: Scope, id: number) {
    return ruleColumns(rulesQuery(db, scope, {}).where('r.id', '=', id)).executeTakeFirst();
  },

  byName(db: Executor, warehouseId: number, name: string) {
    return db.selectFrom('batch_rule').select(['id']).where('warehouse_id', '=', warehouseId).where(sql`lower(name)`, '=', name.toLowerCase()).executeTakeFirst();
  },

  insert(tx: Executor, row: { warehouse_id: number; name: string; criteria: string; created_by: number | null; at: string }) {
    return tx.insertInto('batch_rule').values({ warehouse_id: row.warehouse_id, name: row.name, criteria: row.criteria, created_by: row.created_by, created_at: row.at, updated_at: row.at })
      .returning('id').executeTakeFirstOrThrow().then((r) => Number(r.id));
  },

  update(tx: Executor, id: number, row: { warehouse_id: number; name: string; criteria: string; at: string }) {
    return tx.updateTable('batch_rule').set({ warehouse_id: row.warehouse_id, name: row.name, criteria: row.criteria, updated_at: row.at }).where('id', '=', id).execute();
  },

  async remove(tx: Executor, id: number) {
    // Waves keep their own record of what they released; the rule that chose them may go.
    await tx.updateTable('wave').set({ rule_id: null }).where('rule_id', '=', id).execute();
    await tx.deleteFrom('batch_rule').where('id', '=', id).execute();
  },

  ran(tx: Executor, id: number, at: string) {
    return tx.updateTable('batch_rule').set({ last_run_at: at }).where('id', '=', id).execute();
  },
};
