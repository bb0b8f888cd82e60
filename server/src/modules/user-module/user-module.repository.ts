import type { Executor } from '../../db/schema.js';
import type { Scope } from '../../platform/scope.js';
import { positionCounts } from '../locations/position-counts.js';

export const userModuleRepository = {
  allModules(db: Executor, appId: number) {
    return db.selectFrom('module').select(['id', 'parent_id', 'key', 'name', 'url', 'sort']).where('app_id', '=', appId).orderBy('sort').execute();
  },

  userModulePermissions(db: Executor, userId: number) {
    return db.selectFrom('user_module').select(['module_id', 'permission']).where('user_id', '=', userId).execute();
  },

  apps(db: Executor) {
    return db.selectFrom('app').selectAll().orderBy('sort').execute();
  },

  /** Ids of the apps in which the user holds at least one module. */
  userAppIds(db: Executor, userId: number) {
    return db.selectFrom('user_module as um').innerJoin('module as m', 'm.id', 'um.module_id')
      .select('m.app_id').distinct().where('um.user_id', '=', userId).execute().then((r) => r.map((x) => x.app_id));
  },

  defaultAppId(db: Executor, userId: number) {
    return db.selectFrom('app_user').select('default_app_id').where('id', '=', userId).executeTakeFirst().then((r) => r?.default_app_id ?? null);
  },

  async setDefaultApp(db: Executor, userId: number, appId: number) {
    await db.updateTable('app_user').set({ default_app_id: appId, updated_at: new Date().toISOString() }).where('id', '=', userId).execute();
  },

  /** Warehouses in scope with their storage positions and those holding the scope's stock (occupancy's one rule: positionCounts). */
  warehousesWithOccupancy(db: Executor, scope: Scope) {
    return db.selectFrom('warehouse as w')
      .select(['w.id', 'w.code', 'w.name', 'w.city', 'w.timezone', 'w.capacity'])
      .select((eb) => {
        const counts = positionCounts(db, eb.ref('w.id'), { scope });
        return [counts.total.as('total'), counts.used.as('used')];
      })
      .where('w.is_active', '=', 1)
      .where(scope.where({ warehouse: 'w.id' }))
      .orderBy('w.name')
      .execute();
  },

  customersByWarehouse(db: Executor, scope: Scope) {
    return db.selectFrom('customer_warehouse as cw').innerJoin('customer as c', 'c.id', 'cw.customer_id')
      .select(['c.id', 'c.name', 'cw.warehouse_id'])
      .where('c.is_active', '=', 1)
      .where(scope.where({ warehouse: 'cw.warehouse_id', customer: 'c.id' }))
      .orderBy('c.name')
      .execute();
  },

  countriesAndStates(db: Executor) {
    return db.selectFrom('country as c').leftJoin('state as s', 's.country_id', 'c.id')
      .select(['c.id as countryId', 'c.code as countryCode', 'c.name as countryName', 's.id as stateId', 's.code as stateCode', 's.name as stateName'])
      .orderBy('c.name').orderBy('s.name').execute();
  },
};
