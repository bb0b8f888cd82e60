import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, type TestApp } from '../../../test/helpers.js';
import { stuckReason } from './job-tracking.service.js';

// A hand-built floor, with times counted back from now: five jobs on the board of warehouse 1, two that are not
// (done a day and more ago, cancelled), and one job in warehouse 2.
let t: TestApp;
let admin: ReturnType<typeof as>;
let wh: number, wh2: number, custA: number, custB: number, loc: number, loc2: number, skuA: number, skuB: number;
let picker1: { id: number; username: string }, picker2: { id: number; username: string };
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
let seq = 0;

async function order(warehouseId: number, customer: number) {
  const db = t.database.db;
  const at = ago(300);
  const { id } = await db.insertInto('sales_order').values({
    so_number: `SO-JT${++seq}-${Math.random().toString(36).slice(2, 6)}`, warehouse_id: warehouseId, customer_id: customer, order_type: 'Sales', reference_number: `JT-${seq}-${Math.random()}`,
    order_date: at.slice(0, 10), requested_ship_date: null, priority: 5, ship_to_name: null, ship_to_address1: null, ship_to_address2: null, ship_to_city: null,
    ship_to_state: null, ship_to_zip: null, ship_to_country: null, ship_to_phone: null, ship_to_email: null, carrier_account_id: null, carrier_service: null, notes: null,
    status: 'Released', source: 'screen', created_by: null, created_at: at, updated_at: at,
  }).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** A job of its own wave, with one task per line: [customer, quantity, picked, short]. */
async function job(j: {
  warehouseId?: number; status: string; zone?: string | null; picker?: number | null; created: number; started?: number; finished?: number; lastPick?: number;
  lines: [number, number, number, number][];
}) {
  const db = t.database.db;
  const warehouseId = j.warehouseId ?? wh;
  const n = ++seq;
  const wave = await db.insertInto('wave').values({ wave_number: `WAVE-JT${n}-${Math.random().toString(36).slice(2, 6)}`, warehouse_id: warehouseId, strategy: 'zone', rule_id: null, created_by: null, created_at: ago(j.created), updated_at: ago(j.created) })
    .returning('id').executeTakeFirstOrThrow();
  const { id } = await db.insertInto('pick_job').values({
    job_number: `JOB-JT${n}-${Math.random().toString(36).slice(2, 6)}`, wave_id: wave.id, warehouse_id: warehouseId, strategy: 'zone', zone: j.zone ?? null, status: j.status,
    assigned_to: j.picker ?? null, started_at: j.started === undefined ? null : ago(j.started), finished_at: j.finished === undefined ? null : ago(j.finished),
    created_at: ago(j.created), updated_at: ago(j.created),
  }).returning('id').executeTakeFirstOrThrow();
  let s = 0;
  for (const [customer, quantity, picked, short] of j.lines) {
    const orderId = await order(warehouseId, customer);
    const sku = customer === custA ? skuA : skuB;
    const line = await db.insertInto('sales_order_line').values({ order_id: orderId, line_no: 1, sku_id: sku, quantity, package_id: null, units_per_package: 1, lot: '', notes: null })
      .returning('id').executeTakeFirstOrThrow();
    await db.insertInto('pick_task').values({
      job_id: id, seq: ++s, order_id: orderId, order_line_id: line.id, warehouse_id: warehouseId, customer_id: customer, sku_id: sku, location_id: warehouseId === wh ? loc : loc2,
      lot: '', pallet: '', quantity, picked_qty: picked, short_qty: short, status: picked + short < quantity ? 'Open' : short ? 'Short' : 'Picked',
    }).execute();
  }
  if (j.lastPick !== undefined) {
    const at = ago(j.lastPick);
    await db.insertInto('floor_event').values({
      kind: 'pick', warehouse_id: warehouseId, customer_id: j.lines[0][0], user_id: j.picker ?? null, job_id: id, task_id: null, order_id: null, order_line_id: null, carton_id: null,
      sku_id: null, location_id: null, quantity: 1, at, at_ms: Date.parse(at), business_day: at.slice(0, 10), seconds_since_previous: null,
    }).execute();
  }
  return id;
}

const board = (s: ReturnType<typeof as>, body: Record<string, unknown> = {}) => s.post('/Warehouse/JobTracking/GetBoard', body);
type Job = { jobId: number; status: string; units: number; unitsPicked: number; lines: number; linesPicked: number; progress: number; stuck: boolean; stuckReason: string | null; pickerName: string | null; ageMinutes: number };
const ids = (r: { jobs: Job[] }) => r.jobs.map((j) => j.jobId);
let J: Record<string, number>;

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  wh2 = await makeWarehouse(t.database);
  custA = await makeCustomer(t.database, [wh, wh2]);
  custB = await makeCustomer(t.database, [wh]);
  skuA = await makeSku(t.database, custA);
  skuB = await makeSku(t.database, custB);
  loc = await makeLocation(t.database, wh);
  loc2 = await makeLocation(t.database, wh2);
  picker1 = await makeUser(t.database, { role: 'WarehouseStaff', username: `aa-picker-${Math.random().toString(36).slice(2, 6)}`, warehouseIds: [wh] });
  picker2 = await makeUser(t.database, { role: 'WarehouseStaff', username: `bb-picker-${Math.random().toString(36).slice(2, 6)}`, warehouseIds: [wh] });
  J = {
    // Nobody has started it for 3 h: stuck.
    open: await job({ status: 'Open', zone: 'A', created: 180, lines: [[custA, 5, 0, 0], [custA, 3, 0, 0]] }),
    // Started 50 min ago, last pick 45 min ago: stuck. Client A's line done, client B's half.
    idle: await job({ status: 'In Progress', zone: 'A', picker: picker1.id, created: 60, started: 50, lastPick: 45, lines: [[custA, 4, 4, 0], [custB, 6, 2, 0]] }),
    busy: await job({ status: 'In Progress', zone: 'B', picker: picker2.id, created: 20, started: 10, lastPick: 2, lines: [[custA, 10, 5, 0]] }),
    short: await job({ status: 'Short', zone: 'B', picker: picker2.id, created: 40, started: 35, lastPick: 30, lines: [[custA, 3, 1, 2]] }),
    done: await job({ status: 'Done', zone: 'A', picker: picker1.id, created: 200, started: 190, finished: 120, lines: [[custB, 2, 2, 0]] }),
    old: await job({ status: 'Done', zone: 'A', picker: picker1.id, created: 2000, started: 1990, finished: 1900, lines: [[custA, 1, 1, 0]] }),
    cancelled: await job({ status: 'Cancelled', zone: 'A', created: 30, lines: [[custA, 1, 0, 0]] }),
    other: await job({ warehouseId: wh2, status: 'Assigned', zone: null, created: 5, lines: [[custA, 7, 0, 0]] }),
  };
});
afterAll(async () => { await t?.close(); });

describe('/JobTracking board', () => {
  it('shows the active jobs and those done within a day, with progress, age and the stuck ones', async () => {
    const res = await board(admin, { warehouseId: wh });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(ids(r)).toEqual([J.done, J.open, J.idle, J.short, J.busy]);
    const idle = r.jobs.find((j: Job) => j.jobId === J.idle);
    expect(idle).toMatchObject({ status: 'In Progress', pickerName: picker1.username, lines: 2, linesPicked: 1, units: 10, unitsPicked: 6, progress: 60, stuck: true });
    expect(idle.stuckReason).toMatch(/^No pick for 4[5-9] min$/);
    expect(r.jobs.find((j: Job) => j.jobId === J.open)).toMatchObject({ stuck: true, units: 8, unitsPicked: 0, progress: 0 });
    expect(r.jobs.find((j: Job) => j.jobId === J.busy)).toMatchObject({ stuck: false, progress: 50 });
    expect(r.jobs.find((j: Job) => j.jobId === J.short)).toMatchObject({ stuck: false, unitsShort: 2, progress: 100 });
    // A done job's age runs from creation to its finish.
    expect(r.jobs.find((j: Job) => j.jobId === J.done).ageMinutes).toBe(80);
    expect(r.totals).toEqual({ key: 'Total', jobs: { Open: 1, Assigned: 0, 'In Progress': 2, Short: 1, Done: 1 }, units: 33, unitsPicked: 14, stuck: 2 });
  });

  it('groups the board by picker and by zone', async () => {
    const r = (await board(admin, { warehouseId: wh })).json();
    expect(r.byPicker.map((g: { key: string; jobs: Record<string, number>; units: number }) => [g.key, g.jobs['In Progress'], g.jobs.Done, g.units])).toEqual([
      ['(unassigned)', 0, 0, 8], [picker1.username, 1, 1, 12], [picker2.username, 1, 0, 13],
    ]);
    expect(r.byZone.map((g: { key: string; stuck: number; unitsPicked: number }) => [g.key, g.stuck, g.unitsPicked])).toEqual([['A', 2, 8], ['B', 0, 6]]);
  });

  it('filters by column, picker, zone and stuck', async () => {
    expect(ids((await board(admin, { warehouseId: wh, statuses: ['Done', 'Short'] })).json())).toEqual([J.done, J.short]);
    expect(ids((await board(admin, { warehouseId: wh, pickerId: picker2.id })).json())).toEqual([J.short, J.busy]);
    expect(ids((await board(admin, { warehouseId: wh, zone: 'A' })).json())).toEqual([J.done, J.open, J.idle]);
    expect(ids((await board(admin, { warehouseId: wh, stuckOnly: true })).json())).toEqual([J.open, J.idle]);
    expect(ids((await board(admin, { zone: '' })).json())).toContain(J.other);
  });

  it('holds staff to their warehouses', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh2], customerIds: [custA], modules: { JobTracking: 'read' } });
    const staff = as(t.app, await login(t.app, u.username, u.password));
    expect(ids((await board(staff)).json())).toEqual([J.other]);
    expect((await board(staff, { warehouseId: wh })).statusCode).toBe(403);
  });

  it('shows a client account only the jobs holding its orders, and only its own lines and units', async () => {
    const u = await makeUser(t.database, { role: 'Client', customerId: custB, warehouseIds: [wh], customerIds: [custB], modules: { JobTracking: 'read' } });
    const client = as(t.app, await login(t.app, u.username, u.password));
    const r = (await board(client)).json();
    expect(ids(r)).toEqual([J.done, J.idle]);
    expect(r.jobs.find((j: Job) => j.jobId === J.idle)).toMatchObject({ lines: 1, units: 6, unitsPicked: 2, progress: 33 });
    expect(r.totals.units).toBe(8);
    expect((await board(client, { customerId: custA })).statusCode).toBe(403);
  });

  it('refuses bad filters with the field named', async () => {
    const bad = await board(admin, { statuses: ['Lost'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('statuses');
    expect((await board(admin, { zone: 'A\u0000' })).statusCode).toBe(400);
    expect((await board(admin, { warehouse: 1 })).statusCode).toBe(400);
  });
});

describe('every task in one list', () => {
  type Task = { kind: string; documentId: number; createdAt: string; status: string; who: string | null; late: string | null; stuck: boolean; stuckReason: string | null; durationMinutes: number | null };
  let ro: number, roB: number, wo: number;
  beforeAll(async () => {
    const db = t.database.db;
    const ro$ = (customer: number, expected: string, status: string) => db.insertInto('receiving_order').values({
      ro_number: `RO-JT${++seq}-${Math.random().toString(36).slice(2, 6)}`, warehouse_id: wh, customer_id: customer, supplier: 'S', reference_number: `R${seq}`, expected_date: expected,
      status, notes: null, created_by: null, created_at: ago(600), updated_at: ago(600), received_at: null, finalized_at: null, closed_at: null, cancelled_at: null,
    }).returning('id').executeTakeFirstOrThrow().then((r) => r.id);
    // Client A's RO expected yesterday, receiving begun 40 min ago by picker1, last receipt 35 min ago: late and stuck.
    ro = await ro$(custA, ago(1440).slice(0, 10), 'Receiving');
    const line = await db.insertInto('receiving_order_line').values({ order_id: ro, line_no: 1, sku_id: skuA, expected_qty: 10, notes: null, expiry_date: null }).returning('id').executeTakeFirstOrThrow();
    for (const minutes of [40, 35]) {
      await db.insertInto('receiving_receipt').values({
        order_id: ro, line_id: line.id, warehouse_id: wh, customer_id: custA, sku_id: skuA, location_id: loc, lot: '', expiry_date: null, pallet: '', quantity: 1, damaged_qty: 0,
        damaged_location_id: null, document_id: `RCV-JT-${seq}-${minutes}`, user_id: picker1.id, username: picker1.username, at: ago(minutes),
      }).execute();
    }
    // Client B's RO expected in a year: open, neither late nor stuck.
    roB = await ro$(custB, new Date(Date.now() + 365 * 864e5).toISOString().slice(0, 10), 'Open');
    // A kit work order nobody has started for 3 h: stuck.
    wo = (await db.insertInto('kit_work_order').values({
      wo_number: `WO-JT${++seq}`, warehouse_id: wh, customer_id: custA, type: 'Build', kit_sku_id: skuA, quantity: 2, location_id: loc, component_location_id: null, status: 'Open',
      notes: null, order_line_id: null, created_by: null, created_at: ago(180), updated_at: ago(180), completed_by: null, completed_at: null,
    }).returning('id').executeTakeFirstOrThrow()).id;
  });

  it('lists receipts, kit work orders and pick jobs together with who, status, duration, and what is late or stuck', async () => {
    const r = (await board(admin, { warehouseId: wh })).json();
    const tasks: Task[] = r.tasks;
    const find = (kind: string, id: number) => tasks.find((x) => x.kind === kind && x.documentId === id);
    expect(find('receive', ro)).toMatchObject({ status: 'In Progress', who: picker1.username, stuck: true, stuckReason: 'No step for 35 min' });
    expect(find('receive', ro)!.late).toMatch(/^Expected \d{4}-\d{2}-\d{2}$/);
    expect(find('receive', ro)!.durationMinutes).toBeGreaterThanOrEqual(40);
    expect(find('receive', roB)).toMatchObject({ status: 'Open', late: null, stuck: false, durationMinutes: null });
    expect(find('kit', wo)).toMatchObject({ status: 'Open', stuck: true, stuckReason: 'Not started after 180 min' });
    expect(find('pick', J.idle)).toMatchObject({ status: 'In Progress', who: picker1.username, stuck: true });
    expect(find('pick', J.done)).toMatchObject({ status: 'Done', durationMinutes: 70 });
    // Stuck or late first, then the newest.
    const flagged = tasks.map((x) => x.stuck || x.late !== null);
    expect(flagged.indexOf(false)).toBeGreaterThan(0);
    expect(flagged.slice(flagged.indexOf(false))).not.toContain(true);
    const calm = tasks.filter((x) => !x.stuck && x.late === null).map((x) => x.createdAt);
    expect(calm).toEqual([...calm].sort().reverse());
    const onlyKits = (await board(admin, { warehouseId: wh, kinds: ['kit'] })).json().tasks;
    expect(onlyKits.map((x: Task) => x.kind)).toEqual(['kit']);
  });

  it('a client account sees only its own customer’s tasks', async () => {
    const u = await makeUser(t.database, { role: 'Client', customerId: custB, warehouseIds: [wh], customerIds: [custB], modules: { JobTracking: 'read' } });
    const client = as(t.app, await login(t.app, u.username, u.password));
    const tasks: Task[] = (await board(client)).json().tasks;
    expect(tasks.filter((x) => x.kind !== 'pick').map((x) => [x.kind, x.documentId])).toEqual([['receive', roB]]);
  });
});

describe('stuck rule', () => {
  const now = Date.parse('2026-03-01T12:00:00.000Z');
  it('flags a job in progress idle for 30 minutes, and one waiting unstarted for 2 hours', () => {
    expect(stuckReason({ status: 'In Progress', createdAt: '2026-03-01T10:00:00.000Z', startedAt: '2026-03-01T11:00:00.000Z', lastActivityAt: '2026-03-01T11:31:00.000Z' }, now)).toBeNull();
    expect(stuckReason({ status: 'In Progress', createdAt: '2026-03-01T10:00:00.000Z', startedAt: '2026-03-01T11:00:00.000Z', lastActivityAt: '2026-03-01T11:30:00.000Z' }, now)).toBe('No pick for 30 min');
    expect(stuckReason({ status: 'Assigned', createdAt: '2026-03-01T10:00:00.000Z', startedAt: null, lastActivityAt: null }, now)).toBe('Not started after 120 min');
    expect(stuckReason({ status: 'Open', createdAt: '2026-03-01T10:01:00.000Z', startedAt: null, lastActivityAt: null }, now)).toBeNull();
    expect(stuckReason({ status: 'Short', createdAt: '2026-03-01T00:00:00.000Z', startedAt: null, lastActivityAt: null }, now)).toBeNull();
  });
});
