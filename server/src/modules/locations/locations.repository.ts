import { sql, type Insertable, type Updateable } from 'kysely';
import type { LocationCategory, LocationFilters } from '@bolx/contracts';
import type { Executor } from '../../db/schema.js';
import type { LocationTable } from '../../db/tables/locations.js';
import type { Dialect } from '../../db/dialect.js';
import { listAll, listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';
import { otherTypeCodes, positionCounts, type LocationEb } from './position-counts.js';

/** Whose stock counts: everyone's (staff see the physical fill), or only the scope's customers (a client account). */
export type StockView = 'all' | 'own';

export interface LocationQuery {
  scope: Scope;
  view: StockView;
  category: LocationCategory;
  filters: LocationFilters;
}

/** Rows per IN list or multi-row insert, well inside both engines' parameter limits. */
const CHUNK = 500;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Balances at the location that count for this caller, with stock on hand. */
function stockedBalances(eb: LocationEb, scope: Scope, view: StockView) {
  let q = eb.selectFrom('inventory_balance as b').whereRef('b.location_id', '=', 'l.id').where('b.on_hand', '>', 0);
  if (view === 'own') q = q.where(scope.where({ customer: 'b.customer_id' }));
  return q;
}

/** Units on hand at the location (for a client, its own units). */
export function onHandOf(eb: LocationEb, scope: Scope, view: StockView) {
  let q = eb.selectFrom('inventory_balance as b').whereRef('b.location_id', '=', 'l.id');
  if (view === 'own') q = q.where(scope.where({ customer: 'b.customer_id' }));
  return q.select(sql<number>`coalesce(sum(b.on_hand), 0)`.as('units'));
}

export const locationRepository = {
  /** A page of the location list (storage or other kinds) with on hand and occupancy, and its total. */
  list(db: Executor, dialect: Dialect, q: LocationQuery, req: ListRequest<LocationFilters>) {
    return listRows(dialect, locationRepository.filtered(db, q), locationRepository.itemColumns(q.view, q.scope), req, LOCATION_LIST);
  },

  /** Every location of the list, for a download. */
  listAll(db: Executor, dialect: Dialect, q: LocationQuery, req: Pick<ListRequest<LocationFilters>, 'searchQuery' | 'sort'>) {
    return listAll(dialect, locationRepository.filtered(db, q), locationRepository.itemColumns(q.view, q.scope), req, LOCATION_LIST);
  },

  types(db: Executor) {
    return db.selectFrom('location_type').selectAll().orderBy('sort').execute();
  },

  findType(db: Executor, code: string) {
    return db.selectFrom('location_type').selectAll().where('code', '=', code).executeTakeFirst();
  },

  warehouse(db: Executor, id: number) {
    return db.selectFrom('warehouse').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  },

  /**
   * The scoped, filtered list before search, order and paging. A client account sees only the locations that
   * hold its own stock ("locations in use").
   */
  filtered(db: Executor, q: LocationQuery) {
    const f = q.filters;
    let query = db.selectFrom('location as l').innerJoin('warehouse as w', 'w.id', 'l.warehouse_id')
      .where(q.scope.where({ warehouse: 'l.warehouse_id' }, { warehouseId: f.warehouseId }));
    query = q.category === 'other' ? query.where('l.type', 'in', otherTypeCodes(db)) : query.where('l.type', 'not in', otherTypeCodes(db));
    if (q.view === 'own') query = query.where((eb) => eb.exists(stockedBalances(eb, q.scope, 'own').select(sql.lit(1).as('one'))));
    if (f.type) query = query.where('l.type', '=', f.type);
    if (f.zone) query = query.where('l.zone', '=', f.zone);
    if (f.isActive === 'active') query = query.where('l.is_active', '=', 1);
    if (f.isActive === 'inactive') query = query.where('l.is_active', '=', 0);
    if (f.occupied === 'occupied') query = query.where((eb) => eb.exists(stockedBalances(eb, q.scope, q.view).select(sql.lit(1).as('one'))));
    if (f.occupied === 'empty') query = query.where((eb) => eb.not(eb.exists(stockedBalances(eb, q.scope, q.view).select(sql.lit(1).as('one')))));
    return query;
  },

  /** A list item's columns: the location, its warehouse's name, its kind and its units on hand. */
  itemColumns(view: StockView, scope: Scope) {
    return <Q extends ReturnType<typeof locationRepository.filtered>>(q: Q) => q.selectAll('l').select((eb) => [
      'w.name as warehouse_name',
      eb.selectFrom('location_type as lt').select('lt.category').whereRef('lt.code', '=', 'l.type').as('category'),
      onHandOf(eb, scope, view).as('on_hand'),
    ]);
  },

  findById(db: Executor, id: number, scope: Scope, view: StockView) {
    return db.selectFrom('location as l').innerJoin('warehouse as w', 'w.id', 'l.warehouse_id').where('l.id', '=', id)
      .selectAll('l').select((eb) => [
        'w.name as warehouse_name',
        eb.selectFrom('location_type as lt').select('lt.category').whereRef('lt.code', '=', 'l.type').as('category'),
        onHandOf(eb, scope, view).as('on_hand'),
        eb.exists(stockedBalances(eb, scope, 'own').select(sql.lit(1).as('one'))).as('in_use_by_scope'),
      ]).executeTakeFirst();
  },

  /** Which of these codes already exist in the warehouse, in code order. */
  async existingCodes(db: Executor, warehouseId: number, codes: string[]): Promise<string[]> {
    const found: string[] = [];
    for (const part of chunks(codes)) {
      const rows = await db.selectFrom('location').select('code').where('warehouse_id', '=', warehouseId).where('code', 'in', part).execute();
      found.push(...rows.map((r) => r.code));
    }
    return found.sort();
  },

  async insert(db: Executor, values: Insertable<LocationTable>) {
    return (await db.insertInto('location').values(values).returning('id').executeTakeFirstOrThrow()).id;
  },

  async insertMany(db: Executor, rows: Insertable<LocationTable>[]) {
    for (const part of chunks(rows)) await db.insertInto('location').values(part).execute();
  },

  async update(db: Executor, id: number, values: Updateable<LocationTable>) {
    await db.updateTable('location').set(values).where('id', '=', id).execute();
  },

  /** Distinct zones of the caller's list, for the zone filter. */
  zones(db: Executor, q: LocationQuery) {
    return locationRepository.filtered(db, q).select('l.zone').distinct().where('l.zone', 'is not', null).orderBy('l.zone').limit(500).execute();
  },

  /** Labels to print: given ids, or a code range with optional type and zone, within one warehouse, in code order. */
  forLabels(db: Executor, warehouseId: number, sel: { locationIds?: number[]; fromCode?: string; toCode?: string; type?: string; zone?: string }, limit: number) {
    let q = db.selectFrom('location as l').select(['l.id', 'l.code']).where('l.warehouse_id', '=', warehouseId);
    if (sel.locationIds) q = q.where('l.id', 'in', sel.locationIds);
    if (sel.fromCode) q = q.where('l.code', '>=', sel.fromCode);
    if (sel.toCode) q = q.where('l.code', '<=', sel.toCode);
    if (sel.type) q = q.where('l.type', '=', sel.type);
    if (sel.zone) q = q.where('l.zone', '=', sel.zone);
    return q.orderBy('l.code').limit(limit).execute();
  },

  /** Storage positions per warehouse in scope: how many there are and how many hold the scope's stock (positionCounts). */
  positions(db: Executor, scope: Scope, warehouseId?: number) {
    return db.selectFrom('warehouse as w')
      .where(scope.where({ warehouse: 'w.id' }, { warehouseId }))
      .select(['w.id', 'w.name'])
      .select((eb) => {
        const counts = positionCounts(db, eb.ref('w.id'), { scope });
        return [counts.total.as('total'), counts.used.as('used')];
      })
      .orderBy('w.name').execute();
  },
};

/** The location lists' sorts, search and order. */
export const LOCATION_LIST: ListSpec = {
  sortable: { locationCode: 'l.code', locationType: 'l.type', zone: 'l.zone', capacity: 'l.capacity', createdAt: 'l.created_at' },
  defaultSort: { column: 'l.code', direction: 'asc' },
  searchable: ['l.code', 'l.zone', 'l.description'],
  tieBreaker: 'l.id',
};
