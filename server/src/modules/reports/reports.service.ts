import {
  DEAD_STOCK_DEFAULT_DAYS, FLOOR_EVENT_KINDS, LABOUR_IDLE_GAP_SECONDS, REPORT_AREAS, REPORTS, type ReportArea, type ReportColumn, type ReportFormat,
  type ApplyAbcResult, type ReportGroup, type ReportKey, type ReportResult, reportFilters,
} from '@bolx/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import { badRequest, forbidden, notFound } from '../../platform/errors.js';
import { hasModule, type Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import type { LabourService } from '../labour/labour.service.js';
import type { InventoryReportService } from '../inventory-reports/inventory-reports.service.js';
import { availability, stockAging, stockAsOf, stockOnHand } from './stock-reports.js';
import { receiptAccuracy, receiptsPerDay, receivingStatus } from './inbound-reports.js';
import { bucketOf, bucketsOf, INTERACTIVE_LIMIT, resolveRange, type RangeLimit } from './report-range.js';
import { reportRepository as repo } from './reports.repository.js';
import { renderReport } from './report-export.js';
import { auditLog, deadStock, dockToStock, emptyLocations, locationUtilisation, skuVelocity, skuVelocityRows } from './other-reports.js';
import { otherReportRepository } from './other-reports.repository.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { col, HOUR_MS, hours, median, n, pct, round, type Built, type Ctx, type Row } from './report-kit.js';

type Filters = z.output<typeof reportFilters>;

/** What the productivity report counts per task type: units for the kinds that move units, steps for the rest. */
export const UNIT_KINDS = new Set(['pick', 'pack', 'receive', 'putaway', 'replenish', 'kit-build', 'ship', 'move']);

/** Fulfilment time buckets (hours from received to shipped), upper bound exclusive. */
export const FULFILMENT_BUCKETS: { label: string; maxHours: number }[] = [
  { label: 'Under 24 h', maxHours: 24 }, { label: '24–48 h', maxHours: 48 }, { label: '48–72 h', maxHours: 72 },
  { label: '3–7 days', maxHours: 168 }, { label: 'Over 7 days', maxHours: Infinity },
];

function timeBuckets(ctx: Ctx, fallback: 'day' | 'week' | 'month'): 'day' | 'week' | 'month' {
  return ctx.group === 'week' || ctx.group === 'month' || ctx.group === 'day' ? ctx.group : fallback;
}

async function ordersPerDay(ctx: Ctx): Promise<Built> {
  const g = timeBuckets(ctx, 'day');
  const [received, processed, shipped] = await Promise.all([
    repo.ordersReceivedPerDay(ctx.db, ctx.dialect, ctx.w),
    repo.ordersReachingPerDay(ctx.db, ctx.dialect, ctx.w, 'Released'),
    repo.ordersReachingPerDay(ctx.db, ctx.dialect, ctx.w, 'Shipped'),
  ]);
  const buckets = bucketsOf(ctx.w.from, ctx.w.to, g);
  const rows = new Map<string, Row>(buckets.map((b) => [b, { date: b, received: 0, processed: 0, shipped: 0 }]));
  const add = (list: { day: string; n: number }[], key: string) => {
    for (const r of list) { const row = rows.get(bucketOf(r.day, g)); if (row) row[key] = n(row[key]) + n(r.n); }
  };
  add(received, 'received'); add(processed, 'processed'); add(shipped, 'shipped');
  const out = [...rows.values()];
  const sum = (k: string) => out.reduce((s, r) => s + n(r[k]), 0);
  return {
    columns: [col('date', 'Date', 'text'), col('received', 'Received'), col('processed', 'Processed'), col('shipped', 'Shipped')],
    rows: out,
    totals: { date: 'Total', received: sum('received'), processed: sum('processed'), shipped: sum('shipped') },
    chart: { type: 'line', xAxis: { data: buckets }, yAxis: { name: 'Orders' }, series: ['received', 'processed', 'shipped'].map((k) => ({ name: k[0].toUpperCase() + k.slice(1), data: out.map((r) => n(r[k])) })) },
  };
}

async function fulfilmentTime(ctx: Ctx): Promise<Built> {
  const shipped = await repo.fulfilmentMs(ctx.db, ctx.dialect, ctx.w);
  const hoursOf = shipped.map((o) => Math.max(0, n(o.ms) / HOUR_MS)).sort((a, b) => a - b);
  const counts = FULFILMENT_BUCKETS.map(() => 0);
  for (const h of hoursOf) counts[FULFILMENT_BUCKETS.findIndex((b) => h < b.maxHours)]++;
  const rows = FULFILMENT_BUCKETS.map((b, i) => ({ bucket: b.label, orders: counts[i], share: pct(counts[i], hoursOf.length) }));
  const mid = median(hoursOf);
  return {
    columns: [col('bucket', 'Received to shipped', 'text'), col('orders', 'Orders'), col('share', 'Share', 'percent')],
    rows,
    totals: {
      bucket: 'Total', orders: hoursOf.length, share: hoursOf.length ? 100 : null,
      averageHours: hoursOf.length ? round(hoursOf.reduce((s, h) => s + h, 0) / hoursOf.length, 1) : null, medianHours: mid === null ? null : round(mid, 1),
    },
    chart: { type: 'bar', xAxis: { name: 'Received to shipped', data: rows.map((r) => r.bucket) }, yAxis: { name: 'Orders' }, series: [{ name: 'Orders', data: counts }] },
  };
}

async function onTimeShipping(ctx: Ctx): Promise<Built> {
  const g = ctx.group ?? 'day';
  const time = g === 'day' || g === 'week' || g === 'month';
  // Counted per group in the database (per ship day for the time buckets), not an order a row.
  const counted = await repo.onTimeGroups(ctx.db, ctx.dialect, ctx.w, time ? 'day' : (g as 'customer' | 'carrier' | 'service'));
  const groups = new Map<string, { shipped: number; dated: number; onTime: number }>(time ? bucketsOf(ctx.w.from, ctx.w.to, g).map((b) => [b, { shipped: 0, dated: 0, onTime: 0 }]) : []);
  for (const r of counted) {
    const k = time ? bucketOf(r.group_key, g) : r.group_key;
    const v = groups.get(k) ?? { shipped: 0, dated: 0, onTime: 0 };
    // On time: shipped on or before the requested ship date (a business day of the warehouse); orders without one are not rated.
    v.shipped += n(r.shipped); v.dated += n(r.dated); v.onTime += n(r.on_time);
    groups.set(k, v);
  }
  const keys = time ? [...groups.keys()] : [...groups.keys()].sort();
  const rows = keys.map((k) => { const v = groups.get(k)!; return { group: k, shipped: v.shipped, withDate: v.dated, onTime: v.onTime, late: v.dated - v.onTime, onTimeRate: pct(v.onTime, v.dated) }; });
  const t = rows.reduce((s, r) => ({ shipped: s.shipped + r.shipped, withDate: s.withDate + r.withDate, onTime: s.onTime + r.onTime }), { shipped: 0, withDate: 0, onTime: 0 });
  return {
    columns: [col('group', time ? 'Date' : g === 'customer' ? 'Client' : g === 'carrier' ? 'Carrier' : 'Service', 'text'), col('shipped', 'Shipped'), col('withDate', 'With a ship date'),
      col('onTime', 'On time'), col('late', 'Late'), col('onTimeRate', 'On-time rate', 'percent')],
    rows,
    totals: { group: 'Total', ...t, late: t.withDate - t.onTime, onTimeRate: pct(t.onTime, t.withDate) },
    chart: { type: time ? 'line' : 'bar', xAxis: { ...(time ? {} : { name: g === 'customer' ? 'Client' : g === 'carrier' ? 'Carrier' : 'Service' }), data: keys }, yAxis: { name: 'On-time rate %' }, series: [{ name: 'On-time rate %', data: rows.map((r) => r.onTimeRate ?? 0) }] },
  };
}

async function orderProfile(ctx: Ctx): Promise<Built> {
  const g = ctx.group ?? 'customer';
  const time = g === 'day' || g === 'week' || g === 'month';
  const raw = await repo.orderProfile(ctx.db, ctx.dialect, ctx.w, time ? 'day' : (g as 'customer' | 'carrier' | 'service'));
  const groups = new Map<string, { orders: number; lines: number; units: number; backordered: number }>(
    time ? bucketsOf(ctx.w.from, ctx.w.to, g).map((b) => [b, { orders: 0, lines: 0, units: 0, backordered: 0 }]) : []);
  for (const r of raw) {
    const k = time ? bucketOf(r.group_key, g) : r.group_key;
    const v = groups.get(k) ?? { orders: 0, lines: 0, units: 0, backordered: 0 };
    v.orders += n(r.orders); v.lines += n(r.lines); v.units += n(r.units); v.backordered += n(r.backordered);
    groups.set(k, v);
  }
  const keys = time ? [...groups.keys()] : [...groups.keys()].sort();
  const shape = (k: string, v: { orders: number; lines: number; units: number; backordered: number }) => ({
    group: k, orders: v.orders, lines: v.lines, units: v.units, linesPerOrder: v.orders ? round(v.lines / v.orders) : null,
    unitsPerOrder: v.orders ? round(v.units / v.orders) : null, backordered: v.backordered, backorderRate: pct(v.backordered, v.orders),
  });
  const rows = keys.map((k) => shape(k, groups.get(k)!));
  const total = [...groups.values()].reduce((s, v) => ({ orders: s.orders + v.orders, lines: s.lines + v.lines, units: s.units + v.units, backordered: s.backordered + v.backordered }),
    { orders: 0, lines: 0, units: 0, backordered: 0 });
  return {
    columns: [col('group', time ? 'Date' : g === 'customer' ? 'Client' : g === 'carrier' ? 'Carrier' : 'Service', 'text'), col('orders', 'Orders'), col('lines', 'Lines'), col('units', 'Units'),
      col('linesPerOrder', 'Lines per order'), col('unitsPerOrder', 'Units per order'), col('backordered', 'Backordered'), col('backorderRate', 'Backorder rate', 'percent')],
    rows,
    totals: shape('Total', total),
    chart: { type: 'bar', xAxis: { ...(time ? {} : { name: g === 'customer' ? 'Client' : g === 'carrier' ? 'Carrier' : 'Service' }), data: keys }, yAxis: { name: 'Orders' }, series: [{ name: 'Orders', data: rows.map((r) => r.orders) }, { name: 'Backordered', data: rows.map((r) => r.backordered) }] },
  };
}

/** Local label of a UTC hour bucket in a zone: 'YYYY-MM-DD HH:00'. */
function hourLabel(bucket: number, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' })
    .formatToParts(new Date(bucket * HOUR_MS));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:00`;
}

interface Work { steps: number; units: number; lines: number; seconds: number }
/** Sums per key of the activity log's work, and the earned hours against each warehouse's standards. */
async function floorWork(ctx: Ctx, keyOf: (r: { user_id: number | null; username: string | null; bucket: string | number; warehouse_id: number }) => string) {
  const byHour = ctx.group === 'hour';
  const [rows, standards] = await Promise.all([
    repo.floorWork(ctx.db, ctx.dialect, ctx.w, LABOUR_IDLE_GAP_SECONDS, byHour),
    repo.standards(ctx.db, ctx.w.warehouseId ? [ctx.w.warehouseId] : ctx.principal.scope.warehouses),
  ]);
  const standard = new Map(standards.map((s) => [`${s.warehouse_id}:${s.kind}`, s.units_per_hour]));
  const groups = new Map<string, { kinds: Map<string, Work>; seconds: number; earnedSeconds: number; ratedSeconds: number }>();
  for (const r of rows) {
    const k = keyOf(r);
    const g = groups.get(k) ?? { kinds: new Map<string, Work>(), seconds: 0, earnedSeconds: 0, ratedSeconds: 0 };
    const w = g.kinds.get(r.kind) ?? { steps: 0, units: 0, lines: 0, seconds: 0 };
    w.steps += n(r.steps); w.units += n(r.units); w.lines += n(r.lines); w.seconds += n(r.seconds);
    g.kinds.set(r.kind, w);
    g.seconds += n(r.seconds);
    const perHour = standard.get(`${r.warehouse_id}:${r.kind}`);
    if (perHour) {
      // Earned time: what the work would take at the engineered standard; performance = earned / actual.
      g.earnedSeconds += ((UNIT_KINDS.has(r.kind) ? n(r.units) : n(r.steps)) / perHour) * 3600;
      g.ratedSeconds += n(r.seconds);
    }
    groups.set(k, g);
  }
  return groups;
}

function productivityRow(key: string, g: { kinds: Map<string, Work>; seconds: number; earnedSeconds: number; ratedSeconds: number }): Row {
  const k = (kind: string) => g.kinds.get(kind) ?? { steps: 0, units: 0, lines: 0, seconds: 0 };
  const units = [...g.kinds.entries()].filter(([kind]) => UNIT_KINDS.has(kind)).reduce((s, [, w]) => s + w.units, 0);
  return {
    group: key, picks: k('pick').steps, unitsPicked: k('pick').units, linesPicked: k('pick').lines, receipts: k('receive').steps, putaways: k('putaway').steps,
    counts: k('count').steps, packs: k('pack').steps, taskHours: hours(g.seconds),
    picksPerHour: k('pick').seconds ? round(k('pick').units / (k('pick').seconds / 3600), 1) : null,
    unitsPerHour: g.seconds ? round(units / (g.seconds / 3600), 1) : null,
    performance: g.ratedSeconds ? round((g.earnedSeconds / g.ratedSeconds) * 100, 1) : null,
  };
}
const PRODUCTIVITY_COLUMNS = (first: string): ReportColumn[] => [
  col('group', first, 'text'), col('picks', 'Picks'), col('unitsPicked', 'Units picked'), col('linesPicked', 'Lines picked'), col('receipts', 'Receipts'),
  col('putaways', 'Putaways'), col('counts', 'Counts'), col('packs', 'Packs'), col('taskHours', 'Task hours', 'hours'), col('picksPerHour', 'Units picked per hour'),
  col('unitsPerHour', 'Units per hour'), col('performance', 'Against standard', 'percent'),
];
function sumGroups(groups: Iterable<{ kinds: Map<string, Work>; seconds: number; earnedSeconds: number; ratedSeconds: number }>) {
  const all = { kinds: new Map<string, Work>(), seconds: 0, earnedSeconds: 0, ratedSeconds: 0 };
  for (const g of groups) {
    all.seconds += g.seconds; all.earnedSeconds += g.earnedSeconds; all.ratedSeconds += g.ratedSeconds;
    for (const [kind, w] of g.kinds) {
      const a = all.kinds.get(kind) ?? { steps: 0, units: 0, lines: 0, seconds: 0 };
      a.steps += w.steps; a.units += w.units; a.lines += w.lines; a.seconds += w.seconds;
      all.kinds.set(kind, a);
    }
  }
  return all;
}

/** Per user (the ranking, best performance first) or per user and day/hour. */
async function productivity(ctx: Ctx): Promise<Built> {
  const g = ctx.group ?? 'user';
  const bucket = (r: { bucket: string | number; warehouse_id: number }) => g === 'hour' ? hourLabel(n(r.bucket), ctx.zoneOf(r.warehouse_id)) : String(r.bucket);
  const groups = await floorWork(ctx, (r) => g === 'user' ? (r.username ?? `#${r.user_id}`) : `${r.username ?? `#${r.user_id}`}\u0000${bucket(r)}`);
  let rows: Row[] = [...groups.entries()].map(([k, v]) => {
    const [user, when] = k.split('\u0000');
    return { ...productivityRow(user, v), ...(g === 'user' ? {} : { when }) };
  });
  rows = g === 'user'
    ? rows.sort((a, b) => n(b.performance ?? -1) - n(a.performance ?? -1) || n(b.unitsPerHour) - n(a.unitsPerHour) || String(a.group).localeCompare(String(b.group)))
    : rows.sort((a, b) => String(a.group).localeCompare(String(b.group)) || String(a.when).localeCompare(String(b.when)));
  if (g === 'user') rows = rows.map((r, i) => ({ rank: i + 1, ...r }));
  const columns = PRODUCTIVITY_COLUMNS('User');
  if (g === 'user') columns.unshift(col('rank', 'Rank'));
  else columns.splice(1, 0, col('when', g === 'hour' ? 'Hour' : 'Date', 'text'));
  const chartRows = g === 'user' ? rows : [];
  return {
    columns, rows, totals: { ...productivityRow('Total', sumGroups(groups.values())), ...(g === 'user' ? { rank: null } : { when: null }) },
    chart: chartRows.length ? { type: 'bar', xAxis: { name: 'User', data: chartRows.map((r) => String(r.group)) }, yAxis: { name: 'Units per hour' }, series: [{ name: 'Units per hour', data: chartRows.map((r) => n(r.unitsPerHour)) }] } : null,
  };
}

/** The team's work over time: one row per day (week, month or hour), a trend chart of units per hour. */
async function productivityTrend(ctx: Ctx): Promise<Built> {
  const g = ctx.group ?? 'day';
  const byHour = g === 'hour';
  const groups = await floorWork(ctx, (r) => byHour ? hourLabel(n(r.bucket), ctx.zoneOf(r.warehouse_id)) : bucketOf(String(r.bucket), g as 'day' | 'week' | 'month'));
  const keys = byHour ? [...groups.keys()].sort() : bucketsOf(ctx.w.from, ctx.w.to, g as 'day' | 'week' | 'month');
  const empty = { kinds: new Map<string, Work>(), seconds: 0, earnedSeconds: 0, ratedSeconds: 0 };
  const rows = keys.map((k) => productivityRow(k, groups.get(k) ?? empty));
  return {
    columns: PRODUCTIVITY_COLUMNS(byHour ? 'Hour' : 'Date'), rows, totals: productivityRow('Total', sumGroups(groups.values())),
    chart: { type: 'line', xAxis: { data: keys }, yAxis: { name: 'Units per hour' }, series: [{ name: 'Units per hour', data: rows.map((r) => n(r.unitsPerHour)) }, { name: 'Against standard %', data: rows.map((r) => n(r.performance)) }] },
  };
}

async function labourTime(ctx: Ctx): Promise<Built> {
  if (ctx.principal.role === 'Client') throw forbidden('Labour time is the warehouse staff’s: a client account sees labour cost only');
  const shifts = await ctx.labour.shiftTimes(ctx.principal.scope, { ...ctx.w }, ctx.now);
  const kinds = FLOOR_EVENT_KINDS.filter((k) => shifts.some((s) => s.byKind.has(k)));
  const rows = shifts.map((s) => ({
    user: s.username, date: s.businessDay, warehouse: s.warehouseName, clockIn: s.clockIn, clockOut: s.clockOut,
    clockedHours: hours(s.clockedSeconds), breakHours: hours(s.breakSeconds), workedHours: hours(s.workedSeconds), taskHours: hours(s.taskSeconds), idleHours: hours(s.idleSeconds),
    utilisation: pct(s.taskSeconds, s.workedSeconds), ...Object.fromEntries(kinds.map((k) => [`kind:${k}`, hours(s.byKind.get(k) ?? 0)])),
  }));
  const sum = (f: (s: (typeof shifts)[number]) => number) => shifts.reduce((a, s) => a + f(s), 0);
  return {
    columns: [col('user', 'User', 'text'), col('date', 'Date', 'text'), col('warehouse', 'Warehouse', 'text'), col('clockIn', 'Clock in', 'text'), col('clockOut', 'Clock out', 'text'),
      col('clockedHours', 'Clocked', 'hours'), col('breakHours', 'Breaks', 'hours'), col('workedHours', 'Worked', 'hours'), col('taskHours', 'On tasks', 'hours'),
      col('idleHours', 'Idle', 'hours'), col('utilisation', 'Utilisation', 'percent'), ...kinds.map((k) => col(`kind:${k}`, k, 'hours'))],
    rows,
    totals: {
      user: 'Total', clockedHours: hours(sum((s) => s.clockedSeconds)), breakHours: hours(sum((s) => s.breakSeconds)), workedHours: hours(sum((s) => s.workedSeconds)),
      taskHours: hours(sum((s) => s.taskSeconds)), idleHours: hours(sum((s) => s.idleSeconds)), utilisation: pct(sum((s) => s.taskSeconds), sum((s) => s.workedSeconds)),
      ...Object.fromEntries(kinds.map((k) => [`kind:${k}`, hours(sum((s) => s.byKind.get(k) ?? 0))])),
    },
    chart: rows.length ? {
      type: 'bar', xAxis: { name: 'User and day', data: rows.map((r) => `${r.user} ${r.date}`) }, yAxis: { name: 'Hours' },
      series: [{ name: 'On tasks', data: rows.map((r) => r.taskHours) }, { name: 'Idle', data: rows.map((r) => r.idleHours) }, { name: 'Breaks', data: rows.map((r) => r.breakHours) }],
    } : null,
  };
}

/** Hours on each client's tasks (from the activity log within shifts) times the client's labour rate. */
async function labourCost(ctx: Ctx): Promise<Built> {
  const shifts = await ctx.labour.shiftTimes(ctx.principal.scope, { ...ctx.w, warehouseId: ctx.w.warehouseId }, ctx.now);
  const rates = await ctx.labour.rates(ctx.principal, ctx.w.customerId);
  const seconds = new Map<number, number>();
  for (const s of shifts) for (const [c, sec] of s.byCustomer) seconds.set(c, (seconds.get(c) ?? 0) + sec);
  const rows = rates.filter((r) => seconds.has(r.customerId)).map((r) => {
    const sec = seconds.get(r.customerId)!;
    return { client: r.customerName, hours: hours(sec), rateMinorPerHour: r.rateMinorPerHour, costMinor: Math.round((sec * r.rateMinorPerHour) / 3600) };
  });
  return {
    columns: [col('client', 'Client', 'text'), col('hours', 'Hours on tasks', 'hours'), col('rateMinorPerHour', 'Rate per hour', 'money'), col('costMinor', 'Labour cost', 'money')],
    rows,
    totals: { client: 'Total', hours: round(rows.reduce((s, r) => s + r.hours, 0)), rateMinorPerHour: null, costMinor: rows.reduce((s, r) => s + r.costMinor, 0) },
    chart: rows.length ? { type: 'bar', xAxis: { name: 'Client', data: rows.map((r) => r.client) }, yAxis: { name: 'Labour cost' }, series: [{ name: 'Labour cost', data: rows.map((r) => r.costMinor / 100) }] } : null,
  };
}

const BUILDERS: Record<ReportKey, (ctx: Ctx) => Promise<Built>> = {
  'orders-per-day': ordersPerDay, 'fulfilment-time': fulfilmentTime, 'on-time-shipping': onTimeShipping, 'order-profile': orderProfile,
  productivity, 'productivity-trend': productivityTrend, 'labour-time': labourTime, 'labour-cost': labourCost,
  'location-utilisation': locationUtilisation, 'empty-locations': emptyLocations, 'sku-velocity': skuVelocity, 'dead-stock': deadStock,
  'audit-log': auditLog, 'dock-to-stock': dockToStock,
  'stock-on-hand': stockOnHand, availability, 'stock-aging': stockAging, 'stock-as-of': stockAsOf,
  'receipts-per-day': receiptsPerDay, 'receiving-status': receivingStatus, 'receipt-accuracy': receiptAccuracy,
};

/**
 * Every report through one pattern: the filters checked (scope, known values, the range limit), the report built
 * (columns, rows, totals, chart), and the same result exported as Excel, CSV or PDF.
 */
export class ReportService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder'>, private readonly labour: LabourService, private readonly stock: InventoryReportService) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
  }

  /** Whether the caller may read a report: its screen's module. */
  mayRead(principal: Principal, report: ReportKey): boolean {
    return hasModule(principal, REPORT_AREAS[REPORTS[report].area].module, 'read');
  }

  async run(principal: Principal, area: ReportArea | null, report: ReportKey, filters: Filters, now = new Date(), limit: RangeLimit = INTERACTIVE_LIMIT): Promise<ReportResult> {
    const ctx = await this.context(principal, area, report, filters, now, limit);
    const built = await BUILDERS[report](ctx);
    return { report, title: REPORTS[report].title, fromDate: ctx.w.from, toDate: ctx.w.to, groupBy: ctx.group, ...built };
  }

  /** The filters of one report checked (screen, read permission, grouping, scope, known values, range) into a builder's context. */
  /** Checks a report's filters for the caller without building it (a job or a subscription refused now, not later). */
  async check(principal: Principal, area: ReportArea | null, report: ReportKey, filters: Filters, limit: RangeLimit = INTERACTIVE_LIMIT): Promise<{ warehouseId?: number; customerId?: number; zone: string }> {
    const ctx = await this.context(principal, area, report, filters, new Date(), limit);
    return { warehouseId: ctx.w.warehouseId, customerId: ctx.w.customerId, zone: ctx.w.warehouseId ? ctx.zoneOf(ctx.w.warehouseId) : 'UTC' };
  }

  /**
   * A report's totals as the dashboard shows them: the same builder over the caller's scope, admitted by the
   * dashboard's own right (a tile names one figure of a report the user need not be able to open).
   */
  async totals(principal: Principal, report: 'on-time-shipping' | 'dock-to-stock', filters: Filters, now = new Date()): Promise<Row> {
    return (await BUILDERS[report](await this.scoped(principal, report, filters, now))).totals;
  }

  private async context(principal: Principal, area: ReportArea | null, report: ReportKey, filters: Filters, now: Date, limit: RangeLimit = INTERACTIVE_LIMIT): Promise<Ctx> {
    const def = REPORTS[report];
    if (area && def.area !== area) throw badRequest(`${def.title} is not a report of ${REPORT_AREAS[area].title}`, { report: 'Not a report of this screen' });
    if (!this.mayRead(principal, report)) throw forbidden(`You may not read ${def.title}`);
    return this.scoped(principal, report, filters, now, limit);
  }

  /** The rest of a report's checks (grouping, scope, known values, range) into a builder's context. */
  private async scoped(principal: Principal, report: ReportKey, filters: Filters, now: Date, limit: RangeLimit = INTERACTIVE_LIMIT): Promise<Ctx> {
    const def = REPORTS[report];
    const groups = def.groups as readonly ReportGroup[];
    if (filters.groupBy && !groups.includes(filters.groupBy)) {
      throw badRequest(`${def.title} groups by ${groups.length ? groups.join(', ') : 'nothing'}`, { groupBy: `Choose one of: ${groups.join(', ') || 'none'}` });
    }
    // A client account is held to its own customer whatever it asks for (the scope refuses another with 403).
    const customerId = filters.customerId || principal.customerId || undefined;
    principal.scope.assert({ warehouseId: filters.warehouseId, customerId });
    let zone = 'UTC';
    if (filters.warehouseId) {
      const wh = await repo.warehouseExists(this.db, filters.warehouseId);
      if (!wh) throw badRequest('Unknown warehouse', { warehouseId: `No warehouse ${filters.warehouseId}` });
      zone = wh.timezone;
    }
    if (customerId && !(await repo.customerExists(this.db, customerId))) throw badRequest('Unknown client', { customerId: `No client ${customerId}` });
    if (filters.userId && !(await repo.userExists(this.db, filters.userId))) throw badRequest('Unknown user', { userId: `No user ${filters.userId}` });
    const range = resolveRange(filters, zone, now, limit);
    const zones = new Map((await repo.timeZones(this.db)).map((w) => [w.id, w.timezone]));
    return {
      db: this.db, dialect: this.dialect, principal, labour: this.labour, stock: this.stock, now, group: filters.groupBy ?? groups[0] ?? null,
      w: {
        scope: principal.scope, warehouseId: filters.warehouseId || undefined, customerId, from: range.from, to: range.to, userId: filters.userId || undefined, kind: filters.kind,
        zones: filters.warehouseId ? [zone] : [...new Set(zones.values())],
      },
      zoneOf: (id) => zones.get(id) ?? 'UTC', days: filters.days ?? DEAD_STOCK_DEFAULT_DAYS,
    };
  }

  /**
   * Stores the ABC classes of the SKU velocity report (its filters) on the SKUs, where cycle counts select by them:
   * staff with write on /OtherReports only; one audit row per SKU whose class changes.
   */
  async applyAbc(principal: Principal, filters: Filters, actor: Actor): Promise<{ message: string; data: ApplyAbcResult }> {
    if (principal.role === 'Client' || !hasModule(principal, REPORT_AREAS.OtherReport.module, 'write')) throw forbidden('Applying ABC classes needs write on Other Reports');
    const rows = await skuVelocityRows(await this.context(principal, 'OtherReport', 'sku-velocity', filters, new Date()));
    const at = new Date().toISOString();
    const changed = await inTransaction(this.db, async (uow) => {
      const c = await otherReportRepository.setAbcClasses(uow.tx, rows.map((r) => ({ id: r.skuId, before: r.currentClass || null, after: r.abcClass })), at);
      if (c.length) {
        await this.recorder.record(uow, actor, { audit: c.map((x) => ({ action: 'SetAbcClass', entity: 'sku', entityId: x.id, before: { abcClass: x.before }, after: { abcClass: x.after } })) });
      }
      return c.length;
    });
    const count = (cls: string) => rows.filter((r) => r.abcClass === cls).length;
    return { message: `ABC classes applied: ${changed} SKU${changed === 1 ? '' : 's'} changed`, data: { A: count('A'), B: count('B'), C: count('C'), changed } };
  }

  async download(principal: Principal, area: ReportArea, input: { report: ReportKey; filters: Filters; format: ReportFormat }) {
    return renderReport(await this.run(principal, area, input.report, input.filters), input.format);
  }

  // ---- Saved views: a user's named filters of a report ----

  async views(principal: Principal, report: ReportKey) {
    if (!this.mayRead(principal, report)) throw forbidden(`You may not read ${REPORTS[report].title}`);
    return (await repo.views(this.db, principal.userId, report)).map((v) => ({
      viewId: v.id, report: v.report as ReportKey, name: v.name, filters: reportFilters.parse(JSON.parse(v.filters)), updatedAt: v.updated_at,
    }));
  }

  async saveView(principal: Principal, input: { viewId?: number; report: ReportKey; name: string; filters: Filters }, actor: Actor) {
    if (!this.mayRead(principal, input.report)) throw forbidden(`You may not read ${REPORTS[input.report].title}`);
    principal.scope.assert({ warehouseId: input.filters.warehouseId, customerId: input.filters.customerId });
    const at = new Date().toISOString();
    const id = await inTransaction(this.db, async (uow) => {
      if (input.viewId) {
        const r = await uow.tx.updateTable('report_view').set({ name: input.name, filters: JSON.stringify(input.filters), updated_at: at })
          .where('id', '=', input.viewId).where('user_id', '=', principal.userId).executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0) throw notFound('Saved view');
        return input.viewId;
      }
      const same = await uow.tx.selectFrom('report_view').select('id').where('user_id', '=', principal.userId).where('report', '=', input.report).where('name', '=', input.name).executeTakeFirst();
      if (same) {
        await uow.tx.updateTable('report_view').set({ filters: JSON.stringify(input.filters), updated_at: at }).where('id', '=', same.id).execute();
        return same.id;
      }
      return (await uow.tx.insertInto('report_view').values({ user_id: principal.userId, report: input.report, name: input.name, filters: JSON.stringify(input.filters), updated_at: at })
        .returning('id').executeTakeFirstOrThrow()).id;
    });
    void actor;
    return { message: `View ${input.name} saved`, data: (await this.views(principal, input.report)).find((v) => v.viewId === id)! };
  }

  async deleteView(principal: Principal, viewId: number) {
    const r = await this.db.deleteFrom('report_view').where('id', '=', viewId).where('user_id', '=', principal.userId).executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw notFound('Saved view');
    return { message: 'View deleted', data: { viewId } };
  }
}
