// Reports, labour and job tracking (issue 17): one report pattern for every report — filters (warehouse, client,
// a date range with presets, and the report's own), a table with totals, a chart, exports (Excel, CSV, PDF) and
// saved views — over the orders, the ledger and the floor's activity log.
import { z } from 'zod';
import { field, INT_MAX } from './fields.js';
import { FLOOR_EVENT_KINDS } from './floor.js';

const day = field.text(10).regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD');

export const REPORT_PRESETS = ['today', 'yesterday', 'last7', 'last30', 'thisMonth', 'lastMonth', 'last12Months', 'custom'] as const;
export type ReportPreset = (typeof REPORT_PRESETS)[number];
export const REPORT_PRESET_LABELS: Record<ReportPreset, string> = {
  today: 'Today', yesterday: 'Yesterday', last7: 'Last 7 days', last30: 'Last 30 days', thisMonth: 'This month', lastMonth: 'Last month',
  last12Months: 'Last 12 months', custom: 'Custom range',
};
/** Dead stock: stock on hand with no ledger movement in this many days, unless the filter says otherwise. */
export const DEAD_STOCK_DEFAULT_DAYS = 90;
/** ABC classes by velocity: the SKUs making the first 80% of units picked are A, the next 15% B, the rest C. */
export const ABC_CUMULATIVE_PERCENT = { A: 80, B: 95 } as const;
/** The audit log report's rows at most (newest first): a longer log is narrowed by the date range. */
export const AUDIT_REPORT_MAX_ROWS = 5000;
/** A detailed report covers at most this many days; a longer range is refused naming the limit. */
export const REPORT_MAX_DAYS = 731;
export const REPORT_MAX_RANGE_MESSAGE = 'A report covers at most 2 years (731 days): choose a shorter date range, or run it as a job';
/** A report run as a background job (its export kept for download) covers at most this many days. */
export const REPORT_JOB_MAX_DAYS = 3653;
export const REPORT_JOB_MAX_RANGE_MESSAGE = 'A report run as a job covers at most 10 years (3653 days): choose a shorter date range';

export const REPORT_GROUPS = ['day', 'week', 'month', 'hour', 'customer', 'carrier', 'service', 'user', 'kind', 'sku', 'location', 'lot', 'pallet', 'bucket', 'supplier'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

/** The report screens and the module each is granted by. */
export const REPORT_AREAS = {
  OrderReport: { module: 'OrderReports', path: '/OrderReports', title: 'Order Reports' },
  ProductivityReport: { module: 'ProductivityReport', path: '/ProductivityReport', title: 'Productivity Report' },
  LaborReport: { module: 'Labor', path: '/Labor', title: 'Labor' },
  OtherReport: { module: 'OtherReports', path: '/OtherReports', title: 'Other Reports' },
  InventoryReport: { module: 'InventoryReports', path: '/InventoryReports', title: 'Inventory Reports' },
  InboundReport: { module: 'InboundReports', path: '/InboundReports', title: 'Inbound Reports' },
} as const;
export type ReportArea = keyof typeof REPORT_AREAS;

/**
 * Every report: its screen, its title, and the groupings it offers (the first is its default). A report marked
 * `asOf: 'now'` is a snapshot of the present (stock, open work): the date range does not apply to it; one marked
 * `asOf: 'end'` reads things as they stood at the end of the range's last day.
 */
export const REPORTS = {
  'orders-per-day': { area: 'OrderReport', title: 'Orders received, processed and shipped', groups: ['day', 'week', 'month'] },
  'fulfilment-time': { area: 'OrderReport', title: 'Fulfilment time (received to shipped)', groups: [] },
  'on-time-shipping': { area: 'OrderReport', title: 'On-time ship rate', groups: ['day', 'week', 'month', 'customer', 'carrier', 'service'] },
  'order-profile': { area: 'OrderReport', title: 'Lines, units and backorders per order', groups: ['customer', 'carrier', 'service', 'day', 'week', 'month'] },
  productivity: { area: 'ProductivityReport', title: 'Productivity by user', groups: ['user', 'day', 'hour'] },
  'productivity-trend': { area: 'ProductivityReport', title: 'Productivity trend', groups: ['day', 'week', 'month', 'hour'] },
  'labour-time': { area: 'LaborReport', title: 'Labour time by user and day', groups: [] },
  'labour-cost': { area: 'LaborReport', title: 'Labour cost per client', groups: [] },
  'location-utilisation': { area: 'OtherReport', title: 'Location utilisation by zone', groups: [] },
  'empty-locations': { area: 'OtherReport', title: 'Empty locations', groups: [] },
  'sku-velocity': { area: 'OtherReport', title: 'SKU velocity and ABC classes', groups: [] },
  'dead-stock': { area: 'OtherReport', title: 'Dead stock (no movement in N days)', groups: [] },
  'audit-log': { area: 'OtherReport', title: 'Audit log', groups: [] },
  'dock-to-stock': { area: 'OtherReport', title: 'Dock-to-stock time of receipts', groups: [] },
  'stock-on-hand': { area: 'InventoryReport', title: 'Stock on hand', groups: ['sku', 'location', 'lot', 'pallet', 'customer'], asOf: 'now' },
  availability: { area: 'InventoryReport', title: 'Availability', groups: [], asOf: 'now' },
  'stock-aging': { area: 'InventoryReport', title: 'Stock aging', groups: ['bucket', 'sku', 'location'], asOf: 'now' },
  /** Stock as it stood at the end of the range's last day (each warehouse's business day), from the ledger. */
  'stock-as-of': { area: 'InventoryReport', title: 'Stock as of a date', groups: ['location', 'sku'], asOf: 'end' },
  'receipts-per-day': { area: 'InboundReport', title: 'Receipts per day', groups: ['day', 'week', 'month'] },
  'receiving-status': { area: 'InboundReport', title: 'Receiving orders by status', groups: [], asOf: 'now' },
  'receipt-accuracy': { area: 'InboundReport', title: 'Received against expected', groups: ['supplier', 'customer'] },
} as const satisfies Record<string, { area: ReportArea; title: string; groups: readonly ReportGroup[]; asOf?: 'now' | 'end' }>;
/** When a report reads things: over its range (null), now (no range applies), or at the end of the range's last day. */
export const reportAsOf = (report: ReportKey): 'now' | 'end' | null => (REPORTS[report] as { asOf?: 'now' | 'end' }).asOf ?? null;
export type ReportKey = keyof typeof REPORTS;
export const REPORT_KEYS = Object.keys(REPORTS) as [ReportKey, ...ReportKey[]];

/** The filters every report takes (warehouse, client, date range) and the few its own (unknown keys: 400). */
export const reportFilters = z.strictObject({
  warehouseId: field.int(0, INT_MAX).optional(),
  customerId: field.int(0, INT_MAX).optional(),
  preset: z.enum(REPORT_PRESETS, { error: `Choose one of: ${REPORT_PRESETS.join(', ')}` }).optional().default('last30'),
  fromDate: day.optional(),
  toDate: day.optional(),
  groupBy: z.enum(REPORT_GROUPS, { error: `Group by one of: ${REPORT_GROUPS.join(', ')}` }).optional(),
  /** Productivity and labour: one user only. */
  userId: field.int(0, INT_MAX).optional(),
  /** Productivity: one task type only. */
  kind: z.enum(FLOOR_EVENT_KINDS, { error: 'Not a task type' }).optional(),
  /** Dead stock: no movement in this many days (default DEAD_STOCK_DEFAULT_DAYS). */
  days: field.int(1, 3650, 'Choose 1 to 3650 days').optional(),
}).refine((f) => f.preset !== 'custom' || (f.fromDate && f.toDate), { message: 'A custom range needs a from and a to date', path: ['fromDate'] })
  .refine((f) => !f.fromDate || !f.toDate || f.fromDate <= f.toDate, { message: 'The from date is after the to date', path: ['toDate'] });
export type ReportFilters = z.input<typeof reportFilters>;

export const reportRequest = z.strictObject({ report: z.enum(REPORT_KEYS, { error: 'Unknown report' }), filters: reportFilters.optional().default({ preset: 'last30' }) });
export type ReportRequest = z.input<typeof reportRequest>;
export const REPORT_FORMATS = ['xlsx', 'csv', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const reportDownloadRequest = z.strictObject({
  report: z.enum(REPORT_KEYS, { error: 'Unknown report' }),
  filters: reportFilters.optional().default({ preset: 'last30' }),
  format: z.enum(REPORT_FORMATS, { error: 'Choose xlsx, csv or pdf' }),
});

/** A report run as a background job: the same request as a download; the job's result names the file to fetch. */
export const runReportJobInput = reportDownloadRequest;
export const reportJobResult = z.object({ fileId: z.number().int(), fileName: z.string(), rows: z.number().int() });
export type ReportJobResult = z.infer<typeof reportJobResult>;
export const reportJobFileQuery = z.object({ jobId: field.idParam({ message: 'jobId is required' }) });

// ---- Scheduled reports: a user's report with its filters, e-mailed daily or weekly as an attachment ----

export const REPORT_FREQUENCIES = ['daily', 'weekly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];
/** Formats a scheduled report is attached in (Excel or PDF). */
export const SUBSCRIPTION_FORMATS = ['xlsx', 'pdf'] as const;
export const reportSubscription = z.object({
  subscriptionId: z.number().int(), report: z.enum(REPORT_KEYS), title: z.string(), filters: reportFilters,
  format: z.enum(SUBSCRIPTION_FORMATS), frequency: z.enum(REPORT_FREQUENCIES),
  /** Weekly: the day it is sent, 0 = Sunday … 6 = Saturday. */
  weekday: z.number().int().nullable(),
  /** The hour it is sent, in the filter's warehouse's time zone (UTC without one). */
  hour: z.number().int(), timeZone: z.string(), email: z.string(), nextRunAt: z.string(), lastSentAt: z.string().nullable(),
});
export type ReportSubscription = z.infer<typeof reportSubscription>;
export const subscribeReportInput = z.strictObject({
  report: z.enum(REPORT_KEYS, { error: 'Unknown report' }),
  filters: reportFilters.optional().default({ preset: 'last7' }),
  format: z.enum(SUBSCRIPTION_FORMATS, { error: 'Choose xlsx or pdf' }),
  frequency: z.enum(REPORT_FREQUENCIES, { error: 'Choose daily or weekly' }),
  weekday: field.int(0, 6, 'Choose a day of the week (0 = Sunday to 6 = Saturday)').optional(),
  hour: field.int(0, 23, 'Choose an hour from 0 to 23').optional().default(6),
}).refine((s) => s.frequency !== 'weekly' || s.weekday !== undefined, { message: 'A weekly report needs a day of the week', path: ['weekday'] });
export type SubscribeReportInput = z.input<typeof subscribeReportInput>;
export const reportSubscriptionIdInput = z.strictObject({ subscriptionId: field.id() });

export const REPORT_COLUMN_KINDS = ['text', 'number', 'percent', 'hours', 'money'] as const;
export const reportColumn = z.object({ key: z.string(), title: z.string(), kind: z.enum(REPORT_COLUMN_KINDS) });
export type ReportColumn = z.infer<typeof reportColumn>;
const cellValue = z.union([z.string(), z.number(), z.null()]);

/** The spec's chart data: xAxis.data, yAxis.name, series[] each with name and data. */
export const chartData = z.object({
  type: z.enum(['bar', 'line']),
  /** The x axis title is 'Date' unless the categories are something else (users, clients, buckets). */
  xAxis: z.object({ name: z.string().optional(), data: z.array(z.string()) }),
  yAxis: z.object({ name: z.string().optional() }),
  series: z.array(z.object({ name: z.string().optional(), data: z.array(z.number()) })),
});
export type ChartData = z.infer<typeof chartData>;

export const reportResult = z.object({
  report: z.enum(REPORT_KEYS),
  title: z.string(),
  /** The business days covered (inclusive), after the preset is resolved. */
  fromDate: z.string(),
  toDate: z.string(),
  groupBy: z.enum(REPORT_GROUPS).nullable(),
  columns: z.array(reportColumn),
  rows: z.array(z.record(z.string(), cellValue)),
  totals: z.record(z.string(), cellValue),
  chart: chartData.nullable(),
});
export type ReportResult = z.infer<typeof reportResult>;

// ---- Saved views ----

export const savedReportView = z.object({ viewId: z.number().int(), report: z.enum(REPORT_KEYS), name: z.string(), filters: reportFilters, updatedAt: z.string() });
export type SavedReportView = z.infer<typeof savedReportView>;
export const saveReportViewInput = z.strictObject({
  viewId: field.int(0, INT_MAX).optional(),
  report: z.enum(REPORT_KEYS, { error: 'Unknown report' }),
  name: field.text(64, 'Please enter a name!').trim().min(1, 'Please enter a name!'),
  filters: reportFilters,
});
export const reportViewsQuery = z.object({ report: z.enum(REPORT_KEYS, { error: 'Unknown report' }) });
export const reportViewIdInput = z.strictObject({ viewId: field.id() });

// ---- Labour: clock in/out with breaks, engineered standards, rates ----

export const LABOUR_PUNCHES = ['clock-in', 'clock-out', 'break-start', 'break-end'] as const;
export type LabourPunch = (typeof LABOUR_PUNCHES)[number];
/** A gap between two of a user's floor events longer than this is idle time, not work on the later task. */
export const LABOUR_IDLE_GAP_SECONDS = 600;

export const labourPunchInput = z.strictObject({
  warehouseId: field.id({ message: 'Please select a warehouse!' }),
  punch: z.enum(LABOUR_PUNCHES, { error: 'Choose clock-in, clock-out, break-start or break-end' }),
  /** A supervisor punches for someone else; omitted: the caller. */
  userId: field.int(0, INT_MAX).optional(),
});
export const labourShift = z.object({
  shiftId: z.number().int(), userId: z.number().int(), username: z.string(), warehouseId: z.number().int(), warehouseName: z.string(),
  clockIn: z.string(), clockOut: z.string().nullable(), onBreak: z.boolean(), breakSeconds: z.number().int(), businessDay: z.string(),
});
export type LabourShift = z.infer<typeof labourShift>;
export const labourShiftsQuery = z.object({ warehouseId: field.intParam(0, INT_MAX).optional(), open: z.enum(['true', 'false']).optional() });

/** Engineered standards: units (or events, for task types without units) per hour a trained person does. */
export const labourStandard = z.object({ warehouseId: z.number().int(), kind: z.enum(FLOOR_EVENT_KINDS), unitsPerHour: z.number().int() });
export type LabourStandard = z.infer<typeof labourStandard>;
export const saveLabourStandardsInput = z.strictObject({
  warehouseId: field.id({ message: 'Please select a warehouse!' }),
  standards: z.array(z.strictObject({ kind: z.enum(FLOOR_EVENT_KINDS, { error: 'Not a task type' }), unitsPerHour: field.int(1, 100_000) })).min(1).max(FLOOR_EVENT_KINDS.length),
});
/** A client's labour rate (minor units per hour), which labour cost multiplies and billing can charge. */
export const labourRate = z.object({ customerId: z.number().int(), customerName: z.string(), rateMinorPerHour: z.number().int() });
export const saveLabourRateInput = z.strictObject({ customerId: field.id({ message: 'Please select a client!' }), rateMinorPerHour: field.int(0, 100_000_000) });

/** Apply the ABC classes of an SKU velocity report (its filters) to the SKUs, where cycle counts select by them. */
export const applyAbcInput = z.strictObject({ filters: reportFilters.optional().default({ preset: 'last30' }) });
export const applyAbcResult = z.object({ A: z.number().int(), B: z.number().int(), C: z.number().int(), changed: z.number().int() });
export type ApplyAbcResult = z.infer<typeof applyAbcResult>;
