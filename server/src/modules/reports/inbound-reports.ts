import { RO_STATUSES } from '@bolx/contracts';
import { bucketOf, bucketsOf } from './report-range.js';
import { col, n, pct, type Built, type Ctx, type Row } from './report-kit.js';
import { inboundReportRepository as repo } from './inbound-reports.repository.js';

/** /InboundReports on the report pattern: receipts per day, receiving orders by status, received against expected. */

/** Per day (week, month): orders due, orders received into, receipts, good and damaged units, units put away. */
export async function receiptsPerDay(ctx: Ctx): Promise<Built> {
  const g = ctx.group === 'week' || ctx.group === 'month' ? ctx.group : 'day';
  const [receipts, putaways, expected] = await Promise.all([
    repo.receiptsPerDay(ctx.db, ctx.dialect, ctx.w), repo.putawaysPerDay(ctx.db, ctx.dialect, ctx.w), repo.expectedPerDay(ctx.db, ctx.w),
  ]);
  const buckets = bucketsOf(ctx.w.from, ctx.w.to, g);
  const KEYS = ['due', 'orders', 'receipts', 'units', 'damaged', 'putaway'] as const;
  const rows = new Map<string, Row>(buckets.map((b) => [b, { date: b, ...Object.fromEntries(KEYS.map((k) => [k, 0])) }]));
  const add = (day: string, key: (typeof KEYS)[number], v: unknown) => { const row = rows.get(bucketOf(String(day), g)); if (row) row[key] = n(row[key]) + n(v); };
  for (const r of receipts) { add(r.day, 'orders', r.orders); add(r.day, 'receipts', r.receipts); add(r.day, 'units', r.units); add(r.day, 'damaged', r.damaged); }
  for (const p of putaways) add(p.day, 'putaway', p.units);
  for (const e of expected) add(e.day, 'due', e.orders);
  const out = [...rows.values()];
  return {
    columns: [col('date', 'Date', 'text'), col('due', 'Orders due'), col('orders', 'Orders received into'), col('receipts', 'Receipts'), col('units', 'Units received'),
      col('damaged', 'Units damaged'), col('putaway', 'Units put away')],
    rows: out,
    // An order received into on two days counts on each; its total is the days' sum, as the column reads.
    totals: { date: 'Total', ...Object.fromEntries(KEYS.map((k) => [k, out.reduce((s, r) => s + n(r[k]), 0)])) },
    chart: {
      type: 'line', xAxis: { data: buckets }, yAxis: { name: 'Units' },
      series: [{ name: 'Units received', data: out.map((r) => n(r.units)) }, { name: 'Units put away', data: out.map((r) => n(r.putaway)) }, { name: 'Units damaged', data: out.map((r) => n(r.damaged)) }],
    },
  };
}

/** Every receiving order in view now, per status (all five, in their order), with its units. */
export async function receivingStatus(ctx: Ctx): Promise<Built> {
  const found = new Map((await repo.byStatus(ctx.db, ctx.w)).map((r) => [r.status, r]));
  const rows = RO_STATUSES.map((status) => {
    const r = found.get(status);
    return {
      status, orders: n(r?.orders), lines: n(r?.lines), expected: n(r?.expected), received: n(r?.received), damaged: n(r?.damaged),
      // What waits at the dock: received good units not yet put away (cancelled orders hold none).
      awaiting: n(r?.awaiting),
    };
  });
  const sum = (k: keyof (typeof rows)[number]) => rows.reduce((s, r) => s + n(r[k]), 0);
  return {
    columns: [col('status', 'Status', 'text'), col('orders', 'Receiving orders'), col('lines', 'Lines'), col('expected', 'Units expected'), col('received', 'Units received'),
      col('damaged', 'Units damaged'), col('awaiting', 'Awaiting putaway')],
    rows,
    totals: { status: 'Total', orders: sum('orders'), lines: sum('lines'), expected: sum('expected'), received: sum('received'), damaged: sum('damaged'), awaiting: sum('awaiting') },
    chart: { type: 'bar', xAxis: { name: 'Status', data: [...RO_STATUSES] }, yAxis: { name: 'Receiving orders' }, series: [{ name: 'Receiving orders', data: rows.map((r) => r.orders) }] },
  };
}

/** Receiving orders finalized within the days, per supplier (default) or client: arrived against expected. */
export async function receiptAccuracy(ctx: Ctx): Promise<Built> {
  const by = ctx.group === 'customer' ? 'customer' : 'supplier';
  const raw = await repo.accuracy(ctx.db, ctx.dialect, ctx.w, by);
  const shape = (group: string, v: { orders: number; lines: number; expected: number; received: number; damaged: number; over: number; short: number; exact: number }) => ({
    group, orders: v.orders, lines: v.lines, expected: v.expected, received: v.received, damaged: v.damaged, over: v.over, short: v.short,
    // Fill rate: the expected units that arrived (an over-delivery fills no more than was asked); exact: lines as announced, none damaged.
    fillRate: pct(v.expected - v.short, v.expected), exactLines: pct(v.exact, v.lines),
  });
  const num = (r: (typeof raw)[number]) => ({
    orders: n(r.orders), lines: n(r.lines), expected: n(r.expected), received: n(r.received), damaged: n(r.damaged), over: n(r.over), short: n(r.short), exact: n(r.exact),
  });
  const rows = raw.map((r) => shape(r.group_key || '(none)', num(r))).sort((a, b) => a.group.localeCompare(b.group));
  const total = raw.map(num).reduce((s, v) => {
    for (const k of Object.keys(s) as (keyof typeof s)[]) s[k] += v[k];
    return s;
  }, { orders: 0, lines: 0, expected: 0, received: 0, damaged: 0, over: 0, short: 0, exact: 0 });
  const label = by === 'customer' ? 'Client' : 'Supplier';
  return {
    columns: [col('group', label, 'text'), col('orders', 'Receiving orders'), col('lines', 'Lines'), col('expected', 'Units expected'), col('received', 'Units received'),
      col('damaged', 'Units damaged'), col('over', 'Over'), col('short', 'Short'), col('fillRate', 'Fill rate', 'percent'), col('exactLines', 'Lines as expected', 'percent')],
    rows, totals: shape('Total', total),
    chart: rows.length ? { type: 'bar', xAxis: { name: label, data: rows.map((r) => r.group) }, yAxis: { name: 'Fill rate %' }, series: [{ name: 'Fill rate %', data: rows.map((r) => r.fillRate ?? 0) }] } : null,
  };
}
