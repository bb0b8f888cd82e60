import type { Insertable, SelectQueryBuilder, Updateable } from 'kysely';
import type { Permission, Role } from '@bolx/contracts';
import type { DB, Executor, UserTable } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { listAll, listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

export type UserFilter = { role?: Role; warehouseId?: number; isActive?: 'all' | 'active' | 'inactive' };

/** The columns of a user row the API shows; never the password hash. */
const USER_COLUMNS = [
  'u.id', 'u.username', 'u.email', 'u.first_name', 'u.last_name', 'u.phone', 'u.timezone', 'u.role', 'u.customer_id',
  'u.is_active', 'u.email_verified', 'u.created_at', 'u.updated_at',
] as const;

type UserQuery = SelectQueryBuilder<DB & { u: UserTable }, 'u', {}>;

/**
 * Holds a user query to the users who share a warehouse with the caller (and to the filter's warehouse). A
 * Client account's warehouses are its customer's, so it is matched through customer_warehouse. A caller who
 * sees every warehouse, with no warehouse filter, sees every user (also those without warehouses).
 */
function visibleTo(q: UserQuery, scope: Scope, warehouseId?: number): UserQuery {
  if (scope.warehouses === 'all' && !warehouseId) return q;
  const inScope = (column: string) => scope.where({ warehouse: column }, { warehouseId });
  return q.where((eb) => eb.or([
    eb.exists(eb.selectFrom('user_warehouse as uw').select('uw.user_id').whereRef('uw.user_id', '=', 'u.id').where(inScope('uw.warehouse_id'))),
    eb.and([
      eb('u.role', '=', 'Client'),
      eb.exists(eb.selectFrom('customer_warehouse as cw').select('cw.customer_id').whereRef('cw.customer_id', '=', 'u.customer_id')
        .where(inScope('cw.warehouse_id'))),
    ]),
  ]));
}

export const USER_LIST: ListSpec = {
  sortable: {
    username: 'u.username', email: 'u.email', firstName: 'u.first_name', lastName: 'u.last_name', usertype: 'u.role',
    isActive: 'u.is_active', createdAt: 'u.created_at',
  },
  defaultSort: { column: 'u.username', direction: 'asc' },
  searchable: ['u.username', 'u.email', 'u.first_name', 'u.last_name'],
  tieBreaker: 'u.id',
};

export const userRepository = {
  /** A page of the user list and its total. */
  list(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<UserFilter>) {
    return listRows(dialect, userRepository.filtered(db, scope, req.filters ?? {}), userRepository.selectUser, req, USER_LIST);
  },

  /** Every user of the list, for a download. */
  listAll(db: Executor, dialect: Dialect, scope: Scope, req: Pick<ListRequest<UserFilter>, 'filters' | 'searchQuery' | 'sort'>) {
    return listAll(dialect, userRepository.filtered(db, scope, req.filters ?? {}), userRepository.selectUser, req, USER_LIST);
  },

  /** The filtered, scoped list before paging; listRows adds search, order and paging. */
  filtered(db: Executor, scope: Scope, f: UserFilter): UserQuery {
    let q = visibleTo(db.selectFrom('app_user as u'), scope, f.warehouseId);
    if (f.role) q = q.where('u.role', '=', f.role);
    if (f.isActive === 'active') q = q.where('u.is_active', '=', 1);
    if (f.isActive === 'inactive') q = q.where('u.is_active', '=', 0);
    return q;
  },

  selectUser: (q: UserQuery) => q.select(USER_COLUMNS),

  findVisible(db: Executor, scope: Scope, id: number) {
    return visibleTo(db.selectFrom('app_user as u'), scope).select(USER_COLUMNS).where('u.id', '=', id).executeTakeFirst();
  },

  findById(db: Executor, id: number) {
    return db.selectFrom('app_user as u').select(USER_COLUMNS).where('u.id', '=', id).executeTakeFirst();
  },

  /** Warehouses of several users in one statement, held to the caller's scope (a Client's through its customer). */
  warehousesOf(db: Executor, userIds: number[], scope: Scope) {
    if (userIds.length === 0) return Promise.resolve([]);
    const inScope = scope.where({ warehouse: 'w.id' });
    return db.selectFrom('user_warehouse as uw').innerJoin('warehouse as w', 'w.id', 'uw.warehouse_id')
      .select(['uw.user_id as userId', 'w.id as warehouseId', 'w.name as warehouseName'])
      .where('uw.user_id', 'in', userIds).where(inScope)
      .unionAll(db.selectFrom('app_user as u').innerJoin('customer_warehouse as cw', 'cw.customer_id', 'u.customer_id')
        .innerJoin('warehouse as w', 'w.id', 'cw.warehouse_id')
        .select(['u.id as userId', 'w.id as warehouseId', 'w.name as warehouseName'])
        .where('u.role', '=', 'Client').where('u.id', 'in', userIds).where(inScope))
      .execute();
  },

  /** Customers of several users in one statement, held to the caller's scope (a Client's is its own). */
  customersOf(db: Executor, userIds: number[], scope: Scope) {
    if (userIds.length === 0) return Promise.resolve([]);
    const inScope = scope.where({ customer: 'c.id' });
    return db.selectFrom('user_customer as uc').innerJoin('customer as c', 'c.id', 'uc.customer_id')
      .select(['uc.user_id as userId', 'c.id as customerId', 'c.name as customerName'])
      .where('uc.user_id', 'in', userIds).where(inScope)
      .unionAll(db.selectFrom('app_user as u').innerJoin('customer as c', 'c.id', 'u.customer_id')
        .select(['u.id as userId', 'c.id as customerId', 'c.name as customerName'])
        .where('u.role', '=', 'Client').where('u.id', 'in', userIds).where(inScope))
      .execute();
  },

  /** The warehouse and customer ids stored for a user (not a Client's derived ones), whatever the caller sees. */
  async storedAssignments(db: Executor, userId: number) {
    const [warehouses, customers] = await Promise.all([
      db.selectFrom('user_warehouse').select('warehouse_id').where('user_id', '=', userId).execute(),
      db.selectFrom('user_customer').select('customer_id').where('user_id', '=', userId).execute(),
    ]);
    return { warehouseIds: warehouses.map((r) => r.warehouse_id), customerIds: customers.map((r) => r.customer_id) };
  },

  moduleGrantsOf(db: Executor, userId: number) {
    return db.selectFrom('user_module as um').innerJoin('module as m', 'm.id', 'um.module_id')
      .select(['m.id as moduleId', 'm.key as moduleKey', 'm.name as moduleName', 'm.app_id as appId', 'um.permission'])
      .where('um.user_id', '=', userId).orderBy('m.sort').execute();
  },

  /** The whole app/module catalogue, apps first, in menu order. */
  modulesWithApps(db: Executor) {
    return db.selectFrom('module as m').innerJoin('app as a', 'a.id', 'm.app_id')
      .select(['m.id', 'm.key', 'm.name', 'm.url', 'm.parent_id', 'a.id as appId', 'a.key as appKey', 'a.name as appName'])
      .orderBy('a.sort').orderBy('m.sort').execute();
  },

  /** Users other than `exceptId` holding this username or e-mail (both are stored lowercase). */
  conflicts(db: Executor, username: string, email: string, exceptId?: number) {
    let q = db.selectFrom('app_user').select(['id', 'username', 'email'])
      .where((eb) => eb.or([eb('username', '=', username), eb('email', '=', email)]));
    if (exceptId) q = q.where('id', '<>', exceptId);
    return q.execute();
  },

  existingWarehouseIds(db: Executor, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return db.selectFrom('warehouse').select('id').where('id', 'in', ids).execute().then((r) => r.map((x) => x.id));
  },

  /** Which of these customers exist, with the warehouses that serve them. */
  customerWarehouses(db: Executor, customerIds: number[]) {
    if (customerIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('customer as c').leftJoin('customer_warehouse as cw', 'cw.customer_id', 'c.id')
      .select(['c.id as customerId', 'cw.warehouse_id as warehouseId']).where('c.id', 'in', customerIds).execute();
  },

  warehousesInScope(db: Executor, scope: Scope) {
    return db.selectFrom('warehouse as w').select(['w.id', 'w.name', 'w.code'])
      .where('w.is_active', '=', 1).where(scope.where({ warehouse: 'w.id' })).orderBy('w.name').execute();
  },

  warehouseExists(db: Executor, id: number) {
    return db.selectFrom('warehouse').select('id').where('id', '=', id).executeTakeFirst().then(Boolean);
  },

  customersByWarehouse(db: Executor, scope: Scope, warehouseId: number) {
    return db.selectFrom('customer_warehouse as cw').innerJoin('customer as c', 'c.id', 'cw.customer_id')
      .select(['c.id', 'c.name', 'cw.warehouse_id'])
      .where('cw.warehouse_id', '=', warehouseId).where('c.is_active', '=', 1)
      .where(scope.where({ warehouse: 'cw.warehouse_id', customer: 'c.id' }))
      .orderBy('c.name').execute();
  },

  async insert(db: Executor, values: Insertable<UserTable>) {
    return (await db.insertInto('app_user').values(values).returning('id').executeTakeFirstOrThrow()).id;
  },

  async update(db: Executor, id: number, values: Updateable<UserTable>) {
    await db.updateTable('app_user').set(values).where('id', '=', id).execute();
  },

  async replaceWarehouses(db: Executor, userId: number, warehouseIds: number[]) {
    await db.deleteFrom('user_warehouse').where('user_id', '=', userId).execute();
    if (warehouseIds.length) await db.insertInto('user_warehouse').values(warehouseIds.map((w) => ({ user_id: userId, warehouse_id: w }))).execute();
  },

  async replaceCustomers(db: Executor, userId: number, customerIds: number[]) {
    await db.deleteFrom('user_customer').where('user_id', '=', userId).execute();
    if (customerIds.length) await db.insertInto('user_customer').values(customerIds.map((c) => ({ user_id: userId, customer_id: c }))).execute();
  },

  async replaceModules(db: Executor, userId: number, grants: ReadonlyMap<number, Permission>) {
    await db.deleteFrom('user_module').where('user_id', '=', userId).execute();
    if (grants.size) {
      await db.insertInto('user_module').values([...grants].map(([moduleId, permission]) => ({ user_id: userId, module_id: moduleId, permission }))).execute();
    }
  },

  /**
   * Ends every live session of a user being administered (disabled, or given another role or customer).
   * The access check loads the session on every request, so the user's tokens are refused at once.
   */
  async revokeSessions(db: Executor, userId: number, reason: string) {
    await db.updateTable('auth_session').set({ revoked_at: new Date().toISOString(), revoked_reason: reason })
      .where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  },
};

export type UserRecord = NonNullable<Awaited<ReturnType<typeof userRepository.findById>>>;
