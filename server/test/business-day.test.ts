import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Scope } from '../src/platform/scope.js';
import { inventoryReportRepository } from '../src/modules/inventory-reports/inventory-reports.repository.js';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeWarehouse, type TestApp } from './helpers.js';

/**
 * The business day (issue 11 item 7): reports bucket and filter by the day in each row's own warehouse's zone, on
 * both engines. Los Angeles (UTC−8, −7 in summer) and Tokyo (UTC+9) disagree with UTC around midnight; the US
 * changes to summer time on 2026-03-08 and back on 2026-11-01.
 */
let t: TestApp;
let admin: ReturnType<typeof as>;
let la: number, tokyo: number, cust: number, sku: number;
const docks: Record<number, number> = {};
const racks: Record<number, number> = {};

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  la = await makeWarehouse(t.database);
  tokyo = await makeWarehouse(t.database);
  await t.database.db.updateTable('warehouse').set({ timezone: 'America/Los_Angeles' }).where('id', '=', la).execute();
  await t.database.db.updateTable('warehouse').set({ timezone: 'Asia/Tokyo' }).where('id', '=', tokyo).execute();
  cust = await makeCustomer(t.database, [la, tokyo]);
  sku = await makeSku(t.database, cust, 'DAY-SKU');
  for (const wh of [la, tokyo]) {
    docks[wh] = await makeLocation(t.database, wh, `DAY-DOCK-${wh}`, 'dock');
    racks[wh] = await makeLocation(t.database, wh, `DAY-RACK-${wh}`, 'rack');
  }
});
afterAll(async () => { await t?.close(); });
afterEach(() => { vi.useRealTimers(); });

describe("the dialect's business day", () => {
  it('buckets instants around midnight in two zones and across both DST changes', async () => {
    const rows: [string, string][] = [
      ['2026-03-01T20:00:00.000Z', 'America/Los_Angeles'], // 12:00 on 1 March
      ['2026-03-02T07:59:00.000Z', 'America/Los_Angeles'], // 23:59 on 1 March (UTC has moved on)
      ['2026-03-02T08:00:00.000Z', 'America/Los_Angeles'], // 00:00 on 2 March
      ['2026-03-09T07:30:00.000Z', 'America/Los_Angeles'], // 00:30 on 9 March, summer time (−8 would say 8 March)
      ['2026-11-02T07:30:00.000Z', 'America/Los_Angeles'], // 23:30 on 1 November, winter time again (−7 would say 2 November)
      ['2026-03-01T14:59:00.000Z', 'Asia/Tokyo'], // 23:59 on 1 March
      ['2026-03-01T15:00:00.000Z', 'Asia/Tokyo'], // 00:00 on 2 March (UTC is still on 1 March)
    ];
    const d = t.database.dialect;
    const instants = sql.join(rows.map(([at, zone]) => sql`select ${at} as at, ${zone} as zone`), sql` union all `);
    const { rows: buckets } = await sql<{ zone: string; day: string; n: number }>`
      select x.zone as zone, ${d.localDay(sql.ref('x.at'), sql.ref('x.zone'))} as day, count(*) as n
      from (${instants}) x group by 1, 2 order by 1, 2`.execute(t.database.db);
    expect(buckets.map((b) => [b.zone, b.day, Number(b.n)])).toEqual([
      ['America/Los_Angeles', '2026-03-01', 2],
      ['America/Los_Angeles', '2026-03-02', 1],
      ['America/Los_Angeles', '2026-03-09', 1],
      ['America/Los_Angeles', '2026-11-01', 1],
      ['Asia/Tokyo', '2026-03-01', 1],
      ['Asia/Tokyo', '2026-03-02', 1],
    ]);
    const { rows: [shifted] } = await sql<{ next: string; prev: string }>`select ${d.addDays(sql`${'2026-02-28'}`, 1)} as next, ${d.addDays(sql`${'2026-03-01'}`, -1)} as prev`
      .execute(t.database.db);
    expect(shifted).toEqual({ next: '2026-03-01', prev: '2026-02-28' });
  });
});

describe('warehouse time zones', () => {
  it('refuses an unknown zone on create and update, naming the field, and a changed zone counts at once', async () => {
    const body = {
      warehouseCode: 'TZ1', warehouseName: 'Zone House', city: 'Reno', state: 'NV', zip: '89502', country: 'United States',
      timezone: 'America/Los_Angeles', capacity: 10, isActive: true,
    };
    const bad = await admin.post('/Warehouse/Warehouse/AddWarehouse', { ...body, timezone: 'Mars/Olympus' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toMatchObject({ timezone: 'Unknown time zone' });
    const created = await admin.post('/Warehouse/Warehouse/AddWarehouse', body);
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.warehouseId as number;
    const zones = t.app.services.timeZones;
    expect(await zones.dayOf(id, '2026-03-02T07:30:00.000Z')).toBe('2026-03-01');

    const badUpdate = await admin.put('/Warehouse/Warehouse/UpdateWarehouse', { ...body, warehouseId: id, timezone: 'Nowhere/Land' });
    expect(badUpdate.statusCode).toBe(400);
    expect(badUpdate.json().details).toMatchObject({ timezone: 'Unknown time zone' });
    const moved = await admin.put('/Warehouse/Warehouse/UpdateWarehouse', { ...body, warehouseId: id, timezone: 'Asia/Tokyo' });
    expect(moved.statusCode, moved.body).toBe(200);
    // Without forgetting the cached zone, the day would stay Los Angeles' for a minute.
    expect(await zones.dayOf(id, '2026-03-02T07:30:00.000Z')).toBe('2026-03-02');
  });
});

describe('RO inward by business day', () => {
  const receipts: Record<string, number> = {};

  beforeAll(async () => {
    const received: Record<number, number[]> = {};
    for (const wh of [la, tokyo]) {
      const ro = await admin.post('/Warehouse/Receiving/CreateReceivingOrder', {
        warehouseId: wh, customerId: cust, supplier: 'Day Supplies', expectedDeliveryDate: '2026-03-01', referenceNumber: `PO-DAY-${wh}`,
        lines: [{ skuId: sku, expectedQuantity: 10 }],
      });
      expect(ro.statusCode, ro.body).toBe(200);
      received[wh] = [];
      for (let i = 0; i < 3; i++) {
        const res = await admin.post('/Warehouse/Receiving/ReceiveItem', {
          receivingOrderId: ro.json().data.receivingOrderId, scanCode: 'DAY-SKU', quantity: 1, locationId: docks[wh],
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      const rows = await t.database.db.selectFrom('receiving_receipt').select('id').where('warehouse_id', '=', wh).orderBy('id').execute();
      received[wh] = rows.map((r) => r.id);
    }
    const times: [string, number, string][] = [
      ['la-1', received[la]![0]!, '2026-03-02T07:30:00.000Z'], // LA 1 March 23:30
      ['la-2', received[la]![1]!, '2026-03-02T08:30:00.000Z'], // LA 2 March 00:30
      ['la-9', received[la]![2]!, '2026-03-09T07:30:00.000Z'], // LA 9 March 00:30 (summer time)
      ['tokyo-1', received[tokyo]![0]!, '2026-03-01T14:30:00.000Z'], // Tokyo 1 March 23:30
      ['tokyo-2a', received[tokyo]![1]!, '2026-03-01T15:30:00.000Z'], // Tokyo 2 March 00:30
      ['tokyo-2b', received[tokyo]![2]!, '2026-03-02T07:30:00.000Z'], // Tokyo 2 March 16:30
    ];
    for (const [name, id, at] of times) {
      receipts[name] = id;
      await t.database.db.updateTable('receiving_receipt').set({ at }).where('id', '=', id).execute();
    }
  });

  const inward = async (fromDate: string, toDate: string) => {
    const res = await admin.post('/Warehouse/Receiving/GetROInward', { filters: { customerId: cust, fromDate, toDate }, pageSize: 100 });
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json().items as { receiptId: number }[]).map((i) => i.receiptId);
    return Object.entries(receipts).filter(([, id]) => ids.includes(id)).map(([name]) => name).sort();
  };

  it('takes each receipt on its own warehouse’s day, across warehouses in one report', async () => {
    expect(await inward('2026-03-01', '2026-03-01')).toEqual(['la-1', 'tokyo-1']);
    expect(await inward('2026-03-02', '2026-03-02')).toEqual(['la-2', 'tokyo-2a', 'tokyo-2b']);
    expect(await inward('2026-03-08', '2026-03-09')).toEqual(['la-9']);
    expect(await inward('2026-03-08', '2026-03-08')).toEqual([]);
    expect(await inward('2026-02-28', '2026-03-09')).toHaveLength(6);
  });
});

describe('inventory reports by business day', () => {
  // 07:30 UTC on 2 March: still 1 March in Los Angeles (23:30), already 2 March in Tokyo (16:30).
  const NOW = new Date('2026-03-02T07:30:00.000Z');
  const report = async (name: string, filters: Record<string, unknown> = {}) => {
    const path = name === 'ExpiringLots' ? '/Warehouse/Inventory/GetExpiringLots' : `/Warehouse/InventoryReport/Get${name}`;
    const res = await admin.post(path, { filters: { customerId: cust, skuId: sku, ...filters }, pageSize: 100 });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items as Record<string, unknown>[];
  };
  const byWarehouse = (items: Record<string, unknown>[], pick: (i: Record<string, unknown>) => unknown) =>
    Object.fromEntries([la, tokyo].map((wh) => [wh === la ? 'la' : 'tokyo', items.filter((i) => i.warehouseId === wh).map(pick)]));

  beforeAll(async () => {
    // Stock added with a lot and an expiry needs a SKU that tracks them (the RO tests above receive it plain).
    await t.database.db.updateTable('sku').set({ is_lot_tracked: 1, is_expiry_tracked: 1 }).where('id', '=', sku).execute();
    for (const wh of [la, tokyo]) {
      const res = await admin.post('/Warehouse/Adjustment/CreateAdjustment', {
        warehouseId: wh, customerId: cust, skuId: sku, locationId: racks[wh], quantityChange: 5, reasonCode: 'FOUND', lot: 'DAY-LOT', expiryDate: '2026-03-01',
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const db = t.database.db;
    // Los Angeles' stock arrived at 15:00 on 1 March there (23:00 UTC): 0 days old on its 1 March, 1 by UTC's day.
    await db.updateTable('inventory_balance').set({ received_at: '2026-03-01T23:00:00.000Z' }).where('warehouse_id', '=', la).where('location_id', '=', racks[la]!).execute();
    await db.updateTable('inventory_balance').set({ received_at: '2026-03-01T14:00:00.000Z' }).where('warehouse_id', '=', tokyo).where('location_id', '=', racks[tokyo]!).execute();
    // Posted at 23:00 on 1 March in Los Angeles (2 March UTC) and at 01:00 on 2 March in Tokyo (1 March UTC).
    await db.updateTable('inventory_txn').set({ at: '2026-03-02T07:00:00.000Z' }).where('warehouse_id', '=', la).where('location_id', '=', racks[la]!).execute();
    await db.updateTable('inventory_txn').set({ at: '2026-03-01T16:00:00.000Z' }).where('warehouse_id', '=', tokyo).where('location_id', '=', racks[tokyo]!).execute();
  });

  it('counts a lot expired from the day after its expiry date in its warehouse’s zone', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    expect(byWarehouse(await report('Availability'), (i) => i.expired)).toEqual({ la: [0], tokyo: [5] });
    expect(byWarehouse(await report('ExpiringLots'), (i) => [i.daysToExpiry, i.status])).toEqual({ la: [[0, 'Expiring']], tokyo: [[-1, 'Expired']] });
    expect(byWarehouse(await report('ExpiringLots', { includeExpired: false, days: 0 }), (i) => i.daysToExpiry)).toEqual({ la: [0], tokyo: [] });
    const aging = (await report('Aging')).filter((i) => i.locationId === racks[la] || i.locationId === racks[tokyo]);
    expect(byWarehouse(aging, (i) => i.ageDays)).toEqual({ la: [0], tokyo: [1] });
  });

  it('takes stock as of a date to the end of that day in each warehouse’s zone, both ways of summing', async () => {
    expect(byWarehouse(await report('StockAsOf', { asOf: '2026-03-01' }), (i) => i.onHand)).toEqual({ la: [5], tokyo: [] });
    expect(byWarehouse(await report('StockAsOf', { asOf: '2026-03-02' }), (i) => i.onHand)).toEqual({ la: [5], tokyo: [5] });
    for (const direction of ['forward', 'backward'] as const) {
      const rows = await inventoryReportRepository.asOf(t.database.db, Scope.everything, { customerId: cust }, '2026-03-01', direction, t.database.dialect)
        .selectAll().execute();
      expect(rows.map((r) => [r.warehouse_id, Number(r.on_hand)]), direction).toEqual([[la, 5]]);
    }
  });
});
