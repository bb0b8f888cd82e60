import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_JOB_MAX_RANGE_MESSAGE, REPORT_MAX_RANGE_MESSAGE } from '@bolx/contracts';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeSku, makeUser, makeWarehouse, recordEvents, type TestApp } from '../../../test/helpers.js';
import { storeFile } from '../../platform/files.js';
import { REPORT_EXPORT_JOB, REPORT_FILES_CLEANUP_JOB, REPORT_SUBSCRIPTION_SEND_JOB } from './report-jobs.js';

// Orders of two clients three years apart: a report over all of them is past the on-screen limit (2 years).
let t: TestApp;
let admin: ReturnType<typeof as>;
let clientB: ReturnType<typeof as>;
let clientBUser: { id: number; username: string; password: string };
let wh: number, custA: number, custB: number, sku: number;
let seq = 0;
const longRange = { preset: 'custom', fromDate: '2023-01-01', toDate: '2025-12-31' };

async function order(customer: number, created: string) {
  const db = t.database.db;
  const { id } = await db.insertInto('sales_order').values({
    so_number: `SO-J${++seq}-${Math.random().toString(36).slice(2, 6)}`, warehouse_id: wh, customer_id: customer, order_type: 'Sales', reference_number: `REF-J${seq}-${Math.random()}`,
    order_date: created.slice(0, 10), requested_ship_date: null, priority: 5, ship_to_name: null, ship_to_address1: null, ship_to_address2: null, ship_to_city: null,
    ship_to_state: null, ship_to_zip: null, ship_to_country: null, ship_to_phone: null, ship_to_email: null, carrier_account_id: null, carrier_service: null, notes: null,
    status: 'New', source: 'screen', created_by: null, created_at: created, updated_at: created,
  }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('sales_order_line').values({ order_id: id, line_no: 1, sku_id: sku, quantity: 1, package_id: null, units_per_package: 1, lot: '', notes: null }).execute();
}

/** Runs the worker until the job ends; answers its row. */
async function runJob(jobId: number) {
  const db = t.database.db;
  await t.app.services.jobs.start({ pollMs: 10, lockMs: 5000, concurrency: 1 });
  try {
    for (let i = 0; i < 500; i++) {
      const row = await db.selectFrom('job').select('status').where('id', '=', jobId).executeTakeFirstOrThrow();
      if (row.status === 'succeeded' || row.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await t.app.services.jobs.stop();
  }
  return db.selectFrom('job').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
}

async function xlsxTotals(bytes: Buffer): Promise<unknown[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  const ws = wb.worksheets[0];
  return (ws.getRow(ws.rowCount).values as unknown[]).slice(1);
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  custA = await makeCustomer(t.database, [wh]);
  custB = await makeCustomer(t.database, [wh]);
  sku = await makeSku(t.database, custA);
  await order(custA, '2023-03-01T10:00:00.000Z');
  await order(custA, '2025-06-01T10:00:00.000Z');
  await order(custB, '2024-02-01T10:00:00.000Z');
  clientBUser = await makeUser(t.database, { role: 'Client', customerId: custB, warehouseIds: [wh], customerIds: [custB], modules: { OrderReports: 'read' } });
  clientB = as(t.app, await login(t.app, clientBUser.username, clientBUser.password));
});
afterAll(async () => { await t?.close(); });

describe('a long report as a background job', () => {
  it('is refused on screen naming the limit, runs as a job with progress over the hub, and its export downloads when done', async () => {
    const body = { report: 'orders-per-day', filters: { ...longRange, warehouseId: wh, groupBy: 'month' }, format: 'xlsx' };
    const onScreen = await admin.post('/Warehouse/OrderReport/GetReport', { report: body.report, filters: body.filters });
    expect(onScreen.statusCode).toBe(400);
    expect(onScreen.json().message).toBe(REPORT_MAX_RANGE_MESSAGE);

    const heard = await recordEvents(t.app);
    const queued = await admin.post('/Warehouse/OrderReport/RunReportJob', body);
    expect(queued.statusCode, queued.body).toBe(202);
    const jobId = queued.json().data.jobId;
    const row = await runJob(jobId);
    expect(row.status, row.error ?? '').toBe('succeeded');
    expect(row.name).toBe(REPORT_EXPORT_JOB);
    const events = (await heard.until(6)).filter((e) => e.target === 'ReceiveJobData' && (e.payload as { payload: { jobId: number } }).payload.jobId === jobId);
    const subEvents = events.map((e) => (e.payload as { subEvent: string }).subEvent);
    expect(subEvents).toContain('JobProgress');
    expect(subEvents.at(-1)).toBe('JobSucceeded');

    const status = (await admin.get(`/Common/Job/GetJob?jobId=${jobId}`)).json();
    expect(status.result).toMatchObject({ rows: 36 });
    const file = await admin.get(`/Warehouse/Report/DownloadReportJob?jobId=${jobId}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('orders-per-day-2023-01-01-to-2025-12-31.xlsx');
    // The totals row: all three orders, received across the three years.
    expect(await xlsxTotals(file.rawPayload)).toEqual(['Total', 3, 0, 0]);
    // Someone else's job's file answers as missing.
    expect((await clientB.get(`/Warehouse/Report/DownloadReportJob?jobId=${jobId}`)).statusCode).toBe(404);
  });

  it('a job is held to the client’s customer, and refuses past its own limit, naming it, with nothing queued', async () => {
    const queued = await clientB.post('/Warehouse/OrderReport/RunReportJob', { report: 'orders-per-day', filters: { ...longRange, groupBy: 'month' }, format: 'csv' });
    expect(queued.statusCode, queued.body).toBe(202);
    const jobId = queued.json().data.jobId;
    expect((await runJob(jobId)).status).toBe('succeeded');
    const csv = (await clientB.get(`/Warehouse/Report/DownloadReportJob?jobId=${jobId}`)).body;
    expect(csv.trim().split('\r\n').at(-1)).toBe('Total,1,0,0');

    const before = await t.database.db.selectFrom('job').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const tooLong = await admin.post('/Warehouse/OrderReport/RunReportJob', { report: 'orders-per-day', filters: { preset: 'custom', fromDate: '2010-01-01', toDate: '2025-12-31' }, format: 'xlsx' });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe(REPORT_JOB_MAX_RANGE_MESSAGE);
    const denied = await clientB.post('/Warehouse/OtherReport/RunReportJob', { report: 'dead-stock', filters: {}, format: 'xlsx' });
    expect(denied.statusCode).toBe(403);
    const after = await t.database.db.selectFrom('job').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('scheduled reports', () => {
  it('refuses a report the user may not read, a weekly one without its day, and an unknown filter value', async () => {
    const notRead = await clientB.post('/Warehouse/Report/SubscribeReport', { report: 'labour-cost', format: 'xlsx', frequency: 'daily' });
    expect(notRead.statusCode).toBe(403);
    const noDay = await clientB.post('/Warehouse/Report/SubscribeReport', { report: 'orders-per-day', format: 'xlsx', frequency: 'weekly' });
    expect(noDay.statusCode).toBe(400);
    expect(JSON.stringify(noDay.json())).toContain('weekday');
    const unknown = await admin.post('/Warehouse/Report/SubscribeReport', { report: 'orders-per-day', format: 'pdf', frequency: 'daily', filters: { warehouseId: 999999 } });
    expect(unknown.statusCode).toBe(400);
    const other = await clientB.post('/Warehouse/Report/SubscribeReport', { report: 'orders-per-day', format: 'xlsx', frequency: 'daily', filters: { customerId: custA } });
    expect(other.statusCode).toBe(403);
    expect((await clientB.get('/Warehouse/Report/GetReportSubscriptions')).json()).toEqual([]);
  });

  it('sends a due subscription once, by e-mail through the outbox with the Excel attached, holding a client to its customer', async () => {
    const sub = await clientB.post('/Warehouse/Report/SubscribeReport', {
      report: 'orders-per-day', format: 'xlsx', frequency: 'weekly', weekday: 1, hour: 7, filters: { preset: 'custom', fromDate: '2024-01-01', toDate: '2025-12-31', groupBy: 'month' },
    });
    expect(sub.statusCode, sub.body).toBe(200);
    const s = sub.json().data;
    expect(s).toMatchObject({ report: 'orders-per-day', frequency: 'weekly', weekday: 1, hour: 7, timeZone: 'UTC', email: `${clientBUser.username}@example.com` });
    expect(s.filters.customerId).toBe(custB);
    // Next run: a Monday at 07:00 UTC, within the coming week.
    const next = new Date(s.nextRunAt);
    expect([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([1, 7, 0]);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(7 * 864e5);

    const db = t.database.db;
    await db.updateTable('report_subscription').set({ next_run_at: '2020-01-06T07:00:00.000Z' }).where('id', '=', s.subscriptionId).execute();
    expect(await t.app.services.reportJobs.handOutDue()).toBe(1);
    // Moved on past now: a second look hands out nothing.
    expect(await t.app.services.reportJobs.handOutDue()).toBe(0);
    const moved = await db.selectFrom('report_subscription').select('next_run_at').where('id', '=', s.subscriptionId).executeTakeFirstOrThrow();
    expect(Date.parse(moved.next_run_at)).toBeGreaterThan(Date.now());
    const send = await db.selectFrom('job').selectAll().where('name', '=', REPORT_SUBSCRIPTION_SEND_JOB).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(send.owner_user_id).toBe(clientBUser.id);
    const done = await runJob(Number(send.id));
    expect(done.status, done.error ?? '').toBe('succeeded');

    const mail = await db.selectFrom('mail_outbox').selectAll().where('to_address', '=', `${clientBUser.username}@example.com`).executeTakeFirstOrThrow();
    expect(mail.subject).toContain('Orders received, processed and shipped');
    const attachments = await db.selectFrom('mail_attachment').innerJoin('stored_file', 'stored_file.id', 'mail_attachment.file_id')
      .select(['stored_file.file_name', 'stored_file.content']).where('mail_attachment.mail_id', '=', mail.id).execute();
    expect(attachments.map((a) => a.file_name)).toEqual(['orders-per-day-2024-01-01-to-2025-12-31.xlsx']);
    // Client B's one order only (client A's 2025 order is in the range too).
    expect(await xlsxTotals(Buffer.from(attachments[0].content))).toEqual(['Total', 1, 0, 0]);
    const listed = (await clientB.get('/Warehouse/Report/GetReportSubscriptions')).json();
    expect(listed[0].lastSentAt).toBeTruthy();
  });

  it('a cancelled subscription is gone and sends nothing; another user cannot cancel it', async () => {
    const s = (await clientB.post('/Warehouse/Report/SubscribeReport', { report: 'orders-per-day', format: 'pdf', frequency: 'daily' })).json().data;
    expect((await admin.post('/Warehouse/Report/CancelReportSubscription', { subscriptionId: s.subscriptionId })).statusCode).toBe(404);
    const cancelled = await clientB.post('/Warehouse/Report/CancelReportSubscription', { subscriptionId: s.subscriptionId });
    expect(cancelled.statusCode).toBe(200);
    expect((await clientB.get('/Warehouse/Report/GetReportSubscriptions')).json().map((x: { subscriptionId: number }) => x.subscriptionId)).not.toContain(s.subscriptionId);
    expect(await t.app.services.reportJobs.send(s.subscriptionId, async () => null, 'test')).toEqual({ sent: false, reason: 'cancelled' });
  });
});

describe('keeping report files', () => {
  it('the nightly cleanup deletes report jobs’ files and sent mail’s attachments past the retention, and keeps recent and unsent ones', async () => {
    const db = t.database.db;
    const day = 86_400_000;
    const ago = (days: number) => new Date(Date.now() - days * day).toISOString();
    const exportJob = async () => {
      const queued = await admin.post('/Warehouse/OrderReport/RunReportJob', { report: 'orders-per-day', filters: { ...longRange, warehouseId: wh, groupBy: 'month' }, format: 'csv' });
      const row = await runJob(queued.json().data.jobId);
      expect(row.status, row.error ?? '').toBe('succeeded');
      return { jobId: Number(row.id), fileId: JSON.parse(row.result_json!).fileId as number };
    };
    const old = await exportJob();
    const recent = await exportJob();
    await db.updateTable('job').set({ finished_at: ago(10) }).where('id', '=', old.jobId).execute();
    // Mail with an attachment each: sent long ago, sent yesterday, never sent (no SMTP) and old.
    const mail = async (sentAt: string | null) => {
      const { id } = await db.insertInto('mail_outbox').values({ to_address: 'x@example.com', subject: 'Report', body: 'attached', attempts: sentAt ? 1 : 0, sent_at: sentAt, error: null, created_at: ago(20) } as never)
        .returning('id').executeTakeFirstOrThrow();
      const file = await storeFile(db, { fileName: 'r.csv', mimeType: 'text/csv', bytes: Buffer.from('a,b'), createdBy: null });
      await db.insertInto('mail_attachment').values({ mail_id: id, file_id: file.id }).execute();
      return { mailId: id, fileId: file.id };
    };
    const [sentOld, sentRecent, unsent] = [await mail(ago(10)), await mail(ago(1)), await mail(null)];

    // Run by the platform's schedule: the next night's slot fires the cleanup job.
    const now = Date.now();
    await t.app.services.schedules.tick(now);
    expect(await t.app.services.schedules.tick(now + 2 * day)).toBeGreaterThanOrEqual(1);
    const job = await db.selectFrom('job').select('id').where('name', '=', REPORT_FILES_CLEANUP_JOB).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const done = await runJob(Number(job.id));
    expect(done.status, done.error ?? '').toBe('succeeded');
    expect(JSON.parse(done.result_json!)).toEqual({ reportFiles: 1, attachments: 1 });

    const files = (await db.selectFrom('stored_file').select('id').where('id', 'in', [old.fileId, recent.fileId, sentOld.fileId, sentRecent.fileId, unsent.fileId]).execute()).map((f) => f.id);
    expect(files.sort((a, b) => a - b)).toEqual([recent.fileId, sentRecent.fileId, unsent.fileId].sort((a, b) => a - b));
    expect(await db.selectFrom('mail_attachment').select('id').where('mail_id', '=', sentOld.mailId).execute()).toEqual([]);
    // The old job's download says why it is gone; the recent one still downloads.
    const gone = await admin.get(`/Warehouse/Report/DownloadReportJob?jobId=${old.jobId}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toContain('kept 7 days');
    expect((await admin.get(`/Warehouse/Report/DownloadReportJob?jobId=${recent.jobId}`)).statusCode).toBe(200);
  });
});
