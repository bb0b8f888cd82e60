import { LABOUR_IDLE_GAP_SECONDS, STAFF_ROLES, type LabourPunch, type LabourShift } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { badRequest, conflict, forbidden } from '../../platform/errors.js';
import { hasModule, type Principal } from '../../platform/principal.js';
import type { Scope } from '../../platform/scope.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import type { WarehouseTimeZones } from '../../platform/business-day.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import { labourRepository as repo } from './labour.repository.js';

/** One shift's arithmetic: clocked, breaks, worked (clocked − breaks), task time per type and per client, idle. */
export interface ShiftTime {
  shiftId: number; userId: number; username: string; warehouseId: number; warehouseName: string; businessDay: string;
  clockIn: string; clockOut: string | null; clockedSeconds: number; breakSeconds: number; workedSeconds: number;
  taskSeconds: number; idleSeconds: number; byKind: Map<string, number>; byCustomer: Map<number, number>;
}

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/**
 * The time a step took: its gap to the same user's previous step, counted only while it is not idle (at most
 * LABOUR_IDLE_GAP_SECONDS), only within the shift (a first step counts from clock-in), and never across a break.
 */
export function stepSeconds(atMs: number, gap: number | null, shift: { start: number; end: number }, breaks: { start: number; end: number }[]): number {
  if (gap === null || gap < 0 || gap > LABOUR_IDLE_GAP_SECONDS) return 0;
  const from = Math.max(atMs - gap * 1000, shift.start);
  if (from >= atMs) return 0;
  const onBreak = breaks.reduce((s, b) => s + overlap(from, atMs, b.start, b.end), 0);
  return Math.round((atMs - from - onBreak) / 1000);
}

/**
 * Labour (/Labor): clock in and out, breaks, per user and warehouse; engineered standards per task type; a client's
 * labour rate. Time per task type comes from the floor's activity log between clock-in and clock-out.
 */
export class LabourService {
  private readonly db: Db;
  private readonly recorder: ChangeRecorder;
  private readonly timeZones: WarehouseTimeZones;
  constructor(deps: Pick<ServiceDeps, 'db' | 'recorder' | 'timeZones'>) {
    this.db = deps.db;
    this.recorder = deps.recorder;
    this.timeZones = deps.timeZones;
  }

  /** A punch for the caller, or (with Labor write) for someone else; each one an audit row. */
  async punch(principal: Principal, input: { warehouseId: number; punch: LabourPunch; userId?: number }, actor: Actor, now = new Date()) {
    if (!STAFF_ROLES.includes(principal.role)) throw forbidden('Only warehouse staff clock in and out');
    const userId = input.userId || principal.userId;
    if (userId !== principal.userId && !hasModule(principal, 'Labor', 'write')) throw forbidden('Only a supervisor with Labor write punches for someone else');
    principal.scope.assert({ warehouseId: input.warehouseId });
    const user = await this.db.selectFrom('app_user').select(['id', 'username']).where('id', '=', userId).executeTakeFirst();
    if (!user) throw badRequest('Unknown user', { userId: `No user ${userId}` });
    const at = now.toISOString();
    const ms = now.getTime();
    const message = await inTransaction(this.db, async (uow) => {
      const open = await repo.openShift(uow.tx, userId);
      if (open && Number(open.warehouse_id) !== input.warehouseId && input.punch !== 'clock-in') {
        throw conflict(`${user.username} is clocked in at another warehouse`);
      }
      let text: string;
      let shiftId: number;
      switch (input.punch) {
        case 'clock-in': {
          if (open) throw conflict(`${user.username} is already clocked in since ${open.clock_in}`);
          const day = await this.timeZones.dayOf(input.warehouseId, now, uow.tx);
          shiftId = await repo.insertShift(uow.tx, { user_id: userId, warehouse_id: input.warehouseId, business_day: day, clock_in: at, clock_in_ms: ms });
          text = `${user.username} clocked in`;
          break;
        }
        case 'clock-out': {
          if (!open) throw conflict(`${user.username} is not clocked in`);
          shiftId = open.id;
          await repo.endBreaks(uow.tx, open.id, ms);
          if (await repo.closeShift(uow.tx, open.id, at, ms) === 0) throw conflict(`${user.username} is not clocked in`);
          text = `${user.username} clocked out`;
          break;
        }
        case 'break-start': {
          if (!open) throw conflict(`${user.username} is not clocked in`);
          if (await repo.openBreak(uow.tx, open.id)) throw conflict(`${user.username} is already on a break`);
          shiftId = open.id;
          await repo.startBreak(uow.tx, open.id, ms);
          text = `${user.username} is on a break`;
          break;
        }
        case 'break-end': {
          if (!open) throw conflict(`${user.username} is not clocked in`);
          if (await repo.endBreaks(uow.tx, open.id, ms) === 0) throw conflict(`${user.username} is not on a break`);
          shiftId = open.id;
          text = `${user.username} is back from the break`;
          break;
        }
      }
      await this.recorder.record(uow, actor, { audit: { action: input.punch, entity: 'labour_shift', entityId: shiftId, warehouseId: input.warehouseId, after: { userId, at } } });
      return text;
    });
    return { message: message, data: (await this.shifts(principal, { warehouseId: input.warehouseId, openOnly: false, userId }, now)).at(-1) ?? null };
  }

  /** Shifts as the screen lists them (who is clocked in, on a break, since when). */
  async shifts(principal: Principal, f: { warehouseId?: number; openOnly?: boolean; userId?: number; from?: string; to?: string }, now = new Date()): Promise<LabourShift[]> {
    const rows = await repo.shifts(this.db, principal.scope, f);
    const breaks = await repo.breaks(this.db, rows.map((r) => r.id));
    const nowMs = now.getTime();
    return rows.map((r) => {
      const mine = breaks.filter((b) => b.shift_id === r.id);
      const end = r.clock_out_ms ?? nowMs;
      return {
        shiftId: r.id, userId: r.user_id, username: r.username, warehouseId: r.warehouse_id, warehouseName: r.warehouse_name,
        clockIn: r.clock_in, clockOut: r.clock_out, onBreak: r.clock_out_ms === null && mine.some((b) => b.end_ms === null),
        breakSeconds: Math.round(mine.reduce((s, b) => s + overlap(b.start_ms, b.end_ms ?? end, r.clock_in_ms, end), 0) / 1000), businessDay: r.business_day,
      };
    });
  }

  /**
   * Each shift begun on the business days, with its time per task type and per client from the activity log
   * (a shift still open counts up to now). Events are the user's own between clock-in and clock-out; a client
   * filter (or a client's scope) keeps only that client's tasks.
   */
  async shiftTimes(scope: Scope, f: { warehouseId?: number; customerId?: number; from: string; to: string; userId?: number }, now = new Date()): Promise<ShiftTime[]> {
    const rows = await repo.shifts(this.db, scope, f);
    const breaks = groupBy(await repo.breaks(this.db, rows.map((r) => r.id)));
    // Every shift's steps in one statement, not one per shift (a year of shifts is thousands).
    const events = groupBy(rows.length ? await repo.shiftEvents(this.db, scope, f, now.getTime(), f.customerId) : []);
    const out: ShiftTime[] = [];
    for (const r of rows) {
      const end = r.clock_out_ms ?? Math.max(now.getTime(), r.clock_in_ms);
      const own = (breaks.get(r.id) ?? []).map((b) => ({ start: b.start_ms, end: b.end_ms ?? end }));
      const breakMs = own.reduce((s, b) => s + overlap(b.start, b.end, r.clock_in_ms, end), 0);
      const byKind = new Map<string, number>();
      const byCustomer = new Map<number, number>();
      let task = 0;
      for (const e of events.get(r.id) ?? []) {
        // A summed shift's task seconds come summed (the rollup's), the steps after them one by one.
        const s = e.stored ?? stepSeconds(e.at_ms, e.gap, { start: r.clock_in_ms, end }, own);
        if (s === 0) continue;
        task += s;
        byKind.set(e.kind, (byKind.get(e.kind) ?? 0) + s);
        byCustomer.set(e.customer_id, (byCustomer.get(e.customer_id) ?? 0) + s);
      }
      const clocked = Math.round((end - r.clock_in_ms) / 1000);
      const worked = clocked - Math.round(breakMs / 1000);
      out.push({
        shiftId: r.id, userId: r.user_id, username: r.username, warehouseId: r.warehouse_id, warehouseName: r.warehouse_name, businessDay: r.business_day,
        clockIn: r.clock_in, clockOut: r.clock_out, clockedSeconds: clocked, breakSeconds: Math.round(breakMs / 1000), workedSeconds: worked,
        taskSeconds: task, idleSeconds: Math.max(0, worked - task), byKind, byCustomer,
      });
    }
    return out;
  }

  async standards(principal: Principal, warehouseId: number) {
    principal.scope.assert({ warehouseId });
    return (await repo.standards(this.db, warehouseId)).map((s) => ({ warehouseId: s.warehouse_id, kind: s.kind, unitsPerHour: s.units_per_hour }));
  }

  async saveStandards(principal: Principal, input: { warehouseId: number; standards: { kind: string; unitsPerHour: number }[] }, actor: Actor) {
    principal.scope.assert({ warehouseId: input.warehouseId });
    if (new Set(input.standards.map((s) => s.kind)).size !== input.standards.length) throw badRequest('A task type appears twice', { standards: 'A task type appears twice' });
    await inTransaction(this.db, async (uow) => {
      await repo.saveStandards(uow.tx, input.warehouseId, input.standards, new Date().toISOString());
      await this.recorder.record(uow, actor, { audit: { action: 'save_standards', entity: 'labour_standard', entityId: input.warehouseId, warehouseId: input.warehouseId, after: input.standards } });
    });
    return { message: 'Standards saved', data: await this.standards(principal, input.warehouseId) };
  }

  rates(principal: Principal, customerId?: number) {
    return repo.rates(this.db, principal.scope, customerId || undefined);
  }

  async saveRate(principal: Principal, input: { customerId: number; rateMinorPerHour: number }, actor: Actor) {
    principal.scope.assert({ customerId: input.customerId });
    await inTransaction(this.db, async (uow) => {
      await repo.saveRate(uow.tx, input.customerId, input.rateMinorPerHour, new Date().toISOString());
      await this.recorder.record(uow, actor, { audit: { action: 'save_rate', entity: 'labour_rate', entityId: input.customerId, customerId: input.customerId, after: { rateMinorPerHour: input.rateMinorPerHour } } });
    });
    return { message: 'Rate saved', data: (await this.rates(principal, input.customerId))[0] ?? null };
  }
}

/** Rows by their shift, in their order. */
export function groupBy<T extends { shift_id: number }>(rows: T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const list = out.get(r.shift_id);
    if (list) list.push(r);
    else out.set(r.shift_id, [r]);
  }
  return out;
}
