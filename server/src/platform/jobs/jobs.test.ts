import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { openDatabase, type Database } from '../../db/database.js';
import { EventBus } from '../events.js';
import { unprocessable } from '../errors.js';
import { mayReceive } from '../hub/routing.js';
import { hubAudiences } from '../../plugins/hub.js';
import { WarehouseTimeZones } from '../business-day.js';
import { exactlyOnce, Jobs, Schedules, type JobHandler } from './index.js';
import { inTransaction } from '../unit-of-work.js';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeUser, makeWarehouse, multipartBody, type TestApp } from '../../../test/helpers.js';

// Issue 11, item 5: background jobs and schedules, on the engine the run uses.

const url = process.env.TEST_DATABASE_URL;
const quiet = { warn: () => {}, error: () => {} };
const FAST = { pollMs: 10, lockMs: 2000, concurrency: 2 };

let t: TestApp;
const apps: FastifyInstance[] = [];
const extraDatabases: Database[] = [];

/** Another app (a restarted process, or another node) on the test's database. */
async function anotherApp(): Promise<FastifyInstance> {
  const app = await buildApp({ ...t.config, databaseUrl: url }, { database: t.database, logger: false });
  await app.ready();
  apps.push(app);
  return app;
}

/** A second connection pool on the same database and schema, as another server node has (PostgreSQL). */
function anotherPool(): Database {
  const d = openDatabase({ databaseUrl: url, dataDir: t.config.dataDir, pgSchema: t.database.pgSchema, poolSize: 5 });
  extraDatabases.push(d);
  return d;
}

async function until<T>(what: () => Promise<T | undefined | null | false>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const jobRow = (id: number) => t.database.db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const finished = (id: number) => until(async () => { const r = await jobRow(id); return ['succeeded', 'failed'].includes(r.status) && r; });

const echo = (runs: number[]): JobHandler<{ n: number }> => ({
  payload: z.object({ n: z.number() }),
  run: async (p, ctx) => { runs.push(ctx.jobId); return { doubled: p.n * 2 }; },
});

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  for (const app of apps) { await app.services.events.stop(); await app.close(); }
  for (const d of extraDatabases) await d.close();
  await t?.close();
});

describe('jobs', () => {
  it('a queued job survives a restart: queued, app closed, a new app runs it', async () => {
    const first = await anotherApp();
    first.services.jobs.register('test.restart', echo([]));
    const job = await first.services.jobs.enqueue(t.database.db, 'test.restart', { n: 21 });
    expect(job.status).toBe('queued');
    await first.close();

    const runs: number[] = [];
    const second = await anotherApp();
    second.services.jobs.register('test.restart', echo(runs));
    await second.services.jobs.start(FAST);
    const done = await finished(job.jobId);
    expect(done.status).toBe('succeeded');
    expect(JSON.parse(done.result_json!)).toEqual({ doubled: 42 });
    expect(runs).toEqual([job.jobId]);
    await second.close();
  });

  it('a killed worker’s job (its lock run out) is taken up again exactly once, the attempt counted', async () => {
    const killed = await anotherApp();
    killed.services.jobs.register('test.killed', echo([]));
    const job = await killed.services.jobs.enqueue(t.database.db, 'test.killed', { n: 1 });
    // The worker claims it (a short lock) and dies: it never renews, never finishes.
    const claimed = await killed.services.jobs.claim(150);
    expect(claimed?.id).toBe(job.jobId);
    await killed.close();

    const runs: number[] = [];
    const other = await anotherApp();
    other.services.jobs.register('test.killed', echo(runs));
    await other.services.jobs.start(FAST);
    const done = await finished(job.jobId);
    await new Promise((r) => setTimeout(r, 300)); // time for a wrong second run to show
    expect(runs).toEqual([job.jobId]);
    expect(done).toMatchObject({ status: 'succeeded', attempts: 2, lock_owner: null });
    await other.close();
  });

  it('a running job’s lock is renewed: a job outlasting its lock is not taken by another node', async () => {
    const runs: string[] = [];
    const slow = (node: string): JobHandler<object> => ({
      payload: z.object({}),
      // Three lock lengths long; the lock is long enough that a loaded CI machine's event-loop stalls do not outlast it.
      run: async () => { runs.push(node); await new Promise((r) => setTimeout(r, 1800)); return null; },
    });
    const [a, b] = [await anotherApp(), await anotherApp()];
    a.services.jobs.register('test.slow', slow('a'));
    b.services.jobs.register('test.slow', slow('b'));
    const job = await a.services.jobs.enqueue(t.database.db, 'test.slow', {});
    await a.services.jobs.start({ pollMs: 10, lockMs: 600, concurrency: 1 });
    await until(async () => runs.length === 1);
    await b.services.jobs.start({ pollMs: 10, lockMs: 600, concurrency: 1 });
    expect(await finished(job.jobId)).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(runs).toEqual(['a']);
    await a.close();
    await b.close();
  });

  it('a killed worker’s job on its last attempt fails rather than run again', async () => {
    const app = await anotherApp();
    const runs: number[] = [];
    app.services.jobs.register('test.last', echo(runs));
    const job = await app.services.jobs.enqueue(t.database.db, 'test.last', { n: 1 }, { maxAttempts: 1 });
    await app.services.jobs.claim(50);
    await app.services.jobs.start(FAST);
    const done = await finished(job.jobId);
    expect(runs).toEqual([]);
    expect(done).toMatchObject({ status: 'failed', attempts: 1 });
    await app.close();
  });

  it('retries a failure with a doubling wait up to its attempts; a refusal (4xx) fails at once with its details', async () => {
    const app = await anotherApp();
    const tries: number[] = [];
    app.services.jobs.register('test.flaky', {
      payload: z.object({ failTimes: z.number() }),
      run: async (p, ctx) => {
        tries.push(Date.now());
        if (ctx.attempt <= p.failTimes) throw new Error(`boom ${ctx.attempt}`);
        return 'ok';
      },
    });
    app.services.jobs.register('test.refused', {
      payload: z.object({}),
      run: async () => { throw unprocessable('1 row has errors; nothing was uploaded', { 'Row 2': 'Bad' }); },
    });
    const recovers = await app.services.jobs.enqueue(t.database.db, 'test.flaky', { failTimes: 2 }, { maxAttempts: 3, backoffMs: 100 });
    const exhausts = await app.services.jobs.enqueue(t.database.db, 'test.flaky', { failTimes: 9 }, { maxAttempts: 2, backoffMs: 10 });
    const refused = await app.services.jobs.enqueue(t.database.db, 'test.refused', {}, { maxAttempts: 3 });
    await app.services.jobs.start(FAST);

    expect(await finished(refused.jobId)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(JSON.parse((await jobRow(refused.jobId)).error!)).toEqual({ status: 422, message: '1 row has errors; nothing was uploaded', details: { 'Row 2': 'Bad' } });
    expect(await finished(exhausts.jobId)).toMatchObject({ status: 'failed', attempts: 2 });
    expect(JSON.parse((await jobRow(exhausts.jobId)).error!)).toMatchObject({ status: 500, message: 'boom 2' });
    const ok = await finished(recovers.jobId);
    expect(ok).toMatchObject({ status: 'succeeded', attempts: 3, result_json: '"ok"' });
    await app.close();
  });

  it('work done once stays done: a job taken up again after its work committed returns that answer, not a second run', async () => {
    const app = await anotherApp();
    app.services.jobs.register('test.once', {
      payload: z.object({ tag: z.string() }),
      run: async (p, ctx) => {
        const answer = await exactlyOnce(t.database, { id: ctx.jobId, name: 'test.once', ownerUserId: null }, () =>
          inTransaction(t.database.db, async ({ tx }) => {
            await tx.insertInto('audit_log').values({ at: new Date().toISOString(), action: 'once', entity: p.tag } as never).execute();
            return { posted: p.tag };
          }));
        // The worker "dies" between the work's commit and recording the job's success, on the first attempt.
        if (ctx.attempt === 1) throw new Error('worker died');
        return answer;
      },
    });
    const job = await app.services.jobs.enqueue(t.database.db, 'test.once', { tag: 'once-tag' }, { backoffMs: 10 });
    await app.services.jobs.start(FAST);
    expect(await finished(job.jobId)).toMatchObject({ status: 'succeeded', attempts: 2, result_json: '{"posted":"once-tag"}' });
    const rows = await t.database.db.selectFrom('audit_log').select('id').where('action', '=', 'once').where('entity', '=', 'once-tag').execute();
    expect(rows).toHaveLength(1);
    await app.close();
  });

  it('a queued job can be cancelled by its owner (its handler tidies up); not by another user, not once it ran', async () => {
    const app = await anotherApp();
    const runs: number[] = [];
    const tidied: string[] = [];
    app.services.jobs.register('test.cancel', { ...echo(runs), onCancel: async (p) => { tidied.push(`n=${p.n}`); } });
    const w = await makeWarehouse(t.database);
    const [mine, other] = [await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [w] }), await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [w] })];
    const job = await app.services.jobs.enqueue(t.database.db, 'test.cancel', { n: 3 }, { ownerUserId: mine.id, warehouseId: w });
    const later = await app.services.jobs.enqueue(t.database.db, 'test.cancel', { n: 4 }, { ownerUserId: mine.id, warehouseId: w });
    const owner = as(app, await login(app, mine.username, mine.password));
    const stranger = as(app, await login(app, other.username, other.password));

    expect((await stranger.post('/Common/Job/CancelJob', { jobId: job.jobId })).statusCode).toBe(404);
    const cancelled = await owner.post('/Common/Job/CancelJob', { jobId: job.jobId });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ message: 'Job cancelled', data: { jobId: job.jobId, status: 'cancelled' } });
    expect(tidied).toEqual(['n=3']);
    expect((await owner.post('/Common/Job/CancelJob', { jobId: job.jobId })).statusCode).toBe(409);

    await app.services.jobs.start(FAST);
    await finished(later.jobId);
    expect(runs).toEqual([later.jobId]); // the cancelled one never ran
    const ran = await owner.post('/Common/Job/CancelJob', { jobId: later.jobId });
    expect(ran.statusCode).toBe(409);
    expect(ran.json().message).toBe('This job has already started or ended; it can no longer be cancelled');
    await app.close();
  });

  it('start-up fails, naming it, when a queued job’s name has no handler', async () => {
    await t.database.db.insertInto('job').values({ name: 'no.such.job', payload_json: '{}' } as never).execute();
    const app = await anotherApp();
    await expect(app.services.jobs.start(FAST)).rejects.toThrow('Queued jobs have no handler: no.such.job (register it, or cancel those jobs)');
    await t.database.db.updateTable('job').set({ status: 'cancelled' }).where('name', '=', 'no.such.job').execute();
    await app.services.jobs.start(FAST); // cancelled, it no longer blocks
    await app.close();
  });

  it.skipIf(!url)('two nodes (two pools on one schema, PostgreSQL) never run one job twice over many jobs', async () => {
    const runs = new Map<number, string[]>();
    const handler = (node: string): JobHandler<{ i: number }> => ({
      payload: z.object({ i: z.number() }),
      run: async (_p, ctx) => {
        runs.set(ctx.jobId, [...(runs.get(ctx.jobId) ?? []), node]);
        await new Promise((r) => setTimeout(r, Math.random() * 5));
        return null;
      },
    });
    const nodes = [anotherPool(), anotherPool()].map((d, i) => {
      const jobs = new Jobs({ db: d.db, dialect: d.dialect, events: new EventBus(d), log: quiet });
      jobs.register('test.many', handler(`node${i}`));
      return jobs;
    });
    const ids: number[] = [];
    for (let i = 0; i < 120; i++) ids.push((await nodes[i % 2].enqueue(t.database.db, 'test.many', { i })).jobId);
    await Promise.all(nodes.map((n) => n.start({ pollMs: 5, lockMs: 5000, concurrency: 4 })));
    await until(async () => {
      const open = await t.database.db.selectFrom('job').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('name', '=', 'test.many').where('status', '!=', 'succeeded').executeTakeFirstOrThrow();
      return Number(open.n) === 0;
    }, 30_000);
    await Promise.all(nodes.map((n) => n.stop()));
    expect([...runs.keys()].sort((a, b) => a - b)).toEqual(ids);
    expect([...runs.values()].filter((r) => r.length !== 1)).toEqual([]);
    const attempts = await t.database.db.selectFrom('job').select('attempts').distinct().where('name', '=', 'test.many').execute();
    expect(attempts.map((r) => r.attempts)).toEqual([1]);
    expect(new Set([...runs.values()].flat()).size).toBe(2); // both nodes took work
  });
});

describe('schedules', () => {
  it('fire once per slot with three workers racing, in the warehouse’s time zone; the last and next run are kept', async () => {
    const warehouseId = await makeWarehouse(t.database);
    await t.database.db.updateTable('warehouse').set({ timezone: 'America/Los_Angeles' }).where('id', '=', warehouseId).execute();
    const nodes = (url ? [anotherPool(), anotherPool(), anotherPool()] : [t.database, t.database, t.database]).map((d) => {
      const jobs = new Jobs({ db: d.db, dialect: d.dialect, events: new EventBus(d), log: quiet });
      jobs.register('test.nightly', { payload: z.object({ slot: z.string() }), run: async () => null });
      const schedules = new Schedules({ db: d.db, jobs, timeZones: new WarehouseTimeZones(d.db), log: quiet });
      schedules.register({ name: 'test.nightly', cron: '0 2 * * *', job: 'test.nightly', warehouseId, payload: (slot) => ({ slot }) });
      return schedules;
    });
    const day = 86_400_000;
    const start = Date.parse('2026-11-20T12:00:00Z');
    // First seen: no earlier slot fires.
    expect((await Promise.all(nodes.map((n) => n.tick(start)))).reduce((a, b) => a + b)).toBe(0);
    for (let d = 1; d <= 4; d++) {
      const now = start + d * day + Math.floor(Math.random() * 3600_000);
      // Ticked twice by each node within the slot: still one run.
      const fired = await Promise.all([...nodes, ...nodes].map((n) => n.tick(now)));
      expect(fired.reduce((a, b) => a + b)).toBe(1);
    }
    const queued = await t.database.db.selectFrom('job').select(['payload_json', 'warehouse_id']).where('name', '=', 'test.nightly').orderBy('id').execute();
    // 02:00 in Los Angeles (PST) is 10:00Z.
    expect(queued.map((j) => JSON.parse(j.payload_json).slot)).toEqual(['2026-11-21T10:00:00.000Z', '2026-11-22T10:00:00.000Z', '2026-11-23T10:00:00.000Z', '2026-11-24T10:00:00.000Z']);
    expect(new Set(queued.map((j) => j.warehouse_id))).toEqual(new Set([warehouseId]));
    const schedule = await t.database.db.selectFrom('job_schedule').selectAll().where('name', '=', 'test.nightly').executeTakeFirstOrThrow();
    expect(schedule).toMatchObject({ last_slot_at: '2026-11-24T10:00:00.000Z', next_slot_at: '2026-11-25T10:00:00.000Z', time_zone: 'America/Los_Angeles' });
    // This build has no such handler: left queued, they would (rightly) stop the next app from starting.
    await t.database.db.updateTable('job').set({ status: 'cancelled' }).where('name', '=', 'test.nightly').execute();
  });
});

describe('housekeeping', () => {
  it('the nightly schedule removes finished jobs past their keeping time, and keeps recent and open ones', async () => {
    const app = await anotherApp();
    const day = 86_400_000;
    const finishedAgo = (days: number, status: string) => t.database.db.insertInto('job')
      .values({ name: 'test.old', payload_json: '{}', status, finished_at: new Date(Date.now() - days * day).toISOString() } as never)
      .returning('id').executeTakeFirstOrThrow().then((r) => r.id);
    const [old, oldFailed, recent, open] = [await finishedAgo(40, 'succeeded'), await finishedAgo(45, 'failed'), await finishedAgo(5, 'succeeded'), await finishedAgo(60, 'cancelled')];
    // One with no finished time (cancelled before it began, as a row from before finished_at was kept): left alone.
    await t.database.db.updateTable('job').set({ finished_at: null }).where('id', '=', open).execute();
    const now = Date.now();
    expect(await app.services.schedules.tick(now)).toBe(0); // first seen
    // Housekeeping and any other daily schedule the modules register (billing snapshots, RMA expiry) come due.
    expect(await app.services.schedules.tick(now + day)).toBeGreaterThanOrEqual(1);
    await app.services.jobs.start(FAST);
    const job = await until(() => t.database.db.selectFrom('job').selectAll().where('name', '=', 'platform.housekeeping').where('status', '=', 'succeeded').executeTakeFirst());
    expect(JSON.parse(job.result_json!)).toMatchObject({ jobs: 2 });
    const left = await t.database.db.selectFrom('job').select('id').where('id', 'in', [old, oldFailed, recent, open]).orderBy('id').execute();
    expect(left.map((r) => r.id)).toEqual([recent, open]);
    await app.close();
  });
});

describe('uploads as jobs, and who hears them', () => {
  let w1: number, c1: number;
  let owner: { id: number; username: string; password: string };
  let neighbour: { id: number; username: string; password: string };
  let app: FastifyInstance;

  beforeAll(async () => {
    // Every upload above 10 bytes goes to the background.
    app = await buildApp({ ...t.config, databaseUrl: url, backgroundUploadBytes: 10 }, { database: t.database, logger: false });
    await app.ready();
    await app.services.events.start(); // on PostgreSQL, committed events come back through LISTEN
    apps.push(app);
    w1 = await makeWarehouse(t.database);
    c1 = await makeCustomer(t.database, [w1]);
    const modules = { LocationUpload: 'write' as const, Location: 'read' as const };
    owner = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [w1], customerIds: [c1], modules });
    neighbour = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [w1], customerIds: [c1], modules });
  });

  const uploadLocations = (token: string, csv: string) => {
    const body = multipartBody({ warehouseId: w1 }, { name: 'big-locations.csv', bytes: Buffer.from(csv), type: 'text/csv' });
    return as(app, token).post('/warehouse/Location/UploadLocations', body.payload, body.headers);
  };

  it('a large upload answers 202 with its job; the job runs the upload as its owner, whose status call reads the result', async () => {
    const session = await login(app, owner.username, owner.password);
    const res = await uploadLocations(session.accesstoken, 'Location Code,Location Type,Capacity\nJOB-01,rack,10\nJOB-02,shelf,5\n');
    expect(res.statusCode).toBe(202);
    const { jobId } = res.json().data;
    expect(res.json()).toEqual({ message: 'big-locations.csv is being processed', data: { jobId, status: 'queued' } });
    expect(await t.database.db.selectFrom('location').select('code').where('code', 'like', 'JOB-%').execute()).toEqual([]);

    await app.services.jobs.start(FAST);
    await finished(jobId);
    const status = await as(app, session.accesstoken).get(`/Common/Job/GetJob?jobId=${jobId}`);
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({
      jobId, name: 'upload.locations', status: 'succeeded', ownerUserId: owner.id, warehouseId: w1, attempts: 1,
      progress: { percent: 100 }, result: { message: '2 locations uploaded successfully', data: { count: 2, fileName: 'big-locations.csv' } }, error: null,
    });
    const codes = await t.database.db.selectFrom('location').select('code').where('warehouse_id', '=', w1).where('code', 'like', 'JOB-%').orderBy('code').execute();
    expect(codes.map((r) => r.code)).toEqual(['JOB-01', 'JOB-02']);
    // The kept file went with the work; the upload was audited as the owner.
    expect(await t.database.db.selectFrom('stored_file').select('id').where('file_name', '=', 'big-locations.csv').execute()).toEqual([]);
    const audit = await t.database.db.selectFrom('audit_log').select('user_id').where('action', '=', 'upload').where('entity', '=', 'location').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit.user_id).toBe(owner.id);

    // Another user of the same warehouse does not learn of it; an administrator may read it.
    const other = await login(app, neighbour.username, neighbour.password);
    expect((await as(app, other.accesstoken).get(`/Common/Job/GetJob?jobId=${jobId}`)).statusCode).toBe(404);
    const admin = await login(app, ADMIN.username, ADMIN.password);
    expect((await as(app, admin.accesstoken).get(`/Common/Job/GetJob?jobId=${jobId}`)).json().status).toBe('succeeded');
  });

  it('an upload job taken up again after its work committed (its success not recorded) answers the same and writes nothing twice', async () => {
    const session = await login(app, owner.username, owner.password);
    const res = await uploadLocations(session.accesstoken, 'Location Code,Location Type,Capacity\nJOB-TWICE-1,rack,10\n');
    const { jobId } = res.json().data;
    const first = await finished(jobId);
    expect(first.status).toBe('succeeded');
    // As if the worker died between the work's commit and recording its success: the job is due again.
    await t.database.db.updateTable('job').set({ status: 'queued', result_json: null, finished_at: null, run_after: new Date().toISOString() }).where('id', '=', jobId).execute();
    app.services.jobs.poke();
    const again = await finished(jobId);
    expect(again).toMatchObject({ status: 'succeeded', attempts: 2, result_json: first.result_json });
    expect(await t.database.db.selectFrom('location').select('id').where('code', '=', 'JOB-TWICE-1').execute()).toHaveLength(1);
  });

  it('a large upload with a bad row fails its job with the row errors, and writes nothing', async () => {
    const session = await login(app, owner.username, owner.password);
    const res = await uploadLocations(session.accesstoken, 'Location Code,Location Type,Capacity\nJOB-BAD-1,rack,10\nJOB-BAD-2,castle,5\n');
    expect(res.statusCode).toBe(202);
    const { jobId } = res.json().data;
    await finished(jobId);
    const view = (await as(app, session.accesstoken).get(`/Common/Job/GetJob?jobId=${jobId}`)).json();
    expect(view).toMatchObject({ status: 'failed', attempts: 1, result: null, error: { status: 422 } });
    expect(JSON.stringify(view.error.details)).toMatch(/castle/i);
    expect(await t.database.db.selectFrom('location').select('code').where('code', 'like', 'JOB-BAD%').execute()).toEqual([]);
  });

  it('SKU, receiving order and inventory sheets go the same way; an inventory import posts its stock once', async () => {
    const admin = as(app, (await login(app, ADMIN.username, ADMIN.password)).accesstoken);
    const post = async (path: string, fields: Record<string, string | number>, csv: string) => {
      const body = multipartBody(fields, { name: 'big.csv', bytes: Buffer.from(csv), type: 'text/csv' });
      const res = await admin.post(path, body.payload, body.headers);
      expect(res.statusCode, res.body).toBe(202);
      const done = await finished(res.json().data.jobId);
      expect(done.status, done.error ?? '').toBe('succeeded');
      return JSON.parse(done.result_json!) as { message: string };
    };
    expect((await post('/warehouse/Sku/UploadSkus', { customerId: c1, skuCategory: 'Jobs' }, 'SKU,Description,UOM\nJOB-SKU-1,From a job,EA\n')).message).toMatch(/1 SKU/i);
    expect((await post('/Warehouse/Receiving/UploadReceivingOrder', { warehouseId: w1, customerId: c1, supplier: 'Job Supplier', expectedDeliveryDate: '2031-03-01' }, 'SKU,Expected Quantity\nJOB-SKU-1,12\n')).message).toMatch(/Receiving order .* uploaded successfully/);
    const location = await t.database.db.selectFrom('location').select('id').where('warehouse_id', '=', w1).where('code', '=', 'JOB-01').executeTakeFirstOrThrow();
    expect((await post('/Warehouse/Inventory/UploadInventory', { warehouseId: w1, customerId: c1, inventoryType: 'Opening Stock', locationId: location.id, countDate: '2026-11-20' }, 'SKU,Quantity\nJOB-SKU-1,7\n')).message).toBe('Opening stock imported: 7 units on 1 row');
    const stock = await t.database.db.selectFrom('inventory_balance').select('on_hand').where('location_id', '=', location.id).execute();
    expect(stock.map((r) => r.on_hand)).toEqual([7]);
  });

  it('a job’s progress and completion reach its owner only: not a neighbour in the same scope, not an administrator', async () => {
    const principal = async (u: { username: string; password: string }) =>
      (await app.services.auth.principalFromToken((await login(app, u.username, u.password)).accesstoken))!;
    const [ownerP, neighbourP, adminP] = [await principal(owner), await principal(neighbour), await principal(ADMIN)];
    const session = await login(app, owner.username, owner.password);
    const seen: { subEvent: string; ownerUserId: number | null; warehouseId?: number | null }[] = [];
    const audiences = hubAudiences(app);
    const receivers = new Set<string>();
    const stop = app.services.events.subscribe((e) => {
      if (e.target !== 'ReceiveJobData') return;
      const p = e.payload as { subEvent: string; payload: { ownerUserId: number | null; jobId: number } };
      seen.push({ subEvent: p.subEvent, ownerUserId: p.payload.ownerUserId, warehouseId: e.warehouseId });
      for (const [name, who] of [['owner', ownerP], ['neighbour', neighbourP], ['admin', adminP]] as const) {
        if (mayReceive(who, e, audiences)) receivers.add(name);
      }
    });
    const res = await uploadLocations(session.accesstoken, 'Location Code,Location Type,Capacity\nJOB-EV-1,rack,10\n');
    await finished(res.json().data.jobId);
    await until(async () => seen.some((e) => e.subEvent === 'JobSucceeded'), 5000);
    stop();
    expect(seen.map((e) => e.subEvent)).toEqual(['JobQueued', 'JobProgress', 'JobSucceeded']);
    expect(seen.every((e) => e.ownerUserId === owner.id && e.warehouseId === w1)).toBe(true);
    expect([...receivers]).toEqual(['owner']);
  });
});
