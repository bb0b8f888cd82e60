import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

const RATE_CARDS: ListSpec = {
  sortable: { customerName: 'c.name', warehouseName: 'w.name', effectiveFrom: 'v.effective_from', versionNo: 'v.version_no' },
  defaultSort: { column: 'v.effective_from', direction: 'desc' },
  searchable: ['c.name', 'w.name', 'v.notes'],
  tieBreaker: 'v.id',
};

const INVOICES: ListSpec = {
  sortable: { invoiceNumber: 'i.invoice_number', periodFrom: 'i.period_from', customerName: 'c.name', totalMinor: 'i.total_minor', status: 'i.status', createdAt: 'i.created_at' },
  defaultSort: { column: 'i.id', direction: 'desc' },
  searchable: ['i.invoice_number', 'c.name'],
  tieBreaker: 'i.id',
};

function invoicesQuery(db: Executor, scope: Scope) {
  return db.selectFrom('invoice as i').innerJoin('customer as c', 'c.id', 'i.customer_id').innerJoin('warehouse as w', 'w.id', 'i.warehouse_id')
    .where(scope.where({ warehouse: 'i.warehouse_id', customer: 'i.customer_id' }));
}
function invoiceColumns(q: ReturnType<typeof invoicesQuery>) {
  return q.selectAll('i').select(['c.name as customer_name', 'w.name as warehouse_name'])
    .select(sql<string | null>`(select o.invoice_number from invoice o where o.id = i.credits_invoice_id)`.as('credits_invoice_number'));
}
export type InvoiceRow = Awaited<ReturnType<ReturnType<typeof invoiceColumns>['executeTakeFirstOrThrow']>>;

/** Billing's queries: every tenant-bound one through the caller's scope. */
export const billingRepository = {
  accounts(db: Executor, scope: Scope) {
    return db.selectFrom('customer as c').leftJoin('billing_account as a', 'a.customer_id', 'c.id')
      .select(['c.id', 'c.name', 'a.currency', 'a.tax_rate_bp', 'a.payment_terms_days'])
      .where(scope.where({ customer: 'c.id' })).where('c.is_active', '=', 1).orderBy('c.name').limit(1000).execute();
  },

  async hasInvoices(db: Executor, customerId: number) {
    return !!(await db.selectFrom('invoice').select('id').where('customer_id', '=', customerId).where('status', '!=', 'Discarded').limit(1).executeTakeFirst());
  },

  rateCards(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<{ customerId?: number; warehouseId?: number }>) {
    const f = req.filters ?? {};
    const base = db.selectFrom('rate_card_version as v').innerJoin('customer as c', 'c.id', 'v.customer_id').innerJoin('warehouse as w', 'w.id', 'v.warehouse_id')
      .leftJoin('billing_account as a', 'a.customer_id', 'v.customer_id')
      .where(scope.where({ warehouse: 'v.warehouse_id', customer: 'v.customer_id' }, { warehouseId: f.warehouseId, customerId: f.customerId }));
    return listRows(dialect, base, (q) => q.selectAll('v').select(['c.name as customer_name', 'w.name as warehouse_name', 'a.currency'])
      .select(sql<string | null>`(select username from app_user u where u.id = v.created_by)`.as('created_by_name')), req, RATE_CARDS);
  },

  /**
   * The manual charges (accessorials, labour) of a client at a warehouse over days not on a final invoice, summed by
   * charge type: the accrual's list of them (partial index billing_charge_manual: client, warehouse, day; the literal 'manual' matches its predicate).
   */
  manualCharges(db: Executor, s: { customerId: number; warehouseId: number; from: string; to: string }) {
    return db.selectFrom('billing_charge as c').leftJoin('invoice as i', 'i.id', 'c.invoice_id')
      .select(['c.charge_type', (eb) => eb.fn.sum<number | string>('c.amount_minor').as('amount')])
      .where('c.customer_id', '=', s.customerId).where('c.warehouse_id', '=', s.warehouseId).where('c.source_type', '=', sql.lit('manual'))
      .where('c.day', '>=', s.from).where('c.day', '<=', s.to).where((eb) => eb.or([eb('i.id', 'is', null), eb('i.status', '!=', 'Final')])).groupBy('c.charge_type');
  },

  invoice(db: Executor, scope: Scope, id: number) {
    return invoiceColumns(invoicesQuery(db, scope).where('i.id', '=', id)).executeTakeFirst();
  },

  invoices(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<{ customerId?: number; warehouseId?: number; status?: string; kind?: string }>, finalOnly: boolean) {
    const f = req.filters ?? {};
    let base = invoicesQuery(db, scope).where(scope.where({ warehouse: 'i.warehouse_id', customer: 'i.customer_id' }, { warehouseId: f.warehouseId, customerId: f.customerId }));
    if (f.status) base = base.where('i.status', '=', f.status);
    if (f.kind) base = base.where('i.kind', '=', f.kind);
    if (finalOnly) base = base.where('i.status', '=', 'Final');
    return listRows(dialect, base, invoiceColumns, req, INVOICES);
  },
};
