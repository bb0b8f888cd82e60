import { z } from 'zod';
import { listRequest, listResponse } from './common.js';

const id = z.number().int().positive();
const qty = z.number({ error: 'Please enter quantity!' }).int('Quantity must be a whole number').positive('Quantity must be more than 0').max(10_000_000);
const text = (max: number) => z.string().trim().max(max);

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
  expiryDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD').optional(),
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
  warehouseId: z.number().int().min(0).optional(),
  customerId: z.number().int().min(0).optional(),
  skuId: z.number().int().positive().optional(),
  locationId: z.number().int().positive().optional(),
  includeEmpty: z.boolean().optional(),
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
  warehouseId: z.coerce.number().int().min(0).optional().default(0),
  customerId: z.coerce.number().int().min(0).optional().default(0),
});
export const reconcileResponse = z.object({
  balanced: z.boolean(),
  checkedBalances: z.number().int(),
  differences: z.array(z.object({
    warehouseId: z.number().int(), customerId: z.number().int(), skuId: z.number().int(), locationId: z.number().int(),
    lot: z.string(), pallet: z.string(), onHand: z.number().int(), ledgerSum: z.number().int(), difference: z.number().int(),
  })),
});
