import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeSku, makeUser, makeWarehouse, type TestApp } from '../../../test/helpers.js';

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
