// Child process, run once per engine after the master-data seed and before the servers start: builds the real
// app in-process, serves each list request of the master-data case once through app.inject while recording the
// statements it sends to the driver (lib/trace.ts), and checks every answer holds rows — a search or page that
// finds nothing would measure nothing. The bare server replays the traces.
import { writeFileSync } from 'node:fs';
import { openCaptureApp } from './capture-app.js';
import { settings } from './settings.js';
import { recordStatements, traceKey, type BenchRequest, type CapturedRequests, type Trace } from './trace.js';

const { capturedFile, app, database, db, inject } = await openCaptureApp('masterdata-capture');

// The manager: scoped to two warehouses and their clients, so the scope conditions run as for most staff.
const token = String((await inject('/Common/Auth/login', settings.user)).accesstoken);
const warehouse = await db.selectFrom('warehouse').select('id').where('code', '=', 'NJ1').executeTakeFirstOrThrow();
const { customer_id: customerId } = await db.selectFrom('customer_warehouse').select('customer_id')
  .where('warehouse_id', '=', warehouse.id).orderBy('customer_id').executeTakeFirstOrThrow();

const req = (path: string, body: unknown): BenchRequest => ({ method: 'POST', path, body: JSON.stringify(body) });
const page = { pageNumber: 1, pageSize: 10 };
/** Each list as a screen asks for it: the first page, a filter, a search, a page deep in the list — each its own case. */
const shapes: [string, string, Record<string, unknown>][] = [
  ['GetAllSkus first page', '/warehouse/Sku/GetAllSkus', { ...page }],
  ['GetAllSkus filter', '/warehouse/Sku/GetAllSkus', { ...page, filters: { customerId, isActive: 'active' } }],
  ['GetAllSkus search', '/warehouse/Sku/GetAllSkus', { ...page, searchQuery: 'kettle' }],
  ['GetAllSkus page 1000', '/warehouse/Sku/GetAllSkus', { ...page, pageNumber: 1000 }],
  ['GetUsers first page', '/Warehouse/User/GetUsers', { ...page }],
  ['GetUsers filter', '/Warehouse/User/GetUsers', { ...page, filters: { warehouseId: warehouse.id, role: 'WarehouseStaff', isActive: 'active' } }],
  ['GetUsers search', '/Warehouse/User/GetUsers', { ...page, searchQuery: 'garcia' }],
  ['GetUsers page 500', '/Warehouse/User/GetUsers', { ...page, pageNumber: 500 }],
];
const cases = Object.fromEntries(shapes.map(([name, path, body]) => [name, { slots: [[req(path, body)]] }]));

const recorder = recordStatements(database.sqlite);
const traces: Record<string, Trace> = {};
const counts: string[] = [];
for (const { slots } of Object.values(cases)) {
  for (const [r] of slots) {
    for (let pass = 0; pass < 2; pass++) { // the second pass kept: statement caches warm
      recorder.take();
      const answer = await inject(r.path, JSON.parse(r.body), token) as { items: unknown[]; totalCount: number };
      traces[traceKey(r.method, r.path, r.body)] = recorder.take();
      if (answer.items.length === 0) throw new Error(`masterdata-capture: ${r.path} ${r.body} found nothing (total ${answer.totalCount})`);
      if (pass === 1) counts.push(`${r.path.split('/').pop()} ${r.body}: ${answer.totalCount.toLocaleString('en-US')} rows`);
    }
  }
}
for (const [key, trace] of Object.entries(traces)) if (trace.length === 0) throw new Error(`masterdata-capture: nothing recorded for ${key}`);
const captured: CapturedRequests = { token, cases, traces, notes: counts };
writeFileSync(capturedFile, JSON.stringify(captured));
await app.close();
await database.close();
process.send?.({ done: true });
process.exit(0);
