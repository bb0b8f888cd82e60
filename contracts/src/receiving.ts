// Inbound: receiving orders ('RO'), receipts into a dock, putaway, and the RO reports (spec: /InBound,
// /ROReport, /ROReportDetails, /ROInward; the Add Data panel's RO form: Supplier, Expected Delivery Date, documents).
import { z } from 'zod';
import { field, INT_MAX, QUANTITY_MAX } from './fields.js';
import { listRequest, listResponse } from './common.js';
import { stockMovementResult } from './inventory.js';

const id = field.id();
const date = (message: string) => field.text(40, { error: message }).trim().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'Not a real date');
const units = (what: string) => z.number({ error: `Please enter ${what}!` }).int(`${what[0].toUpperCase()}${what.slice(1)} must be a whole number`)
  .min(0, `${what[0].toUpperCase()}${what.slice(1)} cannot be negative`).max(10_000_000, 'Quantity is too large');
const text = (max: number) => field.text(max, undefined, `At most ${max} characters`).trim();

/** The RO's life: Open (created) → Receiving (first receipt) → Received (finalized) → Closed (all put away); Open → Cancelled. */
export const RO_STATUSES = ['Open', 'Receiving', 'Received', 'Closed', 'Cancelled'] as const;
export type ReceivingStatus = (typeof RO_STATUSES)[number];

export const MSG_RECEIVING = {
  supplier: 'Please enter supplier!',
  expectedDate: 'Please enter expected delivery date!',
  sku: 'Please select a SKU!',
  lines: 'Add at least one SKU line',
  scan: 'Please scan or enter a SKU, barcode or GTIN!',
  location: 'Please select a location!',
  nothingReceived: 'Enter a good or damaged quantity above 0',
  /** The details of ReceiveItem's 409 for a lot past its expiry: the screen asks, then sends confirmExpired. */
  expiredLot: 'Confirm to receive an expired lot: it can only be put away to quarantine',
} as const;

export const roLineInput = z.object({
  skuId: field.id(MSG_RECEIVING.sku),
  expectedQuantity: units('expected quantity').refine((n) => n > 0, 'Expected quantity must be more than 0'),
  notes: text(255).optional(),
  /** The lot and expiry the supplier announced, for a SKU that tracks them: what "receive as expected" receives. */
  lot: text(64).optional(),
  expiryDate: date('Use YYYY-MM-DD').optional(),
});

const roHeader = {
  supplier: field.text(128, { error: MSG_RECEIVING.supplier }, 'At most 128 characters').trim().min(1, MSG_RECEIVING.supplier),
  expectedDeliveryDate: date(MSG_RECEIVING.expectedDate),
  referenceNumber: text(64).optional(),
  notes: text(1000).optional(),
};

export const createReceivingOrderInput = z.object({
  warehouseId: id,
  customerId: id,
  ...roHeader,
  lines: z.array(roLineInput, { error: MSG_RECEIVING.lines }).min(1, MSG_RECEIVING.lines).max(1000, 'At most 1,000 lines'),
});
export type CreateReceivingOrderInput = z.infer<typeof createReceivingOrderInput>;

/**
 * Replaces the header and the lines, matched by SKU (one line per SKU): a SKU not sent is removed (only when
 * nothing was received on it), a new one is added, the others take the new expected quantity.
 */
export const updateReceivingOrderInput = z.object({
  receivingOrderId: id,
  ...roHeader,
  lines: z.array(roLineInput, { error: MSG_RECEIVING.lines }).min(1, MSG_RECEIVING.lines).max(1000, 'At most 1,000 lines'),
});
export type UpdateReceivingOrderInput = z.infer<typeof updateReceivingOrderInput>;

export const receivingOrderIdInput = z.object({ receivingOrderId: id, reason: text(255).optional() });
export const receivingOrderByIdQuery = z.object({ receivingOrderId: field.idParam() });

export const receiveItemInput = z.object({
  receivingOrderId: id,
  /** What was scanned or typed: the SKU code, a UPC/barcode of the SKU, or a package GTIN. */
  scanCode: field.text(64, { error: MSG_RECEIVING.scan }).trim().min(1, MSG_RECEIVING.scan),
  /** The dock or staging location the goods arrive at. */
  locationId: field.id(MSG_RECEIVING.location),
  lot: text(64).optional().default(''),
  expiryDate: date('Please enter expiry date!').optional(),
  pallet: text(64).optional().default(''),
  /** The inbound carton the units came in (its label or LPN): receiving per carton bills each carton of the order once. */
  carton: text(64).optional().default(''),
  /** Good units, put into stock at the location. */
  quantity: units('quantity').default(0),
  /** Damaged units: recorded on the line; stocked at `damagedLocationId` when one is given, else refused at the door. */
  damagedQuantity: units('damaged quantity').default(0),
  damagedLocationId: id.optional(),
  note: text(255).optional(),
  /** The receiver has confirmed a lot already past its expiry date (else 409); it is put away to quarantine only. */
  confirmExpired: z.boolean().optional().default(false),
}).refine((r) => r.quantity + r.damagedQuantity > 0, { message: MSG_RECEIVING.nothingReceived, path: ['quantity'] });
export type ReceiveItemInput = z.infer<typeof receiveItemInput>;

export const putawayInput = z.object({
  receivingOrderId: id,
  lineId: id,
  /** The dock/staging location the goods were received into. */
  fromLocationId: id,
  toLocationId: field.id(MSG_RECEIVING.location),
  lot: text(64).optional().default(''),
  pallet: text(64).optional().default(''),
  quantity: units('quantity').refine((n) => n > 0, 'Quantity must be more than 0'),
});
export type PutawayInput = z.infer<typeof putawayInput>;

export const suggestPutawayQuery = z.object({
  receivingOrderId: field.idParam(),
  lineId: field.idParam(),
  quantity: field.intParam(1, QUANTITY_MAX).optional(),
  pallet: field.text(64).optional(),
  /** The lot waiting at the dock: an expired one is offered quarantine locations only. */
  lot: field.text(64).optional(),
});
export const putawaySuggestion = z.object({
  locationId: z.number().int(),
  locationCode: z.string(),
  locationType: z.string(),
  zone: z.string().nullable(),
  capacity: z.number().int(),
  onHand: z.number().int(),
  /** Units the location can still take; null when its capacity is unlimited (0). */
  freeCapacity: z.number().int().nullable(),
  reason: z.enum(['SKU already here', 'Empty location', 'Quarantine (expired lot)']),
});
/** The receive panel's places: where goods are received (dock, staging) and where damaged goods go (quarantine, returns). */
export const dockLocationsQuery = z.object({ warehouseId: field.idParam() });
export const dockLocation = z.object({ locationId: z.number().int(), locationCode: z.string(), locationType: z.enum(['dock', 'staging', 'quarantine', 'returns']) });
export const dockLocationsResponse = z.array(dockLocation);
export type DockLocation = z.infer<typeof dockLocation>;

export const putawaySuggestions = z.object({ skuId: z.number().int(), quantity: z.number().int(), suggestions: z.array(putawaySuggestion) });

export const roLine = z.object({
  lineId: z.number().int(),
  lineNo: z.number().int(),
  skuId: z.number().int(),
  skuCode: z.string(),
  skuDescription: z.string(),
  isLotTracked: z.boolean(),
  isExpiryTracked: z.boolean(),
  expectedQuantity: z.number().int(),
  receivedQuantity: z.number().int(),
  damagedQuantity: z.number().int(),
  overQuantity: z.number().int(),
  shortQuantity: z.number().int(),
  putawayQuantity: z.number().int(),
  /** Good units received and not yet put away. */
  awaitingPutaway: z.number().int(),
  notes: z.string().nullable(),
  /** The lot and expiry the supplier announced ('' / null: none). */
  lot: z.string().optional(),
  expiryDate: z.string().nullable().optional(),
});
export const roReceipt = z.object({
  receiptId: z.number().int(),
  lineId: z.number().int(),
  skuCode: z.string(),
  locationId: z.number().int(),
  locationCode: z.string(),
  lot: z.string(),
  expiryDate: z.string().nullable(),
  pallet: z.string(),
  /** The inbound carton the scan named (its label or LPN; '' when none). */
  carton: z.string(),
  quantity: z.number().int(),
  damagedQuantity: z.number().int(),
  damagedLocationCode: z.string().nullable(),
  document: z.string(),
  receivedBy: z.string().nullable(),
  receivedAt: z.string(),
});
export const roPutaway = z.object({
  putawayId: z.number().int(),
  lineId: z.number().int(),
  skuCode: z.string(),
  fromLocationCode: z.string(),
  toLocationCode: z.string(),
  lot: z.string(),
  pallet: z.string(),
  quantity: z.number().int(),
  document: z.string(),
  putawayBy: z.string().nullable(),
  putawayAt: z.string(),
});
export const roDocument = z.object({ documentId: z.number().int(), fileName: z.string(), mimeType: z.string(), sizeBytes: z.number().int(), uploadedAt: z.string() });

/** A receiving order's header with its totals (the list row, and the RO summary report row). */
export const receivingOrderSummary = z.object({
  uniqueid: z.number().int(),
  receivingOrderId: z.number().int(),
  roNumber: z.string(),
  warehouseId: z.number().int(),
  warehouseName: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  supplier: z.string(),
  referenceNumber: z.string(),
  expectedDeliveryDate: z.string(),
  status: z.enum(RO_STATUSES),
  notes: z.string().nullable(),
  lineCount: z.number().int(),
  expectedQuantity: z.number().int(),
  receivedQuantity: z.number().int(),
  damagedQuantity: z.number().int(),
  overQuantity: z.number().int(),
  shortQuantity: z.number().int(),
  putawayQuantity: z.number().int(),
  createdAt: z.string(),
  receivedAt: z.string().nullable(),
  finalizedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
});
export type ReceivingOrderSummary = z.infer<typeof receivingOrderSummary>;
export const receivingOrderDetail = receivingOrderSummary.extend({
  lines: z.array(roLine),
  receipts: z.array(roReceipt),
  putaways: z.array(roPutaway),
  documents: z.array(roDocument),
});
export type ReceivingOrderDetail = z.infer<typeof receivingOrderDetail>;

export const receivingOrderFilters = z.object({
  warehouseId: field.int(0, INT_MAX).optional(),
  customerId: field.int(0, INT_MAX).optional(),
  status: z.enum(RO_STATUSES).optional(),
  /** Expected delivery date range (YYYY-MM-DD, inclusive). */
  fromDate: field.text(10).regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD').optional(),
  toDate: field.text(10).regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD').optional(),
  /** The inward log: only receipts of today, each warehouse's business day in its own time zone (not the browser's). */
  today: z.boolean().optional(),
});
export type ReceivingOrderFilters = z.infer<typeof receivingOrderFilters>;
export const receivingOrderListRequest = listRequest(receivingOrderFilters);
export const receivingOrderListResponse = listResponse(receivingOrderSummary);

/** The RO a report row belongs to (the details and inward reports). */
const roReportRowFields = {
  uniqueid: z.number().int(),
  receivingOrderId: z.number().int(),
  roNumber: z.string(),
  warehouseName: z.string(),
  customerName: z.string(),
  supplier: z.string(),
};

/** RO details report: one row per RO line. */
export const roDetailRow = roLine.extend({
  ...roReportRowFields,
  expectedDeliveryDate: z.string(),
  status: z.enum(RO_STATUSES),
});
export const roDetailListResponse = listResponse(roDetailRow);

/** RO inward log: one row per receipt (scan) at the dock; its date range is the receipt time. */
export const roInwardRow = roReceipt.extend({
  ...roReportRowFields,
  skuDescription: z.string(),
});
export const roInwardListResponse = listResponse(roInwardRow);

/**
 * ReceiveAsExpected: the whole order (or the lines chosen) arrives as expected — each line's remaining quantity
 * with the lot and expiry it announced — into a dock, or straight on to each line's first putaway suggestion;
 * one transaction, one ledger document.
 */
export const receiveAsExpectedInput = z.object({
  receivingOrderId: id,
  /** The lines to receive; every line with units still expected when omitted. */
  lineIds: z.array(id).min(1, 'Choose at least one line').max(1000, 'At most 1,000 lines').optional(),
  /** The dock or staging location the goods arrive at. */
  locationId: field.id(MSG_RECEIVING.location),
  /** Put each line away at once to its first suggestion (where the SKU already is, else an empty location; an expired lot: quarantine). */
  putaway: z.boolean().optional().default(false),
  /** Finalize the order afterwards; it closes once everything is put away. */
  finalize: z.boolean().optional().default(false),
  /** The receiver has confirmed lines whose lot is already past its expiry date (else 409). */
  confirmExpired: z.boolean().optional().default(false),
});
export type ReceiveAsExpectedInput = z.infer<typeof receiveAsExpectedInput>;
export const receiveAsExpectedResult = z.object({
  order: receivingOrderSummary,
  document: z.string(),
  lineCount: z.number().int(),
  quantity: z.number().int(),
  putaways: z.array(z.object({ lineId: z.number().int(), skuCode: z.string(), locationId: z.number().int(), locationCode: z.string(), quantity: z.number().int() })),
});

export const receiveItemResult = z.object({ order: receivingOrderSummary, line: roLine, movement: stockMovementResult.nullable(), matchedBy: z.enum(['sku', 'upc', 'barcode', 'gtin']) });
export const putawayResult = z.object({ order: receivingOrderSummary, line: roLine, movement: stockMovementResult });

/** UploadReceivingOrder: the sheet's columns (SKU and Expected Quantity always; the rest may come from the form). */
export const RO_UPLOAD_COLUMNS = ['Supplier', 'Expected Delivery Date', 'Reference Number', 'SKU', 'Expected Quantity', 'Notes', 'Lot', 'Expiry Date'] as const;
/** Multipart text fields of UploadReceivingOrder; Supplier and Expected Delivery Date are the defaults for rows without them. */
export const uploadReceivingOrderFields = z.object({
  warehouseId: field.idParam('Please select a warehouse'),
  customerId: field.idParam('Please select a client'),
  supplier: field.text(128, undefined, 'At most 128 characters').trim().optional(),
  expectedDeliveryDate: field.text(40).trim().optional().refine((s) => !s || /^\d{4}-\d{2}-\d{2}$/.test(s), 'Use YYYY-MM-DD'),
  referenceNumber: field.text(64).trim().optional(),
});
export const uploadReceivingOrderResult = z.object({
  fileName: z.string(),
  orders: z.array(z.object({ receivingOrderId: z.number().int(), roNumber: z.string(), lineCount: z.number().int() })),
});
/** Most rows one RO upload may hold. */
export const MAX_RO_UPLOAD_ROWS = 5000;
/** RO documents (spec section 5: RO up to 3 files, Excel or CSV). */
export const RO_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
export const MAX_RO_DOCUMENTS = 3;
/** AddReceivingOrderDocument's multipart fields (besides `file`). */
export const roDocumentFields = z.object({ receivingOrderId: field.idParam('Please select a receiving order') });
export const roDocumentQuery = z.object({ documentId: field.idParam() });
