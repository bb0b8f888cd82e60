import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN, as, buildTestApp, engine, ledgerBalanced, login, makeCustomer, makeLocation, makeSku, makeWarehouse, postStock, type TestApp,
} from '../../../test/helpers.js';
import { Scope } from '../../platform/scope.js';
import { inventoryRepository } from './inventory.repository.js';

// The stock list led by its sort's table (location or SKU) answers exactly what the balance-led list did:
// the same rows, in the same order (code, then balance id), the same totals, page after page.
let t: TestApp;
let admin: ReturnType<typeof as>;
let wh1: number, wh2: number, cust: number, other: number;
type Row = { id: number; location: string; sku: string; skuId: number; locationId: number; onHand: number; customer: number; warehouse: number };
const rows: Row[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh1 = await makeWarehouse(t.database);
  wh2 = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh1, wh2]);
  other = await makeCustomer(t.database, [wh1]);
  const skus = [[await makeSku(t.database, cust, 'LEAD-B', { lot: true }), 'LEAD-B'], [await makeSku(t.database, cust, 'LEAD-A', { lot: true }), 'LEAD-A'], [await makeSku(t.database, other, 'LEAD-C', { lot: true }), 'LEAD-C']] as const;
  // The same codes in both warehouses, so a code's balances interleave across warehouses.
  const locations: [number, number, string][] = [];
  for (const w of [wh1, wh2]) for (const code of ['Z-9', 'M-5', 'A-1']) locations.push([await makeLocation(t.database, w, code), w, code]);
  // Through the stock engine, so the ledger reconciles with the balances: the stocked places in one posting,
  // then the emptied ones taken back out (their rows stay, with nothing on hand).
  type Planned = Omit<Row, 'id'> & { lot: string };
  const planned: Planned[] = [];
  let n = 0;
  for (const [locationId, warehouse, code] of locations) {
    for (const [skuId, skuCode] of skus) {
      const customer = skuCode === 'LEAD-C' ? other : cust;
      if (customer === other && warehouse !== wh1) continue;
      for (const lot of ['L1', 'L2']) {
        const onHand = ++n % 5 === 0 ? 0 : n; // some emptied rows, which the list leaves out
        planned.push({ location: code, sku: skuCode, skuId, locationId, onHand, customer, warehouse, lot });
      }
    }
  }
  const place = (p: Planned) => ({ warehouseId: p.warehouse, customerId: p.customer, skuId: p.skuId, locationId: p.locationId, lot: p.lot, pallet: '' });
  await postStock(t, planned.map((p) => ({ place: place(p), qty: p.onHand || 1 })));
  await postStock(t, planned.filter((p) => p.onHand === 0).map((p) => ({ place: place(p), qty: -1 })));
  const balances = await t.database.db.selectFrom('inventory_balance').select(['id', 'location_id', 'sku_id', 'lot']).where('warehouse_id', 'in', [wh1, wh2]).execute();
  for (const p of planned) {
    const { id } = balances.find((b) => b.location_id === p.locationId && b.sku_id === p.skuId && b.lot === p.lot)!;
    rows.push({ id, location: p.location, sku: p.sku, skuId: p.skuId, locationId: p.locationId, onHand: p.onHand, customer: p.customer, warehouse: p.warehouse });
  }
  expect(await ledgerBalanced(t, wh1)).toBe(true);
  expect(await ledgerBalanced(t, wh2)).toBe(true);
});
afterAll(async () => { await t?.close(); });

async function allPages(body: Record<string, unknown>) {
  const seen: number[] = [];
  let total = -1;
  for (let page = 1; page < 50; page++) {
    const res = await admin.post('/Warehouse/Inventory/GetStockOnHand', { ...body, pageNumber: page, pageSize: 4 });
    expect(res.statusCode, res.body).toBe(200);
    const json = res.json() as { totalCount: number; items: { uniqueid: number }[] };
    total = json.totalCount;
    if (json.items.length === 0) break;
    seen.push(...json.items.map((i) => i.uniqueid));
  }
  return { ids: seen, total };
}

const mine = (r: Row) => r.onHand > 0 && (r.warehouse === wh1 || r.warehouse === wh2);
const ordered = (key: (r: Row) => string, dir: 1 | -1, keep: (r: Row) => boolean = () => true) =>
  rows.filter((r) => mine(r) && keep(r)).sort((x, y) => (key(x) < key(y) ? -dir : key(x) > key(y) ? dir : x.id - y.id)).map((r) => r.id);

describe('the stock list led by its sort', () => {
  it('pages by location code (the default) and by SKU code, either direction, as the balance-led list did', async () => {
    const scoped = (extra: Record<string, unknown> = {}) => ({ filters: { warehouseId: 0, ...extra } });
    const inMine = (r: Row) => r.warehouse === wh1 || r.warehouse === wh2;
    const only = async (body: Record<string, unknown>) => {
      const { ids, total } = await allPages(body);
      const kept = ids.filter((id) => rows.some((r) => r.id === id));
      return { kept, total };
    };
    for (const [sort, key, dir] of [
      [undefined, (r: Row) => r.location, 1], [{ field: 'locationCode', order: 'descend' }, (r: Row) => r.location, -1],
      [{ field: 'skuCode', order: 'ascend' }, (r: Row) => r.sku, 1], [{ field: 'skuCode', order: 'descend' }, (r: Row) => r.sku, -1],
    ] as const) {
      for (const warehouseId of [wh1, wh2]) {
        const { ids, total } = await allPages({ ...(sort ? { sort } : {}), filters: { warehouseId } });
        const expected = ordered(key, dir, (r) => r.warehouse === warehouseId);
        expect(ids).toEqual(expected);
        expect(total).toBe(expected.length);
      }
      const { kept } = await only({ ...(sort ? { sort } : {}), ...scoped() });
      expect(kept).toEqual(ordered(key, dir, inMine));
    }
  });

  it('keeps filters, the client and empty rows (includeEmpty) as before', async () => {
    const { ids, total } = await allPages({ filters: { warehouseId: wh1, customerId: other } });
    expect(ids).toEqual(ordered((r) => r.location, 1, (r) => r.warehouse === wh1 && r.customer === other));
    expect(total).toBe(ids.length);
    const skuId = rows.find((r) => r.sku === 'LEAD-A')!.skuId;
    const bySku = await allPages({ filters: { warehouseId: wh2, skuId } });
    expect(bySku.ids).toEqual(ordered((r) => r.location, 1, (r) => r.warehouse === wh2 && r.skuId === skuId));
    const locationId = rows.find((r) => r.warehouse === wh1 && r.location === 'M-5')!.locationId;
    const byLocation = await allPages({ sort: { field: 'skuCode', order: 'ascend' }, filters: { warehouseId: wh1, locationId } });
    expect(byLocation.ids).toEqual(ordered((r) => r.sku, 1, (r) => r.locationId === locationId));
    const withEmpty = await allPages({ filters: { warehouseId: wh1, includeEmpty: true } });
    expect(withEmpty.total).toBe(rows.filter((r) => r.warehouse === wh1).length);
  });

  it.runIf(engine === 'sqlite')('walks the location and SKU code indexes and probes each one’s balances (SQLite plan)', async () => {
    const scope = new Scope([wh1], [cust, other]);
    const plan = async (lead: 'location' | 'sku', order: string) => {
      const q = inventoryRepository.stockList(t.database.db, scope, { warehouseId: wh1, customerId: cust }, lead)
        .select('b.id').orderBy(sql.ref(order)).orderBy('b.id').limit(20).compile();
      const steps = t.database.sqlite!.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.parameters) as { detail: string }[];
      return steps.map((r) => r.detail).join('\n');
    };
    const byLocation = await plan('location', 'l.code');
    expect(byLocation).toMatch(/SCAN l USING COVERING INDEX location_code/);
    expect(byLocation).toMatch(/SEARCH b USING INDEX inventory_balance_location_scope/);
    expect(byLocation).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
    const bySku = await plan('sku', 's.sku_code');
    expect(bySku).toMatch(/SCAN s USING (COVERING )?INDEX sku_by_code/);
    expect(bySku).toMatch(/SEARCH b USING INDEX inventory_balance_sku_scope/);
  });
});
