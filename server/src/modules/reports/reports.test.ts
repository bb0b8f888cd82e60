import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LABOUR_IDLE_GAP_SECONDS, REPORT_MAX_RANGE_MESSAGE } from '@bolx/contracts';
import type { Compilable } from 'kysely';
import { expectNoFullScan, planOf } from '../../../test/support/explain.js';
import { Scope } from '../../platform/scope.js';
import { reportRepository } from './reports.repository.js';
import { otherReportRepository } from './other-reports.repository.js';
import { refreshReportRollups } from './report-rollups.js';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeSku, makeUser, makeWarehouse, type TestApp } from '../../../test/helpers.js';
import { pdfText, withTools } from '../../../test/support/pdf-readers.js';

// A hand-built week in Los Angeles (UTC−8 in January): the business day of every figure is the warehouse's.
let t: TestApp;
let admin: ReturnType<typeof as>;
let clientB: ReturnType<typeof as>;
let wh: number, custA: number, custB: number, sku: number;
let picker: { id: number; username: string }, packer: { id: number; username: string };
const range = { preset: 'custom', fromDate: '2026-01-05', toDate: '2026-01-11' };
let seq = 0;

async function order(o: { customer: number; created: string; requested?: string | null; service?: string; lines: number[]; history: [string, string][]; status: string }) {
  const db = t.database.db;
  const { id } = await db.insertInto('sales_order').values({
    so_number: `SO-R${++seq}-${Math.random().toString(36).slice(2, 6)}`, warehouse_id: wh, customer_id: o.customer, order_type: 'Sales', reference_number: `REF-${seq}-${Math.random()}`,
    order_date: o.created.slice(0, 10), requested_ship_date: o.requested ?? null, priority: 5, ship_to_name: null, ship_to_address1: null, ship_to_address2: null, ship_to_city: null,
    ship_to_state: null, ship_to_zip: null, ship_to_country: null, ship_to_phone: null, ship_to_email: null, carrier_account_id: null, carrier_service: o.service ?? null, notes: null,
    status: o.status, source: 'screen', created_by: null, created_at: o.created, updated_at: o.created,
  }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('sales_order_line').values(o.lines.map((q, i) => ({ order_id: id, line_no: i + 1, sku_id: sku, quantity: q, package_id: null, units_per_package: 1, lot: '', notes: null }))).execute();
  let from = 'New';
  for (const [to, at] of o.history) {
    await db.insertInto('document_status_history').values({ kind: 'SALES_ORDER', document_id: id, from_status: from, to_status: to, at, user_id: null, username: null, reason: null }).execute();
    from = to;
  }
  return id;
}

async function step(user: number, kind: string, at: string, gap: number | null, quantity: number, customer = custA, orderLine: number | null = null) {
  await t.database.db.insertInto('floor_event').values({
    kind, warehouse_id: wh, customer_id: customer, user_id: user, job_id: null, task_id: null, order_id: null, order_line_id: orderLine, carton_id: null, sku_id: sku,
    location_id: null, quantity, at, at_ms: Date.parse(at), business_day: new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date(at)), seconds_since_previous: gap,
  }).execute();
}

const get = (s: ReturnType<typeof as>, area: string, report: string, filters: Record<string, unknown> = {}) =>
  s.post(`/Warehouse/${area}/GetReport`, { report, filters: { ...range, warehouseId: wh, ...filters } });

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  await t.database.db.updateTable('warehouse').set({ timezone: 'America/Los_Angeles' }).where('id', '=', wh).execute();
  custA = await makeCustomer(t.database, [wh], `Alpha ${Math.random().toString(36).slice(2, 6)}`);
  custB = await makeCustomer(t.database, [wh], `Beta ${Math.random().toString(36).slice(2, 6)}`);
  sku = await makeSku(t.database, custA);
  // O1: received and shipped on 5 Jan there (shipped 23:30 local: 6 Jan in UTC), on time, 13.5 h.
  await order({ customer: custA, created: '2026-01-05T18:00:00.000Z', requested: '2026-01-05', service: 'Ground', lines: [3, 2], status: 'Shipped',
    history: [['Allocated', '2026-01-05T19:00:00.000Z'], ['Released', '2026-01-05T20:00:00.000Z'], ['Shipped', '2026-01-06T07:30:00.000Z']] });
  // O2: received 23:30 local on 5 Jan (6 Jan in UTC), shipped 8 Jan, a day late, 57.5 h.
  await order({ customer: custA, created: '2026-01-06T07:30:00.000Z', requested: '2026-01-07', service: 'Ground', lines: [10], status: 'Shipped',
    history: [['Shipped', '2026-01-08T17:00:00.000Z']] });
  // O3: client B, backordered once, no requested date (not rated), 72 h.
  await order({ customer: custB, created: '2026-01-07T16:00:00.000Z', service: 'Express', lines: [1, 1, 1], status: 'Shipped',
    history: [['Backordered', '2026-01-07T17:00:00.000Z'], ['Allocated', '2026-01-08T17:00:00.000Z'], ['Released', '2026-01-09T16:00:00.000Z'], ['Shipped', '2026-01-10T16:00:00.000Z']] });
  // O4: received after the range. O5: received before it, shipped within it on time (58 h).
  await order({ customer: custA, created: '2026-01-12T10:00:00.000Z', lines: [1], status: 'New', history: [] });
  await order({ customer: custA, created: '2026-01-04T10:00:00.000Z', requested: '2026-01-06', lines: [4], status: 'Shipped', history: [['Shipped', '2026-01-06T20:00:00.000Z']] });

  picker = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [custA, custB] }) as never;
  packer = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [custA, custB] }) as never;
  // The picker: three picks of 10 on 6 Jan, gaps 60 s, 120 s and 900 s (idle: not counted as work).
  await step(picker.id, 'pick', '2026-01-06T17:00:00.000Z', 60, 10);
  await step(picker.id, 'pick', '2026-01-06T17:02:00.000Z', 120, 10);
  await step(picker.id, 'pick', '2026-01-06T17:17:00.000Z', 900, 10);
  // The packer: two packs of one unit, 30 s each, on 7 Jan; one for client B.
  await step(packer.id, 'pack', '2026-01-07T18:00:00.000Z', 30, 1);
  await step(packer.id, 'pack', '2026-01-07T18:00:30.000Z', 30, 1, custB);

  const u = await makeUser(t.database, { role: 'Client', customerId: custB, warehouseIds: [wh], customerIds: [custB], modules: { OrderReports: 'read', ProductivityReport: 'read' } });
  clientB = as(t.app, await login(t.app, u.username, u.password));
});
afterAll(async () => { await t?.close(); });

describe('order reports', () => {
  it('orders received, processed and shipped per business day of the warehouse, with totals and a chart', async () => {
    const res = await get(admin, 'OrderReport', 'orders-per-day');
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r).toMatchObject({ fromDate: '2026-01-05', toDate: '2026-01-11', groupBy: 'day' });
    const by = Object.fromEntries(r.rows.map((x: { date: string; received: number; processed: number; shipped: number }) => [x.date, [x.received, x.processed, x.shipped]]));
    expect(by).toEqual({
      '2026-01-05': [2, 1, 1], '2026-01-06': [0, 0, 1], '2026-01-07': [1, 0, 0], '2026-01-08': [0, 0, 1], '2026-01-09': [0, 1, 0], '2026-01-10': [0, 0, 1], '2026-01-11': [0, 0, 0],
    });
    expect(r.totals).toEqual({ date: 'Total', received: 3, processed: 2, shipped: 4 });
    expect(r.chart.xAxis.data).toHaveLength(7);
    expect(r.chart.series.map((s: { name: string }) => s.name)).toEqual(['Received', 'Processed', 'Shipped']);
    const weekly = (await get(admin, 'OrderReport', 'orders-per-day', { groupBy: 'week' })).json();
    expect(weekly.rows).toEqual([{ date: '2026-01-05', received: 3, processed: 2, shipped: 4 }]);
  });

  it('fulfilment time: a distribution from received to shipped, with average and median', async () => {
    const r = (await get(admin, 'OrderReport', 'fulfilment-time')).json();
    expect(r.rows.map((x: { orders: number }) => x.orders)).toEqual([1, 0, 2, 1, 0]);
    expect(r.totals).toMatchObject({ orders: 4, averageHours: 50.3, medianHours: 57.8 });
    expect(r.rows[2]).toMatchObject({ bucket: '48–72 h', share: 50 });
  });

  it('on-time ship rate against the requested ship date, per day and per client', async () => {
    const r = (await get(admin, 'OrderReport', 'on-time-shipping')).json();
    expect(r.totals).toMatchObject({ shipped: 4, withDate: 3, onTime: 2, late: 1, onTimeRate: 66.7 });
    expect(r.rows.find((x: { group: string }) => x.group === '2026-01-08')).toMatchObject({ shipped: 1, late: 1, onTimeRate: 0 });
    const byClient = (await get(admin, 'OrderReport', 'on-time-shipping', { groupBy: 'customer' })).json();
    expect(byClient.rows.map((x: { shipped: number; onTimeRate: number | null }) => [x.shipped, x.onTimeRate])).toEqual([[3, 66.7], [1, null]]);
  });

  it('lines, units and backorder rate per order, by client and by service', async () => {
    const r = (await get(admin, 'OrderReport', 'order-profile')).json();
    expect(r.rows).toEqual([
      expect.objectContaining({ orders: 2, lines: 3, units: 15, linesPerOrder: 1.5, unitsPerOrder: 7.5, backordered: 0, backorderRate: 0 }),
      expect.objectContaining({ orders: 1, lines: 3, units: 3, backordered: 1, backorderRate: 100 }),
    ]);
    expect(r.totals).toMatchObject({ orders: 3, lines: 6, units: 18, backordered: 1, backorderRate: 33.3 });
    const byService = (await get(admin, 'OrderReport', 'order-profile', { groupBy: 'service' })).json();
    expect(byService.rows.map((x: { group: string; orders: number }) => [x.group, x.orders])).toEqual([['Express', 1], ['Ground', 2]]);
  });

  it('a client account sees its own customer only, and is refused another', async () => {
    const r = (await get(clientB, 'OrderReport', 'orders-per-day')).json();
    expect(r.totals).toEqual({ date: 'Total', received: 1, processed: 1, shipped: 1 });
    const profile = (await get(clientB, 'OrderReport', 'order-profile')).json();
    expect(profile.rows).toHaveLength(1);
    expect(profile.totals.orders).toBe(1);
    expect((await get(clientB, 'OrderReport', 'orders-per-day', { customerId: custA })).statusCode).toBe(403);
    const file = await clientB.post('/Warehouse/OrderReport/DownloadReport', { report: 'order-profile', filters: { ...range, warehouseId: wh }, format: 'csv' });
    expect(file.body).not.toContain('Alpha');
    expect(file.body).toContain('Beta');
  });
});

describe('productivity', () => {
  it('per user from the activity log: steps, units, rates per hour against the engineered standard, ranked', async () => {
    const saved = await admin.post('/Warehouse/Labor/SaveStandards', { warehouseId: wh, standards: [{ kind: 'pick', unitsPerHour: 300 }] });
    expect(saved.statusCode, saved.body).toBe(200);
    const r = (await get(admin, 'ProductivityReport', 'productivity')).json();
    expect(r.rows).toEqual([
      expect.objectContaining({ rank: 1, group: picker.username, picks: 3, unitsPicked: 30, taskHours: 0.05, picksPerHour: 600, unitsPerHour: 600, performance: 200 }),
      expect.objectContaining({ rank: 2, group: packer.username, packs: 2, unitsPerHour: 120, performance: null }),
    ]);
    expect(r.totals).toMatchObject({ picks: 3, packs: 2 });
    expect(r.chart.series).toHaveLength(1);
  });

  it('per user and hour, in the warehouse’s time', async () => {
    const r = (await get(admin, 'ProductivityReport', 'productivity', { groupBy: 'hour' })).json();
    expect(r.rows.map((x: { group: string; when: string }) => [x.group, x.when])).toEqual([
      [picker.username, '2026-01-06 09:00'], [packer.username, '2026-01-07 10:00'],
    ].sort((a, b) => a[0].localeCompare(b[0])));
  });

  it('a trend per day; a client sees only its own customer’s work', async () => {
    const r = (await get(admin, 'ProductivityReport', 'productivity-trend')).json();
    expect(r.rows.find((x: { group: string }) => x.group === '2026-01-06')).toMatchObject({ picks: 3 });
    expect(r.chart.type).toBe('line');
    const mine = (await get(clientB, 'ProductivityReport', 'productivity')).json();
    expect(mine.totals).toMatchObject({ picks: 0, packs: 1 });
  });
});

describe('productivity from the daily sums (migration 0045)', () => {
  it('the same figures as a straight count of the events, before and after the rollup job, with steps after its mark', async () => {
    const db = t.database.db;
    const later = { fromDate: '2026-01-12', toDate: '2026-01-31' };
    const oid = await order({ customer: custA, created: '2026-01-20T16:00:00.000Z', lines: [5, 5, 5], status: 'Picked', history: [] });
    const [l1, l2, l3] = (await db.selectFrom('sales_order_line').select('id').where('order_id', '=', oid).orderBy('id').execute()).map((l) => l.id);
    await step(picker.id, 'pick', '2026-01-20T17:00:00.000Z', 60, 2, custA, l1);
    await step(picker.id, 'pick', '2026-01-20T17:01:00.000Z', 60, 3, custA, l2);
    const reports = async () => [(await get(admin, 'ProductivityReport', 'productivity', later)).json(), (await get(admin, 'ProductivityReport', 'productivity-trend', later)).json()];
    const where = { scope: Scope.everything, warehouseId: wh, from: later.fromDate, to: later.toDate };
    const sorted = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v])))).sort();
    const straight = async () => sorted(await reportRepository.floorWorkQuery(db, where, LABOUR_IDLE_GAP_SECONDS, false).execute());
    const summed = async () => sorted(await reportRepository.floorDaysQuery(db, t.database.dialect, where).execute());
    const before = await reports();
    expect(await summed()).toEqual(await straight());
    await refreshReportRollups(db, t.database.dialect);
    expect(await db.selectFrom('report_floor_day').select('lines').where('user_id', '=', picker.id).where('business_day', '=', '2026-01-20').execute()).toEqual([{ lines: expect.anything() }]);
    expect(await reports()).toEqual(before);
    // After the mark: another pick of a line the sums hold (counted once), and a new line.
    await step(picker.id, 'pick', '2026-01-20T17:05:00.000Z', 240, 1, custA, l1);
    await step(picker.id, 'pick', '2026-01-20T17:06:00.000Z', 60, 1, custA, l3);
    expect(await summed()).toEqual(await straight());
    const [mine] = (await reports())[0].rows;
    expect(mine).toMatchObject({ group: picker.username, picks: 4, unitsPicked: 7, linesPicked: 3, taskHours: round((60 + 60 + 240 + 60) / 3600) });
    await refreshReportRollups(db, t.database.dialect);
    expect(await summed()).toEqual(await straight());
    expect((await reports())[0].rows[0]).toEqual(mine);
  });
});

const round = (v: number) => Math.round(v * 100) / 100;

describe('bad input', () => {
  it('a range over two years is refused, naming the limit', async () => {
    const res = await get(admin, 'OrderReport', 'orders-per-day', { fromDate: '2023-01-01', toDate: '2025-12-31' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: REPORT_MAX_RANGE_MESSAGE, details: { toDate: REPORT_MAX_RANGE_MESSAGE } });
  });

  it('unknown filters, values and reports: a 4xx naming the field', async () => {
    expect((await get(admin, 'OrderReport', 'orders-per-day', { colour: 'red' })).statusCode).toBe(400);
    const group = await get(admin, 'OrderReport', 'orders-per-day', { groupBy: 'carrier' });
    expect(group.statusCode).toBe(400);
    expect(group.json().details).toHaveProperty('groupBy');
    const warehouse = await get(admin, 'OrderReport', 'orders-per-day', { warehouseId: 999999 });
    expect(warehouse.statusCode).toBe(400);
    expect(warehouse.json().details).toHaveProperty('warehouseId');
    expect((await get(admin, 'OrderReport', 'no-such-report')).statusCode).toBe(400);
    expect((await get(admin, 'OrderReport', 'productivity')).statusCode).toBe(400);
    expect((await get(admin, 'OrderReport', 'orders-per-day', { preset: 'custom', fromDate: undefined })).statusCode).toBe(400);
    expect((await get(admin, 'OrderReport', 'orders-per-day', { fromDate: '2026-01-09', toDate: '2026-01-01' })).statusCode).toBe(400);
  });

  it('a report the caller may not read is refused', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [custA], modules: { OrderReports: 'read' } });
    const s = as(t.app, await login(t.app, u.username, u.password));
    expect((await get(s, 'ProductivityReport', 'productivity')).statusCode).toBe(403);
    expect((await s.post('/Warehouse/Report/SaveReportView', { report: 'productivity', name: 'Mine', filters: range })).statusCode).toBe(403);
  });
});

describe('exports', () => {
  const download = (format: string) => admin.post('/Warehouse/OrderReport/DownloadReport', { report: 'order-profile', filters: { ...range, warehouseId: wh }, format });

  it('Excel: the table and its totals, read back', async () => {
    const res = await download('xlsx');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('order-profile-2026-01-05-to-2026-01-11.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as never);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, 'Client', 'Orders', 'Lines', 'Units', 'Lines per order', 'Units per order', 'Backordered', 'Backorder rate']);
    expect(sheet.rowCount).toBe(4);
    expect((sheet.getRow(4).values as unknown[]).slice(1, 5)).toEqual(['Total', 3, 6, 18]);
  });

  it('CSV: quoted where needed, totals last', async () => {
    const res = await download('csv');
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Client,Orders,Lines,Units,Lines per order,Units per order,Backordered,Backorder rate');
    expect(lines.at(-1)).toBe('Total,3,6,18,2,6,1,33.3%');
  });

  withTools('PDF', () => {
    it('the title, range, rows and totals as text', async () => {
      const res = await download('pdf');
      expect(res.headers['content-type']).toBe('application/pdf');
      const text = pdfText(res.rawPayload);
      expect(text).toContain('Lines, units and backorders per order');
      expect(text).toContain('2026-01-05 to 2026-01-11');
      expect(text).toMatch(/Total\s+3\s+6\s+18/);
    });
  });
});

describe('saved views', () => {
  it('saves, lists, updates by name and deletes a user’s views', async () => {
    const saved = await admin.post('/Warehouse/Report/SaveReportView', { report: 'orders-per-day', name: 'Week one', filters: { ...range, warehouseId: wh } });
    expect(saved.statusCode, saved.body).toBe(200);
    const again = await admin.post('/Warehouse/Report/SaveReportView', { report: 'orders-per-day', name: 'Week one', filters: { ...range, warehouseId: wh, groupBy: 'week' } });
    expect(again.json().data.viewId).toBe(saved.json().data.viewId);
    const views = (await admin.get('/Warehouse/Report/GetReportViews?report=orders-per-day')).json();
    expect(views).toEqual([expect.objectContaining({ name: 'Week one', filters: expect.objectContaining({ groupBy: 'week', fromDate: '2026-01-05' }) })]);
    expect((await clientB.get('/Warehouse/Report/GetReportViews?report=orders-per-day')).json()).toEqual([]);
    expect((await clientB.post('/Warehouse/Report/DeleteReportView', { viewId: views[0].viewId })).statusCode).toBe(404);
    expect((await admin.post('/Warehouse/Report/DeleteReportView', { viewId: views[0].viewId })).statusCode).toBe(200);
    expect((await admin.get('/Warehouse/Report/GetReportViews?report=orders-per-day')).json()).toEqual([]);
  });
});

describe('indexes of the heavy queries (EXPLAIN)', () => {
  const plan = (q: Compilable<unknown>) => planOf(t, q);
  const w = () => ({ scope: Scope.everything, warehouseId: wh, from: '2026-01-05', to: '2026-01-11' });

  it('shipped and released per day read the status history by kind, status and time', async () => {
    const text = await plan(reportRepository.ordersReachingPerDayQuery(t.database.db, t.database.dialect, w(), 'Shipped'));
    // PostgreSQL's planner, on a test table of a few rows, may take the (kind, document) index as cheaply: an index either way.
    expect(text).toMatch(t.database.sqlite ? /document_status_history_to/ : /Index Scan using document_status_history_(to|document)/);
  });
  it('orders received per day read orders by warehouse and time', async () => {
    expect(await plan(reportRepository.ordersReceivedPerDayQuery(t.database.db, t.database.dialect, w()))).toMatch(/sales_order_warehouse_(created|date)/);
  });
  const noFullScan = (text: string, tables: string[]) => expectNoFullScan(t, text, tables);
  it('fulfilment time and on-time counts read the shipped orders by the status history index, not every order’s history', async () => {
    for (const q of [reportRepository.fulfilmentMsQuery(t.database.db, t.database.dialect, w()), reportRepository.onTimeGroupsQuery(t.database.db, t.database.dialect, w(), 'customer')]) {
      const text = await plan(q);
      expect(text).toMatch(t.database.sqlite ? /document_status_history_to/ : /Index Scan using document_status_history_(to|document)/);
      noFullScan(text, ['document_status_history', 'h', 'sales_order', 'o']);
    }
  });
  it('the order profile reads orders by warehouse and time', async () => {
    const text = await plan(reportRepository.orderProfileQuery(t.database.db, t.database.dialect, w(), 'customer'));
    expect(text).toMatch(/sales_order_warehouse_(created|date)/);
    noFullScan(text, ['sales_order', 'o']);
  });
  it('dead stock reads the ledger by warehouse, client and SKU, and the audit log report by time', async () => {
    const dead = await plan(otherReportRepository.deadStockQuery(t.database.db, w(), '2026-01-01T00:00:00.000Z'));
    expect(dead).toMatch(/inventory_txn_\w+|idx_\w*txn\w*/i);
    noFullScan(dead, ['inventory_txn', 't']);
    const audit = await plan(otherReportRepository.auditRowsQuery(t.database.db, w(), 100));
    noFullScan(audit, ['audit_log', 'a']);
  });
  it('dock-to-stock finds the orders put away in the range by the putaways’ time, then reads their receipts and putaways by order', async () => {
    const text = await plan(otherReportRepository.dockToStockQuery(t.database.db, w()));
    // PostgreSQL's planner, with statistics of a few rows (prepareDatabase analyses), may read them by order as cheaply: an index either way.
    expect(text).toMatch(t.database.sqlite ? /receiving_putaway_at/ : /Index Scan using receiving_putaway_(at|order)/);
    expect(text).toMatch(/receiving_receipt_order/);
    noFullScan(text, ['receiving_putaway', 'receiving_receipt', 'p', 'r', 'pr']);
  });
  it('SKU velocity reads the picks by warehouse and business day', async () => {
    const text = await plan(otherReportRepository.skuPicksQuery(t.database.db, w()));
    expect(text).toMatch(/floor_event_(day|billing)/);
    noFullScan(text, ['floor_event', 'e']);
  });
  it('the audit log report reads the log by time', async () => {
    expect(await plan(otherReportRepository.auditRowsQuery(t.database.db, w(), 100))).toMatch(/audit_log_at/);
  });
  it('productivity reads the activity log by warehouse and business day', async () => {
    // Either index that leads with the warehouse and business day serves it (billing adds floor_event_billing).
    expect(await plan(reportRepository.floorWorkQuery(t.database.db, w(), 600, false))).toMatch(/Index Scan using floor_event_(day|billing)|floor_event_day/);
  });
  it('productivity per day reads the daily sums by warehouse and day, and only the events after their mark', async () => {
    const text = await plan(reportRepository.floorDaysQuery(t.database.db, t.database.dialect, w()));
    expect(text).toMatch(/report_floor_day_key/);
    expect(text).toMatch(t.database.sqlite ? /SEARCH f USING INTEGER PRIMARY KEY \(rowid>\?\)/ : /(Index|Bitmap Index) Scan (using|on) floor_event_pkey/);
    noFullScan(text, ['floor_event', 'f', 'report_floor_day']);
  });
});
