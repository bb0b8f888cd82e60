// Outbound orders ('SO'): the order model and its intake (spec: /OrderDashboard; the Add Data panel's Orders card:
// Order Type, Order Date, Reference Number, documents). Allocation, backorders and kits build on these.
import { z } from 'zod';
import { field, INT_MAX, QUANTITY_MAX } from './fields.js';
import { listRequest, listResponse } from './common.js';

/**
 * The order's life. New (taken in) → Allocated / Partially Allocated / Backordered (stock reserved, or waiting) →
 * Released (to the floor) → Picking → Picked → Packed → Shipped. On Hold stops an order before the floor takes it;
 * Cancelled ends one that has not started picking.
 */
export const ORDER_STATUSES = [
  'New', 'Allocated', 'Partially Allocated', 'Backordered', 'On Hold', 'Released', 'Picking', 'Picked', 'Packed', 'Shipped', 'Cancelled',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The statuses a client account (or its API key) may still cancel an order from: before it is released to the floor. */
export const CLIENT_CANCELLABLE_ORDER_STATUSES: readonly OrderStatus[] = ['New', 'Allocated', 'Partially Allocated', 'Backordered', 'On Hold'];

/** The spec's order types: a purchase order (expected goods in), a sales order (goods out), a transfer (warehouse to warehouse). */
export const ORDER_TYPES = ['Purchase', 'Sales', 'Transfer'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
/** The types whose goods leave the order's warehouse (allocated, picked, shipped); a Purchase order only brings goods in. */
export const ORDER_TYPES_SHIPPED: readonly OrderType[] = ['Sales', 'Transfer'];

/** Where an order came in: the order form, the Add Data upload, or a client's API key. */
export const ORDER_SOURCES = ['screen', 'upload', 'api'] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];

export const ORDER_PRIORITY_MIN = 1;
export const ORDER_PRIORITY_MAX = 9;
/** 1 is the most urgent; 5 when not given. */
export const ORDER_PRIORITY_DEFAULT = 5;

export const MSG_ORDERS = {
  orderType: 'Please select order type!',
  orderDate: 'Please enter order date!',
  referenceNumber: 'Please enter reference number!',
  sku: 'Please select a SKU!',
  quantity: 'Please enter quantity!',
  lines: 'Add at least one SKU line',
  shipToName: 'Please enter the ship-to name!',
  toWarehouse: 'Please select the destination warehouse!',
} as const;

const id = field.id();
const isoDate = (message: string) => field.text(40, { error: message }).trim().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'Not a real date');
const text = (max: number) => field.text(max, undefined, `At most ${max} characters`).trim();
const dateFilter = field.text(10).regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD');

/**
 * One order line: a SKU (or kit SKU) and a quantity in the SKU's units. With a package level (`packageId`, one of
 * the SKU's sku_package rows) the quantity must be a whole number of those packages (24 of a case of 12: 2 cases).
 */
export const orderLineInput = z.object({
  skuId: field.id(MSG_ORDERS.sku),
  quantity: z.number({ error: MSG_ORDERS.quantity }).int('Quantity must be a whole number')
    .min(1, 'Quantity must be more than 0').max(QUANTITY_MAX, 'Quantity is too large'),
  packageId: id.optional(),
  /** A lot the customer asks for exactly ('' or omitted: any); only for a SKU that tracks lots. */
  lot: text(64).optional(),
  notes: text(255).optional(),
});
export type OrderLineInput = z.infer<typeof orderLineInput>;

export const createOrderInput = z.object({
  warehouseId: id,
  customerId: id,
  orderType: z.enum(ORDER_TYPES, { error: MSG_ORDERS.orderType }),
  /** The customer's own number for the order: unique per customer; a repeat answers the order it already names. */
  referenceNumber: field.text(64, { error: MSG_ORDERS.referenceNumber }, 'At most 64 characters').trim().min(1, MSG_ORDERS.referenceNumber),
  orderDate: isoDate(MSG_ORDERS.orderDate),
  requestedShipDate: isoDate('Use YYYY-MM-DD').optional(),
  priority: field.int(ORDER_PRIORITY_MIN, ORDER_PRIORITY_MAX).optional(),
  shipToName: text(128).optional(),
  shipToAddress1: text(255).optional(),
  shipToAddress2: text(255).optional(),
  shipToCity: text(100).optional(),
  shipToState: text(100).optional(),
  shipToZip: text(20).optional(),
  shipToCountry: text(100).optional(),
  shipToPhone: text(40).optional(),
  shipToEmail: z.union([z.literal(''), text(254).email('Not a valid e-mail address')]).optional(),
  /** One of the customer's carrier accounts (its Integrations: kind carrier), and the service level asked of it. */
  carrierAccountId: id.optional(),
  carrierService: text(64).optional(),
  notes: text(1000).optional(),
  /** A Transfer's destination: another warehouse serving the same client (required for a Transfer, refused otherwise). */
  toWarehouseId: id.optional(),
  lines: z.array(orderLineInput, { error: MSG_ORDERS.lines }).min(1, MSG_ORDERS.lines).max(1000, 'At most 1,000 lines'),
});
export type CreateOrderInput = z.infer<typeof createOrderInput>;

export const orderIdInput = z.object({ orderId: id, reason: text(255).optional() });
export const orderByIdQuery = z.object({ orderId: field.idParam() });

/**
 * Why a line holds less than it asks for (allocation's answer per line, and /BKO's): no stock of the SKU at all,
 * only expired lots, stock held by an open cycle count, stock in quarantine (or another hold), stock only in
 * locations that are not pickable, or a kit line waiting for kits to be built.
 */
export const SHORT_REASONS = ['no-stock', 'expired-only', 'held-by-count', 'in-quarantine', 'not-pickable', 'awaiting-kit-build'] as const;
export type ShortReason = (typeof SHORT_REASONS)[number];
export const SHORT_REASON_TEXT: Record<ShortReason, string> = {
  'no-stock': 'No stock',
  'expired-only': 'Only expired lots',
  'held-by-count': 'Held by a cycle count',
  'in-quarantine': 'In quarantine',
  'not-pickable': 'Only in locations that are not pickable',
  'awaiting-kit-build': 'Waiting for kits to be built',
};

/** Where a line's allocated units are: one reservation of one balance. */
export const lineAllocation = z.object({
  balanceId: z.number().int(),
  locationId: z.number().int(),
  locationCode: z.string(),
  lot: z.string(),
  expiryDate: z.string().nullable(),
  pallet: z.string(),
  quantity: z.number().int(),
});
export type LineAllocation = z.infer<typeof lineAllocation>;

export const orderLine = z.object({
  lineId: z.number().int(),
  lineNo: z.number().int(),
  skuId: z.number().int(),
  skuCode: z.string(),
  skuDescription: z.string(),
  isKit: z.boolean(),
  quantity: z.number().int(),
  packageId: z.number().int().nullable(),
  packageName: z.string().nullable(),
  unitsPerPackage: z.number().int(),
  lot: z.string(),
  allocatedQuantity: z.number().int(),
  shippedQuantity: z.number().int(),
  notes: z.string().nullable(),
  /** Why the line holds less than its quantity (null when whole, or not yet allocated). */
  shortReason: z.enum(SHORT_REASONS).nullable(),
  /** Where its allocated units are (location, lot, expiry). */
  allocations: z.array(lineAllocation),
});
export type OrderLine = z.infer<typeof orderLine>;

/** An order's header with its totals: the list row. */
export const orderSummary = z.object({
  uniqueid: z.number().int(),
  orderId: z.number().int(),
  soNumber: z.string(),
  warehouseId: z.number().int(),
  warehouseName: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  orderType: z.enum(ORDER_TYPES),
  referenceNumber: z.string(),
  orderDate: z.string(),
  requestedShipDate: z.string().nullable(),
  priority: z.number().int(),
  shipToName: z.string().nullable(),
  shipToAddress1: z.string().nullable(),
  shipToAddress2: z.string().nullable(),
  shipToCity: z.string().nullable(),
  shipToState: z.string().nullable(),
  shipToZip: z.string().nullable(),
  shipToCountry: z.string().nullable(),
  shipToPhone: z.string().nullable(),
  shipToEmail: z.string().nullable(),
  carrierAccountId: z.number().int().nullable(),
  carrierName: z.string().nullable(),
  carrierService: z.string().nullable(),
  notes: z.string().nullable(),
  /** A Transfer's destination warehouse. */
  toWarehouseId: z.number().int().nullable(),
  toWarehouseName: z.string().nullable(),
  /** The expected receiving order a Transfer (at its destination) or a Purchase order (in its own warehouse) made. */
  receivingOrderId: z.number().int().nullable(),
  receivingOrderNumber: z.string().nullable(),
  status: z.enum(ORDER_STATUSES),
  source: z.enum(ORDER_SOURCES),
  lineCount: z.number().int(),
  orderedQuantity: z.number().int(),
  allocatedQuantity: z.number().int(),
  shippedQuantity: z.number().int(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OrderSummary = z.infer<typeof orderSummary>;

export const orderHistoryEntry = z.object({
  fromStatus: z.string(),
  toStatus: z.string(),
  at: z.string(),
  username: z.string().nullable(),
  reason: z.string().nullable(),
});
/** A file kept with an order (PDF, Excel or CSV; at most MAX_ORDER_DOCUMENTS). */
export const orderDocument = z.object({
  id: z.number().int(),
  fileName: z.string(),
  size: z.number().int(),
  uploadedAt: z.string(),
  uploadedBy: z.string().nullable(),
});
export type OrderDocument = z.infer<typeof orderDocument>;
export const orderDetail = orderSummary.extend({ lines: z.array(orderLine), history: z.array(orderHistoryEntry), documents: z.array(orderDocument) });
export type OrderDetail = z.infer<typeof orderDetail>;

/** CreateOrder's answer: the order, and whether the reference named an order already taken in (nothing written then). */
export const orderIntakeResult = orderDetail.extend({ duplicate: z.boolean() });

export const orderFilters = z.object({
  warehouseId: field.int(0, INT_MAX).optional(),
  customerId: field.int(0, INT_MAX).optional(),
  orderType: z.enum(ORDER_TYPES).optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  priority: field.int(ORDER_PRIORITY_MIN, ORDER_PRIORITY_MAX).optional(),
  carrierAccountId: field.int(0, INT_MAX).optional(),
  /** Order date range (YYYY-MM-DD, inclusive). */
  fromDate: dateFilter.optional(),
  toDate: dateFilter.optional(),
});
export type OrderFilters = z.infer<typeof orderFilters>;
export const orderListRequest = listRequest(orderFilters);
export const orderListResponse = listResponse(orderSummary);

/** The dashboard's top row: how many orders are in each status (every status named, 0 included), for the filters given. */
export const orderStatusCountsRequest = z.object({ filters: orderFilters.omit({ status: true }).optional() });
export const orderStatusCounts = z.object({
  total: z.number().int(),
  counts: z.array(z.object({ status: z.enum(ORDER_STATUSES), count: z.number().int() })),
});

/** The most orders a bulk action takes by filters ("all orders matching the filters"); more answers 422. */
export const ORDER_BATCH_MATCHING_MAX = 5000;

/**
 * A batch of orders for the dashboard's bulk actions (allocate, unallocate, hold, release hold, cancel): the
 * picked orders (`orderIds`), or every order the list's `filters` and `searchQuery` match in the caller's scope
 * (at most ORDER_BATCH_MATCHING_MAX). One of the two.
 */
export const orderBatchInput = z.object({
  orderIds: z.array(id, { error: 'Select at least one order' }).min(1, 'Select at least one order').max(1000, 'At most 1,000 orders at once').optional(),
  filters: orderFilters.optional(),
  searchQuery: field.text(200).optional(),
  reason: text(255).optional(),
}).refine((b) => (b.orderIds === undefined) !== (b.filters === undefined), { message: 'Select orders, or send the filters they match (not both)', path: ['orderIds'] });
export type OrderBatchInput = z.infer<typeof orderBatchInput>;

/**
 * A bulk action's answer: per order, what it did or why it was refused. One order's refusal (an illegal move,
 * another client's order) never stops the others; each order is its own transaction.
 */
export const orderBatchResult = z.object({
  done: z.array(z.object({ orderId: z.number().int(), soNumber: z.string(), status: z.enum(ORDER_STATUSES) })),
  refused: z.array(z.object({ orderId: z.number().int(), soNumber: z.string().nullable(), message: z.string() })),
});
export type OrderBatchResult = z.infer<typeof orderBatchResult>;

/** One line's outcome in an allocation run. */
export const lineAllocationOutcome = z.object({
  lineId: z.number().int(),
  lineNo: z.number().int(),
  skuCode: z.string(),
  quantity: z.number().int(),
  allocatedQuantity: z.number().int(),
  shortQuantity: z.number().int(),
  shortReason: z.enum(SHORT_REASONS).nullable(),
});

/** AllocateOrders' answer: each order's new status and lines, and the batch summary (how many short lines per reason). */
export const allocationResult = orderBatchResult.extend({
  orders: z.array(z.object({
    orderId: z.number().int(), soNumber: z.string(), status: z.enum(ORDER_STATUSES),
    orderedQuantity: z.number().int(), allocatedQuantity: z.number().int(), lines: z.array(lineAllocationOutcome),
  })),
  summary: z.object({
    orders: z.number().int(),
    allocated: z.number().int(),
    partiallyAllocated: z.number().int(),
    backordered: z.number().int(),
    refused: z.number().int(),
    shortLinesByReason: z.partialRecord(z.enum(SHORT_REASONS), z.number().int()),
  }),
});
export type AllocationResult = z.infer<typeof allocationResult>;

/** /BKO: every line of a Backordered or Partially Allocated order that holds less than it asks for. */
export const backorderFilters = z.object({
  warehouseId: field.int(0, INT_MAX).optional(),
  customerId: field.int(0, INT_MAX).optional(),
  skuId: field.int(0, INT_MAX).optional(),
  shortReason: z.enum(SHORT_REASONS).optional(),
});
export const backorderLine = z.object({
  uniqueid: z.number().int(),
  lineId: z.number().int(),
  orderId: z.number().int(),
  soNumber: z.string(),
  referenceNumber: z.string(),
  status: z.enum(ORDER_STATUSES),
  warehouseId: z.number().int(),
  warehouseName: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  skuId: z.number().int(),
  skuCode: z.string(),
  skuDescription: z.string(),
  priority: z.number().int(),
  orderDate: z.string(),
  /** When the line started waiting (the order's move to Backordered / Partially Allocated), and for how many days. */
  waitingSince: z.string(),
  ageDays: z.number().int(),
  quantity: z.number().int(),
  allocatedQuantity: z.number().int(),
  shortQuantity: z.number().int(),
  /** The SKU's free stock now (on hand − allocated, pickable, unexpired, not held) in the order's warehouse. */
  freeNow: z.number().int(),
  shortReason: z.enum(SHORT_REASONS).nullable(),
});
export type BackorderLine = z.infer<typeof backorderLine>;
export const backorderListRequest = listRequest(backorderFilters);
export const backorderListResponse = listResponse(backorderLine);

// ----- documents and the Add Data upload (issue 12 items 1, 2) -----

/** Spec section 5: orders take up to 5 files, PDF, Excel or CSV. */
export const MAX_ORDER_DOCUMENTS = 5;
export const ORDER_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
/** AddOrderDocuments' multipart text fields (the files: parts named `files`). */
export const orderDocumentFields = z.object({ orderId: field.idParam('Please select an order') });
export const orderDocumentIdInput = z.object({ documentId: id });
export const orderDocumentQuery = z.object({ documentId: field.idParam() });

/**
 * The orders sheet: one row per line; rows with the same Reference Number are one order, its header fields taken
 * from its first row (Order Type, Order Date and Reference Number fall back to the form's fields). Package and Lot
 * are optional; Package names one of the SKU's package levels (its name or type, e.g. "case").
 */
export const ORDER_UPLOAD_COLUMNS = [
  'Reference Number', 'Order Type', 'Order Date', 'Requested Ship Date', 'Priority', 'Ship To Name', 'Ship To Address 1', 'Ship To Address 2',
  'Ship To City', 'Ship To State', 'Ship To Zip', 'Ship To Country', 'Ship To Phone', 'Ship To Email', 'Carrier Service', 'Notes',
  'To Warehouse', 'SKU', 'Quantity', 'Package', 'Lot',
] as const;
export type OrderUploadColumn = (typeof ORDER_UPLOAD_COLUMNS)[number];
/** Most rows one orders sheet may hold. */
export const MAX_ORDER_UPLOAD_ROWS = 10_000;
export const ORDER_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

const optionalField = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
/** UploadOrders' multipart text fields: where the orders go, and the defaults for rows that leave them out. */
export const uploadOrdersFields = z.object({
  warehouseId: field.idParam('Please select a warehouse'),
  customerId: field.idParam('Please select a client'),
  orderType: optionalField(z.enum(ORDER_TYPES, { error: MSG_ORDERS.orderType })),
  orderDate: optionalField(isoDate(MSG_ORDERS.orderDate)),
  referenceNumber: optionalField(field.text(64, undefined, 'At most 64 characters').trim()),
  /** A Transfer's destination for rows without a To Warehouse code. */
  toWarehouseId: optionalField(field.idParam()),
});
export type UploadOrdersFields = z.infer<typeof uploadOrdersFields>;

/** UploadOrders' answer: each order of the file, new or (a reference already used) the order it names. */
export const uploadOrdersResult = z.object({
  fileName: z.string(),
  created: z.number().int(),
  duplicates: z.number().int(),
  orders: z.array(z.object({
    orderId: z.number().int(), soNumber: z.string(), referenceNumber: z.string(), lineCount: z.number().int(), duplicate: z.boolean(),
    receivingOrderNumber: z.string().nullable(),
  })),
});
export type UploadOrdersResult = z.infer<typeof uploadOrdersResult>;

/** The order form's carrier choices: a customer's active carrier accounts (no secrets), read under the Order Dashboard. */
export const orderCarrierAccountsQuery = z.object({ customerId: field.idParam() });
export const orderCarrierAccount = z.object({
  carrierAccountId: z.number().int(),
  accountName: z.string(),
  /** The carrier (integration type), e.g. UPS. */
  carrierName: z.string(),
});
export type OrderCarrierAccount = z.infer<typeof orderCarrierAccount>;
