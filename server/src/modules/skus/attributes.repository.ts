import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { SkuAttributeTable } from '../../db/tables/catalog.js';
import type { Scope } from '../../platform/scope.js';

export const attributeRepository = {
  scoped(db: Executor, scope: Scope) {
    return db.selectFrom('sku_attribute as a').selectAll('a').where(scope.where({ customer: 'a.customer_id' }));
  },

  ofSku(db: Executor, scope: Scope, skuId: number) {
    return attributeRepository.scoped(db, scope).where('a.sku_id', '=', skuId).orderBy('a.name').orderBy('a.id').execute();
  },

  findById(db: Executor, scope: Scope, id: number) {
    return attributeRepository.scoped(db, scope).where('a.id', '=', id).executeTakeFirst();
  },

  nameTaken(db: Executor, skuId: number, name: string, exceptId?: number) {
    let q = db.selectFrom('sku_attribute').select('id').where('sku_id', '=', skuId).where('name', '=', name);
    if (exceptId) q = q.where('id', '<>', exceptId);
    return q.executeTakeFirst().then((r) => !!r);
  },

  async insert(db: Executor, values: Insertable<SkuAttributeTable>) {
    return (await db.insertInto('sku_attribute').values(values).returning('id').executeTakeFirstOrThrow()).id;
  },

  async update(db: Executor, id: number, values: Updateable<SkuAttributeTable>) {
    await db.updateTable('sku_attribute').set(values).where('id', '=', id).execute();
  },

  async delete(db: Executor, id: number) {
    await db.deleteFrom('sku_attribute').where('id', '=', id).execute();
  },
};

export type AttributeRow = NonNullable<Awaited<ReturnType<typeof attributeRepository.findById>>>;
