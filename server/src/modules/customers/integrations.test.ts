import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARRIER_DELETED } from '@bolx/contracts';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeWarehouse, type TestApp } from '../../../test/helpers.js';
import { SecretBox } from '../../platform/crypto.js';
import { INTEGRATION_SECRETS_LABEL } from './integrations.service.js';
import { count, signedIn } from './customers.fixtures.js';

let t: TestApp;
let admin: ReturnType<typeof as>;
let wh: number;
let acme: number;
let globex: number;
/** Integration type id by name, per kind. */
const carrier: Record<string, number> = {};
const channel: Record<string, number> = {};
beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  acme = await makeCustomer(t.database, [wh], 'Acme');
  globex = await makeCustomer(t.database, [wh], 'Globex');
  for (const i of (await admin.get(`${B}/GetAllCustomerCarrier?customerId=${acme}`)).json().integrations) carrier[i.integrationName] = i.integrationId;
  for (const i of (await admin.get(`${B}/GetAllCustomerChannel?customerId=${acme}`)).json().integrations) channel[i.integrationName] = i.integrationId;
});
afterAll(async () => { await t?.close(); });

const B = '/Warehouse/Customer';
const UPS_SECRET = 'ups-client-secret-9f8e7d6c1234';
type Prop = { uniqueid: number; propertyKey: string; isSecret: boolean; isRequired: boolean };
type Value = { propertyId: number; propertyKey: string; value: string; isSecret: boolean };

async function propertyIds(path: string, typeId: number): Promise<Record<string, number>> {
  const props: Prop[] = (await admin.get(`${B}/${path}?integrationId=${typeId}`)).json();
  return Object.fromEntries(props.map((p) => [p.propertyKey, p.uniqueid]));
}
async function upsBody(customerId: number, secret = UPS_SECRET) {
  const p = await propertyIds('GetCarrierIntegrationProperties', carrier.UPS);
  return {
    customerId, integrationId: carrier.UPS, accountName: 'Acme UPS',
    properties: [{ propertyId: p.accountNumber, value: 'A1B2C3' }, { propertyId: p.clientId, value: 'client-abc' }, { propertyId: p.clientSecret, value: secret }],
  };
}
const valueOf = (props: Value[], key: string) => props.find((p) => p.propertyKey === key)?.value;
const box = () => new SecretBox(t.config.tokenSecret, INTEGRATION_SECRETS_LABEL);
async function storedValues(integrationId: number) {
  return t.database.db.selectFrom('customer_integration_value as v').innerJoin('integration_property as p', 'p.id', 'v.property_id')
    .select(['v.value', 'p.key', 'v.property_id']).where('v.customer_integration_id', '=', integrationId).execute();
}

describe('carrier catalogue', () => {
  it('lists the seeded carriers and their properties, secret ones marked', async () => {
    expect(Object.keys(carrier)).toEqual(['UPS', 'FedEx', 'USPS', 'DHL Express']);
    const props: Prop[] = (await admin.get(`${B}/GetCarrierIntegrationProperties?integrationId=${carrier.FedEx}`)).json();
    expect(props.map((p) => [p.propertyKey, p.isSecret])).toEqual([['accountNumber', false], ['meterNumber', false], ['apiKey', true], ['apiSecret', true]]);
  });

  it('answers 404 for an unknown integration or a sales channel’s id, 400 for a bad id', async () => {
    expect((await admin.get(`${B}/GetCarrierIntegrationProperties?integrationId=999999`)).statusCode).toBe(404);
    expect((await admin.get(`${B}/GetCarrierIntegrationProperties?integrationId=${channel.Shopify}`)).statusCode).toBe(404);
    expect((await admin.get(`${B}/GetCarrierIntegrationProperties?integrationId=x`)).statusCode).toBe(400);
    // and the same for the sales channels' properties, a carrier's id being no channel
    expect((await admin.get(`${B}/GetChannelProperties?integrationId=999999`)).statusCode).toBe(404);
    expect((await admin.get(`${B}/GetChannelProperties?integrationId=${carrier.UPS}`)).statusCode).toBe(404);
    expect((await admin.get(`${B}/GetChannelProperties?integrationId=x`)).statusCode).toBe(400);
  });
});

describe('carrier accounts', () => {
  let upsId: number;

  it('creates with secrets encrypted at rest and masked in every answer', async () => {
    const res = await admin.post(`${B}/CreateIntegrationCarrier`, await upsBody(acme));
    expect(res.statusCode).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('Carrier added successfully');
    upsId = data.uniqueid;
    expect(data).toMatchObject({ customerId: acme, integrationId: carrier.UPS, integrationName: 'UPS', accountName: 'Acme UPS', isActive: true });
    expect(valueOf(data.properties, 'clientSecret')).toBe('••••1234');
    expect(valueOf(data.properties, 'accountNumber')).toBe('A1B2C3');
    expect(res.body).not.toContain(UPS_SECRET);

    const stored = await storedValues(upsId);
    const sealed = stored.find((s) => s.key === 'clientSecret')!;
    expect(sealed.value).not.toContain(UPS_SECRET);
    expect(sealed.value.startsWith('v1.')).toBe(true);
    expect(box().open(sealed.value, `customer_integration:${upsId}:${sealed.property_id}`)).toBe(UPS_SECRET);
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'customer_carrier').where('entity_id', '=', String(upsId)).execute();
    expect(audit.map((a) => a.action)).toEqual(['create']);
    expect(JSON.stringify(audit)).not.toContain(UPS_SECRET);

    for (const url of [`${B}/GetAllCustomerCarrier?customerId=${acme}`, `${B}/GetCustomerCarrierDetails?integrationId=${carrier.UPS}&customerId=${acme}`]) {
      const read = await admin.get(url);
      expect(read.statusCode).toBe(200);
      expect(read.body).not.toContain(UPS_SECRET);
      expect(read.body).toContain('••••1234');
    }
  });

  it('refuses missing required values, unknown properties and a second account for the same carrier; nothing written', async () => {
    const before = [await count(t, 'customer_integration'), await count(t, 'audit_log')];
    const body = await upsBody(globex);
    const missing = await admin.post(`${B}/CreateIntegrationCarrier`, { ...body, properties: body.properties.slice(0, 2) });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual({ 'properties.clientSecret': 'Please enter Client Secret!' });
    expect((await admin.post(`${B}/CreateIntegrationCarrier`, { ...body, accountName: '' })).json().details).toMatchObject({ accountName: 'Please enter name!' });
    const fedexProp = (await propertyIds('GetCarrierIntegrationProperties', carrier.FedEx)).apiKey;
    expect((await admin.post(`${B}/CreateIntegrationCarrier`, { ...body, properties: [...body.properties, { propertyId: fedexProp, value: 'x' }] })).statusCode).toBe(400);
    expect((await admin.post(`${B}/CreateIntegrationCarrier`, { ...body, integrationId: channel.Shopify })).statusCode).toBe(404);
    expect((await admin.post(`${B}/CreateIntegrationCarrier`, { ...body, customerId: 999999 })).statusCode).toBe(404);
    expect([await count(t, 'customer_integration'), await count(t, 'audit_log')]).toEqual(before);
    expect((await admin.post(`${B}/CreateIntegrationCarrier`, await upsBody(acme))).statusCode).toBe(409);
  });

  it('an update sending the masked secret back keeps the stored secret; a new value replaces it', async () => {
    const details = (await admin.get(`${B}/GetCustomerCarrierDetails?integrationId=${carrier.UPS}&customerId=${acme}`)).json();
    const echoed = details.properties.map((p: Value) => ({ propertyId: p.propertyId, value: p.propertyKey === 'accountNumber' ? 'NEW-ACCT' : p.value }));
    const res = await admin.put(`${B}/UpdateIntegrationCarrier?CarrierCustomerId=${upsId}`, { accountName: 'Acme UPS (main)', isActive: true, properties: echoed });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Carrier updated successfully');
    expect(valueOf(res.json().data.properties, 'accountNumber')).toBe('NEW-ACCT');
    const secretRow = async () => (await storedValues(upsId)).find((s) => s.key === 'clientSecret')!;
    let row = await secretRow();
    expect(box().open(row.value, `customer_integration:${upsId}:${row.property_id}`)).toBe(UPS_SECRET);

    const rotated = 'rotated-secret-value-5678';
    const again = await admin.put(`${B}/UpdateIntegrationCarrier?CarrierCustomerId=${upsId}`, {
      accountName: 'Acme UPS (main)', properties: [{ propertyId: row.property_id, value: rotated }],
    });
    expect(valueOf(again.json().data.properties, 'clientSecret')).toBe('••••5678');
    expect(valueOf(again.json().data.properties, 'accountNumber')).toBe('NEW-ACCT');
    row = await secretRow();
    expect(row.value).not.toContain(rotated);
    expect(box().open(row.value, `customer_integration:${upsId}:${row.property_id}`)).toBe(rotated);

    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'customer_carrier').where('action', '=', 'update').execute();
    expect(audit).toHaveLength(2);
    expect(JSON.stringify(audit)).not.toMatch(/rotated-secret|ups-client-secret/);
  });

  it('refuses a mask that is not the stored secret’s, and clearing a required value', async () => {
    const p = await propertyIds('GetCarrierIntegrationProperties', carrier.UPS);
    const wrongMask = await admin.put(`${B}/UpdateIntegrationCarrier?CarrierCustomerId=${upsId}`, { accountName: 'x', properties: [{ propertyId: p.clientSecret, value: '••••0000' }] });
    expect(wrongMask.statusCode).toBe(400);
    const cleared = await admin.put(`${B}/UpdateIntegrationCarrier?CarrierCustomerId=${upsId}`, { accountName: 'x', properties: [{ propertyId: p.accountNumber, value: ' ' }] });
    expect(cleared.json().details).toEqual({ 'properties.accountNumber': 'Please enter Account Number!' });
    expect((await admin.put(`${B}/UpdateIntegrationCarrier?CarrierCustomerId=999999`, { accountName: 'x', properties: [] })).statusCode).toBe(404);
  });

  it('a sealed value copied into another account’s row does not open there (shown as a bare mask)', async () => {
    const other = (await admin.post(`${B}/CreateIntegrationCarrier`, await upsBody(globex, 'globex-secret-abcdefgh'))).json().data.uniqueid;
    const acmeRow = (await storedValues(upsId)).find((s) => s.key === 'clientSecret')!;
    await t.database.db.updateTable('customer_integration_value').set({ value: acmeRow.value })
      .where('customer_integration_id', '=', other).where('property_id', '=', acmeRow.property_id).execute();
    const read = (await admin.get(`${B}/GetCustomerCarrierDetails?integrationId=${carrier.UPS}&customerId=${globex}`)).json();
    expect(valueOf(read.properties, 'clientSecret')).toBe('••••');
  });

  it('refuses another customer’s carrier (403 outside scope, 404 under the wrong customer) and Clients', async () => {
    const a = await signedIn(t, { role: 'Administrator', warehouseIds: [wh], customerIds: [globex] });
    expect((await a.get(`${B}/GetAllCustomerCarrier?customerId=${acme}`)).statusCode).toBe(403);
    expect((await a.get(`${B}/GetCustomerCarrierDetails?integrationId=${carrier.UPS}&customerId=${acme}`)).statusCode).toBe(403);
    expect((await a.put(`${B}/UpdateIntegrationCarrier?CarrierCustomerId=${upsId}`, { accountName: 'hijack', properties: [] })).statusCode).toBe(403);
    expect((await a.delete(`${B}/DeleteCarrier?customerId=${acme}&id=${upsId}`)).statusCode).toBe(403);
    expect((await a.delete(`${B}/DeleteCarrier?customerId=${globex}&id=${upsId}`)).statusCode).toBe(404);
    expect((await a.post(`${B}/CreateIntegrationCarrier`, await upsBody(acme))).statusCode).toBe(403);
    const client = await signedIn(t, { role: 'Client', customerId: acme, permission: 'read' });
    expect((await client.get(`${B}/GetAllCustomerCarrier?customerId=${acme}`)).statusCode).toBe(403);
    const staff = await signedIn(t, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [acme], permission: 'read' });
    expect((await staff.get(`${B}/GetAllCustomerCarrier?customerId=${acme}`)).statusCode).toBe(200);
    expect((await staff.delete(`${B}/DeleteCarrier?customerId=${acme}&id=${upsId}`)).statusCode).toBe(403);
  });

  it('GetCustomerCarrierDetails answers 404 for a carrier the customer has no account with', async () => {
    expect((await admin.get(`${B}/GetCustomerCarrierDetails?integrationId=${carrier.USPS}&customerId=${acme}`)).statusCode).toBe(404);
  });

  it('deletes: answers ‘Carrier deleted successfully’, audits, and then 404', async () => {
    const res = await admin.delete(`${B}/DeleteCarrier?customerId=${acme}&id=${upsId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: CARRIER_DELETED });
    expect(await storedValues(upsId)).toEqual([]);
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'customer_carrier').where('action', '=', 'delete').execute();
    expect(audit.map((a) => a.entity_id)).toEqual([String(upsId)]);
    expect((await admin.delete(`${B}/DeleteCarrier?customerId=${acme}&id=${upsId}`)).statusCode).toBe(404);
    expect((await admin.get(`${B}/GetAllCustomerCarrier?customerId=${acme}`)).json().items).toEqual([]);
  });
});

describe('sales channels', () => {
  const TOKEN = 'shpat_0123456789abcdefWXYZ';
  let shopifyId: number;

  it('lists the seeded channels, creates one with its token sealed and masked', async () => {
    expect(Object.keys(channel)).toEqual(['Shopify', 'Amazon', 'WooCommerce', 'eBay']);
    const p = await propertyIds('GetChannelProperties', channel.Shopify);
    const res = await admin.post(`${B}/CreateIntegrationSalesChannel`, {
      customerId: acme, integrationId: channel.Shopify, accountName: 'Acme store',
      properties: [{ propertyId: p.storeUrl, value: 'acme.myshopify.com' }, { propertyId: p.apiKey, value: 'key-1' }, { propertyId: p.accessToken, value: TOKEN }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Sales channel added successfully');
    shopifyId = res.json().data.uniqueid;
    expect(valueOf(res.json().data.properties, 'accessToken')).toBe('••••WXYZ');
    const stored = await storedValues(shopifyId);
    expect(stored.find((s) => s.key === 'accessToken')!.value).not.toContain(TOKEN);
    const list = (await admin.get(`${B}/GetAllCustomerChannel?customerId=${acme}`)).json();
    expect(list.items.map((i: { uniqueid: number }) => i.uniqueid)).toEqual([shopifyId]);
    expect(JSON.stringify(list)).not.toContain(TOKEN);
    expect((await admin.post(`${B}/CreateIntegrationSalesChannel`, { customerId: acme, integrationId: carrier.UPS, accountName: 'x', properties: [] })).statusCode).toBe(404);
  });

  it('updates keeping the masked token, answers details, refuses other customers', async () => {
    const details = (await admin.get(`${B}/GetAllCustomerChannelDetails?integrationId=${channel.Shopify}&customerId=${acme}`)).json();
    const res = await admin.put(`${B}/UpdateCustomerSalesChannel?CustomerChannelId=${shopifyId}`, {
      accountName: 'Acme web store', isActive: false, properties: details.properties.map((p: Value) => ({ propertyId: p.propertyId, value: p.value })),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ accountName: 'Acme web store', isActive: false });
    const row = (await storedValues(shopifyId)).find((s) => s.key === 'accessToken')!;
    expect(box().open(row.value, `customer_integration:${shopifyId}:${row.property_id}`)).toBe(TOKEN);
    const a = await signedIn(t, { role: 'Administrator', warehouseIds: [wh], customerIds: [globex] });
    expect((await a.put(`${B}/UpdateCustomerSalesChannel?CustomerChannelId=${shopifyId}`, { accountName: 'x', properties: [] })).statusCode).toBe(403);
    expect((await a.get(`${B}/GetAllCustomerChannelDetails?integrationId=${channel.Shopify}&customerId=${acme}`)).statusCode).toBe(403);
    expect((await admin.get(`${B}/GetAllCustomerChannelDetails?integrationId=${channel.Shopify}&customerId=${globex}`)).statusCode).toBe(404);
    expect((await admin.put(`${B}/UpdateCustomerSalesChannel?CustomerChannelId=999999`, { accountName: 'x', properties: [] })).statusCode).toBe(404);
  });

  it('a carrier path does not reach a sales channel', async () => {
    expect((await admin.put(`${B}/UpdateIntegrationCarrier?CarrierCustomerId=${shopifyId}`, { accountName: 'x', properties: [] })).statusCode).toBe(404);
    expect((await admin.delete(`${B}/DeleteCarrier?customerId=${acme}&id=${shopifyId}`)).statusCode).toBe(404);
  });

  it('deletes only with the matching customer and channel', async () => {
    expect((await admin.delete(`${B}/DeleteCustomersaleschannel?customerId=${acme}&integrationId=${channel.Amazon}&uniqueid=${shopifyId}`)).statusCode).toBe(404);
    expect((await admin.delete(`${B}/DeleteCustomersaleschannel?customerId=${globex}&integrationId=${channel.Shopify}&uniqueid=${shopifyId}`)).statusCode).toBe(404);
    const res = await admin.delete(`${B}/DeleteCustomersaleschannel?customerId=${acme}&integrationId=${channel.Shopify}&uniqueid=${shopifyId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Sales channel deleted successfully' });
    expect((await admin.get(`${B}/GetAllCustomerChannel?customerId=${acme}`)).json().items).toEqual([]);
  });
});

describe('SecretBox', () => {
  it('binds a sealed value to its key label and associated data', () => {
    const secret = new Uint8Array(32).fill(7);
    const a = new SecretBox(secret, 'label-a');
    const sealed = a.seal('top secret', 'row:1');
    expect(a.open(sealed, 'row:1')).toBe('top secret');
    expect(a.seal('top secret', 'row:1')).not.toBe(sealed);
    expect(() => a.open(sealed, 'row:2')).toThrow();
    expect(() => new SecretBox(secret, 'label-b').open(sealed, 'row:1')).toThrow();
    // Flip one ciphertext bit (editing the base64 text can leave the decoded bytes unchanged).
    const [version, payload] = sealed.split('.');
    const raw = Buffer.from(payload!, 'base64url');
    raw[raw.length - 1]! ^= 1;
    const tampered = `${version}.${raw.toString('base64url')}`;
    expect(() => a.open(tampered, 'row:1')).toThrow();
  });
});
