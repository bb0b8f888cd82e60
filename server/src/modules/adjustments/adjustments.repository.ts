import type { Insertable } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { AdjustmentRequestTable, AdjustmentStatus } from '../../db/tables/inventory-operations.js';
import type { Dialect } from '../../db/dialect.js';
import { listAll, listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

export interface AdjustmentFilter { warehouseId?: number; customerId?: number; status?: AdjustmentStatus }

export const ADJUSTMENT_LIST: ListSpec = {
  sortable: {
    requestedAt: 'a.requested_at', skuCode: 's.sku_code', locationCode: 'l.code', quantityChange: 'a.quantity_change', status: 'a.status', customerName: 'c.name',
  },
  defaultSort: { column: 'a.requested_at', direction: 'desc' },
  searchable: ['s.sku_code', 'l.code', 'a.lot', 'a.pallet', 'a.reason_code'],
  tieBreaker: 'a.id',
};

export const adjustmentRepository = {
  /** A page of the adjustment list and its total. */
  list(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<AdjustmentFilter>) {
    return listRows(dialect, adjustmentRepository.filtered(db, scope, req.filters ?? {}), adjustmentListColumns, req, ADJUSTMENT_LIST);
  },

  /** Every adjustment of the list, for a download. */
  listAll(db: Executor, dialect: Dialect, scope: Scope, req: Pick<ListRequest<AdjustmentFilter>, 'filters' | 'searchQuery' | 'sort'>) {
    return listAll(dialect, adjustmentRepository.filtered(db, scope, req.filters ?? {}), adjustmentListColumns, req, ADJUSTMENT_LIST);
  },


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

/** The columns of an adjustment list row. */
export const adjustmentListColumns = (q: ReturnType<typeof adjustmentRepository.filtered>) => q.select([
  'a.id', 'a.warehouse_id', 'w.name as warehouse_name', 'a.customer_id', 'c.name as customer_name', 'a.sku_id', 's.sku_code',
  'a.location_id', 'l.code as location_code', 'a.lot', 'a.pallet', 'a.expiry_date', 'a.quantity_change', 'a.reason_code', 'a.note',
  'a.status', 'ru.username as requested_by_name', 'a.requested_at', 'du.username as decided_by_name', 'a.decided_at', 'a.decision_note', 'a.document_id',
]);
