import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { SkuPackageTable } from '../../db/tables/catalog.js';
import type { Scope } from '../../platform/scope.js';

export const packageRepository = {
  /** Packages the caller may see, with their SKU's code. */
  scoped(db: Executor, scope: Scope, customerId?: number) {
    return db.selectFrom('sku_package as p')
      .innerJoin('sku as s', 's.id', 'p.sku_id')
      .selectAll('p').select('s.sku_code')
      .where(scope.where({ customer: 'p.customer_id' }, { customerId }));
  },

  ofSku(db: Executor, scope: Scope, skuId: number) {
    return packageRepository.scoped(db, scope).where('p.sku_id', '=', skuId).orderBy('p.id').execute();
  },

  /** Every package in scope (of one SKU or one customer when given), in a stable order for the tree. */
  forTree(db: Executor, scope: Scope, f: { skuId?: number; customerId?: number }) {
    let q = packageRepository.scoped(db, scope, f.customerId);
    if (f.skuId) q = q.where('p.sku_id', '=', f.skuId);
    return q.orderBy('p.sku_id').orderBy('p.id').execute();
  },

  findById(db: Executor, scope: Scope, id: number) {
    return packageRepository.scoped(db, scope).where('p.id', '=', id).executeTakeFirst();
  },

  /** Parent links of a SKU's packages, for the cycle check. */
  parentLinks(db: Executor, skuId: number) {
    return db.selectFrom('sku_package').select(['id', 'parent_id']).where('sku_id', '=', skuId).execute();
  },

  hasChildren(db: Executor, id: number) {
    return db.selectFrom('sku_package').select('id').where('parent_id', '=', id).limit(1).executeTakeFirst().then((r) => !!r);
  },

  async insert(db: Executor, values: Insertable<SkuPackageTable>) {
    return (await db.insertInto('sku_package').values(values).returning('id').executeTakeFirstOrThrow()).id;
  },

  async update(db: Executor, id: number, values: Updateable<SkuPackageTable>) {
    await db.updateTable('sku_package').set(values).where('id', '=', id).execute();
  },

  async delete(db: Executor, id: number) {
    await db.deleteFrom('sku_package').where('id', '=', id).execute();
  },
};

export type PackageRow = NonNullable<Awaited<ReturnType<typeof packageRepository.findById>>>;
