import { jobPickEvents, standingPick } from '../../platform/floor-events.js';
import { sql, type Insertable } from 'kysely';
import type { BatchRuleCriteria, OrderStatus, PickJobDetail } from '@bolx/contracts';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { PickTaskTable } from '../../db/tables/floor.js';
import { dayInAnyZone } from '../../platform/business-day.js';
import { listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import { Scope } from '../../platform/scope.js';
import { toJobDetail } from './wave-views.js';

const CHUNK = 500;
const chunks = <T>(items: T[], size = CHUNK): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

const WAVE_LIST: ListSpec = {
  sortable: { waveNumber: 'w.wave_number', status: 'w.status', strategy: 'w.strategy', createdAt: 'w.created_at', warehouseName: 'wh.name' },
  defaultSort: { column: 'w.id', direction: 'desc' },
  searchable: ['w.wave_number'],
  tieBreaker: 'w.id',
};

const JOB_LIST: ListSpec = {
  sortable: { jobNumber: 'j.job_number', status: 'j.status', priority: 'j.priority', createdAt: 'j.created_at', waveNumber: 'w.wave_number', zone: 'j.zone' },
  defaultSort: { column: 'j.id', direction: 'desc' },
  searchable: ['j.job_number', 'w.wave_number'],
  tieBreaker: 'j.id',
};

export interface WaveFilterValues { warehouseId?: number; status?: string; fromDate?: string; toDate?: string }
export interface JobFilterValues { warehouseId?: number; waveId?: number; status?: string; assignedTo?: number; orderId?: number }

/** Waves in scope; the dates are days of each wave's warehouse (an index-friendly bound beside the exact day). */
function wavesQuery(db: Executor, scope: Scope, f: WaveFilterValues, dialect?: Dialect) {
  let q = db.selectFrom('wave as w').innerJoin('warehouse as wh', 'wh.id', 'w.warehouse_id')
    .where(scope.where({ warehouse: 'w.warehouse_id' }, { warehouseId: f.warehouseId }));
  if (f.status) q = q.where('w.status', '=', f.status);
  if (dialect && (f.fromDate || f.toDate)) {
    const day = dialect.localDay(sql.ref('w.created_at'), sql.ref('wh.timezone'));
    if (f.fromDate) q = q.where('w.created_at', '>=', dayInAnyZone(f.fromDate).from).where(day, '>=', f.fromDate);
    if (f.toDate) q = q.where('w.created_at', '<', dayInAnyZone(f.toDate).until).where(day, '<=', f.toDate);
  }
  return q;
}

/** A wave with its totals: correlated counts and sums on the jobs' and tasks' wave/job indexes. */
function waveColumns(q: ReturnType<typeof wavesQuery>) {
  const tasks = (expr: string) => sql<number>`(select ${sql.raw(expr)} from pick_task t join pick_job tj on tj.id = t.job_id where tj.wave_id = w.id)`;
  return q.selectAll('w').select([
    'wh.name as warehouse_name',
    sql<number>`(select count(distinct jo.order_id) from pick_job_order jo join pick_job oj on oj.id = jo.job_id where oj.wave_id = w.id)`.as('order_count'),
    sql<number>`(select count(*) from pick_job j where j.wave_id = w.id)`.as('job_count'),
    sql<number>`(select count(*) from pick_job j where j.wave_id = w.id and j.status in ('Done', 'Short'))`.as('jobs_done'),
    tasks('count(distinct t.order_line_id)').as('line_count'),
    tasks('coalesce(sum(t.quantity), 0)').as('units'),
    tasks('coalesce(sum(t.picked_qty), 0)').as('picked_units'),
    sql<string | null>`(select username from app_user u where u.id = w.created_by)`.as('created_by_name'),
  ]);
}
export type WaveRow = Awaited<ReturnType<ReturnType<typeof waveColumns>['executeTakeFirstOrThrow']>>;

function jobsQuery(db: Executor, scope: Scope, f: JobFilterValues) {
  let q = db.selectFrom('pick_job as j').innerJoin('wave as w', 'w.id', 'j.wave_id')
    .where(scope.where({ warehouse: 'j.warehouse_id' }, { warehouseId: f.warehouseId }));
  if (f.waveId) q = q.where('j.wave_id', '=', f.waveId);
  if (f.status) q = q.where('j.status', '=', f.status);
  if (f.assignedTo) q = q.where('j.assigned_to', '=', f.assignedTo);
  if (f.orderId) q = q.where((eb) => eb.exists(eb.selectFrom('pick_job_order as jo').select('jo.id').whereRef('jo.job_id', '=', 'j.id').where('jo.order_id', '=', f.orderId!)));
  return q;
}

function jobColumns(q: ReturnType<typeof jobsQuery>) {
  const tasks = (expr: string) => sql<number>`(select ${sql.raw(expr)} from pick_task t where t.job_id = j.id)`;
  return q.selectAll('j').select([
    'w.wave_number',
    sql<string | null>`(select username from app_user u where u.id = j.assigned_to)`.as('assigned_to_name'),
    sql<number>`(select count(*) from pick_job_order jo where jo.job_id = j.id)`.as('order_count'),
    tasks('count(distinct t.seq)').as('stop_count'),
    tasks('coalesce(sum(t.quantity), 0)').as('units'),
    tasks('coalesce(sum(t.picked_qty), 0)').as('picked_units'),
    tasks('coalesce(sum(t.short_qty), 0)').as('short_units'),
  ]);
}
export type JobRow = Awaited<ReturnType<ReturnType<typeof jobColumns>['executeTakeFirstOrThrow']>>;

/** An order as releasing sees it: where it belongs, its status, urgency and whether its customer lets it wait. */
function releaseCandidates(db: Executor) {
  return db.selectFrom('sales_order as o').innerJoin('customer as c', 'c.id', 'o.customer_id')
    .select(['o.id', 'o.so_number', 'o.warehouse_id', 'o.customer_id', 'o.status', 'o.priority', 'o.requested_ship_date', 'o.order_type', 'c.allow_backorders']);
}
export type CandidateRow = Awaited<ReturnType<ReturnType<typeof releaseCandidates>['executeTakeFirstOrThrow']>>;

/**
 * The orders a batch rule matches in its warehouse, in the given statuses and the caller's scope, most urgent first
 * (priority, then the earliest requested ship date, then the oldest), at most `maxOrders`.
 */
function ruleQuery(db: Executor, scope: Scope, c: BatchRuleCriteria, statuses: readonly OrderStatus[]) {
  let q = db.selectFrom('sales_order as o').innerJoin('customer as c', 'c.id', 'o.customer_id')
    .where(scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' }, { warehouseId: c.warehouseId, customerId: c.customerId }))
    .where('o.status', 'in', [...statuses])
    .where('o.order_type', '<>', 'Purchase');
  if (c.shipDateTo) q = q.where((eb) => eb.or([eb('o.requested_ship_date', 'is', null), eb('o.requested_ship_date', '<=', c.shipDateTo!)]));
  if (c.carrierAccountId) q = q.where('o.carrier_account_id', '=', c.carrierAccountId);
  if (c.carrierService) q = q.where('o.carrier_service', '=', c.carrierService);
  if (c.priorityTo) q = q.where('o.priority', '<=', c.priorityTo);
  const lines = sql<number>`(select count(*) from sales_order_line sl where sl.order_id = o.id)`;
  if (c.lineShape === 'single-line') q = q.where(sql<boolean>`${lines} = 1`);
  if (c.lineShape === 'multi-line') q = q.where(sql<boolean>`${lines} > 1`);
  // The zone of the stock: where the order's allocated units are (an order waiting for stock: none yet).
  if (c.zone) {
    q = q.where(sql<boolean>`exists (select 1 from stock_reservation r join inventory_balance b on b.id = r.balance_id
      join location l on l.id = b.location_id where r.document_type = 'SO' and r.document_id = o.so_number and r.quantity > 0 and l.zone = ${c.zone})`);
  }
  return q;
}

/** A rule's orders, most urgent first, at most maxOrders. */
function matchedQuery(db: Executor, scope: Scope, criteria: BatchRuleCriteria, statuses: readonly OrderStatus[]) {
  let q = ruleQuery(db, scope, criteria, statuses).select(['o.id'])
    .orderBy('o.priority').orderBy(sql`case when o.requested_ship_date is null then 1 else 0 end`).orderBy('o.requested_ship_date').orderBy('o.id');
  if (criteria.maxOrders) q = q.limit(criteria.maxOrders);
  return q;
}

/** Every query of the floor's waves and pick jobs. Statuses change only through the status machine. */
export const wavesRepository = {
  /** Orders by id, unscoped (the service tells the caller's from another's). */
  candidates(db: Executor, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([] as CandidateRow[]);
    return Promise.all(chunks(ids).map((part) => releaseCandidates(db).where('o.id', 'in', part).execute())).then((r) => r.flat());
  },

  /** The orders a rule matches (ids in urgency order). */
  matching(db: Executor, scope: Scope, criteria: BatchRuleCriteria, statuses: readonly OrderStatus[]) {
    return matchedQuery(db, scope, criteria, statuses).execute().then((rows) => rows.map((r) => Number(r.id)));
  },

  /** The matched orders by status, and their lines and units (one statement each, whatever their number). */
  async matchedTotals(db: Executor, scope: Scope, criteria: BatchRuleCriteria, statuses: readonly OrderStatus[]) {
    // The matched ids as a derived table: a LIMIT inside IN (…) is refused by some engines, inside FROM by none.
    const matched = () => db.selectFrom(matchedQuery(db, scope, criteria, statuses).as('m')).select('m.id');
    const [byStatus, lines] = await Promise.all([
      db.selectFrom('sales_order').select(['status', sql<number>`count(*)`.as('n')]).where('id', 'in', matched()).groupBy('status').execute(),
      db.selectFrom('sales_order_line').select([sql<number>`count(*)`.as('lines'), sql<number>`coalesce(sum(quantity), 0)`.as('units')])
        .where('order_id', 'in', matched()).executeTakeFirstOrThrow(),
    ]);
    return { byStatus: byStatus.map((r) => ({ status: r.status, count: Number(r.n) })), lines: Number(lines.lines), units: Number(lines.units) };
  },

  /** The matched orders' preview rows: numbers, customer, status, urgency, lines and units (the ids given, in that order). */
  previewRows(db: Executor, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return Promise.all(chunks(ids).map((part) => db.selectFrom('sales_order as o').innerJoin('customer as c', 'c.id', 'o.customer_id')
      .select(['o.id', 'o.so_number', 'o.reference_number', 'c.name as customer_name', 'o.status', 'o.priority', 'o.requested_ship_date',
        sql<number>`(select count(*) from sales_order_line sl where sl.order_id = o.id)`.as('line_count'),
        sql<number>`(select coalesce(sum(sl.quantity), 0) from sales_order_line sl where sl.order_id = o.id)`.as('units')])
      .where('o.id', 'in', part).execute())).then((r) => r.flat());
  },

  /** Where releasing orders' allocated units are: each open reservation of their lines with its balance's place. */
  async reservations(db: Executor, soNumbers: string[]) {
    const rows = await Promise.all(chunks(soNumbers).map((part) => db.selectFrom('stock_reservation as r')
      .innerJoin('inventory_balance as b', 'b.id', 'r.balance_id')
      .innerJoin('location as l', 'l.id', 'b.location_id')
      .select(['r.document_id', 'r.document_line', 'r.quantity', 'b.customer_id', 'b.sku_id', 'b.lot', 'b.pallet', 'b.location_id',
        'l.code', 'l.zone', 'l.aisle', 'l.rack', 'l.level', 'l.bin'])
      .where('r.document_type', '=', 'SO').where('r.document_id', 'in', part).where('r.quantity', '>', 0)
      .orderBy('r.id').execute()));
    return rows.flat();
  },

  /** The lines of orders: how much each holds of what it asks (the status an order goes back to). */
  async lineTotals(db: Executor, orderIds: number[]) {
    if (orderIds.length === 0) return [];
    const rows = await Promise.all(chunks(orderIds).map((part) => db.selectFrom('sales_order_line').select(['order_id',
      sql<number>`sum(case when allocated_qty < quantity then 1 else 0 end)`.as('short_lines')])
      .where('order_id', 'in', part).groupBy('order_id').execute()));
    return rows.flat();
  },

  insertWave(tx: Executor, row: { wave_number: string; warehouse_id: number; strategy: string; totes_per_job: number; rule_id: number | null; created_by: number | null; at: string }) {
    return tx.insertInto('wave').values({
      wave_number: row.wave_number, warehouse_id: row.warehouse_id, strategy: row.strategy, totes_per_job: row.totes_per_job, rule_id: row.rule_id,
      created_by: row.created_by, created_at: row.at, updated_at: row.at,
    }).returning('id').executeTakeFirstOrThrow().then((r) => Number(r.id));
  },

  insertJob(tx: Executor, row: { job_number: string; wave_id: number; warehouse_id: number; strategy: string; zone: string | null; priority: number; at: string }) {
    const { at, ...job } = row;
    return tx.insertInto('pick_job').values({ ...job, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow().then((r) => Number(r.id));
  },

  async insertJobOrders(tx: Executor, rows: { job_id: number; order_id: number; slot: number }[]) {
    for (const part of chunks(rows)) await tx.insertInto('pick_job_order').values(part).execute();
  },

  async insertTasks(tx: Executor, rows: Insertable<PickTaskTable>[]) {
    for (const part of chunks(rows, 200)) await tx.insertInto('pick_task').values(part).execute();
  },

  async setWave(tx: Executor, orderIds: number[], waveId: number | null) {
    for (const part of chunks(orderIds)) await tx.updateTable('sales_order').set({ wave_id: waveId }).where('id', 'in', part).execute();
  },

  listWaves(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<WaveFilterValues>) {
    return listRows(dialect, wavesQuery(db, scope, req.filters ?? {}, dialect), waveColumns, req, WAVE_LIST);
  },

  findWave(db: Executor, scope: Scope, id: number) {
    return waveColumns(wavesQuery(db, scope, {}).where('w.id', '=', id)).executeTakeFirst();
  },

  listJobs(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<JobFilterValues>) {
    return listRows(dialect, jobsQuery(db, scope, req.filters ?? {}), jobColumns, req, JOB_LIST);
  },

  findJob(db: Executor, scope: Scope, id: number) {
    return jobColumns(jobsQuery(db, scope, {}).where('j.id', '=', id)).executeTakeFirst();
  },

  jobsOfWave(db: Executor, waveId: number) {
    return jobColumns(jobsQuery(db, Scope.everything, { waveId })).orderBy('j.id').execute();
  },

  /** Where a job belongs (unscoped: the service answers 403 or 404). */
  jobOwner(db: Executor, id: number) {
    return db.selectFrom('pick_job').select(['id', 'warehouse_id', 'wave_id', 'status']).where('id', '=', id).executeTakeFirst();
  },

  waveOwner(db: Executor, id: number) {
    return db.selectFrom('wave').select(['id', 'warehouse_id', 'status']).where('id', '=', id).executeTakeFirst();
  },

  /** A job's orders by slot, with their numbers and totes. */
  jobOrders(db: Executor, jobId: number) {
    return db.selectFrom('pick_job_order as jo').innerJoin('sales_order as o', 'o.id', 'jo.order_id').innerJoin('customer as c', 'c.id', 'o.customer_id')
      .leftJoin('location as t', 't.id', 'jo.tote_location_id')
      .select(['jo.slot', 'jo.order_id', 'o.so_number', 'c.name as customer_name', 'jo.tote_location_id', 't.code as tote_code'])
      .where('jo.job_id', '=', jobId).orderBy('jo.slot').execute();
  },

  /** A job's tasks in walking order, with their place, SKU, order and tote. */
  jobTasks(db: Executor, jobId: number) {
    return db.selectFrom('pick_task as t')
      .innerJoin('location as l', 'l.id', 't.location_id')
      .innerJoin('sku as s', 's.id', 't.sku_id')
      .innerJoin('sales_order as o', 'o.id', 't.order_id')
      .innerJoin('pick_job_order as jo', (j) => j.onRef('jo.job_id', '=', 't.job_id').onRef('jo.order_id', '=', 't.order_id'))
      .leftJoin('location as tote', 'tote.id', 'jo.tote_location_id')
      .select(['t.id', 't.seq', 't.order_id', 't.order_line_id', 't.sku_id', 't.location_id', 't.lot', 't.pallet', 't.quantity', 't.picked_qty', 't.short_qty', 't.status',
        'l.code as location_code', 'l.zone', 's.sku_code', 's.description', 's.is_lot_tracked', 'o.so_number', 'jo.slot', 'tote.code as tote_code',
        sql<string | null>`(select min(b.expiry_date) from inventory_balance b where b.location_id = t.location_id and b.sku_id = t.sku_id
          and b.customer_id = t.customer_id and b.lot = t.lot and b.pallet = t.pallet)`.as('expiry_date')])
      .where('t.job_id', '=', jobId).orderBy('t.seq').orderBy('jo.slot').orderBy('t.id').execute();
  },

  /** The picker's own job waiting for them (Assigned), most urgent first. */
  ownAssigned(db: Executor, warehouseId: number, userId: number) {
    return db.selectFrom('pick_job').select(['id']).where('warehouse_id', '=', warehouseId).where('assigned_to', '=', userId)
      .where('status', '=', 'Assigned').orderBy('priority').orderBy('id').limit(1).executeTakeFirst();
  },

  /** The next Open job of a warehouse (most urgent, then oldest), skipping those already tried. */
  nextOpen(db: Executor, warehouseId: number, skip: number[]) {
    return db.selectFrom('pick_job').select(['id']).where('warehouse_id', '=', warehouseId).where('status', '=', 'Open')
      .where('id', 'not in', [0, ...skip]).orderBy('priority').orderBy('id').limit(1).executeTakeFirst();
  },

  /** Whether a user may pick in a warehouse: active staff with the warehouse assigned (a super administrator has them all). */
  userOfWarehouse(db: Executor, userId: number, warehouseId: number, staffRoles: readonly string[]) {
    return db.selectFrom('app_user as u').select(['u.id', 'u.username', 'u.role'])
      .where('u.id', '=', userId).where('u.is_active', '=', 1).where('u.role', 'in', [...staffRoles])
      .where((eb) => eb.or([
        eb('u.role', '=', 'SuperAdministrator'),
        eb.exists(eb.selectFrom('user_warehouse as uw').select('uw.user_id').whereRef('uw.user_id', '=', 'u.id').where('uw.warehouse_id', '=', warehouseId)),
      ])).executeTakeFirst();
  },

  /** Locations of a warehouse by code (any case), with whether each holds stock, and the live job whose slot holds it as a tote (other than this job). */
  totes(db: Executor, warehouseId: number, codes: string[], jobId: number) {
    if (codes.length === 0) return Promise.resolve([]);
    return db.selectFrom('location as l')
      .select(['l.id', 'l.code', 'l.type', 'l.is_active',
        sql<number>`(select coalesce(sum(b.on_hand), 0) from inventory_balance b where b.location_id = l.id)`.as('on_hand'),
        sql<string | null>`(select min(j.job_number) from pick_job_order jo join pick_job j on j.id = jo.job_id
          where jo.tote_location_id = l.id and jo.job_id <> ${jobId} and j.status not in ('Done', 'Short', 'Cancelled'))`.as('busy_in')])
            // A scan matches the code whatever its case (codes are printed upper case; a keyboard wedge may send lower).
      .where('l.warehouse_id', '=', warehouseId).where(sql`upper(l.code)`, 'in', codes.map((c) => c.toUpperCase())).execute();
  },

  async setTotes(tx: Executor, jobId: number, totes: { slot: number; locationId: number }[]) {
    for (const t of totes) await tx.updateTable('pick_job_order').set({ tote_location_id: t.locationId }).where('job_id', '=', jobId).where('slot', '=', t.slot).execute();
  },

  /** Whether any unit of the wave was picked or found short (the wave can no longer be cancelled). */
  wavePickStarted(db: Executor, waveId: number) {
    return db.selectFrom('pick_task as t').innerJoin('pick_job as j', 'j.id', 't.job_id').select('t.id')
      .where('j.wave_id', '=', waveId).where((eb) => eb.or([eb('t.picked_qty', '>', 0), eb('t.short_qty', '>', 0)])).limit(1).executeTakeFirst()
      .then((r) => r !== undefined);
  },

  jobPickStarted(db: Executor, jobId: number) {
    return db.selectFrom('pick_task').select('id').where('job_id', '=', jobId)
      .where((eb) => eb.or([eb('picked_qty', '>', 0), eb('short_qty', '>', 0)])).limit(1).executeTakeFirst().then((r) => r !== undefined);
  },

  /** Orders of these jobs that are in no other live (not Cancelled) job: those go back when the jobs are cancelled. */
  ordersFreedBy(db: Executor, jobIds: number[]) {
    return db.selectFrom('pick_job_order as jo').innerJoin('sales_order as o', 'o.id', 'jo.order_id')
      .select(['o.id', 'o.so_number', 'o.status']).distinct()
      .where('jo.job_id', 'in', jobIds)
      .where(sql<boolean>`not exists (select 1 from pick_job_order x join pick_job xj on xj.id = x.job_id
        where x.order_id = jo.order_id and xj.status <> 'Cancelled' and x.job_id not in (${sql.join(jobIds)}))`)
      .execute();
  },
};

/**
 * One pick job as the picking screens read it (contracts' pickJobDetail): summary, totes by slot, stops in walking
 * order with their tasks, and the pick the user's UndoPick would take back (none without a user). Undefined outside
 * the scope. Picking reuses it.
 */
export async function readJobDetail(db: Executor, scope: Scope, jobId: number, userId: number | null): Promise<PickJobDetail | undefined> {
  const job = await wavesRepository.findJob(db, scope, jobId);
  if (!job) return undefined;
  const [orders, tasks, picks] = await Promise.all([wavesRepository.jobOrders(db, jobId), wavesRepository.jobTasks(db, jobId),
    userId === null ? [] : jobPickEvents(db, jobId, userId)]);
  return toJobDetail(job, orders, tasks, standingPick(picks));
}
