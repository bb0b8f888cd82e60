import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEventName } from '@bolx/contracts';
import type { DomainEvent } from '../src/platform/events.js';
import { EVENT_AUDIENCES, type HubAudiences } from '../src/platform/hub/event-audiences.js';
import { mayReceive } from '../src/platform/hub/routing.js';
import type { Principal } from '../src/platform/principal.js';
import { hubAudiences, listPolicy } from '../src/plugins/hub.js';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeUser, makeWarehouse, recordEvents, type TestApp } from './helpers.js';

// Issue 10, item 5: every hub event reaches whom the API that lists its record would show it to, and no one else.
// Walks the event map: per event, a user in scope with the list's module receives it; a manager of another
// warehouse, a client account of another customer, and a user in scope lacking the list's module do not.
// Principals are real (signed in, loaded as the hub loads them); the policies are the list routes' own.

let t: TestApp;
let audiences: HubAudiences;
let w1: number, w2: number, w3: number, c1: number, c3: number;
// Events of one user's own record (a background job: `ownerOf`) reach that user alone, whatever their modules;
// their audience is tested with the jobs (src/platform/jobs/jobs.test.ts).
const targets = (Object.keys(EVENT_AUDIENCES) as HubEventName[]).filter((target) => !EVENT_AUDIENCES[target].ownerOf);

/** Every module key the event map's list routes ask for, read. */
const listModules = () => Object.fromEntries(targets.map((target) => [moduleOf(target), 'read' as const]));
const moduleOf = (target: HubEventName) => {
  const policy = listPolicy(t.app, EVENT_AUDIENCES[target].listedBy);
  if (!policy || policy.access !== 'authenticated' || !policy.module) throw new Error(`${target}: its list route has no module policy`);
  return policy.module.key;
};

async function principalOf(user: { username: string; password: string }): Promise<Principal> {
  const { accesstoken } = await login(t.app, user.username, user.password);
  return (await t.app.services.auth.principalFromToken(accesstoken))!;
}

beforeAll(async () => {
  t = await buildTestApp();
  audiences = hubAudiences(t.app);
  [w1, w2, w3] = [await makeWarehouse(t.database), await makeWarehouse(t.database), await makeWarehouse(t.database)];
  c1 = await makeCustomer(t.database, [w1]);
  c3 = await makeCustomer(t.database, [w3]);
});
afterAll(async () => { await t?.close(); });

/** An event of this target about a record of warehouse w1 and customer c1. */
function eventOf(target: HubEventName): DomainEvent {
  const payload = target === 'ReceiveUserData'
    ? { subEvent: 'UpdateUser', payload: { userId: 999_999, username: 'someone', warehouses: [w1], customers: [c1] } }
    : { subEvent: 'Update', payload: { id: 1 } };
  return { target, payload, warehouseId: w1, customerId: c1 } as DomainEvent;
}

describe('the hub event map', () => {
  it('names, for every event, a list route with a module policy', () => {
    expect(targets.length).toBeGreaterThanOrEqual(10);
    for (const target of targets) expect(moduleOf(target)).toMatch(/\w/);
  });

  it('delivers each event to a user in scope holding the list’s module, and not to one out of scope or without it', async () => {
    const modules = listModules();
    const inScope = await principalOf(await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [w1, w2], customerIds: [c1], modules }));
    const otherManager = await principalOf(await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [w3], customerIds: [c3], modules }));
    const otherClient = await principalOf(await makeUser(t.database, { role: 'Client', customerId: c3, modules }));
    const outcome: Record<string, boolean[]> = {};
    const expected: Record<string, boolean[]> = {};
    for (const target of targets) {
      const { [moduleOf(target)]: _lacking, ...others } = modules;
      const withoutModule = await principalOf(await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [w1, w2], customerIds: [c1], modules: others }));
      const event = eventOf(target);
      outcome[target] = [inScope, otherManager, otherClient, withoutModule].map((p) => mayReceive(p, event, audiences));
      expected[target] = [true, false, false, false];
    }
    expect(outcome).toEqual(expected);
  });
});

describe('ReceiveUserData, raised by the API', () => {
  it('reaches a manager only for a user of one of their warehouses, with only their warehouses and clients in it', async () => {
    const modules = { User: 'read' as const };
    const manager = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [w1, w2], customerIds: [c1], modules });
    const managerPrincipal = await principalOf(manager);
    const managerApi = as(t.app, (await login(t.app, manager.username, manager.password)).accesstoken);
    const admin = as(t.app, (await login(t.app, ADMIN.username, ADMIN.password)).accesstoken);
    const elsewhere = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [w3], customerIds: [c3] });
    const shared = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [w1, w3], customerIds: [c1, c3] });

    const update = async (userId: number) => {
      const details = (await admin.get(`/Warehouse/User/GetUserDetails?userId=${userId}`)).json();
      const events = await recordEvents(t.app);
      const res = await admin.put(`/Warehouse/User/UpdateUser?userId=${userId}`, {
        username: details.username, email: details.email, firstName: 'Renamed', lastName: details.lastName, usertype: details.usertype,
        warehouses: details.warehouses.map((w: { warehouseId: number }) => w.warehouseId), customers: details.customers.map((c: { customerId: number }) => c.customerId),
      });
      expect(res.statusCode).toBe(200);
      return (await events.until(1)).find((e) => e.target === 'ReceiveUserData')!;
    };

    // A user of a third warehouse: the API refuses to show them to the manager, and so does the hub.
    expect((await managerApi.get(`/Warehouse/User/GetUserDetails?userId=${elsewhere.id}`)).statusCode).toBe(403);
    expect(mayReceive(managerPrincipal, await update(elsewhere.id), audiences)).toBe(false);

    // A user sharing a warehouse: shown, with the assignments the API shows the manager.
    const event = await update(shared.id);
    expect(mayReceive(managerPrincipal, event, audiences)).toBe(true);
    const shown = (await managerApi.get(`/Warehouse/User/GetUserDetails?userId=${shared.id}`)).json();
    const view = audiences.ReceiveUserData.viewFor!(event.payload, managerPrincipal) as { payload: { warehouses: number[]; customers: number[] } };
    expect(view.payload.warehouses).toEqual(shown.warehouses.map((w: { warehouseId: number }) => w.warehouseId));
    expect(view.payload.customers).toEqual(shown.customers.map((c: { customerId: number }) => c.customerId));
    expect(view.payload.warehouses).toEqual([w1]);
  });
});
