import { expect } from 'vitest';
import { ADMIN, as, login, makeCustomer, makeSku, makeUser, makeWarehouse, postStock, type TestApp } from '../helpers.js';

/** A warehouse floor for the wave and pick-job tests: clients, staff, and helpers to make stock and allocated orders. */
export type Caller = ReturnType<typeof as>;

let seq = 0;
const unique = () => `${++seq}${Math.random().toString(36).slice(2, 6)}`;

export interface Floor {
  t: TestApp;
  wh: number;
  otherWh: number;
  /** A client that lets short orders wait (backorders allowed), and one that does not. */
  cust: number;
  strict: number;
  admin: Caller;
  staff: Caller;
  staffId: number;
  client: Caller;
  /** A location with its walking coordinates (type rack unless named). */
  place(at: { zone?: string | null; aisle?: string | null; rack?: string | null; level?: string | null; bin?: string | null; type?: string; warehouseId?: number }): Promise<number>;
  sku(customerId?: number): Promise<number>;
  put(skuId: number, locationId: number, qty: number, o?: { customerId?: number; lot?: string; warehouseId?: number }): Promise<void>;
  /** An order created and allocated through the real routes; answers its id and number. */
  order(lines: { skuId: number; quantity: number }[], o?: { customerId?: number; warehouseId?: number; priority?: number; requestedShipDate?: string; allocate?: boolean }): Promise<{ orderId: number; soNumber: string }>;
  status(orderId: number): Promise<string>;
  /**
   * An order of `lines` lines (a new SKU each, `stock` units in a bin of its own along aisle 01 of `zone`, 2 units
   * ordered), released as a discrete job with a tote of its own; answers the job, the order and the job's stops.
   */
  discreteJob(lines: number, o?: { zone?: string; stock?: number }): Promise<{ jobId: number; order: { orderId: number; soNumber: string }; stops: FloorStop[] }>;
}

export type FloorStop = { seq: number; locationCode: string; skuCode: string; quantity: number };

export async function floor(t: TestApp): Promise<Floor> {
  const db = t.database.db;
  const wh = await makeWarehouse(t.database);
  const otherWh = await makeWarehouse(t.database);
  const cust = await makeCustomer(t.database, [wh, otherWh]);
  const strict = await makeCustomer(t.database, [wh]);
  await db.updateTable('customer').set({ allow_backorders: 1 }).where('id', '=', cust).execute();
  await db.updateTable('customer').set({ allow_backorders: 0 }).where('id', '=', strict).execute();
  const modules = { OrderDashboard: 'write', BatchAllocation: 'write', BatchJob: 'write' } as const;
  const admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  const s = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust, strict], modules });
  const staff = as(t.app, await login(t.app, s.username, s.password));
  const c = await makeUser(t.database, { role: 'Client', customerId: cust, modules });
  const client = as(t.app, await login(t.app, c.username, c.password));

  const f: Floor = {
    t, wh, otherWh, cust, strict, admin, staff, staffId: s.id, client,
    async place(at) {
      const now = new Date().toISOString();
      const code = `${at.zone ?? 'X'}-${at.aisle ?? ''}-${at.rack ?? ''}-${at.level ?? ''}-${at.bin ?? ''}-${unique()}`.toUpperCase();
      return db.insertInto('location').values({
        warehouse_id: at.warehouseId ?? wh, code, type: at.type ?? 'rack', zone: at.zone ?? null, aisle: at.aisle ?? null, rack: at.rack ?? null,
        level: at.level ?? null, bin: at.bin ?? null, capacity: 0, is_active: 1, created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow().then((r) => Number(r.id));
    },
    sku: (customerId = cust) => makeSku(t.database, customerId, `FL-${unique()}`),
    async put(skuId, locationId, qty, o = {}) {
      await postStock(t, [{ place: { warehouseId: o.warehouseId ?? wh, customerId: o.customerId ?? cust, skuId, locationId, lot: o.lot ?? '', pallet: '' }, qty }]);
    },
    async order(lines, o = {}) {
      const res = await admin.post('/Warehouse/Order/CreateOrder', {
        warehouseId: o.warehouseId ?? wh, customerId: o.customerId ?? cust, orderType: 'Sales', referenceNumber: `FL-${unique()}`, orderDate: '2030-03-01',
        ...(o.priority ? { priority: o.priority } : {}), ...(o.requestedShipDate ? { requestedShipDate: o.requestedShipDate } : {}), lines,
      });
      expect(res.statusCode, res.body).toBe(200);
      const made = res.json().data as { orderId: number; soNumber: string };
      if (o.allocate !== false) {
        const a = await admin.post('/Warehouse/Order/AllocateOrders', { orderIds: [made.orderId] });
        expect(a.statusCode, a.body).toBe(200);
      }
      return { orderId: made.orderId, soNumber: made.soNumber };
    },
    async status(orderId) {
      return (await db.selectFrom('sales_order').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status;
    },
    async discreteJob(lines, o = {}) {
      const zone = o.zone ?? 'S';
      const skus: number[] = [];
      for (let i = 0; i < lines; i++) {
        const sku = await f.sku();
        await f.put(sku, await f.place({ zone, aisle: '01', rack: String(i + 1).padStart(3, '0') }), o.stock ?? 10);
        skus.push(sku);
      }
      const order = await f.order(skus.map((skuId) => ({ skuId, quantity: 2 })));
      const wave = await staff.post('/Warehouse/Wave/CreateWave', { warehouseId: wh, orderIds: [order.orderId], strategy: 'discrete' });
      expect(wave.statusCode, wave.body).toBe(200);
      const [{ jobId }] = (await staff.get(`/Warehouse/Wave/GetWave?waveId=${wave.json().data.wave.waveId}`)).json().jobs as { jobId: number }[];
      const tote = await f.place({ type: 'tote', zone: `${zone}-TOTE-${unique()}` });
      const toteCode = (await db.selectFrom('location').select('code').where('id', '=', tote).executeTakeFirstOrThrow()).code;
      expect((await staff.post('/Warehouse/PickJob/AssignTotes', { jobId, totes: [{ slot: 1, toteCode }] })).statusCode).toBe(200);
      const stops = (await staff.get(`/Warehouse/PickJob/GetJob?jobId=${jobId}`)).json().stops as FloorStop[];
      return { jobId, order, stops };
    },
  };
  return f;
}
