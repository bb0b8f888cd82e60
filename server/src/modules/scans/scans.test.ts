import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, type TestApp,
} from '../../../test/helpers.js';
import { statementCounter } from '../../../test/statements.js';
import { systemActor } from '../../platform/actor.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import { unitsOfPackage } from './scans.service.js';

// Issue 11, item 8: one server-side scan resolution for the stock screens — SKUs (code, UPC, barcode, package
// GTIN with its units), locations of every type, pallets with what is on them — held to the caller's clients.
let t: TestApp;
let admin: ReturnType<typeof as>;
let wh: number, otherWh: number, custA: number, custB: number, skuA: number, skuB: number, inactive: number;
let caseId: number;
const loc: Record<string, number> = {};
const now = () => new Date().toISOString();

const session = async (over: Parameters<typeof makeUser>[1]) => {
  const u = await makeUser(t.database, over);
  return as(t.app, await login(t.app, u.username, u.password));
};
const resolve = (who: ReturnType<typeof as>, code: string, over: Record<string, unknown> = {}) =>
  who.post('/Warehouse/Scan/Resolve', { warehouseId: wh, code, ...over });

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  const db = t.database.db;
  wh = await makeWarehouse(t.database);
  otherWh = await makeWarehouse(t.database);
  custA = await makeCustomer(t.database, [wh], 'Scan Client A');
  custB = await makeCustomer(t.database, [wh], 'Scan Client B');
  skuA = await makeSku(t.database, custA, 'SCAN-A');
  skuB = await makeSku(t.database, custB, 'SCAN-B');
  inactive = await makeSku(t.database, custA, 'SCAN-OLD');
  await db.updateTable('sku').set({ is_active: 0 }).where('id', '=', inactive).execute();
  await db.updateTable('sku').set({ upc: '036000291452' }).where('id', '=', skuA).execute();
  // Both clients use one code: the same barcode on their own SKUs.
  await db.insertInto('sku_barcode').values([
    { customer_id: custA, sku_id: skuA, barcode: 'SHARED-1', barcode_type: 'CODE128', created_at: now(), updated_at: now() },
    { customer_id: custB, sku_id: skuB, barcode: 'SHARED-1', barcode_type: 'CODE128', created_at: now(), updated_at: now() },
    { customer_id: custB, sku_id: skuB, barcode: 'ONLY-B', barcode_type: 'CODE128', created_at: now(), updated_at: now() },
  ]).execute();
  // Pallet of 40 cases, a case of 12 eaches: a case's GTIN is 12 units, the pallet's 480.
  const pkg = (values: { package_type: string; package_name: string; parent_id: number | null; quantity: number; gtin: string | null }) =>
    db.insertInto('sku_package').values({ customer_id: custA, sku_id: skuA, length_cm: null, width_cm: null, height_cm: null, weight_kg: null, created_at: now(), updated_at: now(), ...values })
      .returning('id').executeTakeFirstOrThrow().then((r) => r.id);
  const pallet = await pkg({ package_type: 'Pallet', package_name: 'Pallet of 40', parent_id: null, quantity: 1, gtin: '30036000291453' });
  caseId = await pkg({ package_type: 'Case', package_name: 'Case of 12', parent_id: pallet, quantity: 40, gtin: '10036000291459' });
  await pkg({ package_type: 'Each', package_name: 'Single', parent_id: caseId, quantity: 12, gtin: null });
  for (const type of ['rack', 'dock', 'staging', 'returns', 'quarantine', 'tote']) loc[type] = await makeLocation(t.database, wh, `SCN-${type.toUpperCase()}-1`, type);
  await makeLocation(t.database, otherWh, 'SCN-ELSEWHERE', 'rack');
  loc.off = await makeLocation(t.database, wh, 'SCN-OFF', 'rack');
  await db.updateTable('location').set({ is_active: 0 }).where('id', '=', loc.off).execute();
  // Pallet LP-77 at the dock: two lines of client A, one of client B.
  const stock = [[custA, skuA, 'L1', 5], [custA, skuA, 'L2', 3], [custB, skuB, '', 4]] as const;
  await inTransaction(db, (uow) => t.app.services.stock.post(uow, {
    documentType: 'ADJUSTMENT', documentId: 'scan-test', reason: 'scan test', record: { after: { pallet: 'LP-77' } },
    legs: stock.map(([customerId, skuId, lot, qty]) => ({
      place: { warehouseId: wh, customerId, skuId, locationId: loc.dock, lot, pallet: 'LP-77' }, qty, txnType: 'adjust' as const,
    })),
  }, systemActor('scan-test')));
});
afterAll(async () => { await t?.close(); });

describe('POST /Warehouse/Scan/Resolve', () => {
  it('resolves a SKU by its code in any case, its UPC and its barcode, one unit a scan', async () => {
    for (const [code, matchedBy] of [['scan-a', 'sku'], ['036000291452', 'upc']] as const) {
      const res = await resolve(admin, code);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ code, kind: 'sku', matches: [expect.objectContaining({
        kind: 'sku', skuId: skuA, customerId: custA, customerName: 'Scan Client A', skuCode: 'SCAN-A', matchedBy, unitsPerScan: 1,
        packageId: null, isActive: true,
      })] });
    }
    const byBarcode = await resolve(admin, 'ONLY-B');
    expect(byBarcode.json()).toMatchObject({ kind: 'sku', matches: [{ skuId: skuB, matchedBy: 'barcode', unitsPerScan: 1 }] });
  });

  it('resolves a package level by its GTIN with the units it holds: a case of 12, a pallet of 40 cases', async () => {
    expect((await resolve(admin, '10036000291459')).json()).toMatchObject({
      kind: 'sku', matches: [{ skuId: skuA, matchedBy: 'gtin', packageId: caseId, packageName: 'Case of 12', unitsPerScan: 12 }],
    });
    expect((await resolve(admin, '30036000291453')).json()).toMatchObject({ kind: 'sku', matches: [{ packageName: 'Pallet of 40', unitsPerScan: 480 }] });
  });

  it('resolves a location of every type (a tote too) by its code, in any case; an inactive one says so', async () => {
    for (const type of ['rack', 'dock', 'staging', 'returns', 'quarantine', 'tote']) {
      const res = await resolve(admin, `scn-${type}-1`);
      expect(res.json()).toEqual({ code: `scn-${type}-1`, kind: 'location', matches: [{
        kind: 'location', locationId: loc[type], warehouseId: wh, locationCode: `SCN-${type.toUpperCase()}-1`, type, zone: null, isActive: true,
      }] });
    }
    expect((await resolve(admin, 'SCN-OFF')).json().matches[0]).toMatchObject({ kind: 'location', isActive: false });
    // Another warehouse's location is not here.
    expect((await resolve(admin, 'SCN-ELSEWHERE')).statusCode).toBe(404);
  });

  it('resolves a pallet with what is on it and where', async () => {
    const res = await resolve(admin, 'LP-77');
    expect(res.json()).toEqual({ code: 'LP-77', kind: 'pallet', matches: [{
      kind: 'pallet', pallet: 'LP-77', warehouseId: wh, locationId: loc.dock, locationCode: 'SCN-DOCK-1', onHand: 12, allocated: 0,
      lines: [
        expect.objectContaining({ customerId: custA, skuId: skuA, skuCode: 'SCAN-A', lot: 'L1', onHand: 5 }),
        expect.objectContaining({ customerId: custA, skuId: skuA, lot: 'L2', onHand: 3 }),
        expect.objectContaining({ customerId: custB, skuId: skuB, skuCode: 'SCAN-B', lot: '', onHand: 4 }),
      ],
    }] });
    // Held to one client, only its lines.
    expect((await resolve(admin, 'LP-77', { customerId: custB })).json().matches[0]).toMatchObject({ onHand: 4, lines: [{ skuId: skuB }] });
  });

  it('answers an inactive SKU as such, for the form to refuse', async () => {
    expect((await resolve(admin, 'SCAN-OLD')).json()).toMatchObject({ kind: 'sku', matches: [{ skuId: inactive, isActive: false }] });
  });

  it('answers a code two clients use with both candidates, or the one of the chosen client', async () => {
    const both = (await resolve(admin, 'SHARED-1')).json();
    expect(both.kind).toBe('ambiguous');
    expect(both.matches.map((m: { skuId: number }) => m.skuId).sort()).toEqual([skuA, skuB].sort());
    expect((await resolve(admin, 'SHARED-1', { customerId: custA })).json()).toMatchObject({ kind: 'sku', matches: [{ skuId: skuA }] });
  });

  it('never resolves another client’s SKU or pallet: a client account and a staff user held to client A', async () => {
    const client = await session({ role: 'Client', customerId: custA, warehouseIds: [wh], customerIds: [custA], modules: { Move: 'read' } });
    const staffA = await session({ role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [custA], modules: { Adjustment: 'write' } });
    for (const who of [client, staffA]) {
      const res = await resolve(who, 'ONLY-B');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, message: "No SKU, location or pallet matches 'ONLY-B' in this warehouse" });
      expect((await resolve(who, 'SCAN-B')).statusCode).toBe(404);
      // The shared code is theirs alone: no candidate of the other client.
      expect((await resolve(who, 'SHARED-1')).json()).toMatchObject({ kind: 'sku', matches: [{ skuId: skuA }] });
      expect((await resolve(who, 'LP-77')).json().matches[0].lines.map((l: { customerId: number }) => l.customerId)).toEqual([custA, custA]);
      expect((await resolve(who, 'LP-77', { customerId: custB })).statusCode).toBe(403);
    }
    expect((await resolve(client, 'SCAN-A', { warehouseId: otherWh })).statusCode).toBe(403);
    // A client account's locations are those holding its stock (as its /Location list shows), staff see them all.
    expect((await resolve(client, 'SCN-DOCK-1')).json()).toMatchObject({ kind: 'location', matches: [{ locationId: loc.dock }] });
    expect((await resolve(client, 'SCN-RACK-1')).statusCode).toBe(404);
    expect((await resolve(staffA, 'SCN-RACK-1')).json()).toMatchObject({ kind: 'location' });
  });

  it('works for a user without the Location module, and not for one holding no stock screen', async () => {
    const mover = await session({ role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [custA, custB], modules: { Move: 'write' } });
    expect((await resolve(mover, 'SCN-QUARANTINE-1')).json()).toMatchObject({ kind: 'location', matches: [{ type: 'quarantine' }] });
    const outsider = await session({ role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [custA], modules: { Customer: 'read' } });
    expect((await resolve(outsider, 'SCN-QUARANTINE-1')).statusCode).toBe(403);
  });

  it('refuses a bad scan with a clear message and an unknown code with 404 naming it', async () => {
    for (const code of ['', '   ', 'x\u0000y', 'x'.repeat(129)]) expect((await resolve(admin, code)).statusCode).toBe(400);
    expect((await admin.post('/Warehouse/Scan/Resolve', { code: 'SCAN-A' })).statusCode).toBe(400);
    expect((await resolve(admin, 'NOPE-404')).json()).toMatchObject({ status: 404, message: "No SKU, location or pallet matches 'NOPE-404' in this warehouse", details: { code: 'Unknown code' } });
  });

  it('asks the database once per scan', async () => {
    const counter = statementCounter(t.database.sqlite);
    try {
      let least = Infinity;
      // The fewest of three: now and then a request also refreshes its session's last use.
      for (let i = 0; i < 3; i++) {
        counter.take();
        expect((await resolve(admin, '10036000291459')).statusCode).toBe(200);
        least = Math.min(least, counter.take().filter((s) => /sku_barcode|inventory_balance|location/.test(s)).length);
      }
      expect(least).toBe(1);
    } finally {
      counter.restore();
    }
  });
});

describe('unitsOfPackage', () => {
  const chain = [{ id: 1, parentId: null, quantity: 1 }, { id: 2, parentId: 1, quantity: 40 }, { id: 3, parentId: 2, quantity: 12 }];
  it('multiplies the quantities down the chain; the lowest level is one unit; a lone level its own quantity', () => {
    expect([1, 2, 3].map((id) => unitsOfPackage(chain, id))).toEqual([480, 12, 1]);
    expect(unitsOfPackage([{ id: 9, parentId: null, quantity: 6 }], 9)).toBe(6);
    expect(unitsOfPackage([{ id: 1, parentId: 2, quantity: 2 }, { id: 2, parentId: 1, quantity: 3 }], 1)).toBeGreaterThan(0);
  });
});
