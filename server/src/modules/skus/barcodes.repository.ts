import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { SkuBarcodeTable } from '../../db/tables/catalog.js';
import type { Scope } from '../../platform/scope.js';

export const barcodeRepository = {
  scoped(db: Executor, scope: Scope) {
    return db.selectFrom('sku_barcode as b').selectAll('b').where(scope.where({ customer: 'b.customer_id' }));
  },

  ofSku(db: Executor, scope: Scope, skuId: number) {
    return barcodeRepository.scoped(db, scope).where('b.sku_id', '=', skuId).orderBy('b.id').execute();
  },

  findById(db: Executor, scope: Scope, id: number) {
    return barcodeRepository.scoped(db, scope).where('b.id', '=', id).executeTakeFirst();
  },

  async insert(db: Executor, values: Insertable<SkuBarcodeTable>) {
    return (await db.insertInto('sku_barcode').values(values).returning('id').executeTakeFirstOrThrow()).id;
  },

  async update(db: Executor, id: number, values: Updateable<SkuBarcodeTable>) {
    await db.updateTable('sku_barcode').set(values).where('id', '=', id).execute();
  },

  async delete(db: Executor, id: number) {
    await db.deleteFrom('sku_barcode').where('id', '=', id).execute();
  },
};

export type BarcodeRow = NonNullable<Awaited<ReturnType<typeof barcodeRepository.findById>>>;
