import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { containsPattern, type Dialect } from '../db/dialect.js';

/** What every list call sends (contracts' listRequest, after defaults). */
export interface ListRequest<F = Record<string, unknown>> {
  filters?: F;
  searchQuery: string;
  pageNumber: number;
  pageSize: number;
  sort?: { field: string; order: 'ascend' | 'descend' };
}

export interface ListSpec {
  /** API sort field → trusted SQL column. Anything else is ignored, never interpolated. */
  sortable: Record<string, string>;
  defaultSort: { column: string; direction: 'asc' | 'desc' };
  /** Columns the search box looks in (contains, case-insensitive). */
  searchable: string[];
  /** Unique column that makes the order total, so pages never repeat or skip a row. */
  tieBreaker: string;
  /** Every searchable column is on listPage's `countBase` too, so it counts searches as well. */
  countBaseSearches?: boolean;
}

/** Rows a download may hold; past this the caller is asked to filter. */
export const EXPORT_ROW_LIMIT = 100_000;

export function searchCondition(dialect: Dialect, columns: string[], query: string): Expression<SqlBool> | null {
  const q = query.trim();
  if (!q || columns.length === 0) return null;
  const pattern = containsPattern(q);
  return sql<SqlBool>`(${sql.join(columns.map((c) => sql`${dialect.ilike(sql.ref(c), pattern)} ESCAPE '\\'`), sql` OR `)})`;
}

function orderBy(spec: ListSpec, sort: ListRequest['sort']) {
  const column = (sort && spec.sortable[sort.field]) || spec.defaultSort.column;
  const direction = sort && spec.sortable[sort.field] ? (sort.order === 'ascend' ? sql`asc` : sql`desc`)
    : spec.defaultSort.direction === 'asc' ? sql`asc` : sql`desc`;
  return sql`${sql.ref(column)} ${direction}, ${sql.ref(spec.tieBreaker)} asc`;
}

/** One page of a list as a repository answers it: the rows as selected, and how many match in all. */
export interface ListRows<O> {
  rows: O[];
  total: number;
}

/**
 * One page of a filtered list and its total: two statements, whatever the page size. `base` carries the
 * joins and WHERE (scope and filters); `select` adds the columns of an item. `countBase`, when given, counts
 * the same rows more cheaply while no search is active (say, without joins that can neither drop nor repeat a
 * row): on a large table the count, not the page, is what costs. With `spec.countBaseSearches` it counts
 * searches too. Repositories call it with their list spec; services map the rows to the API's shape.
 */
export async function listRows<DB, TB extends keyof DB, O, CDB = DB, CTB extends keyof CDB = keyof CDB>(
  dialect: Dialect,
  base: SelectQueryBuilder<DB, TB, {}>,
  select: (qb: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<DB, TB, O>,
  req: ListRequest<unknown>,
  spec: ListSpec,
  countBase?: SelectQueryBuilder<CDB, CTB, {}>,
): Promise<ListRows<O>> {
  const search = searchCondition(dialect, spec.searchable, req.searchQuery);
  const filtered = search ? base.where(search) : base;
  const rows = await select(filtered).orderBy(orderBy(spec, req.sort)).limit(req.pageSize).offset((req.pageNumber - 1) * req.pageSize).execute();
  const counter = !countBase ? null : !search ? countBase : spec.countBaseSearches ? countBase.where(search) : null;
  const counted = counter ? counter.select(sql<number>`count(*)`.as('n')) : filtered.select(sql<number>`count(*)`.as('n'));
  const total = (await counted.executeTakeFirstOrThrow()) as { n: number };
  return { rows: rows as O[], total: Number(total.n) };
}

/** A repository's page in the API's list shape, each row mapped to an item. */
export function toListPage<O, I>(list: ListRows<O>, item: (row: O) => I): { items: I[]; totalCount: number } {
  return { items: list.rows.map(item), totalCount: list.total };
}

/** listRows in the API's shape, for a caller whose repository does not list yet. */
export async function listPage<DB, TB extends keyof DB, O, CDB = DB, CTB extends keyof CDB = keyof CDB>(
  dialect: Dialect,
  base: SelectQueryBuilder<DB, TB, {}>,
  select: (qb: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<DB, TB, O>,
  req: ListRequest<unknown>,
  spec: ListSpec,
  countBase?: SelectQueryBuilder<CDB, CTB, {}>,
): Promise<{ items: O[]; totalCount: number }> {
  return toListPage(await listRows(dialect, base, select, req, spec, countBase), (r) => r);
}

/** Every row of a filtered list in list order, for a download. */
export async function listAll<DB, TB extends keyof DB, O>(
  dialect: Dialect,
  base: SelectQueryBuilder<DB, TB, {}>,
  select: (qb: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<DB, TB, O>,
  req: Pick<ListRequest<unknown>, 'searchQuery' | 'sort'>,
  spec: ListSpec,
): Promise<O[]> {
  const search = searchCondition(dialect, spec.searchable, req.searchQuery);
  const filtered = search ? base.where(search) : base;
  return (await select(filtered).orderBy(orderBy(spec, req.sort)).limit(EXPORT_ROW_LIMIT).execute()) as O[];
}
