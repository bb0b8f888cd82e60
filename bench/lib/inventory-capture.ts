// Child process, run once per engine before the servers start: builds the real app in-process on the bench
// database, sets up what the inventory cases need (receiving orders, stock to move), then serves each request
// the load will send once through app.inject while recording the statements it sends to the driver. The bare
// server replays those traces (lib/trace.ts). Writes everything to the file named in the child config.
import { writeFileSync } from 'node:fs';
import { openCaptureApp } from './capture-app.js';
import { settings } from './settings.js';
import { recordStatements, traceKey, type BenchRequest, type Captured, type Trace } from './trace.js';

const { capturedFile, app, database, db, inject } = await openCaptureApp('inventory-capture');

const token = String((await inject('/Common/Auth/login', settings.user)).accesstoken);
const slots = settings.inventorySlots;

// ----- fixtures: the manager's first warehouse, a client it serves, SKUs and storage locations -----
const warehouse = await db.selectFrom('warehouse').select(['id']).where('code', '=', 'NJ1').executeTakeFirstOrThrow();
const { customer_id: customerId } = await db.selectFrom('customer_warehouse').select('customer_id')
  .where('warehouse_id', '=', warehouse.id).orderBy('customer_id').executeTakeFirstOrThrow();
const skus = await db.selectFrom('sku').select(['id', 'sku_code']).where('customer_id', '=', customerId).orderBy('id').execute();
const dock = await db.selectFrom('location').select('id').where('warehouse_id', '=', warehouse.id).where('code', '=', 'DOCK-01').executeTakeFirstOrThrow();
// The last storage positions (the demo fills from the first). The first of them may hold the demo's reserve and
// pick stock: the move stock below has lots of its own, and the putaway targets, further back, are empty.
const storage = (await db.selectFrom('location').select('id').where('warehouse_id', '=', warehouse.id)
  .where('type', 'in', ['rack', 'shelf']).orderBy('id', 'desc').limit(slots * 3).execute()).map((l) => l.id);
if (storage.length < slots * 3 || skus.length === 0) throw new Error('inventory-capture: the demo database is too small for the inventory cases');
// Putaway targets without a capacity limit, so a minute of putaways never fills them (a 422 would end the case).
const putawayTo = storage.slice(slots * 2);
await db.updateTable('location').set({ capacity: 0 }).where('id', 'in', putawayTo).execute();

// Stock to move back and forth: a million units at both ends of every slot, each with its ledger row (which
// creates its balance: migration 0014's trigger).
const at = new Date().toISOString();
const moveStock = Array.from({ length: slots }, (_, k) => [storage[2 * k], storage[2 * k + 1]])
  .flatMap(([a, b], k) => [a, b].map((locationId) => ({ warehouse_id: warehouse.id, customer_id: customerId, sku_id: skus[k % skus.length].id, location_id: locationId, lot: `BENCH-MOVE-${k}`, pallet: '' })));
await db.transaction().execute(async (tx) => {
  await tx.insertInto('inventory_txn').values(moveStock.map((p) => ({ ...p, at, qty_change: 1_000_000, txn_type: 'adjust', reason: 'bench stock', document_type: 'BENCH', document_id: 'bench-move-stock', user_id: null }))).execute();
});

const receive: BenchRequest[][] = [];
const move: BenchRequest[][] = [];
const req = (path: string, body: unknown): BenchRequest => ({ method: 'POST', path, body: JSON.stringify(body) });
for (let k = 0; k < slots; k++) {
  const sku = skus[k % skus.length];
  // One receiving order per slot: every receipt on an order takes its row first, so slots do not queue on one.
  const created = await inject('/Warehouse/Receiving/CreateReceivingOrder', {
    warehouseId: warehouse.id, customerId, supplier: 'Bench Supplier', expectedDeliveryDate: '2030-01-01', referenceNumber: `BENCH-${k}`,
    lines: [{ skuId: sku.id, expectedQuantity: 1_000_000 }],
  }, token);
  const orderId = (created.data as { receivingOrderId: number }).receivingOrderId;
  const line = await db.selectFrom('receiving_order_line').select('id').where('order_id', '=', orderId).executeTakeFirstOrThrow();
  // The demo's first client tracks neither lots nor expiry (receiving refuses them for such a SKU): a pallet of its
  // own keeps each slot's dock stock apart.
  const pallet = `BENCH-RCV-${k}`;
  receive.push([
    req('/Warehouse/Receiving/ReceiveItem', { receivingOrderId: orderId, scanCode: sku.sku_code, locationId: dock.id, pallet, quantity: 1 }),
    req('/Warehouse/Receiving/Putaway', { receivingOrderId: orderId, lineId: line.id, fromLocationId: dock.id, toLocationId: putawayTo[k], pallet, quantity: 1 }),
  ]);
  const place = { warehouseId: warehouse.id, customerId, skuId: sku.id, lot: `BENCH-MOVE-${k}`, pallet: '' };
  move.push([
    req('/Warehouse/Move/MoveItems', { ...place, locationId: storage[2 * k], toLocationId: storage[2 * k + 1], quantity: 1 }),
    req('/Warehouse/Move/MoveItems', { ...place, locationId: storage[2 * k + 1], toLocationId: storage[2 * k], quantity: 1 }),
  ]);
}

// The stock-on-hand list as a screen asks for it: the first page, the header's warehouse and client filters,
// another sort, a page further on.
const page = { pageNumber: 1, pageSize: 20 };
const soh = [
  { ...page },
  { ...page, filters: { warehouseId: warehouse.id } },
  { ...page, filters: { warehouseId: warehouse.id, customerId } },
  { ...page, filters: { warehouseId: warehouse.id }, sort: { field: 'skuCode', order: 'ascend' } },
  { ...page, pageNumber: 50, filters: { warehouseId: warehouse.id } },
].map((body) => [req('/Warehouse/Inventory/GetStockOnHand', body)]);

// Receive as expected: orders of settings.asExpectedLines lines (one SKU each, seeded for the case), received
// whole, straight to putaway and finalized — created to closed in one request. The first order is served once
// while recording; the others are the app's load, one request each, and the bare server replays the first's
// statements for each of them.
const asExpected: BenchRequest[][] = [];
if (settings.cases.includes('asexpected')) {
  const lines = settings.asExpectedLines;
  const stamp = new Date().toISOString();
  const bulk = Array.from({ length: lines }, (_, i) => ({
    customer_id: customerId, sku_code: `BENCH-AE-${String(i).padStart(5, '0')}`, description: `Bench item ${i}`, uom: 'EA', upc: null, is_kit: 0, is_active: 1,
    weight_kg: null, length_cm: null, width_cm: null, height_cm: null, created_at: stamp, updated_at: stamp,
  }));
  for (let i = 0; i < bulk.length; i += 500) await db.insertInto('sku').values(bulk.slice(i, i + 500)).execute();
  const aeSkus = await db.selectFrom('sku').select('id').where('customer_id', '=', customerId).where('sku_code', 'like', 'BENCH-AE-%').orderBy('id').execute();
  // Empty storage for the first order's putaways (later orders find their SKUs there).
  const racks = Array.from({ length: lines }, (_, i) => ({
    warehouse_id: warehouse.id, code: `AE-${String(i).padStart(5, '0')}`, type: 'rack', zone: 'AE', aisle: null, rack: null, level: null, bin: null,
    capacity: 0, is_active: 1, created_at: stamp, updated_at: stamp,
  }));
  for (let i = 0; i < racks.length; i += 500) await db.insertInto('location').values(racks.slice(i, i + 500)).execute();
  for (let run = 0; run <= settings.asExpectedRuns; run++) {
    const created = await inject('/Warehouse/Receiving/CreateReceivingOrder', {
      warehouseId: warehouse.id, customerId, supplier: 'Bench Supplier', expectedDeliveryDate: '2030-01-01', referenceNumber: `BENCH-AE-${run}`,
      lines: aeSkus.map((s) => ({ skuId: s.id, expectedQuantity: 5 })),
    }, token);
    const orderId = (created.data as { receivingOrderId: number }).receivingOrderId;
    asExpected.push([req('/Warehouse/Receiving/ReceiveAsExpected', { receivingOrderId: orderId, locationId: dock.id, putaway: true, finalize: true })]);
  }
}

// ----- traces: each request twice, the second kept (statement caches warm, the order already Receiving) -----
const recorder = recordStatements(database.sqlite);
const traces: Record<string, Trace> = {};
const settle = () => new Promise((r) => setTimeout(r, 20)); // after-commit work lands in its request's trace
for (const sequence of [...receive, ...move, ...soh]) {
  for (let pass = 0; pass < 2; pass++) {
    for (const r of sequence) {
      recorder.take();
      await inject(r.path, JSON.parse(r.body), token);
      await settle();
      traces[traceKey(r.method, r.path, r.body)] = recorder.take();
    }
  }
}

if (asExpected.length) {
  const [first, ...load] = asExpected;
  recorder.take();
  await inject(first[0].path, JSON.parse(first[0].body), token);
  await settle();
  const trace = recorder.take();
  for (const [r] of load) traces[traceKey(r.method, r.path, r.body)] = trace;
  asExpected.splice(0, 1);
}

// pg's LISTEN-free app issues no background statements here; a stray one would show as an empty trace.
for (const [key, trace] of Object.entries(traces)) if (trace.length === 0) throw new Error(`inventory-capture: nothing recorded for ${key}`);
const captured: Captured = { token, warehouseId: warehouse.id, customerId, cases: { receive: { slots: receive }, move: { slots: move }, soh: { slots: soh }, asexpected: { slots: asExpected } }, traces };
writeFileSync(capturedFile, JSON.stringify(captured));
await app.close();
await database.close();
process.send?.({ done: true });
process.exit(0);
