import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEventName, Permission } from '@bolx/contracts';
import type { DomainEvent } from '../src/platform/events.js';
import { EVENT_AUDIENCES, type HubAudiences } from '../src/platform/hub/event-audiences.js';
import { mayReceive } from '../src/platform/hub/routing.js';
import type { Principal } from '../src/platform/principal.js';
import { hubAudiences } from '../src/plugins/hub.js';
import { ADMIN, as, buildTestApp, engine, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, postStock, type TestApp } from '../test/helpers.js';
import { decoders, pdfText } from '../test/support/pdf-readers.js';
import { HUB_EVENT_ISOLATION, ROUTE_ISOLATION } from './isolation-policy.js';
import { apiRoutes, routeKey, sampleRequest, send, type ApiRoute } from './support/route-requests.js';

// Issue 19, item 5: the isolation matrix. Three tenants (a warehouse and a client each, their records named with a
// canary word of their own) and four callers: a client account of A, one of B, staff of A's warehouse, and a manager
// of A's and B's warehouses. Every route of the route table is called by every caller, with the ids of each tenant
// outside the caller's scope in every id field (and once with its own); an answer that shows a foreign tenant's
// canary (JSON, text, or inside an exported workbook) is a leak, and so is a mutation naming foreign records that
// succeeds. Every hub event of a foreign tenant must not reach the caller. A route or an event without an entry in
// isolation-policy.ts fails: the next module declares how its routes are held.

interface Tenant { tag: string; canary: string; wh: number; cust: number; sku: number; loc: number; orderId: number; roId: number; userId: number; adjustmentId: number }
interface Caller { name: string; user: { username: string; password: string }; token: string; principal: Principal; foreign: Tenant[]; own: Tenant }

let t: TestApp;
let audiences: HubAudiences;
const tenants: Record<'A' | 'B' | 'C', Tenant> = {} as never;
let callers: Caller[] = [];

async function tenant(tag: 'A' | 'B' | 'C', admin: ReturnType<typeof as>): Promise<Tenant> {
  const canary = `ZQ${tag}LEAK`;
  const wh = await makeWarehouse(t.database, `${canary} warehouse`);
  const cust = await makeCustomer(t.database, [wh], `${canary} client`);
  const sku = await makeSku(t.database, cust, `${canary}-SKU`);
  const loc = await makeLocation(t.database, wh, `${canary}-BIN`);
  await postStock(t, [{ place: { warehouseId: wh, customerId: cust, skuId: sku, locationId: loc, lot: '', pallet: '' }, qty: 50 }]);
  const ro = await admin.post('/Warehouse/Receiving/CreateReceivingOrder', { warehouseId: wh, customerId: cust, supplier: `${canary} supplier`, expectedDeliveryDate: '2030-03-01', lines: [{ skuId: sku, expectedQuantity: 5 }] });
  expect(ro.statusCode, ro.body).toBe(200);
  const order = await admin.post('/Warehouse/Order/CreateOrder', { warehouseId: wh, customerId: cust, orderType: 'Sales', referenceNumber: `${canary}-REF`, orderDate: '2030-03-01', lines: [{ skuId: sku, quantity: 2 }] });
  expect(order.statusCode, order.body).toBe(200);
  expect((await admin.post('/Warehouse/Order/AllocateOrders', { orderIds: [order.json().data.orderId] })).statusCode).toBe(200);
  const adjustment = await admin.post('/Warehouse/Adjustment/CreateAdjustment', { warehouseId: wh, customerId: cust, skuId: sku, locationId: loc, quantityChange: 1, reasonCode: 'FOUND', note: `${canary} note` });
  expect(adjustment.statusCode, adjustment.body).toBe(200);
  const user = await makeUser(t.database, { role: 'WarehouseStaff', username: `${canary.toLowerCase()}user`, warehouseIds: [wh], customerIds: [cust] });
  return {
    tag, canary, wh, cust, sku, loc, orderId: order.json().data.orderId, roId: ro.json().data.receivingOrderId, userId: user.id,
    adjustmentId: adjustment.json().data.adjustmentId,
  };
}

/** Every module key a route's policy asks for, granted for writing: the matrix tests scope, not module grants. */
const allModules = (routes: ApiRoute[]) => Object.fromEntries(routes.flatMap((r) => (r.policy?.access === 'authenticated' && r.policy.module ? [[r.policy.module.key, 'write' as Permission]] : [])));

async function caller(name: string, user: { username: string; password: string }, own: Tenant, foreign: Tenant[]): Promise<Caller> {
  const { accesstoken } = await login(t.app, user.username, user.password);
  return { name, user, token: accesstoken, principal: (await t.app.services.auth.principalFromToken(accesstoken))!, own, foreign };
}

/** A route that lists every client whoever asks: the matrix must find it. */
const PLANTED = '/Test/Isolation/Planted';

beforeAll(async () => {
  t = await buildTestApp({
    beforeReady: (app) => app.get(PLANTED, { config: { policy: { access: 'authenticated', scope: 'tenant' } } }, () => app.database.db.selectFrom('customer').select('name').execute()),
  });
  audiences = hubAudiences(t.app);
  const admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  for (const tag of ['A', 'B', 'C'] as const) tenants[tag] = await tenant(tag, admin);
  const { A, B, C } = tenants;
  const modules = allModules(apiRoutes(t.app));
  callers = [
    await caller('client of A', await makeUser(t.database, { role: 'Client', customerId: A.cust, modules }), A, [B, C]),
    await caller('client of B', await makeUser(t.database, { role: 'Client', customerId: B.cust, modules }), B, [A, C]),
    await caller('staff of A’s warehouse', await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [A.wh], customerIds: [A.cust], modules }), A, [B, C]),
    await caller('manager of two warehouses', await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [A.wh, B.wh], customerIds: [A.cust, B.cust], modules }), A, [C]),
  ];
}, 120_000);
afterAll(async () => { await t?.close(); });

/** A tenant's id for an id field, by the field's name; any other id field gets the tenant's order. */
function idsOf(x: Tenant) {
  return (field: string): number | undefined => {
    if (!/id$/i.test(field)) return undefined;
    const f = field.toLowerCase();
    if (f.includes('warehouse')) return x.wh;
    if (f.includes('customer') || f.includes('client')) return x.cust;
    if (f.includes('sku') || f.includes('item') || f.includes('component')) return x.sku;
    if (f.includes('location')) return x.loc;
    if (f.includes('receiving') || f === 'roid') return x.roId;
    if (f.includes('user')) return x.userId;
    if (f.includes('adjustment')) return x.adjustmentId;
    return x.orderId;
  };
}

/** The text of an answer: JSON or text as sent, a workbook's cells or a PDF's words read out. */
async function answerText(body: Buffer, type: string): Promise<string> {
  if (type.includes('pdf')) return decoders ? pdfText(body) : '';
  if (!/spreadsheetml|officedocument/.test(type)) return body.toString('utf8');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as unknown as ArrayBuffer);
  const cells: string[] = [];
  book.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => { cells.push(String(cell.text)); })));
  return cells.join('\n');
}

let audited = 0;
/** The changes the callers made through a route (their audit rows) to records of a tenant foreign to them: each a leak. */
async function changesOfForeign(request: string): Promise<string[]> {
  const rows = await t.database.db.selectFrom('audit_log').select(['id', 'user_id', 'action', 'entity', 'warehouse_id', 'customer_id'])
    .where('id', '>', audited).orderBy('id').execute();
  audited = Math.max(audited, ...rows.map((r) => Number(r.id)));
  return rows.flatMap((r) => callers.filter((c) => c.principal.userId === r.user_id && c.foreign.some((x) => r.warehouse_id === x.wh || r.customer_id === x.cust))
    .map((c) => `${request} as ${c.name}: changed another tenant's ${r.entity} (${r.action})`));
}

/** Calls the routes as every caller with each tenant's ids: the leaks found, and how many routes showed a caller its own. */
async function matrix(routes: ApiRoute[]) {
  const leaks: string[] = [];
  const own = new Set<string>();
  const files = new Set<string>();
  let sent = 0;
  for (const route of routes) {
    for (const c of callers) {
      for (const target of [c.own, ...c.foreign]) {
        const request = sampleRequest(route, idsOf(target));
        let res = await send(t.app, route, request, { authorization: `Bearer ${c.token}` });
        if (res.statusCode === 401) {
          // A probe ended the caller's session (logout, a password change): a new one, and the same request again.
          c.token = (await login(t.app, c.user.username, c.user.password)).accesstoken;
          res = await send(t.app, route, request, { authorization: `Bearer ${c.token}` });
        }
        sent++;
        const text = await answerText(res.rawPayload, String(res.headers['content-type'] ?? ''));
        if (text.includes(c.own.canary)) own.add(routeKey(route));
        if (res.statusCode === 200 && /pdf|spreadsheetml/.test(String(res.headers['content-type']))) files.add(routeKey(route));
        const shown = c.foreign.filter((x) => text.includes(x.canary)).map((x) => x.tag);
        if (shown.length) leaks.push(`${routeKey(route)} as ${c.name} with ${target.tag}'s ids → ${res.statusCode} shows ${shown.join(', ')}: ${text.slice(0, 140)}`);
      }
    }
    leaks.push(...await changesOfForeign(routeKey(route)));
  }
  return { leaks, sent, showingOwn: own.size, exportsRead: files.size };
}

describe(`isolation matrix (${engine})`, () => {
  it('declares, for every route and hub event, how it is held (isolation-policy.ts), and nothing stale', () => {
    const keys = apiRoutes(t.app).filter((r) => r.url !== PLANTED).map(routeKey);
    expect(keys.filter((k) => !(k in ROUTE_ISOLATION))).toEqual([]);
    expect(Object.keys(ROUTE_ISOLATION).filter((k) => !keys.includes(k))).toEqual([]);
    const events = Object.keys(EVENT_AUDIENCES);
    expect(events.filter((e) => !(e in HUB_EVENT_ISOLATION))).toEqual([]);
    expect(Object.keys(HUB_EVENT_ISOLATION).filter((e) => !events.includes(e))).toEqual([]);
  });

  it('shows no caller another tenant’s records, on any route, exports included, and lets none change them', async () => {
    const routes = apiRoutes(t.app).filter((r) => r.url !== PLANTED && ROUTE_ISOLATION[routeKey(r)] !== 'public');
    const { leaks, sent, showingOwn, exportsRead } = await matrix(routes);
    console.log(`isolation matrix (${engine}): ${sent} requests over ${routes.length} routes × ${callers.length} callers, ${showingOwn} routes showed a caller its own records, ${exportsRead} exports (xlsx, pdf) read, ${leaks.length} leaks`);
    // The probes reach records: many routes show each caller its own tenant's, exports included.
    expect(showingOwn).toBeGreaterThan(40);
    expect(exportsRead).toBeGreaterThan(5);
    expect(leaks).toEqual([]);
  });

  it('finds a route that lists every tenant’s clients', async () => {
    const { leaks } = await matrix(apiRoutes(t.app).filter((r) => r.url === PLANTED));
    expect(leaks.length).toBe(callers.reduce((n, c) => n + 1 + c.foreign.length, 0));
  });

  it('delivers no hub event of another tenant to any caller', () => {
    const leaks: string[] = [];
    for (const target of Object.keys(EVENT_AUDIENCES) as HubEventName[]) {
      for (const c of callers) {
        for (const x of c.foreign) {
          const payload = target === 'ReceiveUserData'
            ? { subEvent: 'UpdateUser', payload: { userId: x.userId, username: x.canary, warehouses: [x.wh], customers: [x.cust] } }
            : target === 'ReceiveJobData'
              ? { subEvent: 'Update', payload: { id: 1, ownerUserId: c.principal.userId, warehouseId: x.wh, customerId: x.cust } }
              : { subEvent: 'Update', payload: { id: 1 } };
          const event = { target, payload, warehouseId: x.wh, customerId: x.cust } as DomainEvent;
          if (mayReceive(c.principal, event, audiences)) leaks.push(`${target} of ${x.tag} reaches ${c.name}`);
        }
      }
    }
    expect(leaks).toEqual([]);
  });
});
