import { sql, type Insertable, type RawBuilder } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import { sendAhead } from '../../db/pg-driver.js';
import type { Executor } from '../../db/schema.js';
import { lockJoinedRowsAsMutex, type Dialect } from '../../db/dialect.js';
import type { PickTaskTable } from '../../db/tables/floor.js';
import { floorEventInsert, type FloorEventValues } from '../../platform/floor-events.js';

const n = (v: unknown) => Number(v ?? 0);

/** Statuses a job is finished in: nothing more is picked, short-picked or undone. */
export const FINISHED_JOB_STATUSES = ['Done', 'Short', 'Cancelled'] as const;

/** One task of a stop, with what the picker scans against and what the stop shows: place, SKU, order (and its status), slot and tote. */
export type StopTask = Awaited<ReturnType<typeof stopTasksOnce>>[number];

/** A job as picking works on it: its row, its wave's number and status, who has it and how many orders it picks for. */
export interface PickingJob {
  id: number; job_number: string; wave_id: number; warehouse_id: number; strategy: string; zone: string | null; status: string;
  assigned_to: number | null; started_at: string | null; finished_at: string | null; created_at: string;
  wave_number: string; wave_status: string; assigned_to_name: string | null; order_count: number;
}

/** pick_job's columns, named. */
const JOB_COLUMNS = ['id', 'job_number', 'wave_id', 'warehouse_id', 'strategy', 'zone', 'status', 'assigned_to', 'priority', 'started_at', 'finished_at', 'created_at', 'updated_at'] as const;

/** The job's columns picking answers with, beside its own row: correlated reads of its wave, assignee and orders. */
const jobExtras: Record<string, RawBuilder<unknown>> = {
  wave_number: sql`(select w.wave_number from wave w where w.id = pick_job.wave_id)`,
  wave_status: sql`(select w.status from wave w where w.id = pick_job.wave_id)`,
  assigned_to_name: sql`(select u.username from app_user u where u.id = pick_job.assigned_to)`,
  order_count: sql`(select count(*) from pick_job_order jo where jo.job_id = pick_job.id)`,
};
/** The extras as the status machine's `returning` takes them. */
export const jobReturning = Object.entries(jobExtras).map(([name, expr]) => expr.as(name));

/**
 * pickingRepository.holdOwn's statement, compiled once per engine: every step of a job sends it first. PostgreSQL
 * locks the row as an update would (FOR NO KEY UPDATE) without writing it: an UPDATE made a new version of the
 * job's row at every pick (1,000 picks of 8 jobs, 1,000 dead versions on their page). SQLite runs one transaction
 * at a time; its UPDATE makes the transaction a writer from its first statement.
 */
const holdOwnOnce = compiledOnce((engine: Dialect['engine']) => engine, (_db, engine, jobId: number, userId: number, at: string) => {
  const extras = sql.join(Object.entries(jobExtras).map(([name, expr]) => sql`${expr} as ${sql.ref(name)}`));
  const mine = sql`id = ${jobId} and status = 'In Progress' and assigned_to = ${userId}`;
  // Named columns, not *: PostgreSQL prepares the statement once per connection (db/pg-prepared.ts).
  const columns = sql.raw(JOB_COLUMNS.join(', '));
  return engine === 'postgres'
    ? sql<PickingJob>`select ${columns}, ${extras} from pick_job where ${mine} for no key update`
    : sql<PickingJob>`update pick_job set updated_at = ${at} where ${mine} returning ${columns}, ${extras}`;
});

/**
 * PostgreSQL: holdOwnOnce's hold and a stop's tasks (stopTasks, its orders taken) in one statement: every pick
 * reads both, one round trip fewer. The stop is read only once the job's row is held (a lateral join on it, so the
 * job's row is always taken before the orders', as in two statements); no row when the job is not held.
 */
const holdWithStopOnce = compiledOnce(() => 'postgres', (db, _s: null, jobId: number, userId: number, seq: number) => {
  const extras = sql.join(Object.entries(jobExtras).map(([name, expr]) => sql`${expr} as ${sql.ref(name)}`));
  const held = sql.raw(JOB_FIELDS.map((c) => `j.${c} as j_${c}`).join(', '));
  const stop = stopQuery(db).where(sql<boolean>`t.job_id = j.id`).where('t.seq', '=', seq).orderBy('t.id').forNoKeyUpdate('o');
  return sql<Record<string, unknown>>`with j as materialized (
      select ${sql.raw(JOB_COLUMNS.join(', '))}, ${extras} from pick_job where id = ${jobId} and status = 'In Progress' and assigned_to = ${userId} for no key update)
    select ${held}, s.* from j left join lateral (${stop}) s on true`;
});
/** Every field of a PickingJob, as holdWithStopOnce answers them (prefixed j_). */
const JOB_FIELDS = [...JOB_COLUMNS, ...Object.keys(jobExtras)];

/** `CASE id WHEN … THEN … END` over rows keyed by id: one statement changes each row by its own amount. */
function byId(rows: { id: number; value: number }[]): RawBuilder<number> {
  return sql<number>`(case id ${sql.join(rows.map((r) => sql`when ${r.id} then ${r.value}`), sql` `)} else 0 end)`;
}

/** The tasks of a stop as they read, with their place, SKU, order and tote (the job's stop view and the scans' expectation). */
function stopQuery(db: Executor) {
  return db.selectFrom('pick_task as t')
    .innerJoin('location as l', 'l.id', 't.location_id')
    .innerJoin('sku as s', 's.id', 't.sku_id')
    .innerJoin('sales_order as o', 'o.id', 't.order_id')
    .innerJoin('pick_job_order as jo', (j) => j.onRef('jo.job_id', '=', 't.job_id').onRef('jo.order_id', '=', 't.order_id'))
    .leftJoin('location as tl', 'tl.id', 'jo.tote_location_id')
    .select(['t.id', 't.seq', 't.order_id', 't.order_line_id', 't.warehouse_id', 't.customer_id', 't.sku_id', 't.location_id', 't.lot', 't.pallet',
      't.quantity', 't.picked_qty', 't.short_qty', 't.status', 'l.code as location_code', 'l.zone', 's.sku_code', 's.description', 's.is_lot_tracked',
      'o.so_number', 'o.status as order_status', 'jo.slot', 'jo.tote_location_id', 'tl.code as tote_code',
      sql<string | null>`(select min(b.expiry_date) from inventory_balance b where b.warehouse_id = t.warehouse_id and b.location_id = t.location_id and b.sku_id = t.sku_id
        and b.customer_id = t.customer_id and b.lot = t.lot and b.pallet = t.pallet)`.as('expiry_date')]);
}

/** A stop's tasks, compiled once per engine and locking: every scan and pick reads one. */
const stopTasksOnce = compiledOnce((s: { dialect: Dialect; lock: boolean }) => String(s.lock), (db, s, jobId: number, seq: number) => {
  const q = stopQuery(db).where('t.job_id', '=', jobId).where('t.seq', '=', seq).orderBy('t.id');
  return s.lock ? lockJoinedRowsAsMutex(s.dialect, q, 'o') : q;
});

/** pickingRepository.pickAndProgress's statement. `values`: the tasks' (id, quantity), the lines' (id, delta), the order ids, then the events'. */
const pickAndProgressOnce = compiledOnce(
  (s: { takes: number; deltas: number; orders: number; events: number; withUser: boolean }) => `${s.takes}|${s.deltas}|${s.orders}|${s.events}|${s.withUser}`,
  (db, s, jobId: number, ...values: unknown[]) => {
    const pairs = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: values[from + 2 * i] as number, value: values[from + 2 * i + 1] as number }));
    const takes = pairs(0, s.takes);
    const deltas = pairs(2 * s.takes, s.deltas);
    const orderIds = values.slice(2 * (s.takes + s.deltas), 2 * (s.takes + s.deltas) + s.orders);
    const events = floorEventInsert(db, { count: s.events, withUser: s.withUser, values: values.slice(2 * (s.takes + s.deltas) + s.orders) });
    const delta = byId(takes);
    const ids = sql.join(takes.map((t) => t.id));
    const status = sql`(case when id in (${ids}) and picked_qty + short_qty + ${delta} >= quantity then 'Picked' else status end)`;
    return sql<ProgressRow & { kind: string; id: number | null; quantity: number; allocated_qty: number; picked_qty: number }>`
      with taken as (
        update pick_task set picked_qty = picked_qty + ${delta},
          status = case when picked_qty + short_qty + ${delta} >= quantity then 'Picked' else 'Open' end
        where id in (${ids}) and status = 'Open' and picked_qty + short_qty + ${delta} <= quantity returning id
      ), lines as (
        update sales_order_line set picked_qty = picked_qty + ${byId(deltas)}
        where id in (${sql.join(deltas.map((d) => d.id))}) returning id, order_id, quantity, allocated_qty, picked_qty
      ), events as (${events}), progress as (${progressSelect(jobId, orderIds as number[], status, sql`picked_qty + ${delta}`)})
      select 'progress' as kind, null as id, p.order_id, p.stops, p.open_stops, p.open, p.short, p.units, p.picked, p.short_units,
        0 as quantity, 0 as allocated_qty, 0 as picked_qty from progress p
      union all select 'task', id, null, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 from taken
      union all select 'line', id, order_id, 0, 0, 0, 0, 0, 0, 0, quantity, allocated_qty, picked_qty from lines
      union all select 'event', id, null, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 from events`;
  },
);

interface ProgressRow { order_id: number | null; stops: number; open_stops: number; open: number; short: number; units: number; picked: number; short_units: number }

/**
 * The progress read: the job's totals (order_id null), then each of some orders' open tasks in any job. `status` and
 * `picked` are the task's columns, or what a statement's own update makes of them (pickAndProgress).
 */
function progressSelect(jobId: number, orderIds: number[], status: RawBuilder<unknown>, picked: RawBuilder<unknown>) {
  const orders = orderIds.length
    ? sql`union all select order_id, 0, 0, count(*), 0, 0, 0, 0 from pick_task where order_id in (${sql.join(orderIds)}) and ${status} = 'Open' group by order_id`
    : sql``;
  return sql`select null as order_id, count(distinct seq) as stops, count(distinct case when ${status} = 'Open' then seq end) as open_stops,
      sum(case when ${status} = 'Open' then 1 else 0 end) as open, sum(case when ${status} = 'Short' then 1 else 0 end) as short,
      coalesce(sum(quantity), 0) as units, coalesce(sum(${picked}), 0) as picked, coalesce(sum(short_qty), 0) as short_units
    from pick_task where job_id = ${jobId}
    ${orders}`;
}

function progressOf(rows: ProgressRow[]) {
  const job = rows.find((x) => x.order_id === null)!;
  return {
    stops: n(job.stops), stopsDone: n(job.stops) - n(job.open_stops), open: n(job.open), short: n(job.short),
    units: n(job.units), pickedUnits: n(job.picked), shortUnits: n(job.short_units),
    openByOrder: new Map(rows.filter((x) => x.order_id !== null).map((x) => [n(x.order_id), n(x.open)])),
  };
}
export type PickProgress = ReturnType<typeof progressOf>;

export const pickingRepository = {
  /** A job with its wave's number and status, who it is assigned to and its order count. */
  job(db: Executor, id: number): Promise<PickingJob | undefined> {
    return db.selectFrom('pick_job').selectAll('pick_job')
      .select(Object.entries(jobExtras).map(([name, expr]) => expr.as(name)))
      .where('pick_job.id', '=', id).executeTakeFirst() as Promise<PickingJob | undefined>;
  },

  /**
   * Takes the job's row until commit when it is In Progress and the user's (every pick after a job's first): the
   * statement that makes two requests on one job take turns, and answers the job. Undefined otherwise (the first
   * pick, another picker's job, a finished one): the caller then claims it through the status machine, or refuses.
   */
  async holdOwn(tx: Executor, dialect: Dialect, jobId: number, userId: number, at: string): Promise<PickingJob | undefined> {
    return (await holdOwnOnce(tx, dialect.engine, jobId, userId, at))[0];
  },

  /**
   * holdOwn and, once held, stopTasks(…, lock) in one round trip where the engine can (PostgreSQL); elsewhere the
   * two statements. `tasks` is undefined when the job was not held (nothing read).
   */
  async holdOwnWithStop(tx: Executor, dialect: Dialect, jobId: number, userId: number, seq: number, at: string): Promise<{ job?: PickingJob; tasks?: StopTask[] }> {
    if (dialect.engine !== 'postgres') {
      const job = await pickingRepository.holdOwn(tx, dialect, jobId, userId, at);
      return job ? { job, tasks: await pickingRepository.stopTasks(tx, dialect, jobId, seq, true) } : {};
    }
    const rows = await holdWithStopOnce(tx, null, jobId, userId, seq);
    if (rows.length === 0) return {};
    const job = Object.fromEntries(JOB_FIELDS.map((c) => [c, rows[0][`j_${c}`]])) as unknown as PickingJob;
    const tasks = rows.filter((r) => r.id !== null).map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('j_')))) as unknown as StopTask[];
    return { job, tasks };
  },

  /**
   * The tasks of one stop (one seq of a job), in task order. When `lock`, their orders' rows are taken until commit
   * (PostgreSQL; SQLite runs one transaction at a time): an order whose tasks lie in several jobs (zone picking) is
   * then settled by one picker at a time, each counting what the other left open after it committed.
   */
  stopTasks(db: Executor, dialect: Dialect, jobId: number, seq: number, lock = false) {
    return stopTasksOnce(db, { dialect, lock }, jobId, seq);
  },

  /** The tasks of the stop a task belongs to (an undo's), orders taken as stopTasks does. */
  stopOfTask(db: Executor, dialect: Dialect, jobId: number, taskId: number) {
    const q = stopQuery(db).where('t.job_id', '=', jobId)
      .where('t.seq', '=', (eb) => eb.selectFrom('pick_task as x').select('x.seq').where('x.id', '=', taskId).where('x.job_id', '=', jobId))
      .orderBy('t.id');
    return lockJoinedRowsAsMutex(dialect, q, 'o').execute();
  },

  /** The tasks of some stops of a job (a short pick's stop and the stops it added), in walking order. */
  stops(db: Executor, jobId: number, seqs: number[]) {
    return stopQuery(db).where('t.job_id', '=', jobId).where('t.seq', 'in', seqs).orderBy('t.seq').orderBy('jo.slot').orderBy('t.id').execute();
  },

  /**
   * Adds picked units to tasks, each only while it is open and needs that many (one conditional statement for all:
   * two pickers never pick a task beyond its quantity); a task becomes Picked when nothing is left. Answers the
   * tasks taken (a task missing: it changed meanwhile).
   */
  async addPicked(tx: Executor, takes: { taskId: number; quantity: number }[]) {
    if (takes.length === 0) return 0;
    const delta = byId(takes.map((t) => ({ id: t.taskId, value: t.quantity })));
    const r = await sql<{ id: number }>`update pick_task set picked_qty = picked_qty + ${delta},
        status = case when picked_qty + short_qty + ${delta} >= quantity then 'Picked' else 'Open' end
      where id in (${sql.join(takes.map((t) => t.taskId))}) and status = 'Open' and picked_qty + short_qty + ${delta} <= quantity returning id`.execute(tx);
    return r.rows.length;
  },

  /** Takes picked units back from a task (an undo); an open or picked task only. Answers whether it changed. */
  async removePicked(tx: Executor, taskId: number, quantity: number) {
    const r = await sql<{ id: number }>`update pick_task set picked_qty = picked_qty - ${quantity}, status = 'Open'
      where id = ${taskId} and status in ('Open', 'Picked') and picked_qty >= ${quantity} returning id`.execute(tx);
    return r.rows.length === 1;
  },

  /** Closes a stop's open tasks short: what each still needed is its short quantity. Answers them (id, units short). */
  async closeShort(tx: Executor, jobId: number, seq: number) {
    const r = await sql<{ id: number; short_qty: number }>`update pick_task set short_qty = quantity - picked_qty, status = 'Short'
      where job_id = ${jobId} and seq = ${seq} and status = 'Open' returning id, short_qty`.execute(tx);
    return r.rows.map((x) => ({ id: n(x.id), quantity: n(x.short_qty) }));
  },

  /** Order lines' picked units change, each by its own delta (never below 0: the column's check); answers them as they now are. */
  async addLinesPicked(tx: Executor, deltas: { lineId: number; delta: number }[]) {
    if (deltas.length === 0) return [];
    const r = await sql<LineRow>`update sales_order_line set picked_qty = picked_qty + ${byId(deltas.map((d) => ({ id: d.lineId, value: d.delta })))}
      where id in (${sql.join(deltas.map((d) => d.lineId))}) returning id, order_id, quantity, allocated_qty, picked_qty`.execute(tx);
    return r.rows;
  },

  /** The order lines a short pick allocates again: what they hold and how they are allocated. */
  lines(db: Executor, ids: number[]) {
    return db.selectFrom('sales_order_line as li').innerJoin('sales_order as o', 'o.id', 'li.order_id')
      .select(['li.id', 'li.order_id', 'li.sku_id', 'li.lot', 'li.units_per_package', 'li.allocated_qty', 'o.so_number', 'o.warehouse_id', 'o.customer_id'])
      .where('li.id', 'in', ids).orderBy('li.id').execute();
  },

  /** A line's allocated units change by `delta` and its short reason is set (null: nothing short); answers it as it now is. */
  setLineAllocation(tx: Executor, lineId: number, delta: number, shortReason: string | null) {
    return tx.updateTable('sales_order_line').set((eb) => ({ allocated_qty: eb('allocated_qty', '+', delta), short_reason: shortReason }))
      .where('id', '=', lineId).returning(['id', 'order_id', 'quantity', 'allocated_qty', 'picked_qty']).executeTakeFirstOrThrow();
  },

  /**
   * A job's progress after a step, and the open tasks of some orders across every job (an order with none left is
   * picked), in one statement: the job's row first (order_id null), then one row per order with open tasks.
   */
  async progress(db: Executor, jobId: number, orderIds: number[]) {
    const r = await sql<ProgressRow>`${progressSelect(jobId, orderIds, sql`status`, sql`picked_qty`)}`.execute(db);
    return progressOf(r.rows);
  },

  /**
   * PostgreSQL: addPicked, addLinesPicked, progress and the step's floor events (`events`, an insert answering their
   * ids) in one statement (data-modifying WITHs), compiled once per shape (how many tasks, lines, orders and events).
   * Its reads see the tasks as they were before the statement (PostgreSQL's rule for WITH), so they read each taken
   * task as the update leaves it: the same expressions. Sent with the transaction's next statement (sendAhead):
   * `result()`, read after that, answers the tasks taken (fewer than asked: one changed meanwhile), the lines as they
   * now are and the progress after the step.
   */
  async pickAndProgress(tx: Executor, takes: { taskId: number; quantity: number }[], deltas: { lineId: number; delta: number }[], jobId: number, orderIds: number[],
    events: FloorEventValues) {
    const shape = { takes: takes.length, deltas: deltas.length, orders: orderIds.length, events: events.count, withUser: events.withUser };
    // Nothing in the step's next statement (the stock engine's) depends on it: the two go in one round trip.
    const sent = await sendAhead(tx, pickAndProgressOnce.compiled(tx, shape, jobId, ...takes.flatMap((t) => [t.taskId, t.quantity]),
      ...deltas.flatMap((d) => [d.lineId, d.delta]), ...orderIds, ...events.values));
    return {
      async result() {
        const rows = await sent.rows();
        return {
          taken: rows.filter((x) => x.kind === 'task').length,
          lines: rows.filter((x) => x.kind === 'line').map((x): LineRow => ({ id: n(x.id), order_id: n(x.order_id), quantity: n(x.quantity), allocated_qty: n(x.allocated_qty), picked_qty: n(x.picked_qty) })),
          progress: progressOf(rows.filter((x) => x.kind === 'progress')),
          eventIds: rows.filter((x) => x.kind === 'event').map((x) => n(x.id)).sort((a, b) => a - b),
        };
      },
    };
  },

  /** Takes the wave's row until commit (so two jobs finishing at once see each other before deciding it is done). */
  lockWave(tx: Executor, waveId: number, at: string) {
    return tx.updateTable('wave').set({ updated_at: at }).where('id', '=', waveId).returning(['id', 'status', 'wave_number', 'warehouse_id']).executeTakeFirstOrThrow();
  },

  async unfinishedJobs(db: Executor, waveId: number) {
    const r = await db.selectFrom('pick_job').select(sql<number>`count(*)`.as('n'))
      .where('wave_id', '=', waveId).where('status', 'not in', [...FINISHED_JOB_STATUSES]).executeTakeFirstOrThrow();
    return n(r.n);
  },

  async lastSeq(db: Executor, jobId: number) {
    const r = await db.selectFrom('pick_task').select(sql<number>`max(seq)`.as('seq')).where('job_id', '=', jobId).executeTakeFirst();
    return n(r?.seq);
  },

  insertTasks(tx: Executor, rows: Insertable<PickTaskTable>[]) {
    return rows.length ? tx.insertInto('pick_task').values(rows).execute() : Promise.resolve([]);
  },

  /** Location codes by id (new stops are ordered along the path by code). */
  async locationCodes(db: Executor, ids: number[]) {
    if (ids.length === 0) return new Map<number, string>();
    const rows = await db.selectFrom('location').select(['id', 'code']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.code]));
  },
};

/** An order line as a picking step answers it. */
export interface LineRow { id: number; order_id: number; quantity: number; allocated_qty: number; picked_qty: number }
