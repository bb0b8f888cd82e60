import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, businessDay } from '../../platform/business-day.js';
import { assistantRange } from './assistant-range.js';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeUser, makeWarehouse, type TestApp } from '../../../test/helpers.js';

// A hand-built set of orders and receiving orders in Newark (New York time), dated relative to today there, so
// "yesterday", "last week" and "last month" hold known figures whatever day the suite runs.
const NY = 'America/New_York';
let t: TestApp;
let admin: ReturnType<typeof as>, fjordClient: ReturnType<typeof as>, newarkStaff: ReturnType<typeof as>;
let newark: number, reno: number, fjord: number, globex: number;
const Y = addDays(businessDay(NY), -1);
const lastWeek = assistantRange('last week', NY);
const lastMonth = assistantRange('last month', NY);

/** The UTC instant of a wall-clock time on a day in a zone (two passes settle a DST change). */
function localInstant(day: string, time: string, zone: string): string {
  let guess = Date.parse(`${day}T${time}:00.000Z`);
  for (let i = 0; i < 2; i++) {
    const shown = new Intl.DateTimeFormat('sv-SE', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false })
      .format(new Date(guess)).replace(' ', 'T');
    guess += Date.parse(`${day}T${time}:00.000Z`) - Date.parse(`${shown}:00.000Z`);
  }
  return new Date(guess).toISOString();
}

interface OrderFixture { customer: () => number; warehouse: () => number; type: string; day: string; time: string; status: string; history: [status: string, day: string, time: string][] }
// Fjord in Newark unless said: what every figure below is counted from (days are Newark's business days).
const ORDERS: OrderFixture[] = [
  { customer: () => fjord, warehouse: () => newark, type: 'Sales', day: Y, time: '10:00', status: 'Shipped', history: [['Released', Y, '11:00'], ['Shipped', Y, '15:00']] },
  // 23:30 in New York is the next day in UTC: still yesterday's.
  { customer: () => fjord, warehouse: () => newark, type: 'Transfer', day: Y, time: '23:30', status: 'Released', history: [['Released', Y, '23:45']] },
  // The day before yesterday at 23:30 is yesterday in UTC: not yesterday's.
  { customer: () => fjord, warehouse: () => newark, type: 'Sales', day: addDays(Y, -1), time: '23:30', status: 'New', history: [] },
  { customer: () => fjord, warehouse: () => newark, type: 'Sales', day: addDays(lastWeek.from, 2), time: '12:00', status: 'Cancelled', history: [] },
  { customer: () => fjord, warehouse: () => newark, type: 'Purchase', day: lastMonth.from, time: '09:00', status: 'New', history: [] },
  { customer: () => fjord, warehouse: () => newark, type: 'Sales', day: lastMonth.to, time: '20:00', status: 'Shipped', history: [['Shipped', lastMonth.to, '22:00']] },
  // Another client in Newark, and Fjord in another warehouse: never in Fjord-in-Newark's figures.
  { customer: () => globex, warehouse: () => newark, type: 'Sales', day: Y, time: '12:00', status: 'Shipped', history: [['Shipped', Y, '13:00']] },
  { customer: () => fjord, warehouse: () => reno, type: 'Sales', day: Y, time: '12:00', status: 'New', history: [] },
];
interface RoFixture { customer: () => number; received: string; finalized: string | null }
const ROS: RoFixture[] = [
  { customer: () => fjord, received: Y, finalized: Y },
  { customer: () => fjord, received: lastWeek.from, finalized: null },
  { customer: () => globex, received: Y, finalized: Y },
];

/** What a query should count for Fjord in Newark, from the fixtures: the expected figures of the wider ranges. */
function expected(range: { from: string; to: string }) {
  const inRange = (d: string) => d >= range.from && d <= range.to;
  const mine = ORDERS.filter((o) => o.customer() === fjord && o.warehouse() === newark);
  const reached = (s: string) => mine.filter((o) => o.history.some(([to, d]) => to === s && inRange(d))).length;
  const ros = ROS.filter((r) => r.customer() === fjord);
  return {
    'Order Received': mine.filter((o) => inRange(o.day)).length, 'Orders Processed': reached('Released'), 'Orders Shipped': reached('Shipped'),
    'RO Received': ros.filter((r) => inRange(r.received)).length, 'RO Finalized': ros.filter((r) => r.finalized && inRange(r.finalized)).length,
  };
}

let seq = 0;
beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  newark = await makeWarehouse(t.database, 'Newark DC');
  reno = await makeWarehouse(t.database, 'Reno');
  await db.updateTable('warehouse').set({ timezone: NY }).where('id', '=', newark).execute();
  await db.updateTable('warehouse').set({ timezone: 'America/Los_Angeles' }).where('id', '=', reno).execute();
  globex = await makeCustomer(t.database, [newark], 'Globex Corp');
  fjord = await makeCustomer(t.database, [newark, reno], 'Fjord Outdoor Co');
  for (const o of ORDERS) {
    const at = localInstant(o.day, o.time, NY);
    const { id } = await db.insertInto('sales_order').values({
      so_number: `SO-A${++seq}`, warehouse_id: o.warehouse(), customer_id: o.customer(), order_type: o.type, reference_number: `REF-A${seq}`,
      order_date: o.day, requested_ship_date: null, priority: 5, ship_to_name: null, ship_to_address1: null, ship_to_address2: null, ship_to_city: null,
      ship_to_state: null, ship_to_zip: null, ship_to_country: null, ship_to_phone: null, ship_to_email: null, carrier_account_id: null, carrier_service: null, notes: null,
      status: o.status, source: 'screen', created_by: null, created_at: at, updated_at: at,
    }).returning('id').executeTakeFirstOrThrow();
    let from = 'New';
    for (const [to, day, time] of o.history) {
      await db.insertInto('document_status_history').values({ kind: 'SALES_ORDER', document_id: id, from_status: from, to_status: to, at: localInstant(day, time, NY), user_id: null, username: null, reason: null }).execute();
      from = to;
    }
  }
  for (const r of ROS) {
    const received = localInstant(r.received, '09:00', NY);
    await db.insertInto('receiving_order').values({
      ro_number: `RO-A${++seq}`, warehouse_id: newark, customer_id: r.customer(), supplier: 'Acme', reference_number: `PO-${seq}`, expected_date: r.received,
      status: r.finalized ? 'Received' : 'Receiving', notes: null, created_by: null, created_at: received, updated_at: received,
      received_at: received, finalized_at: r.finalized ? localInstant(r.finalized, '17:00', NY) : null, closed_at: null, cancelled_at: null,
    }).execute();
  }
  const client = await makeUser(t.database, { role: 'Client', customerId: fjord, warehouseIds: [newark, reno], customerIds: [fjord] });
  fjordClient = as(t.app, await login(t.app, client.username, client.password));
  const staff = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [newark], customerIds: [fjord, globex] });
  newarkStaff = as(t.app, await login(t.app, staff.username, staff.password));
});
afterAll(async () => { await t?.close(); });

const ask = (s: ReturnType<typeof as>, query_type: string, time_range: string, client_name = 'Fjord Outdoor Co', warehouse_name = 'Newark DC') =>
  s.post('/API/order-analysis', { warehouse_name, client_name, query_type, time_range, chart_type: 'bar' });

describe('the assistant host: warehouses and clients', () => {
  it('lists the caller’s warehouses by name, and a warehouse’s clients sorted by name', async () => {
    const all = (await admin.get('/API/warehouses')).json();
    expect(all.warehouses).toEqual(expect.arrayContaining(['Newark DC', 'Reno']));
    expect((await newarkStaff.get('/API/warehouses')).json()).toEqual({ warehouses: ['Newark DC'] });
    const clients = await admin.post('/API/warehouse-clients', { warehouse_name: 'newark dc' });
    expect(clients.statusCode, clients.body).toBe(200);
    expect(clients.json()).toEqual({ clients: [{ name: 'Fjord Outdoor Co' }, { name: 'Globex Corp' }] });
    expect((await admin.post('/API/warehouse-clients', { warehouse_name: 'Reno' })).json()).toEqual({ clients: [{ name: 'Fjord Outdoor Co' }] });
  });

  it('a client account sees its own client only', async () => {
    expect((await fjordClient.get('/API/warehouses')).json()).toEqual({ warehouses: ['Newark DC', 'Reno'] });
    expect((await fjordClient.post('/API/warehouse-clients', { warehouse_name: 'Newark DC' })).json()).toEqual({ clients: [{ name: 'Fjord Outdoor Co' }] });
  });

  it('an unknown or out-of-scope warehouse is a 404 in the API_ERROR shape, naming the field', async () => {
    for (const [s, name] of [[admin, 'Atlantis'], [newarkStaff, 'Reno']] as const) {
      const res = await s.post('/API/warehouse-clients', { warehouse_name: name });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, message: `No warehouse named "${name}" among yours`, details: { warehouse_name: expect.any(String) } });
    }
    expect((await admin.post('/API/warehouse-clients', {})).json()).toMatchObject({ status: 400, details: { warehouse_name: 'Enter the warehouse name' } });
    expect((await admin.post('/API/warehouse-clients', { warehouse_name: 'New\u0000ark' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/API/warehouses' })).statusCode).toBe(401);
  });
});

describe('the assistant host: order analysis', () => {
  it('yesterday’s single figures in the warehouse’s time zone: [warehouse, client, count]', async () => {
    const figures: Record<string, number> = { 'Order Received': 2, 'Orders Processed': 2, 'Orders Shipped': 1, 'RO Received': 1, 'RO Finalized': 1 };
    for (const [type, count] of Object.entries(figures)) {
      const res = await ask(admin, type, 'yesterday');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().result, type).toMatchObject({
        data: ['Newark DC', 'Fjord Outdoor Co', count], total: count,
        query: { query_type: type, time_range: 'yesterday', from_date: Y, to_date: Y, timezone: NY },
      });
    }
    expect((await ask(admin, 'Order Received', 'yesterday')).json().result.query.label).toBe('Orders Received');
  });

  it('last week and last month count what fell within them', async () => {
    for (const [range, days] of [['last week', lastWeek], ['last month', lastMonth]] as const) {
      for (const [type, count] of Object.entries(expected(days))) {
        const r = (await ask(admin, type, range)).json().result;
        expect(r.data, `${type} ${range}`).toEqual(['Newark DC', 'Fjord Outdoor Co', count]);
        expect(r.query).toMatchObject({ from_date: days.from, to_date: days.to });
      }
    }
    // The fixtures put something in each: the figures are not all zero by accident.
    expect(expected(lastMonth)['Orders Shipped']).toBeGreaterThan(0);
    expect(expected(lastWeek)['RO Received']).toBeGreaterThan(0);
  });

  it('Orders Trend: a row per day [warehouse, client, day, count]; All Orders: a row per status; totals are the sums', async () => {
    const trend = (await ask(admin, 'Orders Trend', 'last week')).json().result;
    const days = Object.values(trend.data) as [string, string, string, number][];
    expect(days).toHaveLength(7);
    expect(days[0]!.slice(0, 3)).toEqual(['Newark DC', 'Fjord Outdoor Co', lastWeek.from]);
    expect(trend.total).toBe(expected(lastWeek)['Order Received']);
    expect(days.find((d) => d[2] === addDays(lastWeek.from, 2))![3]).toBe(1);

    const all = (await ask(admin, 'All Orders', 'yesterday')).json().result;
    expect(all.data).toEqual({ 0: ['Newark DC', 'Fjord Outdoor Co', 'Released', 1], 1: ['Newark DC', 'Fjord Outdoor Co', 'Shipped', 1] });
    expect(all.total).toBe(2);
  });

  it('order-type-counts: response_code 200 and a bar per day for each order type', async () => {
    const res = await admin.post('/API/order-type-counts', { warehouse_name: 'Newark DC', client_name: 'Fjord Outdoor Co', query_type: 'Order Received', time_range: 'yesterday' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      response_code: 200, response_message: 'OK',
      data: { type: 'bar', xAxis: { name: 'Date', data: [Y] }, yAxis: { name: 'Orders Received' }, series: [{ name: 'Sales', data: [1] }, { name: 'Transfer', data: [1] }] },
    });
    const ro = (await admin.post('/API/order-type-counts', { warehouse_name: 'Newark DC', client_name: 'Fjord Outdoor Co', query_type: 'RO Received', time_range: 'last week' })).json();
    expect(ro.data.xAxis.data).toHaveLength(7);
    expect(ro.data.series).toEqual([{ name: 'Receiving Orders', data: [1, 0, 0, 0, 0, 0, 0] }]);
  });

  it('a client asking about another customer, or outside the options, is refused in the API_ERROR shape', async () => {
    const other = await ask(fjordClient, 'Orders Shipped', 'yesterday', 'Globex Corp');
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ status: 404, details: { client_name: 'No client named "Globex Corp" among yours in Newark DC' } });
    expect((await ask(admin, 'Orders Shipped', 'yesterday', 'Initech')).statusCode).toBe(404);
    expect((await ask(admin, 'Orders Shipped', 'yesterday', 'Fjord Outdoor Co', 'Atlantis')).json()).toMatchObject({ status: 404, details: { warehouse_name: expect.any(String) } });
    const badType = await ask(admin, 'Orders Lost', 'yesterday');
    expect(badType.statusCode).toBe(400);
    expect(Object.keys(badType.json().details)).toEqual(['query_type']);
    expect(Object.keys((await ask(admin, 'Orders Shipped', 'tomorrow')).json().details)).toEqual(['time_range']);
    expect((await admin.post('/API/order-analysis', { warehouse_name: 'Newark DC', client_name: 'Fjord Outdoor Co', query_type: 'Orders Shipped', time_range: 'yesterday', chart_type: 'pie' })).statusCode).toBe(400);
    // Its own figures answer as they do for staff.
    expect((await ask(fjordClient, 'Orders Shipped', 'yesterday')).json().result.data).toEqual(['Newark DC', 'Fjord Outdoor Co', 1]);
  });
});

describe('the assistant host: questions in the user’s own words', () => {
  const question = (s: ReturnType<typeof as>, q: string, context: Record<string, string> = {}) => s.post('/API/ask', { question: q, ...context });

  it('answers with the same query, and says which query ran and on what', async () => {
    const res = await question(admin, 'How many orders did Fjord ship yesterday in Newark?');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      understood: true,
      query: { warehouse_name: 'Newark DC', client_name: 'Fjord Outdoor Co', query_type: 'Orders Shipped', label: 'Orders Shipped', time_range: 'yesterday', from_date: Y },
      result: { data: ['Newark DC', 'Fjord Outdoor Co', 1], total: 1 },
    });
    // The client account's one client is taken as meant; the warehouse is named.
    expect((await question(fjordClient, 'receipts finalized yesterday in Newark')).json()).toMatchObject({ understood: true, result: { total: 1 }, query: { query_type: 'RO Finalized' } });
    // The chat's current choices fill what the question leaves out.
    expect((await question(newarkStaff, 'orders received last month', { warehouse_name: 'Newark DC', client_name: 'Globex Corp' })).json())
      .toMatchObject({ understood: true, query: { client_name: 'Globex Corp', time_range: 'last month' } });
  });

  it('understands this week (Monday to today) and this month (the 1st to today) in the warehouse’s time zone', async () => {
    // 03:00 UTC on Wednesday 4 March is still Tuesday the 3rd in New York, and already Wednesday in UTC.
    const now = new Date('2026-03-04T03:00:00.000Z');
    expect(assistantRange('this week', NY, now)).toEqual({ from: '2026-03-02', to: '2026-03-03' });
    expect(assistantRange('this month', NY, now)).toEqual({ from: '2026-03-01', to: '2026-03-03' });
    expect(assistantRange('this week', 'UTC', now)).toEqual({ from: '2026-03-02', to: '2026-03-04' });
    const today = businessDay(NY);
    for (const range of ['this week', 'this month'] as const) {
      const days = assistantRange(range, NY);
      const res = await question(admin, `how many orders did Fjord get ${range} in Newark`);
      expect(res.json()).toMatchObject({
        understood: true, query: { query_type: 'Order Received', time_range: range, from_date: days.from, to_date: today },
        result: { total: expected(days)['Order Received'] },
      });
    }
  });

  it('asks for what is missing, and never answers about a customer outside the caller’s scope', async () => {
    // Fjord is served from two warehouses: which one?
    expect((await question(admin, 'how many orders did Fjord ship yesterday')).json())
      .toEqual({ understood: false, ask: 'warehouse', message: 'Which warehouse of Fjord Outdoor Co? Pick one below.', found: { client_name: 'Fjord Outdoor Co', query_type: 'Orders Shipped', time_range: 'yesterday' } });
    expect((await question(admin, 'orders shipped in Newark yesterday')).json()).toMatchObject({ understood: false, ask: 'client' });
    expect((await question(admin, 'Fjord in Newark yesterday')).json()).toMatchObject({ understood: false, ask: 'query' });
    expect((await question(admin, 'Fjord orders shipped in Newark')).json()).toMatchObject({ understood: false, ask: 'time' });
    const other = (await question(fjordClient, 'how many orders did Globex ship yesterday in Newark')).json();
    expect(other).toMatchObject({ understood: false });
    expect(other.message).toContain('globex');
    expect((await question(admin, 'what is the weather like')).json()).toMatchObject({ understood: false, ask: 'query' });
    expect((await admin.post('/API/ask', { question: '' })).statusCode).toBe(400);
  });
});

describe('the assistant host in the OpenAPI document', () => {
  it('documents each /API path with a tag and a summary', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as { paths: Record<string, Record<string, { tags?: string[]; summary?: string }>> };
    for (const [method, path] of [['get', '/API/warehouses'], ['post', '/API/warehouse-clients'], ['post', '/API/order-analysis'], ['post', '/API/order-type-counts'], ['post', '/API/ask']]) {
      expect(doc.paths[path!]?.[method!]?.summary, path).toBeTruthy();
    }
  });
});
