import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@bolx/contracts';
import {
  ADMIN, as, buildTestApp, login, makeCustomer, makeUser, makeWarehouse, type TestApp,
} from '../../../test/helpers.js';
import type { DeliveredEvent } from '../../platform/events.js';

let t: TestApp;
let superAdmin: ReturnType<typeof as>;
let moduleIds: Map<string, number>;

beforeAll(async () => {
  t = await buildTestApp();
  superAdmin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  moduleIds = new Map((await t.database.db.selectFrom('module').select(['id', 'key']).execute()).map((m) => [m.key, m.id]));
});
afterAll(async () => { await t?.close(); });

let n = 0;
const uniq = () => `${Date.now().toString(36)}${++n}`;
const valid = (over: Record<string, unknown> = {}) => {
  const id = uniq();
  return {
    username: `user.${id}`, email: `user.${id}@example.com`, firstName: 'Pat', lastName: 'Picker', phone: '+1 555 0100',
    timezone: 'America/Chicago', usertype: 'Warehouse Staff', password: 'a long enough password', confirmPassword: 'a long enough password',
    warehouses: [] as number[], customers: [] as number[], modules: [] as { moduleId: number; permission: string }[], isActive: true, ...over,
  };
};
const editable = (body: Record<string, unknown>) => {
  const { password: _p, confirmPassword: _c, ...rest } = body;
  return rest;
};
const userCount = async () => Number((await t.database.db.selectFrom('app_user').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const sessionOf = async (username: string, password = 'correct horse battery') => login(t.app, username, password);

/** Waits for the ReceiveUserData event of one user (on PostgreSQL an earlier change's event may still be arriving). */
function userEvent(subEvent: 'AddUser' | 'UpdateUser', userId: () => number | undefined, ms = 3000) {
  const seen: DeliveredEvent[] = [];
  const stop = t.app.services.events.subscribe((e) => seen.push(e));
  const match = (e: DeliveredEvent) => {
    const p = e.payload as { subEvent?: string; payload?: { userId?: number } };
    return e.target === 'ReceiveUserData' && p.subEvent === subEvent && p.payload?.userId === userId();
  };
  return async (): Promise<DeliveredEvent[]> => {
    const deadline = Date.now() + ms;
    while (!seen.some(match) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    stop();
    return seen.filter(match);
  };
}

/** An Administrator holding the User module, assigned to the given warehouses and customers. */
async function administrator(warehouseIds: number[], customerIds: number[] = [], modules: Record<string, 'read' | 'write'> = { User: 'write' }) {
  const u = await makeUser(t.database, { role: 'Administrator', warehouseIds, customerIds, modules });
  return { ...u, api: as(t.app, await sessionOf(u.username)) };
}

describe('GetModuleWarehouseUsers', () => {
  it('gives a Super Administrator every user type, the module tree, warehouses and time zones', async () => {
    const wh = await makeWarehouse(t.database, 'Options Depot');
    const res = await superAdmin.get('/Warehouse/User/GetModuleWarehouseUsers');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.usertypes).toEqual(['Super Administrator', 'Administrator', 'Warehouse Manager', 'Warehouse Staff', 'Client']);
    const wms = body.modules.find((a: { appKey: string }) => a.appKey === 'WMS');
    const adminGroup = wms.modules.find((m: { moduleKey: string }) => m.moduleKey === 'Admin');
    expect(adminGroup.childModules.map((m: { moduleKey: string }) => m.moduleKey)).toEqual(['Warehouse', 'User', 'Customer']);
    expect(adminGroup.childModules[1]).toMatchObject({ moduleId: moduleIds.get('User'), moduleName: 'User', url: 'User', childModules: [] });
    expect(body.modules.map((a: { appKey: string }) => a.appKey)).toEqual(['WMS', 'FREIGHT', 'SERVICE']);
    expect(body.warehouses).toContainEqual(expect.objectContaining({ warehouseId: wh, warehouseName: 'Options Depot', uniqueid: wh }));
    expect(body.timezones).toContain('UTC');
    expect(body.timezones).toContain('America/New_York');
  });

  it('gives an Administrator all types but Super Administrator, and only their warehouses and modules', async () => {
    const mine = await makeWarehouse(t.database);
    const other = await makeWarehouse(t.database);
    const a = await administrator([mine], [], { User: 'write', SKU: 'read' });
    const body = (await a.api.get('/Warehouse/User/GetModuleWarehouseUsers')).json();
    expect(body.usertypes).toEqual(['Administrator', 'Warehouse Manager', 'Warehouse Staff', 'Client']);
    expect(body.warehouses.map((w: { warehouseId: number }) => w.warehouseId)).toEqual([mine]);
    expect(body.warehouses.map((w: { warehouseId: number }) => w.warehouseId)).not.toContain(other);
    const keys = JSON.stringify(body.modules);
    expect(keys).toContain('"moduleKey":"User"');
    expect(keys).toContain('"moduleKey":"SKU"');
    expect(keys).not.toContain('"moduleKey":"Warehouse"');
    expect(body.modules.map((x: { appKey: string }) => x.appKey)).toEqual(['WMS']);
  });

  it('refuses other roles, even with the User module', async () => {
    const wh = await makeWarehouse(t.database);
    const m = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh], modules: { User: 'write' } });
    const res = await as(t.app, await sessionOf(m.username)).get('/Warehouse/User/GetModuleWarehouseUsers');
    expect(res.statusCode).toBe(403);
  });
});

describe('GetCustomersByWarehouse', () => {
  it('lists the clients a warehouse serves, within the caller’s scope', async () => {
    const wh = await makeWarehouse(t.database);
    const c1 = await makeCustomer(t.database, [wh], 'Beta Goods');
    const c2 = await makeCustomer(t.database, [wh], 'Alpha Goods');
    await makeCustomer(t.database, [await makeWarehouse(t.database)], 'Elsewhere Goods');
    const res = await superAdmin.get(`/Warehouse/User/GetCustomersByWarehouse?whid=${wh}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { uniqueid: c2, customerId: c2, customerName: 'Alpha Goods', warehouseId: wh },
      { uniqueid: c1, customerId: c1, customerName: 'Beta Goods', warehouseId: wh },
    ]);
    const a = await administrator([wh], [c1]);
    expect((await a.api.get(`/Warehouse/User/GetCustomersByWarehouse?whid=${wh}`)).json().map((c: { customerId: number }) => c.customerId)).toEqual([c1]);
  });

  it('answers 403 outside the caller’s warehouses, 404 for an unknown one, 400 for a bad id', async () => {
    const mine = await makeWarehouse(t.database);
    const other = await makeWarehouse(t.database);
    const a = await administrator([mine]);
    expect((await a.api.get(`/Warehouse/User/GetCustomersByWarehouse?whid=${other}`)).statusCode).toBe(403);
    expect((await superAdmin.get('/Warehouse/User/GetCustomersByWarehouse?whid=999999')).statusCode).toBe(404);
    expect((await superAdmin.get('/Warehouse/User/GetCustomersByWarehouse?whid=abc')).statusCode).toBe(400);
  });
});

describe('CreateUser', () => {
  it('creates a user: lowercase names, argon2id hash, assignments, audit and ReceiveUserData', async () => {
    const wh = await makeWarehouse(t.database, 'Create Depot');
    const cust = await makeCustomer(t.database, [wh], 'Create Client');
    let newId: number | undefined;
    const added = userEvent('AddUser', () => newId);
    const body = valid({
      username: 'New.Picker', email: 'New.Picker@Example.com', warehouses: [wh], customers: [cust],
      modules: [{ moduleId: moduleIds.get('SKU'), permission: 'write' }, { moduleId: moduleIds.get('Location'), permission: 'read' }],
    });
    const res = await superAdmin.post('/Warehouse/User/CreateUser', body);
    expect(res.statusCode).toBe(200);
    const { message, data } = res.json();
    newId = data.userId;
    expect(message).toBe('User created successfully');
    expect(data).toMatchObject({
      username: 'new.picker', email: 'new.picker@example.com', usertype: 'Warehouse Staff', role: 'WarehouseStaff', isActive: true,
      phone: '+1 555 0100', timezone: 'America/Chicago', customerId: null, uniqueid: data.userId,
      warehouses: [{ warehouseId: wh, warehouseName: 'Create Depot' }], customers: [{ customerId: cust, customerName: 'Create Client' }],
    });
    expect(data.modules.map((m: { moduleKey: string; permission: string }) => `${m.moduleKey}:${m.permission}`).sort()).toEqual(['Location:read', 'SKU:write']);
    expect(JSON.stringify(data)).not.toMatch(/password|argon2/i);

    const row = await t.database.db.selectFrom('app_user').selectAll().where('id', '=', data.userId).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'user').where('entity_id', '=', String(data.userId)).execute();
    expect(audit.map((a) => a.action)).toEqual(['create']);
    expect(audit[0].after_json).not.toMatch(/argon2/);

    const seen = await added();
    expect(seen).toHaveLength(1);
    expect(seen[0].warehouseId ?? null).toBeNull();
    expect(seen[0].payload).toMatchObject({ subEvent: 'AddUser', payload: { userId: data.userId, username: 'new.picker', warehouses: [wh], customers: [cust] } });

    // The new account signs in (by any case of its name) and holds the modules it was given.
    const s = await login(t.app, 'NEW.PICKER', 'a long enough password');
    expect(s.userid).toBe(data.userId);
  });

  it('refuses bad input with the spec messages and writes nothing', async () => {
    const before = await userCount();
    const res = await superAdmin.post('/Warehouse/User/CreateUser', valid({ firstName: '', lastName: '', email: 'not-an-email', password: '', confirmPassword: '', phone: 'abc' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toMatchObject({
      firstName: MSG.firstName, lastName: MSG.lastName, email: MSG.emailFormat, password: MSG.password, confirmPassword: MSG.rePassword, phone: MSG.phoneValid,
    });
    const mismatch = await superAdmin.post('/Warehouse/User/CreateUser', valid({ confirmPassword: 'something else entirely' }));
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().details).toMatchObject({ confirmPassword: MSG.passwordMismatch });
    const short = await superAdmin.post('/Warehouse/User/CreateUser', valid({ password: 'short', confirmPassword: 'short' }));
    expect(short.json().details).toMatchObject({ password: MSG.passwordPolicy });
    expect((await superAdmin.post('/Warehouse/User/CreateUser', valid({ usertype: 'Overlord' }))).statusCode).toBe(400);
    expect((await superAdmin.post('/Warehouse/User/CreateUser', valid({ username: 'a b' }))).statusCode).toBe(400);
    const wh = await makeWarehouse(t.database);
    expect((await superAdmin.post('/Warehouse/User/CreateUser', valid({ warehouses: [wh], timezone: 'Mars/Olympus' }))).statusCode).toBe(400);
    expect((await superAdmin.post('/Warehouse/User/CreateUser', valid({ warehouses: [999999] }))).statusCode).toBe(400);
    const noWarehouse = await superAdmin.post('/Warehouse/User/CreateUser', valid({ warehouses: [] }));
    expect(noWarehouse.statusCode).toBe(400);
    expect(noWarehouse.json().details).toMatchObject({ warehouses: 'Please select a warehouse!' });
    expect((await superAdmin.post('/Warehouse/User/CreateUser', valid({ warehouses: [wh], modules: [{ moduleId: 999999, permission: 'read' }] }))).statusCode).toBe(400);
    expect((await superAdmin.post('/Warehouse/User/CreateUser', valid({ warehouses: [wh], modules: [{ moduleId: moduleIds.get('SKU'), permission: 'admin' }] }))).statusCode).toBe(400);
    expect(await userCount()).toBe(before);
  });

  it('refuses a username or e-mail already taken, whatever the case, with 409', async () => {
    const wh = await makeWarehouse(t.database);
    const first = valid({ warehouses: [wh] });
    expect((await superAdmin.post('/Warehouse/User/CreateUser', first)).statusCode).toBe(200);
    const sameName = await superAdmin.post('/Warehouse/User/CreateUser', valid({ warehouses: [wh], username: first.username.toUpperCase() }));
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().message).toBe('This username is already taken');
    const sameEmail = await superAdmin.post('/Warehouse/User/CreateUser', valid({ warehouses: [wh], email: first.email.toUpperCase() }));
    expect(sameEmail.statusCode).toBe(409);
  });

  it('requires a client for a Client account, whose warehouses are its customer’s', async () => {
    const w1 = await makeWarehouse(t.database, 'Client Depot A');
    const w2 = await makeWarehouse(t.database, 'Client Depot B');
    const cust = await makeCustomer(t.database, [w1, w2], 'Client Co');
    const before = await userCount();
    const missing = await superAdmin.post('/Warehouse/User/CreateUser', valid({ usertype: 'Client', warehouses: [w1] }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toMatchObject({ customerId: 'Please select a client!' });
    expect((await superAdmin.post('/Warehouse/User/CreateUser', valid({ usertype: 'Client', customerId: 999999 }))).statusCode).toBe(400);
    expect(await userCount()).toBe(before);

    const res = await superAdmin.post('/Warehouse/User/CreateUser', valid({ usertype: 'Client', customerId: cust, warehouses: [], modules: [{ moduleId: moduleIds.get('SKU'), permission: 'read' }] }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      usertype: 'Client', customerId: cust, customers: [{ customerId: cust, customerName: 'Client Co' }],
      warehouses: [{ warehouseId: w1, warehouseName: 'Client Depot A' }, { warehouseId: w2, warehouseName: 'Client Depot B' }],
    });
  });

  it('holds an Administrator to their own scope and below Super Administrator', async () => {
    const mine = await makeWarehouse(t.database);
    const other = await makeWarehouse(t.database);
    const myClient = await makeCustomer(t.database, [mine]);
    const otherClient = await makeCustomer(t.database, [mine, other]);
    const a = await administrator([mine], [myClient], { User: 'write', SKU: 'read' });
    const before = await userCount();
    expect((await a.api.post('/Warehouse/User/CreateUser', valid({ usertype: 'Super Administrator', warehouses: [mine] }))).statusCode).toBe(403);
    expect((await a.api.post('/Warehouse/User/CreateUser', valid({ warehouses: [other] }))).statusCode).toBe(403);
    expect((await a.api.post('/Warehouse/User/CreateUser', valid({ warehouses: [mine], customers: [otherClient] }))).statusCode).toBe(403);
    expect((await a.api.post('/Warehouse/User/CreateUser', valid({ usertype: 'Client', customerId: otherClient }))).statusCode).toBe(403);
    // Only modules the Administrator holds, at most at their level.
    expect((await a.api.post('/Warehouse/User/CreateUser', valid({ warehouses: [mine], modules: [{ moduleId: moduleIds.get('Warehouse'), permission: 'read' }] }))).statusCode).toBe(403);
    expect((await a.api.post('/Warehouse/User/CreateUser', valid({ warehouses: [mine], modules: [{ moduleId: moduleIds.get('SKU'), permission: 'write' }] }))).statusCode).toBe(403);
    expect(await userCount()).toBe(before);

    const ok = await a.api.post('/Warehouse/User/CreateUser', valid({ usertype: 'Administrator', warehouses: [mine], customers: [myClient], modules: [{ moduleId: moduleIds.get('SKU'), permission: 'read' }] }));
    expect(ok.statusCode).toBe(200);
  });

  it('refuses a client not served by the chosen warehouses', async () => {
    const w1 = await makeWarehouse(t.database);
    const w2 = await makeWarehouse(t.database);
    const cust = await makeCustomer(t.database, [w2]);
    const res = await superAdmin.post('/Warehouse/User/CreateUser', valid({ warehouses: [w1], customers: [cust] }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details.customers).toMatch(/not served/);
  });

  it('is for administrators with User write', async () => {
    const wh = await makeWarehouse(t.database);
    const manager = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh], modules: { User: 'write' } });
    expect((await as(t.app, await sessionOf(manager.username)).post('/Warehouse/User/CreateUser', valid({ warehouses: [wh] }))).statusCode).toBe(403);
    const reader = await administrator([wh], [], { User: 'read' });
    expect((await reader.api.post('/Warehouse/User/CreateUser', valid({ warehouses: [wh] }))).statusCode).toBe(403);
    const cust = await makeCustomer(t.database, [wh]);
    const client = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { User: 'write' } });
    expect((await as(t.app, await sessionOf(client.username)).post('/Warehouse/User/CreateUser', valid({ warehouses: [wh] }))).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/Warehouse/User/CreateUser', payload: valid({ warehouses: [wh] }) })).statusCode).toBe(401);
  });
});

describe('GetUsers', () => {
  it('pages, searches and sorts, with each row’s own warehouses and clients', async () => {
    const tag = `pg${uniq()}`;
    const w1 = await makeWarehouse(t.database, 'Page Depot 1');
    const w2 = await makeWarehouse(t.database, 'Page Depot 2');
    const c1 = await makeCustomer(t.database, [w1], 'Page Client 1');
    const c2 = await makeCustomer(t.database, [w2], 'Page Client 2');
    const plan: [string, number[], number[]][] = [['d', [w1], [c1]], ['b', [w2], [c2]], ['a', [w1, w2], [c1, c2]], ['c', [w2], []], ['e', [], []]];
    const ids = new Map<string, number>();
    for (const [letter, warehouseIds, customerIds] of plan) {
      ids.set(letter, (await makeUser(t.database, { role: 'WarehouseStaff', username: `${tag}_${letter}`, warehouseIds, customerIds })).id);
    }
    const first = (await superAdmin.post('/Warehouse/User/GetUsers', { searchQuery: tag.toUpperCase(), pageNumber: 1, pageSize: 3, sort: { field: 'username', order: 'ascend' } })).json();
    expect(first.totalCount).toBe(5);
    expect(first.items.map((u: { username: string }) => u.username)).toEqual([`${tag}_a`, `${tag}_b`, `${tag}_c`]);
    const [a, b, c] = first.items;
    expect(a.warehouses).toEqual([{ warehouseId: w1, warehouseName: 'Page Depot 1' }, { warehouseId: w2, warehouseName: 'Page Depot 2' }]);
    expect(a.customers).toEqual([{ customerId: c1, customerName: 'Page Client 1' }, { customerId: c2, customerName: 'Page Client 2' }]);
    expect(b.warehouses).toEqual([{ warehouseId: w2, warehouseName: 'Page Depot 2' }]);
    expect(b.customers).toEqual([{ customerId: c2, customerName: 'Page Client 2' }]);
    expect(c.customers).toEqual([]);
    expect(a).toMatchObject({ uniqueid: ids.get('a'), usertype: 'Warehouse Staff', firstName: 'Test', lastName: 'User', isActive: true });
    expect(JSON.stringify(first)).not.toMatch(/password|argon2/i);

    const second = (await superAdmin.post('/Warehouse/User/GetUsers', { searchQuery: tag, pageNumber: 2, pageSize: 3, sort: { field: 'username', order: 'descend' } })).json();
    expect(second.items.map((u: { username: string }) => u.username)).toEqual([`${tag}_b`, `${tag}_a`]);

    const byWarehouse = (await superAdmin.post('/Warehouse/User/GetUsers', { searchQuery: tag, filters: { warehouseId: w1 } })).json();
    expect(byWarehouse.items.map((u: { username: string }) => u.username)).toEqual([`${tag}_a`, `${tag}_d`]);
  });

  it('filters by role and status', async () => {
    const tag = `rf${uniq()}`;
    const wh = await makeWarehouse(t.database);
    await makeUser(t.database, { role: 'WarehouseManager', username: `${tag}_m`, warehouseIds: [wh] });
    const staff = await makeUser(t.database, { role: 'WarehouseStaff', username: `${tag}_s`, warehouseIds: [wh] });
    await superAdmin.put(`/Warehouse/User/SetUserStatus?userId=${staff.id}&isActive=false`);
    const managers = (await superAdmin.post('/Warehouse/User/GetUsers', { searchQuery: tag, filters: { role: 'WarehouseManager' } })).json();
    expect(managers.items.map((u: { username: string }) => u.username)).toEqual([`${tag}_m`]);
    const inactive = (await superAdmin.post('/Warehouse/User/GetUsers', { searchQuery: tag, filters: { isActive: 'inactive' } })).json();
    expect(inactive.items.map((u: { username: string }) => u.username)).toEqual([`${tag}_s`]);
    const active = (await superAdmin.post('/Warehouse/User/GetUsers', { searchQuery: tag, filters: { isActive: 'active' } })).json();
    expect(active.totalCount).toBe(1);
    expect((await superAdmin.post('/Warehouse/User/GetUsers', { filters: { role: 'King' } })).statusCode).toBe(400);
  });

  it('shows a non-super caller only users who share a warehouse with them, and only those warehouses', async () => {
    const tag = `sc${uniq()}`;
    const mine = await makeWarehouse(t.database, 'Scope Mine');
    const other = await makeWarehouse(t.database, 'Scope Other');
    const cust = await makeCustomer(t.database, [mine]);
    const shared = await makeUser(t.database, { role: 'WarehouseStaff', username: `${tag}_shared`, warehouseIds: [mine, other] });
    await makeUser(t.database, { role: 'WarehouseStaff', username: `${tag}_hidden`, warehouseIds: [other] });
    await makeUser(t.database, { role: 'Client', username: `${tag}_client`, customerId: cust });
    const manager = await makeUser(t.database, { role: 'WarehouseManager', username: `${tag}_mgr`, warehouseIds: [mine], modules: { User: 'read' } });
    const api = as(t.app, await sessionOf(manager.username));
    const page = (await api.post('/Warehouse/User/GetUsers', { searchQuery: tag })).json();
    expect(page.items.map((u: { username: string }) => u.username)).toEqual([`${tag}_client`, `${tag}_mgr`, `${tag}_shared`]);
    expect(page.items.find((u: { userId: number }) => u.userId === shared.id).warehouses).toEqual([{ warehouseId: mine, warehouseName: 'Scope Mine' }]);
    expect((await api.post('/Warehouse/User/GetUsers', { filters: { warehouseId: other } })).statusCode).toBe(403);
  });

  it('is refused to a Client account and to staff without the User module', async () => {
    const wh = await makeWarehouse(t.database);
    const cust = await makeCustomer(t.database, [wh]);
    const client = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { User: 'read' } });
    expect((await as(t.app, await sessionOf(client.username)).post('/Warehouse/User/GetUsers', {})).statusCode).toBe(403);
    const staff = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], modules: { SKU: 'read' } });
    expect((await as(t.app, await sessionOf(staff.username)).post('/Warehouse/User/GetUsers', {})).statusCode).toBe(403);
  });

  it('treats search text literally and ignores an unknown sort field', async () => {
    const res = await superAdmin.post('/Warehouse/User/GetUsers', { searchQuery: "%' OR 1=1 --", sort: { field: 'password_hash', order: 'ascend' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().totalCount).toBe(0);
  });
});

describe('DownloadUserExcel', () => {
  it('downloads the filtered list with formula-like text escaped', async () => {
    const wh = await makeWarehouse(t.database, '=Depot+1');
    const tag = `xl${uniq()}`;
    const created = await superAdmin.post('/Warehouse/User/CreateUser', valid({ username: `${tag}_x`, firstName: '=HYPERLINK("http://evil")', lastName: '@SUM(A1)', warehouses: [wh] }));
    expect(created.statusCode).toBe(200);
    const res = await superAdmin.post('/Warehouse/User/DownloadUserExcel', { searchQuery: tag });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="users-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(2);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(['Username', 'First Name', 'Last Name', 'Email', 'Phone', 'User Type', 'Warehouses', 'Clients', 'Time Zone', 'Status']);
    const row = sheet.getRow(2);
    expect(row.getCell(1).value).toBe(`${tag}_x`);
    expect(row.getCell(2).value).toBe('\'=HYPERLINK("http://evil")');
    expect(row.getCell(3).value).toBe('\'@SUM(A1)');
    expect(row.getCell(7).value).toBe('\'=Depot+1');
    expect(row.getCell(10).value).toBe('Active');
  });
});

describe('GetUserDetails', () => {
  it('gives everything the edit form needs and never the hash', async () => {
    const wh = await makeWarehouse(t.database);
    const u = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh], modules: { SKU: 'write', Location: 'read' } });
    const res = await superAdmin.get(`/Warehouse/User/GetUserDetails?userId=${u.id}`);
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d).toMatchObject({ userId: u.id, username: u.username, usertype: 'Warehouse Manager', emailVerified: false, warehouses: [{ warehouseId: wh }] });
    expect(d.modules).toContainEqual(expect.objectContaining({ moduleId: moduleIds.get('SKU'), moduleKey: 'SKU', permission: 'write' }));
    expect(d.modules).toContainEqual(expect.objectContaining({ moduleKey: 'Location', permission: 'read' }));
    expect(JSON.stringify(d)).not.toMatch(/password|argon2|hash/i);
  });

  it('answers 404 for an unknown user, 403 outside the caller’s warehouses, 400 for a bad id', async () => {
    const mine = await makeWarehouse(t.database);
    const other = await makeWarehouse(t.database);
    const outsider = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [other] });
    const a = await administrator([mine]);
    expect((await a.api.get(`/Warehouse/User/GetUserDetails?userId=${outsider.id}`)).statusCode).toBe(403);
    expect((await superAdmin.get('/Warehouse/User/GetUserDetails?userId=999999')).statusCode).toBe(404);
    expect((await superAdmin.get('/Warehouse/User/GetUserDetails?userId=x')).statusCode).toBe(400);
  });
});

describe('UpdateUser', () => {
  it('replaces fields and assignments, audits before and after, raises UpdateUser', async () => {
    const w1 = await makeWarehouse(t.database, 'Upd Depot 1');
    const w2 = await makeWarehouse(t.database, 'Upd Depot 2');
    const c2 = await makeCustomer(t.database, [w2], 'Upd Client');
    const body = valid({ warehouses: [w1], modules: [{ moduleId: moduleIds.get('SKU'), permission: 'write' }] });
    const { data: created } = (await superAdmin.post('/Warehouse/User/CreateUser', body)).json();
    const updated = userEvent('UpdateUser', () => created.userId);
    const res = await superAdmin.put(`/Warehouse/User/UpdateUser?userId=${created.userId}`, editable({
      ...body, firstName: 'Robin', warehouses: [w2], customers: [c2], modules: [{ moduleId: moduleIds.get('Location'), permission: 'read' }],
    }));
    expect(res.statusCode).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('User updated successfully');
    expect(data).toMatchObject({ firstName: 'Robin', warehouses: [{ warehouseId: w2 }], customers: [{ customerId: c2 }] });
    expect(data.modules.map((m: { moduleKey: string }) => m.moduleKey)).toEqual(['Location']);
    const row = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'user').where('action', '=', 'update')
      .where('entity_id', '=', String(created.userId)).executeTakeFirstOrThrow();
    expect(JSON.parse(row.before_json!)).toMatchObject({ firstName: 'Pat', warehouses: [{ warehouseId: w1 }] });
    expect(JSON.parse(row.after_json!)).toMatchObject({ firstName: 'Robin', warehouses: [{ warehouseId: w2 }] });
    const seen = await updated();
    expect(seen).toHaveLength(1);
    expect(seen[0].payload).toMatchObject({ subEvent: 'UpdateUser', payload: { userId: created.userId, firstName: 'Robin', warehouses: [w2], customers: [c2] } });
  });

  it('ends the user’s sessions at once when their role changes', async () => {
    const wh = await makeWarehouse(t.database);
    const body = valid({ warehouses: [wh] });
    const { data: created } = (await superAdmin.post('/Warehouse/User/CreateUser', body)).json();
    const session = await login(t.app, body.username, body.password);
    const api = as(t.app, session);
    expect((await api.get('/Common/Auth/Profile')).statusCode).toBe(200);
    expect((await superAdmin.put(`/Warehouse/User/UpdateUser?userId=${created.userId}`, editable({ ...body, usertype: 'Warehouse Manager' }))).statusCode).toBe(200);
    expect((await api.get('/Common/Auth/Profile')).statusCode).toBe(401);
    const s = await t.database.db.selectFrom('auth_session').select(['revoked_reason']).where('user_id', '=', created.userId).executeTakeFirstOrThrow();
    expect(s.revoked_reason).toBe('user_access_changed');
  });

  it('keeps a session when nothing about access changes', async () => {
    const wh = await makeWarehouse(t.database);
    const body = valid({ warehouses: [wh] });
    const { data: created } = (await superAdmin.post('/Warehouse/User/CreateUser', body)).json();
    const api = as(t.app, await login(t.app, body.username, body.password));
    await superAdmin.put(`/Warehouse/User/UpdateUser?userId=${created.userId}`, editable({ ...body, lastName: 'Packer' }));
    expect((await api.get('/Common/Auth/Profile')).statusCode).toBe(200);
  });

  it('keeps assignments outside an Administrator’s scope, and refuses ones outside it', async () => {
    const mine = await makeWarehouse(t.database);
    const other = await makeWarehouse(t.database);
    const target = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [mine, other], modules: { Warehouse: 'read' } });
    const a = await administrator([mine], [], { User: 'write', SKU: 'write' });
    const before = (await superAdmin.get(`/Warehouse/User/GetUserDetails?userId=${target.id}`)).json();
    const body = {
      username: target.username, email: before.email, firstName: 'Kept', lastName: 'Scope', timezone: 'UTC', usertype: 'Warehouse Staff',
      warehouses: [mine], customers: [], modules: [{ moduleId: moduleIds.get('SKU'), permission: 'read' }], isActive: true,
    };
    expect((await a.api.put(`/Warehouse/User/UpdateUser?userId=${target.id}`, body)).statusCode).toBe(200);
    const after = (await superAdmin.get(`/Warehouse/User/GetUserDetails?userId=${target.id}`)).json();
    expect(after.warehouses.map((w: { warehouseId: number }) => w.warehouseId).sort()).toEqual([mine, other].sort());
    expect(after.modules.map((m: { moduleKey: string }) => m.moduleKey).sort()).toEqual(['SKU', 'Warehouse']);
    expect((await a.api.put(`/Warehouse/User/UpdateUser?userId=${target.id}`, { ...body, warehouses: [mine, other] })).statusCode).toBe(403);
  });

  it('guards Super Administrators, the caller’s own account, unknown ids and bad input', async () => {
    const wh = await makeWarehouse(t.database);
    const a = await administrator([wh]);
    const sup = await makeUser(t.database, { role: 'SuperAdministrator', warehouseIds: [wh] });
    const supBody = { username: sup.username, email: `${sup.username}@example.com`, firstName: 'S', lastName: 'A', usertype: 'Super Administrator', warehouses: [wh] };
    expect((await a.api.put(`/Warehouse/User/UpdateUser?userId=${sup.id}`, { ...supBody, usertype: 'Warehouse Staff' })).statusCode).toBe(403);
    expect((await a.api.put(`/Warehouse/User/SetUserStatus?userId=${sup.id}&isActive=false`)).statusCode).toBe(403);
    const self = { username: a.username, email: `${a.username}@example.com`, firstName: 'A', lastName: 'B', usertype: 'Warehouse Staff', warehouses: [wh] };
    expect((await a.api.put(`/Warehouse/User/UpdateUser?userId=${a.id}`, self)).statusCode).toBe(400);
    expect((await a.api.put(`/Warehouse/User/UpdateUser?userId=${a.id}`, { ...self, usertype: 'Administrator', isActive: false })).statusCode).toBe(400);
    expect((await superAdmin.put('/Warehouse/User/UpdateUser?userId=999999', { ...self, username: 'nobody.here', email: 'nobody@example.com' })).statusCode).toBe(404);
    const other = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh] });
    const taken = await superAdmin.put(`/Warehouse/User/UpdateUser?userId=${other.id}`, { ...self, usertype: 'Warehouse Staff' });
    expect(taken.statusCode).toBe(409);
    const bad = await superAdmin.put(`/Warehouse/User/UpdateUser?userId=${other.id}`, { ...self, username: other.username, email: 'x', firstName: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toMatchObject({ email: MSG.emailFormat, firstName: MSG.firstName });
  });
});

describe('SetUserStatus', () => {
  it('disabling refuses the user’s token, refresh and sign-in at once; enabling lets them back', async () => {
    const wh = await makeWarehouse(t.database);
    const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], modules: { SKU: 'read' } });
    const session = await sessionOf(u.username);
    const api = as(t.app, session);
    expect((await api.get('/Common/Auth/Profile')).statusCode).toBe(200);
    const updated = userEvent('UpdateUser', () => u.id);

    const res = await superAdmin.put(`/Warehouse/User/SetUserStatus?userId=${u.id}&isActive=false`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'User disabled successfully', data: { userId: u.id, isActive: false } });
    expect((await api.get('/Common/Auth/Profile')).statusCode).toBe(401);
    const refresh = await t.app.inject({ method: 'POST', url: '/Common/Auth/refresh-token', payload: { refreshToken: session.refreshtoken } });
    expect(refresh.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/Common/Auth/login', payload: { username: u.username, password: u.password } })).statusCode).toBe(401);
    const sessions = await t.database.db.selectFrom('auth_session').select(['revoked_at', 'revoked_reason']).where('user_id', '=', u.id).execute();
    expect(sessions.every((s) => s.revoked_at && s.revoked_reason === 'user_disabled')).toBe(true);
    const seen = await updated();
    expect(seen).toHaveLength(1);
    expect(seen[0].payload).toMatchObject({ subEvent: 'UpdateUser', payload: { userId: u.id, isActive: false, warehouses: [wh] } });
    const audit = await t.database.db.selectFrom('audit_log').select('action').where('entity', '=', 'user').where('entity_id', '=', String(u.id)).execute();
    expect(audit.map((x) => x.action)).toContain('disable');

    const enabled = await superAdmin.put(`/Warehouse/User/SetUserStatus?userId=${u.id}&isActive=true`);
    expect(enabled.json()).toMatchObject({ message: 'User enabled successfully', data: { isActive: true } });
    expect((await as(t.app, await sessionOf(u.username)).get('/Common/Auth/Profile')).statusCode).toBe(200);
  });

  it('ends sessions when UpdateUser disables the account too', async () => {
    const wh = await makeWarehouse(t.database);
    const body = valid({ warehouses: [wh] });
    const { data: created } = (await superAdmin.post('/Warehouse/User/CreateUser', body)).json();
    const api = as(t.app, await login(t.app, body.username, body.password));
    await superAdmin.put(`/Warehouse/User/UpdateUser?userId=${created.userId}`, editable({ ...body, isActive: false }));
    expect((await api.get('/Common/Auth/Profile')).statusCode).toBe(401);
  });

  it('refuses self-disable, other warehouses’ users, unknown ids and bad flags', async () => {
    const mine = await makeWarehouse(t.database);
    const other = await makeWarehouse(t.database);
    const a = await administrator([mine]);
    const outsider = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [other] });
    expect((await a.api.put(`/Warehouse/User/SetUserStatus?userId=${a.id}&isActive=false`)).statusCode).toBe(400);
    expect((await a.api.put(`/Warehouse/User/SetUserStatus?userId=${outsider.id}&isActive=false`)).statusCode).toBe(403);
    expect((await superAdmin.put('/Warehouse/User/SetUserStatus?userId=999999&isActive=false')).statusCode).toBe(404);
    expect((await superAdmin.put(`/Warehouse/User/SetUserStatus?userId=${outsider.id}&isActive=maybe`)).statusCode).toBe(400);
    const row = await t.database.db.selectFrom('app_user').select('is_active').where('id', '=', outsider.id).executeTakeFirstOrThrow();
    expect(row.is_active).toBe(1);
  });
});

describe('UserFiltersLabels', () => {
  it('gives the role, warehouse and status filters, with the caller’s warehouses', async () => {
    const mine = await makeWarehouse(t.database, 'Label Depot');
    const a = await administrator([mine]);
    const labels = (await a.api.get('/Warehouse/User/UserFiltersLabels')).json();
    expect(labels.map((l: { key: string }) => l.key)).toEqual(['role', 'warehouseId', 'isActive']);
    expect(labels[0].options).toContainEqual({ label: 'Warehouse Manager', value: 'WarehouseManager' });
    expect(labels[1].options).toEqual([{ label: 'Label Depot', value: mine }]);
  });
});
