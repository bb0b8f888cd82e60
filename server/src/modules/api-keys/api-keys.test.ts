import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER, API_KEY_PATTERN } from '@bolx/contracts';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeUser, makeWarehouse, type TestApp } from '../../../test/helpers.js';
import { sha256 } from '../../platform/secrets.js';
import type { RoutePolicy } from '../../plugins/access.js';
import { API_KEY_RULES } from './api-keys.service.js';

const B = '/Warehouse/Customer';
/** A route open to keys that changes something, as the orders module's will: it counts its runs. */
const ECHO = '/Test/ApiKeyEcho';
let runs = 0;

let t: TestApp;
let admin: ReturnType<typeof as>;
let clientAdmin: ReturnType<typeof as>;
let clientUser: ReturnType<typeof as>;
let w1: number;
let w2: number;
let acme: number;
let globex: number;
let address = 0;
/** Each call from its own address unless told, so the wrong-key throttle of one test never touches another. */
const nextAddress = () => `10.0.${Math.floor(++address / 250)}.${address % 250}`;

function withKey(key: string, remoteAddress = nextAddress()) {
  const call = (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, payload: payload as object, remoteAddress, headers: { [API_KEY_HEADER]: key, ...headers } });
  return { get: (url: string) => call('GET', url), post: (url: string, payload: unknown, headers?: Record<string, string>) => call('POST', url, payload, headers) };
}

async function createKey(customerId: number, name = 'Shop integration', by = admin) {
  const res = await by.post(`${B}/CreateApiKey`, { customerId, name });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { apiKeyId: number; apiKey: string; prefix: string; name: string };
}
const keyRow = (id: number) => t.database.db.selectFrom('customer_api_key').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  t = await buildTestApp({
    beforeReady: (app) => {
      const policy: RoutePolicy = { access: 'authenticated', roles: ['Client'], module: { key: 'OrderDashboard', permission: 'write' }, scope: 'tenant', apiKey: true };
      app.post(ECHO, { config: { policy } }, async () => ({ run: ++runs }));
    },
  });
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  w1 = await makeWarehouse(t.database);
  w2 = await makeWarehouse(t.database);
  acme = await makeCustomer(t.database, [w1], 'Acme');
  globex = await makeCustomer(t.database, [w2], 'Globex');
  const ca = await makeUser(t.database, { role: 'Client', customerId: acme, modules: { Customer: 'write' } });
  const cu = await makeUser(t.database, { role: 'Client', customerId: acme, modules: { Customer: 'read' } });
  clientAdmin = as(t.app, await login(t.app, ca.username, ca.password));
  clientUser = as(t.app, await login(t.app, cu.username, cu.password));
});
afterAll(async () => { await t?.close(); });

describe('managing keys', () => {
  it('CreateApiKey answers the whole key once and stores only the SHA-256 of its secret', async () => {
    const key = await createKey(acme);
    const parts = API_KEY_PATTERN.exec(key.apiKey)!;
    expect(parts).not.toBeNull();
    expect(key.prefix).toBe(`bolx_${parts[1]}_…`);
    const row = await keyRow(key.apiKeyId);
    expect(row.key_prefix).toBe(parts[1]);
    expect(row.key_hash).toBe(sha256(parts[2]));
    expect(JSON.stringify(row)).not.toContain(parts[2]);
    const audits = await t.database.db.selectFrom('audit_log').select(['action', 'after_json', 'customer_id'])
      .where('entity', '=', 'customer_api_key').where('entity_id', '=', String(key.apiKeyId)).execute();
    expect(audits).toMatchObject([{ action: 'create', customer_id: acme }]);
    expect(JSON.stringify(audits)).not.toContain(parts[2]);
  });

  it('GetApiKeys lists name, prefix, created, last use and revocation, never the secret or its hash', async () => {
    const key = await createKey(acme, 'Listed');
    const res = await admin.get(`${B}/GetApiKeys?customerId=${acme}`);
    expect(res.statusCode).toBe(200);
    const listed = res.json().find((k: { apiKeyId: number }) => k.apiKeyId === key.apiKeyId);
    expect(listed).toMatchObject({ name: 'Listed', prefix: key.prefix, customerId: acme, createdBy: ADMIN.username, lastUsedAt: null, revokedAt: null });
    expect(Object.keys(listed)).not.toContain('apiKey');
    const row = await keyRow(key.apiKeyId);
    expect(res.body).not.toContain(row.key_hash);
    expect(res.body).not.toContain(API_KEY_PATTERN.exec(key.apiKey)![2]);
  });

  it('refuses a nameless key naming the field, and writes nothing', async () => {
    const before = await t.database.db.selectFrom('customer_api_key').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const res = await admin.post(`${B}/CreateApiKey`, { customerId: acme, name: '   ' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('name');
    expect((await admin.post(`${B}/CreateApiKey`, { customerId: 999999, name: 'x' })).statusCode).toBe(404);
    const after = await t.database.db.selectFrom('customer_api_key').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('a Client account manages its own customer’s keys only; a plain client user may list but not create or revoke', async () => {
    const own = await createKey(acme, 'Client made', clientAdmin);
    expect((await keyRow(own.apiKeyId)).customer_id).toBe(acme);
    const theirs = await createKey(globex, 'Globex key');
    expect((await clientAdmin.post(`${B}/CreateApiKey`, { customerId: globex, name: 'Sneaky' })).statusCode).toBe(403);
    expect((await clientAdmin.get(`${B}/GetApiKeys?customerId=${globex}`)).statusCode).toBe(403);
    expect((await clientAdmin.post(`${B}/RevokeApiKey`, { customerId: globex, apiKeyId: theirs.apiKeyId })).statusCode).toBe(403);
    // Another customer's key under its own customer's id is simply not there.
    expect((await clientAdmin.post(`${B}/RevokeApiKey`, { customerId: acme, apiKeyId: theirs.apiKeyId })).statusCode).toBe(404);
    expect((await keyRow(theirs.apiKeyId)).revoked_at).toBeNull();

    expect((await clientUser.get(`${B}/GetApiKeys?customerId=${acme}`)).statusCode).toBe(200);
    expect((await clientUser.post(`${B}/CreateApiKey`, { customerId: acme, name: 'Nope' })).statusCode).toBe(403);
    expect((await clientUser.post(`${B}/RevokeApiKey`, { customerId: acme, apiKeyId: own.apiKeyId })).statusCode).toBe(403);
  });
});

describe('a request signed with X-Api-Key', () => {
  it('acts as its customer alone: who-am-I answers its customer and the warehouses serving it', async () => {
    const key = await createKey(acme);
    const res = await withKey(key.apiKey).get(`${B}/ApiKeyWhoAmI`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      customerId: acme, customerName: 'Acme', warehouseIds: [w1], apiKeyId: key.apiKeyId, prefix: key.prefix,
      modules: [{ key: 'OrderDashboard', permission: 'write' }, { key: 'RMA', permission: 'write' }],
    });
  });

  it('is refused another customer’s data and every route not open to keys', async () => {
    const key = withKey((await createKey(acme)).apiKey);
    expect((await key.get(`${B}/ApiKeyWhoAmI?customerId=${globex}`)).statusCode).toBe(403);
    expect((await key.get(`${B}/ApiKeyWhoAmI?warehouseId=${w2}`)).statusCode).toBe(403);
    expect((await key.get(`${B}/ApiKeyWhoAmI?customerId=${acme}&warehouseId=${w1}`)).statusCode).toBe(200);
    const notForKeys = await key.get(`${B}/GetApiKeys?customerId=${acme}`);
    expect(notForKeys.statusCode).toBe(403);
    expect(notForKeys.json().message).toBe('This route is not open to API keys');
    expect((await key.get(`${B}/GetCustomerInfoById?customerid=${acme}`)).statusCode).toBe(403);
    expect((await key.get('/Common/Auth/GetProfile')).statusCode).toBeGreaterThanOrEqual(403);
    expect((await key.post(`${B}/CreateApiKey`, { customerId: acme, name: 'self-made' })).statusCode).toBe(403);
  });

  it('sets last_used_at, at most once a minute', async () => {
    const key = await createKey(acme);
    expect((await keyRow(key.apiKeyId)).last_used_at).toBeNull();
    await withKey(key.apiKey).get(`${B}/ApiKeyWhoAmI`);
    const first = (await keyRow(key.apiKeyId)).last_used_at;
    expect(first).not.toBeNull();
    await withKey(key.apiKey).get(`${B}/ApiKeyWhoAmI`);
    expect((await keyRow(key.apiKeyId)).last_used_at).toBe(first);
    // A use more than a minute after the last one is written.
    const earlier = new Date(Date.now() - API_KEY_RULES.touchEveryMs - 5000).toISOString();
    await t.database.db.updateTable('customer_api_key').set({ last_used_at: earlier }).where('id', '=', key.apiKeyId).execute();
    await withKey(key.apiKey).get(`${B}/ApiKeyWhoAmI`);
    expect(Date.parse((await keyRow(key.apiKeyId)).last_used_at!)).toBeGreaterThan(Date.parse(earlier) + API_KEY_RULES.touchEveryMs);
    const listed = (await admin.get(`${B}/GetApiKeys?customerId=${acme}`)).json().find((k: { apiKeyId: number }) => k.apiKeyId === key.apiKeyId);
    expect(listed.lastUsedAt).not.toBeNull();
  });

  it('answers 401 with a clear message for a revoked, unknown or malformed key', async () => {
    const key = await createKey(acme);
    expect((await withKey(key.apiKey).get(`${B}/ApiKeyWhoAmI`)).statusCode).toBe(200);
    const revoked = await admin.post(`${B}/RevokeApiKey`, { customerId: acme, apiKeyId: key.apiKeyId });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data).toMatchObject({ apiKeyId: key.apiKeyId, revokedBy: ADMIN.username });
    expect((await admin.post(`${B}/RevokeApiKey`, { customerId: acme, apiKeyId: key.apiKeyId })).statusCode).toBe(409);
    const afterRevoke = await withKey(key.apiKey).get(`${B}/ApiKeyWhoAmI`);
    expect(afterRevoke.statusCode).toBe(401);
    expect(afterRevoke.json().message).toBe('This API key has been revoked');

    const wrongSecret = key.apiKey.slice(0, -4) + (key.apiKey.endsWith('0000') ? '1111' : '0000');
    for (const bad of [wrongSecret, 'bolx_00000000_' + '0'.repeat(64), 'not-a-key']) {
      const res = await withKey(bad).get(`${B}/ApiKeyWhoAmI`);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Invalid API key');
    }
    const audits = await t.database.db.selectFrom('audit_log').select('action').where('entity', '=', 'customer_api_key').where('entity_id', '=', String(key.apiKeyId)).execute();
    expect(audits.map((a) => a.action)).toEqual(['create', 'revoke']);
  });

  it('stops when its customer is made inactive, and gives way to a bearer token sent with it', async () => {
    const other = await makeCustomer(t.database, [w1], 'Initech');
    const key = await createKey(other);
    const bearer = (await login(t.app, ADMIN.username, ADMIN.password)).accesstoken;
    const both = await t.app.inject({ method: 'GET', url: `${B}/ApiKeyWhoAmI`, headers: { [API_KEY_HEADER]: key.apiKey, authorization: `Bearer ${bearer}` } });
    expect(both.statusCode).toBe(200);
    expect(both.json()).toMatchObject({ customerId: null, apiKeyId: null });
    await t.database.db.updateTable('customer').set({ is_active: 0 }).where('id', '=', other).execute();
    const res = await withKey(key.apiKey).get(`${B}/ApiKeyWhoAmI`);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('This API key’s client is inactive');
  });

  it('blocks an address guessing keys, as sign-ins are (429 with Retry-After, even for a right key then)', async () => {
    const good = await createKey(acme);
    const from = '10.99.0.1';
    for (let i = 0; i < API_KEY_RULES.failuresPerAddress; i++) {
      expect((await withKey(`bolx_${String(i).padStart(8, '0')}_${'a'.repeat(64)}`, from).get(`${B}/ApiKeyWhoAmI`)).statusCode).toBe(401);
    }
    const blocked = await withKey(good.apiKey, from).get(`${B}/ApiKeyWhoAmI`);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await withKey(good.apiKey, '10.99.0.2').get(`${B}/ApiKeyWhoAmI`)).statusCode).toBe(200);
  });

  it('keeps Idempotency-Key per key: a replay answers the first run, another key with the same Idempotency-Key runs anew', async () => {
    const a = withKey((await createKey(acme, 'A')).apiKey);
    const b = withKey((await createKey(acme, 'B')).apiKey);
    const first = await a.post(ECHO, {}, { 'idempotency-key': 'order-000001' });
    expect(first.statusCode, first.body).toBe(200);
    const replay = await a.post(ECHO, {}, { 'idempotency-key': 'order-000001' });
    expect(replay.headers['idempotent-replay']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    const other = await b.post(ECHO, {}, { 'idempotency-key': 'order-000001' });
    expect(other.headers['idempotent-replay']).toBeUndefined();
    // A replay answers the stored answer; its handler may have run again inside a transaction that was rolled back
    // (the key is written last, with the answer), so only "ran anew" is asserted here, not by how many.
    expect(other.json().run).toBeGreaterThan(first.json().run);
    // Stored under the key, not under the user who created it.
    const owners = await t.database.db.selectFrom('idempotency_key').select('user_id').where('key', '=', 'order-000001').execute();
    expect(owners.map((o) => o.user_id).every((id) => id < 0)).toBe(true);
    expect(owners).toHaveLength(2);
  });
});

describe('the API reference', () => {
  it('documents the X-Api-Key security scheme with an example, and the who-am-I route under it', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const scheme = doc.components.securitySchemes.apiKey;
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: API_KEY_HEADER });
    expect(scheme.description).toMatch(/X-Api-Key: bolx_[0-9a-f]{8}_[0-9a-f]{64}/);
    expect(doc.paths[`${B}/ApiKeyWhoAmI`].get.security).toContainEqual({ apiKey: [] });
    expect(doc.paths[`${B}/CreateApiKey`].post).toBeDefined();
    expect(JSON.stringify(doc.paths[`${B}/GetApiKeys`])).not.toMatch(/hash/i);
  });
});
