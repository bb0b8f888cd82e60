import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, ledgerBalanced, recordEvents, type TestApp } from '../../../test/helpers.js';
import { floor, type Floor } from '../../../test/support/floor-fixtures.js';

let t: TestApp;
let f: Floor;
const W = '/Warehouse/Wave';
const J = '/Warehouse/PickJob';
const db = () => t.database.db;

type Job = { jobId: number; jobNumber: string; zone: string | null; orderCount: number; status: string };
type Stop = { seq: number; locationId: number; skuId: number; quantity: number; tasks: { orderId: number; slot: number; quantity: number }[] };

const createWave = async (body: Record<string, unknown>, as = f.staff) => {
  const res = await as.post(`${W}/CreateWave`, { warehouseId: f.wh, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { wave: { waveId: number; waveNumber: string; jobCount: number; orderCount: number; units: number }; released: { orderId: number }[]; refused: { orderId: number; message: string }[] };
};
const getWave = async (waveId: number) => (await f.staff.get(`${W}/GetWave?waveId=${waveId}`)).json() as { status: string; jobs: Job[] };
const getJob = async (jobId: number) => {
  const res = await f.staff.get(`${J}/GetJob?jobId=${jobId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Job & { totes: { slot: number; orderId: number }[]; stops: Stop[]; lastPick: unknown };
};

beforeAll(async () => {
  t = await buildTestApp();
  f = await floor(t);
});
afterAll(async () => { await t?.close(); });

describe('CreateWave: the pick path', () => {
  it('walks aisles in a serpentine (racks up the 1st and 3rd aisle, down the 2nd), then levels; one stop per location, SKU and lot for two orders', async () => {
    const at = (aisle: string, rack: string, level = '1') => f.place({ zone: 'PA', aisle, rack, level, bin: '1' });
    // Made out of walking order, so the ids say nothing.
    const a3r2 = await at('03', '02');
    const a2r1 = await at('02', '01');
    const a1r3 = await at('01', '03');
    const a3r1l2 = await at('03', '01', '2');
    const a2r3 = await at('02', '03');
    const a1r1 = await at('01', '01');
    const a3r1l1 = await at('03', '01', '1');
    const places = [a1r1, a1r3, a2r3, a2r1, a3r1l1, a3r1l2, a3r2];
    const skus: number[] = [];
    for (const loc of places) {
      const s = await f.sku();
      await f.put(s, loc, 10);
      skus.push(s);
    }
    // Order 1 takes from every place; order 2 shares the first stop (same place, SKU and lot).
    const one = await f.order(skus.map((skuId) => ({ skuId, quantity: 2 })).reverse());
    const two = await f.order([{ skuId: skus[0], quantity: 3 }]);
    const { wave } = await createWave({ orderIds: [one.orderId, two.orderId], strategy: 'cluster', totesPerJob: 2 });
    expect(wave.jobCount).toBe(1);
    const [job] = (await getWave(wave.waveId)).jobs;
    const detail = await getJob(job.jobId);
    expect(detail.stops.map((s) => s.locationId)).toEqual(places);
    expect(detail.stops.map((s) => s.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(detail.stops[0]).toMatchObject({ skuId: skus[0], quantity: 5 });
    expect(detail.stops[0].tasks.map((k) => [k.orderId, k.slot, k.quantity])).toEqual([[one.orderId, 1, 2], [two.orderId, 2, 3]]);
    expect(detail.totes.map((s) => [s.slot, s.orderId])).toEqual([[1, one.orderId], [2, two.orderId]]);
    expect(detail.lastPick).toBeNull();
    // The stored tasks carry the same stops (what picking reads).
    const tasks = await db().selectFrom('pick_task').select(['seq', 'location_id']).where('job_id', '=', job.jobId).orderBy('seq').orderBy('id').execute();
    expect(tasks.map((r) => Number(r.location_id))).toEqual([a1r1, a1r1, a1r3, a2r3, a2r1, a3r1l1, a3r1l2, a3r2]);
  });
});

describe('CreateWave: cutting the work into jobs', () => {
  const orders = async (count: number, zone = 'CZ') => {
    const made: { orderId: number; soNumber: string }[] = [];
    for (let i = 0; i < count; i++) {
      const s = await f.sku();
      await f.put(s, await f.place({ zone, aisle: '01', rack: String(i + 1) }), 5);
      // Urgency decides the slots: the last made is the most urgent.
      made.push(await f.order([{ skuId: s, quantity: 1 }], { priority: Math.max(1, 9 - i) }));
    }
    return made;
  };

  it('discrete: one order per job', async () => {
    const made = await orders(3);
    const { wave, released } = await createWave({ orderIds: made.map((o) => o.orderId), strategy: 'discrete' });
    expect(released).toHaveLength(3);
    const jobs = (await getWave(wave.waveId)).jobs;
    expect(jobs.map((j) => j.orderCount)).toEqual([1, 1, 1]);
    expect(new Set(jobs.map((j) => j.jobNumber)).size).toBe(3);
    expect(jobs.every((j) => /^JOB-\d{6}$/.test(j.jobNumber) && j.status === 'Open')).toBe(true);
  });

  it('cluster: totesPerJob 3 over 7 orders makes 3 jobs of 3, 3 and 1 slots, most urgent orders first', async () => {
    const made = await orders(7);
    const { wave } = await createWave({ orderIds: made.map((o) => o.orderId), strategy: 'cluster', totesPerJob: 3 });
    const jobs = (await getWave(wave.waveId)).jobs;
    expect(jobs.map((j) => j.orderCount)).toEqual([3, 3, 1]);
    const first = await getJob(jobs[0].jobId);
    // Priorities 9..3 as made: the last three made are the most urgent.
    expect(first.totes.map((s) => s.orderId)).toEqual([made[6].orderId, made[5].orderId, made[4].orderId]);
    expect(first.totes.map((s) => s.slot)).toEqual([1, 2, 3]);
    const last = await getJob(jobs[2].jobId);
    expect(last.totes.map((s) => s.orderId)).toEqual([made[0].orderId]);
  });

  it('cluster: jobs by requested ship date, then priority; one customer\'s orders kept in one job where its totes allow', async () => {
    const one = async (customerId: number, requestedShipDate: string, priority = 5) => {
      const s = await f.sku(customerId);
      await f.put(s, await f.place({ zone: 'CG', aisle: '01', rack: '01' }), 5, { customerId });
      return (await f.order([{ skuId: s, quantity: 1 }], { customerId, requestedShipDate, priority })).orderId;
    };
    // Made out of order: a later day at top priority, and two customers mixed on the earlier day.
    const late = await one(f.cust, '2031-05-02', 1);
    const a1 = await one(f.cust, '2031-05-01');
    const b1 = await one(f.strict, '2031-05-01');
    const a2 = await one(f.cust, '2031-05-01');
    const b2 = await one(f.strict, '2031-05-01');
    const { wave } = await createWave({ orderIds: [late, b2, a1, b1, a2], strategy: 'cluster', totesPerJob: 2 });
    const jobs = (await getWave(wave.waveId)).jobs.sort((x, y) => x.jobId - y.jobId);
    const slots = await Promise.all(jobs.map(async (j) => (await getJob(j.jobId)).totes.map((s) => s.orderId)));
    expect(slots).toEqual([[a1, a2], [b1, b2], [late]]);
  });

  it('zone: one job per zone of the allocated stock; an order spanning two zones is in both', async () => {
    const inA = await f.sku();
    const inB = await f.sku();
    await f.put(inA, await f.place({ zone: 'ZA', aisle: '01', rack: '01' }), 10);
    await f.put(inB, await f.place({ zone: 'ZB', aisle: '01', rack: '01' }), 10);
    const both = await f.order([{ skuId: inA, quantity: 1 }, { skuId: inB, quantity: 2 }]);
    const onlyB = await f.order([{ skuId: inB, quantity: 1 }]);
    const { wave } = await createWave({ orderIds: [both.orderId, onlyB.orderId], strategy: 'zone' });
    const jobs = (await getWave(wave.waveId)).jobs;
    expect(jobs.map((j) => [j.zone, j.orderCount])).toEqual([['ZA', 1], ['ZB', 2]]);
    const b = await getJob(jobs[1].jobId);
    expect(b.stops).toHaveLength(1);
    expect(b.stops[0].tasks.map((k) => k.orderId).sort()).toEqual([both.orderId, onlyB.orderId].sort());
    expect((await getJob(jobs[0].jobId)).stops[0].tasks.map((k) => k.orderId)).toEqual([both.orderId]);
  });
});

describe('CreateWave: releasing', () => {
  it('releases each order through the status machine (Released, wave set, history), with audit rows, ReleaseOrder and AddWave events', async () => {
    const s = await f.sku();
    await f.put(s, await f.place({ zone: 'R' }), 10);
    const o = await f.order([{ skuId: s, quantity: 4 }]);
    const events = await recordEvents(t.app);
    const { wave, released } = await createWave({ orderIds: [o.orderId], strategy: 'discrete' });
    expect(released).toEqual([{ orderId: o.orderId, soNumber: o.soNumber }]);
    expect(wave).toMatchObject({ waveNumber: expect.stringMatching(/^WAVE-\d{6}$/), orderCount: 1, jobCount: 1, units: 4 });
    const row = await db().selectFrom('sales_order').select(['status', 'wave_id']).where('id', '=', o.orderId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'Released', wave_id: wave.waveId });
    const history = await db().selectFrom('document_status_history').select(['from_status', 'to_status']).where('kind', '=', 'SALES_ORDER').where('document_id', '=', o.orderId).orderBy('id').execute();
    expect(history.at(-1)).toEqual({ from_status: 'Allocated', to_status: 'Released' });
    const audits = await db().selectFrom('audit_log').select(['entity', 'action']).where('entity', 'in', ['sales_order', 'wave', 'pick_job'])
      .where((eb) => eb.or([eb('entity_id', '=', String(o.orderId)).and('entity', '=', 'sales_order'), eb('entity', '<>', 'sales_order')])).execute();
    expect(audits).toEqual(expect.arrayContaining([{ entity: 'sales_order', action: 'release' }, { entity: 'wave', action: 'create' }, { entity: 'pick_job', action: 'create' }]));
    const heard = await events.until(3);
    const subEvents = heard.map((e) => `${e.target}:${(e.payload as { subEvent: string }).subEvent}`);
    expect(subEvents).toEqual(expect.arrayContaining(['ReceiveOrderData:ReleaseOrder', 'ReceiveWaveData:AddWave', 'ReceiveWaveData:UpdateJob']));
    expect(await ledgerBalanced(t, f.wh)).toBe(true);
  });

  it('refuses per order (not allocated, short without backorders, another warehouse, already released, not found) and releases the rest', async () => {
    const s = await f.sku();
    await f.put(s, await f.place({ zone: 'R' }), 4);
    const done = await f.order([{ skuId: s, quantity: 1 }]);
    await createWave({ orderIds: [done.orderId], strategy: 'discrete' });
    const fine = await f.order([{ skuId: s, quantity: 1 }]);
    const fresh = await f.order([{ skuId: s, quantity: 1 }], { allocate: false });
    // Backordered (the client allows it): released with what it holds.
    const waits = await f.order([{ skuId: s, quantity: 5 }]);
    expect(await f.status(waits.orderId)).toBe('Backordered');
    const ss = await f.sku(f.strict);
    await f.put(ss, await f.place({ zone: 'R' }), 1, { customerId: f.strict });
    const partial = await f.order([{ skuId: ss, quantity: 3 }], { customerId: f.strict });
    expect(await f.status(partial.orderId)).toBe('Partially Allocated');
    const os = await f.sku();
    await f.put(os, await f.place({ zone: 'R', warehouseId: f.otherWh }), 3, { warehouseId: f.otherWh });
    const elsewhere = await f.order([{ skuId: os, quantity: 1 }], { warehouseId: f.otherWh });
    const before = await db().selectFrom('wave').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow();

    const res = await createWave({ orderIds: [fine.orderId, fresh.orderId, waits.orderId, partial.orderId, elsewhere.orderId, done.orderId, 99_999_999], strategy: 'discrete' });
    expect(res.released.map((r) => r.orderId).sort()).toEqual([fine.orderId, waits.orderId].sort());
    const why = Object.fromEntries(res.refused.map((r) => [r.orderId, r.message]));
    expect(why[fresh.orderId]).toMatch(/is New; only Allocated orders are released/);
    expect(why[partial.orderId]).toMatch(/Partially Allocated and its client does not allow backorders/);
    // The staff member does not serve the other warehouse: its order is simply not found...
    expect(why[elsewhere.orderId]).toBe('Order not found');
    expect(why[done.orderId]).toMatch(/already released/);
    expect(why[99_999_999]).toBe('Order not found');
    expect(await f.status(fresh.orderId)).toBe('New');
    expect(await f.status(partial.orderId)).toBe('Partially Allocated');
    expect(await f.status(waits.orderId)).toBe('Released');
    // ...while an administrator who sees both is told why.
    const asAdmin = await f.admin.post(`${W}/CreateWave`, { warehouseId: f.wh, orderIds: [elsewhere.orderId], strategy: 'discrete' });
    expect(asAdmin.statusCode).toBe(422);
    expect(asAdmin.json().message).toMatch(/in another warehouse/);
    expect(await f.status(elsewhere.orderId)).toBe('Allocated');
    const after = await db().selectFrom('wave').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n) + 1);
  });

  it('nothing to release: 422 and no wave; a client account is refused (403); bad input names the field', async () => {
    const s = await f.sku();
    const fresh = await f.order([{ skuId: s, quantity: 1 }], { allocate: false });
    const count = async () => Number((await db().selectFrom('wave').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const res = await f.staff.post(`${W}/CreateWave`, { warehouseId: f.wh, orderIds: [fresh.orderId], strategy: 'discrete' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/No order can be released/);
    const asClient = await f.client.post(`${W}/CreateWave`, { warehouseId: f.wh, orderIds: [fresh.orderId], strategy: 'discrete' });
    expect(asClient.statusCode).toBe(403);
    const bad = await f.staff.post(`${W}/CreateWave`, { warehouseId: f.wh, orderIds: [fresh.orderId], strategy: 'wander' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().details)).toMatch(/strategy/);
    const outside = await f.staff.post(`${W}/CreateWave`, { warehouseId: f.otherWh, orderIds: [fresh.orderId], strategy: 'discrete' });
    expect(outside.statusCode).toBe(403);
    expect(await count()).toBe(before);
  });

  it('criteria instead of orderIds: every Allocated order the rule matches', async () => {
    const s = await f.sku();
    await f.put(s, await f.place({ zone: 'CRIT' }), 10);
    const urgent = await f.order([{ skuId: s, quantity: 1 }], { priority: 1, requestedShipDate: '2030-01-02' });
    const later = await f.order([{ skuId: s, quantity: 1 }], { priority: 1, requestedShipDate: '2031-01-02' });
    const notYet = await f.order([{ skuId: s, quantity: 1 }], { priority: 1, allocate: false });
    const res = await createWave({ criteria: { warehouseId: f.wh, priorityTo: 1, shipDateTo: '2030-12-31', zone: 'CRIT' }, strategy: 'discrete' });
    expect(res.released.map((r) => r.orderId)).toEqual([urgent.orderId]);
    expect(await f.status(later.orderId)).toBe('Allocated');
    expect(await f.status(notYet.orderId)).toBe('New');
  });
});

describe('GetWaves, GetWave, CancelWave', () => {
  it('lists waves of the caller’s warehouses with their progress', async () => {
    const res = await f.staff.post(`${W}/GetWaves`, { filters: { warehouseId: f.wh }, pageSize: 100 });
    expect(res.statusCode, res.body).toBe(200);
    const { items, totalCount } = res.json();
    expect(totalCount).toBeGreaterThan(3);
    expect(items[0]).toMatchObject({ warehouseId: f.wh, status: 'Open', strategy: expect.any(String) });
    const today = new Date().toISOString().slice(0, 10);
    const day = async (filters: Record<string, string>) => (await f.staff.post(`${W}/GetWaves`, { filters: { warehouseId: f.wh, ...filters } })).json().totalCount;
    expect(await day({ fromDate: today, toDate: today })).toBe(totalCount);
    expect(await day({ toDate: '2020-01-01' })).toBe(0);
    expect(await day({ status: 'Cancelled' })).toBe(0);
    expect((await f.staff.post(`${W}/GetWaves`, { filters: { warehouseId: f.otherWh } })).statusCode).toBe(403);
    expect((await f.client.post(`${W}/GetWaves`, {})).statusCode).toBe(403);
  });

  it('cancels a wave no one picked from: jobs Cancelled, orders back to what they hold (Allocated, Backordered), wave_id cleared, stock still reserved', async () => {
    const s = await f.sku();
    await f.put(s, await f.place({ zone: 'CW' }), 5);
    const whole = await f.order([{ skuId: s, quantity: 2 }]);
    const waits = await f.order([{ skuId: s, quantity: 9 }]);
    expect(await f.status(waits.orderId)).toBe('Backordered');
    const { wave } = await createWave({ orderIds: [whole.orderId, waits.orderId], strategy: 'cluster', totesPerJob: 1 });
    const reservedBefore = await db().selectFrom('stock_reservation').select(['document_id', 'quantity']).where('sku_id', '=', s).orderBy('id').execute();
    const events = await recordEvents(t.app);
    const res = await f.staff.post(`${W}/CancelWave`, { waveId: wave.waveId, reason: 'carrier late' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('Cancelled');
    expect((await getWave(wave.waveId)).jobs.map((j) => j.status)).toEqual(['Cancelled', 'Cancelled']);
    expect(await f.status(whole.orderId)).toBe('Allocated');
    expect(await f.status(waits.orderId)).toBe('Backordered');
    const waveIds = await db().selectFrom('sales_order').select('wave_id').where('id', 'in', [whole.orderId, waits.orderId]).execute();
    expect(waveIds.map((r) => r.wave_id)).toEqual([null, null]);
    expect(await db().selectFrom('stock_reservation').select(['document_id', 'quantity']).where('sku_id', '=', s).orderBy('id').execute()).toEqual(reservedBefore);
    const heard = (await events.until(3)).map((e) => (e.payload as { subEvent: string }).subEvent);
    expect(heard).toEqual(expect.arrayContaining(['UpdateWave', 'UpdateJob', 'UpdateOrder']));
    // Released again into a new wave.
    const again = await createWave({ orderIds: [whole.orderId], strategy: 'discrete' });
    expect(again.released).toHaveLength(1);
    expect(await ledgerBalanced(t, f.wh)).toBe(true);
  });

  it('refuses to cancel after a pick (409, nothing changed), and a wave already cancelled', async () => {
    const s = await f.sku();
    await f.put(s, await f.place({ zone: 'CW' }), 5);
    const o = await f.order([{ skuId: s, quantity: 2 }]);
    const { wave } = await createWave({ orderIds: [o.orderId], strategy: 'discrete' });
    const [job] = (await getWave(wave.waveId)).jobs;
    // A pick as picking records it on the task (picking itself is another module's).
    await db().updateTable('pick_task').set({ picked_qty: 1 }).where('job_id', '=', job.jobId).execute();
    const res = await f.staff.post(`${W}/CancelWave`, { waveId: wave.waveId });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/Picking has started/);
    expect((await getWave(wave.waveId)).status).toBe('Open');
    expect(await f.status(o.orderId)).toBe('Released');

    await db().updateTable('pick_task').set({ picked_qty: 0 }).where('job_id', '=', job.jobId).execute();
    expect((await f.staff.post(`${W}/CancelWave`, { waveId: wave.waveId })).statusCode).toBe(200);
    const twice = await f.staff.post(`${W}/CancelWave`, { waveId: wave.waveId });
    expect(twice.statusCode).toBe(409);
    expect((await f.staff.post(`${W}/CancelWave`, { waveId: 99_999_999 })).statusCode).toBe(404);
  });
});
