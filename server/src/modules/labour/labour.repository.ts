import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Scope } from '../../platform/scope.js';

const n = (v: unknown) => Number(v ?? 0);

export interface ShiftFilter { warehouseId?: number; from?: string; to?: string; userId?: number; openOnly?: boolean }

function shiftsWhere(db: Executor, scope: Scope, f: ShiftFilter) {
  let q = db.selectFrom('labour_shift as s').innerJoin('app_user as u', 'u.id', 's.user_id').innerJoin('warehouse as w', 'w.id', 's.warehouse_id')
    .where(scope.where({ warehouse: 's.warehouse_id' }, { warehouseId: f.warehouseId }));
  if (f.from) q = q.where('s.business_day', '>=', f.from);
  if (f.to) q = q.where('s.business_day', '<=', f.to);
  if (f.userId) q = q.where('s.user_id', '=', f.userId);
  if (f.openOnly) q = q.where('s.clock_out_ms', 'is', null);
  return q;
}

/**
 * Each shift's steps after its summed ones (report_labour_shift's mark; every step of a shift not summed), and
 * beside them the summed task seconds (report_labour_work, `stored`), in one statement: one snapshot, so a rollup
 * run between two reads counts nothing twice.
 */
function shiftEventsQuery(db: Executor, scope: Scope, f: ShiftFilter, nowMs: number, customerId?: number) {
  const steps = shiftsWhere(db, scope, f)
    .innerJoin('floor_event as e', (j) => j.onRef('e.user_id', '=', 's.user_id').onRef('e.at_ms', '>=', 's.clock_in_ms')
      .on('e.at_ms', '<=', sql<number>`coalesce(s.clock_out_ms, ${nowMs})`))
    .leftJoin('report_labour_shift as m', 'm.shift_id', 's.id')
    .select(['s.id as shift_id', 'e.kind', 'e.customer_id', sql<number | string | null>`e.at_ms`.as('at_ms'), sql<number | null>`e.seconds_since_previous`.as('gap'),
      sql<number | string | null>`NULL`.as('stored')])
    .where(scope.where({ customer: 'e.customer_id' }, { customerId }))
    .where(sql<boolean>`e.id > coalesce(m.event_mark, 0)`);
  const stored = shiftsWhere(db, scope, f).innerJoin('report_labour_work as lw', 'lw.shift_id', 's.id')
    .select(['s.id as shift_id', 'lw.kind', 'lw.customer_id', sql<number | string | null>`NULL`.as('at_ms'), sql<number | null>`NULL`.as('gap'),
      sql<number | string | null>`lw.seconds`.as('stored')])
    .where(scope.where({ customer: 'lw.customer_id' }, { customerId }));
  return steps.unionAll(stored);
}

export const labourRepository = {
  openShift(db: Executor, userId: number) {
    return db.selectFrom('labour_shift').selectAll().where('user_id', '=', userId).where('clock_out_ms', 'is', null).orderBy('id', 'desc').executeTakeFirst();
  },
  openBreak(db: Executor, shiftId: number) {
    return db.selectFrom('labour_break').selectAll().where('shift_id', '=', shiftId).where('end_ms', 'is', null).executeTakeFirst();
  },
  insertShift(db: Executor, row: { user_id: number; warehouse_id: number; business_day: string; clock_in: string; clock_in_ms: number }) {
    return db.insertInto('labour_shift').values(row).returning('id').executeTakeFirstOrThrow().then((r) => r.id);
  },
  /** Closes the shift only while it is open: 0 rows when another clock-out was first. */
  closeShift(db: Executor, shiftId: number, at: string, ms: number) {
    return db.updateTable('labour_shift').set({ clock_out: at, clock_out_ms: ms }).where('id', '=', shiftId).where('clock_out_ms', 'is', null)
      .executeTakeFirst().then((r) => Number(r.numUpdatedRows));
  },
  startBreak(db: Executor, shiftId: number, ms: number) {
    return db.insertInto('labour_break').values({ shift_id: shiftId, start_ms: ms }).execute();
  },
  endBreaks(db: Executor, shiftId: number, ms: number) {
    return db.updateTable('labour_break').set({ end_ms: ms }).where('shift_id', '=', shiftId).where('end_ms', 'is', null)
      .executeTakeFirst().then((r) => Number(r.numUpdatedRows));
  },

  /** Shifts of the warehouses in scope: those begun on the business days, or (open) those still running. */
  shifts(db: Executor, scope: Scope, f: ShiftFilter) {
    return shiftsWhere(db, scope, f)
      .select(['s.id', 's.user_id', 'u.username', 's.warehouse_id', 'w.name as warehouse_name', 'w.timezone', 's.business_day', 's.clock_in', 's.clock_in_ms', 's.clock_out', 's.clock_out_ms'])
      .orderBy('s.business_day').orderBy('u.username').orderBy('s.id').execute()
      .then((rows) => rows.map((r) => ({ ...r, clock_in_ms: n(r.clock_in_ms), clock_out_ms: r.clock_out_ms == null ? null : n(r.clock_out_ms) })));
  },
  breaks(db: Executor, shiftIds: number[]) {
    if (shiftIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('labour_break').select(['shift_id', 'start_ms', 'end_ms']).where('shift_id', 'in', shiftIds).execute()
      .then((rows) => rows.map((r) => ({ shift_id: r.shift_id, start_ms: n(r.start_ms), end_ms: r.end_ms == null ? null : n(r.end_ms) })));
  },
  /**
   * The floor steps of each of those shifts: its user's own between clock-in and clock-out (an open shift: up to
   * `nowMs`), with the client each was for (index floor_event_user per shift); a summed shift's sums and its later steps.
   */
  shiftEvents(db: Executor, scope: Scope, f: ShiftFilter, nowMs: number, customerId?: number) {
    return shiftEventsQuery(db, scope, f, nowMs, customerId).execute()
      .then((rows) => rows.map((r) => ({ shift_id: r.shift_id, kind: r.kind, customer_id: r.customer_id, at_ms: n(r.at_ms), gap: r.gap, stored: r.stored == null ? null : n(r.stored) })));
  },
  shiftEventsQuery,

  standards(db: Executor, warehouseId: number) {
    return db.selectFrom('labour_standard').select(['warehouse_id', 'kind', 'units_per_hour']).where('warehouse_id', '=', warehouseId).orderBy('kind').execute();
  },
  async saveStandards(db: Executor, warehouseId: number, standards: { kind: string; unitsPerHour: number }[], at: string) {
    await db.deleteFrom('labour_standard').where('warehouse_id', '=', warehouseId).where('kind', 'in', standards.map((s) => s.kind)).execute();
    await db.insertInto('labour_standard').values(standards.map((s) => ({ warehouse_id: warehouseId, kind: s.kind, units_per_hour: s.unitsPerHour, updated_at: at }))).execute();
  },
  rates(db: Executor, scope: Scope, customerId?: number) {
    return db.selectFrom('customer as c').leftJoin('labour_rate as r', 'r.customer_id', 'c.id')
      .select(['c.id as customer_id', 'c.name as customer_name', sql<number>`coalesce(r.rate_minor_per_hour, 0)`.as('rate')])
      .where(scope.where({ customer: 'c.id' }, { customerId })).orderBy('c.name').execute()
      .then((rows) => rows.map((r) => ({ customerId: r.customer_id, customerName: r.customer_name, rateMinorPerHour: n(r.rate) })));
  },
  async saveRate(db: Executor, customerId: number, rate: number, at: string) {
    await db.deleteFrom('labour_rate').where('customer_id', '=', customerId).execute();
    await db.insertInto('labour_rate').values({ customer_id: customerId, rate_minor_per_hour: rate, updated_at: at }).execute();
  },
};
