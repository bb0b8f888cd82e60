import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@bolx/contracts';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeWarehouse, recordEvents, type TestApp } from '../../../test/helpers.js';
import { count, signedIn, validCustomer as valid } from './customers.fixtures.js';

let t: TestApp;
let admin: ReturnType<typeof as>;
let wh1: number;
let wh2: number;
beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh1 = await makeWarehouse(t.database, 'North DC');
  wh2 = await makeWarehouse(t.database, 'South DC');
});
afterAll(async () => { await t?.close(); });

const B = '/Warehouse/Customer';
type Item = { customerId: number; customerName: string; customerCode: string; warehouses: { warehouseid: number; uniqueid: number }[] };

describe('AddNewCustomer', () => {
  it('creates with its warehouses, audits and raises ReceiveCustomerData AddCustomer', async () => {
    const events = await recordEvents(t.app);
    const res = await admin.post(`${B}/AddNewCustomer`, valid([wh1, wh2], { customerCode: 'acme1', email: 'OPS@Acme.example' }));
    const seen = await events.until(1);
    expect(res.statusCode).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('Customer added successfully');
    expect(data).toMatchObject({
      customerCode: 'ACME1', customerName: 'Acme Outdoor', email: 'ops@acme.example', contactPerson: 'Jane Roe', billingEmail: 'billing@acme.example',
      adjustmentApprovalThreshold: 25, isActive: true, uniqueid: data.customerId,
    });
    expect(data.warehouses.map((w: { warehouseid: number }) => w.warehouseid).sort()).toEqual([wh1, wh2].sort());
    expect(data.warehouses[0]).toMatchObject({ uniqueid: data.warehouses[0].warehouseid, customerId: data.customerId });
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'customer').where('entity_id', '=', String(data.customerId)).execute();
    expect(audit.map((a) => [a.action, a.customer_id])).toEqual([['create', data.customerId]]);
    expect(seen.map((e) => [e.target, (e.payload as { subEvent: string }).subEvent, e.customerId])).toEqual([['ReceiveCustomerData', 'AddCustomer', data.customerId]]);
  });

  it('refuses bad input with the spec messages and writes nothing', async () => {
    const before = [await count(t, 'customer'), await count(t, 'audit_log'), await count(t, 'event_outbox')];
    const res = await admin.post(`${B}/AddNewCustomer`, valid([wh1], { customerName: '', email: 'not-an-email', phone: 'call me', zip: '!', city: '', state: '', country: '' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toMatchObject({
      customerName: MSG.name, email: MSG.emailFormat, phone: MSG.phoneValid, zip: MSG.zipValid, city: MSG.city, state: MSG.state, country: MSG.country,
    });
    const empty = await admin.post(`${B}/AddNewCustomer`, valid([wh1], { email: '', phone: '', zip: '', city: 'B0ulder' }));
    expect(empty.json().details).toMatchObject({ email: MSG.email, phone: MSG.phone, zip: MSG.zip, city: MSG.cityValid });
    expect((await admin.post(`${B}/AddNewCustomer`, valid([wh1], { billingEmail: 'nope' }))).json().details).toMatchObject({ billingEmail: MSG.emailFormat });
    expect((await admin.post(`${B}/AddNewCustomer`, valid([]))).statusCode).toBe(400);
    expect((await admin.post(`${B}/AddNewCustomer`, valid([999999]))).statusCode).toBe(400);
    expect((await admin.post(`${B}/AddNewCustomer`, valid([wh1], { adjustmentApprovalThreshold: -1 }))).statusCode).toBe(400);
    expect([await count(t, 'customer'), await count(t, 'audit_log'), await count(t, 'event_outbox')]).toEqual(before);
  });

  it('refuses a duplicate code with 409, whatever its case', async () => {
    expect((await admin.post(`${B}/AddNewCustomer`, valid([wh1], { customerCode: 'DUPE' }))).statusCode).toBe(200);
    const res = await admin.post(`${B}/AddNewCustomer`, valid([wh1], { customerCode: 'dupe' }));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('A customer with this code already exists');
  });

  it('is for administrators with the Customer module, within their warehouses', async () => {
    const manager = await signedIn(t, { role: 'WarehouseManager', warehouseIds: [wh1] });
    expect((await manager.post(`${B}/AddNewCustomer`, valid([wh1]))).statusCode).toBe(403);
    const reader = await signedIn(t, { role: 'Administrator', warehouseIds: [wh1], permission: 'read' });
    expect((await reader.post(`${B}/AddNewCustomer`, valid([wh1]))).statusCode).toBe(403);
    const a = await signedIn(t, { role: 'Administrator', warehouseIds: [wh1] });
    const before = await count(t, 'customer');
    expect((await a.post(`${B}/AddNewCustomer`, valid([wh1, wh2]))).statusCode).toBe(403);
    expect(await count(t, 'customer')).toBe(before);
  });

  it('assigns an Administrator to the customer they create, so it stays in their scope', async () => {
    const a = await signedIn(t, { role: 'Administrator', warehouseIds: [wh1] });
    const created = (await a.post(`${B}/AddNewCustomer`, valid([wh1], { customerName: 'Scoped Co' }))).json().data;
    const list = (await a.post(`${B}/GetCustomers`, {})).json();
    expect(list.items.map((c: Item) => c.customerId)).toEqual([created.customerId]);
    expect((await a.get(`${B}/GetCustomerInfoById?customerid=${created.customerId}`)).statusCode).toBe(200);
  });
});

describe('UpdateCustomer', () => {
  it('sets whether short orders wait as Backordered (true for a new customer; left as it was when not sent)', async () => {
    const created = (await admin.post(`${B}/AddNewCustomer`, valid([wh1], { customerCode: 'bko1' }))).json().data;
    expect(created.allowBackorders).toBe(true);
    const update = (over: Record<string, unknown>) => admin.post(`${B}/UpdateCustomer`, { ...valid([wh1], { customerCode: created.customerCode, ...over }), customerId: created.customerId });
    expect((await update({ allowBackorders: false })).json().data.allowBackorders).toBe(false);
    expect((await update({ customerName: 'Kept' })).json().data.allowBackorders).toBe(false);
    expect((await update({ allowBackorders: 'no' })).statusCode).toBe(400);
  });

  it('keeps the GS1 company prefix SSCCs are built from: 7–10 digits, left as it was when not sent, cleared by an empty value', async () => {
    const created = (await admin.post(`${B}/AddNewCustomer`, valid([wh1], { customerCode: 'gs1a', gs1CompanyPrefix: '0614141' }))).json().data;
    expect(created.gs1CompanyPrefix).toBe('0614141');
    const update = (over: Record<string, unknown>) => admin.post(`${B}/UpdateCustomer`, { ...valid([wh1], { customerCode: created.customerCode, ...over }), customerId: created.customerId });
    expect((await update({ customerName: 'Kept' })).json().data.gs1CompanyPrefix).toBe('0614141');
    const bad = await update({ gs1CompanyPrefix: '12345' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/7 to 10 digits/);
    expect((await update({ gs1CompanyPrefix: '' })).json().data.gs1CompanyPrefix).toBeNull();
  });

  it('updates with before and after in the audit and raises UpdateCustomer', async () => {
    // Listen from before the create: on PostgreSQL its event may arrive after the update's request started.
    const events = await recordEvents(t.app);
    const created = (await admin.post(`${B}/AddNewCustomer`, valid([wh1]))).json().data;
    const res = await admin.post(`${B}/UpdateCustomer`, { ...valid([wh2], { customerCode: created.customerCode, customerName: 'Acme Renamed', isActive: false }), customerId: created.customerId });
    const seen = await events.until(2);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Customer updated successfully');
    expect(res.json().data).toMatchObject({ customerName: 'Acme Renamed', isActive: false, warehouses: [{ warehouseid: wh2 }] });
    const row = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'customer').where('action', '=', 'update')
      .where('entity_id', '=', String(created.customerId)).executeTakeFirstOrThrow();
    expect(JSON.parse(row.before_json!).customerName).toBe('Acme Outdoor');
    expect(JSON.parse(row.after_json!).customerName).toBe('Acme Renamed');
    expect(seen.map((e) => [e.target, (e.payload as { subEvent: string }).subEvent, e.customerId])).toEqual([
      ['ReceiveCustomerData', 'AddCustomer', created.customerId], ['ReceiveCustomerData', 'UpdateCustomer', created.customerId],
    ]);
    expect((seen[1].payload as { payload: { customerName: string } }).payload.customerName).toBe('Acme Renamed');
  });

  it('answers 404 for an unknown customer, 409 for another customer’s code, 400 for bad input', async () => {
    expect((await admin.post(`${B}/UpdateCustomer`, { ...valid([wh1]), customerId: 999999 })).statusCode).toBe(404);
    const a = (await admin.post(`${B}/AddNewCustomer`, valid([wh1], { customerCode: 'UPD-A' }))).json().data;
    await admin.post(`${B}/AddNewCustomer`, valid([wh1], { customerCode: 'UPD-B' }));
    expect((await admin.post(`${B}/UpdateCustomer`, { ...valid([wh1], { customerCode: 'upd-b' }), customerId: a.customerId })).statusCode).toBe(409);
    const bad = await admin.post(`${B}/UpdateCustomer`, { ...valid([wh1], { customerCode: 'UPD-A', email: 'x@' }), customerId: a.customerId });
    expect(bad.statusCode).toBe(400);
    expect((await admin.get(`${B}/GetCustomerInfoById?customerid=${a.customerId}`)).json().email).toBe('ops@acme.example');
  });

  it('refuses another customer (403) and keeps warehouses outside the caller’s scope', async () => {
    const shared = await makeCustomer(t.database, [wh1, wh2]);
    const other = await makeCustomer(t.database, [wh1]);
    const a = await signedIn(t, { role: 'Administrator', warehouseIds: [wh1], customerIds: [shared] });
    expect((await a.post(`${B}/UpdateCustomer`, { ...valid([wh1]), customerId: other })).statusCode).toBe(403);
    const res = await a.post(`${B}/UpdateCustomer`, { ...valid([wh1]), customerId: shared });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.warehouses.map((w: { warehouseid: number }) => w.warehouseid)).toEqual([wh1]);
    const all = (await admin.get(`${B}/WarehouseByCustomerid?customerId=${shared}`)).json();
    expect(all.map((w: { warehouseid: number }) => w.warehouseid).sort()).toEqual([wh1, wh2].sort());
  });
});

describe('reads', () => {
  it('GetCustomers filters, searches, sorts and pages, with the warehouses serving each', async () => {
    for (const name of ['Zeta Gear', 'Yotta Gear', 'Xeno Gear']) await admin.post(`${B}/AddNewCustomer`, valid([wh2], { customerName: name }));
    const page = (await admin.post(`${B}/GetCustomers`, { searchQuery: 'gear', pageSize: 2, sort: { field: 'customerName', order: 'ascend' } })).json();
    expect(page.totalCount).toBe(3);
    expect(page.items.map((c: Item) => c.customerName)).toEqual(['Xeno Gear', 'Yotta Gear']);
    expect(page.items[0].warehouses).toEqual([expect.objectContaining({ warehouseid: wh2, uniqueid: wh2, warehouseName: 'South DC' })]);
    const second = (await admin.post(`${B}/GetCustomers`, { searchQuery: 'GEAR', pageNumber: 2, pageSize: 2, sort: { field: 'customerName', order: 'ascend' } })).json();
    expect(second.items.map((c: Item) => c.customerName)).toEqual(['Zeta Gear']);
    const byWarehouse = (await admin.post(`${B}/GetCustomers`, { filters: { warehouseId: wh1 }, searchQuery: 'gear' })).json();
    expect(byWarehouse.totalCount).toBe(0);
    expect((await admin.post(`${B}/GetCustomers`, { searchQuery: "%' OR 1=1 --" })).json().totalCount).toBe(0);
    expect((await admin.post(`${B}/GetCustomers`, { sort: { field: 'name; drop table customer', order: 'ascend' } })).statusCode).toBe(200);
    expect((await admin.post(`${B}/GetCustomers`, { pageSize: 0 })).statusCode).toBe(400);
  });

  it('filters by status', async () => {
    const c = (await admin.post(`${B}/AddNewCustomer`, valid([wh1], { customerName: 'Dormant Ltd', isActive: false }))).json().data;
    const inactive = (await admin.post(`${B}/GetCustomers`, { filters: { isActive: 'inactive' }, searchQuery: 'Dormant' })).json();
    expect(inactive.items.map((i: Item) => i.customerId)).toEqual([c.customerId]);
    expect((await admin.post(`${B}/GetCustomers`, { filters: { isActive: 'active' }, searchQuery: 'Dormant' })).json().totalCount).toBe(0);
  });

  it('a Client reads its own customer only', async () => {
    const own = await makeCustomer(t.database, [wh1], 'Own Client Co');
    const other = await makeCustomer(t.database, [wh1], 'Other Client Co');
    const client = await signedIn(t, { role: 'Client', customerId: own, warehouseIds: [wh1], permission: 'read' });
    const list = (await client.post(`${B}/GetCustomers`, {})).json();
    expect(list.items.map((c: Item) => c.customerId)).toEqual([own]);
    expect((await client.get(`${B}/GetCustomerInfoById?customerid=${own}`)).json().customerName).toBe('Own Client Co');
    expect((await client.get(`${B}/GetCustomerInfoById?customerid=${other}`)).statusCode).toBe(403);
    expect((await client.get(`${B}/WarehouseByCustomerid?customerId=${other}`)).statusCode).toBe(403);
    expect((await client.post(`${B}/UpdateCustomer`, { ...valid([wh1]), customerId: own })).statusCode).toBe(403);
  });

  it('GetCustomerInfoById and WarehouseByCustomerid answer 404 for an unknown customer and 400 for a bad id', async () => {
    expect((await admin.get(`${B}/GetCustomerInfoById?customerid=999999`)).statusCode).toBe(404);
    expect((await admin.get(`${B}/WarehouseByCustomerid?customerId=999999`)).statusCode).toBe(404);
    expect((await admin.get(`${B}/GetCustomerInfoById?customerid=abc`)).statusCode).toBe(400);
    const c = await makeCustomer(t.database, [wh1]);
    const entries = (await admin.get(`${B}/WarehouseByCustomerid?customerId=${c}`)).json();
    expect(entries).toEqual([{ uniqueid: wh1, warehouseid: wh1, customerId: c, warehouseCode: expect.any(String), warehouseName: 'North DC' }]);
  });

  it('downloads the filtered list as xlsx with formula-like text escaped', async () => {
    await admin.post(`${B}/AddNewCustomer`, valid([wh1], { customerName: '=HYPERLINK("http://evil")' }));
    const res = await admin.post(`${B}/DownloadCustomerExcel`, { searchQuery: 'HYPERLINK' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="customers-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).getCell(2).value).toBe('Customer Name');
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(2).value).toBe('\'=HYPERLINK("http://evil")');
    expect(sheet.getRow(2).getCell(9).value).toBe('North DC');
  });

  it('gives the filter labels with the caller’s warehouses', async () => {
    const labels = (await admin.get(`${B}/CustomerFiltersLabels`)).json();
    expect(labels.map((l: { key: string }) => l.key)).toEqual(['isActive', 'warehouseId', 'country']);
    expect(labels[1].options).toEqual(expect.arrayContaining([{ label: 'North DC', value: wh1 }]));
    const a = await signedIn(t, { role: 'Administrator', warehouseIds: [wh1] });
    const scoped = (await a.get(`${B}/CustomerFiltersLabels`)).json();
    expect(scoped[1].options.map((o: { value: number }) => o.value)).toEqual([0, wh1]);
  });

  it('refuses a warehouse filter outside the caller’s scope', async () => {
    const a = await signedIn(t, { role: 'Administrator', warehouseIds: [wh1] });
    expect((await a.post(`${B}/GetCustomers`, { filters: { warehouseId: wh2 } })).statusCode).toBe(403);
  });
});
