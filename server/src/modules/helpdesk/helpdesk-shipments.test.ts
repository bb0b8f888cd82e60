import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { RateTableDefinition } from '@bolx/contracts';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, postStock, type TestApp } from '../../../test/helpers.js';
import { packDirectly, pickedOrder } from '../../../test/support/picked-orders.js';

// Issue 18 item 1, the shipment side of ticket links: a parcel shipment of any day opens by id (its carrier, service,
// packages, order and status history) with its tickets; a freight shipment can be a ticket's document too; a client
// account links and sees only its own customer's.
const H = '/ServiceManagement/HelpDesk';
const S = '/Warehouse/Shipping';
const F = '/Freight/FreightShipment';
const TABLE: RateTableDefinition = {
  currency: 'USD', dimDivisor: 5000, fuelSurchargeBp: 0, residentialSurchargeMinor: 0,
  zones: [{ postalPrefix: '1', zone: 2 }],
  services: [{ code: 'GROUND', name: 'Ground', transitDays: 3, cutoff: '23:59', brackets: [{ maxKg: 30, pricesMinor: { 2: 1000 } }] }],
};

let t: TestApp;
type Caller = ReturnType<typeof as>;
let staff: Caller, client: Caller, otherClient: Caller, clientNoShipping: Caller;
let wh: number, cust: number, other: number, bin: number, station: number, cartonTypeId: number;
const accounts: Record<number, number> = {};
let seq = 0;
const db = () => t.database.db;
const tag = () => `${++seq}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
const tickets = async () => Number((await db().selectFrom('ticket').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);

/** A packed order of a customer (one 5 kg carton), shipping to New York through its rate-table carrier account. */
async function packed(customerId: number) {
  const sku = await makeSku(t.database, customerId, `HS-${tag()}`);
  await postStock(t, [{ place: { warehouseId: wh, customerId, skuId: sku, locationId: bin, lot: '', pallet: '' }, qty: 2 }]);
  const tote = await makeLocation(t.database, wh, `HST-${tag()}`, 'tote');
  const order = await pickedOrder(t, { warehouseId: wh, customerId, toteId: tote, carrierAccountId: accounts[customerId], lines: [{ skuId: sku, quantity: 2 }] });
  await packDirectly(t, order, { cartonTypeId, stationId: station, perCarton: 10 });
  await db().updateTable('sales_order').set({ ship_to_name: 'Ada Lovelace', ship_to_address1: '1 Main St', ship_to_city: 'New York', ship_to_state: 'NY', ship_to_zip: '10001', ship_to_country: 'US' })
    .where('id', '=', order.orderId).execute();
  return order;
}

/** A parcel shipment labelled and shipped through the routes, then moved back to an earlier ship day (not on today's dashboard). */
async function shippedLastWeek(customerId: number) {
  const order = await packed(customerId);
  const labelled = await staff.post(`${S}/CreateLabels`, { orderId: order.orderId });
  expect(labelled.statusCode, labelled.body).toBe(200);
  const shipmentId = labelled.json().data.shipmentId as number;
  const shipped = await staff.post(`${S}/Ship`, { shipmentIds: [shipmentId] });
  expect(shipped.statusCode, shipped.body).toBe(200);
  await db().updateTable('shipment').set({ ship_day: '2030-01-07' }).where('id', '=', shipmentId).execute();
  return { ...order, shipmentId, shipmentNumber: labelled.json().data.shipmentNumber as string };
}

/** A freight shipment of a customer's packed order, planned through the route. */
async function freight(customerId: number) {
  const order = await packed(customerId);
  const res = await staff.post(`${F}/CreateFreightShipment`, {
    warehouseId: wh, customerId, orderIds: [order.orderId], carrierName: 'Old Dominion Freight Line', scac: 'ODFL', chargeTerms: 'Prepaid',
    consignee: { name: 'Retail DC 7', address1: '100 Market St', city: 'Columbus', state: 'OH', zip: '43004', country: 'US' },
    handlingUnits: [{ handlingType: 'Pallet', handlingQty: 1, packageType: 'Carton', pieces: 1, weightKg: 30, lengthCm: 120, widthCm: 100, heightCm: 100, freightClass: '100', description: 'Goods', hazmat: false, orderId: order.orderId }],
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { shipmentId: number; shipNumber: string };
}

const open = (by: Caller, link: Record<string, unknown>, title = 'About this shipment') => by.post(`${H}/CreateTicket`, { title, link });
const linkedIds = async (by: Caller, kind: string, id: number) => {
  const res = await by.get(`${H}/GetLinkedTickets?kind=${kind}&id=${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { ticketId: number }[]).map((x) => x.ticketId);
};

beforeAll(async () => {
  t = await buildTestApp();
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh], 'Fjord Parcels');
  other = await makeCustomer(t.database, [wh], 'Other Parcels');
  bin = await makeLocation(t.database, wh);
  station = await makeLocation(t.database, wh, `PACK-HS${tag()}`, 'staging');
  const admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  const box = await admin.post('/Warehouse/Pack/SaveCartonType', { warehouseId: wh, code: 'BOX', name: 'Box', lengthCm: 30, widthCm: 20, heightCm: 10, tareWeightKg: 0.3 });
  expect(box.statusCode, box.body).toBe(200);
  cartonTypeId = box.json().data.cartonTypeId;
  const type = await db().selectFrom('integration_type').select('id').where('kind', '=', 'carrier').orderBy('id').limit(1).executeTakeFirstOrThrow();
  for (const customerId of [cust, other]) {
    const now = new Date().toISOString();
    accounts[customerId] = (await db().insertInto('customer_integration').values({
      customer_id: customerId, integration_type_id: type.id, kind: 'carrier', account_name: `Parcel ${customerId}`, is_active: 1, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow()).id;
    expect((await admin.post(`${S}/SaveRateTable`, { carrierAccountId: accounts[customerId], definition: TABLE })).statusCode).toBe(200);
  }
  const modules = { ShippingDashboard: 'write', FreightShipment: 'write', HelpDesk: 'write', BatchJob: 'write' } as const;
  const m = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh], customerIds: [cust, other], modules });
  staff = as(t.app, await login(t.app, m.username, m.password));
  const clientModules = { ShippingDashboard: 'read', FreightShipment: 'read', HelpDesk: 'write' } as const;
  const c = await makeUser(t.database, { role: 'Client', customerId: cust, modules: clientModules });
  client = as(t.app, await login(t.app, c.username, c.password));
  const oc = await makeUser(t.database, { role: 'Client', customerId: other, modules: clientModules });
  otherClient = as(t.app, await login(t.app, oc.username, oc.password));
  const cn = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { HelpDesk: 'write' } });
  clientNoShipping = as(t.app, await login(t.app, cn.username, cn.password));
});
afterAll(async () => { await t?.close(); });

describe('the shipment view', () => {
  it('opens a shipment of any day by id: carrier, service, tracking, packages, ship-to, its order and its status history', async () => {
    const s = await shippedLastWeek(cust);
    // Not on today's dashboard any more…
    const dashboard = await staff.get(`${S}/GetDashboard?warehouseId=${wh}`);
    expect(dashboard.json().shippedToday.map((x: { shipmentId: number }) => x.shipmentId)).not.toContain(s.shipmentId);
    // …but its view opens by id, for staff and for the client account of its customer.
    for (const by of [staff, client]) {
      const res = await by.get(`${S}/GetShipment?shipmentId=${s.shipmentId}`);
      expect(res.statusCode, res.body).toBe(200);
      const v = res.json();
      expect(v).toMatchObject({
        shipmentId: s.shipmentId, shipmentNumber: s.shipmentNumber, status: 'Shipped', kind: 'order', orderId: s.orderId, soNumber: s.soNumber, orderStatus: 'Shipped',
        customerName: 'Fjord Parcels', accountName: `Parcel ${cust}`, serviceCode: 'GROUND', serviceName: 'Ground', rateMinor: 1000, shipDay: '2030-01-07', packages: 1,
        shipTo: { name: 'Ada Lovelace', address1: '1 Main St', address2: null, city: 'New York', state: 'NY', zip: '10001', country: 'US' }, residential: false, closedAt: null,
      });
      expect(typeof v.warehouseName).toBe('string');
      expect(v.trackingNumbers).toHaveLength(1);
      expect(v.packageList).toEqual([expect.objectContaining({ packageNo: 1, trackingNumber: v.trackingNumbers[0], weightKg: expect.any(Number), voided: false })]);
      expect(v.history.map((h: { from: string; to: string }) => `${h.from}>${h.to}`)).toEqual(['Open>Labelled', 'Labelled>Shipped']);
      expect(v.history[0]).toMatchObject({ at: expect.any(String), username: expect.any(String) });
    }
  });

  it('is a 404 for another customer\'s client account, and a 403 without the shipping module', async () => {
    const s = await shippedLastWeek(cust);
    const res = await otherClient.get(`${S}/GetShipment?shipmentId=${s.shipmentId}`);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain(s.shipmentNumber);
    expect((await clientNoShipping.get(`${S}/GetShipment?shipmentId=${s.shipmentId}`)).statusCode).toBe(403);
    expect((await staff.get(`${S}/GetShipment?shipmentId=99999999`)).statusCode).toBe(404);
    expect((await staff.get(`${S}/GetShipment?shipmentId=abc`)).statusCode).toBe(400);
  });
});

describe('tickets about shipments', () => {
  it('a client links its own parcel shipment by number; the ticket names it and the shipment lists the ticket', async () => {
    const s = await shippedLastWeek(cust);
    const res = await open(client, { kind: 'shipment', number: s.shipmentNumber }, 'Parcel never arrived');
    expect(res.statusCode, res.body).toBe(200);
    const ticket = res.json().data;
    expect(ticket).toMatchObject({ customerId: cust, warehouseId: wh, link: { kind: 'shipment', id: s.shipmentId, number: s.shipmentNumber } });
    expect(await linkedIds(staff, 'shipment', s.shipmentId)).toEqual([ticket.ticketId]);
    expect(await linkedIds(client, 'shipment', s.shipmentId)).toEqual([ticket.ticketId]);
    expect(await linkedIds(otherClient, 'shipment', s.shipmentId)).toEqual([]);
  });

  it('a freight shipment is a ticket\'s document: by id or ship number, both sides, scoped', async () => {
    const f = await freight(cust);
    const byNumber = await open(client, { kind: 'freight-shipment', number: f.shipNumber }, 'Pallet damaged');
    expect(byNumber.statusCode, byNumber.body).toBe(200);
    expect(byNumber.json().data.link).toEqual({ kind: 'freight-shipment', id: f.shipmentId, number: f.shipNumber });
    const byId = await open(staff, { kind: 'freight-shipment', id: f.shipmentId }, 'Book the liftgate');
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json().data).toMatchObject({ customerId: cust, warehouseId: wh });
    expect(await linkedIds(client, 'freight-shipment', f.shipmentId)).toEqual([byId.json().data.ticketId, byNumber.json().data.ticketId]);
    expect(await linkedIds(otherClient, 'freight-shipment', f.shipmentId)).toEqual([]);
    // A parcel shipment with the same id is another document: its tickets are not these.
    expect(await linkedIds(staff, 'shipment', f.shipmentId)).not.toContain(byId.json().data.ticketId);
    const detail = await client.get(`${H}/GetTicket?ticketId=${byNumber.json().data.ticketId}`);
    expect(detail.json().link).toEqual({ kind: 'freight-shipment', id: f.shipmentId, number: f.shipNumber });
    const list = await client.post(`${H}/GetTickets`, { searchQuery: 'Pallet damaged', pageSize: 10 });
    expect(list.json().items.map((x: { link: unknown }) => x.link)).toEqual([{ kind: 'freight-shipment', id: f.shipmentId, number: f.shipNumber }]);
  });

  it('a client cannot link another customer\'s parcel or freight shipment, by id or number; nothing is written', async () => {
    const theirs = await shippedLastWeek(other);
    const theirFreight = await freight(other);
    const before = await tickets();
    for (const link of [
      { kind: 'shipment', id: theirs.shipmentId }, { kind: 'shipment', number: theirs.shipmentNumber },
      { kind: 'freight-shipment', id: theirFreight.shipmentId }, { kind: 'freight-shipment', number: theirFreight.shipNumber },
    ]) {
      const res = await open(client, link);
      expect(res.statusCode, `${JSON.stringify(link)}: ${res.body}`).toBe(403);
    }
    // Staff who see both clients cannot file one client's shipment under the other.
    const mixed = await staff.post(`${H}/CreateTicket`, { title: 'Mixed', customerId: cust, link: { kind: 'freight-shipment', id: theirFreight.shipmentId } });
    expect(mixed.statusCode).toBe(422);
    expect(JSON.stringify(mixed.json())).toContain('link.id');
    const missing = await open(client, { kind: 'freight-shipment', number: 'FRT-999999' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toContain('Freight shipment FRT-999999');
    const badKind = await open(client, { kind: 'parcel', id: theirs.shipmentId });
    expect(badKind.statusCode).toBe(400);
    expect(JSON.stringify(badKind.json())).toContain('link.kind');
    expect(await tickets()).toBe(before);
  });
});
