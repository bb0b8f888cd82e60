import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import type { RateQuote, RateTableDefinition } from '@bolx/contracts';
import { as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, postStock, ADMIN, type TestApp } from '../../../test/helpers.js';
import { packDirectly, pickedOrder } from '../../../test/support/picked-orders.js';
import { pdfBarcodes, pdfText, withTools } from '../../../test/support/pdf-readers.js';
import { isValidSscc } from '../../platform/gs1.js';
import { billedWeight, priceServices, rateTableTracking, zoneOf } from './carriers/rate-table.js';
import { registerLiveCarrier, type CarrierAccount, type CarrierAdapter } from './carriers/index.js';
import { CarrierAccounts } from './carrier-accounts.js';
import { ShippingService } from './shipping.service.js';

const S = '/Warehouse/Shipping';

/** The hand-worked rate table of these tests. */
const TABLE: RateTableDefinition = {
  currency: 'USD', dimDivisor: 5000, fuelSurchargeBp: 1250, residentialSurchargeMinor: 450,
  zones: [{ postalPrefix: '100', zone: 2 }, { postalPrefix: '10', zone: 3 }, { postalPrefix: '9', zone: 8 }],
  services: [
    { code: 'GROUND', name: 'Ground', transitDays: 3, cutoff: '23:59', brackets: [{ maxKg: 5, pricesMinor: { 2: 1000, 3: 1200, 8: 2000 } }, { maxKg: 10, pricesMinor: { 2: 1500, 3: 1800, 8: 3000 } }, { maxKg: 30, pricesMinor: { 2: 2500, 3: 3000 } }] },
    // Cut-off at midnight: it always leaves the next business day.
    { code: 'ECON', name: 'Economy', transitDays: 6, cutoff: '00:00', brackets: [{ maxKg: 30, pricesMinor: { 2: 800, 3: 900, 8: 1500 } }] },
    { code: 'EXPRESS', name: 'Express', transitDays: 1, cutoff: '23:59', brackets: [{ maxKg: 10, pricesMinor: { 2: 4000 } }] },
  ],
};
const pkg = (packageNo: number, weightKg: number, l = 30, w = 20, h = 10) => ({ packageNo, weightKg, lengthCm: l, widthCm: w, heightCm: h });

describe('the rate-table carrier (hand-worked)', () => {
  it('finds the zone by the longest postal prefix', () => {
    expect(zoneOf(TABLE, '10001')).toBe(2);
    expect(zoneOf(TABLE, '10500')).toBe(3);
    expect(zoneOf(TABLE, '94105-1234')).toBe(8);
    expect(zoneOf(TABLE, '60601')).toBeNull();
  });

  it('bills the greater of actual and dimensional weight, rounded up to the kilogram', () => {
    // 30×20×10 = 6 000 cm³ / 5 000 = 1.2 kg dim < 5 kg actual.
    expect(billedWeight(TABLE, pkg(1, 5))).toEqual({ actualKg: 5, dimKg: 1.2, billedKg: 5 });
    // 60×40×40 = 96 000 cm³ / 5 000 = 19.2 kg dim > 5 kg actual → 20 kg.
    expect(billedWeight(TABLE, pkg(1, 5, 60, 40, 40))).toEqual({ actualKg: 5, dimKg: 19.2, billedKg: 20 });
    expect(billedWeight(TABLE, pkg(1, 7.2)).billedKg).toBe(8);
  });

  it('prices base + fuel % + residential per package, per service', () => {
    const rates = priceServices(TABLE, { shipTo: { postalCode: '10001', country: 'US', residential: true }, packages: [pkg(1, 5), pkg(2, 5, 60, 40, 40)] });
    const ground = rates.find((r) => r.serviceCode === 'GROUND')!;
    // Package 1: 5 kg, zone 2, bracket ≤5: 1000 + 12.5 % (125) + 450 = 1575.
    // Package 2: 20 kg billed, bracket ≤30: 2500 + 312.5 → 313 (half up) + 450 = 3263.
    expect(ground.packages.map((p) => [p.billedKg, p.baseMinor, p.fuelMinor, p.residentialMinor, p.totalMinor])).toEqual([[5, 1000, 125, 450, 1575], [20, 2500, 313, 450, 3263]]);
    expect(ground.totalMinor).toBe(4838);
    expect(rates.find((r) => r.serviceCode === 'ECON')!.totalMinor).toBe(2 * (800 + 100 + 450));
    // Express takes up to 10 kg: the 20 kg package is overweight.
    expect(rates.find((r) => r.serviceCode === 'EXPRESS')).toMatchObject({ totalMinor: null, error: 'overweight' });
    // Zone 8 is not served by Ground's heaviest bracket, and no zone at all is no rate.
    expect(priceServices(TABLE, { shipTo: { postalCode: '94105', country: null, residential: false }, packages: [pkg(1, 25)] })[0]).toMatchObject({ error: 'no-rate' });
    expect(priceServices(TABLE, { shipTo: { postalCode: '60601', country: null, residential: false }, packages: [pkg(1, 1)] }).every((r) => r.error === 'no-rate')).toBe(true);
  });

  it('numbers its parcels uniquely with a check digit', () => {
    // 0000000042: 2×3 + 4×1 = 10 → check digit 0.
    expect(rateTableTracking(42)).toBe('1BX00000000420');
    expect(rateTableTracking(43)).not.toBe(rateTableTracking(42));
  });

  it('chooses the requested service, else the cheapest that ships by the requested date, and says why', () => {
    const q = (serviceCode: string, totalMinor: number | null, shipDate: string, requested: string | null, adapter = 'rate-table'): RateQuote => ({
      carrierAccountId: 1, accountName: 'A', adapter, serviceCode, serviceName: serviceCode, totalMinor, currency: 'USD', zone: 2, transitDays: 1, cutoff: null,
      shipDate, estimatedDelivery: null, meetsShipDate: !requested || shipDate <= requested, error: null, errorMessage: null, packages: [],
    });
    const order = (requested: string | null, service: string | null = null) => ({ requested_ship_date: requested, carrier_account_id: null, carrier_service: service });
    const quotes = (requested: string | null) => [q('ECON', 900, '2030-03-05', requested), q('GROUND', 1125, '2030-03-04', requested), q('EXPRESS', 4500, '2030-03-04', requested)];
    expect(ShippingService.choose(quotes(null), order(null))).toMatchObject({ chosen: { serviceCode: 'ECON' }, reason: 'Cheapest service' });
    expect(ShippingService.choose(quotes('2030-03-04'), order('2030-03-04'))).toMatchObject({
      chosen: { serviceCode: 'GROUND' }, reason: 'Cheapest service that ships by 2030-03-04 (ECON is cheaper but ships 2030-03-05)',
    });
    expect(ShippingService.choose(quotes('2030-03-01'), order('2030-03-01'))).toMatchObject({ chosen: { serviceCode: 'ECON' }, reason: expect.stringMatching(/^No service ships by 2030-03-01/) });
    expect(ShippingService.choose(quotes(null), order(null, 'express'))).toMatchObject({ chosen: { serviceCode: 'EXPRESS' }, reason: expect.stringMatching(/^The order asks for EXPRESS/) });
    expect(ShippingService.choose([q('MANUAL', null, '2030-03-04', null, 'manual')], order(null))).toMatchObject({ chosen: { serviceCode: 'MANUAL' } });
    expect(ShippingService.choose([], order(null))).toMatchObject({ chosen: null, reason: 'No rate: the client has no active carrier account' });
  });
});

let t: TestApp;
let staff: ReturnType<typeof as>, client: ReturnType<typeof as>, otherClient: ReturnType<typeof as>;
let wh: number, cust: number, other: number, bin: number, station: number, cartonTypeId: number;
let rated: number, manual: number, otherRated: number;
let seq = 0;
const db = () => t.database.db;

async function carrierAccount(customerId: number, name: string, nth: number) {
  const type = await db().selectFrom('integration_type').select('id').where('kind', '=', 'carrier').orderBy('id').offset(nth).limit(1).executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  return (await db().insertInto('customer_integration').values({
    customer_id: customerId, integration_type_id: type.id, kind: 'carrier', account_name: name, is_active: 1, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow()).id;
}

/** A packed order (one carton per line, 30×20×10 cm, 5 kg) shipping to `zip`. */
async function packed(o: { customerId?: number; lines?: number; zip?: string; requestedShipDate?: string | null; service?: string | null; carrierAccountId?: number } = {}) {
  const customerId = o.customerId ?? cust;
  const skus: number[] = [];
  for (let i = 0; i < (o.lines ?? 1); i++) {
    const s = await makeSku(t.database, customerId, `SP-${++seq}-${Math.random().toString(36).slice(2, 6)}`.toUpperCase());
    await postStock(t, [{ place: { warehouseId: wh, customerId, skuId: s, locationId: bin, lot: '', pallet: '' }, qty: 2 }]);
    skus.push(s);
  }
  const tote = await makeLocation(t.database, wh, `SPT-${++seq}-${Math.random().toString(36).slice(2, 6)}`.toUpperCase(), 'tote');
  const order = await pickedOrder(t, { warehouseId: wh, customerId, toteId: tote, carrierAccountId: o.carrierAccountId, lines: skus.map((skuId) => ({ skuId, quantity: 2 })) });
  await packDirectly(t, order, { cartonTypeId, stationId: station, perCarton: 1 });
  await db().updateTable('sales_order').set({
    ship_to_name: 'Ada Lovelace', ship_to_address1: '1 Main St', ship_to_city: 'New York', ship_to_state: 'NY', ship_to_zip: o.zip ?? '10001', ship_to_country: 'US',
    requested_ship_date: o.requestedShipDate ?? null, carrier_service: o.service ?? null,
  }).where('id', '=', order.orderId).execute();
  return order;
}
const shipmentOf = (orderId: number) => db().selectFrom('shipment').selectAll().where('order_id', '=', orderId).where('status', '<>', 'Cancelled').executeTakeFirst();
const count = async (table: 'shipment' | 'shipment_package' | 'manifest' | 'floor_event') => Number((await db().selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);

beforeAll(async () => {
  t = await buildTestApp();
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh], 'Acme Parcels');
  other = await makeCustomer(t.database, [wh], 'Other Goods');
  await db().updateTable('customer').set({ gs1_company_prefix: '0614141' }).where('id', '=', cust).execute();
  bin = await makeLocation(t.database, wh);
  station = await makeLocation(t.database, wh, `PACK-S${++seq}`, 'staging');
  const admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  const saved = await admin.post('/Warehouse/Pack/SaveCartonType', { warehouseId: wh, code: 'BOX', name: 'Box', lengthCm: 30, widthCm: 20, heightCm: 10, tareWeightKg: 0.3 });
  expect(saved.statusCode, saved.body).toBe(200);
  cartonTypeId = saved.json().data.cartonTypeId;
  rated = await carrierAccount(cust, 'Acme UPS (rate table)', 0);
  manual = await carrierAccount(cust, 'Acme LTL (manual)', 1);
  otherRated = await carrierAccount(other, 'Other UPS', 0);
  const m = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh], customerIds: [cust, other], modules: { ShippingDashboard: 'write', BatchJob: 'write' } });
  staff = as(t.app, await login(t.app, m.username, m.password));
  const c = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { ShippingDashboard: 'read' } });
  client = as(t.app, await login(t.app, c.username, c.password));
  const oc = await makeUser(t.database, { role: 'Client', customerId: other, modules: { ShippingDashboard: 'read' } });
  otherClient = as(t.app, await login(t.app, oc.username, oc.password));
  for (const id of [rated, otherRated]) {
    const res = await staff.post(`${S}/SaveRateTable`, { carrierAccountId: id, definition: TABLE });
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterAll(async () => { await t?.close(); });

describe('rate tables', () => {
  it('are kept per carrier account and read back; a bad table is a 400 naming the field', async () => {
    const res = await staff.get(`${S}/GetRateTable?carrierAccountId=${rated}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ carrierAccountId: rated, accountName: 'Acme UPS (rate table)', definition: { dimDivisor: 5000, fuelSurchargeBp: 1250 } });
    expect((await staff.get(`${S}/GetRateTable?carrierAccountId=${manual}`)).json().definition).toBeNull();
    const bad = await staff.post(`${S}/SaveRateTable`, { carrierAccountId: rated, definition: { ...TABLE, services: [{ ...TABLE.services[0], brackets: [{ maxKg: 10, pricesMinor: {} }, { maxKg: 5, pricesMinor: {} }] }] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/lightest to heaviest/);
    // A client account cannot change rates.
    expect((await client.post(`${S}/SaveRateTable`, { carrierAccountId: rated, definition: TABLE })).statusCode).toBe(403);
  });
});

describe('rate shopping', () => {
  it('prices every service of every account, chooses the cheapest, and keeps it on the order’s Open shipment', async () => {
    const o = await packed({ carrierAccountId: rated });
    const res = await staff.post(`${S}/RateShop`, { orderId: o.orderId });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const price = (code: string) => body.quotes.find((q: RateQuote) => q.serviceCode === code).totalMinor;
    // One 5 kg carton to zone 2: Ground 1000 + 125 fuel; Economy 800 + 100; Express 4000 + 500; the manual carrier prices nothing.
    expect([price('GROUND'), price('ECON'), price('EXPRESS'), price('MANUAL')]).toEqual([1125, 900, 4500, null]);
    expect(body.chosen).toMatchObject({ serviceCode: 'ECON', totalMinor: 900, carrierAccountId: rated });
    expect(body.reason).toBe('Cheapest service');
    expect(await shipmentOf(o.orderId)).toMatchObject({ status: 'Open', service_code: 'ECON', rate_minor: 900, rate_reason: 'Cheapest service', shipment_number: body.shipmentNumber });
    expect(body.shipmentNumber).toMatch(/^SHP-\d{6}$/);
    // The order's cartons come with the quotes: a manual carrier's label takes a tracking number typed for each.
    expect(body.cartons).toEqual([{ cartonId: expect.any(Number), cartonNumber: expect.any(String) }]);
  });

  it('takes the cheapest that ships by the requested ship date, or the order’s requested service', async () => {
    // On a weekend both services ship the coming Monday, so the day is fixed: a Wednesday, noon UTC.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-18T12:00:00Z') });
    try {
      await shipsByRequestedDate();
    } finally {
      vi.useRealTimers();
    }
  });

  async function shipsByRequestedDate() {
    const probe = await staff.post(`${S}/RateShop`, { orderId: (await packed()).orderId });
    const groundDay = probe.json().quotes.find((q: RateQuote) => q.serviceCode === 'GROUND').shipDate;
    const econDay = probe.json().quotes.find((q: RateQuote) => q.serviceCode === 'ECON').shipDate;
    expect(econDay > groundDay).toBe(true);
    const dated = await staff.post(`${S}/RateShop`, { orderId: (await packed({ requestedShipDate: groundDay })).orderId });
    expect(dated.json().chosen.serviceCode).toBe('GROUND');
    expect(dated.json().reason).toBe(`Cheapest service that ships by ${groundDay} (Economy is cheaper but ships ${econDay})`);
    const asked = await staff.post(`${S}/RateShop`, { orderId: (await packed({ service: 'Express' })).orderId });
    expect(asked.json().chosen.serviceCode).toBe('EXPRESS');
    expect(asked.json().reason).toMatch(/^The order asks for Express/);
  }

  it('refuses an unpacked order (409) and a carton without weight (422), writing nothing', async () => {
    const s = await makeSku(t.database, cust, `SPU-${++seq}`);
    await postStock(t, [{ place: { warehouseId: wh, customerId: cust, skuId: s, locationId: bin, lot: '', pallet: '' }, qty: 1 }]);
    const tote = await makeLocation(t.database, wh, `SPU-T-${++seq}`, 'tote');
    const pickedOnly = await pickedOrder(t, { warehouseId: wh, customerId: cust, toteId: tote, lines: [{ skuId: s, quantity: 1 }] });
    const before = [await count('shipment'), await count('shipment_package'), await count('floor_event')];
    const unpacked = await staff.post(`${S}/CreateLabels`, { orderId: pickedOnly.orderId });
    expect(unpacked.statusCode).toBe(409);
    expect(unpacked.json().message).toMatch(/is Picked; only Packed orders/);
    expect((await staff.post(`${S}/RateShop`, { orderId: pickedOnly.orderId })).statusCode).toBe(409);
    const o = await packed();
    await db().updateTable('carton').set({ weight_kg: null }).where('order_id', '=', o.orderId).execute();
    const unweighed = await staff.post(`${S}/RateShop`, { orderId: o.orderId });
    expect(unweighed.statusCode).toBe(422);
    expect(unweighed.json().details).toHaveProperty('weightKg');
    expect([await count('shipment'), await count('shipment_package'), await count('floor_event')]).toEqual(before);
  });

  it('an overweight or unzoned order is an exception on the dashboard', async () => {
    const o = await packed({ customerId: other, carrierAccountId: otherRated, zip: '60601' });
    const res = await staff.post(`${S}/RateShop`, { orderId: o.orderId });
    expect(res.json().chosen).toBeNull();
    expect(res.json().reason).toMatch(/^No rate: No zone for postal code 60601/);
    const heavy = await packed({ customerId: other, carrierAccountId: otherRated });
    await db().updateTable('carton').set({ weight_kg: 45 }).where('order_id', '=', heavy.orderId).execute();
    await staff.post(`${S}/RateShop`, { orderId: heavy.orderId });
    const label = await staff.post(`${S}/CreateLabels`, { orderId: heavy.orderId });
    expect(label.statusCode).toBe(422);
    const dash = (await staff.get(`${S}/GetDashboard?warehouseId=${wh}`)).json();
    const row = (id: number) => dash.waiting.find((w: { orderId: number }) => w.orderId === id);
    expect(row(o.orderId).exception).toMatch(/^no-rate/);
    expect(row(heavy.orderId).exception).toMatch(/^overweight/);
    expect(row(heavy.orderId)).toMatchObject({ accountName: 'Other UPS', cutoff: '23:59', cartons: 1 });
  });
});

describe('labels, void, ship and the end-of-day close', () => {
  let o: { orderId: number; soNumber: string; referenceNumber: string };
  let shipmentId: number;
  let firstTracking: string;

  it('labels each carton: SSCC from the client’s GS1 prefix, a tracking number, the charge as a label event; Labelled', async () => {
    o = await packed({ lines: 2, carrierAccountId: rated });
    const res = await staff.post(`${S}/CreateLabels`, { orderId: o.orderId, carrierAccountId: rated, serviceCode: 'GROUND' });
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json().data;
    shipmentId = s.shipmentId;
    expect(s).toMatchObject({ status: 'Labelled', serviceName: 'Ground', rateMinor: 2 * 1125, packages: 2, weightKg: 10 });
    for (const p of s.packageList) {
      expect(isValidSscc(p.sscc)).toBe(true);
      expect(p.sscc).toMatch(/^00614141/);
      expect(p.trackingNumber).toBe(rateTableTracking(p.packageId));
      expect(p.chargeMinor).toBe(1125);
    }
    firstTracking = s.packageList[0].trackingNumber;
    const events = await db().selectFrom('floor_event').select(['kind', 'amount_minor', 'doc_type', 'doc_id']).where('doc_type', '=', 'SHIPMENT').where('doc_id', '=', shipmentId).execute();
    expect(events.map((e) => [e.kind, Number(e.amount_minor)])).toEqual([['label', 1125], ['label', 1125]]);
    // Labelling twice is refused until the labels are voided.
    expect((await staff.post(`${S}/CreateLabels`, { orderId: o.orderId })).statusCode).toBe(409);
  });

  withTools('read back as people and scanners do', () => {
    it('the 4x6 carrier label PDF: tracking number as Code 128, ship-from/to, service, weight, carton n of m', async () => {
      const res = await staff.get(`${S}/Labels?shipmentIds=${shipmentId}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/application\/pdf/);
      const pdf = res.rawPayload;
      const text = pdfText(pdf);
      for (const words of ['Ada Lovelace', 'New York, NY 10001', 'Ground', '5.0 kg', '1 of 2', '2 of 2', o.soNumber, firstTracking]) expect(text).toContain(words);
      const detail = (await staff.get(`${S}/GetShipment?shipmentId=${shipmentId}`)).json();
      expect(pdfBarcodes(pdf, 2)).toEqual(detail.trackingNumbers);
    });

    it('the GS1-128 SSCC label: (420) ship-to postal code with (400) the PO, and (00) the SSCC, with its human-readable line', async () => {
      const res = await staff.get(`${S}/Labels?shipmentIds=${shipmentId}&kind=sscc`);
      expect(res.statusCode).toBe(200);
      const detail = (await staff.get(`${S}/GetShipment?shipmentId=${shipmentId}`)).json();
      const sscc = detail.packageList[0].sscc as string;
      const read = pdfBarcodes(res.rawPayload, 1).map((r) => r.replace(/\x1d/g, '|'));
      expect(read.sort()).toEqual([`00${sscc}`, `42010001|400${o.referenceNumber}`]);
      expect(pdfText(res.rawPayload)).toContain(`(00) ${sscc[0]} ${sscc.slice(1, 8)} ${sscc.slice(8, 17)} ${sscc[17]}`);
    });
  });

  it('as ZPL: one ^XA…^XZ per carton, the tracking number as Code 128, the SSCC with FNC1', async () => {
    const zpl = (await staff.get(`${S}/Labels?shipmentIds=${shipmentId}&format=zpl`)).body;
    expect(zpl.match(/\^XA/g)).toHaveLength(2);
    expect(zpl).toContain(`^BCN,220,N,N,N^FH\\^FD${firstTracking}^FS`);
    const detail = (await staff.get(`${S}/GetShipment?shipmentId=${shipmentId}`)).json();
    expect((await staff.get(`${S}/Labels?shipmentIds=${shipmentId}&format=zpl&kind=sscc`)).body).toContain(`^FD>;>800${detail.packageList[0].sscc}^FS`);
  });

  it('voids labels before ship (void-label events), and labels again with new numbers', async () => {
    const res = await staff.post(`${S}/VoidLabels`, { shipmentId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'Open', packages: 0, trackingNumbers: [] });
    expect(res.json().data.packageList.every((p: { voided: boolean }) => p.voided)).toBe(true);
    const voids = await db().selectFrom('floor_event').select('amount_minor').where('kind', '=', 'void-label').where('doc_id', '=', shipmentId).execute();
    expect(voids.map((v) => Number(v.amount_minor))).toEqual([1125, 1125]);
    expect((await staff.get(`${S}/Labels?shipmentIds=${shipmentId}`)).statusCode).toBe(409);
    const again = await staff.post(`${S}/CreateLabels`, { orderId: o.orderId, serviceCode: 'GROUND', carrierAccountId: rated });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.shipmentId).toBe(shipmentId);
    expect(again.json().data.trackingNumbers).not.toContain(firstTracking);
  });

  it('ships through ship confirm: order Shipped, shipment Shipped with its day, tracking numbers on the cartons', async () => {
    const res = await staff.post(`${S}/Ship`, { shipmentIds: [shipmentId] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.shipped).toHaveLength(1);
    const orderRow = await db().selectFrom('sales_order').select(['status', 'ship_date']).where('id', '=', o.orderId).executeTakeFirstOrThrow();
    expect(orderRow.status).toBe('Shipped');
    const detail = (await staff.get(`${S}/GetShipment?shipmentId=${shipmentId}`)).json();
    expect(detail).toMatchObject({ status: 'Shipped', shipDay: orderRow.ship_date });
    const cartons = await db().selectFrom('carton').select('tracking_number').where('order_id', '=', o.orderId).orderBy('id').execute();
    expect(cartons.map((c) => c.tracking_number)).toEqual(detail.trackingNumbers);
    // Shipped labels cannot be voided.
    expect((await staff.post(`${S}/VoidLabels`, { shipmentId })).statusCode).toBe(409);
  });

  it('a labelled order shipped by ConfirmShipment itself takes its shipment along; an unlabelled one ships as before', async () => {
    const labelled = await packed({ carrierAccountId: manual });
    const cartons = await db().selectFrom('carton').select('id').where('order_id', '=', labelled.orderId).execute();
    const noTracking = await staff.post(`${S}/CreateLabels`, { orderId: labelled.orderId, carrierAccountId: manual, serviceCode: 'MANUAL' });
    expect(noTracking.statusCode).toBe(422);
    expect(noTracking.json().details).toHaveProperty('tracking');
    const typed = await staff.post(`${S}/CreateLabels`, { orderId: labelled.orderId, carrierAccountId: manual, serviceCode: 'MANUAL', tracking: [{ cartonId: cartons[0].id, trackingNumber: 'PRO-778899' }] });
    expect(typed.statusCode, typed.body).toBe(200);
    expect(typed.json().data).toMatchObject({ status: 'Labelled', adapter: 'manual', trackingNumbers: ['PRO-778899'], rateMinor: null });
    const plain = await packed();
    const res = await staff.post('/Warehouse/Ship/ConfirmShipment', { warehouseId: wh, orderIds: [labelled.orderId, plain.orderId] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.shipped).toHaveLength(2);
    expect((await shipmentOf(labelled.orderId))?.status).toBe('Shipped');
    expect((await db().selectFrom('carton').select('tracking_number').where('id', '=', cartons[0].id).executeTakeFirstOrThrow()).tracking_number).toBe('PRO-778899');
    expect(await shipmentOf(plain.orderId)).toBeUndefined();
  });

  it('closes the day per carrier account: a manifest with the totals, PDF and CSV; the shipments locked; closing twice is a 409', async () => {
    const second = await packed({ carrierAccountId: rated });
    const labelled = await staff.post(`${S}/CreateLabels`, { orderId: second.orderId, carrierAccountId: rated, serviceCode: 'EXPRESS', residential: true });
    expect(labelled.statusCode, labelled.body).toBe(200);
    const secondId = labelled.json().data.shipmentId;
    expect(labelled.json().data.rateMinor).toBe(4000 + 500 + 450);
    expect((await staff.post(`${S}/Ship`, { shipmentIds: [secondId] })).json().data.shipped).toHaveLength(1);
    expect((await staff.get(`${S}/GetDashboard?warehouseId=${wh}`)).json().toClose).toContainEqual(expect.objectContaining({ carrierAccountId: rated, shipments: 2, packages: 3 }));

    const res = await staff.post(`${S}/CloseDay`, { warehouseId: wh, carrierAccountId: rated });
    expect(res.statusCode, res.body).toBe(200);
    const m = res.json().data;
    expect(m).toMatchObject({ shipments: 2, packages: 3, totalWeightKg: 15, totalChargeMinor: 2 * 1125 + 4950, accountName: 'Acme UPS (rate table)' });
    expect(m.manifestNumber).toMatch(/^MAN-\d{6}$/);
    for (const id of [shipmentId, secondId]) expect((await staff.get(`${S}/GetShipment?shipmentId=${id}`)).json()).toMatchObject({ status: 'Closed', manifestId: m.manifestId });
    const event = await db().selectFrom('floor_event').select(['kind', 'quantity', 'amount_minor']).where('doc_type', '=', 'MANIFEST').where('doc_id', '=', m.manifestId).executeTakeFirstOrThrow();
    expect([event.kind, event.quantity, Number(event.amount_minor)]).toEqual(['manifest', 3, 7200]);

    const csv = (await staff.get(`${S}/Manifest?manifestId=${m.manifestId}&format=csv`)).body;
    const rows = csv.trim().split('\r\n');
    expect(rows).toHaveLength(1 + 3 + 1);
    const detail = (await staff.get(`${S}/GetShipment?shipmentId=${shipmentId}`)).json();
    for (const tn of detail.trackingNumbers) expect(csv).toContain(tn);
    expect(rows.at(-1)).toBe(`${m.manifestNumber},${m.businessDay},Acme UPS (rate table),TOTAL,2 shipments,,,,,3 packages,15.00,72.00`);

    // Locked: closing twice writes nothing, and a closed shipment is neither voided nor cancelled.
    const manifests = await count('manifest');
    const twice = await staff.post(`${S}/CloseDay`, { warehouseId: wh, carrierAccountId: rated });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toMatch(/Nothing to close/);
    expect(await count('manifest')).toBe(manifests);
    expect((await staff.post(`${S}/VoidLabels`, { shipmentId })).statusCode).toBe(409);
    expect((await staff.post(`${S}/CancelShipment`, { shipmentId })).statusCode).toBe(409);
  });

  withTools('the manifest PDF', () => {
    it('lists every tracking number and the totals', async () => {
      const [m] = (await staff.get(`${S}/GetDashboard?warehouseId=${wh}`)).json().manifests;
      const res = await staff.get(`${S}/Manifest?manifestId=${m.manifestId}`);
      expect(res.headers['content-type']).toMatch(/application\/pdf/);
      const text = pdfText(res.rawPayload);
      expect(text).toContain(`Manifest ${m.manifestNumber}`);
      expect(text).toMatch(/Totals: 2 shipments, 3 packages\s+15\.00\s+72\.00 USD/);
    });
  });
});

describe('client accounts and other clients', () => {
  it('a client sees its own shipments only (list, one shipment, labels, manifests)', async () => {
    const mine = (await client.post(`${S}/GetShipments`, { pageSize: 100 })).json();
    expect(mine.totalCount).toBeGreaterThan(0);
    expect(mine.items.every((s: { customerId: number }) => s.customerId === cust)).toBe(true);
    const theirs = (await otherClient.post(`${S}/GetShipments`, { pageSize: 100 })).json();
    expect(theirs.items.every((s: { customerId: number }) => s.customerId === other)).toBe(true);
    const acmeShipment = mine.items.find((s: { status: string }) => s.status === 'Closed');
    expect((await otherClient.get(`${S}/GetShipment?shipmentId=${acmeShipment.shipmentId}`)).statusCode).toBe(404);
    expect((await otherClient.get(`${S}/Labels?shipmentIds=${acmeShipment.shipmentId}`)).statusCode).toBe(404);
    expect((await otherClient.get(`${S}/Manifest?manifestId=${acmeShipment.manifestId}&format=csv`)).statusCode).toBe(404);
    expect((await client.get(`${S}/Manifest?manifestId=${acmeShipment.manifestId}&format=csv`)).statusCode).toBe(200);
    // Clients read; they do not label, ship or close.
    expect((await client.post(`${S}/CloseDay`, { warehouseId: wh, carrierAccountId: rated })).statusCode).toBe(403);
    const dash = (await otherClient.get(`${S}/GetDashboard?warehouseId=${wh}`)).json();
    expect(dash.waiting.every((w: { customerId: number }) => w.customerId === other)).toBe(true);
    expect(dash.manifests).toEqual([]);
  });

  it('staff cannot label another client’s order through a carrier account that is not the client’s', async () => {
    const o = await packed({ customerId: other, carrierAccountId: otherRated });
    const res = await staff.post(`${S}/CreateLabels`, { orderId: o.orderId, carrierAccountId: rated, serviceCode: 'GROUND' });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toHaveProperty('carrierAccountId');
  });
});

describe('a live carrier’s credentials', () => {
  const SECRET = 'fedex-api-secret-5e4d3c2b9999';
  const KEY = 'fedex-api-key-0a1b2c3d7777';
  it('reach its adapter unsealed from the secret box at the point of use; no answer of the API carries them', async () => {
    // A test adapter in the place a FedEx adapter will take: it keeps what it was given.
    const seen: CarrierAccount[] = [];
    const adapter: CarrierAdapter = {
      code: 'FEDEX',
      async rate(req) {
        seen.push(req.account);
        return [{ serviceCode: 'FX_GROUND', serviceName: 'FedEx Ground', totalMinor: 1234, currency: 'USD', zone: 2, transitDays: 2, cutoff: null, error: null, errorMessage: null, packages: [] }];
      },
      async label(req) {
        seen.push(req.account);
        return { packages: req.packages.map((p) => ({ packageNo: p.packageNo, trackingNumber: `FX${req.packageIds.get(p.packageNo)}`, chargeMinor: 1234, billedKg: 5 })) };
      },
      async void(account) { seen.push(account); },
      async track() { return []; },
      async manifest() { return { reference: null }; },
    };
    const unplug = registerLiveCarrier('FEDEX', adapter);
    let live = 0;
    try {
      const admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
      live = await makeCustomer(t.database, [wh], `Live ${++seq}`);
      const fedex = (await db().selectFrom('integration_type').select('id').where('kind', '=', 'carrier').where('code', '=', 'FEDEX').executeTakeFirstOrThrow()).id;
      const props = (await admin.get(`/Warehouse/Customer/GetCarrierIntegrationProperties?integrationId=${fedex}`)).json() as { uniqueid: number; propertyKey: string }[];
      const prop = (key: string) => props.find((p) => p.propertyKey === key)!.uniqueid;
      const made = await admin.post('/Warehouse/Customer/CreateIntegrationCarrier', {
        customerId: live, integrationId: fedex, accountName: 'Live FedEx',
        properties: [{ propertyId: prop('accountNumber'), value: '510087000' }, { propertyId: prop('apiKey'), value: KEY }, { propertyId: prop('apiSecret'), value: SECRET }],
      });
      expect(made.statusCode, made.body).toBe(200);
      const accountId = made.json().data.uniqueid as number;
      // Sealed at rest.
      const stored = await db().selectFrom('customer_integration_value').select('value').where('customer_integration_id', '=', accountId).execute();
      expect(JSON.stringify(stored)).not.toContain(SECRET);

      const o = await packed({ customerId: live, carrierAccountId: accountId });
      const shop = await admin.post(`${S}/RateShop`, { orderId: o.orderId });
      expect(shop.statusCode, shop.body).toBe(200);
      expect(shop.json().chosen).toMatchObject({ serviceCode: 'FX_GROUND', totalMinor: 1234, carrierAccountId: accountId });
      const label = await admin.post(`${S}/CreateLabels`, { orderId: o.orderId, carrierAccountId: accountId, serviceCode: 'FX_GROUND' });
      expect(label.statusCode, label.body).toBe(200);
      const voided = await admin.post(`${S}/VoidLabels`, { shipmentId: label.json().data.shipmentId });
      expect(voided.statusCode, voided.body).toBe(200);

      // Rate (the rate shop, and labelling prices again), label and void each got the decrypted secrets with the plain properties beside them.
      expect(seen.length).toBeGreaterThanOrEqual(3);
      for (const account of seen) {
        expect(account).toMatchObject({ id: accountId, carrierCode: 'FEDEX', properties: { accountNumber: '510087000' }, credentials: { apiKey: KEY, apiSecret: SECRET } });
        expect(account.properties).not.toHaveProperty('apiSecret');
      }
      // Nothing the API answered carries them: the rate shop, the label, the shipment, the account itself.
      const shipment = await admin.get(`${S}/GetShipment?shipmentId=${label.json().data.shipmentId}`);
      const account = await admin.get(`/Warehouse/Customer/GetAllCustomerCarrier?customerId=${live}`);
      for (const body of [shop.body, label.body, voided.body, shipment.body, account.body]) {
        expect(body).not.toContain(SECRET);
        expect(body).not.toContain(KEY);
      }
    } finally {
      unplug();
    }
    // Without a live adapter the account is a manual carrier's, which is given no credentials: they stay sealed.
    const [unplugged] = await new CarrierAccounts(t.config.tokenSecret).load(db(), live);
    expect(unplugged).toMatchObject({ carrierCode: 'FEDEX', properties: { accountNumber: '510087000' }, credentials: {} });
  });
});
