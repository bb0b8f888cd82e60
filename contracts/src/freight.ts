import { FREIGHT_STATUSES } from './status.js';
// Freight (spec: /FreightShipment, issue 14 items 6–7): LTL shipments of one customer's orders from one warehouse,
// their handling units (pallets) with NMFC classes, the VICS bill of lading, and proof of delivery.
import { z } from 'zod';
import { field, INT_MAX } from './fields.js';
import { listRequest, listResponse } from './common.js';

export { FREIGHT_STATUSES } from './status.js';
export type { FreightStatus } from './status.js';

/** VICS freight charge terms. Third Party needs a bill-to. */
export const FREIGHT_CHARGE_TERMS = ['Prepaid', 'Collect', 'Third Party'] as const;
export type FreightChargeTerms = (typeof FREIGHT_CHARGE_TERMS)[number];

export const HANDLING_UNIT_TYPES = ['Pallet', 'Skid', 'Crate', 'Drum', 'Tote', 'Loose'] as const;
export const FREIGHT_PACKAGE_TYPES = ['Carton', 'Box', 'Bag', 'Bundle', 'Roll', 'Pail', 'Piece'] as const;

/** The 18 NMFC freight classes (written as the tariffs write them). */
export const NMFC_CLASSES = ['50', '55', '60', '65', '70', '77.5', '85', '92.5', '100', '110', '125', '150', '175', '200', '250', '300', '400', '500'] as const;
export type NmfcClass = (typeof NMFC_CLASSES)[number];

/**
 * The NMFC density scales, dated: each docket's tiers (the lowest density, lb/ft³, that earns each class), from the
 * day it takes effect. The scale in force on a day is the latest that started on or before it, so the next docket
 * is one more entry here and nothing else. Docket 2025-1 (NMFC Item 110, 19 July 2025): 13 tiers, adding 55 and 50;
 * checked against the published scale (sub 1 "less than 1" → 400 … sub 7 "10 but less than 12" → 92.5 … sub 13
 * "50 or greater" → 50): each tier's lower bound is inclusive, its upper bound exclusive.
 */
export const NMFC_DENSITY_SCALES: readonly { effectiveFrom: string; docket: string; tiers: readonly { minDensity: number; freightClass: NmfcClass }[] }[] = [
  {
    effectiveFrom: '2025-07-19',
    docket: 'NMFC Docket 2025-1, Item 110 (13-tier density scale)',
    tiers: [
      { minDensity: 50, freightClass: '50' },
      { minDensity: 35, freightClass: '55' },
      { minDensity: 30, freightClass: '60' },
      { minDensity: 22.5, freightClass: '65' },
      { minDensity: 15, freightClass: '70' },
      { minDensity: 12, freightClass: '85' },
      { minDensity: 10, freightClass: '92.5' },
      { minDensity: 8, freightClass: '100' },
      { minDensity: 6, freightClass: '125' },
      { minDensity: 4, freightClass: '175' },
      { minDensity: 2, freightClass: '250' },
      { minDensity: 1, freightClass: '300' },
      { minDensity: 0, freightClass: '400' },
    ],
  },
];

/** The density scale in force on a day (YYYY-MM-DD); null before the first one we hold. */
export function densityScaleOn(day: string) {
  return [...NMFC_DENSITY_SCALES].filter((s) => s.effectiveFrom <= day).sort((a, b) => (a.effectiveFrom < b.effectiveFrom ? 1 : -1))[0] ?? null;
}

const LB_PER_KG = 2.20462262185;
const CM3_PER_FT3 = 28_316.846592;

/** Density in lb/ft³ of a handling unit from its weight (kg) and outside dimensions (cm); 0 with no volume. */
export function densityLbPerFt3(weightKg: number, lengthCm: number, widthCm: number, heightCm: number): number {
  const cubicFeet = (lengthCm * widthCm * heightCm) / CM3_PER_FT3;
  return cubicFeet > 0 ? (weightKg * LB_PER_KG) / cubicFeet : 0;
}

/** The class the density scale in force on `day` gives a density (null before any scale). */
export function freightClassForDensity(density: number, day: string): NmfcClass | null {
  const scale = densityScaleOn(day);
  return scale?.tiers.find((t) => density >= t.minDensity)?.freightClass ?? null;
}

export const MSG_FREIGHT = {
  freightClass: `Not an NMFC freight class: use one of ${NMFC_CLASSES.join(', ')}`,
  scac: 'A SCAC is 2 to 4 capital letters',
  carrierName: 'Please enter the carrier!',
  consigneeName: 'Please enter the consignee!',
  unNumber: 'Hazardous material needs its UN or NA number (UN1234)',
  billTo: 'Third-party charges need a bill-to name',
  description: 'Please enter a description!',
} as const;

const id = field.id();
const optionalId = field.int(0, INT_MAX).optional();
const text = (max: number) => field.text(max).trim();
const optionalText = (max: number) => field.text(max).trim().optional();
const isoDate = field.text(10).regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'Not a real date');
const clock = field.text(5).regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use HH:MM');
const money = field.int(0, INT_MAX, 'Amounts are whole minor units (cents), 0 or more');

export const freightAddress = z.object({
  name: text(100).min(1, MSG_FREIGHT.consigneeName),
  address1: text(200).min(1, 'Please enter the address!'),
  address2: optionalText(200),
  city: text(100).min(1, 'Please enter city!'),
  state: text(50).min(1, 'Please enter state!'),
  zip: text(20).min(1, 'Please enter zip code!'),
  country: text(2).regex(/^[A-Z]{2}$/, 'A two-letter country code').optional().default('US'),
  phone: optionalText(40),
  /** Ship-to location number (VICS "Location #") or the bill-to's account. */
  locationNumber: optionalText(30),
});
export type FreightAddress = z.infer<typeof freightAddress>;

const handlingUnitFields = z.object({
  /** An existing unit kept on an update (it keeps its SSCC); none for a new one. */
  handlingUnitId: id.optional(),
  /** The order whose goods it carries (the customer order table adds it up per order); none for mixed freight. */
  orderId: id.nullable().optional(),
  handlingType: z.enum(HANDLING_UNIT_TYPES),
  handlingQty: field.int(1, 999),
  packageType: z.enum(FREIGHT_PACKAGE_TYPES),
  pieces: field.int(1, 99_999),
  weightKg: field.decimal(0.1, 50_000),
  lengthCm: field.decimal(1, 2_000),
  widthCm: field.decimal(1, 2_000),
  heightCm: field.decimal(1, 2_000),
  freightClass: z.enum(NMFC_CLASSES, { error: MSG_FREIGHT.freightClass }),
  nmfcItem: field.text(16).trim().regex(/^\d{1,6}(-\d{1,2})?$/, 'An NMFC item number: digits, with an optional sub (156600-3)').optional(),
  description: text(200).min(1, MSG_FREIGHT.description),
  hazmat: z.boolean().optional().default(false),
  unNumber: field.text(6).trim().regex(/^(UN|NA)\d{4}$/, MSG_FREIGHT.unNumber).optional(),
});
export const handlingUnitInput = handlingUnitFields.superRefine((u, ctx) => {
  if (u.hazmat && !u.unNumber) ctx.addIssue({ code: 'custom', path: ['unNumber'], message: MSG_FREIGHT.unNumber });
});
export type HandlingUnitInput = z.input<typeof handlingUnitInput>;

const shipmentFields = {
  orderIds: z.array(id).max(50, 'At most 50 orders on one shipment').optional().default([]),
  consignee: freightAddress,
  billTo: freightAddress.optional(),
  carrierName: text(100).min(1, MSG_FREIGHT.carrierName),
  scac: field.text(4).trim().regex(/^[A-Z]{2,4}$/, MSG_FREIGHT.scac),
  proNumber: field.text(20).trim().regex(/^[A-Za-z0-9-]{1,20}$/, 'A PRO number is up to 20 letters, digits or dashes').optional(),
  trailerNumber: optionalText(30),
  sealNumber: optionalText(60),
  chargeTerms: z.enum(FREIGHT_CHARGE_TERMS),
  codAmountMinor: money.optional(),
  declaredValueMinor: money.optional(),
  /** "$ per" of the declared value: the unit it is per (shipment, lb…). */
  declaredValuePer: optionalText(30),
  specialInstructions: optionalText(1000),
  pickupDate: isoDate.optional(),
  pickupWindowFrom: clock.optional(),
  pickupWindowTo: clock.optional(),
  dockDoor: optionalText(30),
  handlingUnits: z.array(handlingUnitInput).min(1, 'Add at least one handling unit').max(200, 'At most 200 handling units'),
};

const shipmentRules = (s: { chargeTerms: FreightChargeTerms; billTo?: unknown; pickupWindowFrom?: string; pickupWindowTo?: string }, ctx: z.RefinementCtx) => {
  if (s.chargeTerms === 'Third Party' && !s.billTo) ctx.addIssue({ code: 'custom', path: ['billTo', 'name'], message: MSG_FREIGHT.billTo });
  if (s.pickupWindowFrom && s.pickupWindowTo && s.pickupWindowTo <= s.pickupWindowFrom) {
    ctx.addIssue({ code: 'custom', path: ['pickupWindowTo'], message: 'The pickup window ends after it starts' });
  }
};

export const createFreightShipmentInput = z.object({ warehouseId: id, customerId: id, ...shipmentFields }).superRefine(shipmentRules);
export type CreateFreightShipmentInput = z.input<typeof createFreightShipmentInput>;
/** An update changes everything but the warehouse and the customer. */
export const updateFreightShipmentInput = z.object({ shipmentId: id, ...shipmentFields }).superRefine(shipmentRules);
export type UpdateFreightShipmentInput = z.input<typeof updateFreightShipmentInput>;

/** The status actions (contracts' status table decides from where each is allowed). */
export const setFreightStatusInput = z.object({
  shipmentId: id,
  status: z.enum(['Tendered', 'Booked', 'Picked Up', 'In Transit', 'Cancelled', 'Planned']),
  reason: optionalText(255),
});

/** Handling units suggested from the orders' closed cartons: one pallet per order. */
export const suggestHandlingUnitsInput = z.object({ warehouseId: id, customerId: id, orderIds: z.array(id).min(1, 'Select orders').max(50) });

/** Proof of delivery: multipart fields beside the file (an image or a PDF). */
export const proofOfDeliveryFields = z.object({
  shipmentId: field.idParam('Please select a shipment'),
  signedBy: field.text(100).trim().min(1, 'Who signed for the freight?'),
  signedAt: field.text(40).trim().refine((s) => !Number.isNaN(Date.parse(s)), 'A date and time (ISO 8601)'),
});
export const POD_MAX_BYTES = 10 * 1024 * 1024;

export const freightShipmentByIdQuery = z.object({ shipmentId: field.idParam() });

export const freightShipmentFilters = z.object({
  warehouseId: optionalId,
  customerId: optionalId,
  status: z.enum(FREIGHT_STATUSES).optional(),
  scac: field.text(4).optional(),
});
export type FreightShipmentFilters = z.infer<typeof freightShipmentFilters>;

export const handlingUnitView = z.object({
  handlingUnitId: z.number().int(),
  orderId: z.number().int().nullable(),
  soNumber: z.string().nullable(),
  handlingType: z.string(),
  handlingQty: z.number().int(),
  packageType: z.string(),
  pieces: z.number().int(),
  weightKg: z.number(),
  lengthCm: z.number(),
  widthCm: z.number(),
  heightCm: z.number(),
  freightClass: z.string(),
  nmfcItem: z.string().nullable(),
  description: z.string(),
  hazmat: z.boolean(),
  unNumber: z.string().nullable(),
  /** Pallets of a customer with a GS1 company prefix. */
  sscc: z.string().nullable(),
  densityLbFt3: z.number(),
  /** What the density scale in force gives (the entered class may differ: an NMFC item can override density). */
  suggestedClass: z.string().nullable(),
});
export type HandlingUnitView = z.infer<typeof handlingUnitView>;

export const freightOrderView = z.object({
  orderId: z.number().int(), soNumber: z.string(), referenceNumber: z.string(), status: z.string(), cartons: z.number().int(), weightKg: z.number(),
});

const addressView = freightAddress.extend({ country: z.string() });

export const freightShipmentSummary = z.object({
  uniqueid: z.number().int(),
  shipmentId: z.number().int(),
  shipNumber: z.string(),
  bolNumber: z.string(),
  status: z.enum(FREIGHT_STATUSES),
  warehouseId: z.number().int(),
  warehouseName: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  consignee: addressView,
  billTo: addressView.nullable(),
  carrierName: z.string(),
  scac: z.string(),
  proNumber: z.string().nullable(),
  trailerNumber: z.string().nullable(),
  sealNumber: z.string().nullable(),
  chargeTerms: z.enum(FREIGHT_CHARGE_TERMS),
  codAmountMinor: z.number().int().nullable(),
  declaredValueMinor: z.number().int().nullable(),
  declaredValuePer: z.string().nullable(),
  specialInstructions: z.string().nullable(),
  pickupDate: z.string().nullable(),
  pickupWindowFrom: z.string().nullable(),
  pickupWindowTo: z.string().nullable(),
  dockDoor: z.string().nullable(),
  orders: z.array(freightOrderView),
  handlingUnits: z.array(handlingUnitView),
  totalHandlingUnits: z.number().int(),
  totalPieces: z.number().int(),
  totalWeightKg: z.number(),
  pickedUpAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  proofOfDelivery: z.object({ fileId: z.number().int(), fileName: z.string(), mimeType: z.string(), signedBy: z.string(), signedAt: z.string() }).nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type FreightShipmentSummary = z.infer<typeof freightShipmentSummary>;

export const freightShipmentDetail = freightShipmentSummary.extend({
  history: z.array(z.object({ fromStatus: z.string(), toStatus: z.string(), at: z.string(), username: z.string().nullable(), reason: z.string().nullable() })),
});
export type FreightShipmentDetail = z.infer<typeof freightShipmentDetail>;

export const freightShipmentListRequest = listRequest(freightShipmentFilters);
export const freightShipmentListResponse = listResponse(freightShipmentSummary);

export const freightClassesResponse = z.object({
  classes: z.array(z.string()),
  scale: z.object({ effectiveFrom: z.string(), docket: z.string(), tiers: z.array(z.object({ minDensity: z.number(), freightClass: z.string() })) }).nullable(),
});
export const suggestedHandlingUnits = z.array(handlingUnitFields.extend({ densityLbFt3: z.number(), suggestedClass: z.string().nullable() }));
