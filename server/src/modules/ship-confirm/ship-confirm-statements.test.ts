import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, buildTestApp, ledgerBalanced, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, postStock, type TestApp } from '../../../test/helpers.js';
import { statementCounter } from '../../../test/statements.js';
import { allocatedOrder, packDirectly, pickOrder } from '../../../test/support/picked-orders.js';

// Issue 13's bench target: ship confirm of a 750-line order in at most 60 SQL statements, everything included —
// the session check, the Idempotency-Key, BEGIN and COMMIT, the audit rows and events. Every step is set-based (one
// statement per kind of row, not per line), so an order of 5 lines costs what an order of 750 costs.
const BUDGET = 60;

let t: TestApp;
let staff: ReturnType<typeof as>;
let wh: number, cust: number, bin: number, station: number, cartonTypeId: number;

async function packedOrder(lineCount: number) {
  const skus: number[] = [];
  for (let i = 0; i < lineCount; i++) skus.push(await makeSku(t.database, cust, `ST-${lineCount}-${i}`));
  await postStock(t, skus.map((skuId) => ({ place: { warehouseId: wh, customerId: cust, skuId, locationId: bin, lot: '', pallet: '' }, qty: 2 })));
  const order = await allocatedOrder(t, { warehouseId: wh, customerId: cust, lines: skus.map((skuId) => ({ skuId, quantity: 2 })) });
  expect(order.status).toBe('Allocated');
  await pickOrder(t, order, await makeLocation(t.database, wh, `TOTE-ST-${lineCount}`, 'tote'));
  // One carton per 50 lines, as the bench packs them.
  await packDirectly(t, order, { cartonTypeId, stationId: station, perCarton: 50 });
  return order;
}

async function shipStatements(orderId: number) {
  // What the set-up's commits set going after them (hub delivery, backorder filling on arrivals) runs on other
  // connections, which the counter would see too on PostgreSQL: let it finish first.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const counter = statementCounter(t.database.sqlite);
  try {
    const res = await staff.post('/Warehouse/Ship/ConfirmShipment', { warehouseId: wh, orderIds: [orderId] }, { 'idempotency-key': `ship-order-${orderId}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.refused).toEqual([]);
    return counter.take();
  } finally {
    counter.restore();
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  bin = await makeLocation(t.database, wh);
  station = await makeLocation(t.database, wh, 'PACK-ST', 'staging');
  const u = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh], customerIds: [cust], modules: { BatchJob: 'write' } });
  staff = as(t.app, await login(t.app, u.username, u.password));
  const saved = await staff.post('/Warehouse/Pack/SaveCartonType', { warehouseId: wh, code: 'BOX', name: 'Box', lengthCm: 40, widthCm: 30, heightCm: 20, tareWeightKg: 0.3 });
  cartonTypeId = saved.json().data.cartonTypeId;
}, 120_000);
afterAll(async () => { await t?.close(); });

describe('ship confirm statements', () => {
  it(`ships a 750-line order in at most ${BUDGET} statements, as many as a 5-line order`, async () => {
    const few = await packedOrder(5);
    const many = await packedOrder(750);
    const small = await shipStatements(few.orderId);
    const large = await shipStatements(many.orderId);
    expect(large.length, large.join('\n')).toBeLessThanOrEqual(BUDGET);
    // The ledger's rows are written 500 to a statement: 750 lines take one more. On PostgreSQL the hub's read of
    // the events just committed (after the answer, through LISTEN/NOTIFY) may land inside the count or not.
    expect(large.length).toBeLessThanOrEqual(small.length + 2);
    expect(await ledgerBalanced(t, wh)).toBe(true);
  }, 120_000);
});
