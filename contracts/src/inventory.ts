import { z } from 'zod';
import { field, INT_MAX } from './fields.js';
import { listRequest, listResponse } from './common.js';
import { MSG_INVENTORY_UPLOAD } from './messages.js';
import { reservationReconciliation } from './stock.js';

const id = field.id();
const qty = z.number({ error: 'Please enter quantity!' }).int('Quantity must be a whole number').positive('Quantity must be more than 0').max(10_000_000);
const text = (max: number) => field.text(max).trim();

/** Where a quantity sits: the balance key. Lot and pallet are '' when not tracked. */
export const stockPlace = z.object({
  warehouseId: id,
  customerId: id,
  skuId: id,
  locationId: id,
  lot: text(64).optional().default(''),
  pallet: text(64).optional().default(''),
});
export type StockPlace = z.infer<typeof stockPlace>;

export const moveItemsRequest = stockPlace.extend({
  toLocationId: id,
  quantity: qty,
  note: text(255).optional(),
});

export const ADJUSTMENT_REASONS = ['DAMAGED', 'FOUND', 'LOST', 'EXPIRED', 'RECOUNT', 'SAMPLE', 'OTHER'] as const;
export const adjustmentRequest = stockPlace.extend({
  /** Signed change: positive adds stock, negative removes it. */
  quantityChange: z.number({ error: 'Please enter quantity!' }).int('Quantity must be a whole number')
    .refine((n) => n !== 0, 'Quantity change cannot be 0').refine((n) => Math.abs(n) <= 10_000_000, 'Quantity is too large'),
  reasonCode: z.enum(ADJUSTMENT_REASONS, { error: 'Please choose a reason' }),
  expiryDate: field.text(10).regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD').optional(),
  note: text(255).optional(),
});

export const ledgerEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  txnType: z.string(),
  qtyChange: z.number().int(),
  locationId: z.number().int(),
  lot: z.string(),
  pallet: z.string(),
  documentType: z.string().nullable(),
  documentId: z.string().nullable(),
});
export const stockMovementResult = z.object({ document: z.string(), entries: z.array(ledgerEntry) });

export const stockFilters = z.object({
  warehouseId: field.int(0, INT_MAX).optional(),
  customerId: field.int(0, INT_MAX).optional(),
  skuId: field.id().optional(),
  locationId: field.id().optional(),
  includeEmpty: z.boolean().optional(),
  /** Only stock that can be taken by hand now: some free, at an active location not set aside, with no open hold. */
  takeableOnly: z.boolean().optional(),
});
export const stockListRequest = listRequest(stockFilters);
export const stockRow = z.object({
  uniqueid: z.number().int(),
  warehouseId: z.number().int(),
  warehouseName: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  skuId: z.number().int(),
  skuCode: z.string(),
  skuDescription: z.string(),
  locationId: z.number().int(),
  locationCode: z.string(),
  lot: z.string(),
  expiryDate: z.string().nullable(),
  pallet: z.string(),
  onHand: z.number().int(),
  allocated: z.number().int(),
  available: z.number().int(),
});
export const stockListResponse = listResponse(stockRow);

export const reconcileQuery = z.object({
  warehouseId: field.intParam(0, INT_MAX).optional().default(0),
  customerId: field.intParam(0, INT_MAX).optional().default(0),
});
export const reconcileResponse = z.object({
  balanced: z.boolean(),
  checkedBalances: z.number().int(),
  differences: z.array(z.object({
    warehouseId: z.number().int(), customerId: z.number().int(), skuId: z.number().int(), locationId: z.number().int(),
    lot: z.string(), pallet: z.string(), onHand: z.number().int(), ledgerSum: z.number().int(), difference: z.number().int(),
  })),
  /** Allocated stock against the open reservations that own it (balanced: each balance's allocated is their sum). */
  reservations: reservationReconciliation,
});

// --- Inventory import (Add Data panel: Inventory Type, Location, Count Date, count sheet) -------------------
/** 'Opening Stock' adds each row's quantity; 'Stock Count' sets the place to it (the difference is posted). */
export const INVENTORY_UPLOAD_TYPES = ['Opening Stock', 'Stock Count'] as const;
export type InventoryUploadType = (typeof INVENTORY_UPLOAD_TYPES)[number];
export const INVENTORY_UPLOAD_COLUMNS = ['SKU', 'Quantity', 'Lot', 'Expiry Date', 'Pallet'] as const;
export const MAX_INVENTORY_UPLOAD_ROWS = 5000;
export const INVENTORY_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** Multipart text fields of UploadInventory. */
export const uploadInventoryFields = z.object({
  warehouseId: field.idParam('Please select a warehouse'),
  customerId: field.idParam('Please select a client'),
  inventoryType: z.enum(INVENTORY_UPLOAD_TYPES, { error: MSG_INVENTORY_UPLOAD.inventoryType }),
  locationId: field.idParam(MSG_INVENTORY_UPLOAD.location),
  countDate: field.text(40, { error: MSG_INVENTORY_UPLOAD.countDate }).trim().regex(/^\d{4}-\d{2}-\d{2}$/, MSG_INVENTORY_UPLOAD.countDate),
});
export const uploadInventoryResult = z.object({
  fileName: z.string(),
  document: z.string(),
  /** Rows read, and how many of them changed a balance (a count equal to the stock posts nothing). */
  rows: z.number().int(),
  posted: z.number().int(),
  /** Net units added (negative when a count found less). */
  units: z.number().int(),
});
