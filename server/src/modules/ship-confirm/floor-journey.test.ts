import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, ledgerBalanced, type TestApp } from '../../../test/helpers.js';
import { floor, type Floor } from '../../../test/support/floor-fixtures.js';

// One order through the floor with the real routes: released in a wave, picked into a tote by scans, packed into
// two cartons at the pack station, shipped. The ledger tells the whole story, one document per step.
let t: TestApp;
let f: Floor;

beforeAll(async () => {
  t = await buildTestApp();
  f = await floor(t);
});
afterAll(async () => { await t?.close(); });

const ok = async (res: Promise<{ statusCode: number; body: string; json: () => any }>) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};

describe('the floor, released to shipped', () => {
  it('picks by scans into a tote, packs into two cartons, ships; the ledger balances at every step', async () => {
    const bin = await f.place({ zone: 'A', aisle: '01', rack: '01', level: '1', bin: '1' });
    const toteId = await f.place({ type: 'tote' });
    const station = await f.place({ type: 'staging' });
    const a = await f.sku();
    const b = await f.sku();
    await f.put(a, bin, 5);
    await f.put(b, bin, 5);
    const order = await f.order([{ skuId: a, quantity: 3 }, { skuId: b, quantity: 2 }]);
    const code = async (table: 'sku' | 'location', id: number) =>
      table === 'sku'
        ? (await t.database.db.selectFrom('sku').select('sku_code as code').where('id', '=', id).executeTakeFirstOrThrow()).code
        : (await t.database.db.selectFrom('location').select('code').where('id', '=', id).executeTakeFirstOrThrow()).code;

    const wave = await ok(f.staff.post('/Warehouse/Wave/CreateWave', { warehouseId: f.wh, orderIds: [order.orderId], strategy: 'discrete' }));
    const jobs = await ok(f.staff.post('/Warehouse/PickJob/GetJobs', { filters: { waveId: wave.data.wave.waveId }, pageNumber: 1, pageSize: 10 }));
    const jobId = jobs.items[0].jobId as number;
    await ok(f.staff.post('/Warehouse/PickJob/AssignTotes', { jobId, totes: [{ slot: 1, toteCode: await code('location', toteId) }] }));
    const job = await ok(f.staff.get(`/Warehouse/PickJob/GetJob?jobId=${jobId}`));
    for (const stop of job.stops as { seq: number; locationCode: string; skuCode: string; quantity: number }[]) {
      await ok(f.staff.post('/Warehouse/PickJob/ConfirmPick', { jobId, stopSeq: stop.seq, locationCode: stop.locationCode, itemCode: stop.skuCode, quantity: stop.quantity }));
    }
    expect(await f.status(order.orderId)).toBe('Picked');
    expect(await ledgerBalanced(t, f.wh)).toBe(true);

    // The pack station opens on the tote.
    const type = await ok(f.admin.post('/Warehouse/Pack/SaveCartonType', { warehouseId: f.wh, code: 'J', name: 'Journey box', lengthCm: 30, widthCm: 20, heightCm: 10, tareWeightKg: 0.2 }));
    const view = await ok(f.staff.post('/Warehouse/Pack/OpenPack', { warehouseId: f.wh, code: await code('location', toteId) }));
    expect(view).toMatchObject({ orderId: order.orderId, status: 'Picked' });
    for (const [skuId, quantity, weightKg] of [[a, 3, 2], [b, 2, 1.5]] as const) {
      const opened = await ok(f.staff.post('/Warehouse/Pack/OpenCarton', { orderId: order.orderId, cartonTypeId: type.data.cartonTypeId }));
      const cartonId = opened.order.cartons.at(-1).cartonId;
      await ok(f.staff.post('/Warehouse/Pack/PackItem', { cartonId, code: await code('sku', skuId), quantity }));
      await ok(f.staff.post('/Warehouse/Pack/CloseCarton', { cartonId, weightKg, locationId: station }));
    }
    expect(await f.status(order.orderId)).toBe('Packed');

    const shipped = await ok(f.staff.post('/Warehouse/Ship/ConfirmShipment', { warehouseId: f.wh, orderIds: [order.orderId] }));
    expect(shipped.data.shipped).toEqual([expect.objectContaining({ orderId: order.orderId, cartons: 2, units: 5, backorderOrderId: null })]);
    expect(await f.status(order.orderId)).toBe('Shipped');

    const ledger = await t.database.db.selectFrom('inventory_txn').select(['txn_type', 'qty_change', 'sku_id'])
      .where('sku_id', 'in', [a, b]).where('txn_type', '<>', 'adjust').execute();
    const net = (txn: string) => ledger.filter((r) => r.txn_type === txn).reduce((s, r) => s + Number(r.qty_change), 0);
    expect({ pick_out: net('pick_out'), pick_in: net('pick_in'), pack_out: net('pack_out'), pack_in: net('pack_in'), ship: net('ship') })
      .toEqual({ pick_out: -5, pick_in: 5, pack_out: -5, pack_in: 5, ship: -5 });
    const onHand = await t.database.db.selectFrom('inventory_balance').select(['location_id', 'on_hand', 'allocated']).where('sku_id', 'in', [a, b]).execute();
    expect(onHand.filter((r) => r.location_id !== bin).every((r) => Number(r.on_hand) === 0 && Number(r.allocated) === 0)).toBe(true);
    expect(onHand.filter((r) => r.location_id === bin).map((r) => Number(r.on_hand)).sort()).toEqual([2, 3]);
    const kinds = await t.database.db.selectFrom('floor_event').select('kind').where('order_id', '=', order.orderId).execute();
    expect(new Set(kinds.map((k) => k.kind))).toEqual(new Set(['pick', 'pack', 'close-carton', 'ship']));
    expect(await ledgerBalanced(t, f.wh)).toBe(true);
  });
});
