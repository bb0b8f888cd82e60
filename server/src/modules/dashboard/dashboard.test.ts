import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: ReturnType<typeof as>;
let wh: number, otherWh: number, cust: number, otherCust: number, sku: number;

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  otherWh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh, otherWh]);
  otherCust = await makeCustomer(t.database, [wh]);
  sku = await makeSku(t.database, cust);
});
afterAll(async () => { await t?.close(); });

const tiles = async (warehouseId: number, customerId: number, session = admin) => {
  const res = await session.get(`/Warehouse/Dashboard/GetDashboard?warehouseId=${warehouseId}&customerId=${customerId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { openReceipts: number | null };
};
/** An RO in a given status, as the receiving module leaves it. */
async function order(warehouseId: number, customerId: number, status: string) {
  const now = new Date().toISOString();
  await t.database.db.insertInto('receiving_order').values({
    ro_number: `RO-T-${Math.random().toString(36).slice(2, 10)}`, warehouse_id: warehouseId, customer_id: customerId, supplier: 'Test Supplier',
    reference_number: '', expected_date: '2026-12-01', status, notes: null, created_by: null, created_at: now, updated_at: now,
    received_at: null, finalized_at: null, closed_at: null, cancelled_at: null,
  }).execute();
}

describe('dashboard open receipts', () => {
  it('counts receiving orders not yet closed or cancelled, in the chosen warehouse and customer', async () => {
    expect((await tiles(wh, cust)).openReceipts).toBe(0);
    const created = await admin.post('/Warehouse/Receiving/CreateReceivingOrder', {
      warehouseId: wh, customerId: cust, supplier: 'Nordic Components AB', expectedDeliveryDate: '2026-12-01', lines: [{ skuId: sku, expectedQuantity: 5 }],
    });
    expect(created.statusCode, created.body).toBe(200);
    expect((await tiles(wh, cust)).openReceipts).toBe(1);

    for (const status of ['Receiving', 'Received', 'Closed', 'Cancelled']) await order(wh, cust, status);
    expect((await tiles(wh, cust)).openReceipts).toBe(3);

    await order(otherWh, cust, 'Open');
    await order(wh, otherCust, 'Open');
    expect((await tiles(wh, cust)).openReceipts).toBe(3);
    expect((await tiles(otherWh, cust)).openReceipts).toBe(1);
    expect((await tiles(wh, 0)).openReceipts).toBe(4);
  });

  it('shows a client account only its own customer’s receipts', async () => {
    const client = await makeUser(t.database, { role: 'Client', customerId: otherCust, modules: { Dashboard: 'read' } });
    const session = as(t.app, await login(t.app, client.username, client.password));
    expect((await tiles(0, 0, session)).openReceipts).toBe(1);
    expect((await session.get(`/Warehouse/Dashboard/GetDashboard?customerId=${cust}`)).statusCode).toBe(403);
  });
});

/** An outbound order in a given status, as the orders module leaves it. */
async function salesOrder(warehouseId: number, customerId: number, status: string) {
  const now = new Date().toISOString();
  await t.database.db.insertInto('sales_order').values({
    so_number: `SO-T-${Math.random().toString(36).slice(2, 10)}`, warehouse_id: warehouseId, customer_id: customerId, order_type: 'Sales',
    reference_number: `REF-${Math.random().toString(36).slice(2, 10)}`, order_date: '2026-12-01', requested_ship_date: null, priority: 5,
    ship_to_name: null, ship_to_address1: null, ship_to_address2: null, ship_to_city: null, ship_to_state: null, ship_to_zip: null,
    ship_to_country: null, ship_to_phone: null, ship_to_email: null, carrier_account_id: null, carrier_service: null, notes: null,
    status, source: 'screen', created_by: null, created_at: now, updated_at: now,
  }).execute();
}

describe('dashboard open orders', () => {
  const openOrders = async (warehouseId: number, customerId: number, session = admin) =>
    (await tiles(warehouseId, customerId, session) as unknown as { openOrders: number | null }).openOrders;

  it('counts orders not yet shipped or cancelled, in the chosen warehouse and customer', async () => {
    expect(await openOrders(wh, cust)).toBe(0);
    const created = await admin.post('/Warehouse/Order/CreateOrder', {
      warehouseId: wh, customerId: cust, orderType: 'Sales', referenceNumber: 'DASH-1', orderDate: '2026-12-01', lines: [{ skuId: sku, quantity: 2 }],
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(await openOrders(wh, cust)).toBe(1);

    for (const status of ['Allocated', 'Backordered', 'On Hold', 'Packed', 'Shipped', 'Cancelled']) await salesOrder(wh, cust, status);
    expect(await openOrders(wh, cust)).toBe(5);

    await salesOrder(otherWh, cust, 'New');
    await salesOrder(wh, otherCust, 'Released');
    expect(await openOrders(wh, cust)).toBe(5);
    expect(await openOrders(otherWh, cust)).toBe(1);
    expect(await openOrders(wh, 0)).toBe(6);
  });

  it('shows a client account only its own customer’s orders', async () => {
    const client = await makeUser(t.database, { role: 'Client', customerId: otherCust, modules: { Dashboard: 'read' } });
    const session = as(t.app, await login(t.app, client.username, client.password));
    expect(await openOrders(0, 0, session)).toBe(1);
  });
});

describe('dashboard: today’s orders and picks', () => {
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const yesterday = new Date(now.getTime() - 864e5).toISOString().slice(0, 10);
  let w: number, a: number, b: number;
  let seq = 0;
  const salesOrder = async (customer: number, status: string, requested: string | null, shippedAt: string | null = null) => {
    const at = new Date(now.getTime() - 3 * 864e5).toISOString();
    await t.database.db.insertInto('sales_order').values({
      so_number: `SO-DB${++seq}-${Math.random().toString(36).slice(2, 6)}`, warehouse_id: w, customer_id: customer, order_type: 'Sales', reference_number: `DB-${seq}-${Math.random()}`,
      order_date: at.slice(0, 10), requested_ship_date: requested, priority: 5, ship_to_name: null, ship_to_address1: null, ship_to_address2: null, ship_to_city: null,
      ship_to_state: null, ship_to_zip: null, ship_to_country: null, ship_to_phone: null, ship_to_email: null, carrier_account_id: null, carrier_service: null, notes: null,
      status, source: 'screen', created_by: null, created_at: at, updated_at: at, shipped_at: shippedAt,
    }).execute();
  };
  const pick = async (customer: number, quantity: number, gap: number) => {
    const at = now.toISOString();
    await t.database.db.insertInto('floor_event').values({
      kind: 'pick', warehouse_id: w, customer_id: customer, user_id: null, job_id: null, task_id: null, order_id: null, order_line_id: null, carton_id: null,
      sku_id: null, location_id: null, quantity, at, at_ms: now.getTime(), business_day: today, seconds_since_previous: gap,
    }).execute();
  };
  type Tiles = { dueToday: number; lateOrders: number; backorders: number; shippedToday: number; unitsPickedToday: number; unitsPickedPerHour: number | null; openOrders: number };

  beforeAll(async () => {
    w = await makeWarehouse(t.database);
    a = await makeCustomer(t.database, [w]);
    b = await makeCustomer(t.database, [w]);
    await salesOrder(a, 'Allocated', today);
    await salesOrder(a, 'New', yesterday);
    await salesOrder(b, 'Released', yesterday);
    await salesOrder(a, 'Shipped', yesterday, new Date(now.getTime() - 864e5 * 3).toISOString());
    await salesOrder(a, 'Shipped', today, now.toISOString());
    await salesOrder(b, 'Backordered', null);
    await salesOrder(a, 'Cancelled', yesterday);
    // Client A: 30 units in 900 s of picking, and 10 units after a long (idle) gap; client B: 5 units in 100 s.
    await pick(a, 20, 600);
    await pick(a, 10, 300);
    await pick(a, 10, 5000);
    await pick(b, 5, 100);
  });

  it('counts orders due today, late, backordered and shipped today, and units picked per hour, in the warehouse’s today', async () => {
    const all = (await tiles(w, 0)) as unknown as Tiles;
    expect(all).toMatchObject({ openOrders: 4, dueToday: 1, lateOrders: 2, backorders: 1, shippedToday: 1, unitsPickedToday: 45 });
    expect(all.unitsPickedPerHour).toBe(162); // 45 units in 1000 s of picking
    expect(await tiles(w, a)).toMatchObject({ dueToday: 1, lateOrders: 1, backorders: 0, shippedToday: 1, unitsPickedToday: 40, unitsPickedPerHour: 160 });
  });

  it('holds a client account to its own figures', async () => {
    const client = await makeUser(t.database, { role: 'Client', customerId: b, modules: { Dashboard: 'read' } });
    const session = as(t.app, await login(t.app, client.username, client.password));
    expect(await tiles(w, 0, session)).toMatchObject({ dueToday: 0, lateOrders: 1, backorders: 1, shippedToday: 0, unitsPickedToday: 5, unitsPickedPerHour: 180 });
  });
});

describe('dashboard: on-time rate and dock-to-stock over the last 7 days', () => {
  const now = Date.now();
  const ago = (hours: number) => new Date(now - hours * 3600_000).toISOString();
  const day = (days: number) => new Date(now + days * 864e5).toISOString().slice(0, 10);
  let w: number, a: number, b: number, dock: number, shelf: number;
  type Tiles = { onTimeRate: number | null; onTimeRated: number; dockToStockHours: number | null };

  /** A shipped order with its status history, as the orders module leaves it. */
  const shipped = async (customer: number, requested: string | null, shippedAt: string) => {
    const db = t.database.db;
    const { id } = await db.insertInto('sales_order').values({
      so_number: `SO-OT-${Math.random().toString(36).slice(2, 10)}`, warehouse_id: w, customer_id: customer, order_type: 'Sales', reference_number: `OT-${Math.random()}`,
      order_date: day(-20), requested_ship_date: requested, priority: 5, ship_to_name: null, ship_to_address1: null, ship_to_address2: null, ship_to_city: null,
      ship_to_state: null, ship_to_zip: null, ship_to_country: null, ship_to_phone: null, ship_to_email: null, carrier_account_id: null, carrier_service: null, notes: null,
      status: 'Shipped', source: 'screen', created_by: null, created_at: ago(24 * 20), updated_at: shippedAt, shipped_at: shippedAt,
    }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('document_status_history').values({ kind: 'SALES_ORDER', document_id: id, from_status: 'Packed', to_status: 'Shipped', at: shippedAt, user_id: null, username: null, reason: null }).execute();
  };
  /** A receiving order received at the dock and put away (units per receipt and putaway), as the receiving module leaves it. */
  const received = async (customer: number, receipt: [number, string], putaways: [number, string][]) => {
    const db = t.database.db;
    const sku = await makeSku(t.database, customer);
    const { id } = await db.insertInto('receiving_order').values({
      ro_number: `RO-DS-${Math.random().toString(36).slice(2, 10)}`, warehouse_id: w, customer_id: customer, supplier: 'Acme', reference_number: `DS-${Math.random()}`,
      expected_date: receipt[1].slice(0, 10), status: 'Received', notes: null, created_by: null, created_at: receipt[1], updated_at: receipt[1], received_at: receipt[1],
      finalized_at: null, closed_at: null, cancelled_at: null,
    }).returning('id').executeTakeFirstOrThrow();
    const line = await db.insertInto('receiving_order_line').values({ order_id: id, line_no: 1, sku_id: sku, expected_qty: 100, notes: null, expiry_date: null }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('receiving_receipt').values({
      order_id: id, line_id: line.id, warehouse_id: w, customer_id: customer, sku_id: sku, location_id: dock, lot: '', expiry_date: null, pallet: '', quantity: receipt[0], damaged_qty: 0,
      damaged_location_id: null, document_id: `RCV-${Math.random()}`, user_id: null, username: null, at: receipt[1],
    }).execute();
    for (const [quantity, at] of putaways) {
      await db.insertInto('receiving_putaway').values({
        order_id: id, line_id: line.id, from_location_id: dock, to_location_id: shelf, lot: '', pallet: '', quantity, document_id: `PUT-${Math.random()}`, user_id: null, username: null, at,
      }).execute();
    }
  };

  beforeAll(async () => {
    w = await makeWarehouse(t.database);
    a = await makeCustomer(t.database, [w]);
    b = await makeCustomer(t.database, [w]);
    dock = await makeLocation(t.database, w, `DOCK-${w}`, 'dock');
    shelf = await makeLocation(t.database, w, `R-1-${w}`);
    // Client A: one on time (due today), one late (due two days before it shipped), one without a date (not rated),
    // one shipped before the 7 days; client B: one shipped before its date.
    await shipped(a, day(0), ago(0));
    await shipped(a, day(-3), ago(24));
    await shipped(a, null, ago(1));
    await shipped(a, day(-12), ago(24 * 10));
    await shipped(b, day(1), ago(2));
    // Client A: 6 h and 28 h to stock, one partly put away (not counted), one stocked before the 7 days; client B: 1 h.
    await received(a, [10, ago(10)], [[4, ago(6)], [6, ago(4)]]);
    await received(a, [5, ago(30)], [[5, ago(2)]]);
    await received(a, [8, ago(3)], [[2, ago(1)]]);
    await received(a, [3, ago(24 * 12)], [[3, ago(24 * 10)]]);
    await received(b, [2, ago(5)], [[2, ago(4)]]);
  });

  it('rates shipped orders against their requested ship date and takes the median hours from dock to stock, per warehouse and client', async () => {
    expect(await tiles(w, 0)).toMatchObject({ onTimeRate: 66.7, onTimeRated: 3, dockToStockHours: 6 });
    expect(await tiles(w, a)).toMatchObject({ onTimeRate: 50, onTimeRated: 2, dockToStockHours: 17 });
    // The tiles are the reports' totals over the same days.
    const report = async (area: string, key: string) =>
      (await admin.post(`/Warehouse/${area}/GetReport`, { report: key, filters: { warehouseId: w, customerId: a, preset: 'last7' } })).json().totals;
    expect(await report('OrderReport', 'on-time-shipping')).toMatchObject({ onTimeRate: 50, withDate: 2 });
    expect(await report('OtherReport', 'dock-to-stock')).toMatchObject({ medianHours: 17 });
  });

  it('reads none when nothing shipped or was put away in the days', async () => {
    const empty = await makeWarehouse(t.database);
    expect(await tiles(empty, 0)).toMatchObject({ onTimeRate: null, onTimeRated: 0, dockToStockHours: null });
  });

  it('holds a client account to its own orders and receipts', async () => {
    const client = await makeUser(t.database, { role: 'Client', customerId: b, modules: { Dashboard: 'read' } });
    const session = as(t.app, await login(t.app, client.username, client.password));
    expect(await tiles(w, 0, session) as unknown as Tiles).toMatchObject({ onTimeRate: 100, onTimeRated: 1, dockToStockHours: 1 });
  });
});
