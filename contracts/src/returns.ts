import { RMA_STATUSES, type RmaStatus } from './status.js';
import { z } from 'zod';
import { listRequest, listResponse } from './common.js';
import { field, QUANTITY_MAX } from './fields.js';

// ----- issue 15: returns and RMA -----

/** Spec section 2 "RMA": the dashboard's texts, views, menu keys and placeholder. */
export const RMA_SCREEN = {
  header: 'RMA Dashboard',
  text: 'Manage your returns here',
  selectWarning: 'Please Select A Warehouse And Customer',
  placeholderRows: 5,
} as const;
/** Spec section 4: the RMA view is dashboard, rma or manual. */
export const RMA_VIEWS = ['dashboard', 'rma', 'manual'] as const;
export type RmaView = (typeof RMA_VIEWS)[number];
/** Spec section 2: menu key 1 opens manual shipping, key 2 the new RMA view. */
export const RMA_MENU_KEYS: Readonly<Record<string, RmaView>> = { '1': 'manual', '2': 'rma' };

export { RMA_STATUSES } from './status.js';
export type { RmaStatus } from './status.js';
/** The statuses an RMA still counts its authorised quantity in (it may yet be returned). */
export const RMA_OPEN_STATUSES: readonly RmaStatus[] = ['Authorised', 'In Transit', 'Received', 'Inspected'];

export const RETURN_REASONS = ['damaged', 'wrong-item', 'not-as-described', 'no-longer-needed', 'defective', 'other'] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];
export const RETURN_REASON_LABELS: Record<ReturnReason, string> = {
  damaged: 'Damaged', 'wrong-item': 'Wrong item', 'not-as-described': 'Not as described', 'no-longer-needed': 'No longer needed', defective: 'Defective', other: 'Other',
};
export const RETURN_CONDITIONS = ['new', 'opened', 'damaged', 'defective'] as const;
export type ReturnCondition = (typeof RETURN_CONDITIONS)[number];
export const RETURN_CONDITION_LABELS: Record<ReturnCondition, string> = { new: 'New', opened: 'Opened', damaged: 'Damaged', defective: 'Defective' };
export const RMA_RESOLUTIONS = ['refund', 'replace'] as const;
export type RmaResolution = (typeof RMA_RESOLUTIONS)[number];
/**
 * What becomes of a returned unit: restock (back to sellable stock, ledger `return`), quarantine (a quarantine
 * location, held: never allocated), refurbish (a work location, held while worked on), dispose (ledger `dispose`).
 */
export const RETURN_DISPOSITIONS = ['restock', 'quarantine', 'refurbish', 'dispose'] as const;
export type ReturnDisposition = (typeof RETURN_DISPOSITIONS)[number];
export const RETURN_DISPOSITION_LABELS: Record<ReturnDisposition, string> = { restock: 'Restock', quarantine: 'Quarantine', refurbish: 'Refurbish', dispose: 'Dispose' };
/** Where a returned item is: received (waiting for inspection), inspected (waiting for its disposition), disposed. */
export const RETURN_ITEM_STATUSES = ['Received', 'Inspected', 'Disposed'] as const;
export type ReturnItemStatus = (typeof RETURN_ITEM_STATUSES)[number];

/** Issue 15 item 2: inspection photos are images of at most 10 MB. */
export const RETURN_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const RETURN_PHOTOS_PER_ITEM = 10;
/** An authorisation's default life when none is given. */
export const RMA_DEFAULT_DAYS = 30;
export const RMA_LINES_MAX = 200;

export const MSG_RETURNS = {
  order: 'Please select a shipped order',
  lines: 'Add at least one line to return',
  quantity: 'Enter a quantity of at least 1',
  location: 'Please select a location',
  code: 'Scan or enter a code',
  reason: 'Please give a reason for disposing',
} as const;

const id = field.id();
const isoDate = field.text(10).regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD');
const qty = field.int(1, QUANTITY_MAX, { error: MSG_RETURNS.quantity });
const optionalText = (max: number) => field.text(max).trim().optional();

export const rmaLineInput = z.object({
  orderLineId: id,
  quantity: qty,
  reason: z.enum(RETURN_REASONS),
  expectedCondition: z.enum(RETURN_CONDITIONS).optional().default('new'),
  notes: optionalText(500),
});
export const createRmaInput = z.object({
  orderId: field.id({ error: MSG_RETURNS.order }),
  resolution: z.enum(RMA_RESOLUTIONS),
  /** The last day the return may arrive (default: RMA_DEFAULT_DAYS from today in the warehouse). */
  expiresOn: isoDate.optional(),
  /** A return label's tracking number, entered by hand (the label itself arrives with the shipping module). */
  trackingNumber: optionalText(64),
  carrier: optionalText(64),
  notes: optionalText(1000),
  lines: z.array(rmaLineInput).min(1, MSG_RETURNS.lines).max(RMA_LINES_MAX),
});
export type CreateRmaInput = z.infer<typeof createRmaInput>;

export const rmaIdInput = z.object({ rmaId: id, reason: optionalText(500) });
export const rmaIdQuery = z.object({ rmaId: field.idParam() });
export const rmaTrackingInput = z.object({ rmaId: id, trackingNumber: field.text(64).trim().min(1, 'Enter the tracking number'), carrier: optionalText(64) });

export const rmaLine = z.object({
  lineId: z.number().int(), orderLineId: z.number().int(), skuId: z.number().int(), skuCode: z.string(), description: z.string(),
  quantity: z.number().int(), receivedQuantity: z.number().int(), reason: z.enum(RETURN_REASONS), expectedCondition: z.enum(RETURN_CONDITIONS), notes: z.string().nullable(),
});
export const returnPhoto = z.object({ photoId: z.number().int(), fileId: z.number().int(), fileName: z.string() });
export const returnItem = z.object({
  uniqueid: z.number().int(), itemId: z.number().int(), status: z.enum(RETURN_ITEM_STATUSES),
  rmaId: z.number().int().nullable(), rmaNumber: z.string().nullable(), rmaLineId: z.number().int().nullable(), returnNumber: z.string(),
  warehouseId: z.number().int(), customerId: z.number().int(), customerName: z.string(),
  orderId: z.number().int().nullable(), soNumber: z.string().nullable(),
  skuId: z.number().int(), skuCode: z.string(), description: z.string(), lot: z.string(), expiryDate: z.string().nullable(), quantity: z.number().int(),
  reason: z.enum(RETURN_REASONS), locationId: z.number().int(), locationCode: z.string(), receivedAt: z.string(), receivedBy: z.string().nullable(),
  condition: z.enum(RETURN_CONDITIONS).nullable(), notes: z.string().nullable(), inspectedAt: z.string().nullable(),
  disposition: z.enum(RETURN_DISPOSITIONS).nullable(), dispositionLocationCode: z.string().nullable(), dispositionReason: z.string().nullable(), disposedAt: z.string().nullable(),
  photos: z.array(returnPhoto),
});
export type ReturnItem = z.infer<typeof returnItem>;

export const rmaSummary = z.object({
  uniqueid: z.number().int(), rmaId: z.number().int(), rmaNumber: z.string(), status: z.enum(RMA_STATUSES),
  warehouseId: z.number().int(), customerId: z.number().int(), customerName: z.string(),
  orderId: z.number().int(), soNumber: z.string(), referenceNumber: z.string(), resolution: z.enum(RMA_RESOLUTIONS),
  expiresOn: z.string(), trackingNumber: z.string().nullable(), carrier: z.string().nullable(),
  units: z.number().int(), receivedUnits: z.number().int(), createdVia: z.enum(['screen', 'api']), createdAt: z.string(),
});
export type RmaSummary = z.infer<typeof rmaSummary>;
export const rmaHistoryEntry = z.object({ from: z.string(), to: z.string(), at: z.string(), username: z.string().nullable(), reason: z.string().nullable() });
export const rmaDetail = rmaSummary.extend({
  notes: z.string().nullable(),
  lines: z.array(rmaLine),
  items: z.array(returnItem),
  history: z.array(rmaHistoryEntry),
});
export type RmaDetail = z.infer<typeof rmaDetail>;

export const rmaFilters = z.object({
  warehouseId: field.int(0, Number.MAX_SAFE_INTEGER).optional(),
  customerId: field.int(0, Number.MAX_SAFE_INTEGER).optional(),
  status: z.enum(RMA_STATUSES).optional(),
  orderId: field.int(0, Number.MAX_SAFE_INTEGER).optional(),
});
export const rmaListRequest = listRequest(rmaFilters);
export const rmaListResponse = listResponse(rmaSummary);

/** A shipped order as the new RMA view shows it: what each line shipped and may still be returned. */
export const returnableOrderQuery = z.object({
  warehouseId: field.idParam(), customerId: field.idParam(), code: field.text(64).trim().min(1, 'Enter an order or reference number'),
});
export const returnableOrder = z.object({
  orderId: z.number().int(), soNumber: z.string(), referenceNumber: z.string(), shipDate: z.string().nullable(), customerId: z.number().int(),
  lines: z.array(z.object({
    orderLineId: z.number().int(), skuId: z.number().int(), skuCode: z.string(), description: z.string(), lot: z.string().nullable(),
    shipped: z.number().int(), returnable: z.number().int(),
  })),
});
export type ReturnableOrder = z.infer<typeof returnableOrder>;

// ----- /Returns: scan, receive, inspect, dispose -----

export const returnScanInput = z.object({ warehouseId: id, code: field.text(64).trim().min(1, MSG_RETURNS.code) });
/**
 * The open RMAs a scan found (by RMA number, order number or reference, or tracking number); with none open, the
 * finished ones and a message that nothing is left to receive (shown read-only).
 */
export const returnScanResult = z.object({ code: z.string(), rmas: z.array(rmaSummary), message: z.string().optional() });

export const receiveReturnInput = z.object({
  rmaId: id,
  /** The item's scan (SKU code, UPC or package GTIN). */
  code: field.text(64).trim().min(1, MSG_RETURNS.code),
  quantity: qty.optional().default(1),
  /** A returns location of the RMA's warehouse, where the units wait for inspection. */
  locationId: field.id({ error: MSG_RETURNS.location }),
  lot: optionalText(64),
  expiryDate: isoDate.optional(),
  /** A manager lets more in than the RMA authorised (never more than shipped). */
  approveOverReceipt: z.boolean().optional(),
});
export const inspectReturnInput = z.object({ itemId: id, condition: z.enum(RETURN_CONDITIONS), notes: optionalText(1000) });
/** AddReturnPhoto's multipart text fields (the image: the part named `file`). */
export const returnPhotoFields = z.object({ itemId: field.idParam() });
export const disposeReturnInput = z.object({
  itemId: id,
  disposition: z.enum(RETURN_DISPOSITIONS),
  /** Restock: a storage location; quarantine: a quarantine location; refurbish: a work (non-storage) location. Not for dispose. */
  locationId: field.id().optional(),
  /** Why it is disposed of (required for dispose). */
  reason: optionalText(200),
});

export const manualReturnInput = z.object({
  warehouseId: id,
  customerId: field.id({ error: 'Please select a client' }),
  skuId: field.id({ error: 'Scan or search the item' }),
  quantity: qty,
  locationId: field.id({ error: MSG_RETURNS.location }),
  lot: optionalText(64),
  expiryDate: isoDate.optional(),
  reason: z.enum(RETURN_REASONS).optional().default('other'),
  /** The order it came from, when known (else linked later): by id, or by its order or reference number. */
  orderId: field.id().optional(),
  orderNumber: optionalText(64),
  notes: optionalText(1000),
});
export const linkReturnInput = z.object({ itemId: id, orderId: field.id().optional(), orderNumber: optionalText(64) })
  .refine((v) => v.orderId !== undefined || !!v.orderNumber, { message: 'Enter the order number', path: ['orderNumber'] });

/** The locations a returns step may use: receive (returns), restock (storage), quarantine, refurbish (work locations). */
export const RETURN_LOCATION_PURPOSES = ['receive', 'restock', 'quarantine', 'refurbish'] as const;
export const returnLocationsQuery = z.object({
  warehouseId: field.idParam(), purpose: z.enum(RETURN_LOCATION_PURPOSES), search: field.text(64).trim().optional(),
});
export const returnLocation = z.object({ locationId: z.number().int(), code: z.string(), type: z.string() });

export const returnSkuQuery = z.object({ warehouseId: field.idParam(), customerId: field.intParam(0, Number.MAX_SAFE_INTEGER).optional(), code: field.text(64).trim().min(1, MSG_RETURNS.code) });
export const returnSkuMatch = z.object({ skuId: z.number().int(), customerId: z.number().int(), customerName: z.string(), skuCode: z.string(), description: z.string() });

export const returnItemFilters = z.object({
  warehouseId: field.int(0, Number.MAX_SAFE_INTEGER).optional(),
  customerId: field.int(0, Number.MAX_SAFE_INTEGER).optional(),
  status: z.enum(RETURN_ITEM_STATUSES).optional(),
  /** true: parcels without an RMA only; false: RMA returns only. */
  manual: z.boolean().optional(),
  rmaId: field.int(0, Number.MAX_SAFE_INTEGER).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
});
export const returnItemListRequest = listRequest(returnItemFilters);
export const returnItemListResponse = listResponse(returnItem);

// ----- /Return: the processed returns report -----

export const returnsReportRequest = z.object({
  warehouseId: field.int(0, Number.MAX_SAFE_INTEGER).optional(),
  customerId: field.int(0, Number.MAX_SAFE_INTEGER).optional(),
  from: isoDate,
  to: isoDate,
});
export const returnsReport = z.object({
  from: z.string(), to: z.string(),
  totals: z.object({ units: z.number().int(), items: z.number().int(), rmas: z.number().int(), shipped: z.number().int() }),
  byReason: z.array(z.object({ reason: z.enum(RETURN_REASONS), units: z.number().int() })),
  byDisposition: z.array(z.object({ disposition: z.enum([...RETURN_DISPOSITIONS, 'pending']), units: z.number().int() })),
  /** Units returned per day of the period and disposition (the chart). */
  byDay: z.array(z.object({ day: z.string(), disposition: z.enum([...RETURN_DISPOSITIONS, 'pending']), units: z.number().int() })),
  byClient: z.array(z.object({ customerId: z.number().int(), customerName: z.string(), units: z.number().int() })),
  /** Return rate per SKU: units returned in the period over units shipped in it (null when none shipped). */
  bySku: z.array(z.object({
    skuId: z.number().int(), skuCode: z.string(), description: z.string(), customerName: z.string(),
    returned: z.number().int(), shipped: z.number().int(), rate: z.number().nullable(),
  })),
});
export type ReturnsReport = z.infer<typeof returnsReport>;
