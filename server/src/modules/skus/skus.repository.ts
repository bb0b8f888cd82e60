import { sql, type Insertable, type Updateable } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { SkuTable } from '../../db/tables/catalog.js';
import type { Dialect } from '../../db/dialect.js';
import { listAll, listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

export type SkuListFilter = { customerId?: number; category?: string; isKit?: boolean; isActive?: 'all' | 'active' | 'inactive' };

/** Where a barcode-like code is already used within a customer: barcode rows, package GTINs, SKU UPCs. */
export type BarcodeSource = 'barcode' | 'package' | 'upc';
export interface BarcodeOwner { source: BarcodeSource; id: number; sku_id: number; sku_code: string }

export const SKU_LIST: ListSpec = {
  sortable: { skuCode: 's.sku_code', description: 's.description', category: 's.category', createdAt: 's.created_at' },
  defaultSort: { column: 's.sku_code', direction: 'asc' },
  searchable: ['s.sku_code', 's.description', 's.upc', 's.category'],
  tieBreaker: 's.id',
  countBaseSearches: true, // every searchable column is the SKU's own
};

export const skuRepository = {
  /** SKUs held to the caller's customers, with the customer's name and the hazard class joined in. */
  scoped(db: Executor, scope: Scope, customerId?: number) {
    return db.selectFrom('sku as s')
      .innerJoin('customer as c', 'c.id', 's.customer_id')
      .leftJoin('hazmat as h', 'h.id', 's.hazmat_id')
      .where(scope.where({ customer: 's.customer_id' }, { customerId }));
  },

  /**
   * The filtered SKUs alone, to count: the list's joins can neither drop a row (every SKU has its customer)
   * nor repeat one (a SKU has at most one hazard class), and counting 100,000 SKUs through them costs.
   */
  counted(db: Executor, scope: Scope, f: SkuListFilter) {
    let q = db.selectFrom('sku as s').where(scope.where({ customer: 's.customer_id' }, { customerId: f.customerId }));
    if (f.category) q = q.where('s.category', '=', f.category);
    if (f.isKit !== undefined) q = q.where('s.is_kit', '=', f.isKit ? 1 : 0);
    if (f.isActive === 'active') q = q.where('s.is_active', '=', 1);
    if (f.isActive === 'inactive') q = q.where('s.is_active', '=', 0);
    return q;
  },

  /** A page of the SKU list and its total, counted on the SKUs alone. */
  list(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<SkuListFilter>) {
    const filters = req.filters ?? {};
    return listRows(dialect, skuRepository.filtered(db, scope, filters), selectSku, req, SKU_LIST, skuRepository.counted(db, scope, filters));
  },

  /** Every SKU of the list, for a download. */
  listAll(db: Executor, dialect: Dialect, scope: Scope, req: Pick<ListRequest<SkuListFilter>, 'filters' | 'searchQuery' | 'sort'>) {
    return listAll(dialect, skuRepository.filtered(db, scope, req.filters ?? {}), selectSku, req, SKU_LIST);
  },

  /** The filtered list before paging, with the customer's name and hazard class; listRows adds search, order and paging. */
  filtered(db: Executor, scope: Scope, f: SkuListFilter) {
    return skuRepository.counted(db, scope, f).innerJoin('customer as c', 'c.id', 's.customer_id').leftJoin('hazmat as h', 'h.id', 's.hazmat_id');
  },

  findById(db: Executor, scope: Scope, id: number) {
    return skuRepository.scoped(db, scope).selectAll('s').select(['c.name as customer_name', 'h.class_code as hazmat_class'])
      .where('s.id', '=', id).executeTakeFirst();
  },

  kitsOfCustomer(db: Executor, scope: Scope, customerId: number) {
    return skuRepository.scoped(db, scope, customerId).selectAll('s').select(['c.name as customer_name', 'h.class_code as hazmat_class'])
      .where('s.is_kit', '=', 1).where('s.is_active', '=', 1).orderBy('s.sku_code').orderBy('s.id').execute();
  },

  codeTaken(db: Executor, customerId: number, code: string, exceptId?: number) {
    let q = db.selectFrom('sku').select('id').where('customer_id', '=', customerId).where('sku_code', '=', code);
    if (exceptId) q = q.where('id', '<>', exceptId);
    return q.executeTakeFirst();
  },

  /** Which of these codes the customer already uses (one statement). */
  async codesTaken(db: Executor, customerId: number, codes: string[]): Promise<Set<string>> {
    if (codes.length === 0) return new Set();
    const rows = await db.selectFrom('sku').select('sku_code').where('customer_id', '=', customerId).where('sku_code', 'in', codes).execute();
    return new Set(rows.map((r) => r.sku_code));
  },

  async insert(db: Executor, values: Insertable<SkuTable>) {
    return (await db.insertInto('sku').values(values).returning('id').executeTakeFirstOrThrow()).id;
  },

  async update(db: Executor, id: number, values: Updateable<SkuTable>) {
    await db.updateTable('sku').set(values).where('id', '=', id).execute();
  },

  /**
   * Takes the rows' write locks (PostgreSQL) so rules that read several SKUs' links — the kit cycle check —
   * see each other's changes instead of racing. On SQLite, transactions are already serial.
   */
  async lock(db: Executor, ids: number[]) {
    await db.updateTable('sku').set({ updated_at: sql`updated_at` }).where('id', 'in', [...new Set(ids)].sort((a, b) => a - b)).execute();
  },

  customer(db: Executor, id: number) {
    return db.selectFrom('customer').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  },

  customersInScope(db: Executor, scope: Scope) {
    return db.selectFrom('customer as c').select(['c.id', 'c.name']).where(scope.where({ customer: 'c.id' })).orderBy('c.name').orderBy('c.id').execute();
  },

  async categoriesInScope(db: Executor, scope: Scope) {
    const rows = await db.selectFrom('sku as s').select('s.category').distinct().where('s.category', 'is not', null)
      .where(scope.where({ customer: 's.customer_id' })).orderBy('s.category').execute();
    return rows.map((r) => r.category!);
  },

  uoms(db: Executor) {
    return db.selectFrom('uom').selectAll().orderBy('sort').execute();
  },

  uomExists(db: Executor, code: string) {
    return db.selectFrom('uom').select('code').where('code', '=', code).executeTakeFirst();
  },

  hazmats(db: Executor) {
    return db.selectFrom('hazmat').selectAll().orderBy('hazard_class').orderBy('class_code').execute();
  },

  hazmat(db: Executor, id: number) {
    return db.selectFrom('hazmat').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Every use of a code within one customer, in one statement over the three places a code can live. */
  barcodeOwners(db: Executor, customerId: number, code: string): Promise<BarcodeOwner[]> {
    return db.selectFrom('sku_barcode as b').innerJoin('sku as s', 's.id', 'b.sku_id')
      .select([sql<BarcodeSource>`'barcode'`.as('source'), 'b.id', 'b.sku_id', 's.sku_code'])
      .where('b.customer_id', '=', customerId).where('b.barcode', '=', code)
      .unionAll(db.selectFrom('sku_package as p').innerJoin('sku as s', 's.id', 'p.sku_id')
        .select([sql<BarcodeSource>`'package'`.as('source'), 'p.id', 'p.sku_id', 's.sku_code'])
        .where('p.customer_id', '=', customerId).where('p.gtin', '=', code))
      .unionAll(db.selectFrom('sku as s')
        .select([sql<BarcodeSource>`'upc'`.as('source'), 's.id', 's.id as sku_id', 's.sku_code'])
        .where('s.customer_id', '=', customerId).where('s.upc', '=', code))
      .execute();
  },
};

export type SkuRow = NonNullable<Awaited<ReturnType<typeof skuRepository.findById>>>;

/** A list row: the SKU with its customer's name and hazard class. */
const selectSku = (q: ReturnType<typeof skuRepository.filtered>) => q.selectAll('s').select(['c.name as customer_name', 'h.class_code as hazmat_class']);
