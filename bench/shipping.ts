// `npm run bench:shipping -w bench` (issue 14's targets): labels for 1,000 cartons as one 4x6 PDF (≤ 3 s), against
// pdfkit writing the same 1,000 pages with their text and no barcodes (the floor the label code cannot go under);
// and rate shopping a packed order across 6 services (≤ 20 ms server time) through POST /Warehouse/Shipping/RateShop
// on a real app and SQLite database (app.inject: no network in the figure), beside the pure arithmetic of the same
// 6 services. Medians of several runs in one process, so the ratio means something where absolute times would not.
import PDFDocument from 'pdfkit';
import type { RateTableDefinition } from '@bolx/contracts';
import { labelsPdf, type LabelData } from '../server/src/modules/shipping/labels.js';
import { priceServices, rateTableTracking } from '../server/src/modules/shipping/carriers/rate-table.js';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeWarehouse, postStock } from '../server/test/helpers.js';
import { packDirectly, pickedOrder } from '../server/test/support/picked-orders.js';

const log = (line: string) => process.stdout.write(`${line}\n`);
const LABELS_TARGET_MS = 3000;
const RATE_SHOP_TARGET_MS = 20;
/** A target's verdict; any FAIL makes the run exit non-zero. */
let failed = false;
const verdict = (ms: number, target: number) => {
  if (ms > target) failed = true;
  return ms <= target ? 'PASS' : 'FAIL';
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timed(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    ms.push(performance.now() - start);
  }
  return ms;
}

const CARTONS = 1000;
const labels: LabelData[] = Array.from({ length: CARTONS }, (_, i) => ({
  shipmentNumber: `SHP-${String(Math.floor(i / 4) + 1).padStart(6, '0')}`, soNumber: `SO-${String(Math.floor(i / 4) + 1).padStart(6, '0')}`, reference: `PO-${i}`,
  accountName: 'Bench UPS', serviceName: 'Ground', shipFrom: { name: 'Bench DC', lines: ['1 Dock Rd', 'Newark, NJ 07102'] },
  shipTo: { name: `Receiver ${i}`, lines: ['5 Main St', 'New York, NY 10001', 'US'], postalCode: '10001' },
  packageNo: (i % 4) + 1, packageCount: 4, weightKg: 2.5, trackingNumber: rateTableTracking(i + 1), sscc: null, shipDate: '2030-03-04',
}));

/** The baseline: the same pages and words through pdfkit, without the label's layout and barcodes. */
async function plainPages(): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, margin: 0, size: [288, 432] });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => doc.on('end', resolve));
  for (const l of labels) {
    doc.addPage({ size: [288, 432], margin: 0 });
    doc.font('Helvetica').fontSize(9).text(`${l.shipTo.name} ${l.shipTo.lines.join(' ')} ${l.trackingNumber} ${l.serviceName}`, 10, 10, { lineBreak: false });
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

await labelsPdf(labels.slice(0, 10), 'carrier'); // warm up fonts and the barcode cache's code paths
const labelMs = await timed(5, () => labelsPdf(labels, 'carrier'));
const plainMs = await timed(5, plainPages);
const pdf = await labelsPdf(labels, 'carrier');
const size = pdf.length;
// One file holding a page per carton, or the figure measures something else.
const pages = pdf.toString('latin1').match(/\/Type\s*\/Page\b/g)?.length ?? 0;
if (pages !== CARTONS) throw new Error(`the label PDF has ${pages} pages, not ${CARTONS}`);
log(`labels: ${CARTONS} cartons in one 4x6 PDF — median ${median(labelMs).toFixed(0)} ms (target ≤ ${LABELS_TARGET_MS} ms: ${verdict(median(labelMs), LABELS_TARGET_MS)}), ${(size / 1024 / 1024).toFixed(1)} MB; `
  + `pdfkit text-only pages ${median(plainMs).toFixed(0)} ms; ratio ${(median(labelMs) / median(plainMs)).toFixed(2)}×`);

// ----- rate shopping across 6 services -----
const SIX: RateTableDefinition = {
  currency: 'USD', dimDivisor: 5000, fuelSurchargeBp: 1250, residentialSurchargeMinor: 450,
  zones: Array.from({ length: 900 }, (_, i) => ({ postalPrefix: String(100 + i), zone: 2 + (i % 7) })),
  services: ['GROUND', 'ECON', 'TWO_DAY', 'EXPRESS', 'OVERNIGHT', 'SAVER'].map((code, s) => ({
    code, name: code, transitDays: 6 - s, cutoff: '23:59',
    brackets: Array.from({ length: 30 }, (_, b) => ({ maxKg: b + 1, pricesMinor: Object.fromEntries(Array.from({ length: 8 }, (_, z) => [String(z + 1), 500 + 100 * s + 40 * b + 25 * z])) })),
  })),
};
const arithmetic = await timed(2000, async () => priceServices(SIX, { shipTo: { postalCode: '10001', country: 'US', residential: true }, packages: [1, 2, 3, 4].map((p) => ({ packageNo: p, weightKg: 3.2 * p, lengthCm: 40, widthCm: 30, heightCm: 20 })) }));

const t = await buildTestApp();
try {
  const db = t.database.db;
  const wh = await makeWarehouse(t.database);
  const cust = await makeCustomer(t.database, [wh]);
  const bin = await makeLocation(t.database, wh);
  const station = await makeLocation(t.database, wh, 'PACK-BENCH', 'staging');
  const admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  const cartonType = (await admin.post('/Warehouse/Pack/SaveCartonType', { warehouseId: wh, code: 'BOX', name: 'Box', lengthCm: 40, widthCm: 30, heightCm: 20, tareWeightKg: 0.3 })).json().data.cartonTypeId;
  const type = await db.selectFrom('integration_type').select('id').where('kind', '=', 'carrier').orderBy('id').executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const account = (await db.insertInto('customer_integration').values({ customer_id: cust, integration_type_id: type.id, kind: 'carrier', account_name: 'Bench UPS', is_active: 1, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow()).id;
  const saved = await admin.post('/Warehouse/Shipping/SaveRateTable', { carrierAccountId: account, definition: SIX });
  if (saved.statusCode !== 200) throw new Error(`SaveRateTable: ${saved.body}`);
  const skus: number[] = [];
  for (let i = 0; i < 4; i++) {
    const sku = await makeSku(t.database, cust, `BENCH-SH-${i}`);
    await postStock(t, [{ place: { warehouseId: wh, customerId: cust, skuId: sku, locationId: bin, lot: '', pallet: '' }, qty: 5 }]);
    skus.push(sku);
  }
  const tote = await makeLocation(t.database, wh, 'TOTE-BENCH', 'tote');
  const order = await pickedOrder(t, { warehouseId: wh, customerId: cust, toteId: tote, carrierAccountId: account, lines: skus.map((skuId) => ({ skuId, quantity: 2 })) });
  await packDirectly(t, order, { cartonTypeId: cartonType, stationId: station, perCarton: 1 });
  await db.updateTable('sales_order').set({ ship_to_zip: '10001', ship_to_name: 'Bench receiver' }).where('id', '=', order.orderId).execute();
  const rateShop = async () => {
    const res = await admin.post('/Warehouse/Shipping/RateShop', { orderId: order.orderId });
    if (res.statusCode !== 200) throw new Error(`RateShop: ${res.body}`);
    return res;
  };
  const first = (await rateShop()).json();
  // The figure only means "6 services" if the order really was priced across six.
  if (first.quotes.length !== 6) throw new Error(`RateShop priced ${first.quotes.length} services, not 6`);
  const rateMs = await timed(200, rateShop);
  log(`rate shopping: ${first.quotes.length} services priced for ${first.quotes[0].packages.length} cartons — RateShop median ${median(rateMs).toFixed(2)} ms server time `
    + `(target ≤ ${RATE_SHOP_TARGET_MS} ms: ${verdict(median(rateMs), RATE_SHOP_TARGET_MS)}; app.inject on SQLite), the arithmetic alone ${(median(arithmetic) * 1000).toFixed(0)} µs; chosen ${first.chosen.serviceCode} (${first.reason})`);
} finally {
  await t.close();
}
if (failed) process.exitCode = 1;
