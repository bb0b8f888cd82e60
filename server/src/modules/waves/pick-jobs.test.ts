import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, buildTestApp, login, makeUser, makeWarehouse, recordEvents, type TestApp } from '../../../test/helpers.js';
import { floor, type Caller, type Floor } from '../../../test/support/floor-fixtures.js';

let t: TestApp;
let f: Floor;
const W = '/Warehouse/Wave';
const J = '/Warehouse/PickJob';
const db = () => t.database.db;

/** A wave of `count` one-line orders, one job each (discrete), in a warehouse of its own so tests do not share jobs. */
const wave = async (count: number, warehouseId = f.wh) => {
  const orderIds: number[] = [];
  for (let i = 0; i < count; i++) {
    const s = await f.sku();
    await f.put(s, await f.place({ zone: 'PJ', aisle: '01', rack: String(i + 1), warehouseId }), 3, { warehouseId });
    orderIds.push((await f.order([{ skuId: s, quantity: 1 }], { warehouseId })).orderId);
  }
  const res = await f.admin.post(`${W}/CreateWave`, { warehouseId, orderIds, strategy: 'discrete' });
  expect(res.statusCode, res.body).toBe(200);
  const waveId = res.json().data.wave.waveId as number;
  const jobs = (await f.admin.get(`${W}/GetWave?waveId=${waveId}`)).json().jobs as { jobId: number; jobNumber: string }[];
  return { waveId, orderIds, jobIds: jobs.map((j) => j.jobId) };
};
const picker = async (warehouseIds: number[]): Promise<{ id: number; call: Caller }> => {
  const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds, customerIds: [f.cust], modules: { BatchJob: 'write' } });
  return { id: u.id, call: as(t.app, await login(t.app, u.username, u.password)) };
};
const jobRow = (jobId: number) => db().selectFrom('pick_job').select(['status', 'assigned_to']).where('id', '=', jobId).executeTakeFirstOrThrow();
const tote = (code: string, o: { type?: string; active?: boolean; warehouseId?: number } = {}) => {
  const now = new Date().toISOString();
  return db().insertInto('location').values({
    warehouse_id: o.warehouseId ?? f.wh, code, type: o.type ?? 'tote', zone: null, aisle: null, rack: null, level: null, bin: null, capacity: 0,
    is_active: o.active === false ? 0 : 1, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow().then((r) => Number(r.id));
};

beforeAll(async () => {
  t = await buildTestApp();
  f = await floor(t);
});
afterAll(async () => { await t?.close(); });

describe('TakeNextJob', () => {
  it('8 pickers at once each get a different job; the ninth hears none is waiting (404)', async () => {
    const wh = await makeWarehouse(t.database);
    await db().insertInto('customer_warehouse').values({ customer_id: f.cust, warehouse_id: wh }).execute();
    const { jobIds } = await wave(8, wh);
    const pickers = await Promise.all(Array.from({ length: 9 }, () => picker([wh])));
    const answers = await Promise.all(pickers.slice(0, 8).map((p) => p.call.post(`${J}/TakeNextJob`, { warehouseId: wh })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    const taken = answers.map((a) => a.json().data.jobId as number);
    expect(new Set(taken).size).toBe(8);
    expect([...taken].sort((a, b) => a - b)).toEqual([...jobIds].sort((a, b) => a - b));
    for (const [i, a] of answers.entries()) {
      expect(a.json().data).toMatchObject({ status: 'Assigned', assignedTo: pickers[i].id });
      expect(await jobRow(a.json().data.jobId)).toEqual({ status: 'Assigned', assigned_to: pickers[i].id });
    }
    const none = await pickers[8].call.post(`${J}/TakeNextJob`, { warehouseId: wh });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe('No pick job is waiting');
    // A picker asking again gets their own job back, not another.
    const again = await pickers[0].call.post(`${J}/TakeNextJob`, { warehouseId: wh });
    expect(again.json().data.jobId).toBe(taken[0]);
  });

  it('takes the most urgent job first; refuses a warehouse outside the caller’s (403) and a client account (403)', async () => {
    const wh = await makeWarehouse(t.database);
    await db().insertInto('customer_warehouse').values({ customer_id: f.cust, warehouse_id: wh }).execute();
    const { jobIds } = await wave(2, wh);
    await db().updateTable('pick_job').set({ priority: 1 }).where('id', '=', jobIds[1]).execute();
    const p = await picker([wh]);
    expect((await p.call.post(`${J}/TakeNextJob`, { warehouseId: wh })).json().data.jobId).toBe(jobIds[1]);
    expect((await p.call.post(`${J}/TakeNextJob`, { warehouseId: f.otherWh })).statusCode).toBe(403);
    expect((await f.client.post(`${J}/TakeNextJob`, { warehouseId: wh })).statusCode).toBe(403);
    // Batch Job read lists the jobs but does not pick: taking a job and scanning its totes change it.
    const reader = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [f.cust], modules: { BatchJob: 'read' } });
    const asReader = as(t.app, await login(t.app, reader.username, reader.password));
    expect((await asReader.post(`${J}/GetJobs`, { filters: { warehouseId: wh } })).statusCode).toBe(200);
    expect((await asReader.post(`${J}/TakeNextJob`, { warehouseId: wh })).statusCode).toBe(403);
    expect((await asReader.post(`${J}/AssignTotes`, { jobId: jobIds[0], totes: [{ slot: 1, toteCode: 'TOTE-X' }] })).statusCode).toBe(403);
  });
});

describe('AssignJob, GetJobs, CancelJob', () => {
  it('assigns to a picker of the warehouse (UpdateJob, audit), lists it as theirs, and gives it back to Open', async () => {
    const { jobIds } = await wave(1);
    const p = await picker([f.wh]);
    const events = await recordEvents(t.app);
    const res = await f.staff.post(`${J}/AssignJob`, { jobId: jobIds[0], userId: p.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'Assigned', assignedTo: p.id });
    const heard = await events.until(1);
    expect(heard.some((e) => e.target === 'ReceiveWaveData' && (e.payload as { subEvent: string; payload: { jobId: number } }).payload.jobId === jobIds[0])).toBe(true);
    // The order drawer finds an order's job by the order (discrete: one job per order).
    const { orderIds: [order], jobIds: [itsJob] } = await wave(2);
    const byOrder = (await f.staff.post(`${J}/GetJobs`, { filters: { orderId: order } })).json();
    expect(byOrder.items.map((j: { jobId: number }) => j.jobId)).toEqual([itsJob]);
    const mine = (await p.call.post(`${J}/GetJobs`, { filters: { mine: true } })).json();
    expect(mine.items.map((j: { jobId: number }) => j.jobId)).toEqual([jobIds[0]]);
    const audit = await db().selectFrom('audit_log').select('action').where('entity', '=', 'pick_job').where('entity_id', '=', String(jobIds[0])).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'assign']);

    const back = await f.staff.post(`${J}/AssignJob`, { jobId: jobIds[0] });
    expect(back.json().data).toMatchObject({ status: 'Open', assignedTo: null });
    expect((await p.call.post(`${J}/GetJobs`, { filters: { mine: true } })).json().items).toEqual([]);
  });

  it('refuses a user of another warehouse (422 naming userId), a job in progress (409), a job outside the caller’s warehouses (404)', async () => {
    const { jobIds } = await wave(1);
    const stranger = await picker([f.otherWh]);
    const res = await f.staff.post(`${J}/AssignJob`, { jobId: jobIds[0], userId: stranger.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toHaveProperty('userId');
    expect(await jobRow(jobIds[0])).toEqual({ status: 'Open', assigned_to: null });
    await db().updateTable('pick_job').set({ status: 'In Progress' }).where('id', '=', jobIds[0]).execute();
    expect((await f.staff.post(`${J}/AssignJob`, { jobId: jobIds[0], userId: f.staffId })).statusCode).toBe(409);
    const outsider = await picker([f.otherWh]);
    expect((await outsider.call.get(`${J}/GetJob?jobId=${jobIds[0]}`)).statusCode).toBe(404);
  });

  it('CancelJob: the order goes back to Allocated, the wave with its only job is Cancelled; a job picked from is refused', async () => {
    const { waveId, orderIds, jobIds } = await wave(1);
    const res = await f.staff.post(`${J}/CancelJob`, { jobId: jobIds[0], reason: 'stock damaged' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('Cancelled');
    expect(await f.status(orderIds[0])).toBe('Allocated');
    expect((await f.staff.get(`${W}/GetWave?waveId=${waveId}`)).json().status).toBe('Cancelled');

    const second = await wave(2);
    await db().updateTable('pick_task').set({ picked_qty: 1 }).where('job_id', '=', second.jobIds[0]).execute();
    const refused = await f.staff.post(`${J}/CancelJob`, { jobId: second.jobIds[0] });
    expect(refused.statusCode).toBe(409);
    expect(await f.status(second.orderIds[0])).toBe('Released');
    // The other job of that wave cancels on its own; the wave stays open for the one picked from.
    expect((await f.staff.post(`${J}/CancelJob`, { jobId: second.jobIds[1] })).statusCode).toBe(200);
    expect(await f.status(second.orderIds[1])).toBe('Allocated');
    expect((await f.staff.get(`${W}/GetWave?waveId=${second.waveId}`)).json().status).toBe('Open');
  });
});

describe('AssignTotes', () => {
  it('puts an empty tote on each slot; GetJob shows the tote codes on the totes and the tasks', async () => {
    const { jobIds } = await wave(1);
    const code = `TOTE-OK-${Date.now()}`;
    await tote(code);
    const res = await f.staff.post(`${J}/AssignTotes`, { jobId: jobIds[0], totes: [{ slot: 1, toteCode: code.toLowerCase() }] });
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json().data;
    expect(job.totes[0].toteCode).toBe(code);
    expect(job.stops[0].tasks[0].toteCode).toBe(code);
  });

  it('refuses (422 naming totes[i].toteCode, nothing written): a tote of another live job, a location that is not a tote, a tote with stock, one named twice, an inactive one', async () => {
    const first = await wave(1);
    const { jobIds } = await wave(2);
    const busy = `TOTE-BUSY-${Date.now()}`;
    await tote(busy);
    expect((await f.staff.post(`${J}/AssignTotes`, { jobId: first.jobIds[0], totes: [{ slot: 1, toteCode: busy }] })).statusCode).toBe(200);
    const rack = `RACK-${Date.now()}`;
    await tote(rack, { type: 'rack' });
    const full = `TOTE-FULL-${Date.now()}`;
    const fullId = await tote(full);
    await f.put(await f.sku(), fullId, 1);
    const off = `TOTE-OFF-${Date.now()}`;
    await tote(off, { active: false });
    const free = `TOTE-FREE-${Date.now()}`;
    await tote(free);
    const cases: [string, RegExp][] = [[busy, /in use by JOB-/], [rack, /is not a tote/], [full, /is not empty/], [off, /inactive/], ['NO-SUCH-TOTE', /No location/]];
    for (const [code, message] of cases) {
      const res = await f.staff.post(`${J}/AssignTotes`, { jobId: jobIds[0], totes: [{ slot: 1, toteCode: code }] });
      expect(res.statusCode, code).toBe(422);
      expect(res.json().details['totes.0.toteCode']).toMatch(message);
    }
    // A cluster job's two slots: the same tote twice is refused on the second.
    const s = await f.sku();
    await f.put(s, await f.place({ zone: 'PJ' }), 4);
    const a = await f.order([{ skuId: s, quantity: 1 }]);
    const b = await f.order([{ skuId: s, quantity: 1 }]);
    const cw = await f.staff.post(`${W}/CreateWave`, { warehouseId: f.wh, orderIds: [a.orderId, b.orderId], strategy: 'cluster', totesPerJob: 2 });
    const cluster = (await f.staff.get(`${W}/GetWave?waveId=${cw.json().data.wave.waveId}`)).json().jobs[0].jobId;
    const twice = await f.staff.post(`${J}/AssignTotes`, { jobId: cluster, totes: [{ slot: 1, toteCode: free }, { slot: 2, toteCode: free }] });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().details['totes.1.toteCode']).toMatch(/named twice/);
    const written = await db().selectFrom('pick_job_order').select('tote_location_id').where('job_id', 'in', [jobIds[0], cluster]).execute();
    expect(written.every((r) => r.tote_location_id === null)).toBe(true);
    // Once the other job is done, its tote is free again (and empty).
    await db().updateTable('pick_job').set({ status: 'Done' }).where('id', '=', first.jobIds[0]).execute();
    expect((await f.staff.post(`${J}/AssignTotes`, { jobId: jobIds[0], totes: [{ slot: 1, toteCode: busy }] })).statusCode).toBe(200);
  });
});
