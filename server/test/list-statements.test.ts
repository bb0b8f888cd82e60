import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../src/db/seed/demo.js';
import { as, buildTestApp, login, type TestApp } from './helpers.js';

// Issue 4: every master-data list answers in a fixed small number of statements whatever its page size (no
// statement per row: assignments, joins and totals are loaded for the whole page at once).
let t: TestApp;
let manager: ReturnType<typeof as>;
let statements = 0;
const restore: (() => void)[] = [];

/** Counts every statement the app sends to its driver (both engines), as the bench's trace does. */
function countStatements(sqlite?: SQLite.Database) {
  const clientProto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const query = clientProto.query;
  clientProto.query = function (this: unknown, ...args: unknown[]) { statements++; return query.apply(this, args); };
  restore.push(() => { clientProto.query = query; });
  if (sqlite) {
    const proto = Object.getPrototypeOf(sqlite.prepare('select 1')) as Record<string, (...a: unknown[]) => unknown>;
    for (const method of ['all', 'run', 'get', 'iterate']) {
      const original = proto[method];
      proto[method] = function (this: unknown, ...args: unknown[]) { statements++; return original.apply(this, args); };
      restore.push(() => { proto[method] = original; });
    }
  }
}

beforeAll(async () => {
  t = await buildTestApp({ demo: true });
  manager = as(t.app, await login(t.app, DEMO_USERS.manager.username, DEMO_USERS.manager.password));
  countStatements(t.database.sqlite);
});
afterAll(async () => {
  for (const r of restore) r();
  await t?.close();
});

const LISTS = [
  '/Warehouse/User/GetUsers', '/Warehouse/Customer/GetCustomers', '/warehouse/Sku/GetAllSkus', '/warehouse/Sku/GetDimensions',
  '/warehouse/Location/GetLocations', '/warehouse/Location/GetOtherLocations',
];

/**
 * The statements of one call, the fewest of three: now and then a request also refreshes its session's
 * last use, and on PostgreSQL the event bus may query meanwhile — neither is the list's.
 */
async function fewest(call: () => Promise<{ statusCode: number; body: string }>) {
  let least = Infinity;
  let body = '';
  for (let i = 0; i < 3; i++) {
    const before = statements;
    const res = await call();
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    least = Math.min(least, statements - before);
    body = res.body;
  }
  return { statements: least, body };
}

async function statementsFor(url: string, body: Record<string, unknown>) {
  const res = await fewest(() => manager.post(url, body));
  return { statements: res.statements, items: (JSON.parse(res.body) as { items: unknown[] }).items.length };
}

describe('master-data lists', () => {
  it.each(LISTS)('%s: the same few statements for 1 row a page as for 100', async (url) => {
    const one = await statementsFor(url, { pageSize: 1 });
    const many = await statementsFor(url, { pageSize: 100, searchQuery: '' });
    expect(many.items).toBeGreaterThan(one.items);
    expect(one.statements).toBeGreaterThan(2); // the counting works: at least the page and its total
    expect(many.statements).toBe(one.statements);
    expect(many.statements).toBeLessThanOrEqual(8); // session and access checks, the page, its total, its assignments
  });

  it('GetWarehouseListWithColumns too', async () => {
    const count = async (pageSize: number) =>
      (await fewest(() => manager.get(`/Warehouse/Warehouse/GetWarehouseListWithColumns?Modules=Warehouse&pageSize=${pageSize}`))).statements;
    expect(await count(100)).toBe(await count(1));
  });
});

// Issue 11, item 10: the document and stock lists, now paged by their repositories, keep the rule.
const DOCUMENT_LISTS = [
  '/Warehouse/Inventory/GetStockOnHand', '/Warehouse/Receiving/GetReceivingOrders', '/Warehouse/Receiving/GetROReportDetails',
  '/Warehouse/InventoryReport/GetOnHandBySku', '/Warehouse/InventoryReport/GetOnHandByLocation', '/Warehouse/MovePallet/GetPallets',
];

describe('document and stock lists', () => {
  it.each(DOCUMENT_LISTS)('%s: the same few statements for 1 row a page as for 100', async (url) => {
    const one = await statementsFor(url, { pageSize: 1 });
    const many = await statementsFor(url, { pageSize: 100, searchQuery: '' });
    expect(many.items).toBeGreaterThan(one.items);
    expect(one.statements).toBeGreaterThan(2);
    expect(many.statements).toBe(one.statements);
    expect(many.statements).toBeLessThanOrEqual(6); // session and access checks, the page and its total
  });
});
