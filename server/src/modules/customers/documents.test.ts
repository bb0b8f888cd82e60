import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeWarehouse, type TestApp } from '../../../test/helpers.js';
import { sniffFileKind } from '../../platform/files.js';
import { count, multipart, SAMPLE, signedIn } from './customers.fixtures.js';

let t: TestApp;
let admin: ReturnType<typeof as>;
let wh: number;
let acme: number;
let globex: number;
const type: Record<string, number> = {};
beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  acme = await makeCustomer(t.database, [wh], 'Acme');
  globex = await makeCustomer(t.database, [wh], 'Globex');
  for (const d of (await admin.get(`${B}/GetDocumentTypes`)).json()) type[d.documentTypeName] = d.documentTypeId;
});
afterAll(async () => { await t?.close(); });

const B = '/Warehouse/Customer';
type Session = ReturnType<typeof as>;
const upload = (s: Session, fields: Record<string, string | number>, file?: { name: string; bytes: Buffer; type?: string }) => {
  const form = multipart(fields, file);
  return s.post(`${B}/AddCustomerDocument`, form.payload, form.headers);
};
const replace = (s: Session, fields: Record<string, string | number>, file?: { name: string; bytes: Buffer }) => {
  const form = multipart(fields, file);
  return s.put(`${B}/UpdateCustomerDocument`, form.payload, form.headers);
};
const written = async () => [await count(t, 'stored_file'), await count(t, 'customer_document'), await count(t, 'audit_log')];
async function xlsx() {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Rates').addRow(['Zone', 'Rate']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('document types', () => {
  it('lists the seeded types', () => {
    expect(Object.keys(type)).toEqual(expect.arrayContaining(['Contract', 'Rate Sheet', 'Insurance Certificate', 'W-9', 'SOP']));
  });
});

describe('AddCustomerDocument and download', () => {
  let contractId: number;
  const pdf = SAMPLE.pdf();

  it('stores the file with its sha256 and size, audits, and downloads the same bytes', async () => {
    const res = await upload(admin, { customerId: acme, documentTypeId: type.Contract, notes: 'Signed 2025' }, { name: 'MSA 2025.pdf', bytes: pdf, type: 'text/plain' });
    expect(res.statusCode).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('Document uploaded successfully');
    contractId = data.documentId;
    const sha = createHash('sha256').update(pdf).digest('hex');
    expect(data).toMatchObject({
      customerId: acme, documentTypeId: type.Contract, documentTypeName: 'Contract', fileName: 'MSA 2025.pdf', mimeType: 'application/pdf',
      sizeBytes: pdf.length, sha256: sha, notes: 'Signed 2025', uploadedBy: 'admin', uniqueid: contractId,
    });
    const row = await t.database.db.selectFrom('stored_file').selectAll().where('sha256', '=', sha).executeTakeFirstOrThrow();
    expect(Number(row.size_bytes)).toBe(pdf.length);
    expect(Buffer.from(row.content).equals(pdf)).toBe(true);
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'customer_document').where('entity_id', '=', String(contractId)).execute();
    expect(audit.map((a) => [a.action, a.customer_id])).toEqual([['create', acme]]);

    const dl = await admin.get(`${B}/DownloadCustomerDocument?documentId=${contractId}`);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect(dl.headers['content-disposition']).toBe(`attachment; filename="MSA 2025.pdf"; filename*=UTF-8''MSA%202025.pdf`);
    expect(dl.rawPayload.equals(pdf)).toBe(true);
  });

  it('accepts PNG, XLSX and CSV by content and extension', async () => {
    for (const file of [{ name: 'cert.png', bytes: SAMPLE.png() }, { name: 'rates.xlsx', bytes: await xlsx() }, { name: 'sop.csv', bytes: SAMPLE.csv() }]) {
      const res = await upload(admin, { customerId: acme, documentTypeId: type['Rate Sheet'] }, file);
      expect(res.statusCode, file.name).toBe(200);
      const dl = await admin.get(`${B}/DownloadCustomerDocument?documentId=${res.json().data.documentId}`);
      expect(dl.rawPayload.equals(file.bytes)).toBe(true);
    }
    const list = (await admin.get(`${B}/GetClientDocumentTypes?CustomerId=${acme}`)).json();
    expect(list.map((d: { fileName: string }) => d.fileName)).toEqual(['sop.csv', 'rates.xlsx', 'cert.png', 'MSA 2025.pdf']);
    expect(list.map((d: { mimeType: string }) => d.mimeType)).toContain('image/png');
  });

  it('refuses a program named .pdf, a mismatched extension, other types, an empty or oversized file; nothing written', async () => {
    const before = await written();
    const cases = [
      { name: 'invoice.pdf', bytes: SAMPLE.exe() },
      { name: 'setup.exe', bytes: SAMPLE.exe() },
      { name: 'photo.pdf', bytes: SAMPLE.png() },
      { name: 'contract.png', bytes: SAMPLE.pdf() },
      { name: 'notes.txt', bytes: SAMPLE.csv() },
      { name: 'archive.zip', bytes: Buffer.from('PK\x03\x04 random zip', 'latin1') },
      { name: 'empty.pdf', bytes: Buffer.alloc(0) },
    ];
    for (const file of cases) {
      const res = await upload(admin, { customerId: acme, documentTypeId: type.Contract }, file);
      expect(res.statusCode, file.name).toBe(400);
      expect(res.json().details.file, file.name).toBeTruthy();
    }
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(10 * 1024 * 1024)]);
    const tooBig = await upload(admin, { customerId: acme, documentTypeId: type.Contract }, { name: 'big.pdf', bytes: big });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().message).toBe('The file is larger than 10 MB');
    expect(await written()).toEqual(before);
  });

  it('refuses missing fields, an unknown type, a JSON body; 404 for an unknown customer', async () => {
    const before = await written();
    const noFile = await upload(admin, { customerId: acme, documentTypeId: type.Contract });
    expect(noFile.json()).toMatchObject({ status: 400, message: 'Please select a file!' });
    const noType = await upload(admin, { customerId: acme }, { name: 'a.pdf', bytes: SAMPLE.pdf() });
    expect(noType.statusCode).toBe(400);
    expect(noType.json().details.documentTypeId).toBe('Please select a document type!');
    expect((await upload(admin, { customerId: acme, documentTypeId: 999999 }, { name: 'a.pdf', bytes: SAMPLE.pdf() })).statusCode).toBe(400);
    expect((await upload(admin, { customerId: 'abc', documentTypeId: type.Contract }, { name: 'a.pdf', bytes: SAMPLE.pdf() })).statusCode).toBe(400);
    expect((await admin.post(`${B}/AddCustomerDocument`, { customerId: acme, documentTypeId: type.Contract })).statusCode).toBe(400);
    expect((await upload(admin, { customerId: 999999, documentTypeId: type.Contract }, { name: 'a.pdf', bytes: SAMPLE.pdf() })).statusCode).toBe(404);
    expect(await written()).toEqual(before);
  });

  it('a Client reads and downloads its own customer’s documents only, and uploads none', async () => {
    const client = await signedIn(t, { role: 'Client', customerId: acme, permission: 'read' });
    expect((await client.get(`${B}/GetClientDocumentTypes?CustomerId=${acme}`)).statusCode).toBe(200);
    expect((await client.get(`${B}/DownloadCustomerDocument?documentId=${contractId}`)).rawPayload.equals(pdf)).toBe(true);
    const theirs = (await upload(admin, { customerId: globex, documentTypeId: type['W-9'] }, { name: 'w9.pdf', bytes: SAMPLE.pdf() })).json().data.documentId;
    expect((await client.get(`${B}/GetClientDocumentTypes?CustomerId=${globex}`)).statusCode).toBe(403);
    expect((await client.get(`${B}/DownloadCustomerDocument?documentId=${theirs}`)).statusCode).toBe(403);
    expect((await upload(client, { customerId: acme, documentTypeId: type.Contract }, { name: 'a.pdf', bytes: SAMPLE.pdf() })).statusCode).toBe(403);
    expect((await admin.get(`${B}/DownloadCustomerDocument?documentId=999999`)).statusCode).toBe(404);
    expect((await admin.get(`${B}/GetClientDocumentTypes?CustomerId=999999`)).statusCode).toBe(404);
  });

  it('an Administrator cannot upload to or change another customer’s documents', async () => {
    const a = await signedIn(t, { role: 'Administrator', warehouseIds: [wh], customerIds: [globex] });
    expect((await upload(a, { customerId: acme, documentTypeId: type.Contract }, { name: 'a.pdf', bytes: SAMPLE.pdf() })).statusCode).toBe(403);
    expect((await replace(a, { documentId: contractId, documentTypeId: type.SOP })).statusCode).toBe(403);
  });

  it('UpdateCustomerDocument changes type and notes, or replaces the file (the old one is removed)', async () => {
    const res = await replace(admin, { documentId: contractId, documentTypeId: type.SOP, notes: 'Reclassified' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Document updated successfully');
    expect(res.json().data).toMatchObject({ documentTypeName: 'SOP', notes: 'Reclassified', fileName: 'MSA 2025.pdf' });
    const files = await count(t, 'stored_file');
    const v2 = SAMPLE.pdf();
    const swapped = await replace(admin, { documentId: contractId, documentTypeId: type.Contract }, { name: 'MSA 2025 v2.pdf', bytes: v2 });
    expect(swapped.json().data).toMatchObject({ fileName: 'MSA 2025 v2.pdf', sha256: createHash('sha256').update(v2).digest('hex'), notes: null });
    expect(await count(t, 'stored_file')).toBe(files);
    expect((await admin.get(`${B}/DownloadCustomerDocument?documentId=${contractId}`)).rawPayload.equals(v2)).toBe(true);
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'customer_document').where('action', '=', 'update').execute();
    expect(audit.map((a) => JSON.parse(a.before_json!).documentTypeName)).toEqual(['Contract', 'SOP']);
  });

  it('UpdateCustomerDocument refuses a bad file and unknown ids, writing nothing', async () => {
    const before = await written();
    expect((await replace(admin, { documentId: contractId, documentTypeId: type.Contract }, { name: 'x.pdf', bytes: SAMPLE.exe() })).statusCode).toBe(400);
    expect((await replace(admin, { documentId: 999999, documentTypeId: type.Contract })).statusCode).toBe(404);
    expect((await replace(admin, { documentId: contractId })).statusCode).toBe(400);
    expect(await written()).toEqual(before);
  });
});

describe('sniffFileKind', () => {
  it('tells the kinds apart by content', async () => {
    expect(sniffFileKind(SAMPLE.pdf())).toBe('pdf');
    expect(sniffFileKind(SAMPLE.png())).toBe('png');
    expect(sniffFileKind(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]))).toBe('jpeg');
    expect(sniffFileKind(await xlsx())).toBe('xlsx');
    expect(sniffFileKind(Buffer.from('PK\x03\x04....word/document.xml....', 'latin1'))).toBe('docx');
    expect(sniffFileKind(SAMPLE.csv())).toBe('csv');
    expect(sniffFileKind(SAMPLE.exe())).toBeNull();
    expect(sniffFileKind(Buffer.from([0xc3, 0x28]))).toBeNull();
  });
});
