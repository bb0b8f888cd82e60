import { z } from 'zod';
import {
  REPORT_AREAS, REPORT_FORMATS, REPORT_KEYS, REPORTS, reportFilters, type QueuedJobResult, type ReportArea, type ReportFormat, type ReportJobResult,
  type ReportKey, type ReportSubscription, type SubscribeReportInput,
} from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { forbidden, notFound, unprocessable } from '../../platform/errors.js';
import { readStoredFile, storeFile } from '../../platform/files.js';
import { nextSlot, parseCron, type Jobs, type Schedules } from '../../platform/jobs/index.js';
import type { Mailer } from '../../platform/mail.js';
import type { Principal } from '../../platform/principal.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import { renderReport } from './report-export.js';
import { JOB_LIMIT } from './report-range.js';
import type { ReportService } from './reports.service.js';

type Filters = z.output<typeof reportFilters>;

export const REPORT_EXPORT_JOB = 'reports.export';
export const REPORT_SUBSCRIPTIONS_DUE_JOB = 'reports.subscriptions-due';
export const REPORT_SUBSCRIPTION_SEND_JOB = 'reports.subscription-send';
export const REPORT_FILES_CLEANUP_JOB = 'reports.files-cleanup';
/** Nightly, after the platform's housekeeping (03:17 UTC). */
const CLEANUP_CRON = '47 3 * * *';
const DAY_MS = 86_400_000;
/** How often due subscriptions are looked for: a subscription's hour is kept to within this. */
const DUE_CRON = '*/15 * * * *';
/** Due subscriptions one run of the due job hands out (the rest wait for the next run, a quarter of an hour on). */
const DUE_BATCH = 200;

const exportPayload = z.object({ area: z.enum(Object.keys(REPORT_AREAS) as [ReportArea, ...ReportArea[]]), report: z.enum(REPORT_KEYS), filters: reportFilters, format: z.enum(REPORT_FORMATS) });
type ExportPayload = z.infer<typeof exportPayload>;
const sendPayload = z.object({ subscriptionId: z.number().int(), slotAt: z.string() });

type PrincipalOfUser = (userId: number, session: string) => Promise<Principal | null>;

/** A subscription's clock as a cron: at the hour every day, or on its weekday. */
const cronOf = (s: { frequency: string; hour: number; weekday: number | null }) => `0 ${s.hour} * * ${s.frequency === 'weekly' ? s.weekday : '*'}`;
function nextRun(s: { frequency: string; hour: number; weekday: number | null }, zone: string, after: number): string {
  const at = nextSlot(parseCron(cronOf(s)), zone, after);
  if (at === null) throw new Error(`No next slot for ${cronOf(s)} in ${zone}`);
  return new Date(at).toISOString();
}

/**
 * Reports away from the screen: a long report run as a background job (progress to its owner over the hub, the
 * export kept for download), and scheduled reports — a user's subscription e-mailed daily or weekly with the export
 * attached. Both run the report as their user with the user's access as it is then, through the one report service.
 */
export class ReportJobs {
  constructor(
    private readonly deps: { db: Db; dialect: Dialect; jobs: Jobs; mailer: Mailer; retentionDays: number },
    private readonly reports: ReportService,
  ) {}

  /** Queues a report as a job: its filters are checked now (read permission, scope, values, the job's range limit). */
  async queue(principal: Principal, area: ReportArea, input: { report: ReportKey; filters: Filters; format: ReportFormat }): Promise<{ message: string; data: QueuedJobResult }> {
    const scope = await this.reports.check(principal, area, input.report, input.filters, JOB_LIMIT);
    const job = await this.deps.jobs.enqueue<ExportPayload>(this.deps.db, REPORT_EXPORT_JOB, { area, ...input }, {
      ownerUserId: principal.userId, warehouseId: scope.warehouseId ?? null, customerId: scope.customerId ?? null,
    });
    return { message: `${REPORTS[input.report].title} is being prepared`, data: { jobId: job.jobId, status: job.status } };
  }

  /** The export a report job made: its owner only (someone else's job answers as missing). */
  async file(principal: Principal, jobId: number) {
    const row = await this.deps.jobs.find(jobId);
    if (!row || row.name !== REPORT_EXPORT_JOB || row.owner_user_id !== principal.userId) throw notFound('Report job');
    if (row.status !== 'succeeded' || !row.result_json) throw unprocessable('The report is not ready yet');
    const result = JSON.parse(row.result_json) as ReportJobResult;
    const file = await readStoredFile(this.deps.db, result.fileId);
    if (!file) throw notFound(`Report file (kept ${this.deps.retentionDays} day${this.deps.retentionDays === 1 ? '' : 's'}: run the report again)`);
    return file;
  }

  /**
   * Deletes what reports leave behind once kept `retentionDays`: the files of report jobs finished before then, and
   * the attachments of mail sent before then (an unsent mail keeps its files: the outbox may still send it).
   */
  async removeExpiredFiles(now = Date.now()): Promise<{ reportFiles: number; attachments: number }> {
    const before = new Date(now - this.deps.retentionDays * DAY_MS).toISOString();
    return inTransaction(this.deps.db, async (uow) => {
      const jobs = await uow.tx.selectFrom('job').select(['id', 'result_json'])
        .where('name', '=', REPORT_EXPORT_JOB).where('status', '=', 'succeeded').where('finished_at', '<', before).where('result_json', 'is not', null)
        .execute();
      const reportFileIds = jobs.map((j) => (JSON.parse(j.result_json!) as Partial<ReportJobResult>).fileId).filter((id): id is number => typeof id === 'number');
      const attached = await uow.tx.selectFrom('mail_attachment as a').innerJoin('mail_outbox as m', 'm.id', 'a.mail_id')
        .select(['a.id', 'a.file_id']).where('m.sent_at', 'is not', null).where('m.sent_at', '<', before).execute();
      let reportFiles = 0;
      for (let i = 0; i < reportFileIds.length; i += 500) {
        reportFiles += Number((await uow.tx.deleteFrom('stored_file').where('id', 'in', reportFileIds.slice(i, i + 500)).executeTakeFirst()).numDeletedRows);
      }
      for (let i = 0; i < attached.length; i += 500) {
        const part = attached.slice(i, i + 500);
        await uow.tx.deleteFrom('mail_attachment').where('id', 'in', part.map((a) => a.id)).execute();
        await uow.tx.deleteFrom('stored_file').where('id', 'in', part.map((a) => a.file_id)).execute();
      }
      return { reportFiles, attachments: attached.length };
    });
  }

  // ---- Scheduled reports ----

  /** Subscribes the caller to a report: one they may read, with filters valid for them now; a client's held to its customer. */
  async subscribe(principal: Principal, input: SubscribeReportInput & { filters: Filters; hour: number }): Promise<{ message: string; data: ReportSubscription }> {
    const scope = await this.reports.check(principal, null, input.report, input.filters);
    // A client account's subscription names its customer, so what is sent never depends on a later default.
    const filters: Filters = { ...input.filters, ...(scope.customerId ? { customerId: scope.customerId } : {}) };
    const shape = { frequency: input.frequency, hour: input.hour, weekday: input.frequency === 'weekly' ? input.weekday ?? 1 : null };
    const now = new Date().toISOString();
    const { id } = await this.deps.db.insertInto('report_subscription').values({
      user_id: principal.userId, report: input.report, filters: JSON.stringify(filters), format: input.format, ...shape,
      time_zone: scope.zone, next_run_at: nextRun(shape, scope.zone, Date.now()), last_sent_at: null, created_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const data = (await this.subscriptions(principal)).find((s) => s.subscriptionId === id)!;
    return { message: `${REPORTS[input.report].title} will be e-mailed ${input.frequency === 'daily' ? 'every day' : 'every week'}`, data };
  }

  /** The caller's own subscriptions. */
  async subscriptions(principal: Principal): Promise<ReportSubscription[]> {
    const [rows, user] = await Promise.all([
      this.deps.db.selectFrom('report_subscription').selectAll().where('user_id', '=', principal.userId).orderBy('id').execute(),
      this.deps.db.selectFrom('app_user').select('email').where('id', '=', principal.userId).executeTakeFirst(),
    ]);
    return rows.map((r) => ({
      subscriptionId: Number(r.id), report: r.report as ReportKey, title: REPORTS[r.report as ReportKey]?.title ?? r.report, filters: reportFilters.parse(JSON.parse(r.filters)),
      format: r.format as ReportSubscription['format'], frequency: r.frequency as ReportSubscription['frequency'], weekday: r.weekday, hour: r.hour, timeZone: r.time_zone,
      email: user?.email ?? '', nextRunAt: r.next_run_at, lastSentAt: r.last_sent_at,
    }));
  }

  async unsubscribe(principal: Principal, subscriptionId: number) {
    const r = await this.deps.db.deleteFrom('report_subscription').where('id', '=', subscriptionId).where('user_id', '=', principal.userId).executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw notFound('Subscription');
    return { message: 'Subscription cancelled', data: { subscriptionId } };
  }

  /**
   * Hands out the subscriptions due at `now`: each is moved on to its next run and a send job queued for it in one
   * transaction, so a subscription is sent once per run however many nodes look (PostgreSQL: the rows are taken
   * with SKIP LOCKED, so two nodes share them out instead of waiting on each other).
   */
  async handOutDue(now = Date.now()): Promise<number> {
    const at = new Date(now).toISOString();
    return inTransaction(this.deps.db, async (uow) => {
      let due = uow.tx.selectFrom('report_subscription').select(['id', 'user_id', 'frequency', 'hour', 'weekday', 'time_zone', 'next_run_at'])
        .where('next_run_at', '<=', at).orderBy('next_run_at').limit(DUE_BATCH);
      if (this.deps.dialect.engine === 'postgres') due = due.forUpdate().skipLocked();
      const rows = await due.execute();
      for (const r of rows) {
        await uow.tx.updateTable('report_subscription').set({ next_run_at: nextRun(r, r.time_zone, now) }).where('id', '=', r.id).execute();
        await this.deps.jobs.enqueue(uow, REPORT_SUBSCRIPTION_SEND_JOB, { subscriptionId: Number(r.id), slotAt: r.next_run_at }, { ownerUserId: r.user_id });
      }
      return rows.length;
    });
  }

  /** Runs one subscription's report as its user (access as it is now) and puts the mail, file attached, in the outbox. */
  async send(subscriptionId: number, principalOfUser: PrincipalOfUser, session: string): Promise<{ sent: boolean; mailTo?: string; reason?: string }> {
    const sub = await this.deps.db.selectFrom('report_subscription').selectAll().where('id', '=', subscriptionId).executeTakeFirst();
    if (!sub) return { sent: false, reason: 'cancelled' };
    const principal = await principalOfUser(sub.user_id, session);
    if (!principal) return { sent: false, reason: 'the user can no longer sign in' };
    const report = sub.report as ReportKey;
    if (!this.reports.mayRead(principal, report)) throw forbidden(`You may no longer read ${REPORTS[report].title}`);
    const result = await this.reports.run(principal, null, report, reportFilters.parse(JSON.parse(sub.filters)));
    const file = await renderReport(result, sub.format as ReportFormat);
    const user = await this.deps.db.selectFrom('app_user').select('email').where('id', '=', sub.user_id).executeTakeFirstOrThrow();
    await inTransaction(this.deps.db, async (uow) => {
      await this.deps.mailer.enqueue(uow.tx, {
        to: user.email,
        subject: `${result.title}: ${result.fromDate} to ${result.toDate}`,
        body: `Your ${sub.frequency} report "${result.title}" (${result.fromDate} to ${result.toDate}, ${result.rows.length} rows) is attached.\n\nTo stop it, cancel the subscription on the report's screen.`,
        attachments: [{ fileName: file.file, mimeType: file.type, bytes: file.body }],
      }, uow.afterCommit);
      await uow.tx.updateTable('report_subscription').set({ last_sent_at: new Date().toISOString() }).where('id', '=', sub.id).execute();
    });
    return { sent: true, mailTo: user.email };
  }

  /** The job handlers and the schedule that looks for due subscriptions. */
  register(jobs: Jobs, schedules: Schedules, principalOfUser: PrincipalOfUser): void {
    jobs.register(REPORT_EXPORT_JOB, {
      payload: exportPayload,
      maxAttempts: 2,
      run: async (p, ctx): Promise<ReportJobResult> => {
        const principal = ctx.ownerUserId ? await principalOfUser(ctx.ownerUserId, `job:${ctx.jobId}`) : null;
        if (!principal) throw forbidden('The user who asked for this report can no longer sign in');
        await ctx.progress(0, 3, 'Reading the data');
        const result = await this.reports.run(principal, p.area, p.report, p.filters, new Date(), JOB_LIMIT);
        await ctx.progress(1, 3, `Writing ${result.rows.length} rows`);
        const file = await renderReport(result, p.format);
        await ctx.progress(2, 3, 'Keeping the file');
        const stored = await inTransaction(this.deps.db, (uow) => storeFile(uow.tx, { fileName: file.file, mimeType: file.type, bytes: file.body, createdBy: principal.userId }));
        await ctx.progress(3, 3, 'Ready to download');
        return { fileId: stored.id, fileName: stored.fileName, rows: result.rows.length };
      },
    });
    jobs.register(REPORT_SUBSCRIPTIONS_DUE_JOB, {
      payload: z.object({ slot: z.string() }),
      maxAttempts: 2,
      run: async () => ({ queued: await this.handOutDue() }),
    });
    jobs.register(REPORT_SUBSCRIPTION_SEND_JOB, {
      payload: sendPayload,
      run: (p, ctx) => this.send(p.subscriptionId, principalOfUser, `job:${ctx.jobId}`),
    });
    jobs.register(REPORT_FILES_CLEANUP_JOB, {
      payload: z.object({ slot: z.string() }),
      maxAttempts: 2,
      run: (p) => this.removeExpiredFiles(Date.parse(p.slot)),
    });
    schedules.register({ name: REPORT_FILES_CLEANUP_JOB, cron: CLEANUP_CRON, timeZone: 'UTC', job: REPORT_FILES_CLEANUP_JOB, payload: (slot) => ({ slot }) });
    schedules.register({ name: REPORT_SUBSCRIPTIONS_DUE_JOB, cron: DUE_CRON, timeZone: 'UTC', job: REPORT_SUBSCRIPTIONS_DUE_JOB, payload: (slot) => ({ slot }) });
  }
}
