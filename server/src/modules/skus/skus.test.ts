import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gtinCheckDigit, gtinProblem } from '@bolx/contracts';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeUser, makeWarehouse, recordEvents, type TestApp } from '../../../test/helpers.js';

const B = '/warehouse/Sku';
type Session = ReturnType<typeof as>;
type Json = Record<string, any>;

let t: TestApp;
let admin: Session;
/** A WarehouseManager who serves customer A only. */
let staff: Session;
/** A Client account of customer A (SKU read; also granted write, which its role still refuses). */
let client: Session;
let wh: number, custA: number, custB: number;

const signIn = async (u: { username: string; password: string }) => as(t.app, await login(t.app, u.username, u.password));
let seq = 0;
const code = (prefix = 'SKU') => `${prefix}-${++seq}-${Math.random().toString(36).slice(2, 6)}`;

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  custA = await makeCustomer(t.database, [wh], 'Acme Tools');
  custB = await makeCustomer(t.database, [wh], 'Beta Foods');
  staff = await signIn(await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh], customerIds: [custA], modules: { SKU: 'write', Dimensions: 'write' } }));
  client = await signIn(await makeUser(t.database, { role: 'Client', customerId: custA, modules: { SKU: 'write', Dimensions: 'write' } }));
});
afterAll(async () => { await t?.close(); });

const skuBody = (over: Json = {}) => ({ customerId: custA, skuCode: code(), description: 'Cordless drill 18V', uom: 'EA', ...over });
async function addSku(over: Json = {}, session = admin): Promise<Json> {
  const res = await session.post(`${B}/AddNewSku`, skuBody(over));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}
const count = async (table: 'sku' | 'sku_barcode' | 'sku_package' | 'kit_component' | 'sku_attribute') =>
  Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const audits = (entity: string, id: number) => t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', entity).where('entity_id', '=', String(id)).orderBy('id').execute();
/**
 * ReceiveSkuData events as delivered after commit, with the event's own customerId beside the payload. On
 * PostgreSQL they arrive a moment later (NOTIFY), so a test waits for the ones it names and ignores stragglers
 * from its set-up (their SkuAdd, or other SKUs).
 */
async function watchSkuEvents() {
  const recorder = await recordEvents(t.app);
  const sku = () => recorder.seen.filter((e) => e.target === 'ReceiveSkuData').map((e) => ({ ...(e.payload as Json), eventCustomerId: e.customerId }));
  return {
    async until(count: number, match: (e: Json) => boolean): Promise<Json[]> {
      const deadline = Date.now() + 3000;
      while (sku().filter(match).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await recorder.until(0);
      return sku().filter(match);
    },
  };
}
/** Events of one SKU with the named subEvents. */
const ofSku = (skuId: number, ...subEvents: string[]) => (e: Json) => e.skuId === skuId && subEvents.includes(e.subEvent);

describe('GTIN check digits', () => {
  it('accepts valid GTIN-8/12/13/14 and names the problem otherwise', () => {
    expect(gtinProblem('036000291452')).toBeNull();
    expect(gtinProblem('4006381333931')).toBeNull();
    expect(gtinProblem('96385074')).toBeNull();
    expect(gtinProblem(`1001234567890${gtinCheckDigit('1001234567890')}`)).toBeNull();
    expect(gtinProblem('036000291453')).toBe('GTIN check digit is wrong (expected 2)');
    expect(gtinProblem('12345')).toBe('GTIN must be 8, 12, 13 or 14 digits long');
    expect(gtinProblem('03600029145A')).toBe('GTIN must contain digits only');
  });
});

describe('AddNewSku', () => {
  it('creates the SKU, audits it and raises SkuAdd for its customer', async () => {
    const events = await watchSkuEvents();
    const res = await staff.post(`${B}/AddNewSku`, skuBody({ skuCode: 'DRL-18V', category: 'Tools', upc: '036000291452', weightKg: 1.5, minQty: 5, maxQty: 50 }));
    expect(res.statusCode, res.body).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('SKU added successfully');
    expect(data).toMatchObject({
      uniqueId: data.skuId, customerId: custA, customerName: 'Acme Tools', skuCode: 'DRL-18V', iskititem: false, isActive: true,
      category: 'Tools', upc: '036000291452', weightKg: 1.5, minQty: 5, maxQty: 50, isHazmat: false,
    });
    expect((await audits('sku', data.skuId)).map((a) => [a.action, a.customer_id])).toEqual([['create', custA]]);
    const seen = await events.until(1, (e) => e.skuId === data.skuId);
    expect(seen).toEqual([expect.objectContaining({ subEvent: 'SkuAdd', skuId: data.skuId, customerId: custA, eventCustomerId: custA })]);
  });

  it('refuses bad input with field messages and writes nothing', async () => {
    const before = await count('sku');
    const res = await admin.post(`${B}/AddNewSku`, skuBody({ skuCode: '', description: '', weightKg: -1, unNumber: 'UN12', minQty: 10, maxQty: 2 }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toMatchObject({
      skuCode: 'Please enter SKU code!', description: 'Please enter description!', weightKg: 'Weight must be more than 0',
      unNumber: "UN number must be 'UN' and 4 digits (e.g. UN1203)",
    });
    const minMax = await admin.post(`${B}/AddNewSku`, skuBody({ minQty: 10, maxQty: 2 }));
    expect(minMax.json().details).toMatchObject({ maxQty: 'Max quantity must be at least the min quantity' });
    expect((await admin.post(`${B}/AddNewSku`, skuBody({ uom: 'XYZ' }))).json()).toMatchObject({ status: 400, details: { uom: 'Unknown unit of measure' } });
    expect((await admin.post(`${B}/AddNewSku`, skuBody({ upc: '036000291453' }))).json()).toMatchObject({ status: 400, details: { upc: 'GTIN check digit is wrong (expected 2)' } });
    expect((await admin.post(`${B}/AddNewSku`, [1, 2] as unknown as Json)).statusCode).toBe(400);
    expect(await count('sku')).toBe(before);
  });

  it('keeps SKU codes unique per customer (409), not across customers', async () => {
    const skuCode = code('DUP');
    await addSku({ skuCode });
    const dup = await admin.post(`${B}/AddNewSku`, skuBody({ skuCode }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(`SKU code ${skuCode} already exists for this client`);
    expect((await admin.post(`${B}/AddNewSku`, skuBody({ skuCode, customerId: custB }))).statusCode).toBe(200);
  });

  it('checks hazmat: UN number with class, packing group the class uses', async () => {
    const hazmats: Json[] = (await admin.get(`${B}/GetHazmats`)).json();
    const flammable = hazmats.find((h) => h.classCode === '3')!;
    const gas = hazmats.find((h) => h.classCode === '2.1')!;
    const ok = await addSku({ hazmatId: flammable.hazmatId, unNumber: 'un1203', packingGroup: 'II' });
    expect(ok).toMatchObject({ isHazmat: true, hazmatClass: '3', unNumber: 'UN1203', packingGroup: 'II' });
    const noGroup = await admin.post(`${B}/AddNewSku`, skuBody({ hazmatId: flammable.hazmatId, unNumber: 'UN1203' }));
    expect(noGroup.json()).toMatchObject({ status: 400, details: { packingGroup: 'Please choose a packing group for class 3' } });
    const gasGroup = await admin.post(`${B}/AddNewSku`, skuBody({ hazmatId: gas.hazmatId, unNumber: 'UN1075', packingGroup: 'I' }));
    expect(gasGroup.json()).toMatchObject({ status: 400, details: { packingGroup: 'Class 2.1 has no packing groups' } });
    const noClass = await admin.post(`${B}/AddNewSku`, skuBody({ unNumber: 'UN1203' }));
    expect(noClass.json()).toMatchObject({ status: 400, details: { hazmatId: 'Please choose a hazard class for the UN number' } });
    expect((await admin.post(`${B}/AddNewSku`, skuBody({ hazmatId: 9999, unNumber: 'UN1203' }))).statusCode).toBe(400);
  });

  it('refuses another customer (403), an unknown one (404) and any Client account (403)', async () => {
    expect((await staff.post(`${B}/AddNewSku`, skuBody({ customerId: custB }))).statusCode).toBe(403);
    expect((await admin.post(`${B}/AddNewSku`, skuBody({ customerId: 999999 }))).statusCode).toBe(404);
    expect((await client.post(`${B}/AddNewSku`, skuBody())).statusCode).toBe(403);
  });
});

describe('reference lists', () => {
  it('GetUOMs gives the seeded units', async () => {
    const uoms: Json[] = (await client.get(`${B}/GetUOMs`)).json();
    expect(uoms.map((u) => u.uomCode)).toEqual(expect.arrayContaining(['EA', 'CS', 'PK', 'PL', 'KG', 'LB', 'M']));
    expect(uoms[0]).toEqual({ uomCode: 'EA', uomName: 'Each' });
  });

  it('GetHazmats gives UN classes 1–9 with divisions and packing groups', async () => {
    const hazmats: Json[] = (await staff.get(`${B}/GetHazmats`)).json();
    expect(new Set(hazmats.map((h) => h.hazardClass))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    expect(hazmats.find((h) => h.classCode === '3')).toMatchObject({ division: null, packingGroups: ['I', 'II', 'III'] });
    expect(hazmats.find((h) => h.classCode === '6.1')).toMatchObject({ hazardClass: 6, division: '6.1', packingGroups: ['I', 'II', 'III'] });
    expect(hazmats.find((h) => h.classCode === '1.4')).toMatchObject({ packingGroups: [] });
  });
});

describe('GetSKUInfoById and UpdateSku', () => {
  it('reads one SKU; another customer’s SKU is not found for staff or a Client', async () => {
    const mine = await addSku();
    const theirs = await addSku({ customerId: custB });
    expect((await client.get(`${B}/GetSKUInfoById?skuid=${mine.skuId}`)).json()).toMatchObject({ skuId: mine.skuId, customerId: custA });
    expect((await client.get(`${B}/GetSKUInfoById?skuid=${theirs.skuId}`)).statusCode).toBe(404);
    expect((await staff.get(`${B}/GetSKUInfoById?skuid=${theirs.skuId}`)).statusCode).toBe(404);
    expect((await admin.get(`${B}/GetSKUInfoById?skuid=999999`)).statusCode).toBe(404);
    expect((await admin.get(`${B}/GetSKUInfoById?skuid=abc`)).statusCode).toBe(400);
  });

  it('updates with before/after in the audit and raises SkuUpdate', async () => {
    const sku = await addSku({ description: 'Old text' });
    const events = await watchSkuEvents();
    const res = await staff.put(`${B}/UpdateSku`, { ...skuBody({ skuCode: sku.skuCode, description: 'New text', abcClass: 'A', isActive: false }), skuId: sku.skuId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'SKU updated successfully', data: { description: 'New text', abcClass: 'A', isActive: false } });
    const update = (await audits('sku', sku.skuId)).find((a) => a.action === 'update')!;
    expect(JSON.parse(update.before_json!).description).toBe('Old text');
    expect(JSON.parse(update.after_json!).description).toBe('New text');
    expect(await events.until(1, ofSku(sku.skuId, 'SkuUpdate'))).toEqual([expect.objectContaining({ subEvent: 'SkuUpdate', skuId: sku.skuId, customerId: custA })]);
  });

  it('refuses a code already used (409), another customer’s SKU (404) and a Client (403)', async () => {
    const a = await addSku();
    const b = await addSku();
    expect((await admin.put(`${B}/UpdateSku`, { ...skuBody({ skuCode: a.skuCode }), skuId: b.skuId })).statusCode).toBe(409);
    const theirs = await addSku({ customerId: custB });
    expect((await staff.put(`${B}/UpdateSku`, { ...skuBody(), skuId: theirs.skuId })).statusCode).toBe(404);
    expect((await client.put(`${B}/UpdateSku`, { ...skuBody(), skuId: a.skuId })).statusCode).toBe(403);
  });
});

describe('GetAllSkus, DownloadSKUExcel, SkuFiltersLabels', () => {
  let listCustomer: number;
  beforeAll(async () => {
    listCustomer = await makeCustomer(t.database, [wh], 'List Co');
    for (const [skuCode, description, category, iskititem, isActive] of [
      ['LST-A', 'Apple crate', 'Fruit', false, true], ['LST-B', 'Banana box', 'Fruit', false, true],
      ['LST-C', 'Cherry kit', 'Kits', true, true], ['LST-D', 'Date bag', 'Fruit', false, false],
    ] as const) await addSku({ customerId: listCustomer, skuCode, description, category, iskititem, isActive });
  });
  const list = (body: Json, session = admin) => session.post(`${B}/GetAllSkus`, body);
  const codes = (res: { json(): Json }) => res.json().items.map((s: Json) => s.skuCode);

  it('pages and sorts', async () => {
    const filters = { customerId: listCustomer };
    const first = await list({ filters, pageSize: 2, sort: { field: 'skuCode', order: 'descend' } });
    expect(first.json().totalCount).toBe(4);
    expect(codes(first)).toEqual(['LST-D', 'LST-C']);
    expect(codes(await list({ filters, pageNumber: 2, pageSize: 2, sort: { field: 'skuCode', order: 'descend' } }))).toEqual(['LST-B', 'LST-A']);
    expect(codes(await list({ filters, sort: { field: 'description', order: 'ascend' } }))).toEqual(['LST-A', 'LST-B', 'LST-C', 'LST-D']);
    expect((await list({ filters, sort: { field: 'nope; drop table sku', order: 'ascend' } })).statusCode).toBe(200);
  });

  it('searches literally and filters by category, kit and status', async () => {
    const filters = { customerId: listCustomer };
    expect(codes(await list({ filters, searchQuery: 'BANANA' }))).toEqual(['LST-B']);
    // the total is counted without the list's joins, under the same scope, filters and search
    expect((await list({ filters: { ...filters, isActive: 'active' }, searchQuery: 'LST', pageSize: 1 })).json().totalCount).toBe(3);
    expect((await list({ searchQuery: "%' OR 1=1 --" })).json().totalCount).toBe(0);
    expect(codes(await list({ filters: { ...filters, category: 'Fruit' } }))).toEqual(['LST-A', 'LST-B', 'LST-D']);
    expect(codes(await list({ filters: { ...filters, isKit: true } }))).toEqual(['LST-C']);
    expect(codes(await list({ filters: { ...filters, isActive: 'inactive' } }))).toEqual(['LST-D']);
    expect(codes(await list({ filters: { ...filters, isActive: 'active', isKit: false } }))).toEqual(['LST-A', 'LST-B']);
    // Yes/no filters take JSON booleans only, as the filter bar sends them: the strings are a 400, not a 500.
    for (const isKit of ['true', 'false', 'maybe', 1]) expect((await list({ filters: { ...filters, isKit } })).statusCode).toBe(400);
    const item = (await list({ filters, searchQuery: 'LST-C' })).json().items[0];
    expect(item).toMatchObject({ uniqueId: item.skuId, customerId: listCustomer, customerName: 'List Co', iskititem: true });
  });

  it('holds a Client and staff to their customers', async () => {
    const mine = await list({ pageSize: 500 }, client);
    expect(mine.json().items.every((s: Json) => s.customerId === custA)).toBe(true);
    expect(mine.json().totalCount).toBeGreaterThan(0);
    expect((await list({ filters: { customerId: listCustomer } }, staff)).statusCode).toBe(403);
    expect((await list({ filters: { customerId: custB } }, client)).statusCode).toBe(403);
  });

  it('downloads the filtered list with formula-like text escaped', async () => {
    await addSku({ customerId: listCustomer, skuCode: 'LST-X', description: '=HYPERLINK("http://evil")' });
    const res = await admin.post(`${B}/DownloadSKUExcel`, { filters: { customerId: listCustomer }, searchQuery: 'HYPERLINK' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="skus-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).getCell(3).value).toBe('Description');
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(2).value).toBe('LST-X');
    expect(sheet.getRow(2).getCell(3).value).toBe('\'=HYPERLINK("http://evil")');
  });

  it('gives filter labels with the caller’s customers and categories only', async () => {
    const labels: Json[] = (await client.get(`${B}/SkuFiltersLabels`)).json();
    expect(labels.map((l) => l.key)).toEqual(['customerId', 'category', 'isKit', 'isActive']);
    expect(labels[0].options).toEqual([{ label: 'Acme Tools', value: custA }]);
    expect(labels[1].options.map((o: Json) => o.value)).not.toContain('Kits');
  });
});

describe('kit components', () => {
  it('adds, lists, updates and deletes components with audit and events', async () => {
    const kit = await addSku({ iskititem: true });
    const part = await addSku();
    const events = await watchSkuEvents();
    const added = await staff.post(`${B}/AddKitComponent`, { kitSkuId: kit.skuId, componentSkuId: part.skuId, quantity: 2 });
    expect(added.statusCode, added.body).toBe(200);
    const comp = added.json().data;
    expect(comp).toMatchObject({ uniqueid: comp.uniqueid, kitSkuId: kit.skuId, customerid: custA, componentSkuId: part.skuId, componentSkuCode: part.skuCode, quantity: 2 });
    expect((await client.get(`${B}/GetAllKitCompBySkuId?skuId=${kit.skuId}`)).json()).toEqual([comp]);
    const updated = await staff.put(`${B}/UpdateKitComponent`, { uniqueid: comp.uniqueid, quantity: 5 });
    expect(updated.json().data.quantity).toBe(5);
    expect((await staff.delete(`${B}/DeleteKitComponent?kitid=${comp.uniqueid}`)).json().message).toBe('Kit component deleted successfully');
    expect((await admin.get(`${B}/GetAllKitCompBySkuId?skuId=${kit.skuId}`)).json()).toEqual([]);
    expect((await audits('kit_component', comp.uniqueid)).map((a) => a.action)).toEqual(['create', 'update', 'delete']);
    const seen = await events.until(3, ofSku(kit.skuId, 'AddKitComponent', 'UpdateKitComponent', 'DeleteKitComponent'));
    expect(seen.map((e) => [e.subEvent, e.skuId, e.customerId, e.eventCustomerId])).toEqual([
      ['AddKitComponent', kit.skuId, custA, custA], ['UpdateKitComponent', kit.skuId, custA, custA], ['DeleteKitComponent', kit.skuId, custA, custA],
    ]);
  });

  it('lists a customer’s kit SKUs', async () => {
    const kit = await addSku({ iskititem: true });
    const kits: Json[] = (await staff.get(`${B}/GetKitItemsByCustomerid?customerid=${custA}`)).json();
    expect(kits.map((k) => k.skuId)).toContain(kit.skuId);
    expect(kits.every((k) => k.iskititem && k.customerId === custA)).toBe(true);
    expect((await staff.get(`${B}/GetKitItemsByCustomerid?customerid=${custB}`)).statusCode).toBe(403);
  });

  it('refuses a kit containing itself, directly or through another kit (422)', async () => {
    const k1 = await addSku({ iskititem: true });
    const k2 = await addSku({ iskititem: true });
    const k3 = await addSku({ iskititem: true });
    const self = await admin.post(`${B}/AddKitComponent`, { kitSkuId: k1.skuId, componentSkuId: k1.skuId, quantity: 1 });
    expect(self.statusCode).toBe(422);
    expect(self.json().message).toBe('A kit cannot contain itself');
    expect((await admin.post(`${B}/AddKitComponent`, { kitSkuId: k1.skuId, componentSkuId: k2.skuId, quantity: 1 })).statusCode).toBe(200);
    const k2k3 = (await admin.post(`${B}/AddKitComponent`, { kitSkuId: k2.skuId, componentSkuId: k3.skuId, quantity: 1 })).json().data;
    const before = await count('kit_component');
    const indirect = await admin.post(`${B}/AddKitComponent`, { kitSkuId: k3.skuId, componentSkuId: k1.skuId, quantity: 1 });
    expect(indirect.statusCode).toBe(422);
    expect(indirect.json().message).toBe(`A kit cannot contain itself: ${k1.skuCode} already contains ${k3.skuCode}`);
    // Re-pointing an existing component into a cycle is refused the same way.
    const other = await addSku();
    const k3c = (await admin.post(`${B}/AddKitComponent`, { kitSkuId: k3.skuId, componentSkuId: other.skuId, quantity: 1 })).json().data;
    expect((await admin.put(`${B}/UpdateKitComponent`, { uniqueid: k3c.uniqueid, componentSkuId: k1.skuId, quantity: 1 })).statusCode).toBe(422);
    expect((await admin.put(`${B}/UpdateKitComponent`, { uniqueid: k2k3.uniqueid, componentSkuId: k2.skuId, quantity: 1 })).statusCode).toBe(422);
    expect(await count('kit_component')).toBe(before + 1);
  });

  it('refuses a non-kit, another customer’s component, duplicates and bad quantities', async () => {
    const kit = await addSku({ iskititem: true });
    const plain = await addSku();
    const foreign = await addSku({ customerId: custB });
    expect((await admin.post(`${B}/AddKitComponent`, { kitSkuId: plain.skuId, componentSkuId: kit.skuId, quantity: 1 })).json())
      .toMatchObject({ status: 422, message: `${plain.skuCode} is not a kit SKU` });
    expect((await admin.post(`${B}/AddKitComponent`, { kitSkuId: kit.skuId, componentSkuId: foreign.skuId, quantity: 1 })).json())
      .toMatchObject({ status: 422, message: 'A kit and its components must belong to the same client' });
    expect((await staff.post(`${B}/AddKitComponent`, { kitSkuId: kit.skuId, componentSkuId: foreign.skuId, quantity: 1 })).statusCode).toBe(404);
    expect((await admin.post(`${B}/AddKitComponent`, { kitSkuId: kit.skuId, componentSkuId: plain.skuId, quantity: 0 })).json())
      .toMatchObject({ status: 400, details: { quantity: 'Quantity must be more than 0' } });
    expect((await admin.post(`${B}/AddKitComponent`, { kitSkuId: kit.skuId, componentSkuId: plain.skuId, quantity: 1 })).statusCode).toBe(200);
    expect((await admin.post(`${B}/AddKitComponent`, { kitSkuId: kit.skuId, componentSkuId: plain.skuId, quantity: 1 })).statusCode).toBe(409);
    expect((await client.post(`${B}/AddKitComponent`, { kitSkuId: kit.skuId, componentSkuId: plain.skuId, quantity: 1 })).statusCode).toBe(403);
    expect((await admin.delete(`${B}/DeleteKitComponent?kitid=999999`)).statusCode).toBe(404);
    // A kit with components cannot stop being a kit.
    const unkit = await admin.put(`${B}/UpdateSku`, { ...skuBody({ skuCode: kit.skuCode }), skuId: kit.skuId, iskititem: false });
    expect(unkit.statusCode).toBe(422);
  });
});

describe('packages', () => {
  it('builds a hierarchy, lists it as parents with childPackages, and raises package events', async () => {
    const sku = await addSku();
    const events = await watchSkuEvents();
    const create = (body: Json) => staff.post(`${B}/CreateSkuPackage`, { skuId: sku.skuId, customerid: custA, ...body });
    const pallet = (await create({ packageType: 'Pallet', packageName: 'Pallet of 40', quantity: 1, lengthCm: 120, widthCm: 80, heightCm: 150, weightKg: 400 })).json().data;
    const caseRes = await create({ packageType: 'Case', packageName: 'Case of 12', parentPackageId: pallet.packageid, quantity: 40, gtin: `1003600029145${gtinCheckDigit('1003600029145')}` });
    expect(caseRes.statusCode, caseRes.body).toBe(200);
    const kase = caseRes.json().data;
    const each = (await create({ packageType: 'Each', packageName: 'Single', parentPackageId: kase.packageid, quantity: 12 })).json().data;
    expect(kase).toMatchObject({ packageid: kase.uniqueId, skuId: sku.skuId, customerid: custA, parentPackageId: pallet.packageid, quantity: 40 });

    const tree: Json[] = (await client.get(`${B}/GetParentAndChildPackages?skuid=${sku.skuId}`)).json();
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ packageid: pallet.packageid, parentUniqueId: null });
    expect(tree[0].childPackages).toEqual([expect.objectContaining({ packageid: kase.packageid, parentUniqueId: pallet.packageid })]);
    expect(tree[0].childPackages[0].childPackages).toEqual([expect.objectContaining({ packageid: each.packageid, parentUniqueId: kase.packageid, childPackages: [] })]);
    expect((await client.get(`${B}/GetSkuPackagesbySkuid?skuid=${sku.skuId}`)).json().map((p: Json) => p.packageName)).toEqual(['Pallet of 40', 'Case of 12', 'Single']);

    const seen = await events.until(3, ofSku(sku.skuId, 'AddPackage'));
    expect(seen.map((e) => [e.subEvent, e.skuId, e.customerId])).toEqual([['AddPackage', sku.skuId, custA], ['AddPackage', sku.skuId, custA], ['AddPackage', sku.skuId, custA]]);
  });

  it('refuses deleting a package with children (409) and deletes a leaf', async () => {
    const sku = await addSku();
    const parent = (await admin.post(`${B}/CreateSkuPackage`, { skuId: sku.skuId, customerid: custA, packageType: 'Case', packageName: 'Case', quantity: 1 })).json().data;
    const child = (await admin.post(`${B}/CreateSkuPackage`, { skuId: sku.skuId, customerid: custA, packageType: 'Inner', packageName: 'Inner', parentPackageId: parent.packageid, quantity: 6 })).json().data;
    const refused = await staff.delete(`${B}/DeleteSkuPackageByid?packageid=${parent.packageid}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Package Case has child packages; delete or move them first');
    const events = await watchSkuEvents();
    expect((await staff.delete(`${B}/DeleteSkuPackageByid?packageid=${child.packageid}`)).statusCode).toBe(200);
    expect(await events.until(1, ofSku(sku.skuId, 'DeletePackage'))).toEqual([expect.objectContaining({ subEvent: 'DeletePackage', skuId: sku.skuId, customerId: custA })]);
    expect((await staff.delete(`${B}/DeleteSkuPackageByid?packageid=${parent.packageid}`)).statusCode).toBe(200);
    expect((await staff.delete(`${B}/DeleteSkuPackageByid?packageid=${parent.packageid}`)).statusCode).toBe(404);
    expect((await audits('sku_package', parent.packageid)).map((a) => a.action)).toEqual(['create', 'delete']);
  });

  it('updates a package; refuses a cycle, another SKU’s parent, a bad GTIN and a wrong client', async () => {
    const sku = await addSku();
    const otherSku = await addSku();
    const mk = (s: Json, body: Json) => admin.post(`${B}/CreateSkuPackage`, { skuId: s.skuId, customerid: custA, packageType: 'Case', quantity: 1, ...body });
    const top = (await mk(sku, { packageName: 'Top' })).json().data;
    const mid = (await mk(sku, { packageName: 'Mid', parentPackageId: top.packageid })).json().data;
    const foreignParent = (await mk(otherSku, { packageName: 'Elsewhere' })).json().data;
    const update = (id: number, body: Json) => staff.put(`${B}/UpdateSkuPackage?SkuPackId=${id}`, { packageType: 'Case', packageName: 'Top', quantity: 1, ...body });

    const events = await watchSkuEvents();
    const ok = await update(top.packageid, { packageName: 'Top pallet', packageType: 'Pallet', weightKg: 500 });
    expect(ok.json().data).toMatchObject({ packageName: 'Top pallet', packageType: 'Pallet', weightKg: 500 });
    expect(await events.until(1, ofSku(sku.skuId, 'UpdatePackage'))).toEqual([expect.objectContaining({ subEvent: 'UpdatePackage', skuId: sku.skuId })]);

    expect((await update(top.packageid, { parentPackageId: mid.packageid })).json()).toMatchObject({ status: 422, message: 'A package cannot be inside itself, directly or through its child packages' });
    expect((await update(top.packageid, { parentPackageId: top.packageid })).statusCode).toBe(422);
    expect((await mk(sku, { packageName: 'X', parentPackageId: foreignParent.packageid })).json()).toMatchObject({ status: 422, message: 'The parent package must belong to the same SKU' });
    expect((await mk(sku, { packageName: 'X', gtin: '036000291453' })).json()).toMatchObject({ status: 400, details: { gtin: 'GTIN check digit is wrong (expected 2)' } });
    expect((await mk(sku, { packageName: 'X', customerid: custB })).json()).toMatchObject({ status: 400, details: { customerid: 'The SKU belongs to another client' } });
    expect((await mk(sku, { packageName: 'X', packageType: 'Crate' })).statusCode).toBe(400);
    expect((await mk(sku, { packageName: 'X', quantity: -2 })).statusCode).toBe(400);
    expect((await update(999999, {})).statusCode).toBe(404);
    expect((await client.put(`${B}/UpdateSkuPackage?SkuPackId=${top.packageid}`, { packageType: 'Case', packageName: 'Hack', quantity: 1 })).statusCode).toBe(403);
  });

  it('holds packages to the caller’s customers', async () => {
    const theirs = await addSku({ customerId: custB });
    const pkg = (await admin.post(`${B}/CreateSkuPackage`, { skuId: theirs.skuId, customerid: custB, packageType: 'Case', packageName: 'B case', quantity: 1 })).json().data;
    expect((await client.get(`${B}/GetSkuPackagesbySkuid?skuid=${theirs.skuId}`)).statusCode).toBe(404);
    expect((await client.get(`${B}/GetParentAndChildPackages?customerid=${custB}`)).statusCode).toBe(403);
    const mine: Json[] = (await client.get(`${B}/GetParentAndChildPackages`)).json();
    expect(mine.every((p) => p.customerid === custA)).toBe(true);
    expect((await staff.delete(`${B}/DeleteSkuPackageByid?packageid=${pkg.packageid}`)).statusCode).toBe(404);
  });
});

describe('barcodes', () => {
  it('validates GTIN check digits: UPC 036000291452 passes, 036000291453 fails', async () => {
    const sku = await addSku({ customerId: custB });
    const good = await admin.post(`${B}/CreateSkuBarcode`, { skuId: sku.skuId, barcode: '036000291452', barcodeType: 'UPC' });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toMatchObject({ message: 'Barcode created successfully', data: { skuId: sku.skuId, customerid: custB, barcode: '036000291452', barcodeType: 'UPC' } });
    const bad = await admin.post(`${B}/CreateSkuBarcode`, { skuId: sku.skuId, barcode: '036000291453', barcodeType: 'UPC' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'UPC check digit is wrong (expected 2)', details: { barcode: 'UPC check digit is wrong (expected 2)' } });
    expect((await admin.post(`${B}/CreateSkuBarcode`, { skuId: sku.skuId, barcode: '4006381333932', barcodeType: 'EAN' })).statusCode).toBe(400);
    expect((await admin.post(`${B}/CreateSkuBarcode`, { skuId: sku.skuId, barcode: '036000291452', barcodeType: 'EAN' })).json().details)
      .toEqual({ barcode: 'EAN must be 13 digits long' });
    expect((await admin.post(`${B}/CreateSkuBarcode`, { skuId: sku.skuId, barcode: '4006381333931', barcodeType: 'EAN' })).statusCode).toBe(200);
    expect((await admin.post(`${B}/CreateSkuBarcode`, { skuId: sku.skuId, barcode: 'ACME-ANY-TEXT 1', barcodeType: 'CODE128' })).statusCode).toBe(200);
  });

  it('keeps a barcode unique within a customer (409) but allows it for another customer', async () => {
    const a1 = await addSku();
    const a2 = await addSku();
    const b1 = await addSku({ customerId: custB });
    const barcode = '96385074';
    expect((await admin.post(`${B}/CreateSkuBarcode`, { skuId: a1.skuId, barcode, barcodeType: 'GTIN-8' })).statusCode).toBe(200);
    const before = await count('sku_barcode');
    const dup = await admin.post(`${B}/CreateSkuBarcode`, { skuId: a2.skuId, barcode, barcodeType: 'GTIN-8' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(`Barcode ${barcode} is already used by SKU ${a1.skuCode} of this client`);
    expect((await admin.post(`${B}/CreateSkuBarcode`, { skuId: a1.skuId, barcode, barcodeType: 'GTIN' })).statusCode).toBe(409);
    expect(await count('sku_barcode')).toBe(before);
    expect((await admin.post(`${B}/CreateSkuBarcode`, { skuId: b1.skuId, barcode, barcodeType: 'GTIN-8' })).statusCode).toBe(200);
    // A UPC or package GTIN of another SKU counts too.
    const withUpc = await addSku({ upc: '012345678905' });
    expect((await admin.post(`${B}/CreateSkuBarcode`, { skuId: a2.skuId, barcode: '012345678905', barcodeType: 'UPC' })).statusCode).toBe(409);
    expect((await admin.post(`${B}/CreateSkuBarcode`, { skuId: withUpc.skuId, barcode: '012345678905', barcodeType: 'UPC' })).statusCode).toBe(200);
  });

  it('lists, updates and deletes (DeletsSkuBarcode) with audit and events', async () => {
    const sku = await addSku();
    const other = await addSku();
    const events = await watchSkuEvents();
    const created = (await staff.post(`${B}/CreateSkuBarcode`, { skuId: sku.skuId, barcode: 'BX-1', barcodeType: 'CODE128' })).json().data;
    const taken = (await staff.post(`${B}/CreateSkuBarcode`, { skuId: other.skuId, barcode: 'BX-2', barcodeType: 'CODE128' })).json().data;
    expect((await client.get(`${B}/GetSkuBarcodebySkuid?skuid=${sku.skuId}`)).json()).toEqual([created]);
    const upd = await staff.put(`${B}/UpdateSkuBarcode?skuBarcodeId=${created.uniqueid}`, { barcode: 'BX-1A', barcodeType: 'CODE128' });
    expect(upd.json().data).toMatchObject({ uniqueid: created.uniqueid, barcode: 'BX-1A' });
    expect((await staff.put(`${B}/UpdateSkuBarcode?skuBarcodeId=${created.uniqueid}`, { barcode: 'BX-1A', barcodeType: 'CODE128' })).statusCode).toBe(200);
    expect((await staff.put(`${B}/UpdateSkuBarcode?skuBarcodeId=${created.uniqueid}`, { barcode: taken.barcode, barcodeType: 'CODE128' })).statusCode).toBe(409);
    expect((await staff.put(`${B}/UpdateSkuBarcode?skuBarcodeId=${created.uniqueid}`, { barcode: '036000291453', barcodeType: 'UPC' })).statusCode).toBe(400);
    expect((await client.delete(`${B}/DeletsSkuBarcode?barcodeid=${created.uniqueid}`)).statusCode).toBe(403);
    expect((await staff.delete(`${B}/DeletsSkuBarcode?barcodeid=${created.uniqueid}`)).json().message).toBe('Barcode deleted successfully');
    expect((await staff.delete(`${B}/DeletsSkuBarcode?barcodeid=${created.uniqueid}`)).statusCode).toBe(404);
    expect((await audits('sku_barcode', created.uniqueid)).map((a) => a.action)).toEqual(['create', 'update', 'update', 'delete']);
    const seen = await events.until(4, ofSku(sku.skuId, 'AddBarcode', 'UpdateBarcode', 'DeleteBarcode'));
    expect(seen.map((e) => e.subEvent)).toEqual(['AddBarcode', 'UpdateBarcode', 'UpdateBarcode', 'DeleteBarcode']);
    expect(seen.every((e) => e.customerId === custA && e.eventCustomerId === custA)).toBe(true);
  });

  it('holds barcodes to the caller’s customers', async () => {
    const theirs = await addSku({ customerId: custB });
    const bc = (await admin.post(`${B}/CreateSkuBarcode`, { skuId: theirs.skuId, barcode: 'THEIRS-1', barcodeType: 'OTHER' })).json().data;
    expect((await client.get(`${B}/GetSkuBarcodebySkuid?skuid=${theirs.skuId}`)).statusCode).toBe(404);
    expect((await staff.post(`${B}/CreateSkuBarcode`, { skuId: theirs.skuId, barcode: 'X-1', barcodeType: 'OTHER' })).statusCode).toBe(404);
    expect((await staff.put(`${B}/UpdateSkuBarcode?skuBarcodeId=${bc.uniqueid}`, { barcode: 'X-2', barcodeType: 'OTHER' })).statusCode).toBe(404);
    expect((await staff.delete(`${B}/DeletsSkuBarcode?barcodeid=${bc.uniqueid}`)).statusCode).toBe(404);
  });
});

describe('attributes', () => {
  it('creates, lists and updates attributes with audit and events', async () => {
    const sku = await addSku();
    const events = await watchSkuEvents();
    const created = await staff.post(`${B}/CreateAttribute`, { skuId: sku.skuId, attributeName: 'Colour', attributeValue: 'Red' });
    expect(created.statusCode, created.body).toBe(200);
    const attr = created.json().data;
    expect(attr).toMatchObject({ uniqueid: attr.uniqueid, skuId: sku.skuId, customerid: custA, attributeName: 'Colour', attributeValue: 'Red' });
    const upd = await staff.put(`${B}/UpdateAttribute?attributeid=${attr.uniqueid}`, { attributeName: 'Colour', attributeValue: 'Blue' });
    expect(upd.json().data.attributeValue).toBe('Blue');
    expect((await client.get(`${B}/GetAttributesBySkuid?skuid=${sku.skuId}`)).json()).toEqual([upd.json().data]);
    const seen = await events.until(2, ofSku(sku.skuId, 'AddAttribute', 'UpdateAttribute'));
    expect(seen.map((e) => [e.subEvent, e.skuId, e.customerId])).toEqual([['AddAttribute', sku.skuId, custA], ['UpdateAttribute', sku.skuId, custA]]);
    const audit = (await audits('sku_attribute', attr.uniqueid)).find((a) => a.action === 'update')!;
    expect(JSON.parse(audit.before_json!).attributeValue).toBe('Red');
  });

  it('refuses a duplicate name (409), blanks (400), another customer’s SKU (404) and a Client (403)', async () => {
    const sku = await addSku();
    await admin.post(`${B}/CreateAttribute`, { skuId: sku.skuId, attributeName: 'Size', attributeValue: 'L' });
    const second = (await admin.post(`${B}/CreateAttribute`, { skuId: sku.skuId, attributeName: 'Material', attributeValue: 'Steel' })).json().data;
    expect((await admin.post(`${B}/CreateAttribute`, { skuId: sku.skuId, attributeName: 'Size', attributeValue: 'M' })).statusCode).toBe(409);
    expect((await admin.put(`${B}/UpdateAttribute?attributeid=${second.uniqueid}`, { attributeName: 'Size', attributeValue: 'M' })).statusCode).toBe(409);
    expect((await admin.post(`${B}/CreateAttribute`, { skuId: sku.skuId, attributeName: ' ', attributeValue: '' })).json().details)
      .toMatchObject({ attributeName: 'Please enter attribute name!', attributeValue: 'Please enter attribute value!' });
    const theirs = await addSku({ customerId: custB });
    expect((await staff.post(`${B}/CreateAttribute`, { skuId: theirs.skuId, attributeName: 'A', attributeValue: 'B' })).statusCode).toBe(404);
    expect((await staff.get(`${B}/GetAttributesBySkuid?skuid=${theirs.skuId}`)).statusCode).toBe(404);
    expect((await client.post(`${B}/CreateAttribute`, { skuId: sku.skuId, attributeName: 'A', attributeValue: 'B' })).statusCode).toBe(403);
    expect((await admin.put(`${B}/UpdateAttribute?attributeid=999999`, { attributeName: 'A', attributeValue: 'B' })).statusCode).toBe(404);
  });

  it('DeleteAttribute removes one attribute with audit and event; 404, 403 and another customer refused', async () => {
    const events = await watchSkuEvents();
    const sku = await addSku();
    const keep = (await admin.post(`${B}/CreateAttribute`, { skuId: sku.skuId, attributeName: 'Colour', attributeValue: 'Red' })).json().data;
    const gone = (await admin.post(`${B}/CreateAttribute`, { skuId: sku.skuId, attributeName: 'Size', attributeValue: 'L' })).json().data;
    expect((await client.delete(`${B}/DeleteAttribute?attributeid=${gone.uniqueid}`)).statusCode).toBe(403);
    const theirs = await addSku({ customerId: custB });
    const foreign = (await admin.post(`${B}/CreateAttribute`, { skuId: theirs.skuId, attributeName: 'Colour', attributeValue: 'Red' })).json().data;
    expect((await staff.delete(`${B}/DeleteAttribute?attributeid=${foreign.uniqueid}`)).statusCode).toBe(404);
    expect((await staff.delete(`${B}/DeleteAttribute?attributeid=abc`)).statusCode).toBe(400);

    const res = await staff.delete(`${B}/DeleteAttribute?attributeid=${gone.uniqueid}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Attribute deleted successfully', data: { uniqueid: gone.uniqueid, attributeName: 'Size' } });
    expect((await staff.get(`${B}/GetAttributesBySkuid?skuid=${sku.skuId}`)).json()).toEqual([keep]);
    expect((await admin.get(`${B}/GetAttributesBySkuid?skuid=${theirs.skuId}`)).json()).toHaveLength(1);
    expect((await staff.delete(`${B}/DeleteAttribute?attributeid=${gone.uniqueid}`)).statusCode).toBe(404);
    const audit = (await audits('sku_attribute', gone.uniqueid)).find((a) => a.action === 'delete')!;
    expect(JSON.parse(audit.before_json!).attributeValue).toBe('L');
    const seen = await events.until(1, ofSku(sku.skuId, 'DeleteAttribute'));
    expect(seen.map((e) => [e.subEvent, e.customerId])).toEqual([['DeleteAttribute', custA]]);
  });
});

describe('dimensions', () => {
  let dimCustomer: number;
  let sku: Json, pkg: Json;
  beforeAll(async () => {
    dimCustomer = await makeCustomer(t.database, [wh], 'Dim Co');
    sku = await addSku({ customerId: dimCustomer, skuCode: 'DIM-1', lengthCm: 10, widthCm: 10, heightCm: 10, weightKg: 1 });
    await addSku({ customerId: dimCustomer, skuCode: 'DIM-2' });
    pkg = (await admin.post(`${B}/CreateSkuPackage`, { skuId: sku.skuId, customerid: dimCustomer, packageType: 'Case', packageName: 'Case of 6', quantity: 6 })).json().data;
  });
  const list = (body: Json, session = admin) => session.post(`${B}/GetDimensions`, body);

  it('lists SKUs and packages together, with the missing-dimensions filter', async () => {
    const all = (await list({ filters: { customerId: dimCustomer }, sort: { field: 'skuCode', order: 'ascend' } })).json();
    expect(all.totalCount).toBe(3);
    expect(all.items.map((r: Json) => [r.uniqueId, r.kind, r.missingDimensions])).toEqual([
      ['package-' + pkg.packageid, 'package', true], ['sku-' + sku.skuId, 'sku', false], [expect.stringMatching(/^sku-/), 'sku', true],
    ]);
    const missing = (await list({ filters: { customerId: dimCustomer, missingOnly: true } })).json();
    expect(missing.items.map((r: Json) => r.skuCode + '/' + (r.packageName ?? ''))).toEqual(['DIM-1/Case of 6', 'DIM-2/']);
    expect((await list({ filters: { customerId: dimCustomer, missingOnly: 'true' } })).statusCode).toBe(400);
    expect((await list({ filters: { customerId: dimCustomer, kind: 'package' } })).json().items).toEqual([
      expect.objectContaining({ packageId: pkg.packageid, skuId: sku.skuId, customerName: 'Dim Co', packageName: 'Case of 6' }),
    ]);
    expect((await list({ filters: { customerId: dimCustomer }, searchQuery: 'case of', pageSize: 1 })).json().totalCount).toBe(1);
    expect((await list({ filters: { customerId: dimCustomer } }, staff)).statusCode).toBe(403);
  });

  it('captures a package’s and a SKU’s measures, with events and audit', async () => {
    const events = await watchSkuEvents();
    const p = await staff.put(`${B}/UpdateDimensions`, { skuId: sku.skuId, packageId: pkg.packageid, lengthCm: 40, widthCm: 30, heightCm: 20, weightKg: 6.5 });
    expect(p.statusCode).toBe(404); // staff does not serve Dim Co: its SKUs are not revealed
    const res = await admin.put(`${B}/UpdateDimensions`, { skuId: sku.skuId, packageId: pkg.packageid, lengthCm: 40, widthCm: 30, heightCm: 20, weightKg: 6.5 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Dimensions updated successfully', data: { package: { lengthCm: 40, widthCm: 30, heightCm: 20, weightKg: 6.5 } } });
    const s = await admin.put(`${B}/UpdateDimensions`, { skuId: sku.skuId, lengthCm: 11, widthCm: 12, heightCm: 13, weightKg: 1.25 });
    expect(s.json().data).toMatchObject({ sku: { lengthCm: 11, widthCm: 12, heightCm: 13, weightKg: 1.25 }, package: null });
    const seen = await events.until(2, ofSku(sku.skuId, 'UpdatePackage', 'SkuUpdate'));
    expect(seen.map((e) => [e.subEvent, e.skuId, e.customerId])).toEqual([['UpdatePackage', sku.skuId, dimCustomer], ['SkuUpdate', sku.skuId, dimCustomer]]);
    expect((await list({ filters: { customerId: dimCustomer, missingOnly: true } })).json().items.map((r: Json) => r.skuCode)).toEqual(['DIM-2']);
  });

  it('refuses non-positive measures, another SKU’s package, and callers without Dimensions write', async () => {
    const bad = await admin.put(`${B}/UpdateDimensions`, { skuId: sku.skuId, lengthCm: 0, widthCm: -1, heightCm: 1, weightKg: 1 });
    expect(bad.json()).toMatchObject({ status: 400, details: { lengthCm: 'Length must be more than 0', widthCm: 'Width must be more than 0' } });
    const other = await addSku({ customerId: dimCustomer });
    expect((await admin.put(`${B}/UpdateDimensions`, { skuId: other.skuId, packageId: pkg.packageid, lengthCm: 1, widthCm: 1, heightCm: 1, weightKg: 1 })).statusCode).toBe(404);
    expect((await client.put(`${B}/UpdateDimensions`, { skuId: sku.skuId, lengthCm: 1, widthCm: 1, heightCm: 1, weightKg: 1 })).statusCode).toBe(403);
    const skuOnly = await signIn(await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh], customerIds: [dimCustomer], modules: { SKU: 'write' } }));
    expect((await skuOnly.put(`${B}/UpdateDimensions`, { skuId: sku.skuId, lengthCm: 1, widthCm: 1, heightCm: 1, weightKg: 1 })).statusCode).toBe(403);
    expect((await skuOnly.post(`${B}/GetDimensions`, {})).statusCode).toBe(403);
    const reader = await signIn(await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [dimCustomer], modules: { Dimensions: 'read' } }));
    expect((await reader.post(`${B}/GetDimensions`, { filters: { customerId: dimCustomer } })).json().totalCount).toBe(4);
    expect((await reader.put(`${B}/UpdateDimensions`, { skuId: sku.skuId, lengthCm: 1, widthCm: 1, heightCm: 1, weightKg: 1 })).statusCode).toBe(403);
  });
});
