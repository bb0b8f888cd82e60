import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { CustomerTable } from '../../db/tables/customers.js';
import type { Dialect } from '../../db/dialect.js';
import { listAll, listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

export type CustomerFilter = { isActive?: 'all' | 'active' | 'inactive'; warehouseId?: number; country?: string };

export const CUSTOMER_LIST: ListSpec = {
  sortable: { customerName: 'c.name', customerCode: 'c.code', city: 'c.city', country: 'c.country', createdAt: 'c.created_at' },
  defaultSort: { column: 'c.name', direction: 'asc' },
  searchable: ['c.name', 'c.code', 'c.email', 'c.city', 'c.contact_person'],
  tieBreaker: 'c.id',
};

export const customerRepository = {
  /** A page of the client list and its total. */
  list(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<CustomerFilter>) {
    return listRows(dialect, customerRepository.filtered(db, scope, req.filters ?? {}), (q) => q.selectAll('c'), req, CUSTOMER_LIST);
  },

  /** Every client of the list, for a download. */
  listAll(db: Executor, dialect: Dialect, scope: Scope, req: Pick<ListRequest<CustomerFilter>, 'filters' | 'searchQuery' | 'sort'>) {
    return listAll(dialect, customerRepository.filtered(db, scope, req.filters ?? {}), (q) => q.selectAll('c'), req, CUSTOMER_LIST);
  },

  /** The filtered, scoped list before paging; listRows adds search, order and paging. */
  filtered(db: Executor, scope: Scope, f: CustomerFilter) {
    let q = db.selectFrom('customer as c').where(scope.where({ customer: 'c.id' }));
    if (f.isActive === 'active') q = q.where('c.is_active', '=', 1);
    if (f.isActive === 'inactive') q = q.where('c.is_active', '=', 0);
    if (f.country) q = q.where('c.country', '=', f.country);
    if (f.warehouseId) {
      const warehouseId = f.warehouseId;
      q = q.where(({ exists, selectFrom }) => exists(selectFrom('customer_warehouse as fw').select('fw.customer_id')
        .whereRef('fw.customer_id', '=', 'c.id').where('fw.warehouse_id', '=', warehouseId)));
    }
    return q;
  },

  findById(db: Executor, id: number) {
    return db.selectFrom('customer').selectAll().where('id', '=', id).executeTakeFirst();
  },

  findByCode(db: Executor, code: string) {
    return db.selectFrom('customer').select('id').where('code', '=', code).executeTakeFirst();
  },

  /** The warehouses serving these customers, held to the caller's warehouses: one statement for a whole page. */
  warehousesOf(db: Executor, scope: Scope, customerIds: number[]) {
    if (customerIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('customer_warehouse as cw').innerJoin('warehouse as w', 'w.id', 'cw.warehouse_id')
      .select(['cw.customer_id', 'cw.warehouse_id', 'w.code', 'w.name'])
      .where('cw.customer_id', 'in', customerIds).where(scope.where({ warehouse: 'cw.warehouse_id' }))
      .orderBy('w.name').orderBy('w.id').execute();
  },

  /** Every warehouse id serving a customer, in scope or not (an update keeps the ones the caller cannot see). */
  async allWarehouseIds(db: Executor, customerId: number): Promise<number[]> {
    const rows = await db.selectFrom('customer_warehouse').select('warehouse_id').where('customer_id', '=', customerId).execute();
    return rows.map((r) => r.warehouse_id);
  },

  async existingWarehouseIds(db: Executor, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    return (await db.selectFrom('warehouse').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
  },

  async insert(db: Executor, values: Insertable<CustomerTable>) {
    return (await db.insertInto('customer').values(values).returning('id').executeTakeFirstOrThrow()).id;
  },

  async update(db: Executor, id: number, values: Updateable<CustomerTable>) {
    await db.updateTable('customer').set(values).where('id', '=', id).execute();
  },

  async addWarehouses(db: Executor, customerId: number, warehouseIds: number[]) {
    if (warehouseIds.length === 0) return;
    await db.insertInto('customer_warehouse').values(warehouseIds.map((w) => ({ customer_id: customerId, warehouse_id: w })))
      .onConflict((oc) => oc.doNothing()).execute();
  },

  async removeWarehouses(db: Executor, customerId: number, warehouseIds: number[]) {
    if (warehouseIds.length === 0) return;
    await db.deleteFrom('customer_warehouse').where('customer_id', '=', customerId).where('warehouse_id', 'in', warehouseIds).execute();
  },

  /** Keeps a customer in its creator's scope (Super Administrators see every customer already). */
  async assignUser(db: Executor, userId: number, customerId: number) {
    await db.insertInto('user_customer').values({ user_id: userId, customer_id: customerId }).onConflict((oc) => oc.doNothing()).execute();
  },

  countries(db: Executor, scope: Scope) {
    return db.selectFrom('customer as c').select('c.country').distinct().where('c.country', 'is not', null)
      .where(scope.where({ customer: 'c.id' })).orderBy('c.country').execute();
  },

  warehousesInScope(db: Executor, scope: Scope) {
    return db.selectFrom('warehouse as w').select(['w.id', 'w.name']).where(scope.where({ warehouse: 'w.id' }))
      .where('w.is_active', '=', 1).orderBy('w.name').execute();
  },
};
