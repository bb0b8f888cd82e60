import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_KEY_HEADER, ORDER_STATUSES, STATUS_MACHINES } from '@bolx/contracts';
import {
  ADMIN, as, buildTestApp, login, makeCustomer, makeSku, makeUser, makeWarehouse, recordEvents, type TestApp,
} from '../../../test/helpers.js';
import { statementCounter } from '../../../test/statements.js';
import { orderRepository } from './orders.repository.js';

let t: TestApp;
let admin: ReturnType<typeof as>;
let staff: ReturnType<typeof as>;
let client: ReturnType<typeof as>;
let wh: number, otherWh: number, farWh: number, cust: number, otherCust: number;
let sku: number, lotSku: number, inactiveSku: number, cased: number, caseId: number, otherSku: number, emptyKit: number;
let seq = 0;

const C = '/Warehouse/Order';
const order = (over: Record<string, unknown> = {}) => ({
  warehouseId: wh, customerId: cust, orderType: 'Sales', referenceNumber: `PO-${++seq}-${Math.random().toString(36).slice(2, 8)}`, orderDate: '2030-03-01',
  requestedShipDate: '2030-03-03', priority: 3, shipToName: 'Ada Lovelace', shipToAddress1: '1 Analytical Way', shipToCity: 'London',
  shipToPhone: '+44 20 0000', shipToEmail: 'ada@example.com', carrierService: 'Ground', notes: 'Leave at the door',
  lines: [{ skuId: sku, quantity: 5 }], ...over,
});
const countOrders = async () => Number((await t.database.db.selectFrom('sales_order').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const countLines = async () => Number((await t.database.db.selectFrom('sales_order_line').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const setStatus = (id: number, status: string) => t.database.db.updateTable('sales_order').set({ status }).where('id', '=', id).execute();
const statusOf = async (id: number) => (await t.database.db.selectFrom('sales_order').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const create = async (over: Record<string, unknown> = {}) => {
  const res = await staff.post(`${C}/CreateOrder`, order(over));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { orderId: number; soNumber: string; status: string; referenceNumber: string };
};

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  otherWh = await makeWarehouse(t.database);
  farWh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh, otherWh]);
  otherCust = await makeCustomer(t.database, [wh]);
  sku = await makeSku(t.database, cust, `ORD-${Date.now()}-A`);
  lotSku = await makeSku(t.database, cust, `ORD-${Date.now()}-LOT`);
  inactiveSku = await makeSku(t.database, cust, `ORD-${Date.now()}-OFF`);
  cased = await makeSku(t.database, cust, `ORD-${Date.now()}-CASE`);
  emptyKit = await makeSku(t.database, cust, `ORD-${Date.now()}-KIT`);
  otherSku = await makeSku(t.database, otherCust, `ORD-${Date.now()}-OTHER`);
  const db = t.database.db;
  await db.updateTable('sku').set({ is_lot_tracked: 1 }).where('id', '=', lotSku).execute();
  await db.updateTable('sku').set({ is_active: 0 }).where('id', '=', inactiveSku).execute();
  await db.updateTable('sku').set({ is_kit: 1 }).where('id', '=', emptyKit).execute();
  const now = new Date().toISOString();
  caseId = (await db.insertInto('sku_package').values({
    customer_id: cust, sku_id: cased, parent_id: null, package_type: 'case', package_name: 'Case of 12', quantity: 12, length_cm: null, width_cm: null,
    height_cm: null, weight_kg: null, gtin: null, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow()).id;
  const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust, otherCust], modules: { OrderDashboard: 'write' } });
  staff = as(t.app, await login(t.app, u.username, u.password));
  const c = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { OrderDashboard: 'write' } });
  client = as(t.app, await login(t.app, c.username, c.password));
});
afterAll(async () => { await t?.close(); });

describe('intake', () => {
  it('creates an order with an SO number, answers it with its lines, lists it, counts it, and tells the hub', async () => {
    const events = await recordEvents(t.app);
    const input = order({ lines: [{ skuId: sku, quantity: 5, notes: 'Fragile' }, { skuId: cased, quantity: 24, packageId: caseId }, { skuId: lotSku, quantity: 2, lot: 'L-7' }] });
    const counter = statementCounter(t.database.sqlite);
    let res;
    try {
      res = await staff.post(`${C}/CreateOrder`, input);
    } finally {
      counter.restore();
    }
    expect(res.statusCode, res.body).toBe(200);
    // A new Sales order is answered from what was written (its row returned by the insert), never read back.
    expect(counter.take().filter((q) => /from "sales_order" as "o"/.test(q))).toEqual([]);
    const data = res.json().data;
    expect(data).toMatchObject({
      soNumber: expect.stringMatching(/^SO-\d{6}$/), status: 'New', duplicate: false, orderType: 'Sales', referenceNumber: input.referenceNumber,
      warehouseId: wh, customerId: cust, priority: 3, shipToName: 'Ada Lovelace', shipToEmail: 'ada@example.com', source: 'screen',
      lineCount: 3, orderedQuantity: 31, allocatedQuantity: 0, shippedQuantity: 0, history: [],
    });
    expect(data.lines).toMatchObject([
      { lineNo: 1, skuId: sku, quantity: 5, unitsPerPackage: 1, packageId: null, lot: '', allocatedQuantity: 0 },
      { lineNo: 2, skuId: cased, quantity: 24, unitsPerPackage: 12, packageId: caseId, packageName: 'Case of 12' },
      { lineNo: 3, skuId: lotSku, quantity: 2, lot: 'L-7' },
    ]);

    const got = await staff.get(`${C}/GetOrder?orderId=${data.orderId}`);
    expect(got.statusCode).toBe(200);
    // The answer is the order as GetOrder shows it (its lines are answered as written, not read back).
    const { duplicate, ...created } = data;
    expect(duplicate).toBe(false);
    expect(got.json()).toEqual(created);

    const list = (await staff.post(`${C}/GetOrders`, { searchQuery: input.referenceNumber })).json();
    expect(list.totalCount).toBe(1);
    expect(list.items[0]).toMatchObject({ orderId: data.orderId, orderedQuantity: 31, lineCount: 3 });
    expect((await staff.post(`${C}/GetOrders`, { searchQuery: 'Ada Lovelace', filters: { status: 'New', orderType: 'Sales', customerId: cust } })).json().totalCount).toBeGreaterThan(0);
    expect((await staff.post(`${C}/GetOrders`, { filters: { orderType: 'Transfer' } })).json().items.map((o: { orderId: number }) => o.orderId)).not.toContain(data.orderId);
    expect((await staff.post(`${C}/GetOrders`, { filters: { fromDate: '2030-03-02' }, searchQuery: input.referenceNumber })).json().totalCount).toBe(0);
    expect((await staff.post(`${C}/GetOrders`, { filters: { fromDate: '2030-03-01', toDate: '2030-03-01', priority: 3 }, searchQuery: input.referenceNumber })).json().totalCount).toBe(1);

    const counts = (await staff.post(`${C}/GetOrderStatusCounts`, { filters: { customerId: cust } })).json();
    expect(counts.counts.map((c: { status: string }) => c.status)).toEqual([...ORDER_STATUSES]);
    expect(counts.counts.find((c: { status: string }) => c.status === 'New').count).toBeGreaterThanOrEqual(1);
    expect(counts.total).toBe(counts.counts.reduce((s: number, c: { count: number }) => s + c.count, 0));

    const seen = await events.until(1);
    expect(seen.find((e) => e.target === 'ReceiveOrderData')?.payload).toMatchObject({ subEvent: 'AddOrder', payload: { orderId: data.orderId, status: 'New' } });
    const audit = await t.database.db.selectFrom('audit_log').select(['action', 'entity']).where('entity', '=', 'sales_order').where('entity_id', '=', String(data.orderId)).execute();
    expect(audit).toEqual([{ action: 'create', entity: 'sales_order' }]);
  });

  it('raises order.created for subscribers, in the transaction', async () => {
    const heard: unknown[] = [];
    const stop = t.app.services.domainEvents.inTransaction('order.created', 'orders-test', (p) => { heard.push(p); });
    const o = await create();
    stop();
    expect(heard).toContainEqual(expect.objectContaining({ orderId: o.orderId, soNumber: o.soNumber, warehouseId: wh, customerId: cust, source: 'screen', lines: [expect.objectContaining({ skuId: sku, quantity: 5, lot: '' })] }));
  });

  it('answers a repeated reference with the order it names, writing nothing', async () => {
    const first = await create();
    const [orders, lines] = [await countOrders(), await countLines()];
    const again = await staff.post(`${C}/CreateOrder`, order({ referenceNumber: first.referenceNumber, lines: [{ skuId: sku, quantity: 99 }] }));
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ orderId: first.orderId, soNumber: first.soNumber, duplicate: true, orderedQuantity: 5 });
    expect([await countOrders(), await countLines()]).toEqual([orders, lines]);
    // Another client may use the same reference.
    const other = await staff.post(`${C}/CreateOrder`, order({ customerId: otherCust, referenceNumber: first.referenceNumber, lines: [{ skuId: otherSku, quantity: 1 }] }));
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json().data).toMatchObject({ duplicate: false, customerId: otherCust });
  });

  it('answers the existing order when the reference is taken between its check and its insert (the unique index decides), giving the SO number back', async () => {
    const first = await create();
    const orders = await countOrders();
    // A concurrent creator that committed after this request's check: the check finds nothing once.
    const facts = orderRepository.intakeFacts;
    const spy = vi.spyOn(orderRepository, 'intakeFacts').mockImplementationOnce(async (...args) => ({ ...(await facts(...args)), repeatId: undefined }));
    try {
      const again = await staff.post(`${C}/CreateOrder`, order({ referenceNumber: first.referenceNumber }));
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().data).toMatchObject({ orderId: first.orderId, duplicate: true });
    } finally {
      spy.mockRestore();
    }
    expect(await countOrders()).toBe(orders);
    const next = await create();
    expect(Number(next.soNumber.slice(3))).toBe(Number(first.soNumber.slice(3)) + 1);
  });

  it('makes one order of 8 identical creates at once; every answer names it', async () => {
    const body = order();
    const before = await countOrders();
    const answers = await Promise.all(Array.from({ length: 8 }, () => staff.post(`${C}/CreateOrder`, body)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const ids = new Set(answers.map((a) => a.json().data.orderId));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.json().data.duplicate === false)).toHaveLength(1);
    expect(await countOrders()).toBe(before + 1);
  });
});

describe('bad input: a 4xx naming the field, nothing written', () => {
  const cases: [string, () => Record<string, unknown>, number, string][] = [
    ['an unknown SKU', () => ({ lines: [{ skuId: 2_000_000_000, quantity: 1 }] }), 422, 'lines.0.skuId'],
    ['another client’s SKU', () => ({ lines: [{ skuId: sku, quantity: 1 }, { skuId: otherSku, quantity: 1 }] }), 422, 'lines.1.skuId'],
    ['an inactive SKU', () => ({ lines: [{ skuId: inactiveSku, quantity: 1 }] }), 422, 'lines.0.skuId'],
    ['a kit without components', () => ({ lines: [{ skuId: emptyKit, quantity: 1 }] }), 422, 'lines.0.skuId'],
    ['a quantity of 0', () => ({ lines: [{ skuId: sku, quantity: 0 }] }), 400, 'lines.0.quantity'],
    ['a negative quantity', () => ({ lines: [{ skuId: sku, quantity: -3 }] }), 400, 'lines.0.quantity'],
    ['a fractional quantity', () => ({ lines: [{ skuId: sku, quantity: 1.5 }] }), 400, 'lines.0.quantity'],
    ['not a whole number of packages', () => ({ lines: [{ skuId: cased, quantity: 13, packageId: caseId }] }), 422, 'lines.0.quantity'],
    ['another SKU’s package level', () => ({ lines: [{ skuId: sku, quantity: 12, packageId: caseId }] }), 422, 'lines.0.packageId'],
    ['a lot on a SKU that does not track lots', () => ({ lines: [{ skuId: sku, quantity: 1, lot: 'L1' }] }), 422, 'lines.0.lot'],
    ['no lines', () => ({ lines: [] }), 400, 'lines'],
    ['an unknown order type', () => ({ orderType: 'Gift' }), 400, 'orderType'],
    ['no reference', () => ({ referenceNumber: '  ' }), 400, 'referenceNumber'],
    ['a bad order date', () => ({ orderDate: '2030-02-30' }), 400, 'orderDate'],
    ['a priority out of range', () => ({ priority: 10 }), 400, 'priority'],
    ['a bad e-mail', () => ({ shipToEmail: 'nope' }), 400, 'shipToEmail'],
    ['a carrier account that is not the client’s', () => ({ carrierAccountId: 2_000_000_000 }), 422, 'carrierAccountId'],
  ];
  for (const [what, over, status, field] of cases) {
    it(`refuses ${what}`, async () => {
      const [orders, lines] = [await countOrders(), await countLines()];
      const res = await staff.post(`${C}/CreateOrder`, order(over()));
      expect(res.statusCode, res.body).toBe(status);
      expect(Object.keys(res.json().details ?? {})).toContain(field);
      expect([await countOrders(), await countLines()]).toEqual([orders, lines]);
    });
  }

  it('refuses a warehouse that does not serve the client (422) and one outside the caller’s scope (403)', async () => {
    const orders = await countOrders();
    const far = await admin.post(`${C}/CreateOrder`, order({ warehouseId: farWh }));
    expect(far.statusCode).toBe(422);
    expect(far.json().details).toHaveProperty('warehouseId');
    const outside = await staff.post(`${C}/CreateOrder`, order({ warehouseId: otherWh }));
    expect(outside.statusCode).toBe(403);
    expect(await countOrders()).toBe(orders);
  });
});

describe('status moves', () => {
  const ACTIONS = [
    { route: 'HoldOrder', to: 'On Hold', from: null },
    { route: 'ReleaseHold', to: 'New', from: ['On Hold'] },
    { route: 'CancelOrder', to: 'Cancelled', from: null },
  ] as const;
  const table = STATUS_MACHINES.SALES_ORDER.statuses as Record<string, { next: readonly string[] }>;

  it('allows exactly the table’s moves from every status (409 and nothing changed otherwise)', async () => {
    for (const status of ORDER_STATUSES) {
      for (const a of ACTIONS) {
        const o = await create();
        await setStatus(o.orderId, status);
        const legal = table[status].next.includes(a.to) && (!a.from || (a.from as readonly string[]).includes(status));
        const res = await staff.post(`${C}/${a.route}`, { orderId: o.orderId });
        expect(res.statusCode, `${a.route} from ${status}: ${res.body}`).toBe(legal ? 200 : 409);
        expect(await statusOf(o.orderId)).toBe(legal ? a.to : status);
      }
    }
  });

  it('cancel is refused once picking started, and a 404 for no order', async () => {
    const o = await create();
    await setStatus(o.orderId, 'Picking');
    const res = await staff.post(`${C}/CancelOrder`, { orderId: o.orderId });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('Picking');
    expect((await staff.post(`${C}/CancelOrder`, { orderId: 2_000_000_000 })).statusCode).toBe(404);
  });

  it('hold, release and cancel each write a history row, an audit row and a hub event, shown on the order', async () => {
    const o = await create();
    const events = await recordEvents(t.app);
    expect((await staff.post(`${C}/HoldOrder`, { orderId: o.orderId, reason: 'Address check' })).json().data.status).toBe('On Hold');
    expect((await staff.post(`${C}/ReleaseHold`, { orderId: o.orderId })).json().data.status).toBe('New');
    const cancelled = await staff.post(`${C}/CancelOrder`, { orderId: o.orderId, reason: 'Customer asked' });
    expect(cancelled.json()).toMatchObject({ message: `Order ${o.soNumber} is cancelled`, data: { status: 'Cancelled' } });
    const detail = (await staff.get(`${C}/GetOrder?orderId=${o.orderId}`)).json();
    expect(detail.history).toMatchObject([
      { fromStatus: 'New', toStatus: 'On Hold', reason: 'Address check', username: expect.any(String) },
      { fromStatus: 'On Hold', toStatus: 'New', reason: null },
      { fromStatus: 'New', toStatus: 'Cancelled', reason: 'Customer asked' },
    ]);
    const seen = (await events.until(3)).filter((e) => e.target === 'ReceiveOrderData').map((e) => (e.payload as { subEvent: string }).subEvent);
    expect(seen).toEqual(['HoldOrder', 'ReleaseHold', 'CancelOrder']);
    const audit = await t.database.db.selectFrom('audit_log').select('action').where('entity', '=', 'sales_order').where('entity_id', '=', String(o.orderId)).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'hold', 'release-hold', 'cancel']);
  });
});

describe('client accounts', () => {
  it('see and create only their own customer’s orders', async () => {
    const mine = await client.post(`${C}/CreateOrder`, order());
    expect(mine.statusCode, mine.body).toBe(200);
    const theirs = await create({ customerId: otherCust, lines: [{ skuId: otherSku, quantity: 1 }] });
    const orders = await countOrders();
    const refused = await client.post(`${C}/CreateOrder`, order({ customerId: otherCust, lines: [{ skuId: otherSku, quantity: 1 }] }));
    expect(refused.statusCode).toBe(403);
    expect(await countOrders()).toBe(orders);

    const list = (await client.post(`${C}/GetOrders`, { pageSize: 500 })).json();
    expect(list.items.length).toBeGreaterThan(0);
    expect(list.items.every((o: { customerId: number }) => o.customerId === cust)).toBe(true);
    expect((await client.post(`${C}/GetOrders`, { filters: { customerId: otherCust } })).statusCode).toBe(403);
    expect((await client.get(`${C}/GetOrder?orderId=${theirs.orderId}`)).statusCode).toBe(404);
    expect((await client.post(`${C}/CancelOrder`, { orderId: theirs.orderId })).statusCode).toBe(404);
    const counts = (await client.post(`${C}/GetOrderStatusCounts`, {})).json();
    expect(counts.total).toBe(list.totalCount);
    // A repeat of another customer's reference is not a way to read its order.
    const probe = await client.post(`${C}/CreateOrder`, order({ customerId: otherCust, referenceNumber: theirs.referenceNumber, lines: [{ skuId: otherSku, quantity: 1 }] }));
    expect(probe.statusCode).toBe(403);
  });

  it('may cancel its order before release, not after; holding is the warehouse’s', async () => {
    const a = (await client.post(`${C}/CreateOrder`, order())).json().data;
    expect((await client.post(`${C}/HoldOrder`, { orderId: a.orderId })).statusCode).toBe(403);
    await setStatus(a.orderId, 'Released');
    expect((await client.post(`${C}/CancelOrder`, { orderId: a.orderId })).statusCode).toBe(409);
    await setStatus(a.orderId, 'Allocated');
    expect((await client.post(`${C}/CancelOrder`, { orderId: a.orderId })).statusCode).toBe(200);
  });
});

describe('the client API (X-Api-Key)', () => {
  it('lets a customer’s key create, read, list and cancel its own orders, marked as from the API, and nothing of another customer', async () => {
    const made = await admin.post('/Warehouse/Customer/CreateApiKey', { customerId: cust, name: 'Web shop' });
    expect(made.statusCode, made.body).toBe(200);
    const headers = { [API_KEY_HEADER]: made.json().data.apiKey as string };
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, payload, headers, remoteAddress: '10.9.9.9' });

    const created = await call('POST', `${C}/CreateOrder`, order());
    expect(created.statusCode, created.body).toBe(200);
    const { orderId } = created.json().data;
    expect((await call('GET', `${C}/GetOrder?orderId=${orderId}`)).json()).toMatchObject({ orderId, source: 'api', status: 'New' });
    expect((await call('POST', `${C}/GetOrders`, {})).json().items.map((o: { orderId: number }) => o.orderId)).toContain(orderId);

    // Another customer's order is not there for the key, and it cannot take one in for that customer.
    const theirs = await create({ customerId: otherCust, lines: [{ skuId: otherSku, quantity: 1 }] });
    expect((await call('GET', `${C}/GetOrder?orderId=${theirs.orderId}`)).statusCode).toBe(404);
    const before = await countOrders();
    expect((await call('POST', `${C}/CreateOrder`, order({ customerId: otherCust, lines: [{ skuId: otherSku, quantity: 1 }] }))).statusCode).toBe(403);
    expect(await countOrders()).toBe(before);
    // Holding is the warehouse's decision, not the client's.
    expect((await call('POST', `${C}/HoldOrder`, { orderId })).statusCode).toBe(403);

    const cancelled = await call('POST', `${C}/CancelOrder`, { orderId });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await statusOf(orderId)).toBe('Cancelled');
  });
});
