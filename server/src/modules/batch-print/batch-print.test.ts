import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { systemActor } from '../../platform/actor.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import { floor } from '../../../test/support/floor-fixtures.js';
import { pdfBarcodes, pdfPageCount, pdfText, withTools } from '../../../test/support/pdf-readers.js';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: ReturnType<typeof as>;
let staff: ReturnType<typeof as>;
let client: ReturnType<typeof as>;
let wh: number, otherWh: number, cust: number, otherCust: number, picker: number;
let seq = 0;

const P = '/Warehouse/BatchPrint';
const db = () => t.database.db;
const now = () => new Date().toISOString();

/** An order of the client, made through the order intake (SO number, lines). */
async function order(over: Record<string, unknown> = {}, lines: { skuId: number; quantity: number; lot?: string }[]) {
  const res = await admin.post('/Warehouse/Order/CreateOrder', {
    warehouseId: wh, customerId: cust, orderType: 'Sales', referenceNumber: `BP-${++seq}-${Math.random().toString(36).slice(2, 7)}`, orderDate: '2030-04-01',
    shipToName: 'Dana Receiver', shipToAddress1: '12 Harbour Road', shipToCity: 'Portsmouth', shipToState: 'HA', shipToZip: 'PO1 2AB', shipToCountry: 'GB',
    shipToPhone: '+44 23 9200 0000', lines, ...over,
  });
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data as { orderId: number; soNumber: string; referenceNumber: string; lines: { lineId: number; skuId: number }[] };
  return data;
}

/** A tote (a location of type tote). */
const tote = (warehouseId: number, code: string) => makeLocation(t.database, warehouseId, code, 'tote');

/**
 * A wave with one pick job over the orders (slot = position), its tasks given as stops in walking order. Written
 * straight into the floor tables: what the print reads, whatever made it.
 */
async function job(warehouseId: number, orders: { orderId: number; toteId?: number }[], stops: { locationId: number; tasks: { order: number; lineId: number; skuId: number; quantity: number; lot?: string; customerId?: number }[] }[], over: { assignedTo?: number; strategy?: string } = {}) {
  const strategy = over.strategy ?? 'cluster';
  const { id: waveId } = await db().insertInto('wave').values({ wave_number: `WAVE-T${++seq}`, warehouse_id: warehouseId, strategy, created_at: now(), updated_at: now() })
    .returning('id').executeTakeFirstOrThrow();
  const jobNumber = `JOB-T${++seq}`;
  const { id: jobId } = await db().insertInto('pick_job').values({
    job_number: jobNumber, wave_id: waveId, warehouse_id: warehouseId, strategy, zone: null, assigned_to: over.assignedTo ?? null, created_at: now(), updated_at: now(),
  }).returning('id').executeTakeFirstOrThrow();
  await db().insertInto('pick_job_order').values(orders.map((o, i) => ({ job_id: jobId, order_id: o.orderId, slot: i + 1, tote_location_id: o.toteId ?? null }))).execute();
  for (const o of orders) await db().updateTable('sales_order').set({ wave_id: waveId }).where('id', '=', o.orderId).execute();
  const tasks = stops.flatMap((s, i) => s.tasks.map((task) => ({
    job_id: jobId, seq: i + 1, order_id: orders[task.order].orderId, order_line_id: task.lineId, warehouse_id: warehouseId, customer_id: task.customerId ?? cust,
    sku_id: task.skuId, location_id: s.locationId, lot: task.lot ?? '', pallet: '', quantity: task.quantity,
  })));
  for (let i = 0; i < tasks.length; i += 500) await db().insertInto('pick_task').values(tasks.slice(i, i + 500)).execute();
  return { jobId, jobNumber, waveId };
}

const isPdf = (res: LightMyRequestResponse) => {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  return res.rawPayload;
};

let skuA: number, skuB: number, skuLot: number;
let locA: number, locB: number, locC: number;
let o1: Awaited<ReturnType<typeof order>>, o2: Awaited<ReturnType<typeof order>>;
let cluster: Awaited<ReturnType<typeof job>>;

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database, 'Print Warehouse');
  await db().updateTable('warehouse').set({ address1: '1 Depot Lane', city: 'Leeds', zip: 'LS1 1AA', country: 'GB' }).where('id', '=', wh).execute();
  otherWh = await makeWarehouse(t.database, 'Elsewhere');
  cust = await makeCustomer(t.database, [wh, otherWh], 'Acme Outfitters');
  otherCust = await makeCustomer(t.database, [wh], 'Other Client');
  skuA = await makeSku(t.database, cust, 'WIDGET-RED');
  skuB = await makeSku(t.database, cust, 'GADGET-42');
  skuLot = await makeSku(t.database, cust, 'SERUM-7', { lot: true, expiry: true });
  // Created out of walking order: the pick list follows the tasks' seq, not the ids.
  locC = await makeLocation(t.database, wh, 'C-03-01-01');
  locA = await makeLocation(t.database, wh, 'A-01-02-03');
  locB = await makeLocation(t.database, wh, 'B-02-01-04');
  const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust], modules: { BatchPrint: 'read', OrderDashboard: 'read' } });
  await db().updateTable('app_user').set({ first_name: 'Pat', last_name: 'Picker' }).where('id', '=', u.id).execute();
  picker = u.id;
  staff = as(t.app, await login(t.app, u.username, u.password));
  const c = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { OrderDashboard: 'read', BatchPrint: 'read' } });
  client = as(t.app, await login(t.app, c.username, c.password));

  o1 = await order({}, [{ skuId: skuA, quantity: 3 }, { skuId: skuLot, quantity: 2, lot: 'L-2031' }]);
  o2 = await order({ shipToName: 'Sam Second' }, [{ skuId: skuA, quantity: 1 }, { skuId: skuB, quantity: 4 }]);
  // Stock at the lot stop's place (through the stock engine), whose balance holds the expiry the pick list shows.
  await inTransaction(db(), (uow) => t.app.services.stock.post(uow, {
    documentType: 'ADJUSTMENT', documentId: 'BP-STOCK', reason: 'test stock', record: { after: {} },
    legs: [{ place: { warehouseId: wh, customerId: cust, skuId: skuLot, locationId: locC, lot: 'L-2031', pallet: '' }, qty: 5, txnType: 'adjust', expiryDate: '2031-06-30' }],
  }, systemActor('batch-print-test')));
  const toteA = await tote(wh, 'TOTE-A1');
  cluster = await job(wh, [{ orderId: o1.orderId, toteId: toteA }, { orderId: o2.orderId }], [
    { locationId: locA, tasks: [{ order: 0, lineId: o1.lines[0].lineId, skuId: skuA, quantity: 3 }, { order: 1, lineId: o2.lines[0].lineId, skuId: skuA, quantity: 1 }] },
    { locationId: locB, tasks: [{ order: 1, lineId: o2.lines[1].lineId, skuId: skuB, quantity: 4 }] },
    { locationId: locC, tasks: [{ order: 0, lineId: o1.lines[1].lineId, skuId: skuLot, quantity: 2, lot: 'L-2031' }] },
  ], { assignedTo: picker });
});
afterAll(async () => {
  await t?.close();
});

withTools('PickLists', () => {
  it('prints the job header, its totes and every stop in pick-path order with location, SKU, lot, expiry, quantity and totes', async () => {
    const text = pdfText(isPdf(await staff.post(`${P}/PickLists`, { jobIds: [cluster.jobId] })));
    for (const s of [cluster.jobNumber, 'WAVE-T', 'cluster', 'Pat Picker', 'Print Warehouse', o1.soNumber, o2.soNumber, 'Acme Outfitters', 'TOTE-A1',
      'Test item WIDGET-RED', 'Lot L-2031', 'Exp 2031-06-30', 'Page 1 of 1']) expect(text).toContain(s);
    // Stops in seq order (A, B, C), though the locations were made C, A, B.
    const at = ['A-01-02-03', 'B-02-01-04', 'C-03-01-01'].map((code) => text.indexOf(code));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // The first stop holds both orders' units: 3 to slot 1 (its tote) and 1 to slot 2 (no tote yet), 4 in all.
    expect(text).toMatch(new RegExp(`Slot 1 · ${o1.soNumber} · TOTE-A1: 3`));
    expect(text).toMatch(new RegExp(`Slot 2 · ${o2.soNumber}: 1`));
    expect(text).toMatch(/A-01-02-03\s+WIDGET-RED\s+Any lot\s+4/);
  });

  it('decodes: the job number, each stop’s location and SKU as Code 128 read at 200 dpi', async () => {
    const found = pdfBarcodes(isPdf(await staff.post(`${P}/PickLists`, { jobIds: [cluster.jobId] })));
    for (const code of [cluster.jobNumber, 'A-01-02-03', 'B-02-01-04', 'C-03-01-01', 'WIDGET-RED', 'GADGET-42', 'SERUM-7']) expect(found).toContain(code);
  });

  it('several jobs: one pick list each, numbered on its own, in the order asked', async () => {
    const discrete = await job(wh, [{ orderId: o2.orderId }], [{ locationId: locB, tasks: [{ order: 0, lineId: o2.lines[1].lineId, skuId: skuB, quantity: 4 }] }], { strategy: 'discrete' });
    const pdf = isPdf(await staff.post(`${P}/PickLists`, { jobIds: [discrete.jobId, cluster.jobId, discrete.jobId] }));
    expect(pdfPageCount(pdf)).toBe(2);
    const text = pdfText(pdf);
    expect(text.indexOf(discrete.jobNumber)).toBeLessThan(text.indexOf(cluster.jobNumber));
    expect(text.match(/Page 1 of 1/g)).toHaveLength(2);
    expect(text).toContain('Unassigned');
  });

  it('a 1,000-line pick list renders on many pages, each numbered, the header repeated on each', async () => {
    const big = await order({}, [{ skuId: skuA, quantity: 1000 }]);
    const codes = Array.from({ length: 1000 }, (_, i) => `Z-${String(Math.floor(i / 40)).padStart(2, '0')}-${String(i).padStart(4, '0')}`);
    const locs = await db().insertInto('location').values(codes.map((code) => ({
      warehouse_id: wh, code, type: 'rack', zone: 'Z', aisle: null, rack: null, level: null, bin: null, capacity: 0, is_active: 1, created_at: now(), updated_at: now(),
    }))).returning('id').execute();
    const long = await job(wh, [{ orderId: big.orderId }], locs.map((l) => ({ locationId: l.id, tasks: [{ order: 0, lineId: big.lines[0].lineId, skuId: skuA, quantity: 1 }] })));
    const pdf = isPdf(await staff.post(`${P}/PickLists`, { jobIds: [long.jobId] }));
    const pages = pdfPageCount(pdf);
    expect(pages).toBeGreaterThan(20);
    const text = pdfText(pdf);
    expect(text).toContain(`Page 1 of ${pages}`);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text.match(/SKU \/ Description/g)).toHaveLength(pages);
    expect(text.match(/\(continued\)/g)).toHaveLength(pages - 1);
    for (const code of [codes[0], codes[499], codes[999]]) expect(text).toContain(code);
    expect(text).toContain('1000 (1000 units)');
  });
});

withTools('a wave released by CreateWave', () => {
  it('prints its cluster job’s pick list in the job’s pick path, and its orders’ packing slips by wave, with their barcodes', async () => {
    const f = await floor(t);
    const at = (aisle: string, rack: string) => f.place({ zone: 'PR', aisle, rack, level: '1', bin: '1' });
    const far = await at('02', '01');
    const near = await at('01', '01');
    const [s1, s2] = [await f.sku(), await f.sku()];
    await f.put(s1, near, 10);
    await f.put(s2, far, 10);
    const one = await f.order([{ skuId: s1, quantity: 2 }, { skuId: s2, quantity: 1 }]);
    const two = await f.order([{ skuId: s1, quantity: 3 }]);
    const made = await f.staff.post('/Warehouse/Wave/CreateWave', { warehouseId: f.wh, orderIds: [one.orderId, two.orderId], strategy: 'cluster', totesPerJob: 2 });
    expect(made.statusCode, made.body).toBe(200);
    const waveId = made.json().data.wave.waveId as number;
    const [listed] = (await f.staff.get(`/Warehouse/Wave/GetWave?waveId=${waveId}`)).json().jobs as { jobId: number }[];
    const detail = (await f.staff.get(`/Warehouse/PickJob/GetJob?jobId=${listed.jobId}`)).json() as { jobNumber: string; stops: { locationCode: string; skuCode: string; quantity: number }[] };
    expect(detail.stops.length).toBe(2);

    const pdf = isPdf(await f.admin.post(`${P}/PickLists`, { jobIds: [listed.jobId] }));
    const text = pdfText(pdf);
    const where = detail.stops.map((s) => text.indexOf(s.locationCode));
    expect(where.every((i) => i > 0)).toBe(true);
    expect([...where].sort((a, b) => a - b)).toEqual(where);
    for (const s of [detail.jobNumber, one.soNumber, two.soNumber, ...detail.stops.map((s) => s.skuCode)]) expect(text).toContain(s);
    const found = pdfBarcodes(pdf);
    for (const code of [detail.jobNumber, ...detail.stops.flatMap((s) => [s.locationCode, s.skuCode])]) expect(found).toContain(code);

    const slips = isPdf(await f.admin.post(`${P}/PackingSlips`, { waveId }));
    expect(pdfPageCount(slips)).toBe(2);
    expect(pdfBarcodes(slips, 2).sort()).toEqual([one.soNumber, two.soNumber].sort());
    // Staff of the floor's warehouse without the BatchPrint module may not print it.
    expect((await f.staff.post(`${P}/PickLists`, { jobIds: [listed.jobId] })).statusCode).toBe(403);
  });
});

withTools('PackingSlips', () => {
  let packed: Awaited<ReturnType<typeof order>>;
  let carrierName: string;

  beforeAll(async () => {
    const carrierType = await db().selectFrom('integration_type').select(['id', 'name']).where('kind', '=', 'carrier').orderBy('id').limit(1).executeTakeFirstOrThrow();
    carrierName = carrierType.name;
    const account = await db().insertInto('customer_integration').values({
      customer_id: cust, integration_type_id: carrierType.id, kind: 'carrier', account_name: 'Acme main account', is_active: 1, created_at: now(), updated_at: now(),
    }).returning('id').executeTakeFirstOrThrow();
    packed = await order({ referenceNumber: 'PO-PACKED-1', requestedShipDate: '2030-04-03', carrierAccountId: account.id, carrierService: 'Next Day' }, [{ skuId: skuA, quantity: 5 }, { skuId: skuLot, quantity: 2 }]);
    await db().updateTable('sales_order_line').set({ picked_qty: 5, packed_qty: 5 }).where('id', '=', packed.lines[0].lineId).execute();
    await db().updateTable('sales_order_line').set({ picked_qty: 2, packed_qty: 2 }).where('id', '=', packed.lines[1].lineId).execute();
    const { id: typeId } = await db().insertInto('carton_type').values({ warehouse_id: wh, code: 'BOX-M', name: 'Medium box', length_cm: 40, width_cm: 30, height_cm: 20, tare_weight_kg: 0.4, created_at: now(), updated_at: now() })
      .returning('id').executeTakeFirstOrThrow();
    const carton = (n: string, status: string) => db().insertInto('carton').values({
      carton_number: n, order_id: packed.orderId, warehouse_id: wh, customer_id: cust, carton_type_id: typeId, status, length_cm: 40, width_cm: 30, height_cm: 20,
      weight_kg: status === 'Closed' ? 3.5 : null, tracking_number: status === 'Closed' ? '1Z999AA10123456784' : null, created_at: now(),
    }).returning('id').executeTakeFirstOrThrow();
    const closed = await carton('CTN-T-CLOSED', 'Closed');
    const open = await carton('CTN-T-OPEN', 'Open');
    await db().insertInto('carton_line').values([
      { carton_id: closed.id, order_line_id: packed.lines[0].lineId, sku_id: skuA, lot: '', quantity: 5 },
      { carton_id: closed.id, order_line_id: packed.lines[1].lineId, sku_id: skuLot, lot: 'L-2099', quantity: 2 },
      { carton_id: open.id, order_line_id: packed.lines[0].lineId, sku_id: skuA, lot: '', quantity: 1 },
    ]).execute();
    // The lot line's units were picked from lot L-2099 (the line itself asked for any lot).
    await job(wh, [{ orderId: packed.orderId }], [{ locationId: locC, tasks: [{ order: 0, lineId: packed.lines[1].lineId, skuId: skuLot, quantity: 2, lot: 'L-2099' }] }]);
    await db().updateTable('pick_task').set({ picked_qty: 2, status: 'Picked' }).where('order_line_id', '=', packed.lines[1].lineId).execute();
  });

  it('prints the slip: order and reference, ship-from and ship-to, carrier, client, lines with ordered/picked/packed/shipped, closed cartons', async () => {
    const text = pdfText(isPdf(await staff.get(`${P}/PackingSlip?orderId=${packed.orderId}`)));
    for (const s of [packed.soNumber, 'PO-PACKED-1', 'Acme Outfitters', 'Packing Slip', 'SHIP FROM', 'Print Warehouse', '1 Depot Lane', 'Leeds, LS1 1AA',
      'SHIP TO', 'Dana Receiver', '12 Harbour Road', 'Portsmouth, HA PO1 2AB', 'Phone: +44 23 9200 0000', '2030-04-01', 'REQUESTED SHIP DATE', '2030-04-03',
      `${carrierName} (Acme main account)`, 'Next Day',
      'Test item WIDGET-RED', 'Cartons (1)', 'CTN-T-CLOSED', 'BOX-M', '40 × 30 × 20 cm', '3.5 kg', '1Z999AA10123456784', 'Page 1 of 1']) expect(text).toContain(s);
    expect(text).not.toContain('CTN-T-OPEN');
    expect(text).toMatch(/1\s+WIDGET-RED\s+Test item WIDGET-RED\s+5\s+5\s+5\s+0/);
    expect(text).toMatch(/2\s+SERUM-7\s+Test item SERUM-7\s+L-2099\s+2\s+2\s+2\s+0/);
    expect(text).toMatch(/SERUM-7\s+Lot L-2099\s+2/);
  });

  it('decodes: the order number as Code 128 read at 200 dpi', async () => {
    expect(pdfBarcodes(isPdf(await staff.get(`${P}/PackingSlip?orderId=${packed.orderId}`)))).toContain(packed.soNumber);
  });

  it('a batch: the orders named, a job’s orders and a wave’s orders, each once and on its own pages', async () => {
    const pdf = isPdf(await staff.post(`${P}/PackingSlips`, { orderIds: [packed.orderId, o2.orderId], jobIds: [cluster.jobId], waveId: cluster.waveId }));
    const text = pdfText(pdf);
    expect(pdfPageCount(pdf)).toBe(3);
    expect(text.match(/Page 1 of 1/g)).toHaveLength(3);
    const at = [packed.soNumber, o2.soNumber, o1.soNumber].map((so) => text.indexOf(`Packing slip ${so}`));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(text).toContain('Sam Second');
    const found = pdfBarcodes(pdf, 3);
    for (const so of [packed.soNumber, o1.soNumber, o2.soNumber]) expect(found).toContain(so);
  });

  it('a client account downloads its own order’s slip, not another client’s (404), and never the batch prints (403)', async () => {
    isPdf(await client.get(`${P}/PackingSlip?orderId=${packed.orderId}`));
    const theirs = await admin.post('/Warehouse/Order/CreateOrder', {
      warehouseId: wh, customerId: otherCust, orderType: 'Sales', referenceNumber: `THEIRS-${++seq}`, orderDate: '2030-04-01',
      lines: [{ skuId: await makeSku(t.database, otherCust, 'THEIR-SKU'), quantity: 1 }],
    });
    const theirId = theirs.json().data.orderId as number;
    const refused = await client.get(`${P}/PackingSlip?orderId=${theirId}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.headers['content-type']).toContain('application/json');
    expect((await client.post(`${P}/PackingSlips`, { orderIds: [packed.orderId] })).statusCode).toBe(403);
    expect((await client.post(`${P}/PickLists`, { jobIds: [cluster.jobId] })).statusCode).toBe(403);
    // Staff who do not serve that client: 403 in a batch, 404 for the one slip; nothing printed.
    const batch = await staff.post(`${P}/PackingSlips`, { orderIds: [packed.orderId, theirId] });
    expect(batch.statusCode).toBe(403);
    expect((await staff.get(`${P}/PackingSlip?orderId=${theirId}`)).statusCode).toBe(404);
  });
});

describe('scope and bad input', () => {
  it('a job or order of a warehouse outside the caller’s: 403, nothing printed', async () => {
    const far = await order({ warehouseId: otherWh }, [{ skuId: skuA, quantity: 1 }]);
    const farLoc = await makeLocation(t.database, otherWh, 'FAR-01');
    const farJob = await job(otherWh, [{ orderId: far.orderId }], [{ locationId: farLoc, tasks: [{ order: 0, lineId: far.lines[0].lineId, skuId: skuA, quantity: 1 }] }]);
    for (const res of [
      await staff.post(`${P}/PickLists`, { jobIds: [cluster.jobId, farJob.jobId] }),
      await staff.post(`${P}/PackingSlips`, { jobIds: [farJob.jobId] }),
      await staff.post(`${P}/PackingSlips`, { waveId: farJob.waveId }),
      await staff.post(`${P}/PackingSlips`, { orderIds: [far.orderId] }),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.headers['content-type']).toContain('application/json');
    }
    // A cluster job holding an order of a client the caller does not serve is refused whole.
    const theirSku = await makeSku(t.database, otherCust, `THEIR-${++seq}`);
    const theirs = await order({ customerId: otherCust }, [{ skuId: theirSku, quantity: 1 }]);
    const mixed = await job(wh, [{ orderId: o1.orderId }, { orderId: theirs.orderId }], [
      { locationId: locA, tasks: [{ order: 1, lineId: theirs.lines[0].lineId, skuId: theirSku, quantity: 1, customerId: otherCust }] },
    ]);
    expect((await staff.post(`${P}/PickLists`, { jobIds: [mixed.jobId] })).statusCode).toBe(403);
    isPdf(await admin.post(`${P}/PickLists`, { jobIds: [mixed.jobId] }));
  });

  it('staff without the BatchPrint module: 403', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust], modules: { OrderDashboard: 'read' } });
    const s = as(t.app, await login(t.app, u.username, u.password));
    expect((await s.post(`${P}/PickLists`, { jobIds: [cluster.jobId] })).statusCode).toBe(403);
    expect((await s.post(`${P}/PackingSlips`, { orderIds: [o1.orderId] })).statusCode).toBe(403);
  });

  it('empty or malformed selections: 400 naming the field', async () => {
    const cases: [string, unknown, string][] = [
      ['PickLists', { jobIds: [] }, 'jobIds'],
      ['PickLists', {}, 'jobIds'],
      ['PickLists', { jobIds: [0] }, 'jobIds.0'],
      ['PickLists', { jobIds: Array.from({ length: 501 }, (_, i) => i + 1) }, 'jobIds'],
      ['PackingSlips', {}, 'orderIds'],
      ['PackingSlips', { orderIds: [], jobIds: [] }, 'orderIds'],
      ['PackingSlips', { orderIds: ['x'] }, 'orderIds.0'],
    ];
    for (const [action, body, field] of cases) {
      const res = await staff.post(`${P}/${action}`, body);
      expect(res.statusCode, `${action} ${JSON.stringify(body)}`).toBe(400);
      expect(Object.keys(res.json().details ?? {}), `${action} ${JSON.stringify(body)}: ${res.body}`).toContain(field);
    }
    const bad = await staff.get(`${P}/PackingSlip?orderId=abc`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().details)).toContain('orderId');
  });

  it('unknown ids: 404 naming the field and the id', async () => {
    const cases: [string, unknown, string][] = [
      ['PickLists', { jobIds: [cluster.jobId, 987654] }, 'jobIds.1'],
      ['PackingSlips', { orderIds: [o1.orderId, o1.orderId, 987654] }, 'orderIds.2'],
      ['PackingSlips', { jobIds: [987654] }, 'jobIds.0'],
      ['PackingSlips', { waveId: 987654 }, 'waveId'],
    ];
    for (const [action, body, field] of cases) {
      const res = await staff.post(`${P}/${action}`, body);
      expect(res.statusCode, `${action} ${JSON.stringify(body)}`).toBe(404);
      expect(res.json().details, res.body).toEqual({ [field]: expect.stringContaining('987654') });
    }
    expect((await staff.get(`${P}/PackingSlip?orderId=987654`)).statusCode).toBe(404);
  });

  it('a wave without orders: 422 naming waveId', async () => {
    const { id } = await db().insertInto('wave').values({ wave_number: `WAVE-EMPTY-${++seq}`, warehouse_id: wh, strategy: 'discrete', created_at: now(), updated_at: now() })
      .returning('id').executeTakeFirstOrThrow();
    const res = await staff.post(`${P}/PackingSlips`, { waveId: id });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().details)).toEqual(['waveId']);
  });
});
