import { SHIPMENT_STATUSES } from './status.js';
// Parcel shipping (issue 14 items 1–5, 8; spec: /ShippingDashboard): carrier accounts priced by an adapter (a rate
// table the account points at, or a manual carrier whose tracking is typed in), rate shopping for a packed order,
// 4x6 labels per carton (PDF and ZPL) with SSCC / GS1-128 carton labels, ship through ship confirm, and the
// end-of-day close per carrier account that writes a manifest and locks its shipments.
import { z } from 'zod';
import { field, INT_MAX, QUANTITY_MAX } from './fields.js';
import { listRequest, listResponse } from './common.js';

const id = field.id();
const optionalId = field.int(0, INT_MAX).optional();
const isoDay = field.text(10).regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD');
/** Money in minor units (cents): a label costs far less than this bound. */
const minor = (max = 100_000_000) => field.int(0, max);

export { SHIPMENT_STATUSES } from './status.js';
export type { ShipmentStatus } from './status.js';
/** What a shipment ships: an order's cartons, stock shipped by hand (manual: a replacement, an exchange), or an RMA's return label. */
export const SHIPMENT_KINDS = ['order', 'manual', 'return'] as const;
export type ShipmentKind = (typeof SHIPMENT_KINDS)[number];
/** The built-in adapters; live carriers add theirs by the integration's code. */
export const BUILT_IN_ADAPTERS = ['rate-table', 'manual'] as const;
/** Why a packed order cannot go out as it is: shown on the dashboard's exceptions. */
export const SHIPPING_EXCEPTIONS = ['no-carrier', 'no-rate', 'overweight', 'label-failed'] as const;
export type ShippingException = (typeof SHIPPING_EXCEPTIONS)[number];
/** Label formats: 4x6 PDF pages, ZPL text for thermal printers (203 dpi). */
export const LABEL_FORMATS = ['pdf', 'zpl'] as const;
/** Which label: the carrier's shipping label, or the GS1-128 SSCC carton label. */
export const LABEL_KINDS = ['carrier', 'sscc'] as const;

// ---- Rate tables ----

const hhmm = field.text(5).regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use HH:MM (24 hours)');
export const rateTableService = z.object({
  code: field.text(32).trim().min(1, 'Required').regex(/^[A-Za-z0-9_-]+$/, 'Letters, digits, - and _'),
  name: field.text(64).trim().min(1, 'Required'),
  /** Business days in transit once picked up. */
  transitDays: field.int(0, 30),
  /** Last pickup of the day in the warehouse's time: packed after it, a parcel goes the next business day. */
  cutoff: hhmm,
  /** Weight brackets, lightest first: a package's billed weight falls in the first whose maxKg holds it. */
  brackets: z.array(z.object({
    maxKg: field.decimal(0.01, 10_000),
    /** The price per zone ("2" → 1500 = $15.00); a zone left out is not served by this service. */
    pricesMinor: z.record(field.text(8).regex(/^\d{1,3}$/, 'A zone number'), minor()),
  })).min(1, 'At least one weight bracket').max(200),
});
export const rateTableDefinition = z.object({
  currency: field.text(3).regex(/^[A-Z]{3}$/, 'An ISO currency code').default('USD'),
  /** Dimensional weight: L×W×H (cm³) divided by this gives kg (5000 for most carriers, 6000 for some). */
  dimDivisor: field.int(1000, 20_000),
  /** Fuel surcharge on the base price, in basis points (1250 = 12.5 %). */
  fuelSurchargeBp: field.int(0, 10_000),
  /** Per package, when the ship-to is a residence. */
  residentialSurchargeMinor: minor(1_000_000),
  /** The destination's zone: the longest postal-code prefix that matches (spaces ignored, case-insensitive). */
  zones: z.array(z.object({
    postalPrefix: field.text(10).trim().toUpperCase().regex(/^[A-Z0-9]+$/, 'Letters and digits'),
    zone: field.int(1, 999),
  })).min(1, 'At least one zone').max(5000),
  services: z.array(rateTableService).min(1, 'At least one service').max(20),
}).superRefine((t, ctx) => {
  const codes = new Set<string>();
  t.services.forEach((s, i) => {
    if (codes.has(s.code)) ctx.addIssue({ code: 'custom', path: ['services', i, 'code'], message: `Service ${s.code} is listed twice` });
    codes.add(s.code);
    for (let b = 1; b < s.brackets.length; b++) {
      if (s.brackets[b].maxKg <= s.brackets[b - 1].maxKg) ctx.addIssue({ code: 'custom', path: ['services', i, 'brackets', b, 'maxKg'], message: 'Brackets go from lightest to heaviest' });
    }
  });
  const prefixes = new Set<string>();
  t.zones.forEach((z, i) => {
    if (prefixes.has(z.postalPrefix)) ctx.addIssue({ code: 'custom', path: ['zones', i, 'postalPrefix'], message: `Prefix ${z.postalPrefix} is listed twice` });
    prefixes.add(z.postalPrefix);
  });
});
export type RateTableDefinition = z.infer<typeof rateTableDefinition>;
export const saveRateTableInput = z.object({ carrierAccountId: id, definition: rateTableDefinition });
export const rateTableQuery = z.object({ carrierAccountId: field.idParam() });
export const rateTableView = z.object({
  carrierAccountId: z.number().int(), accountName: z.string(), customerId: z.number().int(),
  definition: rateTableDefinition.nullable(), updatedAt: z.string().nullable(),
});

// ---- Rate shopping ----

export const rateShopInput = z.object({
  orderId: id,
  /** The ship-to is a residence (the residential surcharge applies). */
  residential: z.boolean().optional(),
});
export const packageRate = z.object({
  packageNo: z.number().int(), actualKg: z.number(), dimKg: z.number(), billedKg: z.number(),
  baseMinor: z.number().int(), fuelMinor: z.number().int(), residentialMinor: z.number().int(), totalMinor: z.number().int(),
});
export const rateQuote = z.object({
  carrierAccountId: z.number().int(), accountName: z.string(), adapter: z.string(),
  serviceCode: z.string(), serviceName: z.string(),
  /** null: this service cannot take it (see `error`), or a manual carrier with no price known. */
  totalMinor: z.number().int().nullable(), currency: z.string(),
  zone: z.number().int().nullable(), transitDays: z.number().int().nullable(), cutoff: z.string().nullable(),
  /** The day it would leave: today before the cut-off, else the next business day. */
  shipDate: z.string(), estimatedDelivery: z.string().nullable(),
  meetsShipDate: z.boolean(),
  error: z.enum(SHIPPING_EXCEPTIONS).nullable(), errorMessage: z.string().nullable(),
  packages: z.array(packageRate),
});
export type RateQuote = z.infer<typeof rateQuote>;
export const rateShopResult = z.object({
  orderId: z.number().int(), soNumber: z.string(), shipmentId: z.number().int(), shipmentNumber: z.string(),
  requestedShipDate: z.string().nullable(), requestedService: z.string().nullable(),
  /** The order's closed cartons: a manual carrier's label takes a tracking number typed in for each. */
  cartons: z.array(z.object({ cartonId: z.number().int(), cartonNumber: z.string() })),
  quotes: z.array(rateQuote),
  chosen: rateQuote.nullable(),
  reason: z.string(),
});
export type RateShopResult = z.infer<typeof rateShopResult>;

// ---- Shipments, labels, ship, close ----

export const shipmentPackage = z.object({
  packageId: z.number().int(), packageNo: z.number().int(), cartonId: z.number().int().nullable(), cartonNumber: z.string().nullable(),
  sscc: z.string().nullable(), trackingNumber: z.string().nullable(),
  weightKg: z.number().nullable(), lengthCm: z.number().nullable(), widthCm: z.number().nullable(), heightCm: z.number().nullable(),
  billedKg: z.number().nullable(), chargeMinor: z.number().int().nullable(), voided: z.boolean(),
});
export const shipmentSummary = z.object({
  uniqueid: z.number().int(),
  shipmentId: z.number().int(), shipmentNumber: z.string(), kind: z.enum(SHIPMENT_KINDS), status: z.enum(SHIPMENT_STATUSES),
  warehouseId: z.number().int(), customerId: z.number().int(), customerName: z.string(),
  orderId: z.number().int().nullable(), soNumber: z.string().nullable(), referenceNumber: z.string().nullable(),
  carrierAccountId: z.number().int().nullable(), accountName: z.string().nullable(), adapter: z.string().nullable(),
  serviceCode: z.string().nullable(), serviceName: z.string().nullable(),
  rateMinor: z.number().int().nullable(), currency: z.string(), rateReason: z.string().nullable(),
  exception: z.string().nullable(), shipToName: z.string().nullable(), shipToZip: z.string().nullable(),
  packages: z.number().int(), weightKg: z.number(),
  shipDay: z.string().nullable(), manifestId: z.number().int().nullable(), manifestNumber: z.string().nullable(),
  createdAt: z.string(), labelledAt: z.string().nullable(), shippedAt: z.string().nullable(),
  /** The RMA a manual shipment or a return label belongs to. */
  rmaId: z.number().int().nullable(), rmaNumber: z.string().nullable(),
});
export type ShipmentSummary = z.infer<typeof shipmentSummary>;
export const shipmentLine = z.object({
  lineNo: z.number().int(), skuId: z.number().int(), skuCode: z.string(), description: z.string(), locationId: z.number().int(), locationCode: z.string(),
  lot: z.string(), quantity: z.number().int(),
});
export const shipmentHistoryEntry = z.object({ from: z.string(), to: z.string(), at: z.string(), username: z.string().nullable(), reason: z.string().nullable() });
export const shipmentDetail = shipmentSummary.extend({
  packageList: z.array(shipmentPackage), trackingNumbers: z.array(z.string()),
  /** What a manual shipment took from stock (empty for an order's shipment: its order says). */
  lines: z.array(shipmentLine),
  /** The shipment's own view (any shipment by id, e.g. a ticket's link): where it leaves from and goes, its order's status, its moves. */
  warehouseName: z.string(),
  shipTo: z.object({
    name: z.string().nullable(), address1: z.string().nullable(), address2: z.string().nullable(), city: z.string().nullable(),
    state: z.string().nullable(), zip: z.string().nullable(), country: z.string().nullable(),
  }),
  residential: z.boolean(),
  orderStatus: z.string().nullable(),
  closedAt: z.string().nullable(),
  /** Every status change (labelled, voided, shipped, closed, cancelled), oldest first; it was made Open at createdAt. */
  history: z.array(shipmentHistoryEntry),
});
export type ShipmentDetail = z.infer<typeof shipmentDetail>;

export const shipmentFilters = z.object({
  warehouseId: optionalId, customerId: optionalId, carrierAccountId: optionalId,
  status: z.enum(SHIPMENT_STATUSES).optional(), shipDay: isoDay.optional(), manifestId: optionalId,
  kind: z.enum(SHIPMENT_KINDS).optional(), rmaId: optionalId,
});
export const shipmentListRequest = listRequest(shipmentFilters);
export const shipmentListResponse = listResponse(shipmentSummary);
export const shipmentByIdQuery = z.object({ shipmentId: field.idParam() });

export const createLabelsInput = z.object({
  orderId: id,
  /** Another carrier account or service than the rate shop chose. */
  carrierAccountId: optionalId,
  serviceCode: field.text(32).trim().optional(),
  residential: z.boolean().optional(),
  /** A manual carrier's tracking numbers, by carton (typed or scanned). */
  tracking: z.array(z.object({ cartonId: id, trackingNumber: field.text(64).trim().min(1, 'Required').regex(/^[\x20-\x7E]+$/, 'Printable characters only') })).max(1000).optional(),
});
export const shipmentIdInput = z.object({ shipmentId: id, reason: field.text(255).optional() });
export const shipShipmentsInput = z.object({ shipmentIds: z.array(id).min(1, 'Select shipments').max(1000) });
export const shipShipmentsResult = z.object({
  shipped: z.array(z.object({ shipmentId: z.number().int(), shipmentNumber: z.string(), soNumber: z.string().nullable() })),
  refused: z.array(z.object({ shipmentId: z.number().int(), shipmentNumber: z.string().nullable(), message: z.string() })),
});
export const labelsQuery = z.object({
  shipmentIds: field.text(12_000).regex(/^\d+(,\d+)*$/, 'Shipment ids, comma separated'),
  format: z.enum(LABEL_FORMATS).optional().default('pdf'),
  kind: z.enum(LABEL_KINDS).optional().default('carrier'),
});

/** A shipment's tracking, asked of its carrier adapter per parcel (the built-in carriers know no scans: empty). */
export const shipmentTracking = z.object({
  shipmentId: z.number().int(), shipmentNumber: z.string(), adapter: z.string().nullable(),
  parcels: z.array(z.object({ trackingNumber: z.string(), events: z.array(z.object({ at: z.string(), status: z.string(), detail: z.string() })) })),
});
export type ShipmentTracking = z.infer<typeof shipmentTracking>;

export const closeDayInput = z.object({ warehouseId: id, carrierAccountId: id });
export const manifestSummary = z.object({
  manifestId: z.number().int(), manifestNumber: z.string(), warehouseId: z.number().int(), customerId: z.number().int(), customerName: z.string(),
  carrierAccountId: z.number().int(), accountName: z.string(), businessDay: z.string(),
  shipments: z.number().int(), packages: z.number().int(), totalWeightKg: z.number(), totalChargeMinor: z.number().int(), currency: z.string(),
  closedAt: z.string(), closedBy: z.string().nullable(),
});
export type ManifestSummary = z.infer<typeof manifestSummary>;
export const manifestQuery = z.object({ manifestId: field.idParam(), format: z.enum(['pdf', 'csv']).optional().default('pdf') });

// ---- The dashboard ----

export const shippingDashboardQuery = z.object({ warehouseId: field.idParam(), customerId: field.intParam(0, INT_MAX).optional() });
export const waitingOrder = z.object({
  orderId: z.number().int(), soNumber: z.string(), referenceNumber: z.string(), customerId: z.number().int(), customerName: z.string(),
  carrierAccountId: z.number().int().nullable(), accountName: z.string().nullable(), carrierService: z.string().nullable(),
  requestedShipDate: z.string().nullable(), cutoff: z.string().nullable(), cartons: z.number().int(), weightKg: z.number().nullable(),
  shipToName: z.string().nullable(), shipToZip: z.string().nullable(),
  shipmentId: z.number().int().nullable(), shipmentNumber: z.string().nullable(), shipmentStatus: z.enum(SHIPMENT_STATUSES).nullable(),
  serviceName: z.string().nullable(), rateMinor: z.number().int().nullable(), exception: z.string().nullable(),
});
export type WaitingOrder = z.infer<typeof waitingOrder>;
export const shippingDashboard = z.object({
  businessDay: z.string(),
  waiting: z.array(waitingOrder),
  shippedToday: z.array(shipmentSummary),
  /** Per carrier account: shipped shipments not yet on a manifest (what an end-of-day close would take). */
  toClose: z.array(z.object({ carrierAccountId: z.number().int(), accountName: z.string(), customerName: z.string(), shipments: z.number().int(), packages: z.number().int() })),
  manifests: z.array(manifestSummary),
});
export type ShippingDashboard = z.infer<typeof shippingDashboard>;

// ---- Manual shipments and return labels (issue 15 item 4, issue 14) ----

const trackingNumber = field.text(64).trim().min(1, 'Required').regex(/^[\x20-\x7E]+$/, 'Printable characters only');
const parcel = z.object({
  weightKg: field.decimal(0.01, 1000), lengthCm: field.decimal(1, 300), widthCm: field.decimal(1, 300), heightCm: field.decimal(1, 300),
});
const shipToFields = z.object({
  name: field.text(150).trim().min(1, 'Required'), address1: field.text(200).trim().min(1, 'Required'), address2: field.text(200).trim().optional(),
  city: field.text(100).trim().min(1, 'Required'), state: field.text(100).trim().optional(),
  zip: field.text(20).trim().min(1, 'Required'), country: field.text(100).trim().optional(),
});
/** How the parcels are labelled: a carrier account's service (its adapter makes the labels), or a tracking number typed by hand. */
const carrierChoice = {
  carrierAccountId: optionalId,
  serviceCode: field.text(32).trim().optional(),
  /** Typed by hand (a courier booked by phone): no carrier account needed. */
  trackingNumber: trackingNumber.optional(),
  /** The carrier's name with a typed tracking number. */
  carrierName: field.text(64).trim().optional(),
  residential: z.boolean().optional(),
  packages: z.array(parcel).min(1, 'At least one parcel').max(50),
};
const needsCarrierOrTracking = (v: { carrierAccountId?: number; trackingNumber?: string }, ctx: z.RefinementCtx) => {
  if (!v.carrierAccountId && !v.trackingNumber) ctx.addIssue({ code: 'custom', path: ['trackingNumber'], message: 'Choose a carrier account or type a tracking number' });
};

/** A shipment made by hand: lines taken from stock (ledger document SHIPMENT), labelled and shipped at once. */
export const createManualShipmentInput = z.object({
  warehouseId: id, customerId: id,
  /** The RMA it replaces or exchanges goods for. */
  rmaId: optionalId,
  reference: field.text(100).trim().optional(),
  shipTo: shipToFields,
  lines: z.array(z.object({
    skuId: id, locationId: id, lot: field.text(64).trim().optional(), pallet: field.text(64).trim().optional(),
    quantity: field.int(1, QUANTITY_MAX),
  })).min(1, 'At least one line').max(200),
  ...carrierChoice,
}).superRefine(needsCarrierOrTracking);
export type CreateManualShipmentInput = z.input<typeof createManualShipmentInput>;

/** An RMA's return label: from the consumer back to the warehouse, through a carrier account or a tracking number typed by hand. */
export const createReturnLabelInput = z.object({ rmaId: id, ...carrierChoice }).superRefine(needsCarrierOrTracking);
export type CreateReturnLabelInput = z.input<typeof createReturnLabelInput>;
