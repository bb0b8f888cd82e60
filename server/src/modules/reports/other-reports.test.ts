import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, postStock, type TestApp } from '../../../test/helpers.js';
import { abcClassOf } from './other-reports.js';

// A hand-built warehouse (UTC): three rack positions in two zones, two clients' stock, a week of picks, three
// receiving orders, and audit rows; every figure of /OtherReports is checked against it.
let t: TestApp;
let admin: ReturnType<typeof as>;
let clientB: ReturnType<typeof as>;
let wh: number, custA: number, custB: number, L1: number, L2: number, L3: number, dock: number;
let a1: number, a2: number, a3: number, a4: number, b1: number;
const range = { preset: 'custom', fromDate: '2026-01-05', toDate: '2026-01-11' };
const get = (s: ReturnType<typeof as>, report: string, filters: Record<string, unknown> = {}) =>
  s.post('/Warehouse/OtherReport/GetReport', { report, filters: { ...range, warehouseId: wh, ...filters } });
type Rows = { rows: Record<string, string | number | null>[]; totals: Record<string, string | number | null> };

async function pick(customer: number, sku: number, quantity: number, at: string) {
  await t.database.db.insertInto('floor_event').values({
    kind: 'pick', warehouse_id: wh, customer_id: customer, user_id: null, job_id: null, task_id: null, order_id: null, order_line_id: null, carton_id: null,
    sku_id: sku, location_id: L1, quantity, at, at_ms: Date.parse(at), business_day: at.slice(0, 10), seconds_since_previous: null,
  }).execute();
}

/** A receiving order with one line: receipts [quantity, at] and putaways [quantity, at]. */
async function ro(customer: number, sku: number, receipts: [number, string][], putaways: [number, string][]) {
  const db = t.database.db;
  const at = receipts[0][1];
  const { id } = await db.insertInto('receiving_order').values({
    ro_number: `RO-OT-${Math.random().toString(36).slice(2, 8)}`, warehouse_id: wh, customer_id: customer, supplier: 'Acme', reference_number: `R-${Math.random()}`,
    expected_date: at.slice(0, 10), status: 'Received', notes: null, created_by: null, created_at: at, updated_at: at, received_at: at, finalized_at: null, closed_at: null, cancelled_at: null,
  }).returning('id').executeTakeFirstOrThrow();
  const line = await db.insertInto('receiving_order_line').values({ order_id: id, line_no: 1, sku_id: sku, expected_qty: 100, notes: null, expiry_date: null }).returning('id').executeTakeFirstOrThrow();
  for (const [quantity, when] of receipts) {
    await db.insertInto('receiving_receipt').values({
      order_id: id, line_id: line.id, warehouse_id: wh, customer_id: customer, sku_id: sku, location_id: dock, lot: '', expiry_date: null, pallet: '', quantity, damaged_qty: 0,
      damaged_location_id: null, document_id: `RCV-${Math.random()}`, user_id: null, username: null, at: when,
    }).execute();
  }
  for (const [quantity, when] of putaways) {
    await db.insertInto('receiving_putaway').values({
      order_id: id, line_id: line.id, from_location_id: dock, to_location_id: L1, lot: '', pallet: '', quantity, document_id: `PUT-${Math.random()}`, user_id: null, username: null, at: when,
    }).execute();
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  custA = await makeCustomer(t.database, [wh]);
  custB = await makeCustomer(t.database, [wh]);
  [a1, a2, a3, a4] = [await makeSku(t.database, custA, `A1-${wh}`), await makeSku(t.database, custA, `A2-${wh}`), await makeSku(t.database, custA, `A3-${wh}`), await makeSku(t.database, custA, `A4-${wh}`)];
  b1 = await makeSku(t.database, custB, `B1-${wh}`);
  L1 = await makeLocation(t.database, wh, `R-A-1-${wh}`);
  L2 = await makeLocation(t.database, wh, `R-A-2-${wh}`);
  L3 = await makeLocation(t.database, wh, `R-B-1-${wh}`);
  dock = await makeLocation(t.database, wh, `DOCK-${wh}`, 'dock');
  await t.database.db.updateTable('location').set({ zone: 'A' }).where('id', 'in', [L1, L2]).execute();
  await t.database.db.updateTable('location').set({ zone: 'B' }).where('id', '=', L3).execute();
  await postStock(t, [{ place: { warehouseId: wh, customerId: custA, skuId: a1, locationId: L1, lot: '', pallet: '' }, qty: 10 }]);
  await postStock(t, [{ place: { warehouseId: wh, customerId: custB, skuId: b1, locationId: L3, lot: '', pallet: '' }, qty: 5 }]);
  // Client B's stock last moved 100 days ago: dead at 90 days, not at 120.
  await t.database.db.updateTable('inventory_txn').set({ at: new Date(Date.now() - 100 * 864e5).toISOString() }).where('sku_id', '=', b1).execute();
  // Picks within the week: client A's 80/15/5/0 units, client B's 10; one pick of A1 outside it.
  await pick(custA, a1, 50, '2026-01-05T10:00:00.000Z');
  await pick(custA, a1, 30, '2026-01-08T10:00:00.000Z');
  await pick(custA, a2, 15, '2026-01-09T10:00:00.000Z');
  await pick(custA, a3, 5, '2026-01-11T23:00:00.000Z');
  await pick(custB, b1, 10, '2026-01-07T10:00:00.000Z');
  await pick(custA, a3, 500, '2026-01-12T10:00:00.000Z');
  // Receipts: A's RO put away in 6 h; a partly put-away RO (not counted); B's RO in 24 h; one stocked before the week.
  await ro(custA, a1, [[10, '2026-01-06T08:00:00.000Z']], [[6, '2026-01-06T10:00:00.000Z'], [4, '2026-01-06T14:00:00.000Z']]);
  await ro(custA, a2, [[5, '2026-01-06T08:00:00.000Z']], [[2, '2026-01-06T09:00:00.000Z']]);
  await ro(custB, b1, [[5, '2026-01-07T00:00:00.000Z']], [[5, '2026-01-08T00:00:00.000Z']]);
  await ro(custA, a1, [[1, '2026-01-01T00:00:00.000Z']], [[1, '2026-01-02T00:00:00.000Z']]);
  // Audit rows: two in the week (one per client), one after it.
  const audit = (at: string, customer: number, action: string) => t.database.db.insertInto('audit_log').values({
    at, user_id: null, username: 'someone', action, entity: 'test', entity_id: '1', warehouse_id: wh, customer_id: customer, before_json: null, after_json: null, request_id: null, ip: null,
  }).execute();
  await audit('2026-01-06T12:00:00.000Z', custA, 'TestA');
  await audit('2026-01-07T12:00:00.000Z', custB, 'TestB');
  await audit('2026-01-12T12:00:00.000Z', custA, 'TestLater');
  const u = await makeUser(t.database, { role: 'Client', customerId: custB, warehouseIds: [wh], customerIds: [custB], modules: { OtherReports: 'write' } });
  clientB = as(t.app, await login(t.app, u.username, u.password));
});
afterAll(async () => { await t?.close(); });

describe('/OtherReports', () => {
  it('location utilisation per zone and the empty locations (handling areas left out)', async () => {
    const res = await get(admin, 'location-utilisation');
    expect(res.statusCode, res.body).toBe(200);
    const r: Rows = res.json();
    expect(r.rows.map((x) => [x.zone, x.locations, x.used, x.empty, x.utilisation])).toEqual([['A', 2, 1, 1, 50], ['B', 1, 1, 0, 100]]);
    expect(r.totals).toMatchObject({ locations: 3, used: 2, empty: 1, utilisation: 66.7 });
    const empty: Rows = (await get(admin, 'empty-locations')).json();
    expect(empty.rows.map((x) => x.location)).toEqual([`R-A-2-${wh}`]);
  });

  it('SKU velocity ranks SKUs by units picked with their ABC class', async () => {
    const r: Rows = (await get(admin, 'sku-velocity', { customerId: custA })).json();
    expect(r.rows.map((x) => [x.sku, x.units, x.share, x.cumulative, x.abcClass])).toEqual([
      [`A1-${wh}`, 80, 80, 80, 'A'], [`A2-${wh}`, 15, 15, 95, 'B'], [`A3-${wh}`, 5, 5, 100, 'C'], [`A4-${wh}`, 0, 0, 100, 'C'],
    ]);
    expect(r.totals).toMatchObject({ units: 100, picks: 4, abcClass: 'A 1 · B 1 · C 2' });
    expect([abcClassOf(79.9, 1), abcClassOf(80, 1), abcClassOf(94.9, 1), abcClassOf(95, 1), abcClassOf(0, 0)]).toEqual(['A', 'B', 'B', 'C', 'C']);
  });

  it('applies the ABC classes to the SKUs, once, with an audit row per change; a client account may not', async () => {
    const res = await admin.post('/Warehouse/OtherReport/ApplyAbcClasses', { filters: { ...range, warehouseId: wh, customerId: custA } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ A: 1, B: 1, C: 2, changed: 4 });
    const stored = await t.database.db.selectFrom('sku').select(['id', 'abc_class']).where('customer_id', '=', custA).orderBy('id').execute();
    expect(stored.map((s) => s.abc_class)).toEqual(['A', 'B', 'C', 'C']);
    const audits = await t.database.db.selectFrom('audit_log').select('entity_id').where('action', '=', 'SetAbcClass').where('entity_id', 'in', [a1, a2, a3, a4].map(String)).execute();
    expect(audits).toHaveLength(4);
    expect((await admin.post('/Warehouse/OtherReport/ApplyAbcClasses', { filters: { ...range, warehouseId: wh, customerId: custA } })).json().data.changed).toBe(0);
    const report: Rows = (await get(admin, 'sku-velocity', { customerId: custA })).json();
    expect(report.rows.map((x) => x.currentClass)).toEqual(['A', 'B', 'C', 'C']);
    expect((await clientB.post('/Warehouse/OtherReport/ApplyAbcClasses', { filters: range })).statusCode).toBe(403);
    expect((await t.database.db.selectFrom('sku').select('abc_class').where('id', '=', b1).executeTakeFirstOrThrow()).abc_class).toBeNull();
  });

  it('dead stock: stock on hand without movement in N days', async () => {
    const r: Rows = (await get(admin, 'dead-stock')).json();
    expect(r.rows.map((x) => [x.sku, x.onHand, x.daysIdle])).toEqual([[`B1-${wh}`, 5, 100]]);
    expect((await get(admin, 'dead-stock', { days: 120 })).json().rows).toEqual([]);
    const bad = await get(admin, 'dead-stock', { days: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('days');
  });

  it('dock-to-stock: first receipt to last putaway of receiving orders fully put away within the days', async () => {
    const r: Rows = (await get(admin, 'dock-to-stock')).json();
    expect(r.rows.map((x) => [x.units, x.hours])).toEqual([[10, 6], [5, 24]]);
    expect(r.totals).toMatchObject({ units: 15, averageHours: 15, medianHours: 15 });
  });

  it('the audit log within the days, newest first', async () => {
    const r: Rows = (await get(admin, 'audit-log')).json();
    expect(r.rows.filter((x) => String(x.action).startsWith('Test')).map((x) => x.action)).toEqual(['TestB', 'TestA']);
  });

  it('a client account sees its own figures only, and not the staff reports', async () => {
    const util: Rows = (await get(clientB, 'location-utilisation')).json();
    expect(util.totals).toMatchObject({ locations: 3, used: 1 });
    const velocity: Rows = (await get(clientB, 'sku-velocity')).json();
    expect(velocity.rows.map((x) => [x.sku, x.units, x.abcClass])).toEqual([[`B1-${wh}`, 10, 'A']]);
    expect((await get(clientB, 'dock-to-stock')).json().rows.map((x: { units: number }) => x.units)).toEqual([5]);
    expect((await get(clientB, 'dead-stock')).json().rows).toHaveLength(1);
    expect((await get(clientB, 'sku-velocity', { customerId: custA })).statusCode).toBe(403);
    expect((await get(clientB, 'audit-log')).statusCode).toBe(403);
    expect((await get(clientB, 'empty-locations')).statusCode).toBe(403);
    const csv = await clientB.post('/Warehouse/OtherReport/DownloadReport', { report: 'sku-velocity', filters: { ...range, warehouseId: wh }, format: 'csv' });
    expect(csv.body).toContain(`B1-${wh}`);
    expect(csv.body).not.toContain(`A1-${wh}`);
  });

  it('refuses a report of another screen', async () => {
    const res = await admin.post('/Warehouse/OrderReport/GetReport', { report: 'sku-velocity', filters: range });
    expect(res.statusCode).toBe(400);
  });
});
