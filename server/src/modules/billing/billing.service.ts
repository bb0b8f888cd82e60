import { sql } from 'kysely';
import { z } from 'zod';
import {
  CHARGE_TYPES, ERROR_CODES, chargeAmount, divisorOf, formatMinor, taxOf,
  type BillingAccount, type ChargeSource, type ChargeType, type InvoiceDetail, type InvoiceLine, type InvoiceSummary, type RateCardVersion, type SaveRateCardInput,
} from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { documentNumbers } from '../../platform/document-numbers.js';
import { AppError, conflict, forbidden, notFound, unprocessable } from '../../platform/errors.js';
import type { JobContext, Jobs } from '../../platform/jobs/index.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import { FAMILIES, RateBook, monthEnds, rate, recurringCandidates, reversalsOf, type RatedCharge, type Reversal, type Scope3 } from './charges.js';
import { insertCharges, unratedSources } from './charge-sql.js';
import { billingRepository as repo, type InvoiceRow } from './billing.repository.js';
import { type StorageSnapshots } from './storage-snapshots.js';
import { addDays } from '../../platform/business-day.js';

const n = (v: unknown) => Number(v);
export const BILLING_RUN_JOB = 'billing.run';
export const runPayload = z.object({ invoiceId: z.number().int().positive() });
type RunPayload = z.infer<typeof runPayload>;

/** The steps of a run, in order; a run taken up again after a restart starts at the first step not committed. */
export const RUN_STEPS = ['snapshots', 'storage', 'receiving', 'fulfilment', 'shipping', 'returns', 'kitting', 'manual', 'recurring', 'minimum', 'lines'] as const;

const DEFAULT_ACCOUNT = { currency: 'USD', tax_rate_bp: 0, payment_terms_days: 30 };

export function toSummary(r: InvoiceRow): InvoiceSummary {
  return {
    invoiceId: n(r.id), kind: r.kind as InvoiceSummary['kind'], invoiceNumber: r.invoice_number, status: r.status as InvoiceSummary['status'],
    customerId: n(r.customer_id), customerName: r.customer_name, warehouseId: n(r.warehouse_id), warehouseName: r.warehouse_name,
    periodKind: r.period_kind as InvoiceSummary['periodKind'], periodFrom: r.period_from, periodTo: r.period_to, currency: r.currency,
    subtotalMinor: n(r.subtotal_minor), taxRateBp: n(r.tax_rate_bp), taxMinor: n(r.tax_minor), totalMinor: n(r.total_minor),
    runStatus: r.run_status as InvoiceSummary['runStatus'], runJobId: r.run_job_id == null ? null : n(r.run_job_id), runMessage: r.run_message,
    creditsInvoiceId: r.credits_invoice_id == null ? null : n(r.credits_invoice_id), creditsInvoiceNumber: r.credits_invoice_number ?? null, reason: r.reason,
    createdAt: r.created_at, finalizedAt: r.finalized_at,
  };
}

/**
 * 3PL billing: billing accounts, rate cards, accessorial entry, billing runs (a background job per draft invoice),
 * drafts adjusted by manual lines, finalising (a gap-free number per warehouse, the billing entity) and credit notes.
 */
export class BillingService {
  readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly statuses: StatusMachine;

  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder'>, private readonly jobs: Jobs, readonly snapshots: StorageSnapshots) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.statuses = new StatusMachine(deps);
  }

  // ---- Billing accounts ----

  async accounts(principal: Principal): Promise<BillingAccount[]> {
    const rows = await repo.accounts(this.db, principal.scope);
    return rows.map((r) => ({
      customerId: n(r.id), customerName: r.name, currency: r.currency ?? DEFAULT_ACCOUNT.currency, taxRateBp: n(r.tax_rate_bp ?? 0), paymentTermsDays: n(r.payment_terms_days ?? 30),
    }));
  }

  async saveAccount(principal: Principal, input: { customerId: number; currency: string; taxRateBp: number; paymentTermsDays: number }, actor: Actor) {
    principal.scope.assert({ customerId: input.customerId });
    const customer = await this.db.selectFrom('customer').select(['id', 'name']).where('id', '=', input.customerId).executeTakeFirst();
    if (!customer) throw notFound('Client');
    const before = await this.db.selectFrom('billing_account').selectAll().where('customer_id', '=', input.customerId).executeTakeFirst();
    if (before && before.currency !== input.currency && await repo.hasInvoices(this.db, input.customerId)) {
      const message = 'The currency cannot change once the client has invoices';
      throw new AppError(409, ERROR_CODES.CONFLICT, message, { currency: message });
    }
    const at = new Date().toISOString();
    await inTransaction(this.db, async (uow) => {
      await uow.tx.insertInto('billing_account').values({ customer_id: input.customerId, currency: input.currency, tax_rate_bp: input.taxRateBp, payment_terms_days: input.paymentTermsDays, updated_at: at })
        .onConflict((oc) => oc.column('customer_id').doUpdateSet({ currency: input.currency, tax_rate_bp: input.taxRateBp, payment_terms_days: input.paymentTermsDays, updated_at: at })).execute();
      await this.recorder.record(uow, actor, { audit: { action: before ? 'update' : 'create', entity: 'billing_account', entityId: input.customerId, customerId: input.customerId, before, after: input } });
    });
    return { message: `Billing terms of ${customer.name} saved`, data: { ...input, customerName: customer.name } };
  }

  // ---- Rate cards ----

  async rateCards(principal: Principal, req: ListRequest<{ customerId?: number; warehouseId?: number }>) {
    const page = await repo.rateCards(this.db, this.dialect, principal.scope, req);
    const ids = page.rows.map((r) => n(r.id));
    const rates = ids.length ? await this.db.selectFrom('rate_card_rate').selectAll().where('version_id', 'in', ids).orderBy('id').execute() : [];
    const used = new Set(ids.length ? (await this.db.selectFrom('billing_charge').select('rate_version_id').distinct().where('rate_version_id', 'in', ids).execute()).map((r) => n(r.rate_version_id)) : []);
    return toListPage(page, (r): RateCardVersion => ({
      versionId: n(r.id), customerId: n(r.customer_id), customerName: r.customer_name, warehouseId: n(r.warehouse_id), warehouseName: r.warehouse_name,
      versionNo: n(r.version_no), effectiveFrom: r.effective_from, effectiveTo: r.effective_to, notes: r.notes, currency: r.currency ?? DEFAULT_ACCOUNT.currency,
      used: used.has(n(r.id)), createdBy: r.created_by_name, createdAt: r.created_at,
      rates: rates.filter((x) => n(x.version_id) === n(r.id)).map((x) => ({ chargeType: x.charge_type as ChargeType, qualifier: x.qualifier, rateMinor: n(x.rate_minor), markupBp: n(x.markup_bp) })),
    }));
  }

  /**
   * A new version from a day (the open-ended version before it then ends the day before, unless something was
   * charged at it after that day), or an edit of a version nothing was charged at yet. Versions never overlap: a
   * version whose days meet another's is refused (409), as is touching a version an invoice used.
   */
  async saveRateCard(principal: Principal, input: SaveRateCardInput, actor: Actor) {
    principal.scope.assert({ warehouseId: input.warehouseId, customerId: input.customerId });
    await this.servedOrThrow(input.customerId, input.warehouseId);
    const refuse = (field: string, message: string) => new AppError(409, ERROR_CODES.CONFLICT, message, { [field]: message });
    const version = await inTransaction(this.db, async (uow) => {
      // One card's versions change one at a time (PostgreSQL: the customer row as the mutex; SQLite: one writer).
      if (this.dialect.engine === 'postgres') await sql`select id from customer where id = ${input.customerId} for update`.execute(uow.tx);
      const versions = await uow.tx.selectFrom('rate_card_version').selectAll().where('customer_id', '=', input.customerId).where('warehouse_id', '=', input.warehouseId).orderBy('effective_from').execute();
      const usedAfter = async (versionId: number, day: string) => !!(await uow.tx.selectFrom('billing_charge').select('id').where('rate_version_id', '=', versionId).where('day', '>=', day).limit(1).executeTakeFirst());
      let before: unknown;
      if (input.versionId) {
        const own = versions.find((v) => n(v.id) === input.versionId);
        if (!own) throw notFound('Rate card version');
        if (await usedAfter(input.versionId, '0000-00-00')) throw refuse('versionId', `Version ${own.version_no} has been charged at: it cannot be edited; add a new version instead`);
        before = own;
      }
      const others = versions.filter((v) => n(v.id) !== input.versionId);
      const open = others.find((v) => v.effective_to === null && v.effective_from < input.effectiveFrom);
      if (open) {
        if (await usedAfter(n(open.id), input.effectiveFrom)) throw refuse('effectiveFrom', `Version ${open.version_no} was charged at on or after ${input.effectiveFrom}: start the new version after what was billed`);
      }
      const end = input.effectiveTo ?? '9999-12-31';
      const clash = others.find((v) => v !== open && v.effective_from <= end && (v.effective_to ?? '9999-12-31') >= input.effectiveFrom);
      if (clash) throw refuse('effectiveFrom', `This version overlaps version ${clash.version_no} (${clash.effective_from} to ${clash.effective_to ?? 'open'})`);
      if (open && input.effectiveTo === null && others.some((v) => v.effective_from > input.effectiveFrom)) {
        // an open new version before a later one: it ends the day before that one
      }
      const later = others.filter((v) => v.effective_from > input.effectiveFrom).sort((a, b) => a.effective_from.localeCompare(b.effective_from))[0];
      const effectiveTo = input.effectiveTo ?? (later ? addDays(later.effective_from, -1) : null);
      const at = new Date().toISOString();
      if (open) await uow.tx.updateTable('rate_card_version').set({ effective_to: addDays(input.effectiveFrom, -1), updated_at: at }).where('id', '=', open.id).execute();
      let id = input.versionId;
      if (id) {
        await uow.tx.updateTable('rate_card_version').set({ effective_from: input.effectiveFrom, effective_to: effectiveTo, notes: input.notes, updated_at: at }).where('id', '=', id).execute();
        await uow.tx.deleteFrom('rate_card_rate').where('version_id', '=', id).execute();
      } else {
        const no = versions.reduce((m, v) => Math.max(m, n(v.version_no)), 0) + 1;
        id = n((await uow.tx.insertInto('rate_card_version').values({
          customer_id: input.customerId, warehouse_id: input.warehouseId, version_no: no, effective_from: input.effectiveFrom, effective_to: effectiveTo,
          notes: input.notes, created_by: actor.userId, updated_at: at,
        }).returning('id').executeTakeFirstOrThrow()).id);
      }
      if (input.rates.length) {
        await uow.tx.insertInto('rate_card_rate').values(input.rates.map((r) => ({ version_id: id!, charge_type: r.chargeType, qualifier: r.qualifier, rate_minor: r.rateMinor, markup_bp: r.markupBp }))).execute();
      }
      await this.recorder.record(uow, actor, {
        audit: { action: input.versionId ? 'update' : 'create', entity: 'rate_card_version', entityId: id, warehouseId: input.warehouseId, customerId: input.customerId, before, after: { ...input, effectiveTo } },
      });
      return id;
    });
    const saved = (await this.rateCards(principal, { filters: { customerId: input.customerId, warehouseId: input.warehouseId }, pageNumber: 1, pageSize: 500, searchQuery: '' })).items.find((v) => v.versionId === version)!;
    return { message: `Rate card version ${saved.versionNo} saved (from ${saved.effectiveFrom})`, data: saved };
  }

  private async servedOrThrow(customerId: number, warehouseId: number) {
    const served = await this.db.selectFrom('customer_warehouse').select('customer_id').where('customer_id', '=', customerId).where('warehouse_id', '=', warehouseId).executeTakeFirst();
    if (!served) throw unprocessable('This warehouse does not serve this client', { warehouseId: 'This warehouse does not serve this client' });
  }

  // ---- Accessorial entry ----

  /** An accessorial or labour charge entered by hand: held unbilled until the run whose period holds its day. */
  async addAccessorial(principal: Principal, input: { customerId: number; warehouseId: number; day: string; chargeType: 'accessorial' | 'labour_hour'; qualifier: string; description: string; quantity: number; rateMinor?: number }, actor: Actor) {
    principal.scope.assert({ warehouseId: input.warehouseId, customerId: input.customerId });
    await this.servedOrThrow(input.customerId, input.warehouseId);
    const book = await RateBook.load(this.db, input.customerId, input.warehouseId);
    const card = book.rateOn(input.day, input.chargeType, input.qualifier);
    const rateMinor = input.rateMinor ?? card?.rateMinor;
    if (rateMinor === undefined) {
      const message = `The rate card in force on ${input.day} has no ${CHARGE_TYPES[input.chargeType].label.toLowerCase()} rate: enter one`;
      throw unprocessable(message, { rateMinor: message });
    }
    if (await this.finalCovering(input.customerId, input.warehouseId, input.day, input.day)) {
      const message = `${input.day} is in a finalised invoice's period: bill it in a later period`;
      throw new AppError(409, ERROR_CODES.CONFLICT, message, { day: message });
    }
    const divisor = divisorOf(input.chargeType, input.day);
    const charge = await inTransaction(this.db, async (uow) => {
      const row = await uow.tx.insertInto('billing_charge').values({
        customer_id: input.customerId, warehouse_id: input.warehouseId, charge_type: input.chargeType, qualifier: input.qualifier,
        charge_key: `manual:${crypto.randomUUID()}`, source_type: 'manual', source_id: String(actor.userId ?? 0), source_doc: null, day: input.day,
        quantity: input.quantity, rate_minor: rateMinor, markup_bp: 0, divisor, amount_minor: chargeAmount(input.quantity, rateMinor, 0, divisor),
        rate_version_id: input.rateMinor === undefined ? card!.versionId : null, invoice_id: null, reverses_charge_id: null,
        description: input.description, created_by: actor.userId,
      }).returningAll().executeTakeFirstOrThrow();
      await this.recorder.record(uow, actor, { audit: { action: 'create', entity: 'billing_charge', entityId: row.id, warehouseId: input.warehouseId, customerId: input.customerId, after: row } });
      return row;
    });
    return { message: `${input.description}: ${formatMinor(n(charge.amount_minor))} to bill`, data: { chargeId: n(charge.id), amountMinor: n(charge.amount_minor) } };
  }

  private finalCovering(customerId: number, warehouseId: number, from: string, to: string) {
    return this.db.selectFrom('invoice').select(['id', 'invoice_number', 'period_from', 'period_to']).where('customer_id', '=', customerId).where('warehouse_id', '=', warehouseId)
      .where('kind', '=', 'invoice').where('status', '=', 'Final').where('period_from', '<=', to).where('period_to', '>=', from).executeTakeFirst();
  }

  // ---- Runs ----

  /** Makes a draft invoice for the customer, warehouse and period, and queues its run (progress over the hub). */
  async createRun(principal: Principal, input: { customerId: number; warehouseId: number; periodKind: 'monthly' | 'weekly' | 'custom'; periodFrom: string; periodTo: string }, actor: Actor) {
    principal.scope.assert({ warehouseId: input.warehouseId, customerId: input.customerId });
    await this.servedOrThrow(input.customerId, input.warehouseId);
    const final = await this.finalCovering(input.customerId, input.warehouseId, input.periodFrom, input.periodTo);
    if (final) {
      const message = `${final.invoice_number} (${final.period_from} to ${final.period_to}) is final for this period: correct it with a credit note`;
      throw new AppError(409, ERROR_CODES.CONFLICT, message, { periodFrom: message });
    }
    const account = await this.db.selectFrom('billing_account').selectAll().where('customer_id', '=', input.customerId).executeTakeFirst() ?? DEFAULT_ACCOUNT;
    const { invoiceId, job } = await inTransaction(this.db, async (uow) => {
      const at = new Date().toISOString();
      const row = await uow.tx.insertInto('invoice').values({
        kind: 'invoice', invoice_number: null, warehouse_id: input.warehouseId, customer_id: input.customerId, period_kind: input.periodKind,
        period_from: input.periodFrom, period_to: input.periodTo, currency: account.currency, tax_rate_bp: account.tax_rate_bp, run_status: 'queued', run_step: 0,
        run_job_id: null, run_message: null, credits_invoice_id: null, reason: null, created_by: actor.userId, updated_at: at, finalized_at: null, finalized_by: null,
      }).returning('id').executeTakeFirstOrThrow();
      const id = n(row.id);
      const queued = await this.queue(uow, principal, id, input.customerId, input.warehouseId);
      await this.recorder.record(uow, actor, { audit: { action: 'run', entity: 'invoice', entityId: id, warehouseId: input.warehouseId, customerId: input.customerId, after: input } });
      return { invoiceId: id, job: queued };
    });
    const invoice = await this.summary(principal, invoiceId);
    return { message: `Billing ${invoice.customerName} from ${input.periodFrom} to ${input.periodTo} in the background`, data: { invoice, job } };
  }

  private async queue(uow: UnitOfWork, principal: Principal, invoiceId: number, customerId: number, warehouseId: number) {
    const job = await this.jobs.enqueue<RunPayload>(uow, BILLING_RUN_JOB, { invoiceId }, { ownerUserId: principal.userId, warehouseId, customerId, maxAttempts: 3, backoffMs: 2000 });
    await uow.tx.updateTable('invoice').set({ run_job_id: job.jobId, run_status: 'queued', run_step: 0, run_message: null }).where('id', '=', invoiceId).execute();
    return job;
  }

  /** Runs a draft again from the start: its charges are given back (manual ones kept for it) and made anew. */
  async rerun(principal: Principal, invoiceId: number, actor: Actor) {
    const inv = await this.draftOrThrow(principal, invoiceId);
    const final = await this.finalCovering(n(inv.customer_id), n(inv.warehouse_id), inv.period_from, inv.period_to);
    if (final) {
      const message = `${final.invoice_number} is final for this period: correct it with a credit note`;
      throw new AppError(409, ERROR_CODES.CONFLICT, message, { invoiceId: message });
    }
    if (inv.run_status === 'queued' || inv.run_status === 'running') throw conflict('This draft is being billed now; wait for the run to end');
    const job = await inTransaction(this.db, async (uow) => {
      await this.release(uow, invoiceId);
      const queued = await this.queue(uow, principal, invoiceId, n(inv.customer_id), n(inv.warehouse_id));
      await this.recorder.record(uow, actor, { audit: { action: 'rerun', entity: 'invoice', entityId: invoiceId, warehouseId: n(inv.warehouse_id), customerId: n(inv.customer_id) } });
      return queued;
    });
    return { message: 'Billing the draft again in the background', data: { invoice: await this.summary(principal, invoiceId), job } };
  }

  /** Gives back a draft's derived charges (deleted, to be made again) and its accessorials (unclaimed); manual lines stay. */
  private async release(uow: UnitOfWork, invoiceId: number) {
    await uow.tx.deleteFrom('billing_charge').where('invoice_id', '=', invoiceId).where('source_type', '!=', 'manual').execute();
    await uow.tx.updateTable('billing_charge').set({ invoice_id: null }).where('invoice_id', '=', invoiceId).execute();
    await uow.tx.deleteFrom('invoice_line').where('invoice_id', '=', invoiceId).where('is_manual', '=', 0).execute();
    await uow.tx.updateTable('invoice').set({ unrated_json: '[]' }).where('id', '=', invoiceId).execute();
    await retotal(uow.tx, invoiceId);
  }

  /**
   * The run's work: each step in its own transaction, recorded as done with it, so a run taken up again after a
   * restart (or a retry) starts at the first step not committed. Charges are claimed by their unique key: a source
   * another run (or an earlier invoice) billed already is skipped, however the runs overlap.
   */
  async work(payload: RunPayload, ctx: JobContext): Promise<unknown> {
    const id = payload.invoiceId;
    const inv = await this.db.selectFrom('invoice').selectAll().where('id', '=', id).executeTakeFirst();
    if (!inv || inv.status !== 'Draft') return { skipped: true };
    if (inv.run_job_id != null && n(inv.run_job_id) !== ctx.jobId) return { skipped: true, reason: 'a later run replaced this one' };
    await this.db.updateTable('invoice').set({ run_status: 'running', run_message: null }).where('id', '=', id).execute();
    const s: Scope3 = { customerId: n(inv.customer_id), warehouseId: n(inv.warehouse_id), from: inv.period_from, to: inv.period_to };
    try {
      for (let step = n(inv.run_step); step < RUN_STEPS.length; step++) {
        if (ctx.signal.aborted) throw new Error('The run was stopped; it is taken up again where it left off');
        await ctx.progress(step, RUN_STEPS.length, `Step ${step + 1} of ${RUN_STEPS.length}: ${RUN_STEPS[step]}`);
        await this.runStep(RUN_STEPS[step], id, s, ctx);
      }
      await this.db.updateTable('invoice').set({ run_status: 'done', updated_at: new Date().toISOString() }).where('id', '=', id).execute();
      await ctx.progress(RUN_STEPS.length, RUN_STEPS.length, 'Draft ready');
      const done = await this.db.selectFrom('invoice').select(['total_minor']).where('id', '=', id).executeTakeFirstOrThrow();
      return { invoiceId: id, totalMinor: n(done.total_minor) };
    } catch (err) {
      const last = ctx.attempt >= ctx.maxAttempts || (err instanceof AppError && err.status < 500);
      await this.db.updateTable('invoice').set({ run_status: last ? 'failed' : 'queued', run_message: err instanceof Error ? err.message.slice(0, 500) : String(err).slice(0, 500) }).where('id', '=', id).execute();
      throw err;
    }
  }

  private async runStep(step: (typeof RUN_STEPS)[number], invoiceId: number, s: Scope3, ctx: JobContext) {
    const done = (uow: UnitOfWork) => uow.tx.updateTable('invoice').set({ run_step: RUN_STEPS.indexOf(step) + 1 }).where('id', '=', invoiceId).execute();
    if (step === 'snapshots') {
      await this.snapshots.ensure(s.warehouseId, s.from, s.to, (d, total) => ctx.progress(0, RUN_STEPS.length, `Storage snapshots: day ${d} of ${total}`));
      await inTransaction(this.db, done);
      return;
    }
    const book = await RateBook.load(this.db, s.customerId, s.warehouseId);
    await inTransaction(this.db, async (uow) => {
      if (step === 'manual') {
        await uow.tx.updateTable('billing_charge').set({ invoice_id: invoiceId }).where('invoice_id', 'is', null).where('source_type', '=', sql.lit('manual'))
          .where('customer_id', '=', s.customerId).where('warehouse_id', '=', s.warehouseId).where('day', '>=', s.from).where('day', '<=', s.to).execute();
      } else if (step === 'recurring') {
        await this.claim(uow.tx, invoiceId, s, recurringCandidates(book, s).map((c) => rate(c, book)).filter((c): c is RatedCharge => !!c));
      } else if (step === 'minimum') {
        await this.claim(uow.tx, invoiceId, s, await this.minimumTopUps(uow.tx, book, s));
      } else if (step === 'lines') {
        await buildLines(uow.tx, invoiceId);
      } else {
        await insertCharges(uow.tx, this.dialect, invoiceId, s, step);
        const reversals = await reversalsOf(uow.tx, step, s);
        if (reversals.length) await this.credit(uow.tx, invoiceId, s, reversals);
        // Activity with no rate is looked for only where some day of the period has no rate of the family at all.
        const unrated = book.coversEvery(s.from, s.to, FAMILIES[step]) ? 0 : await unratedSources(uow.tx, this.dialect, s, step);
        const row = await uow.tx.selectFrom('invoice').select('unrated_json').where('id', '=', invoiceId).executeTakeFirstOrThrow();
        const list = (JSON.parse(row.unrated_json) as { source: string; count: number }[]).filter((u) => u.source !== step);
        if (unrated) list.push({ source: step, count: unrated });
        await uow.tx.updateTable('invoice').set({ unrated_json: JSON.stringify(list) }).where('id', '=', invoiceId).execute();
      }
      await done(uow);
    });
  }

  /** Inserts charges worked out here (recurring fees, minimum top-ups); a charge whose key is taken (billed already, by any run) is skipped. */
  private async claim(tx: Executor, invoiceId: number, s: Scope3, rated: RatedCharge[]) {
    // One order for every run: concurrent runs meet on the same keys in the same order (no deadlock between them).
    const sorted = [...rated].sort((a, b) => (a.chargeType === b.chargeType ? (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : a.chargeType < b.chargeType ? -1 : 1));
    for (let i = 0; i < sorted.length; i += 300) {
      await tx.insertInto('billing_charge').values(sorted.slice(i, i + 300).map((c) => ({
        customer_id: s.customerId, warehouse_id: s.warehouseId, charge_type: c.chargeType, qualifier: c.qualifier, charge_key: c.key, source_type: c.sourceType,
        source_id: c.sourceId, source_doc: c.sourceDoc, day: c.day, quantity: c.quantity, rate_minor: c.rateMinor, markup_bp: c.markupBp, divisor: c.divisor,
        amount_minor: c.amountMinor, rate_version_id: c.rateVersionId, invoice_id: invoiceId, reverses_charge_id: null,
        description: c.description ?? null, created_by: null,
      }))).onConflict((oc) => oc.columns(['customer_id', 'warehouse_id', 'charge_type', 'charge_key']).doNothing()).execute();
    }
  }

  /**
   * Credits for reversed sources: each charge of the reversed document (a void label: the latest label of its
   * document not credited yet) gets its negative, keyed to the charge credited, so it is credited once.
   */
  private async credit(tx: Executor, invoiceId: number, s: Scope3, reversals: Reversal[]) {
    for (const r of reversals) {
      const originals = await tx.selectFrom('billing_charge as c').selectAll('c')
        .where('c.customer_id', '=', s.customerId).where('c.warehouse_id', '=', s.warehouseId).where('c.source_doc', '=', r.sourceDoc)
        .where('c.charge_type', 'in', r.chargeTypes).where('c.reverses_charge_id', 'is', null)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('billing_charge as k').select('k.id').whereRef('k.reverses_charge_id', '=', 'c.id'))))
        .orderBy('c.id').execute();
      let chosen = originals;
      if (r.before !== undefined) {
        // A void takes back one label: the latest made before it.
        const labels = [...new Set(originals.map((o) => n(o.source_id)).filter((id) => id < r.before!))];
        const latest = Math.max(...labels);
        chosen = labels.length ? originals.filter((o) => n(o.source_id) === latest) : [];
      }
      if (chosen.length === 0) continue;
      await tx.insertInto('billing_charge').values(chosen.map((o) => ({
        customer_id: s.customerId, warehouse_id: s.warehouseId, charge_type: o.charge_type, qualifier: o.qualifier,
        charge_key: r.before !== undefined ? `void:${r.sourceId}` : `rev:${o.id}`, source_type: r.sourceType, source_id: r.sourceId, source_doc: r.sourceDoc,
        day: r.day, quantity: -n(o.quantity), rate_minor: n(o.rate_minor), markup_bp: n(o.markup_bp), divisor: n(o.divisor), amount_minor: -n(o.amount_minor),
        rate_version_id: o.rate_version_id, invoice_id: invoiceId, reverses_charge_id: n(o.id), description: null, created_by: null,
      }))).onConflict((oc) => oc.columns(['customer_id', 'warehouse_id', 'charge_type', 'charge_key']).doNothing()).execute();
    }
  }

  /** For each month ending in the period: what the month's charges fall short of the card's monthly minimum. */
  private async minimumTopUps(tx: Executor, book: RateBook, s: Scope3): Promise<RatedCharge[]> {
    const out: RatedCharge[] = [];
    for (const end of monthEnds(s)) {
      const r = book.rateOn(end, 'monthly_minimum', '');
      if (!r) continue;
      const start = `${end.slice(0, 8)}01`;
      const billed = await tx.selectFrom('billing_charge').select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount_minor'), sql<number>`0`).as('total'))
        .where('customer_id', '=', s.customerId).where('warehouse_id', '=', s.warehouseId).where('day', '>=', start).where('day', '<=', end)
        .where('charge_type', '!=', 'monthly_minimum').where('invoice_id', 'is not', null).executeTakeFirstOrThrow();
      const short = r.rateMinor - n(billed.total);
      if (short <= 0) continue;
      out.push({
        chargeType: 'monthly_minimum', qualifier: '', key: `min:${end.slice(0, 7)}`, sourceType: 'minimum', sourceId: end.slice(0, 7), sourceDoc: null, day: end, quantity: 1,
        rateMinor: short, markupBp: 0, divisor: 1, amountMinor: short, rateVersionId: r.versionId,
        description: `Minimum ${formatMinor(r.rateMinor)} less ${formatMinor(n(billed.total))} billed in ${end.slice(0, 7)}`,
      });
    }
    return out;
  }

  // ---- Drafts: manual lines, finalising, discarding ----

  private async draftOrThrow(principal: Principal, invoiceId: number) {
    const inv = await repo.invoice(this.db, principal.scope, invoiceId);
    if (!inv) throw notFound('Invoice');
    if (inv.status !== 'Draft') {
      const message = `${inv.invoice_number ?? 'This invoice'} is ${inv.status}: it is locked (correct a final invoice with a credit note)`;
      throw new AppError(409, ERROR_CODES.CONFLICT, message, { status: inv.status });
    }
    return inv;
  }

  async addManualLine(principal: Principal, input: { invoiceId: number; chargeType: ChargeType; description: string; quantity: number; rateMinor: number; reason: string }, actor: Actor) {
    const inv = await this.draftOrThrow(principal, input.invoiceId);
    const amount = chargeAmount(input.quantity, input.rateMinor, 0, 1);
    await inTransaction(this.db, async (uow) => {
      const line = await uow.tx.insertInto('invoice_line').values({
        invoice_id: input.invoiceId, charge_type: input.chargeType, qualifier: '', description: input.description, quantity: input.quantity, rate_minor: input.rateMinor,
        markup_bp: 0, amount_minor: amount, is_manual: 1, reason: input.reason, source_count: 0, credits_line_id: null, created_by: actor.userId,
      }).returningAll().executeTakeFirstOrThrow();
      // Locked against a concurrent finalise: the line lands only while the invoice is still a draft.
      const still = await uow.tx.updateTable('invoice').set({ updated_at: new Date().toISOString() }).where('id', '=', input.invoiceId).where('status', '=', 'Draft').returning('id').executeTakeFirst();
      if (!still) throw conflict('The invoice was finalised meanwhile');
      await retotal(uow.tx, input.invoiceId);
      await this.recorder.record(uow, actor, { audit: { action: 'add-line', entity: 'invoice', entityId: input.invoiceId, warehouseId: n(inv.warehouse_id), customerId: n(inv.customer_id), after: line } });
    });
    return { message: `Line added: ${input.description} ${formatMinor(amount, inv.currency)}`, data: await this.detail(principal, input.invoiceId) };
  }

  async removeManualLine(principal: Principal, input: { invoiceId: number; lineId: number }, actor: Actor) {
    const inv = await this.draftOrThrow(principal, input.invoiceId);
    await inTransaction(this.db, async (uow) => {
      const line = await uow.tx.deleteFrom('invoice_line').where('id', '=', input.lineId).where('invoice_id', '=', input.invoiceId).where('is_manual', '=', 1).returningAll().executeTakeFirst();
      if (!line) throw notFound('Manual line');
      await retotal(uow.tx, input.invoiceId);
      await this.recorder.record(uow, actor, { audit: { action: 'remove-line', entity: 'invoice', entityId: input.invoiceId, warehouseId: n(inv.warehouse_id), customerId: n(inv.customer_id), before: line } });
    });
    return { message: 'Line removed', data: await this.detail(principal, input.invoiceId) };
  }

  /**
   * Finalises a draft whose run is done: Draft → Final in one conditional update (a second finalise is refused,
   * 409), then its number, taken in the same transaction (a rollback gives the number back: no gaps).
   */
  async finalize(principal: Principal, invoiceId: number, actor: Actor) {
    const inv = await this.draftOrThrow(principal, invoiceId);
    if (inv.run_status !== 'done') {
      const message = inv.run_status === 'failed' ? 'The run failed: run the draft again before finalising' : 'The draft is still being billed';
      throw new AppError(409, ERROR_CODES.CONFLICT, message, { runStatus: inv.run_status });
    }
    const number = await inTransaction(this.db, async (uow) => {
      const at = new Date().toISOString();
      await this.statuses.transition(uow, actor, {
        kind: 'INVOICE', id: invoiceId, to: 'Final', from: ['Draft'], when: sql`run_status = 'done'`,
        set: { finalized_at: at, finalized_by: actor.userId, updated_at: at },
        refusal: (current) => `The invoice is ${current}: it was finalised already`,
        change: { audit: { action: 'finalize', entity: 'invoice', entityId: invoiceId, warehouseId: n(inv.warehouse_id), customerId: n(inv.customer_id), before: { status: 'Draft' } } },
      });
      const taken = await documentNumbers.next(uow, 'INV', { warehouseId: n(inv.warehouse_id) });
      await uow.tx.updateTable('invoice').set({ invoice_number: taken.number }).where('id', '=', invoiceId).execute();
      return taken.number;
    });
    return { message: `Invoice ${number} is final`, data: await this.summary(principal, invoiceId) };
  }

  async discard(principal: Principal, invoiceId: number, actor: Actor) {
    const inv = await this.draftOrThrow(principal, invoiceId);
    if (inv.run_status === 'queued' || inv.run_status === 'running') throw conflict('This draft is being billed now; wait for the run to end');
    await inTransaction(this.db, async (uow) => {
      await this.statuses.transition(uow, actor, {
        kind: 'INVOICE', id: invoiceId, to: 'Discarded', from: ['Draft'],
        change: { audit: { action: 'discard', entity: 'invoice', entityId: invoiceId, warehouseId: n(inv.warehouse_id), customerId: n(inv.customer_id) } },
      });
      await this.release(uow, invoiceId);
    });
    return { message: 'Draft discarded: its charges are unbilled again', data: await this.summary(principal, invoiceId) };
  }

  /** A credit note for lines of a final invoice (all when none are named): final at once, with its own gap-free number. */
  async creditNote(principal: Principal, input: { invoiceId: number; reason: string; lineIds?: number[] }, actor: Actor) {
    const inv = await repo.invoice(this.db, principal.scope, input.invoiceId);
    if (!inv) throw notFound('Invoice');
    if (inv.kind !== 'invoice' || inv.status !== 'Final') {
      const message = 'Only a final invoice can be credited';
      throw new AppError(409, ERROR_CODES.CONFLICT, message, { invoiceId: message });
    }
    const lines = await this.db.selectFrom('invoice_line').selectAll().where('invoice_id', '=', input.invoiceId).orderBy('id').execute();
    const chosen = input.lineIds?.length ? lines.filter((l) => input.lineIds!.includes(n(l.id))) : lines;
    if (input.lineIds?.length && chosen.length !== new Set(input.lineIds).size) throw unprocessable('A line named is not on this invoice', { lineIds: 'A line named is not on this invoice' });
    if (chosen.length === 0) throw unprocessable('The invoice has no lines to credit', { lineIds: 'The invoice has no lines to credit' });
    const { id, number } = await inTransaction(this.db, async (uow) => {
      // Lock the invoice so two credit notes cannot credit one line twice.
      if (this.dialect.engine === 'postgres') await sql`select id from invoice where id = ${input.invoiceId} for update`.execute(uow.tx);
      const credited = await uow.tx.selectFrom('invoice_line as l').innerJoin('invoice as i', 'i.id', 'l.invoice_id').select('l.credits_line_id')
        .where('i.credits_invoice_id', '=', input.invoiceId).where('l.credits_line_id', 'in', chosen.map((l) => l.id)).execute();
      if (credited.length) {
        const message = 'A line chosen was credited already';
        throw new AppError(409, ERROR_CODES.CONFLICT, message, { lineIds: message });
      }
      const at = new Date().toISOString();
      const note = await uow.tx.insertInto('invoice').values({
        kind: 'credit_note', invoice_number: null, warehouse_id: inv.warehouse_id, customer_id: inv.customer_id, period_kind: inv.period_kind, period_from: inv.period_from,
        period_to: inv.period_to, currency: inv.currency, tax_rate_bp: inv.tax_rate_bp, run_status: 'done', run_step: RUN_STEPS.length, run_job_id: null, run_message: null,
        credits_invoice_id: input.invoiceId, reason: input.reason, created_by: actor.userId, updated_at: at, finalized_at: null, finalized_by: null,
      }).returning('id').executeTakeFirstOrThrow();
      const noteId = n(note.id);
      await uow.tx.insertInto('invoice_line').values(chosen.map((l) => ({
        invoice_id: noteId, charge_type: l.charge_type, qualifier: l.qualifier, description: l.description, quantity: -n(l.quantity), rate_minor: l.rate_minor,
        markup_bp: l.markup_bp, amount_minor: -n(l.amount_minor), is_manual: 0, reason: input.reason, source_count: l.source_count, credits_line_id: n(l.id), created_by: actor.userId,
      }))).execute();
      await retotal(uow.tx, noteId);
      await this.statuses.transition(uow, actor, {
        kind: 'INVOICE', id: noteId, to: 'Final', from: ['Draft'], reason: input.reason, set: { finalized_at: at, finalized_by: actor.userId },
        change: { audit: { action: 'credit', entity: 'invoice', entityId: noteId, warehouseId: n(inv.warehouse_id), customerId: n(inv.customer_id), after: { credits: inv.invoice_number, lines: chosen.length, reason: input.reason } } },
      });
      const taken = await documentNumbers.next(uow, 'CN', { warehouseId: n(inv.warehouse_id) });
      await uow.tx.updateTable('invoice').set({ invoice_number: taken.number }).where('id', '=', noteId).execute();
      return { id: noteId, number: taken.number };
    });
    return { message: `Credit note ${number} for ${inv.invoice_number}`, data: await this.detail(principal, id) };
  }

  // ---- Reading ----

  /** A client account sees its own customer's final invoices and credit notes only (drafts are the 3PL's). */
  private clientView(principal: Principal) {
    return principal.role === 'Client';
  }

  async list(principal: Principal, req: ListRequest<{ customerId?: number; warehouseId?: number; status?: string; kind?: string }>) {
    return toListPage(await repo.invoices(this.db, this.dialect, principal.scope, req, this.clientView(principal)), toSummary);
  }

  async summary(principal: Principal, invoiceId: number): Promise<InvoiceSummary> {
    const row = await repo.invoice(this.db, principal.scope, invoiceId);
    if (!row || (this.clientView(principal) && row.status !== 'Final')) throw notFound('Invoice');
    return toSummary(row);
  }

  async detail(principal: Principal, invoiceId: number): Promise<InvoiceDetail> {
    const summary = await this.summary(principal, invoiceId);
    const row = (await repo.invoice(this.db, principal.scope, invoiceId))!;
    const lines = await this.db.selectFrom('invoice_line').selectAll().where('invoice_id', '=', invoiceId).orderBy('id').execute();
    const order = Object.keys(CHARGE_TYPES);
    return {
      ...summary,
      unrated: JSON.parse(row.unrated_json) as InvoiceDetail['unrated'],
      lines: lines.map((l): InvoiceLine => ({
        lineId: n(l.id), chargeType: l.charge_type as ChargeType, group: CHARGE_TYPES[l.charge_type as ChargeType].group, qualifier: l.qualifier, description: l.description,
        unit: CHARGE_TYPES[l.charge_type as ChargeType].unit, quantity: n(l.quantity), rateMinor: l.rate_minor == null ? null : n(l.rate_minor), markupBp: n(l.markup_bp),
        amountMinor: n(l.amount_minor), manual: n(l.is_manual) === 1, reason: l.reason, sourceCount: n(l.source_count),
      })).sort((a, b) => order.indexOf(a.chargeType) - order.indexOf(b.chargeType) || a.lineId - b.lineId),
    };
  }

  /** The charges behind a line (a credit note's line: the credited line's), each with its source and a link to it. */
  async lineSources(principal: Principal, input: { invoiceId: number; lineId: number }): Promise<{ items: ChargeSource[]; totalCount: number }> {
    await this.summary(principal, input.invoiceId);
    const line = await this.db.selectFrom('invoice_line').select(['id', 'credits_line_id']).where('id', '=', input.lineId).where('invoice_id', '=', input.invoiceId).executeTakeFirst();
    if (!line) throw notFound('Invoice line');
    const own = await this.db.selectFrom('invoice_line').select(['invoice_id', 'charge_type', 'qualifier', 'line_key']).where('id', '=', line.credits_line_id ?? line.id).executeTakeFirstOrThrow();
    const rows = own.line_key === null ? [] : await this.db.selectFrom('billing_charge').selectAll()
      .where('invoice_id', '=', own.invoice_id).where('charge_type', '=', own.charge_type).where('qualifier', '=', own.qualifier).where(LINE_KEY_SQL, '=', own.line_key)
      .orderBy('day').orderBy('id').limit(5000).execute();
    return {
      totalCount: rows.length,
      items: rows.map((c) => ({
        chargeId: n(c.id), day: c.day, sourceType: c.source_type, sourceId: c.source_id, sourceDoc: c.source_doc, link: linkOf(c),
        quantity: n(c.quantity), rateMinor: n(c.rate_minor), markupBp: n(c.markup_bp), divisor: n(c.divisor), amountMinor: n(c.amount_minor),
        reversesChargeId: c.reverses_charge_id == null ? null : n(c.reverses_charge_id), description: c.description,
      })),
    };
  }

  assertBillingStaff(principal: Principal) {
    if (this.clientView(principal)) throw forbidden();
  }
}

/** Where the web opens a charge's source. */
function linkOf(c: { source_type: string; source_id: string; source_doc: string | null; day: string }): ChargeSource['link'] {
  const [docType, ...rest] = (c.source_doc ?? '').split(':');
  const docId = rest.join(':');
  if (c.source_type === 'snapshot') return { kind: 'snapshot', id: c.day };
  if (c.source_type === 'manual') return { kind: 'manual', id: c.source_id };
  if (docType === 'SO') return { kind: 'order', id: docId };
  // A receipt's ledger rows open the receiving order they belong to (its lines: what arrived, on which line).
  if (docType === 'RECEIPT') return { kind: 'receiving', id: docId };
  if (c.source_type === 'ledger') return { kind: 'ledger', id: c.source_doc ?? c.source_id };
  if (c.source_type === 'event') return { kind: 'event', id: c.source_id };
  return null;
}

/** A charge's line: its type, qualifier, markup, divisor, rate (none for cost-plus and minimum lines), sign and own text. */
const LINE_KEY = {
  rate: sql<number | string>`CASE WHEN charge_type = 'carrier_markup' OR source_type = 'minimum' THEN -1 ELSE rate_minor END`,
  credit: sql<number>`CASE WHEN reverses_charge_id IS NULL THEN 0 ELSE 1 END`,
  text: sql<string>`CASE WHEN source_type = 'manual' OR source_type = 'minimum' THEN COALESCE(description, '') ELSE '' END`,
};
const lineKeyOf = (k: { charge_type: string; qualifier: string; markup_bp: unknown; divisor: unknown; rate: unknown; credit: unknown; text: string }) =>
  [k.charge_type, k.qualifier, n(k.markup_bp), n(k.divisor), n(k.rate), n(k.credit), k.text].join('\u0001');
const LINE_KEY_SQL = sql<string>`charge_type || ${'\u0001'} || qualifier || ${'\u0001'} || CAST(markup_bp AS TEXT) || ${'\u0001'} || CAST(divisor AS TEXT) || ${'\u0001'}
  || CAST(${LINE_KEY.rate} AS TEXT) || ${'\u0001'} || CAST(${LINE_KEY.credit} AS TEXT) || ${'\u0001'} || ${LINE_KEY.text}`;

/**
 * The invoice's lines from its charges: one line per charge type, qualifier, rate and sign (credits apart). A line
 * keeps the key its charges share (lineSources finds them by it): the charges themselves are not written again.
 */
export async function buildLines(tx: Executor, invoiceId: number) {
  await tx.deleteFrom('invoice_line').where('invoice_id', '=', invoiceId).where('is_manual', '=', 0).execute();
  const groups = await tx.selectFrom('billing_charge')
    .select((eb) => [
      'charge_type', 'qualifier', 'markup_bp', 'divisor', LINE_KEY.rate.as('rate'), LINE_KEY.credit.as('credit'), LINE_KEY.text.as('text'),
      eb.fn.sum<number | string>('quantity').as('quantity'), eb.fn.sum<number | string>('amount_minor').as('amount'), eb.fn.countAll<number | string>().as('count'),
    ])
    .where('invoice_id', '=', invoiceId)
    .groupBy(['charge_type', 'qualifier', 'markup_bp', 'divisor', LINE_KEY.rate, LINE_KEY.credit, LINE_KEY.text])
    .execute();
  const order = Object.keys(CHARGE_TYPES);
  groups.sort((a, b) => order.indexOf(a.charge_type) - order.indexOf(b.charge_type) || a.qualifier.localeCompare(b.qualifier) || n(a.credit) - n(b.credit) || n(a.rate) - n(b.rate));
  for (const g of groups) {
    const type = g.charge_type as ChargeType;
    const def = CHARGE_TYPES[type];
    const rateMinor = n(g.rate) < 0 ? null : n(g.rate);
    const per = def.divisor === 'month' ? ' (rate per month, by the day)' : def.divisor === 'cm3' ? ' (rate per m³ per day)' : def.divisor === 'hour' ? ' (rate per hour)' : '';
    const description = `${g.text || def.label}${g.qualifier && !g.text ? ` — ${g.qualifier}` : ''}${per}${n(g.credit) ? ' — credit for reversed activity' : ''}`.slice(0, 200);
    await tx.insertInto('invoice_line').values({
      invoice_id: invoiceId, charge_type: type, qualifier: g.qualifier, description, quantity: n(g.quantity), rate_minor: rateMinor, markup_bp: n(g.markup_bp),
      amount_minor: n(g.amount), is_manual: 0, reason: null, source_count: n(g.count), credits_line_id: null, created_by: null, line_key: lineKeyOf(g),
    }).execute();
  }
  await retotal(tx, invoiceId);
}

/** Subtotal (the lines), tax on it (rounded once), total. */
export async function retotal(tx: Executor, invoiceId: number) {
  const inv = await tx.selectFrom('invoice').select(['tax_rate_bp']).where('id', '=', invoiceId).executeTakeFirstOrThrow();
  const sum = await tx.selectFrom('invoice_line').select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount_minor'), sql<number>`0`).as('s')).where('invoice_id', '=', invoiceId).executeTakeFirstOrThrow();
  const subtotal = n(sum.s);
  const tax = taxOf(subtotal, n(inv.tax_rate_bp));
  await tx.updateTable('invoice').set({ subtotal_minor: subtotal, tax_minor: tax, total_minor: subtotal + tax }).where('id', '=', invoiceId).execute();
}

/** The billing run job. */
export function registerBillingJobs(jobs: Jobs, billing: BillingService) {
  jobs.register<RunPayload>(BILLING_RUN_JOB, {
    payload: runPayload,
    maxAttempts: 3,
    backoffMs: 2000,
    run: (payload, ctx) => billing.work(payload, ctx),
    async onCancel(payload, uow) {
      await uow.tx.updateTable('invoice').set({ run_status: 'failed', run_message: 'The run was cancelled' }).where('id', '=', payload.invoiceId).execute();
    },
  });
}
