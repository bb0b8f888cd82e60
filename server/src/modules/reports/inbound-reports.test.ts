import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, type TestApp } from '../../../test/helpers.js';

// A hand-built week (UTC, Monday 2026-01-05 to Sunday 2026-01-11) of five receiving orders, one of each status,
// with their lines, receipts at the dock and putaways; every figure of /InboundReports is checked against it.
let t: TestApp;
let admin: ReturnType<typeof as>;
let clientB: ReturnType<typeof as>;
let wh: number, custA: number, custB: number, sku: number, sku2: number, dock: number, rack: number;
const range = { preset: 'custom', fromDate: '2026-01-05', toDate: '2026-01-11' };
type Result = { rows: Record<string, string | number | null>[]; totals: Record<string, string | number | null>; chart: { xAxis: { data: string[] }; series: { name: string; data: number[] }[] } | null };
const get = (s: ReturnType<typeof as>, report: string, filters: Record<string, unknown> = {}) =>
  s.post('/Warehouse/InboundReport/GetReport', { report, filters: { ...range, warehouseId: wh, ...filters } });
const json = async (s: ReturnType<typeof as>, report: string, filters: Record<string, unknown> = {}): Promise<Result> => {
  const res = await get(s, report, filters);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

interface Line { expected: number; received?: number; damaged?: number; putaway?: number; receipts?: [number, number, string][]; putaways?: [number, string][] }
/** A receiving order with its lines; each line's receipts [good, damaged, at] and putaways [units, at]. */
async function ro(customer: number, supplier: string, status: string, expectedDate: string, finalizedAt: string | null, lines: Line[]) {
  const db = t.database.db;
  const { id } = await db.insertInto('receiving_order').values({
    ro_number: `RO-IN-${Math.random().toString(36).slice(2, 8)}`, warehouse_id: wh, customer_id: customer, supplier, reference_number: `R-${Math.random()}`,
    expected_date: expectedDate, status, notes: null, created_by: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z',
    received_at: null, finalized_at: finalizedAt, closed_at: null, cancelled_at: null,
  }).returning('id').executeTakeFirstOrThrow();
  for (const [i, l] of lines.entries()) {
    const skuId = [sku, sku2][i];
    const line = await db.insertInto('receiving_order_line').values({
      order_id: id, line_no: i + 1, sku_id: skuId, expected_qty: l.expected, received_qty: l.received ?? 0, damaged_qty: l.damaged ?? 0, putaway_qty: l.putaway ?? 0, notes: null, expiry_date: null,
    }).returning('id').executeTakeFirstOrThrow();
    for (const [quantity, damaged, at] of l.receipts ?? []) {
      await db.insertInto('receiving_receipt').values({
        order_id: id, line_id: line.id, warehouse_id: wh, customer_id: customer, sku_id: skuId, location_id: dock, lot: '', expiry_date: null, pallet: '', quantity, damaged_qty: damaged,
        damaged_location_id: null, document_id: `RCV-${Math.random()}`, user_id: null, username: null, at,
      }).execute();
    }
    for (const [quantity, at] of l.putaways ?? []) {
      await db.insertInto('receiving_putaway').values({
        order_id: id, line_id: line.id, from_location_id: dock, to_location_id: rack, lot: '', pallet: '', quantity, document_id: `PUT-${Math.random()}`, user_id: null, username: null, at,
      }).execute();
    }
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  custA = await makeCustomer(t.database, [wh]);
  custB = await makeCustomer(t.database, [wh]);
  sku = await makeSku(t.database, custA, `IN-${wh}`);
  sku2 = await makeSku(t.database, custA, `IN2-${wh}`);
  dock = await makeLocation(t.database, wh, `IN-DOCK-${wh}`, 'dock');
  rack = await makeLocation(t.database, wh, `IN-RACK-${wh}`);
  // Received (finalized Tue): line 1 expected 100, 90 good + 5 damaged arrived over Mon/Tue, all 90 put away; line 2 expected 10, 12 arrived.
  await ro(custA, 'Acme', 'Received', '2026-01-05', '2026-01-06T12:00:00.000Z', [
    { expected: 100, received: 90, damaged: 5, putaway: 90, receipts: [[60, 5, '2026-01-05T10:00:00.000Z'], [30, 0, '2026-01-06T09:00:00.000Z']], putaways: [[90, '2026-01-06T15:00:00.000Z']] },
    { expected: 10, received: 12, receipts: [[12, 0, '2026-01-06T09:30:00.000Z']] },
  ]);
  await ro(custA, 'Bolt', 'Open', '2026-01-07', null, [{ expected: 50 }]);
  await ro(custB, 'Acme', 'Receiving', '2026-01-06', null, [{ expected: 20, received: 20, receipts: [[20, 0, '2026-01-07T08:00:00.000Z']] }]);
  await ro(custA, 'Acme', 'Cancelled', '2026-01-06', null, [{ expected: 5 }]);
  await ro(custB, 'Zed', 'Closed', '2026-01-08', '2026-01-08T10:00:00.000Z', [
    { expected: 8, received: 8, putaway: 8, receipts: [[8, 0, '2026-01-08T09:00:00.000Z']], putaways: [[8, '2026-01-08T09:30:00.000Z']] },
  ]);
  // Outside the week: a receipt on the Monday after.
  await ro(custA, 'Acme', 'Receiving', '2026-01-12', null, [{ expected: 3, received: 3, receipts: [[3, 0, '2026-01-12T08:00:00.000Z']] }]);
  const u = await makeUser(t.database, { role: 'Client', customerId: custB, warehouseIds: [wh], customerIds: [custB], modules: { InboundReports: 'read' } });
  clientB = as(t.app, await login(t.app, u.username, u.password));
});
afterAll(async () => { await t?.close(); });

describe('/InboundReports on the report pattern', () => {
  it('receipts per day: orders due, received into, receipts, units good, damaged and put away', async () => {
    const r = await json(admin, 'receipts-per-day');
    expect(r.rows).toHaveLength(7);
    expect(r.rows.slice(0, 4).map((x) => [x.date, x.due, x.orders, x.receipts, x.units, x.damaged, x.putaway])).toEqual([
      ['2026-01-05', 1, 1, 1, 60, 5, 0], ['2026-01-06', 1, 1, 2, 42, 0, 90], ['2026-01-07', 1, 1, 1, 20, 0, 0], ['2026-01-08', 1, 1, 1, 8, 0, 8],
    ]);
    expect(r.rows.slice(4).every((x) => x.units === 0 && x.due === 0)).toBe(true);
    expect(r.totals).toMatchObject({ date: 'Total', due: 4, orders: 4, receipts: 5, units: 130, damaged: 5, putaway: 98 });
    expect(r.chart?.series.map((s) => s.name)).toEqual(['Units received', 'Units put away', 'Units damaged']);
    const week = await json(admin, 'receipts-per-day', { groupBy: 'week' });
    expect(week.rows.map((x) => [x.date, x.units, x.putaway])).toEqual([['2026-01-05', 130, 98]]);
  });

  it('receiving orders by status now, all five with their units', async () => {
    const r = await json(admin, 'receiving-status');
    expect(r.rows.map((x) => [x.status, x.orders, x.lines, x.expected, x.received, x.damaged, x.awaiting])).toEqual([
      ['Open', 1, 1, 50, 0, 0, 0], ['Receiving', 2, 2, 23, 23, 0, 23], ['Received', 1, 2, 110, 102, 5, 12], ['Closed', 1, 1, 8, 8, 0, 0], ['Cancelled', 1, 1, 5, 0, 0, 0],
    ]);
    expect(r.totals).toMatchObject({ orders: 6, expected: 196, awaiting: 35 });
    expect(r.chart?.series[0].data).toEqual([1, 2, 1, 1, 1]);
  });

  it('received against expected per supplier and per client: over, short, fill rate', async () => {
    const r = await json(admin, 'receipt-accuracy');
    expect(r.rows.map((x) => [x.group, x.orders, x.lines, x.expected, x.received, x.damaged, x.over, x.short, x.fillRate, x.exactLines])).toEqual([
      ['Acme', 1, 2, 110, 102, 5, 2, 5, 95.5, 0], ['Zed', 1, 1, 8, 8, 0, 0, 0, 100, 100],
    ]);
    expect(r.totals).toMatchObject({ group: 'Total', orders: 2, lines: 3, expected: 118, short: 5, fillRate: 95.8, exactLines: 33.3 });
    const byClient = await json(admin, 'receipt-accuracy', { groupBy: 'customer' });
    expect(byClient.rows.map((x) => [x.orders, x.expected])).toEqual(expect.arrayContaining([[1, 110], [1, 8]]));
  });

  it('a client account sees its own receiving only; another client’s is refused', async () => {
    const perDay = await json(clientB, 'receipts-per-day');
    expect(perDay.totals).toMatchObject({ due: 2, receipts: 2, units: 28, putaway: 8 });
    const status = await json(clientB, 'receiving-status');
    expect(status.rows.filter((x) => x.orders).map((x) => x.status)).toEqual(['Receiving', 'Closed']);
    const accuracy = await json(clientB, 'receipt-accuracy');
    expect(accuracy.rows.map((x) => x.group)).toEqual(['Zed']);
    expect((await get(clientB, 'receipts-per-day', { customerId: custA })).statusCode).toBe(403);
    const csv = await clientB.post('/Warehouse/InboundReport/DownloadReport', { report: 'receipt-accuracy', filters: { ...range, warehouseId: wh }, format: 'csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Zed');
    expect(csv.body).not.toContain('Acme');
  });

  it('bad input: a range over 2 years, a grouping the report lacks, a report of another screen — 400 naming the field', async () => {
    const long = await get(admin, 'receipts-per-day', { fromDate: '2020-01-01', toDate: '2026-01-01' });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('2 years');
    const group = await get(admin, 'receipt-accuracy', { groupBy: 'carrier' });
    expect(group.statusCode).toBe(400);
    expect(group.body).toContain('groupBy');
    expect((await admin.post('/Warehouse/InboundReport/GetReport', { report: 'stock-on-hand', filters: range })).statusCode).toBe(400);
  });
});
