import { sql, type RawBuilder } from 'kysely';
import { z } from 'zod';
import { chargeAmount, divisorOf, type ChargeType } from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { addDays, businessDay } from '../../platform/business-day.js';
import type { Jobs, Schedules } from '../../platform/jobs/index.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import { candidatesOf, rated, windowRowsOf, type CandidateRow, type Marks, type Window } from './charge-sql.js';
import { FAMILIES, RateBook, reversalsOf, type Family, type Scope3 } from './charges.js';

const n = (v: unknown) => Number(v);
const NONE: Marks = { txn: 0, event: 0, snapshot: 0 };

/** The calendar month of a day: its first and last days. */
export function monthOf(day: string): { month: string; from: string; to: string } {
  const next = new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)), 1));
  return { month: day.slice(0, 7), from: `${day.slice(0, 7)}-01`, to: addDays(next.toISOString().slice(0, 10), -1) };
}

/** How many final invoices a client has at a warehouse: a new one changes what is unbilled (its keys are billed). */
async function finalsOf(db: Executor, customerId: number, warehouseId: number) {
  const r = await db.selectFrom('invoice').select((eb) => eb.fn.countAll<number | string>().as('c')).where('customer_id', '=', customerId)
    .where('warehouse_id', '=', warehouseId).where('kind', '=', 'invoice').where('status', '=', 'Final').executeTakeFirstOrThrow();
  return n(r.c);
}

/**
 * The candidates of every family a window gives, less those whose key a final invoice billed (a run would skip
 * them), counted by what decides their amount: type, qualifier, day, quantity, carrier cost (n: how many, signed).
 */
function windowGroups(s: Scope3, d: Dialect, w: Window, anyFinal: boolean): RawBuilder<CandidateRow> {
  const all = sql.join((Object.keys(FAMILIES) as Family[]).map((f) => sql`SELECT * FROM (${candidatesOf(f, s, d, w)}) ${sql.id(`c_${f}`)}`), sql` UNION ALL `);
  const unbilled = anyFinal ? sql`WHERE NOT EXISTS (SELECT 1 FROM billing_charge b JOIN invoice i ON i.id = b.invoice_id
      WHERE b.customer_id = ${s.customerId} AND b.warehouse_id = ${s.warehouseId} AND b.charge_type = a.charge_type AND b.charge_key = a.charge_key AND i.status = 'Final')` : sql``;
  return sql`${windowRowsOf(w)}SELECT a.charge_type, a.qualifier, a.day, a.quantity, a.base_minor, SUM(a.n) AS n FROM (${all}) a ${unbilled}
    GROUP BY a.charge_type, a.qualifier, a.day, a.quantity, a.base_minor` as RawBuilder<CandidateRow>;
}

/**
 * The last ids of the ledger, the activity log and the snapshots, once every row up to them is there to read. On
 * PostgreSQL a transaction still open may hold an id below the last one committed: the transactions open just
 * after the ids are read are waited for (up to `waitMs`; undefined when they are not done by then).
 */
export async function settledMarks(db: Db, d: Dialect, waitMs = 30_000): Promise<Marks | undefined> {
  const r = await sql<{ txn: unknown; event: unknown; snapshot: unknown }>`SELECT (SELECT MAX(id) FROM inventory_txn) AS txn, (SELECT MAX(id) FROM floor_event) AS event,
    (SELECT MAX(id) FROM storage_snapshot) AS snapshot`.execute(db);
  const marks = { txn: n(r.rows[0].txn ?? 0), event: n(r.rows[0].event ?? 0), snapshot: n(r.rows[0].snapshot ?? 0) };
  if (d.engine !== 'postgres') return marks; // SQLite: one writer, and a read never sees a transaction still open
  const snap = (await sql<{ s: string }>`SELECT CAST(pg_current_snapshot() AS text) AS s`.execute(db)).rows[0].s;
  for (const started = Date.now(); ;) {
    const open = await sql<{ c: unknown }>`SELECT COUNT(*) AS c FROM pg_snapshot_xip(CAST(${snap} AS pg_snapshot)) x WHERE pg_xact_status(x) = 'in progress'`.execute(db);
    if (n(open.rows[0].c) === 0) return marks;
    if (Date.now() - started > waitMs) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The accrual's materialisation for a client at a warehouse: the month's candidates of the rows up to the marks,
 * counted (billing_accrual_group), and the marks (billing_accrual_mark). Unrated: the card in force is applied
 * when the accrual is read. Replaces the one before, whatever month it was of.
 */
export async function materialise(db: Db, d: Dialect, customerId: number, warehouseId: number, today: string): Promise<boolean> {
  const finals = await finalsOf(db, customerId, warehouseId);
  const upTo = await settledMarks(db, d);
  if (!upTo) return false;
  const m = monthOf(today);
  const s: Scope3 = { customerId, warehouseId, from: m.from, to: m.to };
  await inTransaction(db, async (uow) => {
    await uow.tx.deleteFrom('billing_accrual_group').where('customer_id', '=', customerId).where('warehouse_id', '=', warehouseId).execute();
    await sql`INSERT INTO billing_accrual_group (customer_id, warehouse_id, charge_type, qualifier, day, quantity, base_minor, n)
      SELECT CAST(${customerId} AS INTEGER), CAST(${warehouseId} AS INTEGER), g.charge_type, g.qualifier, g.day, g.quantity, g.base_minor, g.n
      FROM (${windowGroups(s, d, { after: NONE, upTo }, finals > 0)}) g WHERE g.n <> 0`.execute(uow.tx);
    const mark = { month: m.month, txn_id: upTo.txn, event_id: upTo.event, snapshot_id: upTo.snapshot, finals, taken_at: new Date().toISOString() };
    await uow.tx.insertInto('billing_accrual_mark').values({ customer_id: customerId, warehouse_id: warehouseId, ...mark })
      .onConflict((oc) => oc.columns(['customer_id', 'warehouse_id']).doUpdateSet(mark)).execute();
  });
  // The counts just replaced are what every read joins to the card: the planner is told how many there are now.
  if (d.engine === 'postgres') await sql`ANALYZE billing_accrual_group`.execute(db);
  return true;
}

/**
 * The activity charges of the month so far by charge type, as a run would make them today: the materialised counts
 * (when they are of this month and no final invoice came since) plus the rows after their marks, rated at the
 * card; else every row of the month. Reversed sources are credited as the run credits them.
 */
export async function activityAccrual(db: Db, d: Dialect, s: Scope3, book: RateBook): Promise<Map<ChargeType, number>> {
  const m = monthOf(s.to);
  const finals = await finalsOf(db, s.customerId, s.warehouseId);
  const mark = await db.selectFrom('billing_accrual_mark').selectAll().where('customer_id', '=', s.customerId).where('warehouse_id', '=', s.warehouseId)
    .where('month', '=', m.month).where('finals', '=', finals).executeTakeFirst();
  const after: Marks = mark ? { txn: n(mark.txn_id), event: n(mark.event_id), snapshot: n(mark.snapshot_id) } : NONE;
  // Amounts are per group and the sum is linear: the stored counts and the window's are rated apart, not merged first.
  const asCandidates = (groups: RawBuilder<unknown>) => sql`SELECT g.charge_type, g.qualifier, '' AS charge_key, '' AS source_type, '' AS source_id, CAST(NULL AS TEXT) AS source_doc,
    g.day, g.quantity, g.base_minor, g.n FROM (${groups}) g WHERE g.day >= ${s.from} AND g.day <= ${s.to}` as RawBuilder<CandidateRow>;
  const month: Scope3 = { ...s, from: m.from, to: m.to };
  const since = rated(asCandidates(windowGroups(month, d, { after, upTo: null }, finals > 0)), s, d, true);
  // The stored counts (a group a day) are summed over the days of each card version first: one month, one version,
  // one amount per group, so its first day stands for all (a carrier's costs alone make thousands of day groups).
  const stored = mark ? sql`SELECT * FROM (${rated(asCandidates(sql`SELECT g.charge_type, g.qualifier, MIN(g.day) AS day, g.quantity, g.base_minor, SUM(g.n) AS n
    FROM billing_accrual_group g JOIN rate_card_version v ON v.customer_id = ${s.customerId} AND v.warehouse_id = ${s.warehouseId}
      AND v.effective_from <= g.day AND (v.effective_to IS NULL OR v.effective_to >= g.day)
    WHERE g.customer_id = ${s.customerId} AND g.warehouse_id = ${s.warehouseId} AND g.day >= ${s.from} AND g.day <= ${s.to}
    GROUP BY g.charge_type, g.qualifier, g.quantity, g.base_minor, v.id`), s, d, true)}) st UNION ALL ` : sql``;
  const r = await sql<{ charge_type: ChargeType; amount: unknown }>`SELECT r.charge_type, SUM(r.amount_minor * r.n) AS amount
    FROM (${stored}SELECT * FROM (${since}) sn) r GROUP BY r.charge_type`.execute(db);
  const out = new Map<ChargeType, number>(r.rows.map((x) => [x.charge_type, n(x.amount)]));
  for (const [type, amount] of await credits(db, d, s, book)) out.set(type, (out.get(type) ?? 0) + amount);
  return out;
}

interface Original { id: number | null; chargeType: ChargeType; sourceId: string; amountMinor: number; creditKey: string }

/**
 * What a run of the period would credit for reversed sources, by charge type (negative): each reversal, in the run's
 * order, takes back the charges of its document not taken back yet — the final invoices' (not credited by a final
 * invoice) and the ones the run makes — a void label only the latest label before it.
 */
async function credits(db: Db, d: Dialect, s: Scope3, book: RateBook): Promise<Map<ChargeType, number>> {
  const out = new Map<ChargeType, number>();
  for (const family of ['receiving', 'shipping', 'kitting'] as const) {
    const reversals = await reversalsOf(db, family, s);
    if (reversals.length === 0) continue;
    const credited = new Set<string>();
    for (const r of reversals) {
      const finals = await db.selectFrom('billing_charge as c').innerJoin('invoice as i', 'i.id', 'c.invoice_id')
        .select(['c.id', 'c.charge_type', 'c.source_id', 'c.amount_minor', 'c.charge_key'])
        .where('c.customer_id', '=', s.customerId).where('c.warehouse_id', '=', s.warehouseId).where('c.source_doc', '=', r.sourceDoc)
        .where('c.charge_type', 'in', r.chargeTypes).where('c.reverses_charge_id', 'is', null).where('i.status', '=', 'Final')
        .select((eb) => eb.exists(eb.selectFrom('billing_charge as k').innerJoin('invoice as ki', 'ki.id', 'k.invoice_id').select('k.id')
          .whereRef('k.reverses_charge_id', '=', 'c.id').where('ki.status', '=', 'Final')).as('credited'))
        .execute();
      const taken = new Set(finals.map((f) => `${f.charge_type}|${f.charge_key}`));
      // The run's own charges of the document: its candidates in the period whose key no final invoice holds.
      const own = await sql<CandidateRow>`SELECT c.* FROM (${candidatesOf(family, s, d)}) c WHERE c.source_doc = ${r.sourceDoc}`.execute(db);
      let originals: Original[] = [
        ...finals.filter((f) => !n(f.credited)).map((f) => ({ id: n(f.id), chargeType: f.charge_type as ChargeType, sourceId: f.source_id, amountMinor: n(f.amount_minor), creditKey: `rev:${f.id}` })),
        ...own.rows.filter((c) => r.chargeTypes.includes(c.charge_type) && !taken.has(`${c.charge_type}|${c.charge_key}`)).flatMap((c): Original[] => {
          const card = book.rateOn(c.day, c.charge_type, c.qualifier);
          if (!card) return [];
          const markup = c.charge_type === 'carrier_markup' ? card.markupBp : 0;
          const rateMinor = c.charge_type === 'carrier_markup' ? n(c.base_minor ?? 0) : card.rateMinor;
          return [{ id: null, chargeType: c.charge_type, sourceId: c.source_id, amountMinor: chargeAmount(n(c.quantity), rateMinor, markup, divisorOf(c.charge_type, c.day)), creditKey: `${c.charge_type}|${c.charge_key}` }];
        }),
      ].filter((o) => !credited.has(o.creditKey));
      if (r.before !== undefined) {
        const labels = [...new Set(originals.map((o) => n(o.sourceId)).filter((id) => id < r.before!))];
        const latest = Math.max(...labels);
        originals = labels.length ? originals.filter((o) => n(o.sourceId) === latest) : [];
        // A void's credit is keyed by the void: one a final invoice holds is not made again.
        const done = new Set((await db.selectFrom('billing_charge as c').innerJoin('invoice as i', 'i.id', 'c.invoice_id').select('c.charge_type')
          .where('c.customer_id', '=', s.customerId).where('c.warehouse_id', '=', s.warehouseId).where('c.charge_key', '=', `void:${r.sourceId}`)
          .where('i.status', '=', 'Final').execute()).map((c) => c.charge_type));
        originals = originals.filter((o) => !done.has(o.chargeType));
      }
      for (const o of originals) {
        credited.add(o.creditKey);
        out.set(o.chargeType, (out.get(o.chargeType) ?? 0) - o.amountMinor);
      }
    }
  }
  return out;
}

export const ACCRUAL_JOB = 'billing.accrual';

/**
 * The accrual's schedule: every quarter of an hour, each client with a rate card at a warehouse gets its month's
 * materialisation refreshed, so the live accrual reads the counts and a quarter of an hour's rows at most.
 */
export function registerAccrualSchedule(jobs: Jobs, schedules: Schedules, db: Db, d: Dialect) {
  jobs.register<{ slot?: string }>(ACCRUAL_JOB, {
    payload: z.object({ slot: z.string().optional() }),
    maxAttempts: 3,
    async run(_payload, ctx) {
      const pairs = await db.selectFrom('rate_card_version as v').innerJoin('warehouse as w', 'w.id', 'v.warehouse_id')
        .select(['v.customer_id', 'v.warehouse_id', 'w.timezone']).distinct().where('w.is_active', '=', 1).orderBy('v.warehouse_id').orderBy('v.customer_id').execute();
      let done = 0;
      for (const [i, p] of pairs.entries()) {
        if (await materialise(db, d, n(p.customer_id), n(p.warehouse_id), businessDay(p.timezone, new Date()))) done++;
        await ctx.progress(i + 1, pairs.length, `${i + 1} of ${pairs.length} clients`);
      }
      return { refreshed: done };
    },
  });
  schedules.register({ name: ACCRUAL_JOB, cron: '*/15 * * * *', timeZone: 'UTC', job: ACCRUAL_JOB, payload: (slot) => ({ slot }) });
}
