import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

export interface PalletFilterValues { warehouseId?: number; customerId?: number; palletType?: string }

const PALLET_LIST: ListSpec = {
  sortable: { palletId: 'p.pallet_code', palletType: 'p.pallet_type', locationCode: 'l.code', customerName: 'c.name', createdAt: 'p.created_at' },
  defaultSort: { column: 'p.id', direction: 'desc' },
  searchable: ['p.pallet_code', 'p.sscc', 'l.code'],
  tieBreaker: 'p.id',
};

function palletsQuery(db: Executor, scope: Scope, f: PalletFilterValues) {
  // A warehouse's own pallet (no client) shows to staff whose clients are restricted too: the client column is checked only when set.
  let q = db.selectFrom('pallet as p').innerJoin('location as l', 'l.id', 'p.location_id').leftJoin('customer as c', 'c.id', 'p.customer_id')
    .where(scope.where({ warehouse: 'p.warehouse_id' }, { warehouseId: f.warehouseId }))
    .where((eb) => eb.or([eb('p.customer_id', 'is', null), scope.where({ customer: 'p.customer_id' }, { customerId: f.customerId })]));
  if (f.customerId) q = q.where('p.customer_id', '=', f.customerId);
  if (f.palletType) q = q.where('p.pallet_type', '=', f.palletType);
  return q;
}
const palletColumns = (q: ReturnType<typeof palletsQuery>) => q.select([
  'p.id', 'p.pallet_code', 'p.sscc', 'p.pallet_type', 'p.length_cm', 'p.width_cm', 'p.height_cm', 'p.weight_capacity_kg', 'p.warehouse_id',
  'p.customer_id', 'c.name as customer_name', 'p.location_id', 'l.code as location_code', 'p.created_at',
  // What is on it now: its stock rows, by the same id.
  sql<number>`(SELECT coalesce(sum(b.on_hand), 0) FROM inventory_balance b WHERE b.warehouse_id = p.warehouse_id AND b.pallet = p.pallet_code)`.as('on_hand'),
]);
export type PalletRow = {
  id: number; pallet_code: string; sscc: string | null; pallet_type: string; length_cm: number; width_cm: number; height_cm: number;
  weight_capacity_kg: number; warehouse_id: number; customer_id: number | null; customer_name: string | null; location_id: number;
  location_code: string; created_at: string; on_hand: number;
};
export interface NewPallet {
  warehouse_id: number; customer_id: number | null; pallet_code: string; sscc: string | null; pallet_type: string; length_cm: number; width_cm: number;
  height_cm: number; weight_capacity_kg: number; location_id: number; created_by: number | null; created_at: string; updated_at: string;
}

/** Every statement of the pallet register. */
export const palletRepository = {
  list(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<PalletFilterValues>) {
    return listRows(dialect, palletsQuery(db, scope, req.filters ?? {}), (q) => palletColumns(q as never) as never, req, PALLET_LIST) as Promise<{ rows: PalletRow[]; total: number }>;
  },
  /** The ids of these already registered in the warehouse. */
  async existing(db: Executor, warehouseId: number, codes: string[]) {
    if (codes.length === 0) return [];
    const rows = await db.selectFrom('pallet').select('pallet_code').where('warehouse_id', '=', warehouseId).where('pallet_code', 'in', codes).execute();
    return rows.map((r) => r.pallet_code);
  },
  /** The warehouse's locations by code (upper case), among those named. */
  async locationsByCode(db: Executor, warehouseId: number, codes: string[]) {
    if (codes.length === 0) return new Map<string, number>();
    const rows = await db.selectFrom('location').select(['id', 'code']).where('warehouse_id', '=', warehouseId).where('code', 'in', codes).where('is_active', '=', 1).execute();
    return new Map(rows.map((r) => [r.code, r.id]));
  },
  location(db: Executor, id: number) {
    return db.selectFrom('location').select(['id', 'warehouse_id', 'code', 'is_active']).where('id', '=', id).executeTakeFirst();
  },
  servedAt(db: Executor, warehouseId: number, customerId: number) {
    return db.selectFrom('customer_warehouse').select('customer_id').where('warehouse_id', '=', warehouseId).where('customer_id', '=', customerId).executeTakeFirst();
  },
  hasGs1Prefix(db: Executor, customerId: number) {
    return db.selectFrom('customer').select('gs1_company_prefix').where('id', '=', customerId).executeTakeFirst().then((r) => !!r?.gs1_company_prefix);
  },
  async insertMany(db: Executor, rows: NewPallet[]) {
    // Inserted in slices: well inside both engines' bound-parameter limits.
    for (let i = 0; i < rows.length; i += 500) await db.insertInto('pallet').values(rows.slice(i, i + 500)).execute();
  },
};
