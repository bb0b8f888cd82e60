import { HttpTransportType, HubConnectionBuilder, HubConnectionState, LogLevel, type HubConnection } from '@microsoft/signalr';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HubEventName } from '@bolx/contracts';
import { buildApp } from '../src/app.js';
import type { DomainEvent } from '../src/platform/events.js';
import { DEFAULT_HUB_TIMING } from '../src/platform/hub/hub.js';
import { RecordReader, checkHandshake, ProtocolError, MAX_RECORD_CHARS } from '../src/platform/hub/protocol.js';
import { candidateGroups, changesScope, groupsOf, mayReceive, type Audience } from '../src/platform/hub/routing.js';
import { resolveAudiences } from '../src/platform/hub/event-audiences.js';
import type { Principal } from '../src/platform/principal.js';
import { Scope } from '../src/platform/scope.js';
import { inTransaction } from '../src/platform/unit-of-work.js';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeUser, makeWarehouse, type TestApp } from './helpers.js';

// ---------------------------------------------------------------------------------------------------------------
// Pure parts: framing and routing
// ---------------------------------------------------------------------------------------------------------------

describe('SignalR JSON framing', () => {
  it('splits records, several per frame, and keeps a partial record for the next frame', () => {
    const reader = new RecordReader();
    expect(reader.push('{"protocol":"json","version":1}\x1e{"type":6}\x1e{"type":1,"tar')).toEqual(['{"protocol":"json","version":1}', '{"type":6}']);
    expect(reader.push('get":"Ping","arguments":[]}')).toEqual([]);
    expect(reader.push('\x1e')).toEqual(['{"type":1,"target":"Ping","arguments":[]}']);
  });

  it('refuses a record that grows without end', () => {
    const reader = new RecordReader();
    expect(() => reader.push('x'.repeat(MAX_RECORD_CHARS + 1))).toThrow(ProtocolError);
  });

  it('accepts only the json protocol, version 1', () => {
    expect(checkHandshake('{"protocol":"json","version":1}')).toBeNull();
    expect(checkHandshake('{"protocol":"messagepack","version":1}')).toMatch(/not supported/);
    expect(checkHandshake('{"protocol":"json","version":2}')).toMatch(/version 2/);
    expect(checkHandshake('nonsense')).toMatch(/not valid JSON/);
  });
});

function principal(over: Partial<Principal> & { warehouses?: 'all' | number[]; customers?: 'all' | number[] }): Audience {
  const { warehouses = [], customers = [], ...rest } = over;
  return {
    userId: 1, username: 'u', role: 'WarehouseStaff', sessionId: 's', customerId: null, modules: new Map(),
    scope: new Scope(warehouses, customers), ...rest,
  };
}
const ev = (target: HubEventName, warehouseId: number | null, customerId: number | null, subEvent = 'X') =>
  ({ target, payload: { subEvent, payload: {} }, warehouseId, customerId }) as DomainEvent;

describe('hub routing (mayReceive)', () => {
  const staff = principal({ warehouses: [1], customers: [10, 11] });
  const client = principal({ role: 'Client', customerId: 10, warehouses: [1], customers: [10] });
  const superAdmin = principal({ role: 'SuperAdministrator', warehouses: 'all', customers: 'all', modules: 'all' });
  // Tenancy alone: every list policy lets everyone in here (the policies are walked in hub-audiences.test.ts).
  const audiences = resolveAudiences(() => () => true);
  const may = (a: Audience, e: DomainEvent) => mayReceive(a, e, audiences);

  it('holds staff to their warehouses and customers, by the columns the event’s list holds rows to', () => {
    expect(may(staff, ev('ReceiveInventoryData', 1, 10))).toBe(true);
    expect(may(staff, ev('ReceiveInventoryData', 2, 10))).toBe(false);
    expect(may(staff, ev('ReceiveInventoryData', 1, 12))).toBe(false);
    expect(may(staff, ev('ReceiveSkuData', null, 11))).toBe(true); // the SKU list is held by customer only
    expect(may(staff, ev('ReceiveSkuData', null, 12))).toBe(false);
    expect(may(staff, ev('ReceiveLocationData', 1, null))).toBe(true); // the location list by warehouse only
    // A row without a customer passes a customer condition only when the caller sees every customer, as in SQL.
    expect(may(staff, ev('ReceiveInventoryData', 1, null))).toBe(false);
    expect(may(superAdmin, ev('ReceiveInventoryData', 99, 99))).toBe(true);
  });

  it('gives a client account its own customer only, and never a staff-only view', () => {
    expect(may(client, ev('ReceiveSkuData', null, 10))).toBe(true);
    expect(may(client, ev('ReceiveInventoryData', 1, 10))).toBe(true);
    expect(may(client, ev('ReceiveSkuData', null, 11))).toBe(false);
    expect(may(client, ev('ReceiveInventoryData', 1, 11))).toBe(false);
    expect(may(client, ev('ReceiveWareHousedata', 1, null))).toBe(true); // a warehouse that serves it
    expect(may(client, ev('ReceiveWareHousedata', 2, null))).toBe(false);
    expect(may(client, ev('ReceiveLocationData', 1, null, 'AddLocation'))).toBe(false);
    // A client account whose customer is missing receives nothing, even with a wide scope.
    expect(may(principal({ role: 'Client', customerId: null, warehouses: 'all', customers: 'all' }), ev('ReceiveSkuData', 1, 10))).toBe(false);
  });

  it('shows a user record to whoever sees one of its warehouses, and its own user always', () => {
    const about = (userId: number, warehouses: number[]) =>
      ({ target: 'ReceiveUserData', payload: { subEvent: 'UpdateUser', payload: { userId, warehouses, customers: [] } }, warehouseId: null, customerId: null }) as DomainEvent;
    expect(may(staff, about(5, [1, 3]))).toBe(true);
    expect(may(staff, about(5, [3]))).toBe(false);
    expect(may(staff, about(5, []))).toBe(false);
    expect(may(superAdmin, about(5, []))).toBe(true);
    expect(may(staff, about(1, [2]))).toBe(true); // staff is user 1: its own record
    expect(may(principal({ role: 'Client', userId: 7, customerId: 10, customers: [10] }), about(7, []))).toBe(true);
  });

  it('names the groups of a connection and the candidate groups of an event', () => {
    expect(groupsOf(staff)).toEqual(['wh:1', 'cu:10', 'cu:11']);
    expect(groupsOf(superAdmin)).toEqual(['wh:all', 'cu:all']);
    expect(candidateGroups(ev('ReceiveSkuData', 3, 10))).toEqual(['wh:3', 'wh:all']);
    expect(candidateGroups(ev('ReceiveSkuData', null, 10))).toEqual(['cu:10', 'cu:all']);
    expect(candidateGroups(ev('ReceiveSkuData', null, null))).toBeNull();
  });

  it('knows which events can change a scope', () => {
    expect(changesScope(ev('ReceiveWareHousedata', 1, null, 'AddWarehouse'))).toBe(true);
    expect(changesScope(ev('ReceiveWareHousedata', 1, null, 'UpdateWarehouse'))).toBe(false);
    expect(changesScope(ev('ReceiveUserData', null, null, 'UpdateUser'))).toBe(true);
    expect(changesScope(ev('ReceiveCustomerData', null, 1, 'AddCustomer'))).toBe(true);
    expect(changesScope(ev('ReceiveSkuData', null, 1, 'SkuAdd'))).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The hub on a real server, with the official client
// ---------------------------------------------------------------------------------------------------------------

let t: TestApp;
let base: string;
let adminToken: string;
const open: HubConnection[] = [];

async function listen(app: TestApp['app'], port = 0): Promise<string> {
  await app.listen({ port, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

beforeAll(async () => {
  t = await buildTestApp();
  base = await listen(t.app);
  adminToken = (await login(t.app, ADMIN.username, ADMIN.password)).accesstoken;
});
afterEach(async () => {
  t.app.hub.configure(DEFAULT_HUB_TIMING);
  await Promise.all(open.splice(0).map((c) => c.stop()));
});
afterAll(async () => { await t?.close(); });

/** The official client exactly as the web app builds it (in Node it sends the token as a header; browsers use ?access_token). */
function client(token: () => string, url = `${base}/hubs/wms`): HubConnection {
  const conn = new HubConnectionBuilder()
    .withUrl(url, { skipNegotiation: true, transport: HttpTransportType.WebSockets, accessTokenFactory: token })
    .withAutomaticReconnect([0, 2000, 10000, 30000])
    .configureLogging(LogLevel.None)
    .build();
  open.push(conn);
  return conn;
}

/** A started client that records every event it is sent. */
async function listener(token: string, targets: HubEventName[] = ['ReceiveWareHousedata', 'ReceiveUserData', 'ReceiveCustomerData', 'ReceiveSkuData', 'ReceiveInventoryData']) {
  const conn = client(() => token);
  const seen: { target: HubEventName; arg: { subEvent: string; payload: unknown } }[] = [];
  for (const target of targets) conn.on(target, (arg) => seen.push({ target, arg }));
  await conn.start();
  return {
    conn, seen,
    /** Waits until an event with this subEvent has arrived; events before it arrived first (commit order). */
    async until(subEvent: string, ms = 5000) {
      const deadline = Date.now() + ms;
      while (!seen.some((e) => e.arg.subEvent === subEvent)) {
        if (Date.now() > deadline) throw new Error(`no ${subEvent} within ${ms} ms; saw ${JSON.stringify(seen.map((e) => e.arg.subEvent))}`);
        await sleep(10);
      }
      return seen.map((e) => e.arg.subEvent);
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Raises an event the way a service does: recorded in a transaction, delivered after commit. */
function raise(event: DomainEvent, opts: { rollback?: boolean } = {}) {
  return inTransaction(t.database.db, async ({ tx, afterCommit }) => {
    await t.app.services.events.record(tx, event, afterCommit);
    if (opts.rollback) throw new Error('rolled back on purpose');
  });
}
const skuEvent = (subEvent: string, warehouseId: number | null, customerId: number | null) =>
  ({ target: 'ReceiveSkuData', payload: { subEvent, payload: { marker: subEvent } }, warehouseId, customerId }) as DomainEvent;

async function userToken(u: { username: string; password: string }) {
  return (await login(t.app, u.username, u.password)).accesstoken;
}

/** A raw WebSocket for protocol-level checks: the messages it receives, split into records. */
async function raw(path = '/hubs/wms', token: string | null = adminToken): Promise<{ ws: WebSocket; records: string[]; closed: Promise<number> }> {
  const url = `${base.replace('http', 'ws')}${path}${token ? `${path.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}` : ''}`;
  const ws = new WebSocket(url);
  const records: string[] = [];
  const reader = new RecordReader();
  ws.on('message', (data) => records.push(...reader.push(data.toString())));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, records, closed };
}

/** The HTTP status that refused an upgrade, or 'destroyed' when the socket was just dropped. */
function refusal(url: string, headers: Record<string, string> = {}): Promise<number | 'destroyed' | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => { resolve(res.statusCode ?? 0); res.resume(); });
    ws.on('open', () => { resolve('open'); ws.close(); });
    ws.on('error', () => resolve('destroyed'));
  });
}

describe('connecting', () => {
  it('accepts the official client and delivers ReceiveWareHousedata after AddWarehouse', async () => {
    const l = await listener(adminToken, ['ReceiveWareHousedata']);
    expect(l.conn.state).toBe(HubConnectionState.Connected);
    const res = await as(t.app, adminToken).post('/Warehouse/Warehouse/AddWarehouse', {
      warehouseCode: `HUB${Date.now() % 100000}`, warehouseName: 'Hub Test', city: 'Reno', state: 'NV', zip: '89502',
      country: 'United States', timezone: 'UTC', capacity: 10,
    });
    expect(res.statusCode).toBe(200);
    await l.until('AddWarehouse');
    expect(l.seen[0]).toMatchObject({ target: 'ReceiveWareHousedata', arg: { subEvent: 'AddWarehouse', payload: { warehouseId: res.json().data.warehouseId, warehouseName: 'Hub Test' } } });
  });

  it('answers invoke() with completions', async () => {
    const l = await listener(adminToken);
    expect(await l.conn.invoke('Ping')).toBe('pong');
    expect(await l.conn.invoke('ping')).toBe('pong');
    expect(await l.conn.invoke('GetConnectionInfo')).toMatchObject({ username: 'admin', role: 'SuperAdministrator', groups: ['wh:all', 'cu:all'] });
    await expect(l.conn.invoke('DropTables')).rejects.toThrow(/Unknown hub method 'DropTables'/);
    expect(l.conn.state).toBe(HubConnectionState.Connected);
  });

  it('joins the groups of the user’s warehouses and customers', async () => {
    const wh = await makeWarehouse(t.database);
    const cu = await makeCustomer(t.database, [wh]);
    const staff = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cu] });
    const l = await listener(await userToken(staff));
    expect((await l.conn.invoke('GetConnectionInfo')).groups).toEqual([`wh:${wh}`, `cu:${cu}`]);
  });

  it('refuses a missing or bad token with 401, and other paths outright', async () => {
    const ws = base.replace('http', 'ws');
    expect(await refusal(`${ws}/hubs/wms`)).toBe(401);
    expect(await refusal(`${ws}/hubs/wms?access_token=not-a-token`)).toBe(401);
    expect(await refusal(`${ws}/hubs/wms`, { authorization: 'Bearer not-a-token' })).toBe(401);
    expect(await refusal(`${ws}/hubs/other?access_token=${adminToken}`)).toBe('destroyed');
    // Case-insensitive path; the token by query string (as browsers send it) or header.
    expect(await refusal(`${ws}/HUBS/WMS/?access_token=${adminToken}`)).toBe('open');
    expect(await refusal(`${ws}/hubs/wms`, { authorization: `Bearer ${adminToken}` })).toBe('open');
    await expect(client(() => 'not-a-token').start()).rejects.toThrow(/failed to connect/);
  });
});

describe('the protocol on the wire', () => {
  it('handles several records per frame and records split over frames', async () => {
    const { ws, records } = await raw();
    ws.send('{"protocol":"json","version":1}\x1e{"type":1,"invocationId":"1","tar');
    ws.send('get":"Ping","arguments":[]}\x1e{"type":1,"invocationId":"2","target":"Nope","arguments":[]}\x1e{"type":4,"invocationId":"3","target":"Stream","arguments":[]}\x1e');
    await waitFor(() => records.length >= 4, 3000, 'four records');
    expect(records[0]).toBe('{}');
    // Invocations run after a session check, so their completions may come after the stream refusal.
    const byId = Object.fromEntries(records.slice(1).map((r) => JSON.parse(r)).map((m) => [m.invocationId, m]));
    const { 1: pong, 2: nope, 3: stream } = byId;
    expect(pong).toEqual({ type: 3, invocationId: '1', result: 'pong' });
    expect(nope).toMatchObject({ type: 3, invocationId: '2', error: "Unknown hub method 'Nope'" });
    expect(stream).toMatchObject({ type: 3, invocationId: '3', error: expect.stringMatching(/Streaming/) });
    ws.close();
  });

  it('answers an unsupported protocol with a handshake error and closes', async () => {
    const { ws, records, closed } = await raw();
    ws.send('{"protocol":"messagepack","version":1}\x1e');
    await closed;
    expect(JSON.parse(records[0]).error).toMatch(/messagepack/);
  });

  it('pings an idle client and closes a silent one', async () => {
    t.app.hub.configure({ keepAliveMs: 100, clientTimeoutMs: 600, tickMs: 25 });
    const { ws, records, closed } = await raw();
    ws.send('{"protocol":"json","version":1}\x1e');
    await waitFor(() => records.includes('{"type":6}'), 2000, 'a ping');
    expect(await closed).toBe(1000);
    expect(JSON.parse(records.at(-1)!)).toMatchObject({ type: 7, error: expect.stringMatching(/timeout/i), allowReconnect: true });
  });

  it('keeps a client that pings', async () => {
    t.app.hub.configure({ keepAliveMs: 100, clientTimeoutMs: 400, tickMs: 25 });
    const { ws, records } = await raw();
    ws.send('{"protocol":"json","version":1}\x1e');
    for (let i = 0; i < 8; i++) {
      await sleep(100);
      ws.send('{"type":6}\x1e');
    }
    expect(ws.readyState).toBe(WebSocket.OPEN);
    expect(records.some((r) => r.includes('"type":7'))).toBe(false);
    ws.close();
  });
});

describe('who receives what', () => {
  let wh1: number, wh2: number, custA: number, custB: number;
  beforeAll(async () => {
    wh1 = await makeWarehouse(t.database);
    wh2 = await makeWarehouse(t.database);
    custA = await makeCustomer(t.database, [wh1]);
    custB = await makeCustomer(t.database, [wh1]);
  });

  it('a client account never receives another customer’s event', async () => {
    const a = await listener(await userToken(await makeUser(t.database, { role: 'Client', customerId: custA, modules: { SKU: 'read' } })));
    const b = await listener(await userToken(await makeUser(t.database, { role: 'Client', customerId: custB, modules: { SKU: 'read' } })));
    await raise(skuEvent('SkuAdd', null, custB));
    await raise(skuEvent('SkuUpdate', wh1, custB));
    await raise(skuEvent('AddPackage', null, null)); // no customer: the SKU list never shows it to a client account
    await raise({ target: 'ReceiveWareHousedata', payload: { subEvent: 'UpdateWarehouse', payload: {} }, warehouseId: wh1 }); // no Warehouse module
    await raise(skuEvent('AddBarcode', wh1, custA)); // the marker: everything before it has been routed
    expect(await a.until('AddBarcode')).toEqual(['AddBarcode']);
    expect(await b.until('SkuUpdate')).toEqual(['SkuAdd', 'SkuUpdate']);
  });

  it('a staff user outside a warehouse does not get its event', async () => {
    const staff = await listener(await userToken(await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh1], customerIds: [custA, custB], modules: { SKU: 'read', Warehouse: 'read' } })));
    await raise(skuEvent('SkuAdd', wh2, custA));
    await raise({ target: 'ReceiveWareHousedata', payload: { subEvent: 'UpdateWarehouse', payload: {} }, warehouseId: wh2 });
    await raise({ target: 'ReceiveUserData', payload: { subEvent: 'UpdateUser', payload: { warehouses: [wh1], customers: [] } } }); // no User module
    await raise(skuEvent('SkuUpdate', wh1, custA));
    expect(await staff.until('SkuUpdate')).toEqual(['SkuUpdate']);
  });

  it('sends user data only to holders of the User module', async () => {
    const admin = await listener(await userToken(await makeUser(t.database, { role: 'Administrator', warehouseIds: [wh1], modules: { User: 'read' } })));
    await raise({ target: 'ReceiveUserData', payload: { subEvent: 'AddUser', payload: { warehouses: [wh1], customers: [] } } });
    expect(await admin.until('AddUser')).toEqual(['AddUser']);
  });

  it('a rolled-back transaction emits nothing', async () => {
    const l = await listener(adminToken);
    await expect(raise(skuEvent('DeletePackage', wh1, custA), { rollback: true })).rejects.toThrow(/on purpose/);
    await raise(skuEvent('UpdatePackage', wh1, custA));
    expect(await l.until('UpdatePackage')).toEqual(['UpdatePackage']);
  });

  it('a warehouse created by an Administrator reaches their open connection at once', async () => {
    const creator = await makeUser(t.database, { role: 'Administrator', modules: { Warehouse: 'write' } });
    const token = await userToken(creator);
    const l = await listener(token);
    const res = await as(t.app, token).post('/Warehouse/Warehouse/AddWarehouse', {
      warehouseCode: `NEW${Date.now() % 100000}`, warehouseName: 'Fresh', city: 'Reno', state: 'NV', zip: '89502', country: 'United States', timezone: 'UTC', capacity: 1,
    });
    expect(res.statusCode).toBe(200);
    expect(await l.until('AddWarehouse')).toEqual(['AddWarehouse']);
    expect((await l.conn.invoke('GetConnectionInfo')).groups).toContain(`wh:${res.json().data.warehouseId}`);
  });
});

describe('location events', () => {
  const L = '/warehouse/Location';
  let wh1: number, wh2: number, custA: number;
  let staffToken: string, otherStaffToken: string, clientToken: string;
  beforeAll(async () => {
    wh1 = await makeWarehouse(t.database);
    wh2 = await makeWarehouse(t.database);
    custA = await makeCustomer(t.database, [wh1]);
    staffToken = await userToken(await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh1], customerIds: [custA], modules: { LocationGroup: 'write' } }));
    otherStaffToken = await userToken(await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh2], modules: { LocationGroup: 'write' } }));
    // With the Location module: its location list is another view (its own stock), so layout events are not its.
    clientToken = await userToken(await makeUser(t.database, { role: 'Client', customerId: custA, modules: { SKU: 'read', Location: 'read' } }));
  });
  const code = () => `H-${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
  type Seen = Awaited<ReturnType<typeof listener>>['seen'];
  const ofWarehouse = (seen: Seen, warehouseId: number) =>
    seen.filter((e) => (e.arg.payload as { warehouseId?: number }).warehouseId === warehouseId).map((e) => e.arg.subEvent);

  it('every location mutation raises ReceiveLocationData to the staff of that warehouse only', async () => {
    const staff = await listener(staffToken, ['ReceiveLocationData']);
    const other = await listener(otherStaffToken, ['ReceiveLocationData']);
    const client = await listener(clientToken, ['ReceiveLocationData', 'ReceiveSkuData']);
    const api = as(t.app, staffToken);

    const created = await api.post(`${L}/CreateLocation`, { warehouseId: wh1, locationCode: code(), locationType: 'rack', capacity: 10 });
    expect(created.statusCode).toBe(200);
    const location = created.json().data;
    await staff.until('AddLocation');
    expect(staff.seen[0]).toMatchObject({ target: 'ReceiveLocationData', arg: { subEvent: 'AddLocation', payload: { locationId: location.locationId, locationCode: location.locationCode, warehouseId: wh1, category: 'storage' } } });

    const updated = await api.put(`${L}/UpdateLocation`, { ...location, locationId: location.locationId, description: 'Renamed', capacity: 20 });
    expect(updated.statusCode).toBe(200);
    await staff.until('UpdateLocation');
    expect(staff.seen.find((e) => e.arg.subEvent === 'UpdateLocation')?.arg.payload).toMatchObject({ locationId: location.locationId, description: 'Renamed', capacity: 20 });

    const zone = `Z${Math.random().toString(36).slice(2, 5).toUpperCase()}`;
    const pattern = await api.post(`${L}/CreateLocationsByPattern`, { warehouseId: wh1, type: 'rack', zone, aisles: { from: 1, to: 2 }, racks: { from: 1, to: 2 }, levels: { from: 1, to: 1 }, capacity: 5 });
    expect(pattern.statusCode).toBe(200);
    await staff.until('AddLocations');
    expect(staff.seen.find((e) => e.arg.subEvent === 'AddLocations')?.arg.payload).toEqual({ warehouseId: wh1, count: 4, firstCode: `${zone}-01-01-01`, lastCode: `${zone}-02-02-01`, source: 'pattern' });

    // The other warehouse's staff get their own warehouse's events only; the marker proves the earlier ones were routed.
    await as(t.app, otherStaffToken).post(`${L}/CreateLocation`, { warehouseId: wh2, locationCode: code(), locationType: 'shelf', capacity: 0 });
    await other.until('AddLocation');
    expect(ofWarehouse(other.seen, wh1)).toEqual([]);
    expect(ofWarehouse(other.seen, wh2)).toEqual(['AddLocation']);
    // A client account of the warehouse never receives the layout's events.
    await raise(skuEvent('SkuAdd', wh1, custA));
    await client.until('SkuAdd');
    expect(client.seen.filter((e) => e.target === 'ReceiveLocationData')).toEqual([]);
  });

  it('an upload raises one AddLocations; a refused upload or a clash raises nothing', async () => {
    const staff = await listener(staffToken, ['ReceiveLocationData']);
    const api = as(t.app, staffToken);
    const upload = (csv: string) => {
      const boundary = '----bolxhubtest';
      const payload = Buffer.from([
        `--${boundary}`, 'Content-Disposition: form-data; name="warehouseId"', '', String(wh1),
        `--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="locations.csv"', 'Content-Type: text/csv', '', csv,
        `--${boundary}--`, '',
      ].join('\r\n'));
      return api.post(`${L}/UploadLocations`, payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
    };
    const [a, b] = [code(), code()];
    expect((await upload(`Location Code,Location Type,Capacity\n${a},rack,1\nBAD CODE!,cupboard,x`)).statusCode).toBe(422);
    expect((await api.post(`${L}/CreateLocation`, { warehouseId: wh1, locationCode: 'BAD CODE!', locationType: 'rack', capacity: 1 })).statusCode).toBe(400);
    expect((await upload(`Location Code,Location Type,Capacity\n${a},rack,1\n${b},shelf,2`)).statusCode).toBe(200);
    await staff.until('AddLocations');
    expect(staff.seen.map((e) => e.arg)).toEqual([{ subEvent: 'AddLocations', payload: { warehouseId: wh1, count: 2, firstCode: a, lastCode: b, source: 'upload' } }]);
    // The same codes again clash inside the transaction: nothing is written and nothing raised.
    expect((await api.post(`${L}/CreateLocation`, { warehouseId: wh1, locationCode: a, locationType: 'rack', capacity: 1 })).statusCode).toBe(409);
    await raise({ target: 'ReceiveLocationData', payload: { subEvent: 'UpdateLocation', payload: { marker: true } as never }, warehouseId: wh1 });
    await staff.until('UpdateLocation');
    expect(staff.seen.map((e) => e.arg.subEvent).filter((s) => s === 'AddLocation')).toEqual([]);
  });

  it('a change to a user’s own warehouses reaches that user, who has no User module, and widens their groups at once', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh1], modules: { Location: 'read' } });
    const bystander = await listener(await userToken(await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh1, wh2], modules: { Location: 'read' } })), ['ReceiveUserData', 'ReceiveLocationData']);
    const self = await listener(await userToken(u), ['ReceiveUserData', 'ReceiveLocationData']);
    await t.database.db.insertInto('user_warehouse').values({ user_id: u.id, warehouse_id: wh2 }).execute();
    await raise({ target: 'ReceiveUserData', payload: { subEvent: 'UpdateUser', payload: { userId: u.id, username: u.username, warehouses: [wh1, wh2], customers: [] } } });
    await self.until('UpdateUser');
    expect((await self.conn.invoke('GetConnectionInfo')).groups).toContain(`wh:${wh2}`);
    await raise({ target: 'ReceiveLocationData', payload: { subEvent: 'UpdateLocation', payload: { warehouseId: wh2 } as never }, warehouseId: wh2 });
    await self.until('UpdateLocation');
    await bystander.until('UpdateLocation');
    expect(bystander.seen.map((e) => e.arg.subEvent)).toEqual(['UpdateLocation']);
  });
});

describe('ending connections', () => {
  it('closes the connection of a signed-out session at its next invocation, without reconnecting', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const token = await userToken(u);
    const l = await listener(token);
    let reconnecting = false;
    let closeError: Error | undefined;
    l.conn.onreconnecting(() => { reconnecting = true; });
    l.conn.onclose((err) => { closeError = err; });
    expect((await as(t.app, token).post('/Common/Auth/logout')).statusCode).toBe(200);
    await expect(l.conn.invoke('Ping')).rejects.toThrow();
    await waitFor(() => l.conn.state === HubConnectionState.Disconnected, 3000, 'disconnect');
    expect(closeError?.message).toMatch(/session has ended/);
    expect(reconnecting).toBe(false);
  });

  it('closes the connection of a disabled user on its own within the check interval', async () => {
    t.app.hub.configure({ sessionCheckMs: 200, tickMs: 50 });
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const l = await listener(await userToken(u));
    let closeError: Error | undefined;
    l.conn.onclose((err) => { closeError = err; });
    await t.database.db.updateTable('app_user').set({ is_active: 0 }).where('id', '=', u.id).execute();
    await waitFor(() => l.conn.state === HubConnectionState.Disconnected, 3000, 'disconnect');
    expect(closeError?.message).toMatch(/session has ended/);
  });

  it('counts connections and messages in the metrics', async () => {
    const l = await listener(adminToken);
    await l.conn.invoke('Ping');
    const metrics = await t.app.services.health.metrics();
    expect(metrics).toMatch(/^bolx_hub_connections [1-9]/m);
    expect(metrics).toMatch(/^bolx_hub_messages_sent_total\{kind="completion"\} [1-9]/m);
  });
});

describe('server restart', () => {
  it('shuts down promptly with clients connected, and the clients reconnect to the new server', async () => {
    const port = Number(new URL(base).port);
    const conn = client(() => adminToken);
    const seen: string[] = [];
    conn.on('ReceiveSkuData', (arg: { subEvent: string }) => seen.push(arg.subEvent));
    let reconnected = false;
    conn.onreconnected(() => { reconnected = true; });
    await conn.start();

    const started = Date.now();
    await t.app.services.events.stop();
    await t.app.close();
    expect(Date.now() - started).toBeLessThan(3000);

    const app = await buildApp({ ...t.config, databaseUrl: process.env.TEST_DATABASE_URL }, { database: t.database, logger: false });
    await app.ready();
    await app.services.events.start();
    const previous = t.app;
    t.app = app; // `raise` and the hooks use the running app
    try {
      await listen(app, port);
      await waitFor(() => reconnected, 10_000, 'reconnect');
      expect(conn.state).toBe(HubConnectionState.Connected);
      await raise(skuEvent('SkuAdd', null, null));
      await waitFor(() => seen.includes('SkuAdd'), 5000, 'an event after reconnecting');
    } finally {
      await conn.stop();
      await app.services.events.stop();
      await app.close();
      t.app = previous; // the suite's teardown closes the database through the first app's helper
    }
  });
});
