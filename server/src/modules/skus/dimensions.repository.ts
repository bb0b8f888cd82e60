import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

export type DimensionFilter = { customerId?: number; skuId?: number; kind?: 'all' | 'sku' | 'package'; missingOnly?: boolean };
type Measures = { length_cm: number; width_cm: number; height_cm: number; weight_kg: number; updated_at: string };

export const DIMENSION_LIST: ListSpec = {
  sortable: { skuCode: 'd.sku_code', customerName: 'd.customer_name', packageName: 'd.package_name', kind: 'd.kind', weightKg: 'd.weight_kg' },
  defaultSort: { column: 'd.sku_code', direction: 'asc' },
  searchable: ['d.sku_code', 'd.description', 'd.package_name'],
  tieBreaker: 'd.uid',
};

export const dimensionRepository = {
  /** A page of SKUs and packages with their measures, and its total. */
  list(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<DimensionFilter>) {
    return listRows(dialect, dimensionRepository.filtered(db, scope, req.filters ?? {}), (q) => q.selectAll('d'), req, DIMENSION_LIST);
  },

  /**
   * SKUs and packages as one list (a UNION ALL of both, each held to the caller's customers), so the
   * /Dimensions screen pages, searches and sorts them together.
   */
  filtered(db: Executor, scope: Scope, f: DimensionFilter) {
    let skus = db.selectFrom('sku as s').innerJoin('customer as c', 'c.id', 's.customer_id')
      .select([
        sql<string>`'sku-' || s.id`.as('uid'), sql<'sku' | 'package'>`'sku'`.as('kind'), 's.id as sku_id',
        sql<number | null>`CAST(NULL AS integer)`.as('package_id'), 's.customer_id', 'c.name as customer_name', 's.sku_code', 's.description',
        sql<string | null>`CAST(NULL AS varchar(100))`.as('package_name'), 's.length_cm', 's.width_cm', 's.height_cm', 's.weight_kg',
      ])
      .where(scope.where({ customer: 's.customer_id' }, { customerId: f.customerId }));
    let packages = db.selectFrom('sku_package as p').innerJoin('sku as s', 's.id', 'p.sku_id').innerJoin('customer as c', 'c.id', 'p.customer_id')
      .select([
        sql<string>`'package-' || p.id`.as('uid'), sql<'sku' | 'package'>`'package'`.as('kind'), 'p.sku_id',
        sql<number | null>`p.id`.as('package_id'), 'p.customer_id', 'c.name as customer_name', 's.sku_code', 's.description',
        sql<string | null>`p.package_name`.as('package_name'), 'p.length_cm', 'p.width_cm', 'p.height_cm', 'p.weight_kg',
      ])
      .where(scope.where({ customer: 'p.customer_id' }, { customerId: f.customerId }));
    if (f.skuId) {
      skus = skus.where('s.id', '=', f.skuId);
      packages = packages.where('p.sku_id', '=', f.skuId);
    }
    const rows = f.kind === 'sku' ? skus : f.kind === 'package' ? packages : skus.unionAll(packages);
    let q = db.selectFrom(rows.as('d'));
    if (f.missingOnly) {
      q = q.where((eb) => eb.or([eb('d.length_cm', 'is', null), eb('d.width_cm', 'is', null), eb('d.height_cm', 'is', null), eb('d.weight_kg', 'is', null)]));
    }
    return q;
  },

  async setSku(db: Executor, skuId: number, m: Measures) {
    await db.updateTable('sku').set(m).where('id', '=', skuId).execute();
  },

  async setPackage(db: Executor, packageId: number, m: Measures) {
    await db.updateTable('sku_package').set(m).where('id', '=', packageId).execute();
  },
};
