import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { engine, makeCustomer, makeLocation, makeSku, makeWarehouse } from '../test/helpers.js';
import { ChaosClient, CutOff, type Answer } from './support/chaos-client.js';
import { serverProcess, type ServerProcess } from './support/server-process.js';

// Issue 19, item 5: a chaos test. A real server process; many concurrent clients on hot stock (two SKUs in four
// bins) doing every stock operation there is over HTTP — receive and put away, move, adjust, count, take orders in
// and allocate them, cancel them, pick, pack and ship them, and take returns in — while the server is killed with
// kill -9 several times and started again. Every mutation carries an Idempotency-Key; a request cut off by a kill
// is sent again under its key once the server is back. Then: no negative stock, allocated ≤ on hand, the ledger sums
// to the balances and the open reservations to the allocations (the engine's reconciliation, over HTTP), and every
// acknowledged operation took effect exactly once: sent again under its key it answers its first answer and
// changes nothing, and each stock document it answered is in the ledger with the entries it answered.

const CLIENTS = 8;
const KILLS = 3;
/** How long the clients work between two kills. */
const ROUND_MS = 6_000;
const ADMIN_PASSWORD = 'chaos-admin-password';

let server: ServerProcess;
let db: Database;
let token = '';
const f = { wh: 0, cust: 0, skus: [] as { id: number; code: string }[], bins: [] as number[], dock: 0, returns: 0, station: 0, cartonTypeId: 0, totes: [] as string[] };

async function signIn() {
  const res = await fetch(`${server.url}/Common/Auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
  expect(res.status).toBe(200);
  token = ((await res.json()) as { accesstoken: string }).accesstoken;
}

beforeAll(async () => {
  server = await serverProcess({ adminPassword: ADMIN_PASSWORD });
  await server.start();
  db = server.open();
  f.wh = await makeWarehouse(db, 'Chaos warehouse');
  f.cust = await makeCustomer(db, [f.wh], 'Chaos client');
  await db.db.updateTable('customer').set({ allow_backorders: 1 }).where('id', '=', f.cust).execute();
  for (const code of ['HOT-A', 'HOT-B']) f.skus.push({ id: await makeSku(db, f.cust, code), code });
  for (let i = 1; i <= 4; i++) f.bins.push(await makeLocation(db, f.wh, `BIN-0${i}`, 'rack'));
  f.dock = await makeLocation(db, f.wh, 'DOCK-01', 'dock');
  f.returns = await makeLocation(db, f.wh, 'RET-01', 'returns');
  f.station = await makeLocation(db, f.wh, 'PACK-01', 'staging');
  for (let i = 1; i <= 150; i++) f.totes.push((await db.db.selectFrom('location').select('code').where('id', '=', await makeLocation(db, f.wh, `TOTE-${i}`, 'tote')).executeTakeFirstOrThrow()).code);
  await signIn();
  const saved = await new ChaosClient(server.url, () => token).post('/Warehouse/Pack/SaveCartonType', { warehouseId: f.wh, code: 'BOX', name: 'Box', lengthCm: 40, widthCm: 30, heightCm: 20, tareWeightKg: 0.3 });
  expect(saved.status).toBe(200);
  f.cartonTypeId = saved.json.data.cartonTypeId;
}, 180_000);
afterAll(async () => { await server?.dispose(); });

const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
const between = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo + 1));
const ok = (a: Answer) => a.status >= 200 && a.status < 300;
const today = () => new Date().toISOString().slice(0, 10);

/** Orders allocated and not yet taken by a cancel or a pick: shared by the clients. */
const allocated: number[] = [];
let toteSeq = 0;

/** Each operation: one unit of work a warehouse does, as the screens send it; a refusal (4xx) ends it. */
const operations: Record<string, (c: ChaosClient) => Promise<void>> = {
  async receive(c) {
    const sku = pick(f.skus);
    const ro = await c.post('/Warehouse/Receiving/CreateReceivingOrder', { warehouseId: f.wh, customerId: f.cust, supplier: 'Chaos supplier', expectedDeliveryDate: '2030-03-01', lines: [{ skuId: sku.id, expectedQuantity: between(5, 20) }] });
    if (!ok(ro)) return;
    await c.post('/Warehouse/Receiving/ReceiveAsExpected', { receivingOrderId: ro.json.data.receivingOrderId, locationId: f.dock, putaway: true, finalize: true });
  },
  async move(c) {
    const [from, to] = [pick(f.bins), pick([...f.bins, f.dock])];
    if (from === to) return;
    await c.post('/Warehouse/Move/MoveItems', { warehouseId: f.wh, customerId: f.cust, skuId: pick(f.skus).id, locationId: from, toLocationId: to, quantity: between(1, 3) });
  },
  async adjust(c) {
    const up = Math.random() < 0.5;
    await c.post('/Warehouse/Adjustment/CreateAdjustment', {
      warehouseId: f.wh, customerId: f.cust, skuId: pick(f.skus).id, locationId: pick(f.bins), quantityChange: up ? between(1, 3) : -between(1, 3), reasonCode: up ? 'FOUND' : 'DAMAGED',
    });
  },
  async count(c) {
    const made = await c.post('/Warehouse/CycleCount/CreateCycleCount', { warehouseId: f.wh, customerId: f.cust, selection: 'sku', skuId: pick(f.skus).id, isBlind: false, countDate: today() });
    if (!ok(made)) return;
    const { count, lines } = made.json.data as { count: { cycleCountId: number }; lines: { lineId: number; expectedQty: number }[] };
    if (!lines.length) return;
    // Mostly as expected; now and then a unit short, which the count posts as a variance.
    const entered = await c.post('/Warehouse/CycleCount/EnterCounts', { cycleCountId: count.cycleCountId, counts: lines.map((l) => ({ lineId: l.lineId, quantity: Math.max(0, l.expectedQty - (Math.random() < 0.3 ? 1 : 0)) })) });
    if (!ok(entered)) return;
    const approve = () => c.post('/Warehouse/CycleCount/ApproveCycleCount', { cycleCountId: count.cycleCountId, overrideReason: 'chaos test' });
    if (ok(await approve())) return;
    // A variance asks for a recount: the same numbers again settle it.
    await c.post('/Warehouse/CycleCount/EnterCounts', { cycleCountId: count.cycleCountId, counts: lines.map((l) => ({ lineId: l.lineId, quantity: Math.max(0, l.expectedQty - 1) })) });
    if (!ok(await approve())) await c.post('/Warehouse/CycleCount/CancelCycleCount', { cycleCountId: count.cycleCountId });
  },
  async order(c) {
    const made = await c.post('/Warehouse/Order/CreateOrder', {
      warehouseId: f.wh, customerId: f.cust, orderType: 'Sales', referenceNumber: `CH-${Math.random().toString(36).slice(2, 10)}`, orderDate: '2030-03-01',
      lines: (Math.random() < 0.5 ? f.skus : [pick(f.skus)]).map((s) => ({ skuId: s.id, quantity: between(1, 4) })),
    });
    if (!ok(made)) return;
    const orderId = made.json.data.orderId as number;
    if (ok(await c.post('/Warehouse/Order/AllocateOrders', { orderIds: [orderId] }))) allocated.push(orderId);
  },
  async cancel(c) {
    const orderId = allocated.shift();
    if (orderId) await c.post('/Warehouse/Order/CancelOrders', { orderIds: [orderId], reason: 'chaos' });
  },
  async fulfil(c) {
    const orderId = allocated.shift();
    if (!orderId) return;
    const wave = await c.post('/Warehouse/Wave/CreateWave', { warehouseId: f.wh, orderIds: [orderId], strategy: 'discrete' });
    if (!ok(wave)) return;
    const jobs = (await c.get(`/Warehouse/Wave/GetWave?waveId=${wave.json.data.wave.waveId}`)).json.jobs as { jobId: number }[] | undefined;
    if (!jobs?.length) return;
    const jobId = jobs[0].jobId;
    if (!ok(await c.post('/Warehouse/PickJob/AssignTotes', { jobId, totes: [{ slot: 1, toteCode: f.totes[toteSeq++ % f.totes.length] }] }))) return;
    const stops = (await c.get(`/Warehouse/PickJob/GetJob?jobId=${jobId}`)).json.stops as { seq: number; locationCode: string; skuCode: string; quantity: number }[];
    for (const s of stops) {
      if (!ok(await c.post('/Warehouse/PickJob/ConfirmPick', { jobId, stopSeq: s.seq, locationCode: s.locationCode, itemCode: s.skuCode, quantity: s.quantity }))) return;
    }
    const opened = await c.post('/Warehouse/Pack/OpenCarton', { orderId, cartonTypeId: f.cartonTypeId });
    if (!ok(opened)) return;
    const cartonId = (opened.json.order.cartons as { cartonId: number }[]).at(-1)!.cartonId;
    for (const s of stops) if (!ok(await c.post('/Warehouse/Pack/PackItem', { cartonId, code: s.skuCode, quantity: s.quantity }))) return;
    if (!ok(await c.post('/Warehouse/Pack/CloseCarton', { cartonId, weightKg: 3, locationId: f.station }))) return;
    await c.post('/Warehouse/Ship/ConfirmShipment', { warehouseId: f.wh, orderIds: [orderId] });
  },
  async return(c) {
    await c.post('/Warehouse/Returns/ReceiveManual', { warehouseId: f.wh, customerId: f.cust, skuId: pick(f.skus).id, quantity: between(1, 2), locationId: f.returns });
  },
};
/** How often each operation is chosen: receipts and orders keep stock and allocations flowing. */
const MIX = ['receive', 'receive', 'move', 'move', 'adjust', 'count', 'order', 'order', 'order', 'cancel', 'fulfil', 'fulfil', 'return'];

/** A client working until `stop`: one operation after another; a cut-off ends the operation, not the client. */
async function work(c: ChaosClient, stop: { at: number }, done: Record<string, number>) {
  while (Date.now() < stop.at) {
    const name = pick(MIX);
    try {
      await operations[name](c);
      done[name] = (done[name] ?? 0) + 1;
    } catch (err) {
      if (!(err instanceof CutOff)) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** The cut-off mutations, sent again under their keys until each is answered (the server is up again). */
async function sendCutOffAgain(clients: ChaosClient[]) {
  for (const c of clients) {
    const pending = c.cutOff.splice(0);
    for (const p of pending) await c.call(p.method, p.path, p.body, p.key);
  }
}

const balances = () => db.db.selectFrom('inventory_balance').select(['id', 'on_hand', 'allocated']).where('warehouse_id', '=', f.wh).execute();
const ledger = () => db.db.selectFrom('inventory_txn').select([sql<number>`count(*)`.as('rows'), sql<number>`coalesce(sum(qty_change), 0)`.as('units')]).executeTakeFirstOrThrow()
  .then((r) => ({ rows: Number(r.rows), units: Number(r.units) }));

/** Once arrivals have had time to gather (BURST_MS, 2 s) and every job they queued has run (at most a minute). */
async function settled() {
  await new Promise((r) => setTimeout(r, 2500));
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    const open = await db.db.selectFrom('job').select('id').where('status', 'in', ['queued', 'running']).execute();
    if (open.length === 0) return;
  }
  throw new Error('background jobs were still queued or running a minute after the work ended');
}

describe(`chaos: kill -9 under concurrent stock operations (${engine})`, () => {
  it('loses, doubles and overdraws no stock, and every acknowledged operation is there exactly once', async () => {
    const clients = Array.from({ length: CLIENTS }, () => new ChaosClient(server.url, () => token));
    const done: Record<string, number> = {};
    for (let round = 0; round < KILLS; round++) {
      const stop = { at: Date.now() + ROUND_MS + 60_000 };
      const working = clients.map((c) => work(c, stop, done));
      await new Promise((r) => setTimeout(r, ROUND_MS + between(0, 1500)));
      await server.kill();
      stop.at = 0;
      await Promise.all(working);
      await server.start();
      await sendCutOffAgain(clients);
    }
    // A last round with no kill, so that the checks below see work done after restarts too.
    const stop = { at: Date.now() + ROUND_MS / 2 };
    await Promise.all(clients.map((c) => work(c, stop, done)));
    const acknowledged = clients.flatMap((c) => c.acknowledged);
    console.log(`chaos (${engine}): ${KILLS} kills; ${acknowledged.length} acknowledged mutations; operations finished: ${JSON.stringify(done)}`);
    expect(Object.keys(done).sort()).toEqual(Object.keys(operations).sort());
    expect(clients.flatMap((c) => c.serverErrors)).toEqual([]);

    // No negative stock; allocated within on hand.
    const rows = await balances();
    expect(rows.length).toBeGreaterThan(4);
    expect(rows.filter((b) => Number(b.on_hand) < 0 || Number(b.allocated) < 0 || Number(b.allocated) > Number(b.on_hand))).toEqual([]);

    // The ledger sums to the balances, and the open reservations to the allocations.
    const api = new ChaosClient(server.url, () => token);
    const reconciled = await api.get(`/Warehouse/Inventory/Reconcile?warehouseId=${f.wh}`);
    expect(reconciled.status).toBe(200);
    expect(reconciled.json.differences).toEqual([]);
    expect(reconciled.json.balanced).toBe(true);
    expect(reconciled.json.reservations.balanced).toBe(true);

    // Each stock document acknowledged with its ledger entries is in the ledger once, with exactly those entries.
    const documents = acknowledged.map((a) => (a.answer as { data?: { document?: string; entries?: { id: number }[] } }).data)
      .filter((d): d is { document: string; entries: { id: number }[] } => !!d?.document && Array.isArray(d.entries));
    expect(documents.length).toBeGreaterThan(0);
    expect(new Set(documents.map((d) => d.document)).size).toBe(documents.length);
    for (const d of documents) {
      const ids = (await db.db.selectFrom('inventory_txn').select('id').where('document_id', '=', d.document).orderBy('id').execute()).map((r) => Number(r.id));
      expect(ids, d.document).toEqual(d.entries.map((e) => e.id).sort((a, b) => a - b));
    }
    // Each order acknowledged is there once.
    const orders = acknowledged.filter((a) => a.path === '/Warehouse/Order/CreateOrder').map((a) => (a.body as { referenceNumber: string }).referenceNumber);
    const kept = await db.db.selectFrom('sales_order').select('reference_number').where('reference_number', 'in', orders).execute();
    expect(kept.length).toBe(orders.length);

    // Sent again under its key, every acknowledged mutation answers its first answer and changes nothing. Stock that
    // arrived fills waiting orders in a background job, queued once arrivals have gathered (orders/backorders.service.ts):
    // its allocations, after the work, are not a replay's; the picture is taken once no job is left to run.
    await settled();
    const before = { ledger: await ledger(), balances: await balances() };
    const replayer = new ChaosClient(server.url, () => token);
    const differing: string[] = [];
    for (const a of acknowledged) {
      const again = await replayer.call(a.method, a.path, a.body, a.key);
      if (again.status !== a.status || JSON.stringify(again.json) !== JSON.stringify(a.answer)) differing.push(`${a.method} ${a.path}: first ${a.status} ${JSON.stringify(a.answer).slice(0, 120)}, again ${again.status} ${JSON.stringify(again.json).slice(0, 120)}`);
    }
    expect(differing).toEqual([]);
    expect(await ledger()).toEqual(before.ledger);
    expect(await balances()).toEqual(before.balances);
  }, 420_000);
});
