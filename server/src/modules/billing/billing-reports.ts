import { sql } from 'kysely';
import {
  CHARGE_GROUPS, CHARGE_TYPES, type BillingSummary, type ChargeGroup, type ChargeType, type InvoiceAudit, type UnbilledRow,
} from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { addDays, businessDay } from '../../platform/business-day.js';
import type { Principal } from '../../platform/principal.js';
import type { BillingService } from './billing.service.js';
import { toSummary } from './billing.service.js';
import { billingRepository as repo } from './billing.repository.js';
import { FAMILIES, RateBook, monthEnds, rate, recurringCandidates, type Candidate, type Scope3 } from './charges.js';
import { activityAccrual } from './accrual.js';
import { daysBetween, type StorageSnapshots } from './storage-snapshots.js';
import { invoicePdf, invoiceWorkbook, type Party } from './invoice-files.js';

const n = (v: unknown) => Number(v);
const STORAGE_TYPES = FAMILIES.storage as readonly ChargeType[];
const minusYear = (day: string) => `${Number(day.slice(0, 4)) - 1}${day.slice(4)}`.replace(/-02-29$/, '-02-28');
const dayCount = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;

/** The live unbilled accrual, the billing summary and the invoice audit. */
export class BillingReports {
  constructor(private readonly db: Db, private readonly dialect: Dialect, private readonly snapshots: StorageSnapshots, private readonly billing: BillingService) {}

  /**
   * What each customer's invoice for the current month would say today — what a run of the month so far would bill
   * if no draft held anything: every source of the month rated at the card (storage up to yesterday, from the
   * snapshots, or from the ledger for a day not taken yet), reversed sources credited, less what a final invoice
   * billed already, plus accessorials of the month not on a final invoice, and the monthly minimum's top-up on the
   * month's last day. The ledger's and the activity log's part reads the accrual's materialisation and the rows
   * since (accrual.ts).
   */
  async unbilled(principal: Principal, f: { warehouseId?: number; customerId?: number }, now: Date = new Date()): Promise<{ items: UnbilledRow[] }> {
    const pairs = await this.db.selectFrom('rate_card_version as v').innerJoin('customer as c', 'c.id', 'v.customer_id').innerJoin('warehouse as w', 'w.id', 'v.warehouse_id')
      .leftJoin('billing_account as a', 'a.customer_id', 'v.customer_id')
      .select(['v.customer_id', 'v.warehouse_id', 'c.name as customer_name', 'w.name as warehouse_name', 'w.timezone', 'a.currency']).distinct()
      .where(principal.scope.where({ warehouse: 'v.warehouse_id', customer: 'v.customer_id' }, f)).orderBy('c.name').orderBy('w.name').limit(200).execute();
    const items: UnbilledRow[] = [];
    for (const p of pairs) {
      const today = businessDay(p.timezone, now);
      const s: Scope3 = { customerId: n(p.customer_id), warehouseId: n(p.warehouse_id), from: `${today.slice(0, 8)}01`, to: today };
      const book = await RateBook.load(this.db, s.customerId, s.warehouseId);
      const byType = await activityAccrual(this.db, this.dialect, s, book);
      const add = (type: ChargeType, amount: number) => byType.set(type, (byType.get(type) ?? 0) + amount);
      // The few charges made here (storage of days not snapshotted yet, recurring fees) are rated here and left
      // out when a final invoice has their key.
      const extra = [...await this.untakenStorage(s, addDays(today, -1)), ...recurringCandidates(book, s)];
      const finalKeys = extra.length === 0 ? new Set<string>() : new Set((await this.db.selectFrom('billing_charge as c').innerJoin('invoice as i', 'i.id', 'c.invoice_id')
        .select(['c.charge_type', 'c.charge_key']).where('c.customer_id', '=', s.customerId).where('c.warehouse_id', '=', s.warehouseId)
        .where('c.charge_type', 'in', [...new Set(extra.map((c) => c.chargeType))]).where('c.day', '>=', s.from).where('i.status', '=', 'Final').execute())
        .map((r) => `${r.charge_type}|${r.charge_key}`));
      for (const c of extra) {
        const r = finalKeys.has(`${c.chargeType}|${c.key}`) ? undefined : rate(c, book);
        if (r) add(c.chargeType, r.amountMinor);
      }
      const manual = await repo.manualCharges(this.db, s).execute();
      for (const m of manual) add(m.charge_type as ChargeType, n(m.amount));
      // On the month's last day the month's invoice owes its top-up to the minimum (as the run's minimum step).
      const minimum = monthEnds(s).length ? book.rateOn(s.to, 'monthly_minimum', '') : undefined;
      if (minimum) {
        const finalMonth = await this.db.selectFrom('billing_charge as c').innerJoin('invoice as i', 'i.id', 'c.invoice_id')
          .select([(eb) => eb.fn.sum<number | string>('c.amount_minor').as('billed'), sql<number>`SUM(CASE WHEN c.charge_type = 'monthly_minimum' THEN 1 ELSE 0 END)`.as('topped')])
          .where('c.customer_id', '=', s.customerId).where('c.warehouse_id', '=', s.warehouseId).where('c.day', '>=', s.from).where('c.day', '<=', s.to).where('i.status', '=', 'Final')
          .executeTakeFirstOrThrow();
        const billed = [...byType.entries()].filter(([t]) => t !== 'monthly_minimum').reduce((t, [, a]) => t + a, 0) + n(finalMonth.billed ?? 0);
        if (!n(finalMonth.topped) && minimum.rateMinor - billed > 0) add('monthly_minimum', minimum.rateMinor - billed);
      }
      const byGroup = new Map<ChargeGroup, number>();
      for (const [type, amount] of byType) byGroup.set(CHARGE_TYPES[type].group, (byGroup.get(CHARGE_TYPES[type].group) ?? 0) + amount);
      const groups = CHARGE_GROUPS.filter((g) => byGroup.has(g)).map((g) => ({ group: g, amountMinor: byGroup.get(g)! }));
      items.push({
        customerId: s.customerId, customerName: p.customer_name, warehouseId: s.warehouseId, warehouseName: p.warehouse_name, currency: p.currency ?? 'USD',
        periodFrom: s.from, periodTo: s.to, byGroup: groups, totalMinor: groups.reduce((t, g) => t + g.amountMinor, 0),
      });
    }
    return { items };
  }

  /** Storage candidates of ended days not snapshotted yet, worked out from the ledger without writing them. */
  private async untakenStorage(s: Scope3, lastEnded: string): Promise<Candidate[]> {
    if (lastEnded < s.from) return [];
    const taken = new Set((await this.db.selectFrom('storage_snapshot_day').select('day').where('warehouse_id', '=', s.warehouseId)
      .where('day', '>=', s.from).where('day', '<=', lastEnded).execute()).map((r) => r.day));
    const out: Candidate[] = [];
    for (const day of daysBetween(s.from, lastEnded).filter((d) => !taken.has(d))) {
      const mine = (await this.snapshots.figures(this.db, s.warehouseId, day, 'rebuilt')).find((f) => f.customerId === s.customerId);
      if (!mine) continue;
      const base = { sourceType: 'snapshot' as const, sourceId: `pending:${day}`, sourceDoc: `SNAP:${day}`, day, qualifier: '', key: `snap:${day}` };
      if (mine.pallets) out.push({ ...base, chargeType: 'storage_pallet_day', quantity: mine.pallets });
      if (mine.volumeCm3) out.push({ ...base, chargeType: 'storage_cbm_day', quantity: mine.volumeCm3 });
      if (mine.units) out.push({ ...base, chargeType: 'storage_unit_month', quantity: mine.units });
      for (const [t, count] of Object.entries(mine.locationsByType)) out.push({ ...base, chargeType: 'storage_location_month', qualifier: t, key: `snap:${day}:${t}`, quantity: count });
    }
    return out;
  }

  /** Billed (final invoices and credit notes, by their period's start) per charge type over a range. */
  private async billedByType(principal: Principal, customerId: number, warehouseId: number | undefined, from: string, to: string) {
    const rows = await this.db.selectFrom('invoice_line as l').innerJoin('invoice as i', 'i.id', 'l.invoice_id')
      .select(['l.charge_type', (eb) => eb.fn.sum<number | string>('l.amount_minor').as('amount')])
      .where(principal.scope.where({ warehouse: 'i.warehouse_id', customer: 'i.customer_id' }, { customerId, warehouseId }))
      .where('i.status', '=', 'Final').where('i.period_from', '>=', from).where('i.period_from', '<=', to).groupBy('l.charge_type').execute();
    const order = Object.keys(CHARGE_TYPES);
    const byType = rows.map((r) => ({ chargeType: r.charge_type as ChargeType, group: CHARGE_TYPES[r.charge_type as ChargeType].group, amountMinor: n(r.amount) }))
      .filter((r) => r.amountMinor !== 0).sort((a, b) => order.indexOf(a.chargeType) - order.indexOf(b.chargeType));
    return { from, to, totalMinor: byType.reduce((t, r) => t + r.amountMinor, 0), byType };
  }

  async summary(principal: Principal, q: { customerId: number; warehouseId?: number; periodFrom: string; periodTo: string }): Promise<BillingSummary> {
    principal.scope.assert({ customerId: q.customerId, warehouseId: q.warehouseId });
    const length = dayCount(q.periodFrom, q.periodTo);
    const current = await this.billedByType(principal, q.customerId, q.warehouseId, q.periodFrom, q.periodTo);
    const previous = await this.billedByType(principal, q.customerId, q.warehouseId, addDays(q.periodFrom, -length), addDays(q.periodFrom, -1));
    const lastYear = await this.billedByType(principal, q.customerId, q.warehouseId, minusYear(q.periodFrom), minusYear(q.periodTo));
    const endMonth = q.periodTo.slice(0, 7);
    const months: string[] = [];
    for (let i = 11; i >= 0; i--) {
      const d = new Date(Date.UTC(Number(endMonth.slice(0, 4)), Number(endMonth.slice(5, 7)) - 1 - i, 1));
      months.push(d.toISOString().slice(0, 7));
    }
    const rows = await this.db.selectFrom('invoice_line as l').innerJoin('invoice as i', 'i.id', 'l.invoice_id')
      .select([sql<string>`substr(i.period_from, 1, 7)`.as('month'), 'l.charge_type', (eb) => eb.fn.sum<number | string>('l.amount_minor').as('amount')])
      .where(principal.scope.where({ warehouse: 'i.warehouse_id', customer: 'i.customer_id' }, { customerId: q.customerId, warehouseId: q.warehouseId }))
      .where('i.status', '=', 'Final').where('i.period_from', '>=', `${months[0]}-01`).where('i.period_from', '<=', `${endMonth}-31`)
      .groupBy([sql`substr(i.period_from, 1, 7)`, 'l.charge_type']).execute();
    const account = await this.db.selectFrom('billing_account').select('currency').where('customer_id', '=', q.customerId).executeTakeFirst();
    const monthOf = (m: string) => {
      const byType = rows.filter((r) => r.month === m && n(r.amount) !== 0).map((r) => ({ chargeType: r.charge_type as ChargeType, group: CHARGE_TYPES[r.charge_type as ChargeType].group, amountMinor: n(r.amount) }));
      return { month: m, amountMinor: byType.reduce((t, r) => t + r.amountMinor, 0), byType };
    };
    return { currency: account?.currency ?? 'USD', current, previous, lastYear, months: months.map(monthOf) };
  }

  /**
   * An invoice traced: its lines (their sources are one call away), the difference against the customer's previous
   * final invoice by charge type, and anomalies: activity the card had no rate for, zero rates, a charge type up or
   * down by more than `swingPercent`, and days with stock stored that no invoice billed storage for.
   */
  async audit(principal: Principal, q: { invoiceId: number; swingPercent: number }): Promise<InvoiceAudit> {
    const invoice = await this.billing.detail(principal, q.invoiceId);
    const prevRow = await this.db.selectFrom('invoice').select('id').where('customer_id', '=', invoice.customerId).where('warehouse_id', '=', invoice.warehouseId)
      .where('kind', '=', 'invoice').where('status', '=', 'Final').where('period_to', '<', invoice.periodFrom).orderBy('period_to', 'desc').orderBy('id', 'desc').executeTakeFirst();
    const previousRow = prevRow ? await repo.invoice(this.db, principal.scope, n(prevRow.id)) : undefined;
    const previous = previousRow ? toSummary(previousRow) : null;
    const sumBy = async (invoiceId: number | null) => {
      const m = new Map<ChargeType, number>();
      if (invoiceId === null) return m;
      for (const l of await this.db.selectFrom('invoice_line').select(['charge_type', 'amount_minor']).where('invoice_id', '=', invoiceId).execute()) {
        m.set(l.charge_type as ChargeType, (m.get(l.charge_type as ChargeType) ?? 0) + n(l.amount_minor));
      }
      return m;
    };
    const now = await sumBy(invoice.invoiceId);
    const before = await sumBy(previous?.invoiceId ?? null);
    const order = Object.keys(CHARGE_TYPES) as ChargeType[];
    const differences = order.filter((t) => now.has(t) || before.has(t)).map((t) => {
      const currentMinor = now.get(t) ?? 0;
      const previousMinor = before.get(t) ?? 0;
      return { chargeType: t, currentMinor, previousMinor, changeMinor: currentMinor - previousMinor, changePercent: previousMinor === 0 ? null : Math.round(((currentMinor - previousMinor) * 1000) / Math.abs(previousMinor)) / 10 };
    });
    const anomalies: InvoiceAudit['anomalies'] = [];
    for (const u of invoice.unrated) anomalies.push({ kind: 'no-rate', chargeType: null, message: `${u.count} ${u.source} ${u.count === 1 ? 'source' : 'sources'} had no rate on the card: charged nothing` });
    for (const l of invoice.lines) {
      if (!l.manual && l.rateMinor === 0) anomalies.push({ kind: 'zero-rate', chargeType: l.chargeType, message: `${l.description}: the rate is 0 (${l.quantity} ${l.unit} billed nothing)` });
    }
    if (previous) {
      for (const d of differences) {
        if (d.previousMinor !== 0 && d.changePercent !== null && Math.abs(d.changePercent) > q.swingPercent) {
          anomalies.push({ kind: 'swing', chargeType: d.chargeType, message: `${CHARGE_TYPES[d.chargeType].label} ${d.changePercent > 0 ? 'up' : 'down'} ${Math.abs(d.changePercent)}% against ${previous.invoiceNumber}` });
        }
      }
    }
    const stored = await this.db.selectFrom('storage_snapshot').select('day').where('customer_id', '=', invoice.customerId).where('warehouse_id', '=', invoice.warehouseId)
      .where('day', '>=', invoice.periodFrom).where('day', '<=', invoice.periodTo).where('units', '>', 0).execute();
    const billedDays = new Set((await this.db.selectFrom('billing_charge').select('day').distinct().where('customer_id', '=', invoice.customerId).where('warehouse_id', '=', invoice.warehouseId)
      .where('day', '>=', invoice.periodFrom).where('day', '<=', invoice.periodTo).where('charge_type', 'in', STORAGE_TYPES).execute()).map((r) => r.day));
    const unbilled = stored.map((r) => r.day).filter((d) => !billedDays.has(d)).sort();
    if (unbilled.length) anomalies.push({ kind: 'stored-unbilled', chargeType: null, message: `Stock was stored on ${unbilled.length} ${unbilled.length === 1 ? 'day' : 'days'} (from ${unbilled[0]}) with no storage billed` });
    return { invoice, previous, differences, anomalies };
  }

  private async parties(inv: { warehouseId: number; customerId: number }): Promise<{ from: Party; to: Party }> {
    const w = await this.db.selectFrom('warehouse').selectAll().where('id', '=', inv.warehouseId).executeTakeFirstOrThrow();
    const c = await this.db.selectFrom('customer').selectAll().where('id', '=', inv.customerId).executeTakeFirstOrThrow();
    const address = (r: { address1: string | null; city: string | null; state: string | null; zip: string | null; country: string | null }) =>
      [r.address1, [r.city, r.state, r.zip].filter(Boolean).join(' '), r.country].filter((x): x is string => !!x && x.trim() !== '');
    return {
      from: { name: w.name, lines: [...address(w), `Warehouse ${w.code}`] },
      to: { name: c.name, lines: [...address(c), ...(c.billing_email ? [c.billing_email] : []), `Client ${c.code}`] },
    };
  }

  async pdf(principal: Principal, invoiceId: number): Promise<{ name: string; body: Buffer }> {
    const inv = await this.billing.detail(principal, invoiceId);
    const { from, to } = await this.parties(inv);
    return { name: `${inv.invoiceNumber ?? `draft-${inv.invoiceId}`}.pdf`, body: await invoicePdf(inv, from, to) };
  }

  async excel(principal: Principal, invoiceId: number): Promise<{ name: string; body: Buffer }> {
    const inv = await this.billing.detail(principal, invoiceId);
    const sources = [];
    for (const line of inv.lines) {
      for (const charge of (await this.billing.lineSources(principal, { invoiceId, lineId: line.lineId })).items) sources.push({ line, charge });
    }
    return { name: `${inv.invoiceNumber ?? `draft-${inv.invoiceId}`}.xlsx`, body: await invoiceWorkbook(inv, sources) };
  }
}
