import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { buildTestApp, ledgerBalanced, recordEvents, type TestApp } from '../../../test/helpers.js';
import { floor, type Floor } from '../../../test/support/floor-fixtures.js';
import type { DeliveredEvent } from '../../platform/events.js';

let t: TestApp;
const B = '/Warehouse/BatchAllocation';
const db = () => t.database.db;
const apps: FastifyInstance[] = [];

/** Another app on the test's database: a restarted process. */
async function anotherApp(): Promise<FastifyInstance> {
  const app = await buildApp({ ...t.config, databaseUrl: process.env.TEST_DATABASE_URL }, { database: t.database, logger: false });
  await app.ready();
  apps.push(app);
  return app;
}

const jobRow = (id: number) => db().selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
async function finished(id: number, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const row = await jobRow(id);
    if (['succeeded', 'failed'].includes(row.status)) return row;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${row.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Orders in every state batch allocation sees, in a floor of their own. */
async function mixed(f: Floor) {
  const whole = await f.sku();
  await f.put(whole, await f.place({ zone: 'PZ', aisle: '01', rack: '01' }), 5);
  const some = await f.sku();
  await f.put(some, await f.place({ zone: 'QZ', aisle: '01', rack: '02' }), 2);
  const none = await f.sku();
  const strictSku = await f.sku(f.strict);
  await f.put(strictSku, await f.place({ zone: 'QZ' }), 1, { customerId: f.strict });
  return { whole, some, none, strictSku };
}

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  for (const app of apps) { await app.services.events.stop(); await app.close(); }
  await t?.close();
});

describe('PreviewRule', () => {
  it('counts the matched orders, lines and units by status, with a sample in urgency order; each criterion narrows it', async () => {
    const f = await floor(t);
    const s = await mixed(f);
    const fresh = await f.order([{ skuId: s.none, quantity: 4 }], { allocate: false, priority: 3 });
    const allocated = await f.order([{ skuId: s.whole, quantity: 1 }, { skuId: s.whole, quantity: 2 }], { priority: 1, requestedShipDate: '2030-05-01' });
    const waiting = await f.order([{ skuId: s.none, quantity: 6 }], { priority: 5 });
    const partial = await f.order([{ skuId: s.strictSku, quantity: 3 }], { customerId: f.strict, priority: 5, requestedShipDate: '2030-04-01' });
    const released = await f.order([{ skuId: s.whole, quantity: 1 }]);
    expect((await f.staff.post('/Warehouse/Wave/CreateWave', { warehouseId: f.wh, orderIds: [released.orderId], strategy: 'discrete' })).statusCode).toBe(200);

    const preview = async (criteria: Record<string, unknown>) => {
      const res = await f.staff.post(`${B}/PreviewRule`, { warehouseId: f.wh, ...criteria });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const all = await preview({});
    expect(all).toMatchObject({ orders: 4, lines: 5, units: 4 + 3 + 6 + 3 });
    expect(Object.fromEntries(all.byStatus.map((s: { status: string; count: number }) => [s.status, s.count])))
      .toEqual({ New: 1, Allocated: 1, 'Partially Allocated': 1, Backordered: 1 });
    // Priority 1, then priority 3, then priority 5 by ship date (none last).
    expect(all.sample.map((o: { orderId: number }) => o.orderId)).toEqual([allocated.orderId, fresh.orderId, partial.orderId, waiting.orderId]);
    expect(all.sample[0]).toMatchObject({ soNumber: allocated.soNumber, status: 'Allocated', lineCount: 2, units: 3, priority: 1, requestedShipDate: '2030-05-01' });

    expect((await preview({ lineShape: 'multi-line' })).orders).toBe(1);
    expect((await preview({ lineShape: 'single-line' })).orders).toBe(3);
    expect((await preview({ customerId: f.strict })).sample.map((o: { orderId: number }) => o.orderId)).toEqual([partial.orderId]);
    expect((await preview({ zone: 'pz' })).sample.map((o: { orderId: number }) => o.orderId)).toEqual([allocated.orderId]);
    expect((await preview({ priorityTo: 3 })).orders).toBe(2);
    expect((await preview({ shipDateTo: '2030-04-15' })).orders).toBe(3);
    expect((await preview({ maxOrders: 2 })).orders).toBe(2);
    expect((await f.client.post(`${B}/PreviewRule`, { warehouseId: f.wh })).statusCode).toBe(403);
    expect((await f.staff.post(`${B}/PreviewRule`, { warehouseId: f.otherWh })).statusCode).toBe(403);
    expect((await f.staff.post(`${B}/PreviewRule`, { warehouseId: f.wh, lineShape: 'triangle' })).statusCode).toBe(400);
  });
});

describe('saved rules', () => {
  it('saves, lists, renames, refuses a name used in the warehouse (409), deletes; RunBatchAllocation with the rule sets its last run', async () => {
    const f = await floor(t);
    const save = (body: Record<string, unknown>) => f.staff.post(`${B}/SaveRule`, body);
    const first = await save({ name: 'Rush', criteria: { warehouseId: f.wh, priorityTo: 1 } });
    expect(first.statusCode, first.body).toBe(200);
    const rule = first.json().data;
    expect(rule).toMatchObject({ name: 'Rush', criteria: { warehouseId: f.wh, priorityTo: 1, lineShape: 'any' }, lastRunAt: null });
    expect((await save({ name: 'Singles', criteria: { warehouseId: f.wh, lineShape: 'single-line' } })).statusCode).toBe(200);
    const dup = await save({ name: 'rush', criteria: { warehouseId: f.wh } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().details).toHaveProperty('name');
    expect((await save({ ruleId: rule.ruleId, name: 'Singles', criteria: { warehouseId: f.wh } })).statusCode).toBe(409);
    expect((await save({ ruleId: rule.ruleId, name: 'Rush today', criteria: { warehouseId: f.wh, priorityTo: 2 } })).json().data).toMatchObject({ name: 'Rush today' });
    expect((await save({ name: '', criteria: { warehouseId: f.wh } })).statusCode).toBe(400);
    const list = (await f.staff.post(`${B}/GetRules`, { filters: { warehouseId: f.wh } })).json();
    expect(list.items.map((r: { name: string }) => r.name)).toEqual(['Rush today', 'Singles']);

    const s = await f.sku();
    await f.order([{ skuId: s, quantity: 1 }], { allocate: false, priority: 1 });
    const run = await f.staff.post(`${B}/RunBatchAllocation`, { criteria: { warehouseId: f.wh, priorityTo: 2 }, ruleId: rule.ruleId });
    expect(run.statusCode, run.body).toBe(202);
    const after = (await f.staff.post(`${B}/GetRules`, { filters: { warehouseId: f.wh } })).json().items.find((r: { ruleId: number }) => r.ruleId === rule.ruleId);
    expect(after.lastRunAt).not.toBeNull();
    // Not run here: the job is cancelled so the restart test's worker does not take it.
    await t.app.services.jobs.cancel(run.json().data.jobId);

    expect((await f.staff.post(`${B}/DeleteRule`, { ruleId: rule.ruleId })).statusCode).toBe(200);
    expect((await f.staff.post(`${B}/DeleteRule`, { ruleId: rule.ruleId })).statusCode).toBe(404);
    const audit = await db().selectFrom('audit_log').select('action').where('entity', '=', 'batch_rule').where('entity_id', '=', String(rule.ruleId)).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
  });
});

describe('RunBatchAllocation', () => {
  it('allocates the matched orders one by one as a job: progress over the hub, then the summary (fully, partially, not allocated, refused, why)', async () => {
    const f = await floor(t);
    const s = await mixed(f);
    const whole = await f.order([{ skuId: s.whole, quantity: 2 }], { allocate: false });
    const some = await f.order([{ skuId: s.some, quantity: 5 }], { allocate: false });
    const none = await f.order([{ skuId: s.none, quantity: 1 }], { allocate: false });
    const strict = await f.order([{ skuId: s.strictSku, quantity: 3 }], { customerId: f.strict, allocate: false });
    const held = await f.order([{ skuId: s.whole, quantity: 1 }], { allocate: false });
    const res = await f.staff.post(`${B}/RunBatchAllocation`, { criteria: { warehouseId: f.wh } });
    expect(res.statusCode, res.body).toBe(202);
    const job = res.json().data;
    expect(job).toMatchObject({ name: 'batch-allocation.run', status: 'queued' });
    // Held after the job was queued: refused when its turn comes.
    expect((await f.staff.post('/Warehouse/Order/HoldOrder', { orderId: held.orderId })).statusCode).toBe(200);

    const events = await recordEvents(t.app);
    await t.app.services.jobs.start({ pollMs: 10, lockMs: 5000, concurrency: 1 });
    const done = await finished(job.jobId);
    await t.app.services.jobs.stop();
    expect(done.status, done.error ?? '').toBe('succeeded');
    const summary = JSON.parse(done.result_json!);
    expect(summary).toMatchObject({ orders: 5, fully: 1, partially: 2, notAllocated: 1, refused: 1, shortLinesByReason: { 'no-stock': 3 } });
    const why = Object.fromEntries(summary.notFully.map((o: { orderId: number; status: string; reason: string }) => [o.orderId, `${o.status}: ${o.reason}`]));
    expect(why[some.orderId]).toBe('Backordered: 1 line short: no-stock (1)');
    expect(why[none.orderId]).toBe('Backordered: 1 line short: no-stock (1)');
    expect(why[strict.orderId]).toBe('Partially Allocated: 1 line short: no-stock (1)');
    expect(why[held.orderId]).toMatch(/^On Hold: Order SO-\d+ is On Hold/);
    expect(why[whole.orderId]).toBeUndefined();
    expect(await f.status(whole.orderId)).toBe('Allocated');

    // Each allocation raises its order's events too, and the saved-rule test's queued job runs first on this worker:
    // wait for this job's own last event, not for a number of events or any job's.
    const ended = (e: DeliveredEvent) => {
      const p = e.payload as { subEvent: string; payload: { jobId: number } };
      return p.subEvent === 'JobSucceeded' && p.payload.jobId === job.jobId;
    };
    const heard = await events.until((seen) => seen.some(ended), 10_000);
    const progress = heard.filter((e) => e.target === 'ReceiveJobData' && (e.payload as { subEvent: string }).subEvent === 'JobProgress')
      .map((e) => (e.payload as { payload: { jobId: number; progress: { done: number; total: number } } }).payload)
      .filter((p) => p.jobId === job.jobId).map((p) => p.progress);
    expect(progress[0]).toMatchObject({ done: 0, total: 5 });
    expect(progress.at(-1)).toMatchObject({ done: 5, total: 5, percent: 100 });
    expect(heard.some(ended)).toBe(true);
    expect(await ledgerBalanced(t, f.wh)).toBe(true);

    const nothing = await f.staff.post(`${B}/RunBatchAllocation`, { criteria: { warehouseId: f.wh, lineShape: 'multi-line' } });
    expect(nothing.statusCode).toBe(422);
    expect((await f.client.post(`${B}/RunBatchAllocation`, { criteria: { warehouseId: f.wh } })).statusCode).toBe(403);
  });

  it('survives a restart: a job whose worker died mid-way is taken up by the next process and ends with the right summary', async () => {
    const f = await floor(t);
    const s = await mixed(f);
    const first = await f.order([{ skuId: s.whole, quantity: 1 }], { allocate: false });
    const second = await f.order([{ skuId: s.whole, quantity: 1 }], { allocate: false });
    const short = await f.order([{ skuId: s.some, quantity: 9 }], { allocate: false });
    const res = await f.staff.post(`${B}/RunBatchAllocation`, { criteria: { warehouseId: f.wh } });
    const jobId = res.json().data.jobId as number;

    // Other queued work (backorder filling after the test's stock arrived) waits, so the claim below takes this job.
    await db().updateTable('job').set({ run_after: '2100-01-01T00:00:00.000Z' }).where('status', '=', 'queued').where('id', '<>', jobId).execute();
    // A process takes the job (a short lock), allocates the first order, and dies without a word.
    const dying = await anotherApp();
    expect((await dying.services.jobs.claim(150))?.id).toBe(jobId);
    expect((await f.staff.post('/Warehouse/Order/AllocateOrders', { orderIds: [first.orderId] })).json().done).toHaveLength(1);
    await dying.services.events.stop();
    await dying.close();

    const next = await anotherApp();
    await next.services.jobs.start({ pollMs: 10, lockMs: 2000, concurrency: 1 });
    const done = await finished(jobId);
    await next.services.jobs.stop();
    expect(done).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(JSON.parse(done.result_json!)).toMatchObject({ orders: 3, fully: 2, partially: 1, notAllocated: 0, refused: 0 });
    expect([await f.status(first.orderId), await f.status(second.orderId), await f.status(short.orderId)]).toEqual(['Allocated', 'Allocated', 'Backordered']);
    // Nothing allocated twice: reservations equal the orders' allocated lines.
    const reserved = await db().selectFrom('stock_reservation').select(db().fn.sum<number>('quantity').as('q')).where('sku_id', '=', s.whole).executeTakeFirstOrThrow();
    expect(Number(reserved.q)).toBe(2);
    expect(await ledgerBalanced(t, f.wh)).toBe(true);
  });
});
