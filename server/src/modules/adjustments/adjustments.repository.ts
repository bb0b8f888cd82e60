import type { Insertable } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { AdjustmentRequestTable, AdjustmentStatus } from '../../db/tables/inventory-operations.js';
import type { Scope } from '../../platform/scope.js';

export interface AdjustmentFilter { warehouseId?: number; customerId?: number; status?: AdjustmentStatus }

export const adjustmentRepository = {
  threshold(db: Executor, customerId: number) {
    return db.selectFrom('customer').select('adjustment_approval_threshold').where('id', '=', customerId).executeTakeFirst()
      .then((r) => (r?.adjustment_approval_threshold == null ? null : Number(r.adjustment_approval_threshold)));
  },

  insert(tx: Executor, values: Insertable<AdjustmentRequestTable>) {
    return tx.insertInto('adjustment_request').values(values).returning('id').executeTakeFirstOrThrow().then((r) => r.id);
  },

  findById(db: Executor, id: number) {
    return db.selectFrom('adjustment_request').selectAll().where('id', '=', id).executeTakeFirst();
  },

  filtered(db: Executor, scope: Scope, f: AdjustmentFilter) {
    let q = db.selectFrom('adjustment_request as a')
      .innerJoin('warehouse as w', 'w.id', 'a.warehouse_id')
      .innerJoin('customer as c', 'c.id', 'a.customer_id')
      .innerJoin('sku as s', 's.id', 'a.sku_id')
      .innerJoin('location as l', 'l.id', 'a.location_id')
      .leftJoin('app_user as ru', 'ru.id', 'a.requested_by')
      .leftJoin('app_user as du', 'du.id', 'a.decided_by')
      .where(scope.where({ warehouse: 'a.warehouse_id', customer: 'a.customer_id' }, f));
    if (f.status) q = q.where('a.status', '=', f.status);
    return q;
  },
};
