import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Scope } from '../../platform/scope.js';
import type { FloorTaskKind } from '@bolx/contracts';

/** The pick job statuses still being worked: on the board whatever their age. */
export const ACTIVE_JOB_STATUSES = ['Open', 'Assigned', 'In Progress', 'Short'] as const;

export interface BoardWhere { scope: Scope; warehouseId?: number; customerId?: number; doneSince: string }

export const jobTrackingRepository = {
  /**
   * The jobs on the board (active, or done since `doneSince`) with their tasks summed within the caller's scope: a
   * client account sees only jobs holding its own orders, and only its own lines and units of them.
   */
  boardJobs(db: Executor, w: BoardWhere) {
    const onBoard = db.selectFrom('pick_job as bj').select('bj.id')
      .where(w.scope.where({ warehouse: 'bj.warehouse_id' }, { warehouseId: w.warehouseId }))
      .where((eb) => eb.or([
        eb('bj.status', 'in', [...ACTIVE_JOB_STATUSES]),
        eb.and([eb('bj.status', '=', 'Done'), eb('bj.finished_at', '>=', w.doneSince)]),
      ]));
    const tasks = db.selectFrom('pick_task as t')
      .select([
        't.job_id', sql<number>`count(*)`.as('lines'), sql<number>`sum(case when t.status <> 'Open' then 1 else 0 end)`.as('lines_picked'),
        sql<number>`sum(t.quantity)`.as('units'), sql<number>`sum(t.picked_qty)`.as('units_picked'), sql<number>`sum(t.short_qty)`.as('units_short'),
      ])
      .where('t.job_id', 'in', onBoard)
      .where(w.scope.where({ warehouse: 't.warehouse_id', customer: 't.customer_id' }, { warehouseId: w.warehouseId, customerId: w.customerId }))
      .groupBy('t.job_id');
    return db.selectFrom('pick_job as j')
      .innerJoin(tasks.as('ts'), 'ts.job_id', 'j.id')
      .innerJoin('wave as wv', 'wv.id', 'j.wave_id')
      .innerJoin('warehouse as wh', 'wh.id', 'j.warehouse_id')
      .leftJoin('app_user as u', 'u.id', 'j.assigned_to')
      .select((eb) => [
        'j.id', 'j.job_number', 'wv.wave_number', 'j.warehouse_id', 'wh.name as warehouse_name', 'j.zone', 'j.status', 'j.assigned_to', 'u.username as picker_name',
        'j.created_at', 'j.started_at', 'j.finished_at', 'ts.lines', 'ts.lines_picked', 'ts.units', 'ts.units_picked', 'ts.units_short',
        eb.selectFrom('floor_event as e').select(sql<string | null>`max(e.at)`.as('m')).whereRef('e.job_id', '=', 'j.id').as('last_pick_at'),
      ])
      .orderBy('j.created_at').orderBy('j.id')
      .execute();
  },

  /**
   * The other floor tasks on the list, each kind from its own documents (active, or finished since `doneSince`)
   * and the steps recorded on them; held to the caller's warehouses and clients like the documents' own lists.
   */
  async otherTasks(db: Executor, w: BoardWhere): Promise<RawTask[]> {
    const sc = (warehouse: string, customer: string) => w.scope.where({ warehouse, customer }, { warehouseId: w.warehouseId, customerId: w.customerId });
    const since = w.doneSince;
    const lineSums = db.selectFrom('receiving_order_line as l').select(['l.order_id', sql<number>`sum(l.received_qty)`.as('received'), sql<number>`sum(l.putaway_qty)`.as('put')]).groupBy('l.order_id');
    const [receive, putaway, pack, count, replenish, kit, rma] = await Promise.all([
      db.selectFrom('receiving_order as o')
        .select((eb) => [
          sql<string>`'receive'`.as('kind'), 'o.id', 'o.ro_number as reference', 'o.warehouse_id', 'o.customer_id', 'o.status', 'o.created_at', 'o.received_at as finished_at', 'o.expected_date as due',
          eb.selectFrom('receiving_receipt as r').select(sql<string | null>`min(r.at)`.as('m')).whereRef('r.order_id', '=', 'o.id').as('started_at'),
          eb.selectFrom('receiving_receipt as r').select(sql<string | null>`max(r.at)`.as('m')).whereRef('r.order_id', '=', 'o.id').as('last_at'),
          eb.selectFrom('receiving_receipt as r').select(sql<string | null>`max(r.username)`.as('m')).whereRef('r.order_id', '=', 'o.id').as('who'),
        ])
        .where(sc('o.warehouse_id', 'o.customer_id'))
        .where((eb) => eb.or([eb('o.status', 'in', ['Open', 'Receiving']), eb.and([eb('o.status', 'in', ['Received', 'Closed']), eb('o.received_at', '>=', since)])]))
        .execute(),
      db.selectFrom('receiving_order as o')
        .innerJoin(lineSums.as('q'), 'q.order_id', 'o.id')
        .select((eb) => [
          sql<string>`'putaway'`.as('kind'), 'o.id', 'o.ro_number as reference', 'o.warehouse_id', 'o.customer_id', 'q.received', 'q.put', 'o.received_at as created_at',
          eb.selectFrom('receiving_putaway as p').select(sql<string | null>`min(p.at)`.as('m')).whereRef('p.order_id', '=', 'o.id').as('started_at'),
          eb.selectFrom('receiving_putaway as p').select(sql<string | null>`max(p.at)`.as('m')).whereRef('p.order_id', '=', 'o.id').as('last_at'),
          eb.selectFrom('receiving_putaway as p').select(sql<string | null>`max(p.username)`.as('m')).whereRef('p.order_id', '=', 'o.id').as('who'),
        ])
        .where(sc('o.warehouse_id', 'o.customer_id'))
        .where('o.status', 'in', ['Receiving', 'Received', 'Closed'])
        .where('q.received', '>', 0)
        .where((eb) => eb.or([eb('q.put', '<', eb.ref('q.received')), eb.exists(eb.selectFrom('receiving_putaway as p').select('p.id').whereRef('p.order_id', '=', 'o.id').where('p.at', '>=', since))]))
        .execute(),
      db.selectFrom('carton as c').leftJoin('app_user as u', 'u.id', 'c.packed_by')
        .select([sql<string>`'pack'`.as('kind'), 'c.id', 'c.carton_number as reference', 'c.warehouse_id', 'c.customer_id', 'c.status', 'c.created_at', 'c.created_at as started_at', 'c.closed_at as finished_at', 'u.username as who'])
        .where(sc('c.warehouse_id', 'c.customer_id'))
        .where((eb) => eb.or([eb('c.status', '=', 'Open'), eb('c.closed_at', '>=', since)]))
        .execute(),
      db.selectFrom('cycle_count as cc')
        .select((eb) => [
          sql<string>`'count'`.as('kind'), 'cc.id', 'cc.count_no as reference', 'cc.warehouse_id', 'cc.customer_id', 'cc.status', 'cc.created_at', 'cc.approved_at',
          eb.selectFrom('cycle_count_line as l').select(sql<string | null>`min(l.counted_at)`.as('m')).whereRef('l.cycle_count_id', '=', 'cc.id').as('started_at'),
          eb.selectFrom('cycle_count_line as l').select(sql<string | null>`max(coalesce(l.recounted_at, l.counted_at))`.as('m')).whereRef('l.cycle_count_id', '=', 'cc.id').as('last_at'),
          eb.selectFrom('cycle_count_line as l').innerJoin('app_user as u', 'u.id', 'l.counted_by').select(sql<string | null>`max(u.username)`.as('m')).whereRef('l.cycle_count_id', '=', 'cc.id').as('who'),
        ])
        .where(sc('cc.warehouse_id', 'cc.customer_id'))
        .where((eb) => eb.or([eb('cc.status', 'in', ['Open', 'Recount', 'Counted']), eb('cc.approved_at', '>=', since)]))
        .execute(),
      db.selectFrom('replenishment_task as r').leftJoin('app_user as u', 'u.id', 'r.completed_by')
        .select([sql<string>`'replenish'`.as('kind'), 'r.id', 'r.warehouse_id', 'r.customer_id', 'r.status', 'r.created_at', 'r.completed_at as finished_at', 'u.username as who'])
        .where(sc('r.warehouse_id', 'r.customer_id'))
        .where((eb) => eb.or([eb('r.status', '=', 'Open'), eb.and([eb('r.status', '=', 'Completed'), eb('r.completed_at', '>=', since)])]))
        .execute(),
      db.selectFrom('kit_work_order as k').leftJoin('app_user as u', 'u.id', 'k.completed_by')
        .select([sql<string>`'kit'`.as('kind'), 'k.id', 'k.wo_number as reference', 'k.warehouse_id', 'k.customer_id', 'k.status', 'k.created_at', 'k.completed_at as finished_at', 'u.username as who'])
        .where(sc('k.warehouse_id', 'k.customer_id'))
        .where((eb) => eb.or([eb('k.status', '=', 'Open'), eb.and([eb('k.status', '=', 'Completed'), eb('k.completed_at', '>=', since)])]))
        .execute(),
      db.selectFrom('rma as m')
        .select((eb) => [
          sql<string>`'rma-receipt'`.as('kind'), 'm.id', 'm.rma_number as reference', 'm.warehouse_id', 'm.customer_id', 'm.status', 'm.created_at', 'm.expires_on as due',
          eb.selectFrom('return_item as i').select(sql<string | null>`min(i.received_at)`.as('m')).whereRef('i.rma_id', '=', 'm.id').as('started_at'),
          eb.selectFrom('return_item as i').select(sql<string | null>`max(i.received_at)`.as('m')).whereRef('i.rma_id', '=', 'm.id').as('last_at'),
          eb.selectFrom('return_item as i').innerJoin('app_user as u', 'u.id', 'i.received_by').select(sql<string | null>`max(u.username)`.as('m')).whereRef('i.rma_id', '=', 'm.id').as('who'),
        ])
        .where(sc('m.warehouse_id', 'm.customer_id'))
        .where((eb) => eb.or([
          eb('m.status', 'in', ['Authorised', 'In Transit']),
          eb.exists(eb.selectFrom('return_item as i').select('i.id').whereRef('i.rma_id', '=', 'm.id').where('i.received_at', '>=', since)),
        ]))
        .execute(),
    ]);
    const done = (status: string, ...doneAs: string[]) => doneAs.includes(status);
    const stage = (finished: boolean, started: unknown) => (finished ? 'Done' : started ? 'In Progress' : 'Open') as RawTask['status'];
    return [
      ...receive.map((r) => ({ ...r, reference: r.reference, status: stage(done(r.status, 'Received', 'Closed'), r.started_at), due: r.due })),
      ...putaway.map((r) => {
        const finished = Number(r.put) >= Number(r.received);
        return { ...r, created_at: r.created_at ?? r.started_at ?? '', status: stage(finished, r.started_at), finished_at: finished ? r.last_at : null, due: null };
      }),
      ...pack.map((r) => ({ ...r, status: stage(r.status === 'Closed', true), last_at: r.finished_at ?? r.created_at, due: null })),
      ...count.map((r) => {
        const finished = done(r.status, 'Counted', 'Approved');
        return { ...r, status: stage(finished, r.started_at), finished_at: finished ? r.approved_at ?? r.last_at : null, due: null };
      }),
      ...replenish.map((r) => ({ ...r, reference: `Replenishment ${r.id}`, status: stage(r.status === 'Completed', false), started_at: r.finished_at, last_at: r.finished_at, due: null })),
      ...kit.map((r) => ({ ...r, status: stage(r.status === 'Completed', false), started_at: r.finished_at, last_at: r.finished_at, due: null })),
      ...rma.map((r) => {
        const finished = !done(r.status, 'Authorised', 'In Transit');
        return { ...r, status: stage(finished, r.started_at), finished_at: finished ? r.last_at : null, due: r.due };
      }),
    ].map((r) => ({
      kind: r.kind as RawTask['kind'], id: Number(r.id), reference: r.reference, warehouse_id: Number(r.warehouse_id), customer_id: r.customer_id == null ? null : Number(r.customer_id),
      status: r.status, who: r.who ?? null, created_at: r.created_at, started_at: r.started_at ?? null, finished_at: r.finished_at ?? null, last_at: r.last_at ?? null, due: r.due ?? null,
    }));
  },
};

/** A task as read, before its duration and late/stuck flags are worked out. */
export interface RawTask {
  kind: FloorTaskKind; id: number; reference: string; warehouse_id: number; customer_id: number | null; status: 'Open' | 'In Progress' | 'Done'; who: string | null;
  created_at: string; started_at: string | null; finished_at: string | null; last_at: string | null;
  /** A date the task is late after (an RO's expected date, an RMA's expiry), or null. */
  due: string | null;
}
