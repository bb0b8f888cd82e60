import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, login, makeCustomer, makeUser, makeWarehouse, type TestApp } from './helpers.js';

// Issue 4: a client account writes none of the admin data — warehouses, users, clients with their carriers,
// channels and documents, SKUs and their parts, locations — even when its modules say write. Walks every
// changing route of those areas as such a Client: each answers 403 and nothing is written.
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await buildTestApp();
  const warehouse = await makeWarehouse(t.database);
  const customer = await makeCustomer(t.database, [warehouse]);
  const u = await makeUser(t.database, { role: 'Client', customerId: customer, modules: { WMS: 'write', FREIGHT: 'write', SERVICE: 'write' } });
  token = (await login(t.app, u.username, u.password)).accesstoken;
});
afterAll(async () => { await t?.close(); });

const ADMIN_AREAS = /^\/(Warehouse\/Warehouse|Warehouse\/User|Warehouse\/Customer|warehouse\/Sku|warehouse\/Location)\//;
/**
 * What a client's own administrator (a Client account holding the Customer module with write) may do for its own
 * customer by design (issue 12): manage its API keys. modules/api-keys holds it to its own customer.
 */
const CLIENT_MANAGED = /\/Warehouse\/Customer\/(CreateApiKey|RevokeApiKey)$/;
/** Actions that only read, whatever their method (a list's body is its filters). */
const READS = /\/(Get[^/]*|Download[^/]*|Preview[^/]*|[^/]*FiltersLabels)$/;

describe('a client account', () => {
  it('is refused every write of the admin data, and nothing is written', async () => {
    const writes = t.app.routeTable
      .flatMap((r) => ([] as string[]).concat(r.method as string | string[]).map((method) => ({ method, url: r.url })))
      .filter((r) => ADMIN_AREAS.test(r.url) && !READS.test(r.url) && !CLIENT_MANAGED.test(r.url) && !['GET', 'HEAD', 'OPTIONS'].includes(r.method));
    expect(writes.length).toBeGreaterThan(30);
    const audited = async () => Number((await t.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await audited();
    const answers: string[] = [];
    for (const w of writes) {
      const res = await t.app.inject({ method: w.method as 'POST', url: `${w.url}?id=1&customerId=1&warehouseId=1`, payload: {}, headers: { authorization: `Bearer ${token}` } });
      if (res.statusCode !== 403) answers.push(`${w.method} ${w.url} → ${res.statusCode}`);
    }
    expect(answers).toEqual([]);
    expect(await audited()).toBe(before);
  });
});
