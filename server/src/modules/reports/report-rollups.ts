import { sql, type RawBuilder } from 'kysely';
import { z } from 'zod';
import { LABOUR_IDLE_GAP_SECONDS } from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Jobs, Schedules } from '../../platform/jobs/index.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import { settledMarks } from '../billing/accrual.js';
import { groupBy, stepSeconds } from '../labour/labour.service.js';

/**
 * The reports' rollups (migration 0045): the activity log summed per day (productivity) and per closed shift
 * (labour), each up to a mark — the last floor_event id it holds. A report reads the sums and the events after
 * the mark in one statement (one snapshot), so it is exact whether the job ran a minute or a month ago.
 */
export const FLOOR_ROLLUP = 'floor';

/** The mark of a rollup inside a statement (0 before the first run): read in the statement that reads the sums. */
export const markOf = (name: string): RawBuilder<number> =>
  sql<number>`COALESCE((SELECT m.last_id FROM report_rollup_mark m WHERE m.name = ${name}), 0)`;

/**
 * The activity log's events after `after` (up to `upTo`) summed per warehouse, client, user, task type and business
 * day, as report_floor_day holds them. An order line whose events up to `after` already count it (same key) is not
 * counted again: the sums' distinct lines stay distinct.
 */
export function floorDayDelta(db: Executor, d: Dialect, after: RawBuilder<number> | number, upTo: number | null, counted: boolean) {
  const line = counted
    ? sql<number>`COUNT(DISTINCT CASE WHEN NOT EXISTS (SELECT 1 FROM floor_event p WHERE p.order_line_id = e.order_line_id AND p.user_id = e.user_id
        AND p.id <= ${after} AND p.kind = e.kind AND p.business_day = e.business_day AND p.warehouse_id = e.warehouse_id AND p.customer_id = e.customer_id)
        THEN e.order_line_id END)`
    : sql<number>`COUNT(DISTINCT e.order_line_id)`;
  let events = db.selectFrom('floor_event as f')
    .select(['f.id', 'f.warehouse_id', 'f.customer_id', 'f.user_id', 'f.kind', 'f.business_day', 'f.order_line_id', 'f.quantity', 'f.seconds_since_previous'])
    .where('f.id', '>', after).where('f.user_id', 'is not', null);
  if (upTo !== null) events = events.where('f.id', '<=', upTo);
  // Only the events after the mark, by id, whatever filters the caller adds: a subquery the planner keeps whole
  // (SQLite flattens none with a LIMIT, PostgreSQL none with an OFFSET), else it may read a year by warehouse and day.
  const afterMark = d.engine === 'postgres' ? events.offset(0) : events.limit(-1);
  return db.selectFrom(afterMark.as('e'))
    .select([
      'e.warehouse_id', 'e.customer_id', sql<number>`e.user_id`.as('user_id'), 'e.kind', 'e.business_day',
      sql<number>`COUNT(*)`.as('steps'), sql<number>`COALESCE(SUM(e.quantity), 0)`.as('units'), line.as('lines'),
      sql<number>`COALESCE(SUM(CASE WHEN e.seconds_since_previous <= ${LABOUR_IDLE_GAP_SECONDS} THEN e.seconds_since_previous ELSE 0 END), 0)`.as('seconds'),
    ]);
}
export const FLOOR_DAY_KEY = ['e.warehouse_id', 'e.customer_id', 'e.user_id', 'e.kind', 'e.business_day'] as const;

/** Adds the events after the floor mark (up to `upTo`) to report_floor_day and moves the mark, in one transaction. */
async function refreshFloorDays(db: Db, d: Dialect, upTo: number): Promise<void> {
  await inTransaction(db, async (uow) => {
    const mark = await uow.tx.selectFrom('report_rollup_mark').select('last_id').where('name', '=', FLOOR_ROLLUP).executeTakeFirst();
    const after = Number(mark?.last_id ?? 0);
    if (upTo <= after) return;
    const delta = floorDayDelta(uow.tx, d, after, upTo, after > 0).groupBy([...FLOOR_DAY_KEY]);
    await sql`INSERT INTO report_floor_day (warehouse_id, customer_id, user_id, kind, business_day, steps, units, lines, seconds)
      SELECT d.warehouse_id, d.customer_id, d.user_id, d.kind, d.business_day, d.steps, d.units, d.lines, d.seconds FROM (${delta}) d WHERE 1 = 1
      ON CONFLICT (warehouse_id, business_day, customer_id, user_id, kind) DO UPDATE SET steps = report_floor_day.steps + excluded.steps,
        units = report_floor_day.units + excluded.units, lines = report_floor_day.lines + excluded.lines, seconds = report_floor_day.seconds + excluded.seconds`.execute(uow.tx);
    const row = { last_id: upTo, taken_at: new Date().toISOString() };
    // Moved only from the mark read above: a second run at once adds nothing twice (it fails and rolls back).
    const moved = mark
      ? Number((await uow.tx.updateTable('report_rollup_mark').set(row).where('name', '=', FLOOR_ROLLUP).where('last_id', '=', after).executeTakeFirst()).numUpdatedRows)
      : (await uow.tx.insertInto('report_rollup_mark').values({ name: FLOOR_ROLLUP, ...row }).execute(), 1); // a second first run fails on the key
    if (moved !== 1) throw new Error('report rollup: the floor mark moved under this run');
  });
}

/**
 * Sums the closed shifts not summed yet: each one's task seconds per task type and client from its events up to
 * `upTo` (a closed shift's breaks no longer change; an event recorded later is read after the shift's mark).
 */
async function refreshLabourShifts(db: Db, upTo: number): Promise<void> {
  const shifts = await db.selectFrom('labour_shift as s').leftJoin('report_labour_shift as m', 'm.shift_id', 's.id')
    .select(['s.id', 's.user_id', 's.clock_in_ms', 's.clock_out_ms']).where('s.clock_out_ms', 'is not', null).where('m.shift_id', 'is', null).orderBy('s.id').execute();
  for (let i = 0; i < shifts.length; i += 500) {
    const part = shifts.slice(i, i + 500);
    const ids = part.map((s) => s.id);
    const [breaks, events] = await Promise.all([
      db.selectFrom('labour_break').select(['shift_id', 'start_ms', 'end_ms']).where('shift_id', 'in', ids).execute(),
      db.selectFrom('labour_shift as s').innerJoin('floor_event as e', (j) => j.onRef('e.user_id', '=', 's.user_id').onRef('e.at_ms', '>=', 's.clock_in_ms').onRef('e.at_ms', '<=', 's.clock_out_ms'))
        .select(['s.id as shift_id', 'e.kind', 'e.customer_id', 'e.at_ms', 'e.seconds_since_previous']).where('s.id', 'in', ids).where('e.id', '<=', upTo).execute(),
    ]);
    const work = new Map<string, { shift_id: number; kind: string; customer_id: number; seconds: number }>();
    const eventsOf = groupBy(events);
    for (const s of part) {
      const end = Number(s.clock_out_ms);
      const own = breaks.filter((b) => b.shift_id === s.id).map((b) => ({ start: Number(b.start_ms), end: b.end_ms == null ? end : Number(b.end_ms) }));
      for (const e of eventsOf.get(s.id) ?? []) {
        const sec = stepSeconds(Number(e.at_ms), e.seconds_since_previous, { start: Number(s.clock_in_ms), end }, own);
        if (sec === 0) continue;
        const key = `${s.id}:${e.kind}:${e.customer_id}`;
        const w = work.get(key) ?? { shift_id: s.id, kind: e.kind, customer_id: e.customer_id, seconds: 0 };
        w.seconds += sec;
        work.set(key, w);
      }
    }
    await inTransaction(db, async (uow) => {
      // Only the shifts still unsummed and still closed (another run may have taken them): their rows with them.
      const taken = await uow.tx.selectFrom('report_labour_shift').select('shift_id').where('shift_id', 'in', ids).execute();
      const skip = new Set(taken.map((t) => t.shift_id));
      const rows = [...work.values()].filter((w) => !skip.has(w.shift_id));
      for (let j = 0; j < rows.length; j += 500) await uow.tx.insertInto('report_labour_work').values(rows.slice(j, j + 500)).execute();
      const marks = ids.filter((id) => !skip.has(id)).map((id) => ({ shift_id: id, event_mark: upTo }));
      if (marks.length) await uow.tx.insertInto('report_labour_shift').values(marks).execute();
    });
  }
}

/** Brings every rollup up to the activity log's settled last id (false when PostgreSQL's open writes did not settle). */
export async function refreshReportRollups(db: Db, d: Dialect): Promise<boolean> {
  const marks = await settledMarks(db, d);
  if (!marks) return false;
  await refreshFloorDays(db, d, marks.event);
  await refreshLabourShifts(db, marks.event);
  return true;
}

export const ROLLUP_JOB = 'reports.rollup';

/** Every quarter of an hour: the reports then read the sums and a quarter of an hour's events at most. */
export function registerReportRollups(jobs: Jobs, schedules: Schedules, db: Db, d: Dialect) {
  jobs.register<{ slot?: string }>(ROLLUP_JOB, {
    payload: z.object({ slot: z.string().optional() }),
    maxAttempts: 3,
    async run() {
      return { refreshed: await refreshReportRollups(db, d) };
    },
  });
  schedules.register({ name: ROLLUP_JOB, cron: '*/15 * * * *', timeZone: 'UTC', job: ROLLUP_JOB, payload: (slot) => ({ slot }) });
}
