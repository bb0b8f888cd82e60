import { AGING_BUCKETS, type ChartData, type ReportColumn } from '@bolx/contracts';
import { col, n, type Built, type Ctx, type Row } from './report-kit.js';

/**
 * /InventoryReports on the report pattern: stock on hand (by SKU, location, lot, pallet or client), availability,
 * aging and stock as of a date. The rows are the inventory reports' own (their queries and shapes, through the
 * inventory reports' service); these builders give them the pattern's columns, totals and charts.
 */

type Stock = Record<string, unknown>;
const filtersOf = (ctx: Ctx) => ({ warehouseId: ctx.w.warehouseId, customerId: ctx.w.customerId });
/** Every row, unsearched, in the list's own order. */
const all = (filters: ReturnType<typeof filtersOf> & { asOf?: string }) => ({ filters, searchQuery: '' });
const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const sum = (rows: Row[], key: string) => rows.reduce((a, r) => a + n(r[key]), 0);
const sums = (rows: Row[], keys: string[]) => Object.fromEntries(keys.map((k) => [k, sum(rows, k)]));
const QTY = ['onHand', 'allocated', 'available'];
const qtyColumns = [col('onHand', 'On hand'), col('allocated', 'Allocated'), col('available', 'Available')];
const names = (r: Stock) => ({ warehouse: s(r.warehouseName), client: s(r.customerName) });
const nameColumns = [col('warehouse', 'Warehouse', 'text'), col('client', 'Client', 'text')];
const qty = (r: Stock) => ({ onHand: n(r.onHand), allocated: n(r.allocated), available: n(r.onHand) - n(r.allocated) });
/** How many of the largest rows a "top" chart shows. */
export const TOP_CHART_ROWS = 10;

/** The largest rows by on hand as a bar chart of on hand and allocated (a person looks for the big ones). */
function topChart(rows: Row[], label: (r: Row) => string, axis: string): ChartData | null {
  const top = [...rows].sort((a, b) => n(b.onHand) - n(a.onHand)).slice(0, TOP_CHART_ROWS).filter((r) => n(r.onHand) > 0);
  if (!top.length) return null;
  return {
    type: 'bar', xAxis: { name: axis, data: top.map(label) }, yAxis: { name: 'Units' },
    series: [{ name: 'On hand', data: top.map((r) => n(r.onHand)) }, { name: 'Allocated', data: top.map((r) => n(r.allocated)) }],
  };
}

/** Stock on hand now, by SKU (default), location, lot, pallet or client. */
export async function stockOnHand(ctx: Ctx): Promise<Built> {
  const g = ctx.group ?? 'sku';
  const filters = filtersOf(ctx);
  let rows: Row[];
  let columns: ReportColumn[];
  let chart: ChartData | null;
  if (g === 'location') {
    rows = (await ctx.stock.rows('OnHandByLocation', ctx.w.scope, all(filters))).map((r) => ({
      location: s(r.locationCode), type: s(r.locationType), ...names(r), skus: n(r.skuCount), ...qty(r),
    }));
    columns = [col('location', 'Location', 'text'), col('type', 'Type', 'text'), ...nameColumns, col('skus', 'SKUs'), ...qtyColumns];
    chart = topChart(rows, (r) => String(r.location), 'Location');
  } else if (g === 'lot') {
    rows = (await ctx.stock.rows('OnHandByLot', ctx.w.scope, all(filters))).map((r) => ({
      sku: s(r.skuCode), lot: s(r.lot), expiry: s(r.expiryDate), ...names(r), locations: n(r.locationCount), ...qty(r),
    }));
    columns = [col('sku', 'SKU', 'text'), col('lot', 'Lot', 'text'), col('expiry', 'Expiry', 'text'), ...nameColumns, col('locations', 'Locations'), ...qtyColumns];
    chart = topChart(rows, (r) => `${r.sku} ${r.lot}`.trim(), 'SKU and lot');
  } else if (g === 'pallet') {
    rows = (await ctx.stock.rows('OnHandByPallet', ctx.w.scope, all(filters))).map((r) => ({
      pallet: s(r.pallet), location: s(r.locationCode), ...names(r), skus: n(r.skuCount), ...qty(r),
    }));
    columns = [col('pallet', 'Pallet', 'text'), col('location', 'Location', 'text'), ...nameColumns, col('skus', 'SKUs'), ...qtyColumns];
    chart = topChart(rows, (r) => String(r.pallet), 'Pallet');
  } else {
    const bySku: Row[] = (await ctx.stock.rows('OnHandBySku', ctx.w.scope, all(filters))).map((r) => ({
      sku: s(r.skuCode), description: s(r.skuDescription), ...names(r), locations: n(r.locationCount), ...qty(r),
    }));
    if (g === 'customer') {
      // A client's stock: its SKUs' rows summed per warehouse and client.
      const byClient = new Map<string, Row>();
      for (const r of bySku) {
        const k = `${r.warehouse}\u0000${r.client}`;
        const v = byClient.get(k) ?? { client: r.client, warehouse: r.warehouse, skus: 0, onHand: 0, allocated: 0, available: 0 };
        v.skus = n(v.skus) + 1;
        for (const q of QTY) v[q] = n(v[q]) + n(r[q]);
        byClient.set(k, v);
      }
      rows = [...byClient.values()].sort((a, b) => String(a.client).localeCompare(String(b.client)) || String(a.warehouse).localeCompare(String(b.warehouse)));
      columns = [col('client', 'Client', 'text'), col('warehouse', 'Warehouse', 'text'), col('skus', 'SKUs'), ...qtyColumns];
      chart = topChart(rows, (r) => String(r.client), 'Client');
    } else {
      rows = bySku;
      columns = [col('sku', 'SKU', 'text'), col('description', 'Description', 'text'), ...nameColumns, col('locations', 'Locations'), ...qtyColumns];
      chart = topChart(rows, (r) => String(r.sku), 'SKU');
    }
  }
  const first = columns[0].key;
  return { columns, rows, totals: { [first]: 'Total', ...sums(rows, QTY) }, chart };
}

/** Per SKU: on hand, allocated, available, what expired lots hold back, and what allocation can take. */
export async function availability(ctx: Ctx): Promise<Built> {
  const rows = (await ctx.stock.rows('Availability', ctx.w.scope, all(filtersOf(ctx)))).map((r) => ({
    sku: s(r.skuCode), description: s(r.skuDescription), ...names(r), ...qty(r), expired: n(r.expired), allocatable: n(r.allocatable),
  }));
  const keys = [...QTY, 'expired', 'allocatable'];
  const expired = rows.filter((r) => r.expired > 0).sort((a, b) => b.expired - a.expired).slice(0, TOP_CHART_ROWS);
  return {
    columns: [col('sku', 'SKU', 'text'), col('description', 'Description', 'text'), ...nameColumns, ...qtyColumns, col('expired', 'Expired'), col('allocatable', 'Allocatable')],
    rows, totals: { sku: 'Total', ...sums(rows, keys) },
    // Where a person looks first: the SKUs whose expired lots hold back the most.
    chart: expired.length ? { type: 'bar', xAxis: { name: 'SKU', data: expired.map((r) => r.sku) }, yAxis: { name: 'Units' }, series: [{ name: 'Expired', data: expired.map((r) => r.expired) }] } : null,
  };
}

const bucketKey = (b: string) => `age:${b}`;

/** Stock aging: units per age bucket (days since received), per SKU with a column per bucket, or per place. */
export async function stockAging(ctx: Ctx): Promise<Built> {
  const g = ctx.group ?? 'bucket';
  const places = await ctx.stock.rows('Aging', ctx.w.scope, all(filtersOf(ctx)));
  const perBucket = AGING_BUCKETS.map((b) => places.filter((p) => p.bucket === b));
  const units = perBucket.map((ps) => ps.reduce((a, p) => a + n(p.onHand), 0));
  const chart: ChartData | null = places.length
    ? { type: 'bar', xAxis: { name: 'Age (days)', data: [...AGING_BUCKETS] }, yAxis: { name: 'Units' }, series: [{ name: 'On hand', data: units }] }
    : null;
  if (g === 'bucket') {
    const all = units.reduce((a, u) => a + u, 0);
    const rows = AGING_BUCKETS.map((b, i) => ({
      bucket: b, places: perBucket[i].length, skus: new Set(perBucket[i].map((p) => `${p.warehouseId}:${p.customerId}:${p.skuId}`)).size, onHand: units[i],
      share: all ? Math.round((units[i] / all) * 1000) / 10 : null,
    }));
    return {
      columns: [col('bucket', 'Age (days)', 'text'), col('places', 'Places'), col('skus', 'SKUs'), col('onHand', 'On hand'), col('share', 'Share', 'percent')],
      rows, totals: { bucket: 'Total', places: places.length, skus: new Set(places.map((p) => `${p.warehouseId}:${p.customerId}:${p.skuId}`)).size, onHand: all, share: all ? 100 : null }, chart,
    };
  }
  if (g === 'sku') {
    const bySku = new Map<string, Row>();
    for (const p of places) {
      const k = `${p.warehouseId}:${p.customerId}:${p.skuId}`;
      const v = bySku.get(k) ?? { sku: s(p.skuCode), ...names(p), onHand: 0, oldestDays: 0, ...Object.fromEntries(AGING_BUCKETS.map((b) => [bucketKey(b), 0])) };
      v[bucketKey(String(p.bucket))] = n(v[bucketKey(String(p.bucket))]) + n(p.onHand);
      v.onHand = n(v.onHand) + n(p.onHand);
      v.oldestDays = Math.max(n(v.oldestDays), n(p.ageDays));
      bySku.set(k, v);
    }
    const rows = [...bySku.values()].sort((a, b) => n(b.oldestDays) - n(a.oldestDays) || String(a.sku).localeCompare(String(b.sku)));
    return {
      columns: [col('sku', 'SKU', 'text'), ...nameColumns, ...AGING_BUCKETS.map((b) => col(bucketKey(b), `${b} days`)), col('onHand', 'On hand'), col('oldestDays', 'Oldest (days)')],
      rows, totals: { sku: 'Total', ...sums(rows, [...AGING_BUCKETS.map(bucketKey), 'onHand']), oldestDays: rows.length ? Math.max(...rows.map((r) => n(r.oldestDays))) : null },
      chart,
    };
  }
  // Per place (location, lot and pallet), oldest first: the list the screen showed before the report pattern.
  const rows = places.map((p) => ({
    sku: s(p.skuCode), location: s(p.locationCode), lot: s(p.lot), pallet: s(p.pallet), ...names(p), receivedAt: s(p.receivedAt).slice(0, 10),
    ageDays: n(p.ageDays), bucket: s(p.bucket), onHand: n(p.onHand),
  }));
  return {
    columns: [col('sku', 'SKU', 'text'), col('location', 'Location', 'text'), col('lot', 'Lot', 'text'), col('pallet', 'Pallet', 'text'), ...nameColumns,
      col('receivedAt', 'Received', 'text'), col('ageDays', 'Age (days)'), col('bucket', 'Bucket', 'text'), col('onHand', 'On hand')],
    rows, totals: { sku: 'Total', onHand: sum(rows, 'onHand') }, chart,
  };
}

/** Stock as it stood at the end of the range's last day, from the ledger: per place (default) or per SKU. */
export async function stockAsOf(ctx: Ctx): Promise<Built> {
  const g = ctx.group ?? 'location';
  const places = await ctx.stock.rows('StockAsOf', ctx.w.scope, all({ ...filtersOf(ctx), asOf: ctx.w.to }));
  if (g === 'sku') {
    const bySku = new Map<string, Row>();
    for (const p of places) {
      const k = `${p.warehouseId}:${p.customerId}:${p.skuId}`;
      const v = bySku.get(k) ?? { sku: s(p.skuCode), ...names(p), locations: 0, onHand: 0 };
      v.locations = n(v.locations) + 1;
      v.onHand = n(v.onHand) + n(p.onHand);
      bySku.set(k, v);
    }
    const rows = [...bySku.values()].sort((a, b) => String(a.sku).localeCompare(String(b.sku)) || String(a.client).localeCompare(String(b.client)));
    return {
      columns: [col('sku', 'SKU', 'text'), ...nameColumns, col('locations', 'Places'), col('onHand', 'On hand')],
      rows, totals: { sku: 'Total', locations: sum(rows, 'locations'), onHand: sum(rows, 'onHand') }, chart: topChart(rows, (r) => String(r.sku), 'SKU'),
    };
  }
  const rows = places.map((p) => ({ sku: s(p.skuCode), location: s(p.locationCode), lot: s(p.lot), pallet: s(p.pallet), ...names(p), onHand: n(p.onHand) }));
  return {
    columns: [col('sku', 'SKU', 'text'), col('location', 'Location', 'text'), col('lot', 'Lot', 'text'), col('pallet', 'Pallet', 'text'), ...nameColumns, col('onHand', 'On hand')],
    rows, totals: { sku: 'Total', onHand: sum(rows, 'onHand') }, chart: null,
  };
}
