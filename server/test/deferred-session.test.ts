import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { as, buildTestApp, login, makeUser, type TestApp } from './helpers.js';
import { floor, type Floor, type FloorStop } from './support/floor-fixtures.js';

// The pick routes check the caller's session with their transaction's first statement (RoutePolicy deferSession):
// a revoked session, a disabled user or a module taken away must still be refused before anything is written, on
// both engines, and the audit rows must still name the picker.

let t: TestApp;
let f: Floor;
let seq = 0;
const db = () => t.database.db;
type Stop = FloorStop;
const PJ = '/Warehouse/PickJob';

beforeAll(async () => {
  t = await buildTestApp();
  f = await floor(t);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** A picker of their own (signed in) and a job of `lines` stops for them. */
async function pickerWithJob(lines = 2) {
  const user = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [f.wh], customerIds: [f.cust], modules: { BatchJob: 'write' } });
  const session = await login(t.app, user.username, user.password);
  const { jobId, stops } = await f.discreteJob(lines, { zone: 'DS', stock: 5 });
  const api = as(t.app, session);
  const confirm = (s: Stop, headers?: Record<string, string>) =>
    api.post(`${PJ}/ConfirmPick`, { jobId, stopSeq: s.seq, locationCode: s.locationCode, itemCode: s.skuCode, quantity: s.quantity }, headers);
  return { user, session, api, jobId, stops, confirm };
}

/** What a pick would write: the ledger, the audit log, the job's tasks and its row. */
async function written(jobId: number) {
  const count = async (table: 'inventory_txn' | 'audit_log') => Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db())).rows[0].n);
  const tasks = await db().selectFrom('pick_task').select(({ fn }) => fn.sum<number>('picked_qty').as('picked')).where('job_id', '=', jobId).executeTakeFirstOrThrow();
  const job = await db().selectFrom('pick_job').select(['status', 'assigned_to']).where('id', '=', jobId).executeTakeFirstOrThrow();
  return { ledger: await count('inventory_txn'), audit: await count('audit_log'), picked: Number(tasks.picked ?? 0), status: job.status, assignedTo: job.assigned_to };
}

describe('pick routes check the session with their transaction', () => {
  it('only the three pick writes defer their session check', () => {
    const deferred = t.app.routeTable.filter((r) => (r.config as { policy?: { deferSession?: boolean } } | undefined)?.policy?.deferSession)
      .map((r) => r.url).sort();
    expect(deferred).toEqual([`${PJ}/ConfirmPick`, `${PJ}/ShortPick`, `${PJ}/UndoPick`]);
  });

  it('refuses a revoked session (401) on each of them, before anything is written', async () => {
    const p = await pickerWithJob();
    expect((await p.confirm(p.stops[0])).statusCode).toBe(200); // the job is the picker's, In Progress
    const before = await written(p.jobId);
    await db().updateTable('auth_session').set({ revoked_at: new Date().toISOString(), revoked_reason: 'test' }).where('user_id', '=', p.user.id).execute();
    const s = p.stops[1];
    const answers = [
      await p.confirm(s),
      await p.api.post(`${PJ}/ShortPick`, { jobId: p.jobId, stopSeq: s.seq, locationCode: s.locationCode, itemCode: s.skuCode, foundQuantity: 0, reason: 'damaged' }),
      await p.api.post(`${PJ}/UndoPick`, { jobId: p.jobId }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json().message).toBe('Session expired or invalid token');
    }
    expect(await written(p.jobId)).toEqual(before);
  });

  it('refuses a disabled user (401) and a caller whose BatchJob module was taken away (403); picks once both are back', async () => {
    const p = await pickerWithJob();
    const before = await written(p.jobId);
    await db().updateTable('app_user').set({ is_active: 0 }).where('id', '=', p.user.id).execute();
    expect((await p.confirm(p.stops[0])).statusCode).toBe(401);
    await db().updateTable('app_user').set({ is_active: 1 }).where('id', '=', p.user.id).execute();
    const held = await db().selectFrom('user_module').selectAll().where('user_id', '=', p.user.id).execute();
    await db().deleteFrom('user_module').where('user_id', '=', p.user.id).execute();
    expect((await p.confirm(p.stops[0])).statusCode).toBe(403);
    // Refused before its first step: the job was not claimed, nothing moved or was recorded.
    expect(await written(p.jobId)).toEqual(before);
    expect(before).toMatchObject({ picked: 0, status: 'Open', assignedTo: null });

    await db().insertInto('user_module').values(held).execute();
    const picked = await p.confirm(p.stops[0]);
    expect(picked.statusCode, picked.body).toBe(200);
    const after = await written(p.jobId);
    expect(after).toMatchObject({ picked: 2, status: 'In Progress', assignedTo: p.user.id });
    expect(after.ledger).toBeGreaterThan(before.ledger);
    // The audit rows name the picker, whose name the session's check gave after the request began.
    const audit = await db().selectFrom('audit_log').select(['user_id', 'username']).where('entity', '=', 'pick_job').where('entity_id', '=', String(p.jobId))
      .orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit).toEqual({ user_id: p.user.id, username: p.user.username });
  });

  it('refuses a tampered token (401), and a client account (403), writing nothing', async () => {
    const p = await pickerWithJob();
    const before = await written(p.jobId);
    const [head, body, signature] = p.session.accesstoken.split('.');
    const tampered = `${head}.${body}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    const s = p.stops[0];
    const payload = { jobId: p.jobId, stopSeq: s.seq, locationCode: s.locationCode, itemCode: s.skuCode, quantity: s.quantity };
    expect((await as(t.app, tampered).post(`${PJ}/ConfirmPick`, payload)).statusCode).toBe(401);
    expect((await f.client.post(`${PJ}/ConfirmPick`, payload)).statusCode).toBe(403);
    expect(await written(p.jobId)).toEqual(before);
  });

  it('defers a request with an Idempotency-Key too: one effect for the key, even sent twice at once', async () => {
    const p = await pickerWithJob();
    const headers = { 'idempotency-key': `deferred-${process.pid}-${++seq}` };
    const before = await written(p.jobId);
    const [first, second] = await Promise.all([p.confirm(p.stops[0], headers), p.confirm(p.stops[0], headers)]);
    expect([first.statusCode, second.statusCode], first.body + second.body).toEqual([200, 200]);
    expect([first.headers['idempotent-replay'], second.headers['idempotent-replay']].filter(Boolean)).toEqual(['true']);
    expect(second.json()).toEqual(first.json());
    const after = await written(p.jobId);
    expect(after.picked).toBe(before.picked + p.stops[0].quantity);
    const again = await p.confirm(p.stops[0], headers);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(await written(p.jobId)).toEqual(after);
    const key = await db().selectFrom('idempotency_key').select(['user_id', 'status_code']).where('key', '=', headers['idempotency-key']).execute();
    expect(key).toEqual([{ user_id: p.user.id, status_code: 200 }]);
  });

  it('never answers a refused caller from a key: a revoked session repeating a used key gets 401', async () => {
    const p = await pickerWithJob();
    const headers = { 'idempotency-key': `deferred-${process.pid}-${++seq}` };
    expect((await p.confirm(p.stops[0], headers)).statusCode).toBe(200);
    const after = await written(p.jobId);
    await db().updateTable('auth_session').set({ revoked_at: new Date().toISOString(), revoked_reason: 'test' }).where('user_id', '=', p.user.id).execute();
    const again = await p.confirm(p.stops[0], headers);
    expect(again.statusCode, again.body).toBe(401);
    expect(again.headers['idempotent-replay']).toBeUndefined();
    // A new key of the refused caller is not kept either.
    const fresh = { 'idempotency-key': `deferred-${process.pid}-${++seq}` };
    expect((await p.confirm(p.stops[1], fresh)).statusCode).toBe(401);
    expect(await db().selectFrom('idempotency_key').select('key').where('key', '=', fresh['idempotency-key']).execute()).toEqual([]);
    expect(await written(p.jobId)).toEqual(after);
  });
});

describe('a caller checked up front', () => {
  it('is refused by the same rules on a route that does not defer (CheckPickScan)', async () => {
    const p = await pickerWithJob(1);
    await db().updateTable('auth_session').set({ revoked_at: new Date().toISOString(), revoked_reason: 'test' }).where('user_id', '=', p.user.id).execute();
    const s = p.stops[0];
    expect((await p.api.post(`${PJ}/CheckPickScan`, { jobId: p.jobId, stopSeq: s.seq, step: 'location', code: s.locationCode })).statusCode).toBe(401);
    // Signed in again, the same user picks.
    const again = as(t.app, await login(t.app, p.user.username, p.user.password));
    expect((await again.post(`${PJ}/ConfirmPick`, { jobId: p.jobId, stopSeq: s.seq, locationCode: s.locationCode, itemCode: s.skuCode, quantity: s.quantity })).statusCode).toBe(200);
  });
});
