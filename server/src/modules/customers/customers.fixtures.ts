// Test fixtures shared by the customers area's test files (not part of the running server).
import { randomBytes } from 'node:crypto';
import type { Permission, Role } from '@bolx/contracts';
import { as, login, makeUser, type TestApp } from '../../../test/helpers.js';

export const validCustomer = (warehouseIds: number[], over: Record<string, unknown> = {}) => ({
  customerCode: `C${randomBytes(3).toString('hex')}`, customerName: 'Acme Outdoor', contactPerson: 'Jane Roe', email: 'ops@acme.example',
  billingEmail: 'billing@acme.example', phone: '+1 (555) 010-2000', address1: '1 Trail Road', city: 'Boulder', state: 'CO', zip: '80301',
  country: 'United States', adjustmentApprovalThreshold: 25, warehouseIds, ...over,
});

/** A signed-in user of a role with the Customer module, held to the given warehouses and customers. */
export async function signedIn(t: TestApp, u: { role: Role; warehouseIds?: number[]; customerIds?: number[]; customerId?: number; permission?: Permission }) {
  const user = await makeUser(t.database, {
    role: u.role, warehouseIds: u.warehouseIds, customerIds: u.customerIds, customerId: u.customerId, modules: { Customer: u.permission ?? 'write' },
  });
  return as(t.app, await login(t.app, user.username, user.password));
}

/** A multipart/form-data body with text fields and an optional file part named `file`. */
export function multipart(fields: Record<string, string | number>, file?: { name: string; bytes: Buffer; type?: string }) {
  const boundary = `----bolx${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`));
    chunks.push(file.bytes, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const SAMPLE = {
  pdf: () => Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n${randomBytes(64).toString('hex')}\n%%EOF\n`),
  png: () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]),
  /** A Windows program: 'MZ' header. */
  exe: () => Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), randomBytes(256)]),
  csv: () => Buffer.from('sku,qty\nA-1,5\nB-2,7\n'),
};

export async function count(t: TestApp, table: 'customer' | 'audit_log' | 'stored_file' | 'customer_document' | 'customer_integration' | 'event_outbox') {
  const row = await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
