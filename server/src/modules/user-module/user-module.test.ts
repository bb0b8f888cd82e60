import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, buildTestApp, login, makeCustomer, makeUser, makeWarehouse, type TestApp } from '../../../test/helpers.js';
import { DEMO_USERS } from '../../db/seed/demo.js';

let t: TestApp;
beforeAll(async () => { t = await buildTestApp({ demo: true }); });
afterAll(async () => { await t?.close(); });

const signIn = (who: keyof typeof DEMO_USERS) => login(t.app, DEMO_USERS[who].username, DEMO_USERS[who].password);

describe('GetUserModules', () => {
  it('gives the sidebar tree of the default app, with permission and permissionId (read → 0, else 1)', async () => {
    const s = await signIn('staff');
    const res = await as(t.app, s).get('/Common/UserModule/GetUserModules');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ appId: 1, appName: 'Warehouse Management' });
    const names = body.modules.map((m: { moduleName: string }) => m.moduleName);
    expect(names).toContain('Dashboard');
    expect(names).toContain('Inventory');
    expect(names).not.toContain('Admin'); // staff hold no admin module
    const inventory = body.modules.find((m: { moduleName: string }) => m.moduleName === 'Inventory');
    expect(inventory.childModules.map((c: { url: string }) => c.url)).toEqual(['Move', 'MovePallet', 'Adjustment', 'CycleCount', 'ProductReplenishment', 'ProductExpire']);
    expect(inventory.childModules[0]).toMatchObject({ permission: 'write', permissionId: 1, childModules: [] });
    const dashboard = body.modules.find((m: { moduleName: string }) => m.moduleName === 'Dashboard');
    expect(dashboard).toMatchObject({ url: 'Dashboard', permission: 'read', permissionId: 0 });
  });

  it('is empty until the user has a default app', async () => {
    const s = await signIn('admin');
    expect((await as(t.app, s).get('/Common/UserModule/GetUserModules')).json()).toEqual({ appId: null, appName: null, modules: [] });
  });
});

describe('apps', () => {
  it('lists only the apps the user holds modules in, and SetDefaultApp switches between them', async () => {
    const s = await signIn('client');
    const apps = (await as(t.app, s).get('/Common/UserModule/GetAllUserApps')).json();
    expect(apps.map((a: { appName: string }) => a.appName)).toEqual(['Warehouse Management', 'Service Management']);
    expect(apps.find((a: { isDefault: boolean }) => a.isDefault).appId).toBe(1);
    const set = await as(t.app, s).put('/Common/UserModule/SetDefaultApp?appId=3');
    expect(set.statusCode).toBe(200);
    expect(set.json().message).toMatch(/Service Management/);
    const mods = (await as(t.app, s).get('/Common/UserModule/GetUserModules')).json();
    expect(mods.appName).toBe('Service Management');
    expect(mods.modules.map((m: { url: string }) => m.url)).toContain('HelpDesk');
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'set_default_app').execute();
    expect(JSON.parse(audit.at(-1)!.after_json!)).toEqual({ appId: 3 });
  });

  it('refuses an app the user does not hold (403) and a bad id (400)', async () => {
    const s = await signIn('client');
    expect((await as(t.app, s).put('/Common/UserModule/SetDefaultApp?appId=2')).statusCode).toBe(403);
    expect((await as(t.app, s).put('/Common/UserModule/SetDefaultApp?appId=abc')).statusCode).toBe(400);
  });

  it('the login answer carries the default app name', async () => {
    const s = await signIn('manager');
    expect((s as unknown as { appName: string }).appName).toBe('Warehouse Management');
  });
});

describe('GetWarehouseClient', () => {
  it('gives a Super Administrator every warehouse with occupancy, and customers per warehouse', async () => {
    const body = (await as(t.app, await signIn('admin')).get('/Common/UserModule/GetWarehouseClient')).json();
    expect(body.warehouseData).toHaveLength(3);
    const nj = body.warehouseData.find((w: { warehouseCode: string }) => w.warehouseCode === 'NJ1');
    // 372 of the 395 storage positions hold stock; DOCK-01, holding the demo RO being received, is no storage position.
    // Occupancy is positions, as on the dashboard, not the warehouse's capacity figure (400).
    expect(nj).toMatchObject({ uniqueid: nj.warehouseId, timeZone: 'America/New_York', capacity: 400, usedLocations: 372, totalLocations: 395, occupancy: 94.2 });
    expect(new Set(body.customerData.map((c: { customerId: number }) => c.customerId)).size).toBe(6);
  });

  it('holds warehouse staff to their warehouses', async () => {
    const body = (await as(t.app, await signIn('staff')).get('/Common/UserModule/GetWarehouseClient')).json();
    expect(body.warehouseData.map((w: { warehouseCode: string }) => w.warehouseCode)).toEqual(['CA1']);
    expect(body.customerData.every((c: { warehouseId: number }) => c.warehouseId === body.warehouseData[0].warehouseId)).toBe(true);
  });

  it('holds a client account to its own customer', async () => {
    const body = (await as(t.app, await signIn('client')).get('/Common/UserModule/GetWarehouseClient')).json();
    expect(body.customerData.map((c: { customerName: string }) => c.customerName)).toEqual(['Fjord Electronics']);
    expect(body.warehouseData.map((w: { warehouseCode: string }) => w.warehouseCode)).toEqual(['CA1']);
  });

  it('shows nothing to a user with no warehouses', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const body = (await as(t.app, await login(t.app, u.username, u.password)).get('/Common/UserModule/GetWarehouseClient')).json();
    expect(body).toEqual({ warehouseData: [], customerData: [] });
  });

  it('does not show a customer of an assigned warehouse that the user is not assigned', async () => {
    const wh = await makeWarehouse(t.database);
    const assigned = await makeCustomer(t.database, [wh]);
    await makeCustomer(t.database, [wh]);
    const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [assigned] });
    const body = (await as(t.app, await login(t.app, u.username, u.password)).get('/Common/UserModule/GetWarehouseClient')).json();
    expect(body.customerData.map((c: { customerId: number }) => c.customerId)).toEqual([assigned]);
  });
});

describe('reference data', () => {
  it('GetCountriesAndStates lists countries with states', async () => {
    const body = (await as(t.app, await signIn('staff')).get('/Common/UserModule/GetCountriesAndStates')).json();
    const us = body.find((c: { code: string }) => c.code === 'US');
    expect(us.states).toHaveLength(51);
    expect(us.states[0]).toEqual({ uniqueid: expect.any(Number), name: 'Alabama', code: 'AL' });
  });

  it('GetTimezones lists IANA zones', async () => {
    const body = (await as(t.app, await signIn('staff')).get('/Common/UserModule/GetTimezones')).json();
    expect(body).toContain('America/New_York');
  });
});

describe('dashboard', () => {
  it('sums stock in the caller’s scope and refuses another customer', async () => {
    const admin = (await as(t.app, await signIn('admin')).get('/Warehouse/Dashboard/GetDashboard?warehouseId=0&customerId=0')).json();
    expect(admin.locationsTotal).toBe(985); // storage positions: 1,000 locations less 5 handling areas per warehouse
    expect(admin.skuCount).toBe(206); // 204 SKUs and the 2 demo kits
    expect(admin.stockByCustomer).toHaveLength(6);
    const client = await signIn('client');
    const own = (await as(t.app, client).get('/Warehouse/Dashboard/GetDashboard')).json();
    expect(own.stockByCustomer.map((c: { customerName: string }) => c.customerName)).toEqual(['Fjord Electronics']);
    const fjord = admin.stockByCustomer.find((c: { customerName: string }) => c.customerName === 'Fjord Electronics');
    expect(own.stockUnits).toBe(fjord.units);
    const acme = await t.database.db.selectFrom('customer').select('id').where('code', '=', 'ACME').executeTakeFirstOrThrow();
    const refused = await as(t.app, client).get(`/Warehouse/Dashboard/GetDashboard?customerId=${acme.id}`);
    expect(refused.statusCode).toBe(403);
  });

  it('needs the Dashboard module', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const res = await as(t.app, await login(t.app, u.username, u.password)).get('/Warehouse/Dashboard/GetDashboard');
    expect(res.statusCode).toBe(403);
  });
});
