import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Scope } from '../../platform/scope.js';
import { expectNoFullScan, planOf } from '../../../test/support/explain.js';
import { labourRepository } from './labour.repository.js';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeUser, makeWarehouse, type TestApp } from '../../../test/helpers.js';
import { stepSeconds } from './labour.service.js';
import { refreshReportRollups } from '../reports/report-rollups.js';

let t: TestApp;
let admin: ReturnType<typeof as>;
let staff: ReturnType<typeof as>;
let staffUser: { id: number; username: string; password: string };
let la: number, tokyo: number, custA: number, custB: number;

async function step(user: number, warehouse: number, kind: string, at: string, gap: number | null, customer: number) {
  await t.database.db.insertInto('floor_event').values({
    kind, warehouse_id: warehouse, customer_id: customer, user_id: user, job_id: null, task_id: null, order_id: null, order_line_id: null, carton_id: null, sku_id: null,
    location_id: null, quantity: 1, at, at_ms: Date.parse(at), business_day: at.slice(0, 10), seconds_since_previous: gap,
  }).execute();
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  la = await makeWarehouse(t.database);
  tokyo = await makeWarehouse(t.database);
  await t.database.db.updateTable('warehouse').set({ timezone: 'America/Los_Angeles' }).where('id', '=', la).execute();
  await t.database.db.updateTable('warehouse').set({ timezone: 'Asia/Tokyo' }).where('id', '=', tokyo).execute();
  custA = await makeCustomer(t.database, [la, tokyo]);
  custB = await makeCustomer(t.database, [la, tokyo]);
  staffUser = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [la, tokyo], customerIds: [custA, custB] }) as never;
  staff = as(t.app, await login(t.app, staffUser.username, staffUser.password));
});
afterAll(async () => { await t?.close(); });

describe('clock in and out', () => {
  it('clock in, a break, clock out; each punch refused when it makes no sense (409), each kept in the audit log', async () => {
    const punch = (p: string) => staff.post('/Warehouse/Labor/Punch', { warehouseId: la, punch: p });
    expect((await punch('clock-out')).statusCode).toBe(409);
    const inn = await punch('clock-in');
    expect(inn.statusCode, inn.body).toBe(200);
    expect(inn.json().data).toMatchObject({ userId: staffUser.id, clockOut: null, onBreak: false });
    expect((await punch('clock-in')).statusCode).toBe(409);
    expect((await punch('break-end')).statusCode).toBe(409);
    expect((await punch('break-start')).json().data.onBreak).toBe(true);
    expect((await punch('break-start')).statusCode).toBe(409);
    const open = (await admin.get(`/Warehouse/Labor/GetShifts?warehouseId=${la}&open=true`)).json();
    expect(open).toEqual([expect.objectContaining({ username: staffUser.username, onBreak: true })]);
    expect((await punch('break-end')).json().data.onBreak).toBe(false);
    const out = await punch('clock-out');
    expect(out.json().data.clockOut).not.toBeNull();
    expect((await admin.get(`/Warehouse/Labor/GetShifts?warehouseId=${la}&open=true`)).json()).toEqual([]);
    const audit = await t.database.db.selectFrom('audit_log').select('action').where('entity', '=', 'labour_shift').orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['clock-in', 'break-start', 'break-end', 'clock-out']);
  });

  it('staff punch for themselves only; a client account cannot punch; bad input is a 400 naming the field', async () => {
    expect((await staff.post('/Warehouse/Labor/Punch', { warehouseId: la, punch: 'clock-in', userId: 1 })).statusCode).toBe(403);
    const bad = await staff.post('/Warehouse/Labor/Punch', { warehouseId: la, punch: 'lunch' });
    expect(bad.statusCode).toBe(400);
    const u = await makeUser(t.database, { role: 'Client', customerId: custA, warehouseIds: [la], customerIds: [custA], modules: { Labor: 'write' } });
    expect((await as(t.app, await login(t.app, u.username, u.password)).post('/Warehouse/Labor/Punch', { warehouseId: la, punch: 'clock-in' })).statusCode).toBe(403);
  });

  it('a shift begun after midnight in Tokyo belongs to Tokyo’s day, whatever the UTC date', async () => {
    const principal = (await t.app.services.auth.principalOfUser(staffUser.id, 'test'))!;
    const actor = { userId: staffUser.id, username: staffUser.username, ip: null, requestId: 'test' } as never;
    await t.app.services.labour.punch(principal, { warehouseId: tokyo, punch: 'clock-in' }, actor, new Date('2026-01-05T16:30:00.000Z'));
    await t.app.services.labour.punch(principal, { warehouseId: tokyo, punch: 'clock-out' }, actor, new Date('2026-01-05T20:30:00.000Z'));
    const [shift] = await t.app.services.labour.shifts(principal, { warehouseId: tokyo });
    expect(shift).toMatchObject({ businessDay: '2026-01-06', clockIn: '2026-01-05T16:30:00.000Z', breakSeconds: 0 });
  });
});

describe('labour time and cost', () => {
  let night: { id: number; username: string };
  beforeAll(async () => {
    night = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [la], customerIds: [custA, custB] }) as never;
    // A night shift in Los Angeles: 22:00 on 5 Jan to 06:00 on 6 Jan local (06:00–14:00 UTC), a half-hour break at 01:00 local.
    const { id } = await t.database.db.insertInto('labour_shift').values({
      user_id: night.id, warehouse_id: la, business_day: '2026-01-05', clock_in: '2026-01-06T06:00:00.000Z', clock_in_ms: Date.parse('2026-01-06T06:00:00.000Z'),
      clock_out: '2026-01-06T14:00:00.000Z', clock_out_ms: Date.parse('2026-01-06T14:00:00.000Z'),
    }).returning('id').executeTakeFirstOrThrow();
    await t.database.db.insertInto('labour_break').values({ shift_id: id, start_ms: Date.parse('2026-01-06T09:00:00.000Z'), end_ms: Date.parse('2026-01-06T09:30:00.000Z') }).execute();
    await step(night.id, la, 'pick', '2026-01-06T06:05:00.000Z', 400, custA); // 300 s: counted from clock-in only
    await step(night.id, la, 'pick', '2026-01-06T08:00:00.000Z', 300, custA); // 300 s
    await step(night.id, la, 'count', '2026-01-06T09:10:00.000Z', 240, custB); // within the break: 0
    await step(night.id, la, 'count', '2026-01-06T09:35:00.000Z', 300, custB); // 300 s (the break ended at 09:30)
    await step(night.id, la, 'count', '2026-01-06T11:00:00.000Z', 1200, custB); // idle gap: 0
    await step(night.id, la, 'pick', '2026-01-06T15:00:00.000Z', 60, custA); // after clock-out: not this shift's
    await admin.post('/Warehouse/Labor/SaveRate', { customerId: custA, rateMinorPerHour: 3000 });
    await admin.post('/Warehouse/Labor/SaveRate', { customerId: custB, rateMinorPerHour: 6000 });
  });
  const report = (s: ReturnType<typeof as>, name: string, filters: Record<string, unknown> = {}) =>
    s.post('/Warehouse/LaborReport/GetReport', { report: name, filters: { preset: 'custom', fromDate: '2026-01-05', toDate: '2026-01-05', warehouseId: la, ...filters } });

  it('clocked, breaks, worked, task time per type and idle, across midnight on the day the shift began', async () => {
    const res = await report(admin, 'labour-time', { userId: night.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rows).toEqual([expect.objectContaining({
      user: night.username, date: '2026-01-05', clockedHours: 8, breakHours: 0.5, workedHours: 7.5, taskHours: 0.25, idleHours: 7.25, utilisation: 3.3,
      'kind:pick': round(600 / 3600), 'kind:count': round(300 / 3600),
    })]);
    // Asked for 6 Jan, the shift is not there: it belongs to the day it began.
    expect((await report(admin, 'labour-time', { userId: night.id, fromDate: '2026-01-06', toDate: '2026-01-06' })).json().rows).toEqual([]);
  });

  it('labour cost per client: hours on the client’s tasks times its rate (minor units)', async () => {
    const r = (await report(admin, 'labour-cost')).json();
    expect(r.rows.map((x: { hours: number; costMinor: number }) => [x.hours, x.costMinor])).toEqual([[0.17, 500], [0.08, 500]]);
    expect(r.totals.costMinor).toBe(1000);
  });

  it('a client account sees its own labour cost only, and never the staff’s time', async () => {
    const u = await makeUser(t.database, { role: 'Client', customerId: custB, warehouseIds: [la], customerIds: [custB], modules: { Labor: 'read' } });
    const c = as(t.app, await login(t.app, u.username, u.password));
    const r = (await report(c, 'labour-cost')).json();
    expect(r.rows).toEqual([expect.objectContaining({ costMinor: 500 })]);
    expect((await report(c, 'labour-time')).statusCode).toBe(403);
  });

  it('the same time and cost from the closed shifts’ sums (the rollup job) as from the steps, and a step recorded after the sums counts', async () => {
    const both = async () => [(await report(admin, 'labour-time')).json(), (await report(admin, 'labour-cost')).json(), (await report(admin, 'labour-cost', { customerId: custB })).json()];
    const before = await both();
    expect(await refreshReportRollups(t.database.db, t.database.dialect)).toBe(true);
    expect(await t.database.db.selectFrom('report_labour_work').select('seconds').where('shift_id', 'in', t.database.db.selectFrom('labour_shift').select('id').where('user_id', '=', night.id)).execute()).not.toHaveLength(0);
    expect(await both()).toEqual(before);
    // A step of the closed shift recorded late (a scanner's offline queue): after the mark, read one by one (+60 s of pick).
    await step(night.id, la, 'pick', '2026-01-06T12:00:00.000Z', 60, custA);
    const [time] = await both();
    expect(time.rows[0]).toMatchObject({ taskHours: round((900 + 60) / 3600), 'kind:pick': round(660 / 3600) });
    await refreshReportRollups(t.database.db, t.database.dialect);
    expect((await both())[0]).toEqual(time);
    // Back as the tests above left it: the late step gone, the shift summed again.
    await t.database.db.deleteFrom('floor_event').where('user_id', '=', night.id).where('at', '=', '2026-01-06T12:00:00.000Z').execute();
    const shiftIds = t.database.db.selectFrom('labour_shift').select('id').where('user_id', '=', night.id);
    await t.database.db.deleteFrom('report_labour_work').where('shift_id', 'in', shiftIds).execute();
    await t.database.db.deleteFrom('report_labour_shift').where('shift_id', 'in', shiftIds).execute();
    expect(await both()).toEqual(before);
  });

  it('a step’s time: the gap up to the idle limit, within the shift, never across a break', () => {
    const shift = { start: 0, end: 8 * 3600_000 };
    expect(stepSeconds(600_000, 60, shift, [])).toBe(60);
    expect(stepSeconds(600_000, 601, shift, [])).toBe(0);
    expect(stepSeconds(30_000, 120, shift, [])).toBe(30);
    expect(stepSeconds(600_000, 300, shift, [{ start: 400_000, end: 500_000 }])).toBe(200);
    expect(stepSeconds(600_000, null, shift, [])).toBe(0);
  });
});

const round = (v: number) => Math.round(v * 100) / 100;

describe('indexes of the labour reports (EXPLAIN)', () => {
  it('labour time and cost read the shifts by warehouse and day, and each shift’s steps by user and time, in one statement', async () => {
    const q = labourRepository.shiftEventsQuery(t.database.db, Scope.everything, { warehouseId: la, from: '2026-01-05', to: '2026-01-11' }, Date.parse('2026-01-12T00:00:00.000Z'));
    const text = await planOf(t, q);
    // The steps by user and time, or (PostgreSQL may start there) only the events after the sums' mark by id.
    expect(text).toMatch(t.database.sqlite ? /floor_event_user/ : /floor_event_(user|pkey)/);
    expect(text).toMatch(/report_labour_work_shift/);
    expect(text).toMatch(/labour_shift_(day|user)/);
    expectNoFullScan(t, text, ['floor_event', 'e', 'labour_shift', 's']);
  });
});
