import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import {
  ADMIN, as, buildTestApp, login, makeCustomer, makeSku, makeUser, makeWarehouse, multipartBody, type MultipartFile, type TestApp,
} from '../../../test/helpers.js';

/**
 * Issue 12 items 1, 2, 7: the Add Data orders sheet (all or nothing, repeats answered), Transfer and Purchase
 * orders making their receiving orders, and an order's documents (five at most, PDF/Excel/CSV by content).
 */
let t: TestApp;
let admin: ReturnType<typeof as>;
let staff: ReturnType<typeof as>;
let client: ReturnType<typeof as>;
let otherClient: ReturnType<typeof as>;
let wh: number, destWh: number, farWh: number, cust: number, otherCust: number;
let destCode: string, farCode: string;
let skuCode: string, lotCode: string, caseCode: string, kitCode: string;
let sku: number, lotSku: number;
let seq = 0;

const C = '/Warehouse/Order';
const ref = (p = 'UP') => `${p}-${++seq}-${Math.random().toString(36).slice(2, 7)}`;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const CSV_DOC = Buffer.from('carton,weight\n1,2.5\n');
const EXE = Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00]);

const count = async (table: 'sales_order' | 'sales_order_line' | 'receiving_order' | 'order_document' | 'stored_file') =>
  Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const counts = async () => ({ orders: await count('sales_order'), lines: await count('sales_order_line'), ros: await count('receiving_order'), docs: await count('order_document'), files: await count('stored_file') });

const csv = (rows: string[][]) => Buffer.from(rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n'));
const HEAD = ['Reference Number', 'Order Type', 'Order Date', 'Ship To Name', 'Ship To Email', 'To Warehouse', 'SKU', 'Quantity', 'Package', 'Lot'];
const upload = (who: ReturnType<typeof as>, bytes: Buffer, fields: Record<string, string | number> = {}, name = 'orders.csv', more: MultipartFile[] = []) => {
  const body = multipartBody({ warehouseId: wh, customerId: cust, orderType: 'Sales', orderDate: '2030-04-01', ...fields }, [{ name, bytes }, ...more]);
  return who.post(`${C}/UploadOrders`, body.payload, body.headers);
};
const addDocuments = (who: ReturnType<typeof as>, orderId: number, files: { name: string; bytes: Buffer }[]) => {
  const body = multipartBody({ orderId }, files.map((f) => ({ ...f, field: 'files' })));
  return who.post(`${C}/AddOrderDocuments`, body.payload, body.headers);
};
const order = (over: Record<string, unknown> = {}) => ({
  warehouseId: wh, customerId: cust, orderType: 'Sales', referenceNumber: ref('SO'), orderDate: '2030-04-01', lines: [{ skuId: sku, quantity: 5 }], ...over,
});
const getOrder = async (id: number) => (await staff.get(`${C}/GetOrder?orderId=${id}`)).json();

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database, 'Source DC');
  destWh = await makeWarehouse(t.database, 'Destination DC');
  farWh = await makeWarehouse(t.database, 'Far DC');
  const codeOf = async (id: number) => (await db.selectFrom('warehouse').select('code').where('id', '=', id).executeTakeFirstOrThrow()).code;
  [destCode, farCode] = [await codeOf(destWh), await codeOf(farWh)];
  await db.updateTable('warehouse').set({ address1: '9 Dock Road', city: 'Harbor', zip: '12345' }).where('id', '=', destWh).execute();
  cust = await makeCustomer(t.database, [wh, destWh]);
  otherCust = await makeCustomer(t.database, [wh]);
  const stamp = Date.now();
  [skuCode, lotCode, caseCode, kitCode] = [`UPA-${stamp}`, `UPL-${stamp}`, `UPC-${stamp}`, `UPK-${stamp}`];
  sku = await makeSku(t.database, cust, skuCode);
  lotSku = await makeSku(t.database, cust, lotCode);
  const cased = await makeSku(t.database, cust, caseCode);
  const kit = await makeSku(t.database, cust, kitCode);
  await db.updateTable('sku').set({ is_lot_tracked: 1 }).where('id', '=', lotSku).execute();
  await db.updateTable('sku').set({ is_kit: 1 }).where('id', '=', kit).execute();
  const now = new Date().toISOString();
  await db.insertInto('sku_package').values({
    customer_id: cust, sku_id: cased, parent_id: null, package_type: 'case', package_name: 'Case of 12', quantity: 12, length_cm: null, width_cm: null,
    height_cm: null, weight_kg: null, gtin: null, created_at: now, updated_at: now,
  }).execute();
  const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh, destWh], customerIds: [cust, otherCust], modules: { OrderDashboard: 'write', InBound: 'read' } });
  staff = as(t.app, await login(t.app, u.username, u.password));
  const c = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { OrderDashboard: 'write' } });
  client = as(t.app, await login(t.app, c.username, c.password));
  const o = await makeUser(t.database, { role: 'Client', customerId: otherCust, modules: { OrderDashboard: 'write' } });
  otherClient = as(t.app, await login(t.app, o.username, o.password));
});
afterAll(async () => { await t?.close(); });

describe('the orders sheet (Add Data)', () => {
  it('takes in every order of the file, grouped by reference; the same file again answers the same orders as duplicates', async () => {
    const [a, b] = [ref(), ref()];
    const file = csv([HEAD,
      [a, '', '', 'Ada Lovelace', 'ada@example.com', '', skuCode, '5', '', ''],
      [a, '', '', '', '', '', caseCode, '24', 'case', ''],
      [b, 'Sales', '2030-04-02', 'Grace Hopper', '', '', lotCode.toLowerCase(), '2', '', 'L-9'],
    ]);
    const res = await upload(staff, file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: '2 orders imported', data: { fileName: 'orders.csv', created: 2, duplicates: 0 } });
    const [first, second] = res.json().data.orders;
    expect(first).toMatchObject({ referenceNumber: a, lineCount: 2, duplicate: false, soNumber: expect.stringMatching(/^SO-/) });
    const detail = await getOrder(first.orderId);
    expect(detail).toMatchObject({ source: 'upload', orderType: 'Sales', orderDate: '2030-04-01', shipToName: 'Ada Lovelace', shipToEmail: 'ada@example.com', status: 'New' });
    expect(detail.lines).toMatchObject([{ skuCode, quantity: 5, unitsPerPackage: 1 }, { skuCode: caseCode, quantity: 24, unitsPerPackage: 12, packageName: 'Case of 12' }]);
    expect(await getOrder(second.orderId)).toMatchObject({ orderDate: '2030-04-02', shipToName: 'Grace Hopper', lines: [{ skuCode: lotCode, lot: 'L-9', quantity: 2 }] });
    const listed = (await staff.post(`${C}/GetOrders`, { searchQuery: a })).json();
    expect(listed.items.map((o: { orderId: number }) => o.orderId)).toEqual([first.orderId]);

    const before = await counts();
    const again = await upload(staff, file);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ created: 0, duplicates: 2 });
    expect(again.json().data.orders.map((o: { orderId: number; duplicate: boolean }) => [o.orderId, o.duplicate])).toEqual([[first.orderId, true], [second.orderId, true]]);
    expect(await counts()).toEqual(before);
  });

  it('lists every bad row (row number, column, message) and imports nothing, good orders of the file included', async () => {
    const before = await counts();
    const good = ref();
    const file = csv([HEAD,
      [good, '', '', '', '', '', skuCode, '3', '', ''],
      [ref(), '', '', '', '', '', 'NO-SUCH-SKU', '3', '', ''],
      [ref(), '', '', '', '', '', skuCode, '0', '', ''],
      [ref(), '', '', '', '', '', skuCode, '2', '', 'L-1'],
      [ref(), '', '', '', '', '', skuCode, '2', 'pallet', ''],
      [ref(), '', 'someday', '', '', '', skuCode, '1', '', ''],
      [ref(), '', '', '', 'not-an-email', '', skuCode, '1', '', ''],
    ]);
    const res = await upload(staff, file);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe('6 rows have errors; nothing was imported');
    expect(res.json().details).toEqual({
      '3.SKU': `Row 3, SKU: No SKU of this client has the code 'NO-SUCH-SKU'`,
      '4.Quantity': 'Row 4, Quantity: Quantity must be more than 0',
      '5.Lot': `Row 5, Lot: SKU ${skuCode} does not track lots`,
      '6.Package': `Row 6, Package: SKU ${skuCode} has no package 'pallet'`,
      '7.Order Date': `Row 7, Order Date: 'someday' is not a date (use YYYY-MM-DD)`,
      '8.Ship To Email': 'Row 8, Ship To Email: Not a valid e-mail address',
    });
    expect(await counts()).toEqual(before);
    expect((await staff.post(`${C}/GetOrders`, { searchQuery: good })).json().totalCount).toBe(0);
  });

  it('is one transaction: an order the intake refuses (a kit without components) undoes the orders before it', async () => {
    const before = await counts();
    const file = csv([HEAD, [ref(), '', '', '', '', '', skuCode, '1', '', ''], [ref(), '', '', '', '', '', kitCode, '1', '', '']]);
    const res = await upload(staff, file);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details).toEqual({ '3.SKU': `Row 3, SKU: Kit ${kitCode} has no components` });
    expect(await counts()).toEqual(before);
  });

  it('refuses a file that is not a sheet, a missing column, and another client’s upload; nothing written', async () => {
    const before = await counts();
    const pdf = await upload(staff, PDF, {}, 'orders.csv');
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().details).toHaveProperty('file');
    const noQty = await upload(staff, csv([['Reference Number', 'SKU'], [ref(), skuCode]]));
    expect(noQty.statusCode).toBe(422);
    expect(noQty.json().details).toEqual({ '1.Quantity': 'Row 1, Quantity: column is missing' });
    const theirs = await upload(otherClient, csv([HEAD, [ref(), '', '', '', '', '', skuCode, '1', '', '']]));
    expect(theirs.statusCode).toBe(403);
    const noType = await upload(staff, csv([HEAD, [ref(), '', '', '', '', '', skuCode, '1', '', '']]), { orderType: '' });
    expect(noType.statusCode).toBe(422);
    expect(noType.json().details).toEqual({ '2.Order Type': 'Row 2, Order Type: Please select order type!' });
    expect(await counts()).toEqual(before);
  });

  it('offers a template whose first sheet holds the columns and whose instructions sit apart (uploading it unchanged names its sample SKUs)', async () => {
    const res = await staff.get(`${C}/DownloadOrderTemplate`);
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Orders', 'Read me']);
    const header = (book.worksheets[0].getRow(1).values as string[]).slice(1);
    expect(header).toEqual(expect.arrayContaining(['Reference Number', 'Order Type', 'Order Date', 'SKU', 'Quantity', 'Package', 'Lot', 'Ship To Name', 'To Warehouse']));
    const before = await counts();
    const asIs = await upload(staff, res.rawPayload, {}, 'order-template.xlsx');
    expect(asIs.statusCode).toBe(422);
    expect(Object.keys(asIs.json().details)).toEqual(['2.SKU', '3.SKU', '4.SKU']);
    expect(await counts()).toEqual(before);
  });

  it('keeps the form’s documents with each new order of the file', async () => {
    const [a, b] = [ref(), ref()];
    const res = await upload(staff, csv([HEAD, [a, '', '', '', '', '', skuCode, '1', '', ''], [b, '', '', '', '', '', skuCode, '2', '', '']]), {}, 'orders.csv',
      [{ name: 'packing-slip.pdf', bytes: PDF, field: 'documents' }]);
    expect(res.statusCode, res.body).toBe(200);
    for (const o of res.json().data.orders) {
      expect((await getOrder(o.orderId)).documents).toMatchObject([{ fileName: 'packing-slip.pdf', size: PDF.length, uploadedBy: expect.any(String) }]);
    }
  });
});

describe('Transfer and Purchase orders', () => {
  it('refuses a Transfer without a destination, to its own warehouse or one that does not serve the client, and a destination on a Sales order', async () => {
    const before = await counts();
    const cases: [Record<string, unknown>, string][] = [
      [{ orderType: 'Transfer' }, 'A Transfer order needs its destination warehouse'],
      [{ orderType: 'Transfer', toWarehouseId: wh }, 'The destination must be another warehouse'],
      [{ orderType: 'Transfer', toWarehouseId: farWh }, 'This client is not served by the destination warehouse'],
      [{ orderType: 'Transfer', toWarehouseId: 2_000_000_000 }, 'This client is not served by the destination warehouse'],
      [{ orderType: 'Sales', toWarehouseId: destWh }, 'Only a Transfer order has a destination warehouse'],
    ];
    for (const [over, message] of cases) {
      const res = await staff.post(`${C}/CreateOrder`, order(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(422);
      expect(res.json().details).toEqual({ toWarehouseId: message });
    }
    const sheet = await upload(staff, csv([HEAD, [ref(), 'Transfer', '', '', '', farCode, skuCode, '1', '', '']]));
    expect(sheet.statusCode).toBe(422);
    expect(sheet.json().details).toEqual({ '2.To Warehouse': 'Row 2, To Warehouse: This client is not served by the destination warehouse' });
    expect(await counts()).toEqual(before);
  });

  it('a Transfer makes the expected receiving order at its destination: reference = SO number, one line per SKU; it ships to the destination', async () => {
    const res = await staff.post(`${C}/CreateOrder`, order({
      orderType: 'Transfer', toWarehouseId: destWh, requestedShipDate: '2030-04-05',
      lines: [{ skuId: sku, quantity: 5 }, { skuId: lotSku, quantity: 2, lot: 'L-1' }, { skuId: sku, quantity: 3 }],
    }));
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json().data;
    expect(o).toMatchObject({ orderType: 'Transfer', toWarehouseId: destWh, toWarehouseName: 'Destination DC', receivingOrderNumber: expect.stringMatching(/^RO-/),
      shipToName: 'Destination DC', shipToAddress1: '9 Dock Road', shipToCity: 'Harbor' });
    const ro = (await admin.get(`/Warehouse/Receiving/GetReceivingOrderById?receivingOrderId=${o.receivingOrderId}`)).json();
    expect(ro).toMatchObject({ roNumber: o.receivingOrderNumber, warehouseId: destWh, customerId: cust, referenceNumber: o.soNumber, status: 'Open',
      supplier: 'Transfer from Source DC', expectedDeliveryDate: '2030-04-05' });
    expect(ro.lines.map((l: { skuId: number; expectedQuantity: number; lot: string }) => [l.skuId, l.expectedQuantity, l.lot])).toEqual([[sku, 8, ''], [lotSku, 2, 'L-1']]);
    // The RO is audited with the order, in its transaction.
    const audit = await t.database.db.selectFrom('audit_log').select('action').where('entity', '=', 'receiving_order').where('entity_id', '=', String(o.receivingOrderId)).execute();
    expect(audit.map((a) => a.action)).toEqual(['create']);
    // A repeat of the reference makes no second RO.
    const ros = await count('receiving_order');
    expect((await staff.post(`${C}/CreateOrder`, order({ orderType: 'Transfer', toWarehouseId: destWh, referenceNumber: o.referenceNumber }))).json().data.duplicate).toBe(true);
    expect(await count('receiving_order')).toBe(ros);
  });

  it('a Purchase order expects its goods in its own warehouse; a Sales order makes no receiving order; a Transfer by upload names its destination by code', async () => {
    const purchase = (await staff.post(`${C}/CreateOrder`, order({ orderType: 'Purchase', shipToName: 'Acme Supplies' }))).json().data;
    const ro = (await admin.get(`/Warehouse/Receiving/GetReceivingOrderById?receivingOrderId=${purchase.receivingOrderId}`)).json();
    expect(ro).toMatchObject({ warehouseId: wh, referenceNumber: purchase.soNumber, supplier: 'Acme Supplies', lines: [{ skuId: sku, expectedQuantity: 5 }] });
    const ros = await count('receiving_order');
    const sales = (await staff.post(`${C}/CreateOrder`, order())).json().data;
    expect(sales).toMatchObject({ receivingOrderId: null, receivingOrderNumber: null, toWarehouseId: null });
    expect(await count('receiving_order')).toBe(ros);

    const res = await upload(staff, csv([HEAD, [ref(), 'Transfer', '', '', '', destCode.toLowerCase(), skuCode, '4', '', '']]));
    expect(res.statusCode, res.body).toBe(200);
    const [taken] = res.json().data.orders;
    expect(taken.receivingOrderNumber).toMatch(/^RO-/);
    expect(await getOrder(taken.orderId)).toMatchObject({ orderType: 'Transfer', toWarehouseId: destWh, source: 'upload' });
  });
});

describe('order documents', () => {
  it('keeps up to five PDF, Excel or CSV files with an order, lists them, sends them back, and removes them', async () => {
    const o = (await staff.post(`${C}/CreateOrder`, order())).json().data;
    const res = await addDocuments(staff, o.orderId, [{ name: 'label.pdf', bytes: PDF }, { name: 'cartons.csv', bytes: CSV_DOC }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('2 documents added successfully');
    const { documents } = await getOrder(o.orderId);
    expect(documents).toMatchObject([
      { fileName: 'label.pdf', size: PDF.length, uploadedBy: expect.any(String), uploadedAt: expect.any(String) },
      { fileName: 'cartons.csv', size: CSV_DOC.length },
    ]);
    const download = await staff.get(`${C}/DownloadOrderDocument?documentId=${documents[0].id}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.equals(PDF)).toBe(true);

    const files = await count('stored_file');
    const removed = await staff.post(`${C}/DeleteOrderDocument`, { documentId: documents[1].id });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await getOrder(o.orderId)).documents.map((d: { fileName: string }) => d.fileName)).toEqual(['label.pdf']);
    expect(await count('stored_file')).toBe(files - 1);
    const audit = await t.database.db.selectFrom('audit_log').select('action').where('entity', '=', 'sales_order').where('entity_id', '=', String(o.orderId)).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'add-documents', 'delete-document']);
  });

  it('refuses a wrong kind of file and a sixth file, naming the file, and writes nothing', async () => {
    const o = (await staff.post(`${C}/CreateOrder`, order())).json().data;
    let before = await counts();
    const wrong = await addDocuments(staff, o.orderId, [{ name: 'ok.pdf', bytes: PDF }, { name: 'setup.pdf', bytes: EXE }]);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/^setup\.pdf: Only PDF, XLSX, CSV files are allowed/);
    expect(Object.keys(wrong.json().details)).toEqual(['setup.pdf']);
    const renamed = await addDocuments(staff, o.orderId, [{ name: 'label.csv', bytes: PDF }]);
    expect(renamed.statusCode).toBe(400);
    expect(await counts()).toEqual(before);

    expect((await addDocuments(staff, o.orderId, [1, 2, 3, 4].map((i) => ({ name: `doc-${i}.pdf`, bytes: PDF })))).statusCode).toBe(200);
    before = await counts();
    const sixth = await addDocuments(staff, o.orderId, [{ name: 'five.csv', bytes: CSV_DOC }, { name: 'six.pdf', bytes: PDF }]);
    expect(sixth.statusCode).toBe(422);
    expect(sixth.json().details).toEqual({ 'six.pdf': 'six.pdf: an order may hold at most 5 documents (it has 4)' });
    expect(await counts()).toEqual(before);
    const many = await addDocuments(staff, o.orderId, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((i) => ({ name: `m-${i}.pdf`, bytes: PDF })));
    expect(many.statusCode).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('are fixed once the order has shipped', async () => {
    const o = (await staff.post(`${C}/CreateOrder`, order())).json().data;
    await addDocuments(staff, o.orderId, [{ name: 'a.pdf', bytes: PDF }]);
    const [doc] = (await getOrder(o.orderId)).documents;
    await t.database.db.updateTable('sales_order').set({ status: 'Shipped' }).where('id', '=', o.orderId).execute();
    const before = await counts();
    expect((await addDocuments(staff, o.orderId, [{ name: 'b.pdf', bytes: PDF }])).statusCode).toBe(409);
    expect((await staff.post(`${C}/DeleteOrderDocument`, { documentId: doc.id })).statusCode).toBe(409);
    expect(await counts()).toEqual(before);
  });

  it('a client account reads and adds its own customer’s documents only', async () => {
    const mine = (await client.post(`${C}/CreateOrder`, order())).json().data;
    expect((await addDocuments(client, mine.orderId, [{ name: 'mine.pdf', bytes: PDF }])).statusCode).toBe(200);
    const [doc] = (await getOrder(mine.orderId)).documents;
    expect((await client.get(`${C}/DownloadOrderDocument?documentId=${doc.id}`)).statusCode).toBe(200);

    const before = await counts();
    expect((await otherClient.get(`${C}/DownloadOrderDocument?documentId=${doc.id}`)).statusCode).toBe(404);
    expect((await addDocuments(otherClient, mine.orderId, [{ name: 'theirs.pdf', bytes: PDF }])).statusCode).toBe(404);
    expect((await otherClient.post(`${C}/DeleteOrderDocument`, { documentId: doc.id })).statusCode).toBe(404);
    expect((await otherClient.get(`${C}/GetOrder?orderId=${mine.orderId}`)).statusCode).toBe(404);
    expect(await counts()).toEqual(before);
  });
});

describe('a large orders sheet', () => {
  it('goes to a background job (202) that takes it in through the same intake, as the user who sent it', async () => {
    // Every upload above 10 bytes goes to the background.
    const big = await buildTestApp({ config: { backgroundUploadBytes: 10 } });
    try {
      const w = await makeWarehouse(big.database);
      const c = await makeCustomer(big.database, [w]);
      const code = `JOB-${Date.now()}`;
      await makeSku(big.database, c, code);
      const u = await makeUser(big.database, { role: 'WarehouseStaff', warehouseIds: [w], customerIds: [c], modules: { OrderDashboard: 'write' } });
      const user = as(big.app, await login(big.app, u.username, u.password));
      const body = multipartBody({ warehouseId: w, customerId: c, orderType: 'Sales', orderDate: '2030-05-01' }, { name: 'big-orders.csv', bytes: csv([['Reference Number', 'SKU', 'Quantity'], ['JOB-1', code, '3']]) });
      const res = await user.post(`${C}/UploadOrders`, body.payload, body.headers);
      expect(res.statusCode, res.body).toBe(202);
      const { jobId } = res.json().data;
      await big.app.services.jobs.start({ pollMs: 10, lockMs: 2000, concurrency: 1 });
      let job: { status: string; result: { message: string } | null } = { status: 'queued', result: null };
      for (let i = 0; i < 300 && !['succeeded', 'failed', 'cancelled'].includes(job.status); i++) {
        await new Promise((r) => setTimeout(r, 20));
        job = (await user.get(`/Common/Job/GetJob?jobId=${jobId}`)).json();
      }
      expect(job).toMatchObject({ status: 'succeeded', result: { message: '1 order imported' } });
      const list = (await user.post(`${C}/GetOrders`, { searchQuery: 'JOB-1' })).json();
      expect(list.items).toMatchObject([{ referenceNumber: 'JOB-1', source: 'upload', orderedQuantity: 3, createdBy: u.username }]);
    } finally {
      await big.close();
    }
  });

  it('keeps the documents sent with it and attaches them to each new order when the job runs; a wrong kind is refused at once', async () => {
    const big = await buildTestApp({ config: { backgroundUploadBytes: 10 } });
    try {
      const w = await makeWarehouse(big.database);
      const c = await makeCustomer(big.database, [w]);
      const code = `JOBDOC-${Date.now()}`;
      await makeSku(big.database, c, code);
      const u = await makeUser(big.database, { role: 'WarehouseStaff', warehouseIds: [w], customerIds: [c], modules: { OrderDashboard: 'write' } });
      const user = as(big.app, await login(big.app, u.username, u.password));
      const filesKept = async () => Number((await big.database.db.selectFrom('stored_file').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const jobsQueued = async () => Number((await big.database.db.selectFrom('job').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const sheet = { name: 'big-orders.csv', bytes: csv([['Reference Number', 'SKU', 'Quantity'], ['JOBDOC-1', code, '1'], ['JOBDOC-2', code, '2']]) };
      const send = (documents: MultipartFile[]) => {
        const body = multipartBody({ warehouseId: w, customerId: c, orderType: 'Sales', orderDate: '2030-05-01' }, [sheet, ...documents]);
        return user.post(`${C}/UploadOrders`, body.payload, body.headers);
      };

      const [files0, jobs0] = [await filesKept(), await jobsQueued()];
      const wrong = await send([{ name: 'setup.exe', bytes: EXE, field: 'documents' }]);
      expect(wrong.statusCode, wrong.body).toBe(400);
      expect([await filesKept(), await jobsQueued()]).toEqual([files0, jobs0]);

      const res = await send([{ name: 'packing-slip.pdf', bytes: PDF, field: 'documents' }, { name: 'labels.csv', bytes: CSV_DOC, field: 'documents' }]);
      expect(res.statusCode, res.body).toBe(202);
      expect(await filesKept()).toBe(files0 + 3); // the sheet and its two documents, kept with the job
      await big.app.services.jobs.start({ pollMs: 10, lockMs: 2000, concurrency: 1 });
      let job: { status: string; result: { message: string } | null } = { status: 'queued', result: null };
      for (let i = 0; i < 300 && !['succeeded', 'failed', 'cancelled'].includes(job.status); i++) {
        await new Promise((r) => setTimeout(r, 20));
        job = (await user.get(`/Common/Job/GetJob?jobId=${res.json().data.jobId}`)).json();
      }
      expect(job).toMatchObject({ status: 'succeeded', result: { message: '2 orders imported' } });
      const orders = (await user.post(`${C}/GetOrders`, { searchQuery: 'JOBDOC-' })).json().items as { orderId: number }[];
      expect(orders).toHaveLength(2);
      for (const o of orders) {
        const detail = (await user.get(`${C}/GetOrder?orderId=${o.orderId}`)).json();
        expect(detail.documents.map((d: { fileName: string }) => d.fileName).sort()).toEqual(['labels.csv', 'packing-slip.pdf']);
      }
      const [doc] = (await user.get(`${C}/GetOrder?orderId=${orders[0].orderId}`)).json().documents;
      const download = await user.get(`${C}/DownloadOrderDocument?documentId=${doc.id}`);
      expect(download.statusCode).toBe(200);
      // The job's own copies are gone; each document is kept once, linked to both orders.
      expect(await filesKept()).toBe(files0 + 2);
    } finally {
      await big.close();
    }
  });
});
