import { sql, type Insertable, type Updateable } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { KitComponentTable } from '../../db/tables/catalog.js';
import type { Scope } from '../../platform/scope.js';

export const kitRepository = {
  /** Kit components the caller may see, with the component SKU's code and description. */
  scoped(db: Executor, scope: Scope) {
    return db.selectFrom('kit_component as k')
      .innerJoin('sku as s', 's.id', 'k.component_sku_id')
      .selectAll('k').select(['s.sku_code', 's.description', 's.is_kit'])
      .where(scope.where({ customer: 'k.customer_id' }));
  },

  componentsOf(db: Executor, scope: Scope, kitSkuId: number) {
    return kitRepository.scoped(db, scope).where('k.kit_sku_id', '=', kitSkuId).orderBy('s.sku_code').orderBy('k.id').execute();
  },

  findById(db: Executor, scope: Scope, id: number) {
    return kitRepository.scoped(db, scope).where('k.id', '=', id).executeTakeFirst();
  },

  findPair(db: Executor, kitSkuId: number, componentSkuId: number) {
    return db.selectFrom('kit_component').select('id').where('kit_sku_id', '=', kitSkuId).where('component_sku_id', '=', componentSkuId).executeTakeFirst();
  },

  async componentCount(db: Executor, kitSkuId: number) {
    const row = await db.selectFrom('kit_component').select((eb) => eb.fn.countAll<number>().as('n')).where('kit_sku_id', '=', kitSkuId).executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /**
   * Whether `targetSkuId` is reachable from `fromSkuId` through the component graph (from itself included):
   * one recursive statement; UNION (not UNION ALL) stops on any cycle already stored.
   */
  async reaches(db: Executor, fromSkuId: number, targetSkuId: number): Promise<boolean> {
    const { rows } = await sql<{ hit: number }>`
      WITH RECURSIVE reach(sku_id) AS (
        SELECT CAST(${fromSkuId} AS integer)
        UNION
        SELECT k.component_sku_id FROM kit_component k JOIN reach r ON k.kit_sku_id = r.sku_id
      )
      SELECT 1 AS hit FROM reach WHERE sku_id = ${targetSkuId} LIMIT 1`.execute(db);
    return rows.length > 0;
  },

  async insert(db: Executor, values: Insertable<KitComponentTable>) {
    return (await db.insertInto('kit_component').values(values).returning('id').executeTakeFirstOrThrow()).id;
  },

  async update(db: Executor, id: number, values: Updateable<KitComponentTable>) {
    await db.updateTable('kit_component').set(values).where('id', '=', id).execute();
  },

  async delete(db: Executor, id: number) {
    await db.deleteFrom('kit_component').where('id', '=', id).execute();
  },
};

export type KitComponentRow = NonNullable<Awaited<ReturnType<typeof kitRepository.findById>>>;
