import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER, uploadOrdersFields } from '@bolx/contracts';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeSku, makeWarehouse, type TestApp } from '../../../test/helpers.js';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { parseFields, storeFile } from '../../platform/files.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import { UPLOAD_JOBS, uploadNowOrQueued } from './upload-jobs.js';

/**
 * A background upload sent with a customer's API key runs as that key — its one customer — never as the user who
 * created the key (here the Super Administrator, who sees every customer). No route open to keys queues an upload
 * today, so the test adds one that does what UploadOrders does, with a CSV in a JSON body.
 */
const KEY_UPLOAD = '/Test/KeyUploadOrders';
let t: TestApp;
let admin: ReturnType<typeof as>;
let w: number, mine: number, theirs: number;
let code: string;
let seq = 0;

const csv = (reference: string) => Buffer.from(`Reference Number,SKU,Quantity\n${reference},${code},2\n`);
const fieldsFor = (customerId: number) => ({ warehouseId: String(w), customerId: String(customerId), orderType: 'Sales', orderDate: '2030-05-01' });
const ordersOf = async (customerId: number, reference: string) =>
  t.database.db.selectFrom('sales_order').select(['id', 'customer_id']).where('customer_id', '=', customerId).where('reference_number', '=', reference).execute();

/** Waits for a job to end; answers its row. */
async function finished(jobId: number) {
  for (let i = 0; i < 500; i++) {
    const job = await t.database.db.selectFrom('job').select(['status', 'error', 'owner_user_id']).where('id', '=', jobId).executeTakeFirstOrThrow();
    if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`job ${jobId} did not end`);
}

async function keyFor(customerId: number) {
  const res = await admin.post('/Warehouse/Customer/CreateApiKey', { customerId, name: `Shop ${++seq}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { apiKeyId: number; apiKey: string };
}
const sendWithKey = (key: string, fields: Record<string, string>, reference: string) => t.app.inject({
  method: 'POST', url: KEY_UPLOAD, remoteAddress: `10.9.0.${++seq}`,
  headers: { [API_KEY_HEADER]: key, 'content-type': 'application/json' },
  payload: { fields, csv: csv(reference).toString('utf8') },
});

beforeAll(async () => {
  t = await buildTestApp({
    // Every file above 10 bytes goes to the background.
    config: { backgroundUploadBytes: 10 },
    beforeReady: (app) => {
      const policy: RoutePolicy = { access: 'authenticated', module: { key: 'OrderDashboard', permission: 'write' }, scope: 'tenant', apiKey: true };
      app.post(KEY_UPLOAD, { config: { policy } }, async (req, reply) => {
        const body = req.body as { fields: Record<string, string>; csv: string };
        const upload = { fields: body.fields, file: { fileName: 'orders.csv', bytes: Buffer.from(body.csv, 'utf8') } };
        const [principal, actor] = [principalOf(req), actorOf(req)];
        return uploadNowOrQueued(app.services.uploadQueue, reply, principal, actor, {
          name: UPLOAD_JOBS.orders, upload, maxBytes: 1024 * 1024, scope: () => parseFields(uploadOrdersFields, upload.fields),
        }, () => app.services.orderUploads.upload(principal, { ...upload, documents: [] }, actor));
      });
    },
  });
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  w = await makeWarehouse(t.database);
  mine = await makeCustomer(t.database, [w], 'Key Owner Co');
  theirs = await makeCustomer(t.database, [w], 'Someone Else Co');
  code = `KEYJOB-${Date.now()}`;
  await makeSku(t.database, mine, code);
  await makeSku(t.database, theirs, code);
  await t.app.services.jobs.start({ pollMs: 10, lockMs: 2000, concurrency: 1 });
});
afterAll(async () => { await t?.close(); });

describe('a background upload sent with an API key', () => {
  it('runs as the key: its own customer’s orders are imported', async () => {
    const key = await keyFor(mine);
    const res = await sendWithKey(key.apiKey, fieldsFor(mine), 'KEY-OK');
    expect(res.statusCode, res.body).toBe(202);
    const job = await finished(res.json().data.jobId);
    expect(job.status, job.error ?? '').toBe('succeeded');
    expect(await ordersOf(mine, 'KEY-OK')).toHaveLength(1);
  });

  it('is refused at once for another customer (403), nothing queued', async () => {
    const key = await keyFor(mine);
    const before = await t.database.db.selectFrom('job').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const res = await sendWithKey(key.apiKey, fieldsFor(theirs), 'KEY-THEIRS');
    expect(res.statusCode, res.body).toBe(403);
    const after = await t.database.db.selectFrom('job').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('a key’s job whose work reaches another customer fails there, though the key’s creator could see that customer', async () => {
    const key = await keyFor(mine);
    // As the queue stores a key's upload (owner: the key's creator, the Super Administrator), naming another customer.
    const { id: adminId } = await t.database.db.selectFrom('app_user').select('id').where('username', '=', ADMIN.username).executeTakeFirstOrThrow();
    const queued = await inTransaction(t.database.db, async (uow) => {
      const stored = await storeFile(uow.tx, { fileName: 'orders.csv', mimeType: 'text/csv', bytes: csv('KEY-REACH'), createdBy: adminId });
      return t.app.services.jobs.enqueue(uow, UPLOAD_JOBS.orders, {
        fileId: stored.id, fileName: 'orders.csv', fields: fieldsFor(theirs), apiKeyId: key.apiKeyId,
        actor: { userId: adminId, username: 'api-key:test', ip: null, requestId: null },
      }, { ownerUserId: adminId, warehouseId: w, customerId: theirs });
    });
    const job = await finished(queued.jobId);
    expect(job.status).toBe('failed');
    expect(JSON.parse(job.error ?? '{}')).toMatchObject({ status: 403, message: 'This client is outside your access' });
    expect(await ordersOf(theirs, 'KEY-REACH')).toHaveLength(0);
  });

  it('a key revoked before its job runs stops the job: nothing imported', async () => {
    const key = await keyFor(mine);
    await t.app.services.jobs.stop();
    try {
      const res = await sendWithKey(key.apiKey, fieldsFor(mine), 'KEY-REVOKED');
      expect(res.statusCode, res.body).toBe(202);
      expect((await admin.post('/Warehouse/Customer/RevokeApiKey', { customerId: mine, apiKeyId: key.apiKeyId })).statusCode).toBe(200);
      await t.app.services.jobs.start({ pollMs: 10, lockMs: 2000, concurrency: 1 });
      const job = await finished(res.json().data.jobId);
      expect(job.status).toBe('failed');
      expect(job.error).toMatch(/revoked/);
      expect(await ordersOf(mine, 'KEY-REVOKED')).toHaveLength(0);
    } finally {
      await t.app.services.jobs.start({ pollMs: 10, lockMs: 2000, concurrency: 1 }).catch(() => undefined);
    }
  });
});
