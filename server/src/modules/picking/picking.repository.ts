import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { PickTaskTable } from '../../db/tables/floor.js';

const n = (v: unknown) => Number(v ?? 0);

/** Statuses a job is finished in: nothing more is picked, short-picked or undone. */
export const FINISHED_JOB_STATUSES = ['Done', 'Short', 'Cancelled'] as const;

/** One task of a stop, with what the picker scans against: the place, the SKU, the order's slot and tote. */
export type StopTask = Awaited<ReturnType<typeof pickingRepository.stopTasks>>[number];

export const pickingRepository = {
  /** A job with its wave's number and status and who it is assigned to. */
  job(db: Executor, id: number) {
    return db.selectFrom('pick_job as j')
      .innerJoin('wave as w', 'w.id', 'j.wave_id')
      .leftJoin('app_user as u', 'u.id', 'j.assigned_to')
      .select(['j.id', 'j.job_number', 'j.wave_id', 'j.warehouse_id', 'j.strategy', 'j.zone', 'j.status', 'j.assigned_to', 'j.started_at',
        'j.finished_at', 'j.created_at', 'w.wave_number', 'w.status as wave_status', 'u.username as assigned_to_name'])
      .where('j.id', '=', id).executeTakeFirst();
  },

  /** The tasks of one stop (one seq of a job), in task order, with their place, SKU, order and tote. */
  stopTasks(db: Executor, jobId: number, seq: number) {
    return db.selectFrom('pick_task as t')
      .innerJoin('location as l', 'l.id', 't.location_id')
      .innerJoin('sku as s', 's.id', 't.sku_id')
      .innerJoin('sales_order as o', 'o.id', 't.order_id')
      .innerJoin('pick_job_order as jo', (j) => j.onRef('jo.job_id', '=', 't.job_id').onRef('jo.order_id', '=', 't.order_id'))
      .leftJoin('location as tl', 'tl.id', 'jo.tote_location_id')
      .select(['t.id', 't.seq', 't.order_id', 't.order_line_id', 't.warehouse_id', 't.customer_id', 't.sku_id', 't.location_id', 't.lot', 't.pallet',
        't.quantity', 't.picked_qty', 't.short_qty', 't.status', 'l.code as location_code', 's.sku_code', 'o.so_number', 'jo.slot',
        'jo.tote_location_id', 'tl.code as tote_code'])
      .where('t.job_id', '=', jobId).where('t.seq', '=', seq).orderBy('t.id').execute();
  },

  /** One task of a job, as stopTasks answers it. */
  async task(db: Executor, jobId: number, taskId: number) {
    const row = await db.selectFrom('pick_task').select('seq').where('id', '=', taskId).where('job_id', '=', jobId).executeTakeFirst();
    return row ? (await pickingRepository.stopTasks(db, jobId, row.seq)).find((t) => t.id === taskId) : undefined;
  },

  /**
   * Adds picked units to a task only while it is open and needs that many (one conditional statement: two pickers
   * never pick a task beyond its quantity); it becomes Picked when nothing is left. Answers whether it was taken.
   */
  async addPicked(tx: Executor, taskId: number, quantity: number) {
    const r = await sql<{ id: number }>`update pick_task set picked_qty = picked_qty + ${quantity},
        status = case when picked_qty + short_qty + ${quantity} >= quantity then 'Picked' else 'Open' end
      where id = ${taskId} and status = 'Open' and picked_qty + short_qty + ${quantity} <= quantity returning id`.execute(tx);
    return r.rows.length === 1;
  },

  /** Takes picked units back from a task (an undo); an open or picked task only. Answers whether it changed. */
  async removePicked(tx: Executor, taskId: number, quantity: number) {
    const r = await sql<{ id: number }>`update pick_task set picked_qty = picked_qty - ${quantity}, status = 'Open'
      where id = ${taskId} and status in ('Open', 'Picked') and picked_qty >= ${quantity} returning id`.execute(tx);
    return r.rows.length === 1;
  },

  /** Closes an open task short: what it still needed is its short quantity. Answers the units short (0: it was not open). */
  async closeShort(tx: Executor, taskId: number) {
    const r = await sql<{ short_qty: number }>`update pick_task set short_qty = quantity - picked_qty, status = 'Short'
      where id = ${taskId} and status = 'Open' returning short_qty`.execute(tx);
    return n(r.rows[0]?.short_qty);
  },

  /** An order line's picked units change by `delta` (never below 0: the column's check). */
  addLinePicked(tx: Executor, lineId: number, delta: number) {
    return tx.updateTable('sales_order_line').set((eb) => ({ picked_qty: eb('picked_qty', '+', delta) })).where('id', '=', lineId).execute();
  },

  /** The order lines a short pick allocates again: what they hold and how they are allocated. */
  lines(db: Executor, ids: number[]) {
    return db.selectFrom('sales_order_line as li').innerJoin('sales_order as o', 'o.id', 'li.order_id')
      .select(['li.id', 'li.order_id', 'li.sku_id', 'li.lot', 'li.units_per_package', 'li.allocated_qty', 'o.so_number', 'o.warehouse_id', 'o.customer_id'])
      .where('li.id', 'in', ids).orderBy('li.id').execute();
  },

  /** A line's allocated units change by `delta` and its short reason is set (null: nothing short). */
  setLineAllocation(tx: Executor, lineId: number, delta: number, shortReason: string | null) {
    return tx.updateTable('sales_order_line').set((eb) => ({ allocated_qty: eb('allocated_qty', '+', delta), short_reason: shortReason }))
      .where('id', '=', lineId).execute();
  },

  /** Open tasks of each order (across every job): an order with none left is picked. */
  async openTasksByOrder(db: Executor, orderIds: number[]) {
    const rows = await db.selectFrom('pick_task').select(['order_id', sql<number>`count(*)`.as('open')])
      .where('order_id', 'in', orderIds).where('status', '=', 'Open').groupBy('order_id').execute();
    return new Map(rows.map((r) => [r.order_id, n(r.open)]));
  },

  /** A job's tasks still open, and short. */
  async jobProgress(db: Executor, jobId: number) {
    const r = await db.selectFrom('pick_task').select([
      sql<number>`sum(case when status = 'Open' then 1 else 0 end)`.as('open'),
      sql<number>`sum(case when status = 'Short' then 1 else 0 end)`.as('short'),
    ]).where('job_id', '=', jobId).executeTakeFirstOrThrow();
    return { open: n(r.open), short: n(r.short) };
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
