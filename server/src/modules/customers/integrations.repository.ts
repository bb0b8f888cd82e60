import type { Updateable } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { CustomerIntegrationTable, IntegrationKind } from '../../db/tables/customers.js';

/** Carrier accounts and sales-channel integrations: one set of tables, told apart by `kind`. */
export const integrationRepository = {
  types(db: Executor, kind: IntegrationKind) {
    return db.selectFrom('integration_type').selectAll().where('kind', '=', kind).where('is_active', '=', 1).orderBy('sort').execute();
  },

  findType(db: Executor, kind: IntegrationKind, id: number) {
    return db.selectFrom('integration_type').selectAll().where('kind', '=', kind).where('id', '=', id).executeTakeFirst();
  },

  properties(db: Executor, typeId: number) {
    return db.selectFrom('integration_property').selectAll().where('integration_type_id', '=', typeId).orderBy('sort').execute();
  },

  /** A customer's integrations of a kind with their type's code and name. */
  ofCustomer(db: Executor, kind: IntegrationKind, customerId: number) {
    return db.selectFrom('customer_integration as ci').innerJoin('integration_type as t', 't.id', 'ci.integration_type_id')
      .selectAll('ci').select(['t.code as type_code', 't.name as type_name'])
      .where('ci.kind', '=', kind).where('ci.customer_id', '=', customerId).orderBy('t.sort').execute();
  },

  find(db: Executor, kind: IntegrationKind, id: number) {
    return db.selectFrom('customer_integration as ci').innerJoin('integration_type as t', 't.id', 'ci.integration_type_id')
      .selectAll('ci').select(['t.code as type_code', 't.name as type_name'])
      .where('ci.kind', '=', kind).where('ci.id', '=', id).executeTakeFirst();
  },

  findByType(db: Executor, kind: IntegrationKind, customerId: number, typeId: number) {
    return db.selectFrom('customer_integration').select('id').where('kind', '=', kind)
      .where('customer_id', '=', customerId).where('integration_type_id', '=', typeId).executeTakeFirst();
  },

  /** The stored values of these integrations with their property's definition: one statement for a whole list. */
  values(db: Executor, integrationIds: number[]) {
    if (integrationIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('customer_integration_value as v').innerJoin('integration_property as p', 'p.id', 'v.property_id')
      .select(['v.customer_integration_id', 'v.property_id', 'v.value', 'p.key', 'p.label', 'p.is_secret', 'p.sort'])
      .where('v.customer_integration_id', 'in', integrationIds).orderBy('p.sort').execute();
  },

  async insert(db: Executor, values: { customer_id: number; integration_type_id: number; kind: IntegrationKind; account_name: string; is_active: number; created_at: string; updated_at: string }) {
    return (await db.insertInto('customer_integration').values(values).returning('id').executeTakeFirstOrThrow()).id;
  },

  async update(db: Executor, id: number, values: Updateable<CustomerIntegrationTable>) {
    await db.updateTable('customer_integration').set(values).where('id', '=', id).execute();
  },

  /** Writes every property value of an integration (the caller has sealed the secret ones). */
  async putValues(db: Executor, integrationId: number, values: { propertyId: number; value: string }[]) {
    await db.deleteFrom('customer_integration_value').where('customer_integration_id', '=', integrationId).execute();
    if (values.length === 0) return;
    await db.insertInto('customer_integration_value')
      .values(values.map((v) => ({ customer_integration_id: integrationId, property_id: v.propertyId, value: v.value }))).execute();
  },

  async delete(db: Executor, id: number) {
    await db.deleteFrom('customer_integration_value').where('customer_integration_id', '=', id).execute();
    await db.deleteFrom('customer_integration').where('id', '=', id).execute();
  },
};
