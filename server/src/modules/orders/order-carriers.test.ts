import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, buildTestApp, login, makeCustomer, makeUser, makeWarehouse, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let staff: ReturnType<typeof as>;
let client: ReturnType<typeof as>;
let cust: number, otherCust: number, active: number, inactive: number;

/** A carrier account of a customer, as the Customer screen's Carrier Accounts tab leaves it. */
async function account(customerId: number, name: string, isActive = 1, kind: 'carrier' | 'channel' = 'carrier', nth = 0) {
  const db = t.database.db;
  // One account per carrier (integration type) and customer.
  const type = await db.selectFrom('integration_type').select('id').where('kind', '=', kind).orderBy('id').offset(nth).limit(1).executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  return (await db.insertInto('customer_integration').values({
    customer_id: customerId, integration_type_id: type.id, kind, account_name: name, is_active: isActive, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow()).id;
}

beforeAll(async () => {
  t = await buildTestApp();
  const wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  otherCust = await makeCustomer(t.database, [wh]);
  active = await account(cust, 'Main UPS account');
  inactive = await account(cust, 'Old account', 0, 'carrier', 1);
  await account(cust, 'Shop', 1, 'channel');
  await account(otherCust, 'Their FedEx');
  // Staff without the Customer module: the order form still needs the client's carriers.
  const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust], modules: { OrderDashboard: 'write' } });
  staff = as(t.app, await login(t.app, u.username, u.password));
  const c = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { OrderDashboard: 'read' } });
  client = as(t.app, await login(t.app, c.username, c.password));
});
afterAll(async () => { await t?.close(); });

describe('GetCarrierAccounts (the order form’s carrier choice)', () => {
  it('answers the client’s active carrier accounts, without channels or inactive ones, to anyone with the Order Dashboard', async () => {
    for (const session of [staff, client]) {
      const res = await session.get(`/Warehouse/Order/GetCarrierAccounts?customerId=${cust}`);
      expect(res.statusCode, res.body).toBe(200);
      const accounts = res.json() as { carrierAccountId: number; accountName: string; carrierName: string }[];
      expect(accounts.map((a) => a.carrierAccountId)).toEqual([active]);
      expect(accounts[0].accountName).toBe('Main UPS account');
      expect(accounts[0].carrierName).not.toBe('');
      expect(accounts.map((a) => a.carrierAccountId)).not.toContain(inactive);
    }
  });

  it('refuses another customer’s accounts, and a bad id names the field', async () => {
    expect((await staff.get(`/Warehouse/Order/GetCarrierAccounts?customerId=${otherCust}`)).statusCode).toBe(403);
    expect((await client.get(`/Warehouse/Order/GetCarrierAccounts?customerId=${otherCust}`)).statusCode).toBe(403);
    const bad = await staff.get('/Warehouse/Order/GetCarrierAccounts?customerId=99999999999');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('customerId');
  });
});
