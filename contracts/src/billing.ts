import { INVOICE_STATUSES } from './status.js';
// 3PL billing (spec: /Billing, /BillingSummary, /InvoiceAudit; issue 16): rate cards per customer and warehouse in
// effective-dated versions, storage from daily snapshots, activity charges keyed to their sources, billing runs that
// make draft invoices, final invoices numbered without gaps per billing entity (the warehouse), and credit notes.
//
// Money is integer minor units of the customer's currency. The one rounding rule: each charge (one source, one
// charge type) is  quantity × rate × (1 + markup) ÷ divisor, rounded half away from zero to the minor unit, once;
// lines and totals are sums of rounded charges; tax is rounded the same way, once, on the invoice's subtotal.
//
// Storage per location per month is billed by location-days, not by the month's peak occupancy: each day's
// snapshot counts the locations of each type holding the client's stock, and each such day costs the type's monthly
// rate ÷ the days in that month (a location held 10 days of 30 costs a third of its rate). Per unit per month alike.
import { z } from 'zod';
import { field, INT_MAX } from './fields.js';
import { listRequest, listResponse } from './common.js';
import { jobView } from './jobs.js';

const id = field.id();
const optionalId = field.int(0, INT_MAX).optional();
const day = field.text(10).regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'Not a real date');

export const CHARGE_GROUPS = ['Storage', 'Receiving', 'Fulfilment', 'Shipping', 'Returns', 'Kitting', 'Labour', 'Accessorial', 'Recurring', 'Minimum'] as const;
export type ChargeGroup = (typeof CHARGE_GROUPS)[number];

/**
 * Every charge type: its group, what one unit of its quantity is, the divisor its amount is taken over (a monthly
 * rate billed per day divides by the month's days; a cubic-metre rate over cm³ by 1,000,000; an hourly rate over
 * minutes by 60), and what its qualifier names (a location type, a disposition, an accessorial's name).
 */
export const CHARGE_TYPES = {
  storage_pallet_day: { group: 'Storage', label: 'Storage per pallet per day', unit: 'pallet-days', divisor: 'one', qualifier: null },
  storage_location_month: { group: 'Storage', label: 'Storage per location per month', unit: 'location-days', divisor: 'month', qualifier: 'Location type' },
  storage_cbm_day: { group: 'Storage', label: 'Storage per cubic metre per day', unit: 'cm³-days', divisor: 'cm3', qualifier: null },
  storage_unit_month: { group: 'Storage', label: 'Storage per unit per month', unit: 'unit-days', divisor: 'month', qualifier: null },
  receiving_order: { group: 'Receiving', label: 'Receiving per receiving order', unit: 'orders', divisor: 'one', qualifier: null },
  receiving_line: { group: 'Receiving', label: 'Receiving per line', unit: 'lines', divisor: 'one', qualifier: null },
  receiving_unit: { group: 'Receiving', label: 'Receiving per unit', unit: 'units', divisor: 'one', qualifier: null },
  receiving_carton: { group: 'Receiving', label: 'Receiving per carton', unit: 'cartons', divisor: 'one', qualifier: null },
  receiving_pallet: { group: 'Receiving', label: 'Receiving per pallet', unit: 'pallets', divisor: 'one', qualifier: null },
  order: { group: 'Fulfilment', label: 'Fulfilment per order', unit: 'orders', divisor: 'one', qualifier: null },
  order_first_unit: { group: 'Fulfilment', label: 'Fulfilment first unit', unit: 'units', divisor: 'one', qualifier: null },
  order_additional_unit: { group: 'Fulfilment', label: 'Fulfilment additional unit', unit: 'units', divisor: 'one', qualifier: null },
  order_line: { group: 'Fulfilment', label: 'Fulfilment per line', unit: 'lines', divisor: 'one', qualifier: null },
  order_carton: { group: 'Fulfilment', label: 'Fulfilment per carton', unit: 'cartons', divisor: 'one', qualifier: null },
  label_fee: { group: 'Shipping', label: 'Label fee', unit: 'labels', divisor: 'one', qualifier: null },
  carrier_markup: { group: 'Shipping', label: 'Carrier cost plus markup', unit: 'labels', divisor: 'one', qualifier: null },
  return_rma: { group: 'Returns', label: 'Returns per RMA', unit: 'RMAs', divisor: 'one', qualifier: null },
  return_unit: { group: 'Returns', label: 'Returns per unit', unit: 'units', divisor: 'one', qualifier: null },
  return_disposition: { group: 'Returns', label: 'Returns per disposition', unit: 'units', divisor: 'one', qualifier: 'Disposition' },
  kit_build: { group: 'Kitting', label: 'Kitting per kit built', unit: 'kits', divisor: 'one', qualifier: null },
  labour_hour: { group: 'Labour', label: 'Labour by the hour', unit: 'minutes', divisor: 'hour', qualifier: 'Task' },
  accessorial: { group: 'Accessorial', label: 'Accessorial', unit: 'each', divisor: 'one', qualifier: 'Name' },
  recurring_monthly: { group: 'Recurring', label: 'Recurring monthly fee', unit: 'months', divisor: 'one', qualifier: 'Name' },
  monthly_minimum: { group: 'Minimum', label: 'Monthly minimum', unit: 'months', divisor: 'one', qualifier: null },
} as const satisfies Record<string, { group: ChargeGroup; label: string; unit: string; divisor: 'one' | 'month' | 'cm3' | 'hour'; qualifier: string | null }>;
export type ChargeType = keyof typeof CHARGE_TYPES;
export const CHARGE_TYPE_KEYS = Object.keys(CHARGE_TYPES) as [ChargeType, ...ChargeType[]];
/** Charges entered by hand (accessorial entry): the others come from the ledger, the events and the snapshots. */
export const MANUAL_CHARGE_TYPES = ['accessorial', 'labour_hour'] as const;

/** The divisor of a charge on a day (a monthly rate is spread over the days of that day's month). */
export function divisorOf(type: ChargeType, onDay: string): number {
  const kind = CHARGE_TYPES[type].divisor;
  if (kind === 'cm3') return 1_000_000;
  if (kind === 'hour') return 60;
  if (kind === 'month') {
    const [y, m] = onDay.split('-').map(Number);
    return new Date(Date.UTC(y, m, 0)).getUTCDate();
  }
  return 1;
}

/** n ÷ d rounded half away from zero (BigInt, exact for any size). */
export function divideRounded(n: bigint, d: bigint): bigint {
  const negative = (n < 0n) !== (d < 0n);
  const a = n < 0n ? -n : n;
  const b = d < 0n ? -d : d;
  const q = (a * 2n + b) / (2n * b);
  return negative ? -q : q;
}

/** The one rounding rule: quantity × rate × (10000 + markupBp)/10000 ÷ divisor, rounded half away from zero. */
export function chargeAmount(quantity: number, rateMinor: number, markupBp: number, divisor: number): number {
  return Number(divideRounded(BigInt(quantity) * BigInt(rateMinor) * BigInt(10_000 + markupBp), 10_000n * BigInt(divisor)));
}

/** Tax on a subtotal: subtotal × bp / 10000, rounded half away from zero. */
export const taxOf = (subtotalMinor: number, taxRateBp: number) => Number(divideRounded(BigInt(subtotalMinor) * BigInt(taxRateBp), 10_000n));

/** Minor units as the currency's major units ("1234.50"); every currency here has 2 decimals (ISO 4217 exceptions aside). */
export const formatMinor = (minor: number, currency = '') => {
  const sign = minor < 0 ? '-' : '';
  const a = Math.abs(minor);
  return `${sign}${Math.floor(a / 100).toLocaleString('en-US')}.${String(a % 100).padStart(2, '0')}${currency ? ` ${currency}` : ''}`;
};

// ---- Billing accounts (currency, tax, terms per customer) ----

export const billingAccount = z.object({
  customerId: z.number().int(), customerName: z.string(), currency: z.string(), taxRateBp: z.number().int(), paymentTermsDays: z.number().int(),
});
export type BillingAccount = z.infer<typeof billingAccount>;
export const saveBillingAccountInput = z.object({
  customerId: id,
  currency: field.text(3).trim().toUpperCase().regex(/^[A-Z]{3}$/, 'Use a 3-letter ISO 4217 code'),
  /** Tax in basis points (2000 = 20%). */
  taxRateBp: field.int(0, 10_000, 'Tax must be from 0 to 100%'),
  paymentTermsDays: field.int(0, 365),
});

// ---- Rate cards ----

export const rateInput = z.object({
  chargeType: z.enum(CHARGE_TYPE_KEYS, { error: 'Unknown charge type' }),
  qualifier: field.text(64).trim().optional().default(''),
  rateMinor: z.number({ error: 'Enter a rate' }).int('Rates are whole minor units').min(0, 'A rate must not be negative').max(INT_MAX),
  /** For carrier cost plus markup: the markup in basis points (1500 = 15%). */
  markupBp: field.int(0, 100_000, 'The markup must be from 0 to 1000%').optional().default(0),
});
export const saveRateCardInput = z.object({
  /** Editing a version nothing has been charged at yet; omitted: a new version. */
  versionId: optionalId,
  customerId: id,
  warehouseId: id,
  effectiveFrom: day,
  effectiveTo: day.nullable().optional(),
  notes: field.text(500).trim().optional().default(''),
  rates: z.array(rateInput).max(200),
}).refine((v) => !v.effectiveTo || v.effectiveTo >= v.effectiveFrom, { message: 'The end must not be before the start', path: ['effectiveTo'] })
  .refine((v) => new Set(v.rates.map((r) => `${r.chargeType}|${r.qualifier}`)).size === v.rates.length, { message: 'A charge type and qualifier appear twice', path: ['rates'] });
export type SaveRateCardInput = z.infer<typeof saveRateCardInput>;

export const rate = z.object({ chargeType: z.enum(CHARGE_TYPE_KEYS), qualifier: z.string(), rateMinor: z.number().int(), markupBp: z.number().int() });
export type Rate = z.infer<typeof rate>;
export const rateCardVersion = z.object({
  versionId: z.number().int(), customerId: z.number().int(), customerName: z.string(), warehouseId: z.number().int(), warehouseName: z.string(),
  versionNo: z.number().int(), effectiveFrom: z.string(), effectiveTo: z.string().nullable(), notes: z.string(), currency: z.string(),
  /** Charged at already: it can no longer be edited (make a new version). */
  used: z.boolean(), rates: z.array(rate), createdBy: z.string().nullable(), createdAt: z.string(),
});
export type RateCardVersion = z.infer<typeof rateCardVersion>;
export const rateCardListRequest = listRequest(z.object({ customerId: optionalId, warehouseId: optionalId }));
export const rateCardListResponse = listResponse(rateCardVersion);

// ---- Accessorial entry (and labour hours) ----

export const addAccessorialInput = z.object({
  customerId: id, warehouseId: id, day,
  chargeType: z.enum(MANUAL_CHARGE_TYPES),
  /** The accessorial's name on the rate card (its rate), or a task for labour. */
  qualifier: field.text(64).trim().optional().default(''),
  description: field.text(200, 'Please enter a description!').trim().min(1, 'Please enter a description!'),
  /** Units; minutes for labour. */
  quantity: field.int(1, 1_000_000),
  /** A rate of its own; omitted: the rate card's. */
  rateMinor: z.number().int().min(0, 'A rate must not be negative').max(INT_MAX).optional(),
});

// ---- Runs and invoices ----

export const PERIOD_KINDS = ['monthly', 'weekly', 'custom'] as const;
export const INVOICE_KINDS = ['invoice', 'credit_note'] as const;
export { INVOICE_STATUSES } from './status.js';
export type { InvoiceStatus } from './status.js';
export const RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;

export const createBillingRunInput = z.object({
  customerId: id, warehouseId: id, periodKind: z.enum(PERIOD_KINDS).default('custom'), periodFrom: day, periodTo: day,
}).refine((v) => v.periodTo >= v.periodFrom, { message: 'The period must end on or after its start', path: ['periodTo'] })
  .refine((v) => (Date.parse(v.periodTo) - Date.parse(v.periodFrom)) / 86_400_000 < 366, { message: 'A period is at most a year', path: ['periodTo'] });

export const invoiceIdInput = z.object({ invoiceId: id });
export const invoiceIdQuery = z.object({ invoiceId: field.idParam() });
export const manualLineInput = z.object({
  invoiceId: id,
  chargeType: z.enum(CHARGE_TYPE_KEYS).default('accessorial'),
  description: field.text(200, 'Please enter a description!').trim().min(1, 'Please enter a description!'),
  quantity: field.int(-1_000_000, 1_000_000).refine((q) => q !== 0, 'The quantity must not be 0'),
  rateMinor: z.number().int().min(0, 'A rate must not be negative').max(INT_MAX),
  reason: field.text(200, 'Please enter a reason!').trim().min(1, 'Please enter a reason!'),
});
export const removeManualLineInput = z.object({ invoiceId: id, lineId: id });
export const creditNoteInput = z.object({
  invoiceId: id,
  reason: field.text(200, 'Please enter a reason!').trim().min(1, 'Please enter a reason!'),
  /** The lines to credit in full; omitted: the whole invoice. */
  lineIds: z.array(id).max(1000).optional(),
});

export const invoiceLine = z.object({
  lineId: z.number().int(), chargeType: z.enum(CHARGE_TYPE_KEYS), group: z.enum(CHARGE_GROUPS), qualifier: z.string(), description: z.string(),
  unit: z.string(), quantity: z.number(), rateMinor: z.number().int().nullable(), markupBp: z.number().int(), amountMinor: z.number().int(),
  manual: z.boolean(), reason: z.string().nullable(), sourceCount: z.number().int(),
});
export type InvoiceLine = z.infer<typeof invoiceLine>;
export const invoiceSummary = z.object({
  invoiceId: z.number().int(), kind: z.enum(INVOICE_KINDS), invoiceNumber: z.string().nullable(), status: z.enum(INVOICE_STATUSES),
  customerId: z.number().int(), customerName: z.string(), warehouseId: z.number().int(), warehouseName: z.string(),
  periodKind: z.enum(PERIOD_KINDS), periodFrom: z.string(), periodTo: z.string(), currency: z.string(),
  subtotalMinor: z.number().int(), taxRateBp: z.number().int(), taxMinor: z.number().int(), totalMinor: z.number().int(),
  runStatus: z.enum(RUN_STATUSES), runJobId: z.number().int().nullable(), runMessage: z.string().nullable(),
  creditsInvoiceId: z.number().int().nullable(), creditsInvoiceNumber: z.string().nullable(), reason: z.string().nullable(),
  createdAt: z.string(), finalizedAt: z.string().nullable(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummary>;
export const invoiceDetail = invoiceSummary.extend({
  lines: z.array(invoiceLine),
  /** Activity the run found with no rate on the card (charged nothing), by charge family. */
  unrated: z.array(z.object({ source: z.string(), count: z.number().int() })),
});
export type InvoiceDetail = z.infer<typeof invoiceDetail>;
export const invoiceListRequest = listRequest(z.object({
  customerId: optionalId, warehouseId: optionalId, status: z.enum(INVOICE_STATUSES).optional(), kind: z.enum(INVOICE_KINDS).optional(),
}));
export const invoiceListResponse = listResponse(invoiceSummary);
export const billingRunResult = z.object({ invoice: invoiceSummary, job: jobView });

/** One charge behind a line: what caused it (a ledger row, an event, a snapshot, a document) and how it was worked out. */
export const chargeSource = z.object({
  chargeId: z.number().int(), day: z.string(), sourceType: z.string(), sourceId: z.string(), sourceDoc: z.string().nullable(),
  /** Where the web opens the source: an order, a receiving order, the ledger rows of a document. */
  link: z.object({ kind: z.enum(['order', 'receiving', 'ledger', 'event', 'snapshot', 'manual']), id: z.string() }).nullable(),
  quantity: z.number(), rateMinor: z.number().int(), markupBp: z.number().int(), divisor: z.number().int(), amountMinor: z.number().int(),
  reversesChargeId: z.number().int().nullable(), description: z.string().nullable(),
});
export type ChargeSource = z.infer<typeof chargeSource>;
export const lineSourcesRequest = z.object({ invoiceId: id, lineId: id });
export const lineSourcesResponse = z.object({ items: z.array(chargeSource), totalCount: z.number().int() });

// ---- Unbilled accrual, summary, audit ----

export const unbilledRequest = z.object({ warehouseId: optionalId, customerId: optionalId });
export const unbilledRow = z.object({
  customerId: z.number().int(), customerName: z.string(), warehouseId: z.number().int(), warehouseName: z.string(), currency: z.string(),
  periodFrom: z.string(), periodTo: z.string(),
  byGroup: z.array(z.object({ group: z.enum(CHARGE_GROUPS), amountMinor: z.number().int() })), totalMinor: z.number().int(),
});
export const unbilledResponse = z.object({ items: z.array(unbilledRow) });
export type UnbilledRow = z.infer<typeof unbilledRow>;

export const billingSummaryRequest = z.object({ customerId: id, warehouseId: optionalId, periodFrom: day, periodTo: day })
  .refine((v) => v.periodTo >= v.periodFrom, { message: 'The period must end on or after its start', path: ['periodTo'] });
const byType = z.array(z.object({ chargeType: z.enum(CHARGE_TYPE_KEYS), group: z.enum(CHARGE_GROUPS), amountMinor: z.number().int() }));
export const billingSummary = z.object({
  currency: z.string(),
  current: z.object({ from: z.string(), to: z.string(), totalMinor: z.number().int(), byType }),
  previous: z.object({ from: z.string(), to: z.string(), totalMinor: z.number().int(), byType }),
  lastYear: z.object({ from: z.string(), to: z.string(), totalMinor: z.number().int(), byType }),
  /** Billed per month over the twelve months to the period's end (the line chart). */
  months: z.array(z.object({ month: z.string(), amountMinor: z.number().int(), byType })),
});
export type BillingSummary = z.infer<typeof billingSummary>;

export const ANOMALY_KINDS = ['no-rate', 'zero-rate', 'swing', 'stored-unbilled'] as const;
export const invoiceAuditRequest = z.object({ invoiceId: id, swingPercent: field.int(1, 10_000).optional().default(25) });
export const invoiceAudit = z.object({
  invoice: invoiceDetail,
  previous: invoiceSummary.nullable(),
  differences: z.array(z.object({ chargeType: z.enum(CHARGE_TYPE_KEYS), currentMinor: z.number().int(), previousMinor: z.number().int(), changeMinor: z.number().int(), changePercent: z.number().nullable() })),
  anomalies: z.array(z.object({ kind: z.enum(ANOMALY_KINDS), chargeType: z.string().nullable(), message: z.string() })),
});
export type InvoiceAudit = z.infer<typeof invoiceAudit>;

// ---- Storage snapshots ----

export const snapshotRequest = z.object({ warehouseId: id, customerId: optionalId, from: day, to: day });
export const storageSnapshot = z.object({
  warehouseId: z.number().int(), customerId: z.number().int(), day: z.string(), units: z.number().int(), pallets: z.number().int(),
  volumeCm3: z.number().int(), locationsByType: z.record(z.string(), z.number().int()), source: z.enum(['live', 'rebuilt']),
});
export type StorageSnapshot = z.infer<typeof storageSnapshot>;
export const snapshotResponse = z.object({ items: z.array(storageSnapshot) });
