import type { Insertable, Updateable } from 'kysely';
import type { Executor, WarehouseTable } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { listAll, listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

export type WarehouseFilter = { isActive?: 'all' | 'active' | 'inactive'; country?: string };

export const WAREHOUSE_LIST: ListSpec = {
  sortable: { warehouseName: 'w.name', warehouseCode: 'w.code', city: 'w.city', capacity: 'w.capacity', createdAt: 'w.created_at' },
  defaultSort: { column: 'w.name', direction: 'asc' },
  searchable: ['w.name', 'w.code', 'w.city', 'w.state'],
  tieBreaker: 'w.id',
};

export const warehouseRepository = {
  /** A page of the warehouse list and its total. */
  list(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<WarehouseFilter>) {
    return listRows(dialect, warehouseRepository.filtered(db, scope, req.filters ?? {}), (q) => q.selectAll('w'), req, WAREHOUSE_LIST);
  },

  /** Every warehouse of the list, for a download. */
  listAll(db: Executor, dialect: Dialect, scope: Scope, req: Pick<ListRequest<WarehouseFilter>, 'filters' | 'searchQuery' | 'sort'>) {
    return listAll(dialect, warehouseRepository.filtered(db, scope, req.filters ?? {}), (q) => q.selectAll('w'), req, WAREHOUSE_LIST);
  },

  /** The filtered, scoped list before paging; listRows adds search, order and paging. */
  filtered(db: Executor, scope: Scope, f: WarehouseFilter) {
    let q = db.selectFrom('warehouse as w').where(scope.where({ warehouse: 'w.id' }));
    if (f.isActive === 'active') q = q.where('w.is_active', '=', 1);
    if (f.isActive === 'inactive') q = q.where('w.is_active', '=', 0);
    if (f.country) q = q.where('w.country', '=', f.country);
    return q;
  },

  findById(db: Executor, id: number) {
    return db.selectFrom('warehouse').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async insert(db: Executor, values: Insertable<WarehouseTable>) {
    return (await db.insertInto('warehouse').values(values).returning('id').executeTakeFirstOrThrow()).id;
  },

  async update(db: Executor, id: number, values: Updateable<WarehouseTable>) {
    await db.updateTable('warehouse').set(values).where('id', '=', id).execute();
  },

  async assignUser(db: Executor, userId: number, warehouseId: number) {
    await db.insertInto('user_warehouse').values({ user_id: userId, warehouse_id: warehouseId }).onConflict((oc) => oc.doNothing()).execute();
  },

  countries(db: Executor, scope: Scope) {
    return db.selectFrom('warehouse as w').select('w.country').distinct().where('w.country', 'is not', null)
      .where(scope.where({ warehouse: 'w.id' })).orderBy('w.country').execute();
  },
};
