import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { as, buildTestApp, login, makeUser, recordEvents, type TestApp } from '../../../test/helpers.js';
import { floor, type Caller, type Floor } from '../../../test/support/floor-fixtures.js';
import { Scope } from '../../platform/scope.js';

let t: TestApp;
let f: Floor;
const W = '/Warehouse/Wave';
const J = '/Warehouse/PickJob';
const db = () => t.database.db;

type Task = { taskId: number; orderId: number; orderLineId: number; slot: number; quantity: number; pickedQuantity: number; shortQuantity: number; status: string };
type Stop = { seq: number; locationId: number; locationCode: string; skuId: number; skuCode: string; lot: string; quantity: number; pickedQuantity: number; shortQuantity: number; tasks: Task[] };
type Job = { jobId: number; jobNumber: string; waveId: number; status: string; assignedTo: number | null; startedAt: string | null; finishedAt: string | null;
  totes: { slot: number; orderId: number; toteLocationId: number | null; toteCode: string | null }[]; stops: Stop[];
  lastPick: { eventId: number; taskId: number; quantity: number } | null };
/** What ConfirmPick, ShortPick and UndoPick answer: what the step changed. */
type PickAnswer = { message: string; stops: Stop[]; lastPick: Job['lastPick'];
  job: { status: string; assignedTo: number | null; stopCount: number; stopsDone: number; units: number; pickedUnits: number; shortUnits: number; finishedAt: string | null };
  lines: { orderLineId: number; orderId: number; quantity: number; allocatedQuantity: number; pickedQuantity: number }[];
  orders: { orderId: number; soNumber: string; status: string }[] };

const getJob = async (jobId: number, caller = f.staff) => {
  const res = await caller.get(`${J}/GetJob?jobId=${jobId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Job;
};
/** A zone-A bin with `qty` units of the SKU (lot optional). */
const bin = async (skuId: number, qty: number, o: { aisle?: string; level?: string; lot?: string; customerId?: number } = {}) => {
  const id = await f.place({ zone: 'A', aisle: o.aisle ?? '01', rack: '01', level: o.level ?? '1', bin: '01' });
  if (qty > 0) await f.put(skuId, id, qty, { lot: o.lot, customerId: o.customerId });
  return id;
};
let toteSeq = 0;
/** Releases the orders in one wave (cluster, one job for all unless `totesPerJob`), with a tote for every slot; answers its jobs. */
async function wave(orderIds: number[], o: { totesPerJob?: number; caller?: Caller; totes?: boolean } = {}) {
  const caller = o.caller ?? f.staff;
  const res = await caller.post(`${W}/CreateWave`, { warehouseId: f.wh, orderIds, strategy: 'cluster', totesPerJob: o.totesPerJob ?? Math.max(1, orderIds.length) });
  expect(res.statusCode, res.body).toBe(200);
  const waveId = res.json().data.wave.waveId as number;
  const jobs = ((await caller.get(`${W}/GetWave?waveId=${waveId}`)).json() as { jobs: { jobId: number }[] }).jobs;
  const out: Job[] = [];
  for (const j of jobs) {
    const job = await getJob(j.jobId, caller);
    if (o.totes !== false) {
      const totes = [];
      for (const s of job.totes) {
        const code = `TOTE-${process.pid}-${++toteSeq}`;
        await f.place({ type: 'tote', zone: code });
        const loc = await db().selectFrom('location').select('code').where('zone', '=', code).executeTakeFirstOrThrow();
        totes.push({ slot: s.slot, toteCode: loc.code });
      }
      const r = await caller.post(`${J}/AssignTotes`, { jobId: job.jobId, totes });
      expect(r.statusCode, r.body).toBe(200);
    }
    out.push(await getJob(j.jobId, caller));
  }
  return { waveId, jobs: out };
}
const skuCode = async (skuId: number) => (await db().selectFrom('sku').select('sku_code').where('id', '=', skuId).executeTakeFirstOrThrow()).sku_code;
const confirm = (caller: Caller, job: Job, stop: Stop, over: Record<string, unknown> = {}) =>
  caller.post(`${J}/ConfirmPick`, { jobId: job.jobId, stopSeq: stop.seq, locationCode: stop.locationCode, itemCode: stop.skuCode, quantity: stop.quantity - stop.pickedQuantity - stop.shortQuantity, ...(stop.lot ? { lot: stop.lot } : {}), ...over });
const ok = async (res: Awaited<ReturnType<Caller['post']>>) => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PickAnswer;
};
const balance = async (skuId: number, locationId: number) => db().selectFrom('inventory_balance').select(['on_hand', 'allocated'])
  .where('sku_id', '=', skuId).where('location_id', '=', locationId).executeTakeFirst().then((b) => b && { onHand: Number(b.on_hand), allocated: Number(b.allocated) });
const reconciled = async (customerId = f.cust) => (await t.app.services.stock.reconcile(Scope.everything, { warehouseId: f.wh, customerId })).balanced;
const orderStatus = (id: number) => f.status(id);
const jobStatus = async (id: number) => (await db().selectFrom('pick_job').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const waveStatus = async (id: number) => (await db().selectFrom('wave').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const stockRows = async () => Number((await db().selectFrom('inventory_txn').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
const floorRows = async () => Number((await db().selectFrom('floor_event').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);

let picker2: Caller;
beforeAll(async () => {
  t = await buildTestApp();
  f = await floor(t);
  const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [f.wh], customerIds: [f.cust, f.strict], modules: { BatchJob: 'write' } });
  picker2 = as(t.app, await login(t.app, u.username, u.password));
});
afterAll(async () => { await t?.close(); });

describe('CheckPickScan', () => {
  it('checks each step against the stop, naming what was expected; another client\'s item is refused as such without naming the client; nothing is written', async () => {
    const sku = await f.sku();
    const loc = await bin(sku, 10, { lot: 'LOT-7' });
    const other = await f.sku();
    const strangers = await f.sku(f.strict);
    await db().insertInto('sku_package').values({
      customer_id: f.cust, sku_id: sku, parent_id: null, package_type: 'case', package_name: 'Case of 6', quantity: 6, length_cm: null, width_cm: null,
      height_cm: null, weight_kg: null, gtin: `0950${process.pid}${sku}`.slice(0, 14), created_at: new Date().toISOString(), updated_at: new Date().toISOString(),
    }).execute();
    const gtin = `0950${process.pid}${sku}`.slice(0, 14);
    const o = await f.order([{ skuId: sku, quantity: 4 }]);
    const { jobs: [job] } = await wave([o.orderId]);
    const stop = job.stops[0];
    const before = [await stockRows(), await floorRows()];
    const check = async (step: string, code: string) => {
      const res = await f.staff.post(`${J}/CheckPickScan`, { jobId: job.jobId, stopSeq: stop.seq, step, code });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { ok: boolean; message: string; unitsPerScan?: number };
    };
    expect(await check('location', stop.locationCode.toLowerCase())).toMatchObject({ ok: true });
    expect(await check('location', 'NOPE-1')).toEqual({ ok: false, message: `Wrong location: expected ${stop.locationCode}` });
    expect(await check('item', stop.skuCode)).toMatchObject({ ok: true, unitsPerScan: 1 });
    expect(await check('item', gtin)).toMatchObject({ ok: true, unitsPerScan: 6 });
    expect(await check('item', await skuCode(other))).toEqual({ ok: false, message: `Wrong item: expected ${stop.skuCode}` });
    const foreign = await check('item', await skuCode(strangers));
    expect(foreign).toEqual({ ok: false, message: `This is another client's item: expected ${stop.skuCode}` });
    const strictName = (await db().selectFrom('customer').select('name').where('id', '=', f.strict).executeTakeFirstOrThrow()).name;
    expect(foreign.message).not.toContain(strictName);
    expect(await check('item', 'NO-SUCH-THING')).toMatchObject({ ok: false, message: `Unknown item 'NO-SUCH-THING': expected ${stop.skuCode}` });
    expect(await check('lot', 'LOT-7')).toMatchObject({ ok: true });
    expect(await check('lot', 'LOT-8')).toEqual({ ok: false, message: 'Wrong lot: expected LOT-7' });
    expect(await check('tote', job.totes[0].toteCode!.toLowerCase())).toMatchObject({ ok: true });
    expect((await check('tote', 'TOTE-X'))).toEqual({ ok: false, message: `Wrong tote: expected ${job.totes[0].toteCode}` });
    expect([await stockRows(), await floorRows()]).toEqual(before);
    expect(loc).toBe(stop.locationId);
  });
});

describe('ConfirmPick', () => {
  it('refuses wrong scans (422 naming the field), a pick larger than the stop needs, and nothing moves', async () => {
    const sku = await f.sku();
    const loc = await bin(sku, 10, { lot: 'L-1' });
    const strangers = await f.sku(f.strict);
    const o = await f.order([{ skuId: sku, quantity: 4 }]);
    const { jobs: [job] } = await wave([o.orderId]);
    const stop = job.stops[0];
    const cases: [Record<string, unknown>, string, string][] = [
      [{ locationCode: 'ZZ-9' }, 'locationCode', `Wrong location: expected ${stop.locationCode}`],
      [{ itemCode: await skuCode(await f.sku()) }, 'itemCode', `Wrong item: expected ${stop.skuCode}`],
      [{ itemCode: await skuCode(strangers) }, 'itemCode', `This is another client's item: expected ${stop.skuCode}`],
      [{ lot: 'L-2' }, 'lot', 'Wrong lot: expected L-1'],
      [{ quantity: 5 }, 'quantity', 'This stop needs 4 more units'],
    ];
    for (const [over, field, message] of cases) {
      const res = await confirm(f.staff, job, stop, over);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toBe(message);
      expect(res.json().details).toHaveProperty(field);
    }
    expect(await balance(sku, loc)).toEqual({ onHand: 10, allocated: 4 });
    expect(await jobStatus(job.jobId)).toBe('Open');
    expect(await orderStatus(o.orderId)).toBe('Released');
  });

  it('refuses a job another user is picking (409 naming them), a cancelled job (409), a job of another warehouse (404)', async () => {
    const sku = await f.sku();
    await bin(sku, 10);
    const a = await f.order([{ skuId: sku, quantity: 2 }]);
    const b = await f.order([{ skuId: sku, quantity: 2 }]);
    const { jobs: [job] } = await wave([a.orderId]);
    await ok(await confirm(f.staff, job, { ...job.stops[0], quantity: 1 }));
    const theirs = await confirm(picker2, job, job.stops[0], { quantity: 1 });
    expect(theirs.statusCode, theirs.body).toBe(409);
    const staffName = (await db().selectFrom('app_user').select('username').where('id', '=', f.staffId).executeTakeFirstOrThrow()).username;
    expect(theirs.json().message).toBe(`This job is being picked by ${staffName}`);

    const { jobs: [cancelled] } = await wave([b.orderId]);
    expect((await f.staff.post(`${J}/CancelJob`, { jobId: cancelled.jobId })).statusCode).toBe(200);
    const res = await confirm(f.staff, cancelled, cancelled.stops[0]);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(/cancelled/);

    const far = await f.sku();
    const farBin = await f.place({ zone: 'A', aisle: '01', warehouseId: f.otherWh });
    await f.put(far, farBin, 5, { warehouseId: f.otherWh });
    const c = await f.order([{ skuId: far, quantity: 1 }], { warehouseId: f.otherWh });
    const made = await f.admin.post(`${W}/CreateWave`, { warehouseId: f.otherWh, orderIds: [c.orderId], strategy: 'discrete' });
    expect(made.statusCode, made.body).toBe(200);
    const farJob = ((await f.admin.get(`${W}/GetWave?waveId=${made.json().data.wave.waveId}`)).json() as { jobs: { jobId: number }[] }).jobs[0];
    const farRes = await f.staff.post(`${J}/ConfirmPick`, { jobId: farJob.jobId, stopSeq: 1, locationCode: 'X', itemCode: 'X', quantity: 1 });
    expect(farRes.statusCode, farRes.body).toBe(404);
    expect((await f.staff.post(`${J}/CheckPickScan`, { jobId: farJob.jobId, stopSeq: 1, step: 'location', code: 'X' })).statusCode).toBe(404);
  });

  it('a slot without a tote: 409 asking for it, nothing moved', async () => {
    const sku = await f.sku();
    const loc = await bin(sku, 5);
    const o = await f.order([{ skuId: sku, quantity: 2 }]);
    const { jobs: [job] } = await wave([o.orderId], { totes: false });
    const res = await confirm(f.staff, job, job.stops[0]);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toBe('Scan a tote for slot 1 first');
    expect(await balance(sku, loc)).toEqual({ onHand: 5, allocated: 2 });
  });

  it('moves the units bin → tote with their reservation (pick_out/pick_in), shares a stop over its tasks, and walks order, job and wave statuses to the end', async () => {
    const hot = await f.sku();
    const cold = await f.sku();
    const hotBin = await bin(hot, 20, { aisle: '01' });
    const coldBin = await bin(cold, 20, { aisle: '02' });
    const a = await f.order([{ skuId: hot, quantity: 3 }, { skuId: cold, quantity: 1 }]);
    const b = await f.order([{ skuId: hot, quantity: 2 }]);
    const { waveId, jobs } = await wave([a.orderId, b.orderId]);
    const [job] = jobs;
    const hotStop = job.stops.find((s) => s.skuId === hot)!;
    expect(hotStop.tasks).toHaveLength(2);
    const toteOf = (orderId: number) => job.totes.find((s) => s.orderId === orderId)!.toteLocationId!;

    // 4 of the hot stop's 5: the first task (in task order) whole, the second gets 1.
    const first = await ok(await confirm(f.staff, job, hotStop, { quantity: 4 }));
    expect(first.job.status).toBe('In Progress');
    expect(first.job.assignedTo).toBe(f.staffId);
    // The answer is what changed: the stop, its order lines, the job's progress — not the whole job.
    expect(first.stops.map((s) => s.seq)).toEqual([hotStop.seq]);
    expect(first.job).toMatchObject({ stopCount: 2, stopsDone: 0, units: 6, pickedUnits: 4, shortUnits: 0 });
    expect(first.lines.map((l) => l.pickedQuantity).sort()).toEqual([1, hotStop.tasks[0].quantity].sort());
    expect(first.lastPick).toMatchObject({ quantity: 4 - hotStop.tasks[0].quantity });
    const after = first.stops.find((s) => s.seq === hotStop.seq)!;
    expect(after.tasks.map((x) => [x.pickedQuantity, x.status])).toEqual(hotStop.tasks.map((x, i) => (i === 0 ? [x.quantity, 'Picked'] : [4 - hotStop.tasks[0].quantity, 'Open'])));
    expect(await waveStatus(waveId)).toBe('In Progress');
    const firstTask = hotStop.tasks[0];
    expect(await orderStatus(firstTask.orderId)).toBe('Picking');
    expect(await balance(hot, hotBin)).toEqual({ onHand: 16, allocated: 1 });
    expect(await balance(hot, toteOf(firstTask.orderId))).toEqual({ onHand: firstTask.quantity, allocated: firstTask.quantity });
    const ledger = await db().selectFrom('inventory_txn').select(['txn_type', sql<number>`sum(qty_change)`.as('qty')])
      .where('document_type', '=', 'PICK').where('document_id', '=', job.jobNumber).groupBy('txn_type').orderBy('txn_type').execute();
    expect(ledger.map((l) => [l.txn_type, Number(l.qty)])).toEqual([['pick_in', 4], ['pick_out', -4]]);
    const reserved = await db().selectFrom('stock_reservation as r').innerJoin('inventory_balance as bl', 'bl.id', 'r.balance_id')
      .select(['bl.location_id', 'r.quantity']).where('r.document_line', '=', String(firstTask.orderLineId)).where('r.quantity', '>', 0).execute();
    expect(reserved).toEqual([{ location_id: toteOf(firstTask.orderId), quantity: firstTask.quantity }]);

    // The rest of the job: the hot stop's last unit, then the cold stop.
    const second = await ok(await confirm(f.staff, job, after));
    expect(second.job).toMatchObject({ stopsDone: 1, pickedUnits: 5 });
    expect(second.orders).toEqual([{ orderId: b.orderId, soNumber: b.soNumber, status: 'Picked' }]);
    const cold1 = job.stops.find((s) => s.skuId === cold)!;
    expect(await orderStatus(b.orderId)).toBe('Picked');
    expect(await orderStatus(a.orderId)).toBe('Picking');
    const heard = await recordEvents(t.app);
    const last = await ok(await confirm(f.staff, job, cold1));
    expect(last.job.status).toBe('Done');
    const events0 = (await heard.until(4)).map((e) => [e.target, (e.payload as { subEvent: string; payload: { status: string } }).subEvent, (e.payload as { payload: { status: string } }).payload.status]);
    expect(events0).toEqual(expect.arrayContaining([
      ['ReceiveOrderData', 'PickOrder', 'Picked'], ['ReceiveWaveData', 'UpdateWave', 'Done'], ['ReceiveWaveData', 'UpdateJob', 'Done'],
    ]));
    expect(last.job.finishedAt).not.toBeNull();
    expect(await orderStatus(a.orderId)).toBe('Picked');
    expect(await waveStatus(waveId)).toBe('Done');
    const lines = await db().selectFrom('sales_order_line').select(['picked_qty', 'quantity']).where('order_id', 'in', [a.orderId, b.orderId]).execute();
    expect(lines.every((l) => Number(l.picked_qty) === Number(l.quantity))).toBe(true);
    expect(await balance(cold, coldBin)).toEqual({ onHand: 19, allocated: 0 });
    expect(await reconciled()).toBe(true);

    // A floor event per task moved, each with the seconds since the picker's previous event.
    const events = await db().selectFrom('floor_event').select(['kind', 'task_id', 'quantity', 'order_id', 'location_id', 'sku_id', 'seconds_since_previous', 'user_id'])
      .where('job_id', '=', job.jobId).orderBy('id').execute();
    expect(events.map((e) => [e.kind, Number(e.quantity)])).toEqual([['pick', hotStop.tasks[0].quantity], ['pick', 4 - hotStop.tasks[0].quantity], ['pick', 1], ['pick', 1]]);
    expect(events.every((e) => e.user_id === f.staffId)).toBe(true);
    expect(events.slice(2).every((e) => e.seconds_since_previous !== null && Number(e.seconds_since_previous) >= 0)).toBe(true);
    expect(events[0].location_id).toBe(hotBin);

    // Finished: no more picks, no undo.
    const again = await confirm(f.staff, job, cold1, { quantity: 1 });
    expect(again.statusCode).toBe(409);
    const undo = await f.staff.post(`${J}/UndoPick`, { jobId: job.jobId });
    expect(undo.statusCode, undo.body).toBe(409);
    expect(undo.json().message).toMatch(/cannot be undone/);
  });
});

describe('ShortPick', () => {
  it('picks what was found, releases the rest at the bin, makes one spot count of the bin, and allocates the line again elsewhere as a new stop at the end', async () => {
    const sku = await f.sku();
    const first = await bin(sku, 5, { aisle: '01' });
    const o = await f.order([{ skuId: sku, quantity: 4 }]);
    const elsewhere = await bin(sku, 10, { aisle: '09' });
    const { jobs: [job] } = await wave([o.orderId]);
    const stop = job.stops[0];
    expect(stop.locationId).toBe(first);
    const res = await ok(await f.staff.post(`${J}/ShortPick`, { jobId: job.jobId, stopSeq: stop.seq, locationCode: stop.locationCode, itemCode: stop.skuCode, foundQuantity: 1 }));
    expect(res.message).toMatch(/3 units short/);
    const shortStop = res.stops.find((s) => s.seq === stop.seq)!;
    expect(shortStop.tasks[0]).toMatchObject({ pickedQuantity: 1, shortQuantity: 3, status: 'Short' });
    const added = res.stops.at(-1)!;
    expect(res.stops).toHaveLength(2);
    expect(res.job).toMatchObject({ stopCount: 2, stopsDone: 1, units: 7, pickedUnits: 1, shortUnits: 3 });
    expect(res.lines).toEqual([{ orderLineId: shortStop.tasks[0].orderLineId, orderId: o.orderId, quantity: 4, allocatedQuantity: 4, pickedQuantity: 1 }]);
    expect(added.seq).toBeGreaterThan(stop.seq);
    expect(added).toMatchObject({ locationId: elsewhere, quantity: 3 });
    expect(await balance(sku, first)).toEqual({ onHand: 4, allocated: 0 });
    expect(await balance(sku, elsewhere)).toEqual({ onHand: 10, allocated: 3 });
    const line = await db().selectFrom('sales_order_line').select(['allocated_qty', 'picked_qty', 'short_reason']).where('order_id', '=', o.orderId).executeTakeFirstOrThrow();
    expect(line).toMatchObject({ allocated_qty: 4, picked_qty: 1, short_reason: null });
    const counts = await db().selectFrom('cycle_count').select(['count_no', 'count_type', 'status', 'location_from']).where('warehouse_id', '=', f.wh)
      .where('location_from', '=', stop.locationCode).execute();
    expect(counts).toEqual([expect.objectContaining({ count_type: 'spot', status: 'Open' })]);
    expect(res.message).toContain(counts[0].count_no);
    const shorts = await db().selectFrom('floor_event').select(['kind', 'quantity']).where('job_id', '=', job.jobId).where('kind', '=', 'short').execute();
    expect(shorts.map((e) => Number(e.quantity))).toEqual([3]);
    expect(await reconciled()).toBe(true);

    // The new stop is picked next and the job ends Short (a task was short), the order Picked.
    const done = await ok(await confirm(f.staff, job, added));
    expect(done.job.status).toBe('Short');
    expect(await orderStatus(o.orderId)).toBe('Picked');
    expect(await balance(sku, elsewhere)).toEqual({ onHand: 7, allocated: 0 });
    expect(await reconciled()).toBe(true);
  });

  it('with nothing free elsewhere, the line holds fewer units and says why; a second short at the same bin makes no second count', async () => {
    const sku = await f.sku();
    const loc = await bin(sku, 6);
    const a = await f.order([{ skuId: sku, quantity: 3 }]);
    const b = await f.order([{ skuId: sku, quantity: 3 }]);
    const { jobs: [ja] } = await wave([a.orderId]);
    const { jobs: [jb] } = await wave([b.orderId]);
    const short = (job: Job) => f.staff.post(`${J}/ShortPick`, { jobId: job.jobId, stopSeq: job.stops[0].seq, locationCode: job.stops[0].locationCode, foundQuantity: 0 });
    const ra = await ok(await short(ja));
    expect(ra.job.status).toBe('Short');
    expect(ra.stops).toHaveLength(1);
    expect(ra.job.stopCount).toBe(1);
    expect(await orderStatus(a.orderId)).toBe('Picked');
    const line = await db().selectFrom('sales_order_line').select(['allocated_qty', 'picked_qty', 'short_reason']).where('order_id', '=', a.orderId).executeTakeFirstOrThrow();
    // The only other units are in the bin now being counted: that is why.
    expect(line).toMatchObject({ allocated_qty: 0, picked_qty: 0, short_reason: 'held-by-count' });
    // The bin is being counted now: the second job's stop there can only be shorted (no pick leaves a counted bin).
    const rb = await ok(await short(jb));
    expect(rb.job.status).toBe('Short');
    const counts = await db().selectFrom('cycle_count').select('id').where('location_from', '=', ja.stops[0].locationCode).execute();
    expect(counts).toHaveLength(1);
    expect(await balance(sku, loc)).toEqual({ onHand: 6, allocated: 0 });
    expect(await reconciled()).toBe(true);
  });

  it('needs the item scanned when units were found (the contract says so: 400 naming itemCode), not when none were; nothing is written', async () => {
    const sku = await f.sku();
    await bin(sku, 5);
    const o = await f.order([{ skuId: sku, quantity: 3 }]);
    const { jobs: [job] } = await wave([o.orderId]);
    const stop = job.stops[0];
    const before = [await stockRows(), await floorRows()];
    const found = await f.staff.post(`${J}/ShortPick`, { jobId: job.jobId, stopSeq: stop.seq, locationCode: stop.locationCode, foundQuantity: 1 });
    expect(found.statusCode, found.body).toBe(400);
    expect(JSON.stringify(found.json().details)).toContain('itemCode');
    expect(found.json().message).toContain('Scan the item');
    const blank = await f.staff.post(`${J}/ShortPick`, { jobId: job.jobId, stopSeq: stop.seq, locationCode: stop.locationCode, itemCode: '  ', foundQuantity: 1 });
    expect(blank.statusCode, blank.body).toBe(400);
    expect([await stockRows(), await floorRows()]).toEqual(before);
    expect(await db().selectFrom('pick_task').select('status').where('job_id', '=', job.jobId).execute()).toEqual([{ status: 'Open' }]);
    const none = await ok(await f.staff.post(`${J}/ShortPick`, { jobId: job.jobId, stopSeq: stop.seq, locationCode: stop.locationCode, foundQuantity: 0 }));
    expect(none.job.shortUnits).toBe(3);
  });

  it('refuses a found quantity the stop needs in full (confirm instead) and a wrong location scan', async () => {
    const sku = await f.sku();
    await bin(sku, 5);
    const o = await f.order([{ skuId: sku, quantity: 2 }]);
    const { jobs: [job] } = await wave([o.orderId]);
    const stop = job.stops[0];
    const full = await f.staff.post(`${J}/ShortPick`, { jobId: job.jobId, stopSeq: stop.seq, locationCode: stop.locationCode, itemCode: stop.skuCode, foundQuantity: 2 });
    expect(full.statusCode).toBe(422);
    expect(full.json().details).toHaveProperty('foundQuantity');
    const wrong = await f.staff.post(`${J}/ShortPick`, { jobId: job.jobId, stopSeq: stop.seq, locationCode: 'NOT-HERE', foundQuantity: 0 });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().details).toHaveProperty('locationCode');
    expect(await db().selectFrom('pick_task').select('status').where('job_id', '=', job.jobId).execute()).toEqual([{ status: 'Open' }]);
  });
});

describe('UndoPick', () => {
  it('takes back the caller\'s picks one by one (tote → bin, reverse rows), the order back to Picking, an unpick event each; nothing left: 409', async () => {
    const sku = await f.sku();
    const loc = await bin(sku, 10);
    const o = await f.order([{ skuId: sku, quantity: 5 }]);
    const { jobs: [job] } = await wave([o.orderId]);
    const stop = job.stops[0];
    const tote = job.totes[0].toteLocationId!;
    await ok(await confirm(f.staff, job, stop, { quantity: 2 }));
    const whole = await ok(await confirm(f.staff, job, { ...stop, pickedQuantity: 2 }));
    // The job is Done: picks of a finished job are not undone.
    expect(whole.job.status).toBe('Done');
    expect((await f.staff.post(`${J}/UndoPick`, { jobId: job.jobId })).statusCode).toBe(409);

    const o2 = await f.order([{ skuId: sku, quantity: 3 }, { skuId: sku, quantity: 1 }]);
    const { jobs: [job2] } = await wave([o2.orderId]);
    const [s1] = job2.stops;
    const p1 = await ok(await confirm(f.staff, job2, s1, { quantity: 1 }));
    const p2 = await ok(await confirm(f.staff, job2, p1.stops[0], { quantity: 2 }));
    expect(p2.lastPick).toMatchObject({ quantity: 2 });
    const undo1 = await ok(await f.staff.post(`${J}/UndoPick`, { jobId: job2.jobId }));
    expect(undo1.message).toMatch(/2 units/);
    expect(undo1.lastPick).toMatchObject({ quantity: 1 });
    expect(undo1.stops[0].pickedQuantity).toBe(1);
    expect(undo1.job).toMatchObject({ status: 'In Progress', pickedUnits: 1 });
    // GetJob tells the picker the same: the one undo stack (platform/floor-events.ts).
    expect((await f.staff.get(`${J}/GetJob?jobId=${job2.jobId}`)).json().lastPick).toEqual(undo1.lastPick);
    const undo2 = await ok(await f.staff.post(`${J}/UndoPick`, { jobId: job2.jobId }));
    expect(undo2.lastPick).toBeNull();
    expect(undo2.stops[0].pickedQuantity).toBe(0);
    expect((await f.staff.post(`${J}/UndoPick`, { jobId: job2.jobId })).statusCode).toBe(409);
    const rev = await db().selectFrom('inventory_txn').select(sql<number>`sum(qty_change)`.as('q')).where('document_id', '=', job2.jobNumber)
      .where('txn_type', '=', 'reverse').where('location_id', '=', s1.locationId).executeTakeFirstOrThrow();
    expect(Number(rev.q)).toBe(3);
    expect(await balance(sku, job2.totes[0].toteLocationId!)).toEqual({ onHand: 0, allocated: 0 });
    expect(await balance(sku, tote)).toEqual({ onHand: 5, allocated: 5 });
    expect(await balance(sku, loc)).toEqual({ onHand: 5, allocated: 4 });
    const unpicks = await db().selectFrom('floor_event').select('quantity').where('job_id', '=', job2.jobId).where('kind', '=', 'unpick').orderBy('id').execute();
    expect(unpicks.map((e) => Number(e.quantity))).toEqual([2, 1]);
    expect(await reconciled()).toBe(true);
  });

  it('an order Picked goes back to Picking when one of its picks is undone in a job still running', async () => {
    const sku = await f.sku();
    const other = await f.sku();
    await bin(sku, 5, { aisle: '01' });
    await bin(other, 5, { aisle: '02' });
    const a = await f.order([{ skuId: sku, quantity: 1 }]);
    const b = await f.order([{ skuId: other, quantity: 1 }]);
    const { jobs: [job] } = await wave([a.orderId, b.orderId]);
    const stopA = job.stops.find((s) => s.skuId === sku)!;
    await ok(await confirm(f.staff, job, stopA));
    expect(await orderStatus(a.orderId)).toBe('Picked');
    await ok(await f.staff.post(`${J}/UndoPick`, { jobId: job.jobId }));
    expect(await orderStatus(a.orderId)).toBe('Picking');
    const history = await db().selectFrom('document_status_history').select(['from_status', 'to_status']).where('kind', '=', 'SALES_ORDER')
      .where('document_id', '=', a.orderId).orderBy('id').execute();
    expect(history.slice(-3)).toEqual([{ from_status: 'Released', to_status: 'Picking' }, { from_status: 'Picking', to_status: 'Picked' }, { from_status: 'Picked', to_status: 'Picking' }]);
    expect(await reconciled()).toBe(true);
  });
});

describe('many pickers at once', () => {
  it('16 pickers on 8 jobs of shared hot SKUs, two racing on each job: nothing picked twice, every pick has its event, the books balance', async () => {
    const hot = [await f.sku(), await f.sku(), await f.sku()];
    for (const [i, s] of hot.entries()) {
      await bin(s, 200, { aisle: String(i + 1).padStart(2, '0'), level: '1' });
      await bin(s, 200, { aisle: String(i + 1).padStart(2, '0'), level: '2' });
    }
    const orders = [];
    for (let i = 0; i < 16; i++) orders.push(await f.order(hot.map((s, k) => ({ skuId: s, quantity: 1 + ((i + k) % 4) * 7 }))));
    const { waveId, jobs } = await wave(orders.map((o) => o.orderId), { totesPerJob: 2 });
    expect(jobs).toHaveLength(8);
    const pickers: { caller: Caller; id: number }[] = [];
    for (let i = 0; i < 16; i++) {
      const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [f.wh], customerIds: [f.cust], modules: { BatchJob: 'write' } });
      pickers.push({ caller: as(t.app, await login(t.app, u.username, u.password)), id: u.id });
    }
    const answers: number[] = [];
    // Each picker works its job's stops as fast as it can, confirming each stop's whole remainder twice at once
    // (a double scan): two pickers race for each job, and each stop's two confirms race each other.
    await Promise.all(pickers.map(async (p, i) => {
      const job = jobs[i % 8];
      for (const stop of job.stops) {
        for (const res of await Promise.all([confirm(p.caller, job, stop), confirm(p.caller, job, stop)])) answers.push(res.statusCode);
      }
    }));
    expect(answers.filter((s) => s >= 500)).toEqual([]);
    expect(answers.every((s) => s === 200 || s === 409 || s === 422)).toBe(true);
    const tasks = await db().selectFrom('pick_task').select(['id', 'quantity', 'picked_qty', 'status']).where('job_id', 'in', jobs.map((j) => j.jobId)).execute();
    expect(tasks.every((x) => Number(x.picked_qty) === Number(x.quantity) && x.status === 'Picked')).toBe(true);
    const events = await db().selectFrom('floor_event').select(['task_id', sql<number>`sum(quantity)`.as('q')]).where('kind', '=', 'pick')
      .where('job_id', 'in', jobs.map((j) => j.jobId)).groupBy('task_id').execute();
    const picked = new Map(events.map((e) => [Number(e.task_id), Number(e.q)]));
    expect(tasks.every((x) => picked.get(x.id) === Number(x.quantity))).toBe(true);
    const owners = await db().selectFrom('pick_job').select(['assigned_to', 'status']).where('id', 'in', jobs.map((j) => j.jobId)).execute();
    expect(owners.every((j) => j.status === 'Done' && j.assigned_to !== null)).toBe(true);
    expect(await waveStatus(waveId)).toBe('Done');
    for (const o of orders) expect(await orderStatus(o.orderId)).toBe('Picked');
    expect(await reconciled()).toBe(true);
  });
});
