import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { as, buildTestApp, login, type TestApp } from './helpers.js';
import { DEMO_USERS } from '../src/db/seed/demo.js';
import { DEMO_TOTES } from '../src/db/seed/demo-floor.js';
import { businessDay } from '../src/platform/business-day.js';
import { DEMO_ORDER_STATUSES } from '../src/db/seed/demo-orders.js';
import { prepareDatabase } from '../src/db/prepare.js';

let t: TestApp;
beforeAll(async () => { t = await buildTestApp({ demo: true }); });
afterAll(async () => { await t?.close(); });

const count = async (table: 'warehouse' | 'customer' | 'sku' | 'location' | 'app_user' | 'inventory_balance') =>
  Number((await t.database.db.selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);

describe('demo data', () => {
  it('has 3 warehouses with capacities, 6 customers, about 200 SKUs and 1,000 locations (and the floor’s totes and pack stations)', async () => {
    expect(await count('warehouse')).toBe(3);
    expect(await count('customer')).toBe(6);
    expect(await count('sku')).toBeGreaterThanOrEqual(190);
    expect(await count('location')).toBe(1000 + 3 * (DEMO_TOTES + 1));
    const caps = await t.database.db.selectFrom('warehouse').select('capacity').execute();
    expect(caps.every((w) => w.capacity > 0)).toBe(true);
  });

  it('every demo sign-in works with its README password and role', async () => {
    const expected = { admin: 'Super Administrator', manager: 'Warehouse Manager', staff: 'Warehouse Staff', client: 'Client' };
    for (const [who, creds] of Object.entries(DEMO_USERS)) {
      const s = (await login(t.app, creds.username, creds.password)) as unknown as { usertype: string };
      expect(s.usertype).toBe(expected[who as keyof typeof expected]);
    }
  });

  it('stock balances are exactly what the ledger sums to, with none negative', async () => {
    const diff = await sql<{ n: number }>`
      select count(*) as n from (
        select b.id from inventory_balance b
        left join (select warehouse_id, customer_id, sku_id, location_id, lot, pallet, sum(qty_change) as q
                   from inventory_txn group by warehouse_id, customer_id, sku_id, location_id, lot, pallet) l
          on l.warehouse_id = b.warehouse_id and l.customer_id = b.customer_id and l.sku_id = b.sku_id
         and l.location_id = b.location_id and l.lot = b.lot and l.pallet = b.pallet
        where coalesce(l.q, 0) <> b.on_hand or b.on_hand < 0
      ) x`.execute(t.database.db);
    expect(Number(diff.rows[0].n)).toBe(0);
    // …and no ledger sum lacks its balance row; the Reconcile endpoint agrees, over every balance.
    const orphans = await sql<{ n: number }>`
      select count(*) as n from (
        select warehouse_id, customer_id, sku_id, location_id, lot, pallet from inventory_txn
        group by warehouse_id, customer_id, sku_id, location_id, lot, pallet having sum(qty_change) <> 0
        except select warehouse_id, customer_id, sku_id, location_id, lot, pallet from inventory_balance
      ) x`.execute(t.database.db);
    expect(Number(orphans.rows[0].n)).toBe(0);
    const admin = as(t.app, await login(t.app, DEMO_USERS.admin.username, DEMO_USERS.admin.password));
    const reconciled = (await admin.get('/Warehouse/Inventory/Reconcile')).json();
    expect(reconciled).toMatchObject({ balanced: true, differences: [] });
    expect(reconciled.checkedBalances).toBe(await count('inventory_balance'));
    const units = await sql<{ n: number }>`select sum(on_hand) as n from inventory_balance`.execute(t.database.db);
    expect(Number(units.rows[0].n)).toBeGreaterThan(10_000);
  });

  it('has receiving orders in each warehouse: one closed (its receipts are stock on hand), one at the dock, one due', async () => {
    const rows = await t.database.db.selectFrom('receiving_order').select(['warehouse_id', 'status']).execute();
    expect(rows).toHaveLength(9);
    for (const status of ['Closed', 'Receiving', 'Open']) expect(rows.filter((r) => r.status === status)).toHaveLength(3);
    const docks = await sql<{ n: number }>`select sum(b.on_hand) as n from inventory_balance b join location l on l.id = b.location_id where l.type = 'dock'`.execute(t.database.db);
    expect(Number(docks.rows[0].n)).toBe(3 * 48);
  });

  it('the demo’s receipts are put away hours after they reach the dock: the dashboard’s and the report’s dock-to-stock time are realistic, not 0 h', async () => {
    const admin = as(t.app, await login(t.app, DEMO_USERS.admin.username, DEMO_USERS.admin.password));
    const tiles = (await admin.get('/Warehouse/Dashboard/GetDashboard')).json();
    expect(tiles.dockToStockHours).toBeGreaterThan(1);
    expect(tiles.dockToStockHours).toBeLessThan(24);
    const report = (await admin.post('/Warehouse/OtherReport/GetReport', { report: 'dock-to-stock', filters: { preset: 'last7' } })).json();
    expect(report.rows).toHaveLength(3);
    for (const r of report.rows) expect(r.hours).toBeGreaterThan(1);
    expect(report.totals.medianHours).toBe(tiles.dockToStockHours);
  });

  it('bills the demo client’s receipts: a run of this month charges its receiving orders, lines and units (the ledger names each RO line)', async () => {
    const db = t.database.db;
    const ca = await db.selectFrom('warehouse').select(['id', 'timezone']).where('code', '=', 'CA1').executeTakeFirstOrThrow();
    const fjord = await db.selectFrom('customer').select('id').where('code', '=', 'FJE').executeTakeFirstOrThrow();
    const receipts = await db.selectFrom('receiving_receipt').select(['order_id', 'line_id', 'quantity']).where('warehouse_id', '=', ca.id).where('customer_id', '=', fjord.id).execute();
    expect(new Set(receipts.map((r) => r.order_id)).size).toBe(2); // the closed order and the one at the dock
    // …each receipt is in the activity log, as the receiving service records it.
    const logged = await db.selectFrom('floor_event').select(['doc_id']).where('kind', '=', 'receive').where('customer_id', '=', fjord.id).execute();
    expect(logged.map((e) => Number(e.doc_id)).sort()).toEqual(receipts.map((r) => Number(r.order_id)).sort());

    const admin = as(t.app, await login(t.app, DEMO_USERS.admin.username, DEMO_USERS.admin.password));
    const today = businessDay(ca.timezone, new Date());
    const rates = [{ chargeType: 'receiving_order', rateMinor: 500 }, { chargeType: 'receiving_line', rateMinor: 100 }, { chargeType: 'receiving_unit', rateMinor: 10 }];
    expect((await admin.post('/Warehouse/Billing/SaveRateCard', { customerId: fjord.id, warehouseId: ca.id, effectiveFrom: `${today.slice(0, 8)}01`, rates })).statusCode).toBe(200);
    const run = await admin.post('/Warehouse/Billing/CreateBillingRun', { customerId: fjord.id, warehouseId: ca.id, periodKind: 'custom', periodFrom: `${today.slice(0, 8)}01`, periodTo: today });
    expect(run.statusCode, run.body).toBe(202);
    const { invoice, job } = run.json().data;
    await t.app.services.billing.work({ invoiceId: invoice.invoiceId }, {
      jobId: job.jobId, attempt: 1, maxAttempts: 1, ownerUserId: null, warehouseId: null, customerId: null, progress: async () => {}, signal: new AbortController().signal,
    });
    const lines = (await admin.post('/Warehouse/Billing/GetInvoice', { invoiceId: invoice.invoiceId })).json().lines as { chargeType: string; quantity: number }[];
    const units = receipts.reduce((n, r) => n + Number(r.quantity), 0);
    expect(Object.fromEntries(lines.map((l) => [l.chargeType, l.quantity]))).toEqual({ receiving_order: 2, receiving_line: receipts.length, receiving_unit: units });
  });

  it('has a replenishment flow in each warehouse: bulk pallets in reserve racking, pick faces below their min', async () => {
    const admin = as(t.app, await login(t.app, DEMO_USERS.admin.username, DEMO_USERS.admin.password));
    const bulk = await sql<{ n: number; units: number }>`select count(*) as n, sum(b.on_hand) as units from inventory_balance b
      join location l on l.id = b.location_id where l.is_pickable = 0 and l.type = 'rack' and b.on_hand > 0`.execute(t.database.db);
    expect(Number(bulk.rows[0].n)).toBe(3 * 6);
    const rules = (await admin.post('/Warehouse/Replenishment/GetReplenishmentRules', { pageSize: 100, filters: { belowMin: true } })).json();
    expect(rules.totalCount).toBe(3 * 4);
    const onHand = async (locationId: number) => Number((await sql<{ n: number }>`select coalesce(sum(on_hand), 0) as n from inventory_balance
      where location_id = ${locationId}`.execute(t.database.db)).rows[0].n);

    const nj = await t.database.db.selectFrom('warehouse').select('id').where('code', '=', 'NJ1').executeTakeFirstOrThrow();
    const generated = await admin.post('/Warehouse/Replenishment/GenerateTasks', { warehouseId: nj.id });
    expect(generated.statusCode, generated.body).toBe(200);
    const { created, shortages } = generated.json().data;
    expect(shortages).toEqual([]);
    expect(created).toHaveLength(4);
    const task = created[0];
    expect(task.fromLocationCode).toMatch(/^R-01-01-\d$/);
    expect(task.toLocationCode).toMatch(/^P-01-01-\d$/);
    const [pickBefore, bulkBefore] = [await onHand(task.toLocationId), await onHand(task.fromLocationId)];
    expect(pickBefore + task.quantity).toBe(120); // refilled to max
    const done = await admin.post('/Warehouse/Replenishment/CompleteTask', { taskId: task.taskId });
    expect(done.statusCode, done.body).toBe(200);
    expect(await onHand(task.toLocationId)).toBe(pickBefore + task.quantity);
    expect(await onHand(task.fromLocationId)).toBe(bulkBefore - task.quantity);
    expect((await admin.get(`/Warehouse/Inventory/Reconcile?warehouseId=${nj.id}`)).json().balanced).toBe(true);
  });

  it('each warehouse has 20 totes (not pickable), a pack station and three carton types, so the floor screens work', async () => {
    const warehouses = await t.database.db.selectFrom('warehouse').select('id').execute();
    for (const { id } of warehouses) {
      const totes = await t.database.db.selectFrom('location').select(['code', 'is_pickable']).where('warehouse_id', '=', id).where('type', '=', 'tote').orderBy('code').execute();
      expect(totes.map((l) => l.code)).toEqual(Array.from({ length: 20 }, (_, i) => `TOTE-${String(i + 1).padStart(3, '0')}`));
      expect(totes.every((l) => Number(l.is_pickable) === 0)).toBe(true);
      const pack = await t.database.db.selectFrom('location').select(['type']).where('warehouse_id', '=', id).where('code', '=', 'PACK-01').execute();
      expect(pack).toEqual([{ type: 'staging' }]);
      const cartons = await t.database.db.selectFrom('carton_type').select(['code', 'length_cm', 'width_cm', 'height_cm', 'tare_weight_kg']).where('warehouse_id', '=', id).orderBy('id').execute();
      expect(cartons.map((c) => c.code)).toEqual(['SMALL', 'MEDIUM', 'LARGE']);
      expect(cartons.map((c) => [c.length_cm, c.width_cm, c.height_cm, c.tare_weight_kg].map(Number))).toEqual([[30, 20, 15, 0.2], [40, 30, 25, 0.35], [60, 40, 40, 0.6]]);
    }
    // Totes are no storage: what is in them is the picked orders' picks, waiting for the pack station.
    const stored = await sql<{ n: number }>`select coalesce(sum(b.on_hand), 0) as n from inventory_balance b join location l on l.id = b.location_id where l.type = 'tote'`.execute(t.database.db);
    const picked = await sql<{ n: number }>`select coalesce(sum(l.picked_qty), 0) as n from sales_order_line l join sales_order o on o.id = l.order_id where o.status = 'Picked'`.execute(t.database.db);
    expect(Number(stored.rows[0].n)).toBe(Number(picked.rows[0].n));
  });

  it('the demo client account creates its own customer’s orders; the warehouse’s moves stay refused', async () => {
    const client = as(t.app, await login(t.app, DEMO_USERS.client.username, DEMO_USERS.client.password));
    const fje = await t.database.db.selectFrom('customer').select('id').where('code', '=', 'FJE').executeTakeFirstOrThrow();
    const ca = await t.database.db.selectFrom('warehouse').select('id').where('code', '=', 'CA1').executeTakeFirstOrThrow();
    const sku = await t.database.db.selectFrom('sku').select('id').where('sku_code', '=', 'FJE-1001').executeTakeFirstOrThrow();
    const res = await client.post('/Warehouse/Order/CreateOrder', {
      warehouseId: ca.id, customerId: fje.id, orderType: 'Sales', referenceNumber: 'DEMO-CLIENT-1', orderDate: '2030-06-01', lines: [{ skuId: sku.id, quantity: 1 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { orderId } = res.json().data;
    expect((await client.post('/Warehouse/Order/AllocateOrders', { orderIds: [orderId] })).statusCode).toBe(403);
    const acme = await t.database.db.selectFrom('customer').select('id').where('code', '=', 'ACME').executeTakeFirstOrThrow();
    const acmeSku = await t.database.db.selectFrom('sku').select('id').where('sku_code', '=', 'ACME-1001').executeTakeFirstOrThrow();
    const nj = await t.database.db.selectFrom('warehouse').select('id').where('code', '=', 'NJ1').executeTakeFirstOrThrow();
    expect((await client.post('/Warehouse/Order/CreateOrder', {
      warehouseId: nj.id, customerId: acme.id, orderType: 'Sales', referenceNumber: 'DEMO-CLIENT-2', orderDate: '2030-06-01', lines: [{ skuId: acmeSku.id, quantity: 1 }],
    })).statusCode).toBe(403);
  });

  it('has sales orders of every client in each of its warehouses, in every status, taken through the floor over the last weeks', async () => {
    const db = t.database.db;
    const pairs = await db.selectFrom('customer_warehouse').select(['warehouse_id', 'customer_id']).execute();
    const orders = await db.selectFrom('sales_order').select(['id', 'warehouse_id', 'customer_id', 'status', 'created_at', 'order_date', 'ship_date', 'shipped_at']).execute();
    for (const pair of pairs) {
      const statuses = new Set(orders.filter((o) => o.warehouse_id === pair.warehouse_id && o.customer_id === pair.customer_id).map((o) => o.status));
      expect([...statuses].sort(), `warehouse ${pair.warehouse_id}, client ${pair.customer_id}`).toEqual([...DEMO_ORDER_STATUSES].sort());
    }
    // Over about four weeks, not all today.
    const days = new Set(orders.map((o) => String(o.created_at).slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(10);
    const oldest = Math.min(...orders.map((o) => Date.parse(String(o.created_at))));
    expect((Date.now() - oldest) / 864e5).toBeGreaterThan(20);
    expect((Date.now() - oldest) / 864e5).toBeLessThan(32);

    // Every shipped order went through each step: its history, its floor events, its ledger (each unit out once).
    const shipped = orders.filter((o) => o.status === 'Shipped');
    const history = await db.selectFrom('document_status_history').select(['document_id', 'to_status', 'at']).where('kind', '=', 'SALES_ORDER').execute();
    const events = await db.selectFrom('floor_event').select(['order_id', 'kind', 'business_day', 'quantity']).where('order_id', 'is not', null).execute();
    const units = await sql<{ n: number }>`select coalesce(sum(l.shipped_qty), 0) as n from sales_order_line l join sales_order o on o.id = l.order_id where o.status = 'Shipped'`.execute(db);
    const shippedOut = await sql<{ n: number }>`select coalesce(sum(qty_change), 0) as n from inventory_txn where txn_type = 'ship'`.execute(db);
    expect(-Number(shippedOut.rows[0].n)).toBe(Number(units.rows[0].n));
    for (const o of shipped) {
      expect(history.filter((h) => h.document_id === o.id).map((h) => h.to_status)).toEqual(expect.arrayContaining(['Allocated', 'Released', 'Picked', 'Packed', 'Shipped']));
      expect(new Set(events.filter((e) => e.order_id === o.id).map((e) => e.kind))).toEqual(new Set(['pick', 'pack', 'close-carton', 'ship']));
      // Re-dated as one day: the ship is on its order's day, in its business day and its instant alike.
      const ship = events.find((e) => e.order_id === o.id && e.kind === 'ship')!;
      expect(ship.business_day).toBe(o.ship_date);
      expect(o.ship_date).toBe(o.order_date);
      const moved = history.filter((h) => h.document_id === o.id).map((h) => Date.parse(String(h.at)));
      expect(Math.max(...moved) - Date.parse(String(o.created_at))).toBeLessThan(3_600_000);
    }
    // A backordered order holds less than it asks.
    const short = await sql<{ n: number }>`select count(*) as n from sales_order_line l join sales_order o on o.id = l.order_id
      where o.status = 'Backordered' and l.allocated_qty < l.quantity`.execute(db);
    expect(Number(short.rows[0].n)).toBe(orders.filter((o) => o.status === 'Backordered').length);
  });

  it('the demo’s figures read the orders: the order dashboard’s counts, and the assistant for the client account', async () => {
    const admin = as(t.app, await login(t.app, DEMO_USERS.admin.username, DEMO_USERS.admin.password));
    const counts = (await admin.post('/Warehouse/Order/GetOrderStatusCounts', {})).json();
    for (const status of DEMO_ORDER_STATUSES) expect(JSON.stringify(counts), status).toMatch(new RegExp(`"${status}"`));
    const client = as(t.app, await login(t.app, DEMO_USERS.client.username, DEMO_USERS.client.password));
    const answer = (await client.post('/API/ask', { question: 'how many orders did we ship this week' })).json();
    expect(answer).toMatchObject({ understood: true, query: { client_name: 'Fjord Electronics', query_type: 'Orders Shipped' } });
    expect(answer.result.total).toBeGreaterThan(0);
  });

  it('a second start on the same database seeds nothing again', async () => {
    const before = await t.database.db.selectFrom('sales_order').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    await prepareDatabase(t.database, { demoData: true, services: t.app.services }, { info: () => {}, warn: () => {} });
    const after = await t.database.db.selectFrom('sales_order').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('the database refuses negative stock', async () => {
    const row = await t.database.db.selectFrom('inventory_balance').select('id').limit(1).executeTakeFirstOrThrow();
    await expect(t.database.db.updateTable('inventory_balance').set({ on_hand: -1 }).where('id', '=', row.id).execute()).rejects.toThrow();
    await expect(t.database.db.updateTable('inventory_balance').set((eb) => ({ allocated: eb('on_hand', '+', 1) })).where('id', '=', row.id).execute()).rejects.toThrow();
  });
});
