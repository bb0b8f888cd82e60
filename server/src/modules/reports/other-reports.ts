import { ABC_CLASSES, ABC_CUMULATIVE_PERCENT, AUDIT_REPORT_MAX_ROWS } from '@bolx/contracts';
import { businessDay } from '../../platform/business-day.js';
import { forbidden } from '../../platform/errors.js';
import { col, HOUR_MS, median, n, pct, round, type Built, type Ctx } from './report-kit.js';
import { otherReportRepository as repo } from './other-reports.repository.js';

const DAY_MS = 24 * HOUR_MS;
type AbcClass = (typeof ABC_CLASSES)[number];

/** Locations are the warehouse's, not a client's: a client account sees its stock's figures on the other reports. */
function staffOnly(ctx: Ctx, what: string) {
  if (ctx.principal.role === 'Client') throw forbidden(`${what} is the warehouse staff’s report`);
}

export async function locationUtilisation(ctx: Ctx): Promise<Built> {
  const zones = await repo.positionsByZone(ctx.db, ctx.w);
  const rows = zones.map((z) => ({
    warehouse: z.warehouse_name, zone: z.zone || '(no zone)', locations: n(z.total), used: n(z.used), empty: n(z.total) - n(z.used), utilisation: pct(n(z.used), n(z.total)),
  }));
  const total = rows.reduce((s, r) => ({ locations: s.locations + r.locations, used: s.used + r.used }), { locations: 0, used: 0 });
  return {
    columns: [col('warehouse', 'Warehouse', 'text'), col('zone', 'Zone', 'text'), col('locations', 'Locations'), col('used', 'Holding stock'), col('empty', 'Empty'), col('utilisation', 'Utilisation', 'percent')],
    rows,
    totals: { warehouse: 'Total', ...total, empty: total.locations - total.used, utilisation: pct(total.used, total.locations) },
    chart: rows.length ? { type: 'bar', xAxis: { name: 'Zone', data: rows.map((r) => `${r.warehouse} ${r.zone}`) }, yAxis: { name: 'Utilisation %' }, series: [{ name: 'Utilisation %', data: rows.map((r) => r.utilisation ?? 0) }] } : null,
  };
}

export async function emptyLocations(ctx: Ctx): Promise<Built> {
  staffOnly(ctx, 'Empty locations');
  const rows = (await repo.emptyPositions(ctx.db, ctx.w)).map((l) => ({ warehouse: l.warehouse_name, location: l.code, zone: l.zone ?? '', type: l.type }));
  return {
    columns: [col('warehouse', 'Warehouse', 'text'), col('location', 'Location', 'text'), col('zone', 'Zone', 'text'), col('type', 'Type', 'text')],
    rows, totals: { warehouse: 'Total', location: `${rows.length} empty` }, chart: null,
  };
}

/** ABC class of a SKU from the share of units picked before it (SKUs ranked by units, most first). */
export function abcClassOf(cumulativeBeforePercent: number, units: number): AbcClass {
  if (units > 0 && cumulativeBeforePercent < ABC_CUMULATIVE_PERCENT.A) return 'A';
  if (units > 0 && cumulativeBeforePercent < ABC_CUMULATIVE_PERCENT.B) return 'B';
  return 'C';
}

/** SKUs ranked by units picked, with their share, cumulative share and ABC class (and the class stored now). */
export async function skuVelocityRows(ctx: Ctx) {
  const skus = await repo.skuVelocity(ctx.db, ctx.w);
  const total = skus.reduce((s, r) => s + n(r.units), 0);
  let before = 0;
  return skus.map((s) => {
    const units = n(s.units);
    const cls = abcClassOf(total ? (before / total) * 100 : 100, units);
    before += units;
    return {
      skuId: n(s.id), sku: s.sku_code, description: s.description, client: s.customer_name, units, picks: n(s.picks), lines: n(s.lines),
      share: pct(units, total), cumulative: pct(before, total), abcClass: cls, currentClass: s.abc_class ?? '',
    };
  });
}

export async function skuVelocity(ctx: Ctx): Promise<Built> {
  const all = await skuVelocityRows(ctx);
  const rows = all.map(({ skuId: _, ...r }) => r);
  const count = (c: AbcClass) => rows.filter((r) => r.abcClass === c).length;
  const top = rows.filter((r) => r.units > 0).slice(0, 20);
  return {
    columns: [col('sku', 'SKU', 'text'), col('description', 'Description', 'text'), col('client', 'Client', 'text'), col('units', 'Units picked'), col('picks', 'Picks'),
      col('lines', 'Order lines'), col('share', 'Share', 'percent'), col('cumulative', 'Cumulative', 'percent'), col('abcClass', 'ABC class', 'text'), col('currentClass', 'Class on the SKU', 'text')],
    rows,
    totals: { sku: 'Total', units: rows.reduce((s, r) => s + r.units, 0), picks: rows.reduce((s, r) => s + r.picks, 0), lines: rows.reduce((s, r) => s + r.lines, 0),
      share: rows.some((r) => r.units > 0) ? 100 : null, abcClass: `A ${count('A')} · B ${count('B')} · C ${count('C')}` },
    chart: top.length ? { type: 'bar', xAxis: { name: 'SKU', data: top.map((r) => r.sku) }, yAxis: { name: 'Units picked' }, series: [{ name: 'Units picked', data: top.map((r) => r.units) }] } : null,
  };
}

export async function deadStock(ctx: Ctx): Promise<Built> {
  const now = ctx.now.getTime();
  const rows = (await repo.deadStock(ctx.db, ctx.w, new Date(now - ctx.days * DAY_MS).toISOString())).map((r) => ({
    warehouse: r.warehouse_name, client: r.customer_name, sku: r.sku_code, description: r.description, onHand: n(r.on_hand),
    lastMovement: r.last_at ? String(r.last_at).slice(0, 10) : '', daysIdle: r.last_at ? Math.floor((now - Date.parse(r.last_at)) / DAY_MS) : null,
  }));
  return {
    columns: [col('warehouse', 'Warehouse', 'text'), col('client', 'Client', 'text'), col('sku', 'SKU', 'text'), col('description', 'Description', 'text'), col('onHand', 'On hand'),
      col('lastMovement', 'Last movement', 'text'), col('daysIdle', 'Days without movement')],
    rows, totals: { warehouse: 'Total', sku: `${rows.length} SKUs`, onHand: rows.reduce((s, r) => s + r.onHand, 0) }, chart: null,
  };
}

export async function auditLog(ctx: Ctx): Promise<Built> {
  staffOnly(ctx, 'The audit log');
  const zone = ctx.w.warehouseId ? ctx.zoneOf(ctx.w.warehouseId) : 'UTC';
  const rows = (await repo.auditRows(ctx.db, ctx.w, AUDIT_REPORT_MAX_ROWS))
    .filter((a) => { const day = businessDay(zone, a.at); return day >= ctx.w.from && day <= ctx.w.to; })
    .map((a) => ({ at: a.at, user: a.username ?? '', action: a.action, entity: a.entity, entityId: a.entity_id ?? '' }));
  return {
    columns: [col('at', 'When', 'text'), col('user', 'User', 'text'), col('action', 'Action', 'text'), col('entity', 'Record', 'text'), col('entityId', 'Record id', 'text')],
    rows, totals: { at: 'Total', user: `${rows.length} changes${rows.length >= AUDIT_REPORT_MAX_ROWS ? ` (the newest ${AUDIT_REPORT_MAX_ROWS}; narrow the range for more)` : ''}` }, chart: null,
  };
}

/** Dock-to-stock time buckets (hours from the first receipt to the last putaway), upper bound exclusive. */
export const DOCK_TO_STOCK_BUCKETS: { label: string; maxHours: number }[] = [
  { label: 'Under 4 h', maxHours: 4 }, { label: '4–12 h', maxHours: 12 }, { label: '12–24 h', maxHours: 24 }, { label: '24–48 h', maxHours: 48 }, { label: 'Over 48 h', maxHours: Infinity },
];

/** Receiving orders fully put away within the days: hours from the first receipt at the dock to the last putaway. */
export async function dockToStock(ctx: Ctx): Promise<Built> {
  const done = (await repo.dockToStock(ctx.db, ctx.w)).filter((r) => {
    const day = businessDay(ctx.zoneOf(n(r.warehouse_id)), r.last_putaway);
    return n(r.put_away) >= n(r.received) && day >= ctx.w.from && day <= ctx.w.to;
  });
  const rows = done.map((r) => ({
    ro: r.ro_number, client: r.customer_name, units: n(r.received), firstReceipt: r.first_receipt, stockedAt: r.last_putaway,
    hours: round(Math.max(0, Date.parse(r.last_putaway) - Date.parse(r.first_receipt)) / HOUR_MS, 1),
  }));
  const sorted = rows.map((r) => r.hours).sort((a, b) => a - b);
  const counts = DOCK_TO_STOCK_BUCKETS.map((b) => rows.filter((r) => r.hours < b.maxHours).length);
  const perBucket = counts.map((c, i) => c - (i ? counts[i - 1] : 0));
  const mid = median(sorted);
  return {
    columns: [col('ro', 'Receiving order', 'text'), col('client', 'Client', 'text'), col('units', 'Units'), col('firstReceipt', 'First receipt', 'text'),
      col('stockedAt', 'Put away', 'text'), col('hours', 'Dock to stock', 'hours')],
    rows,
    totals: {
      ro: 'Total', units: rows.reduce((s, r) => s + r.units, 0), hours: rows.length ? round(sorted.reduce((s, h) => s + h, 0) / rows.length, 1) : null,
      averageHours: rows.length ? round(sorted.reduce((s, h) => s + h, 0) / rows.length, 1) : null, medianHours: mid === null ? null : round(mid, 1),
    },
    chart: rows.length ? { type: 'bar', xAxis: { name: 'Dock to stock', data: DOCK_TO_STOCK_BUCKETS.map((b) => b.label) }, yAxis: { name: 'Receiving orders' }, series: [{ name: 'Receiving orders', data: perBucket }] } : null,
  };
}
