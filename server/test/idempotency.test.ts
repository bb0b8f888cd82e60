import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ADMIN, as, buildTestApp, engine, login, makeCustomer, makeLocation, makeSku, makeWarehouse, recordEvents, type Session, type TestApp,
} from './helpers.js';
import { idempotencyKeys } from '../src/platform/idempotency-keys.js';
import { isHubDelivery, statementCounter } from './statements.js';

// Issue 10, item 3: an Idempotency-Key has at most one effect whatever the timing and crashes. The key is written
// with its answer as the last write of the request's one transaction (item 18: one statement), and it is unique: of
// requests sharing a key only one commits, the others' work is rolled back and they answer its answer. So a slow
// first request, a crash between commit and reply, or a burst of duplicates never posts a second ledger document.

/** Where the next request with this URL "crashes": a hook throws there, as a process dying at that point would stop it. */
let crash: { at: 'preSerialization' | 'onSend'; url: string } | null = null;
const WAIT_MS = 1500;

let t: TestApp;
let session: Session;
let admin: ReturnType<typeof as>;
let wh: number, cust: number, sku: number, from: number, to: number;

beforeAll(async () => {
  t = await buildTestApp({
    idempotencyWaitMs: WAIT_MS,
    beforeReady: (app) => {
      // preSerialization runs after the handler returned (its service's work done) and before any answer is kept.
      app.addHook('preSerialization', async (request, _reply, payload) => {
        if (crash?.at === 'preSerialization' && request.url === crash.url) { crash = null; throw new Error('simulated crash before the answer'); }
        return payload;
      });
      // Added after the app's own onSend hooks: runs once the answer is committed, before it is written out.
      app.addHook('onSend', async (request, _reply, payload) => {
        if (crash?.at === 'onSend' && request.url === crash.url) { crash = null; throw new Error('simulated crash after commit'); }
        return payload;
      });
    },
  });
  session = await login(t.app, ADMIN.username, ADMIN.password);
  admin = as(t.app, session);
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  sku = await makeSku(t.database, cust);
  from = await makeLocation(t.database, wh);
  to = await makeLocation(t.database, wh);
  expect((await admin.post('/Warehouse/Adjustment/CreateAdjustment', { warehouseId: wh, customerId: cust, skuId: sku, locationId: from, quantityChange: 10_000, reasonCode: 'FOUND' })).statusCode).toBe(200);
});
afterAll(async () => { await t?.close(); });
afterEach(() => {
  crash = null;
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const MOVE = '/Warehouse/Move/MoveItems';
let keys = 0;
const newKey = () => ({ 'idempotency-key': `idem-test-${Date.now()}-${++keys}` });
const move = (quantity: number, headers?: Record<string, string>) =>
  admin.post(MOVE, { warehouseId: wh, customerId: cust, skuId: sku, locationId: from, toLocationId: to, quantity }, headers);
const onHand = async (locationId: number) =>
  (await t.database.db.selectFrom('inventory_balance').select('on_hand').where('location_id', '=', locationId).where('sku_id', '=', sku).executeTakeFirst())?.on_hand ?? 0;
/** The MOVE documents the ledger holds for this test's SKU. */
const moveDocuments = async () =>
  (await t.database.db.selectFrom('inventory_txn').select('document_id').distinct().where('sku_id', '=', sku).where('document_type', '=', 'MOVE').execute()).length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Holds the next stock posting inside its business transaction until `release()`: a slow first request. `inside`
 * resolves once the transaction is open and waiting.
 */
function holdNextPosting() {
  let release!: () => void;
  const released = new Promise<void>((r) => { release = r; });
  let entered!: () => void;
  const inside = new Promise<void>((r) => { entered = r; });
  const inventory = t.app.services.stock;
  const post = inventory.post.bind(inventory);
  vi.spyOn(inventory, 'post').mockImplementationOnce(async (...args) => {
    entered();
    await released;
    return post(...args);
  });
  return { inside, release };
}

describe('a slow first request', () => {
  it('and its retry after 60 s (or while it runs) post one ledger document; the retry answers the first answer', async () => {
    const key = newKey();
    const [documents, atSource] = [await moveDocuments(), await onHand(from)];
    const hold = holdNextPosting();
    const first = move(3, key);
    await hold.inside;
    // The first request is mid-transaction; its retry comes a minute later (a client's timeout, a proxy's retry).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    const retry = move(3, key);
    await sleep(300);
    hold.release();
    const [a, b] = await Promise.all([first, retry]);
    vi.useRealTimers();

    // Whichever commits first takes effect; the other answers its answer (or 409 when it gave up waiting).
    expect([a, b].filter((r) => r.statusCode === 200 && r.headers['idempotent-replay'] === undefined)).toHaveLength(1);
    const fresh = [a, b].find((r) => r.headers['idempotent-replay'] === undefined)!;
    expect(fresh.statusCode, fresh.body).toBe(200);
    for (const r of [a, b].filter((x) => x !== fresh)) {
      expect([200, 409]).toContain(r.statusCode);
      if (r.statusCode === 200) expect(r.json()).toEqual(fresh.json());
    }
    expect(await moveDocuments()).toBe(documents + 1);
    expect(await onHand(from)).toBe(atSource - 3);
    // Once both have answered, a retry replays the one that took effect.
    const later = await move(3, key);
    expect(later.headers['idempotent-replay']).toBe('true');
    expect(later.json()).toEqual(fresh.json());
    expect(await moveDocuments()).toBe(documents + 1);
  });

  it.runIf(engine === 'postgres')('a duplicate that finds the key held uncommitted longer than the bound gets 409; the first answer stands', async () => {
    // The key goes with its request's COMMIT, so a first request holds it uncommitted only while that commit runs (a
    // slow disk, a synchronous standby). Here a transaction of the test's own holds it so: the first request's key row,
    // with its answer, written and not committed. A list, so that the duplicate meets no business row (those it would
    // wait for as usual), only the key.
    const list = (key: Record<string, string>) => admin.post('/Warehouse/Inventory/GetStockOnHand', { filters: { skuId: sku } }, key);
    const model = newKey();
    const answered = await list(model);
    expect(answered.statusCode).toBe(200);
    const kept = await t.database.db.selectFrom('idempotency_key').selectAll().where('key', '=', model['idempotency-key']).executeTakeFirstOrThrow();
    const key = newKey();
    const held = await t.database.db.startTransaction().execute();
    await held.insertInto('idempotency_key').values({ ...kept, key: key['idempotency-key'] }).execute();
    try {
      const started = Date.now();
      const duplicate = await list(key);
      expect(duplicate.statusCode, duplicate.body).toBe(409);
      expect(duplicate.json().message).toBe('A request with this Idempotency-Key is still in progress');
      expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS - 100);
    } finally {
      await held.commit().execute();
    }
    const retry = await list(key);
    expect(retry.headers['idempotent-replay']).toBe('true');
    expect(retry.json()).toEqual(answered.json());
  });

  it('a duplicate sent while the first holds the stock it moves waits for it, then answers its answer', async () => {
    const key = newKey();
    const [documents, atSource] = [await moveDocuments(), await onHand(from)];
    let release!: () => void;
    const released = new Promise<void>((r) => { release = r; });
    let entered!: () => void;
    const inside = new Promise<void>((r) => { entered = r; });
    const remember = idempotencyKeys.remember.bind(idempotencyKeys);
    vi.spyOn(idempotencyKeys, 'remember').mockImplementationOnce(async (...args) => {
      await remember(...args);
      entered();
      await released;
    });
    const first = move(2, key);
    await inside;
    const duplicate = move(2, key);
    await sleep(WAIT_MS + 300);
    release();
    const [a, b] = await Promise.all([first, duplicate]);
    expect(a.statusCode, a.body).toBe(200);
    expect(a.headers['idempotent-replay']).toBeUndefined();
    expect(b.statusCode, b.body).toBe(200);
    expect(b.headers['idempotent-replay']).toBe('true');
    expect(b.json()).toEqual(a.json());
    expect(await moveDocuments()).toBe(documents + 1);
    expect(await onHand(from)).toBe(atSource - 2);
  });
});

describe('a crash', () => {
  it('after the business work but before the answer is kept undoes the work: the retry posts once', async () => {
    const key = newKey();
    const [documents, atSource] = [await moveDocuments(), await onHand(from)];
    const lastEvent = Number((await t.database.db.selectFrom('event_outbox').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow()).id ?? 0);
    const events = await recordEvents(t.app);
    crash = { at: 'preSerialization', url: MOVE };
    const crashed = await move(4, key);
    expect(crashed.statusCode).toBe(500);
    // Nothing of the crashed request stayed, not even an event.
    expect(await moveDocuments()).toBe(documents);
    expect(await onHand(from)).toBe(atSource);
    expect((await events.until(99, 500)).filter((e) => e.id > lastEvent)).toEqual([]); // all that arrive in 0.5 s
    // The retry (a minute later, as a client would) runs it once.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    const retry = await move(4, key);
    vi.useRealTimers();
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.headers['idempotent-replay']).toBeUndefined();
    expect(await moveDocuments()).toBe(documents + 1);
    expect(await onHand(from)).toBe(atSource - 4);
  });

  it('after commit but before the reply leaves the committed answer: the retry replays it, no second document', async () => {
    const key = newKey();
    const [documents, atSource] = [await moveDocuments(), await onHand(from)];
    crash = { at: 'onSend', url: MOVE };
    const crashed = await move(5, key);
    expect(crashed.statusCode).toBe(500);
    expect(await moveDocuments()).toBe(documents + 1);
    const retry = await move(5, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replay']).toBe('true');
    expect(retry.json()).toMatchObject({ message: 'Moved 5 units', data: { entries: [{ qtyChange: -5 }, { qtyChange: 5 }] } });
    expect(await moveDocuments()).toBe(documents + 1);
    expect(await onHand(from)).toBe(atSource - 5);
  });

  it('when the client is gone before the answer (its socket closed mid-request), the committed answer is kept for its retry', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const key = newKey();
    const [documents, atSource] = [await moveDocuments(), await onHand(from)];
    const hold = holdNextPosting();
    const body = JSON.stringify({ warehouseId: wh, customerId: cust, skuId: sku, locationId: from, toLocationId: to, quantity: 6 });
    const request = http.request({
      port, host: '127.0.0.1', method: 'POST', path: MOVE,
      headers: { ...key, authorization: `Bearer ${session.accesstoken}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    request.on('error', () => undefined);
    request.end(body);
    await hold.inside;
    request.destroy();
    hold.release();
    // The server finishes the request on its own; then its retry replays what it committed.
    let retry = await move(6, key);
    for (let i = 0; i < 50 && retry.statusCode === 409; i++) retry = await move(6, key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.headers['idempotent-replay']).toBe('true');
    expect(retry.json().message).toBe('Moved 6 units');
    expect(await moveDocuments()).toBe(documents + 1);
    expect(await onHand(from)).toBe(atSource - 6);
  });
});

describe('concurrent duplicates', () => {
  it('20 at once move once; the others replay the answer or get 409', async () => {
    const key = newKey();
    const [documents, atSource, atTarget] = [await moveDocuments(), await onHand(from), await onHand(to)];
    const answers = await Promise.all(Array.from({ length: 20 }, () => move(7, key)));
    expect(answers.filter((r) => r.statusCode !== 200 && r.statusCode !== 409).map((r) => r.body)).toEqual([]);
    const fresh = answers.filter((r) => r.statusCode === 200 && r.headers['idempotent-replay'] === undefined);
    expect(fresh).toHaveLength(1);
    for (const r of answers.filter((x) => x.headers['idempotent-replay'] === 'true')) expect(r.json()).toEqual(fresh[0].json());
    expect(await moveDocuments()).toBe(documents + 1);
    expect(await onHand(from)).toBe(atSource - 7);
    expect(await onHand(to)).toBe(atTarget + 7);
  });

  it('20 adjustments at once post once', async () => {
    const key = newKey();
    const body = { warehouseId: wh, customerId: cust, skuId: sku, locationId: to, quantityChange: 11, reasonCode: 'FOUND' };
    const before = await onHand(to);
    const answers = await Promise.all(Array.from({ length: 20 }, () => admin.post('/Warehouse/Adjustment/CreateAdjustment', body, key)));
    expect(answers.filter((r) => r.statusCode !== 200 && r.statusCode !== 409).map((r) => r.body)).toEqual([]);
    expect(answers.filter((r) => r.statusCode === 200 && r.headers['idempotent-replay'] === undefined)).toHaveLength(1);
    expect(await onHand(to)).toBe(before + 11);
  });
});

describe('a deadlock victim', () => {
  it('is run again inside the same key: one document, answered as a first answer', async () => {
    const key = newKey();
    const [documents, atSource] = [await moveDocuments(), await onHand(from)];
    const inventory = t.app.services.stock;
    const post = inventory.post.bind(inventory);
    let calls = 0;
    vi.spyOn(inventory, 'post').mockImplementation(async (...args) => {
      // The first attempt writes its ledger rows, then PostgreSQL picks it as a deadlock victim.
      const posted = await post(...args);
      if (++calls === 1) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      return posted;
    });
    const res = await move(8, key);
    expect(res.statusCode, res.body).toBe(200);
    expect(calls).toBe(2);
    expect(await moveDocuments()).toBe(documents + 1);
    expect(await onHand(from)).toBe(atSource - 8);
    expect((await move(8, key)).headers['idempotent-replay']).toBe('true');
  });
});

describe('what a key keeps', () => {
  it('a refused first attempt keeps nothing: the same key runs again once the refusal no longer holds', async () => {
    const key = newKey();
    const atSource = await onHand(from);
    const refused = await move(atSource + 1, key);
    expect(refused.statusCode).toBe(422);
    await admin.post('/Warehouse/Adjustment/CreateAdjustment', { warehouseId: wh, customerId: cust, skuId: sku, locationId: from, quantityChange: 1, reasonCode: 'FOUND' });
    const again = await move(atSource + 1, key);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replay']).toBeUndefined();
    expect(await onHand(from)).toBe(0);
    // Its replay finds no stock left to move: on its error path it finds the key and answers the first's answer.
    const replay = await move(atSource + 1, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replay']).toBe('true');
    expect(replay.json()).toEqual(again.json());
    expect(await onHand(from)).toBe(0);
    await admin.post('/Warehouse/Adjustment/CreateAdjustment', { warehouseId: wh, customerId: cust, skuId: sku, locationId: from, quantityChange: 10_000, reasonCode: 'FOUND' });
  });

  it('a request that runs no transaction (a list) keeps its answer too; one answering a file keeps none', async () => {
    const key = newKey();
    const list = (headers: Record<string, string>) => admin.post('/Warehouse/Inventory/GetStockOnHand', { filters: { skuId: sku } }, headers);
    const first = await list(key);
    expect(first.statusCode).toBe(200);
    await move(1);
    const replay = await list(key);
    expect(replay.headers['idempotent-replay']).toBe('true');
    expect(replay.json()).toEqual(first.json());

    const fileKey = newKey();
    for (let i = 0; i < 2; i++) {
      const file = await admin.post('/Warehouse/Adjustment/DownloadAdjustmentsExcel', {}, fileKey);
      expect(file.statusCode).toBe(200);
      expect(file.headers['idempotent-replay']).toBeUndefined();
      expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');
    }
  });

  it('a handler running several transactions keeps them all, or none, under one key', async () => {
    // GenerateTasks runs one transaction per due rule.
    const pick = [await makeLocation(t.database, wh), await makeLocation(t.database, wh)];
    const bulk = await makeLocation(t.database, wh);
    await t.database.db.updateTable('location').set({ is_pickable: 1 }).where('id', 'in', pick).execute();
    await t.database.db.updateTable('location').set({ is_pickable: 0 }).where('id', '=', bulk).execute();
    const skus = [await makeSku(t.database, cust), await makeSku(t.database, cust)];
    for (const [i, s] of skus.entries()) {
      await admin.post('/Warehouse/Adjustment/CreateAdjustment', { warehouseId: wh, customerId: cust, skuId: s, locationId: bulk, quantityChange: 50, reasonCode: 'FOUND' });
      const saved = await admin.post('/Warehouse/Replenishment/SaveReplenishmentRule', { warehouseId: wh, customerId: cust, skuId: s, locationId: pick[i], minQty: 5, maxQty: 20 });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    const key = newKey();
    const openTasks = async () => (await t.database.db.selectFrom('replenishment_task').select('id').where('sku_id', 'in', skus).where('status', '=', 'Open').execute()).length;
    const first = await admin.post('/Warehouse/Replenishment/GenerateTasks', { warehouseId: wh, customerId: cust }, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.created).toHaveLength(2);
    expect(await openTasks()).toBe(2);
    await t.database.db.updateTable('replenishment_task').set({ status: 'Cancelled' }).where('sku_id', 'in', skus).execute();
    await t.database.db.updateTable('inventory_balance').set({ allocated: 0 }).where('sku_id', 'in', skus).execute();
    const replay = await admin.post('/Warehouse/Replenishment/GenerateTasks', { warehouseId: wh, customerId: cust }, key);
    expect(replay.headers['idempotent-replay']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect(await openTasks()).toBe(0);
  });

  it('a key left unanswered by an earlier version (a request that never finished) is refused, never run again', async () => {
    const key = newKey();
    expect((await move(1, key)).statusCode).toBe(200);
    // As an earlier version left a key whose request was still running when the server stopped: no answer.
    await t.database.db.updateTable('idempotency_key').set({ status_code: null, response_json: null }).where('key', '=', key['idempotency-key']).execute();
    const documents = await moveDocuments();
    const res = await move(1, key);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The first request with this Idempotency-Key never finished; send the action again with a new key');
    expect(await moveDocuments()).toBe(documents);
  });
});

describe('cost', () => {
  /** Every statement the app sends to its driver, with its text (both engines), while `call` runs. */
  async function statementsOf(call: () => Promise<unknown>): Promise<string[]> {
    const counter = statementCounter(t.database.sqlite);
    let seen: string[];
    try {
      await call();
    } finally {
      seen = counter.take();
      counter.restore();
    }
    // On PostgreSQL the event bus announces and loads the committed events on connections of its own: not the request's.
    return seen.filter((s) => !isHubDelivery(s.trim())).map((s) => s.trim().toLowerCase());
  }

  it.each(['a stock move', 'a receive scan'])('a key costs %s one statement, the last of its one business transaction', async (what) => {
    let call = (headers?: Record<string, string>) => move(1, headers);
    if (what === 'a receive scan') {
      const code = `IDEM-RCV-${Date.now()}`;
      await makeSku(t.database, cust, code);
      const dock = await makeLocation(t.database, wh, `DOCK-${Date.now()}`, 'dock');
      const ro = await admin.post('/Warehouse/Receiving/CreateReceivingOrder', {
        warehouseId: wh, customerId: cust, supplier: 'Keyed Supplier', expectedDeliveryDate: '2026-12-01',
        lines: [{ skuId: (await t.database.db.selectFrom('sku').select('id').where('sku_code', '=', code).executeTakeFirstOrThrow()).id, expectedQuantity: 100 }],
      });
      expect(ro.statusCode, ro.body).toBe(200);
      call = (headers) => admin.post('/Warehouse/Receiving/ReceiveItem', { receivingOrderId: ro.json().data.receivingOrderId, scanCode: code, quantity: 1, locationId: dock }, headers);
    }
    let plain: string[] = [];
    let keyed: string[] = [];
    // The fewest of three, as a request now and then also refreshes its session's last use.
    for (let i = 0; i < 3; i++) {
      const p = await statementsOf(() => call());
      const k = await statementsOf(() => call(newKey()));
      if (!plain.length || p.length < plain.length) plain = p;
      if (!keyed.length || k.length < keyed.length) keyed = k;
    }
    expect(keyed.length - plain.length).toBe(1);
    const own = keyed.map((s, i) => [s, i] as const).filter(([s]) => s.includes('idempotency_key'));
    expect(own).toHaveLength(1);
    const [[remember, at]] = own;
    expect(remember).toMatch(/^insert into/);
    // The key with its answer is the last statement before the commit of the one transaction that did the work.
    expect(keyed[at + 1]).toMatch(/^commit/);
    expect(keyed.filter((s) => /^(begin|commit|rollback|savepoint)/.test(s))).toEqual(['begin', 'commit']);
  });
});
