import { z } from 'zod';
import { field, INT_MAX } from './fields.js';
import { listRequest, listResponse } from './common.js';
import { ADJUSTMENT_REASONS, ledgerEntry } from './inventory.js';
import type { Role } from './roles.js';

/**
 * Inventory operations: adjustment approval, pallet moves, cycle counts, replenishment, expiry and the
 * inventory reports. Quantities are whole units.
 */
const id = field.id();
const scopeId = field.int(0, INT_MAX).optional();
const qty = z.number({ error: 'Please enter quantity!' }).int('Quantity must be a whole number').positive('Quantity must be more than 0').max(10_000_000);
const count = z.number({ error: 'Please enter quantity!' }).int('Quantity must be a whole number').min(0, 'Quantity cannot be negative').max(10_000_000);
const text = (max: number) => field.text(max).trim();
const isoDate = field.text(10).regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD');

/** Who may approve adjustments and cycle counts. */
export const APPROVER_ROLES: readonly Role[] = ['SuperAdministrator', 'Administrator', 'WarehouseManager'];

// ---- Adjustments -------------------------------------------------------------------------------------------

export const ADJUSTMENT_REASON_LABELS: Record<(typeof ADJUSTMENT_REASONS)[number], string> = {
  DAMAGED: 'Damaged', FOUND: 'Found', LOST: 'Lost', EXPIRED: 'Expired', RECOUNT: 'Recount', SAMPLE: 'Sample', OTHER: 'Other',
};
export const reasonCodesResponse = z.array(z.object({ code: z.enum(ADJUSTMENT_REASONS), name: z.string() }));

/** CreateAdjustment's answer: posted at once, or pending when above the customer's approval threshold; a row either way. */
export const adjustmentResult = z.object({
  status: z.enum(['Posted', 'Pending']),
  adjustmentId: z.number().int(),
  document: z.string().nullable(),
  entries: z.array(ledgerEntry),
});

/** Posted: at or below the client's threshold, posted at once; the others are the approval's steps. */
export const ADJUSTMENT_STATUSES = ['Posted', 'Pending', 'Approved', 'Rejected'] as const;
export const adjustmentListRequest = listRequest(z.object({
  warehouseId: scopeId, customerId: scopeId, status: z.enum(ADJUSTMENT_STATUSES).optional(),
}));
export const adjustmentRow = z.object({
  adjustmentId: z.number().int(),
  warehouseId: z.number().int(), warehouseName: z.string(),
  customerId: z.number().int(), customerName: z.string(),
  skuId: z.number().int(), skuCode: z.string(),
  locationId: z.number().int(), locationCode: z.string(),
  lot: z.string(), pallet: z.string(), expiryDate: z.string().nullable(),
  quantityChange: z.number().int(), reasonCode: z.string(), note: z.string().nullable(),
  status: z.enum(ADJUSTMENT_STATUSES),
  requestedBy: z.string().nullable(), requestedAt: z.string(),
  decidedBy: z.string().nullable(), decidedAt: z.string().nullable(), decisionNote: z.string().nullable(),
  document: z.string().nullable(),
});
export const adjustmentListResponse = listResponse(adjustmentRow);
export const decideAdjustmentRequest = z.object({ adjustmentId: id, note: text(255).optional() });

// ---- Pallets -----------------------------------------------------------------------------------------------

export const movePalletRequest = z.object({
  warehouseId: id,
  pallet: field.text(64, { error: 'Please enter the pallet id' }).trim().min(1, 'Please enter the pallet id'),
  fromLocationId: id,
  toLocationId: id,
  note: text(255).optional(),
});
export const palletListRequest = listRequest(z.object({ warehouseId: scopeId, customerId: scopeId, locationId: id.optional() }));
export const palletRow = z.object({
  warehouseId: z.number().int(), warehouseName: z.string(), pallet: z.string(),
  locationId: z.number().int(), locationCode: z.string(),
  customerId: z.number().int(), customerName: z.string(),
  skuCount: z.number().int(), onHand: z.number().int(), allocated: z.number().int(),
});
export const palletListResponse = listResponse(palletRow);

// ---- Cycle counts ------------------------------------------------------------------------------------------

/** Spec section 9: inventory types. */
export const COUNT_TYPES = ['cycle', 'full', 'spot'] as const;
export const COUNT_SELECTIONS = ['location', 'sku', 'abc'] as const;
export const CYCLE_COUNT_STATUSES = ['Open', 'Recount', 'Counted', 'Approved', 'Cancelled'] as const;
/** Statuses in which a count holds its locations. */
export const OPEN_COUNT_STATUSES = ['Open', 'Recount', 'Counted'] as const;

export const createCycleCountRequest = z.object({
  warehouseId: id,
  customerId: id,
  countType: z.enum(COUNT_TYPES, { error: 'Please choose the inventory type' }).optional().default('cycle'),
  selection: z.enum(COUNT_SELECTIONS, { error: 'Please choose what to count' }),
  locationFrom: text(64).optional(),
  locationTo: text(64).optional(),
  skuId: id.optional(),
  abcClass: z.enum(['A', 'B', 'C'], { error: 'Choose class A, B or C' }).optional(),
  /** Blind: counters do not see the expected quantities. */
  isBlind: z.boolean().optional().default(true),
  countDate: isoDate,
  note: text(255).optional(),
}).superRefine((v, ctx) => {
  if (v.selection === 'location') {
    if (!v.locationFrom) ctx.addIssue({ code: 'custom', path: ['locationFrom'], message: 'Please enter the first location' });
    if (!v.locationTo) ctx.addIssue({ code: 'custom', path: ['locationTo'], message: 'Please enter the last location' });
    if (v.locationFrom && v.locationTo && v.locationFrom.toUpperCase() > v.locationTo.toUpperCase()) {
      ctx.addIssue({ code: 'custom', path: ['locationTo'], message: 'The last location must come after the first' });
    }
  }
  if (v.selection === 'sku' && !v.skuId) ctx.addIssue({ code: 'custom', path: ['skuId'], message: 'Please choose a SKU' });
  if (v.selection === 'abc' && !v.abcClass) ctx.addIssue({ code: 'custom', path: ['abcClass'], message: 'Choose class A, B or C' });
});

export const cycleCountSchema = z.object({
  cycleCountId: z.number().int(), countNo: z.string(),
  warehouseId: z.number().int(), warehouseName: z.string(),
  customerId: z.number().int(), customerName: z.string(),
  countType: z.string(), selection: z.string(),
  locationFrom: z.string().nullable(), locationTo: z.string().nullable(), skuId: z.number().int().nullable(), abcClass: z.string().nullable(),
  isBlind: z.boolean(), status: z.enum(CYCLE_COUNT_STATUSES), countDate: z.string(), note: z.string().nullable(),
  lineCount: z.number().int(), countedLines: z.number().int(), recountLines: z.number().int(),
  createdBy: z.string().nullable(), createdAt: z.string(), approvedBy: z.string().nullable(), approvedAt: z.string().nullable(),
  document: z.string().nullable(),
});
export const cycleCountListRequest = listRequest(z.object({
  warehouseId: scopeId, customerId: scopeId, status: z.enum(CYCLE_COUNT_STATUSES).optional(),
}));
export const cycleCountListResponse = listResponse(cycleCountSchema);
export const cycleCountIdQuery = z.object({ cycleCountId: field.idParam() });
export const cycleCountIdBody = z.object({ cycleCountId: id });

/** A Super Administrator approving a count they counted says why; the reason goes into the audit log. */
export const COUNT_OVERRIDE_REASON_MAX = 500;
export const COUNT_OVERRIDE_REASON_MESSAGE = 'Please give the reason for approving a count you counted';
export const approveCycleCountRequest = z.object({
  cycleCountId: id,
  overrideReason: field.text(COUNT_OVERRIDE_REASON_MAX).trim().min(1, COUNT_OVERRIDE_REASON_MESSAGE).optional(),
});
export type ApproveCycleCountRequest = z.infer<typeof approveCycleCountRequest>;

/** One step of a count's history (its audit rows): who did what, the status it left, an approval override's reason. */
export const cycleCountHistoryEntry = z.object({
  at: z.string(), action: z.string(), by: z.string().nullable(), status: z.string().nullable(), overrideReason: z.string().nullable(),
});

export const cycleCountLine = z.object({
  lineId: z.number().int(),
  skuId: z.number().int(), skuCode: z.string(), skuDescription: z.string(),
  locationId: z.number().int(), locationCode: z.string(),
  lot: z.string(), pallet: z.string(), expiryDate: z.string().nullable(),
  /** Null for a blind count's counters. */
  expectedQty: z.number().int().nullable(),
  countedQty: z.number().int().nullable(),
  needsRecount: z.boolean(),
  recountQty: z.number().int().nullable(),
  /** The quantity approval posts to: the recount when there is one, else the count. */
  finalQty: z.number().int().nullable(),
  /** finalQty − expectedQty; null while uncounted or hidden. */
  variance: z.number().int().nullable(),
});
export const cycleCountDetail = z.object({
  count: cycleCountSchema,
  lines: z.array(cycleCountLine),
  /** The reader entered a count or recount of it, so they may not approve it… */
  countedByYou: z.boolean(),
  /** …unless they are a Super Administrator, who may, giving a reason (approveCycleCountRequest.overrideReason). */
  mayOverride: z.boolean(),
  history: z.array(cycleCountHistoryEntry),
});

export const enterCountsRequest = z.object({
  cycleCountId: id,
  counts: z.array(z.object({ lineId: id, quantity: count }), { error: 'Please enter the counts' }).min(1, 'Please enter the counts').max(5000),
});

// ---- Replenishment -----------------------------------------------------------------------------------------

export const replenishmentRuleInput = z.object({
  warehouseId: id,
  customerId: id,
  skuId: id,
  locationId: id,
  minQty: count,
  maxQty: qty,
  isActive: z.boolean().optional().default(true),
}).refine((v) => v.maxQty > v.minQty, { path: ['maxQty'], message: 'Max must be more than min' });
export const replenishmentRuleRow = z.object({
  ruleId: z.number().int(),
  warehouseId: z.number().int(), warehouseName: z.string(),
  customerId: z.number().int(), customerName: z.string(),
  skuId: z.number().int(), skuCode: z.string(), skuDescription: z.string(),
  locationId: z.number().int(), locationCode: z.string(),
  minQty: z.number().int(), maxQty: z.number().int(), isActive: z.boolean(),
  onHand: z.number().int(), belowMin: z.boolean(),
});
export const replenishmentRuleListRequest = listRequest(z.object({
  warehouseId: scopeId, customerId: scopeId, skuId: id.optional(), belowMin: z.boolean().optional(),
}));
export const replenishmentRuleListResponse = listResponse(replenishmentRuleRow);

export const REPLENISHMENT_TASK_STATUSES = ['Open', 'Completed', 'Cancelled'] as const;
export const replenishmentTaskRow = z.object({
  taskId: z.number().int(), ruleId: z.number().int(),
  warehouseId: z.number().int(), customerId: z.number().int(), customerName: z.string(),
  skuId: z.number().int(), skuCode: z.string(),
  fromLocationId: z.number().int(), fromLocationCode: z.string(),
  toLocationId: z.number().int(), toLocationCode: z.string(),
  lot: z.string(), pallet: z.string(), quantity: z.number().int(), movedQty: z.number().int().nullable(),
  status: z.enum(REPLENISHMENT_TASK_STATUSES),
  createdAt: z.string(), completedBy: z.string().nullable(), completedAt: z.string().nullable(), document: z.string().nullable(),
});
export const replenishmentTaskListRequest = listRequest(z.object({
  warehouseId: scopeId, customerId: scopeId, status: z.enum(REPLENISHMENT_TASK_STATUSES).optional(),
}));
export const replenishmentTaskListResponse = listResponse(replenishmentTaskRow);
export const generateTasksRequest = z.object({ warehouseId: id, customerId: scopeId });
export const generateTasksResult = z.object({
  created: z.array(replenishmentTaskRow),
  /** Pick locations below min that bulk storage could not replenish. */
  shortages: z.array(z.object({ ruleId: z.number().int(), skuCode: z.string(), locationCode: z.string(), needed: z.number().int() })),
});
export const completeTaskRequest = z.object({ taskId: id, quantity: qty.optional() });
export const taskIdBody = z.object({ taskId: id });

// ---- Expiry and reports ------------------------------------------------------------------------------------

const reportFilters = { warehouseId: scopeId, customerId: scopeId, skuId: id.optional(), locationId: id.optional() };
export const inventoryReportRequest = listRequest(z.object(reportFilters));

export const expiringLotsRequest = listRequest(z.object({
  ...reportFilters,
  /** Lots expiring within this many days from today (expired ones too unless excluded). */
  days: z.number().int().min(0).max(3650).optional().default(30),
  includeExpired: z.boolean().optional().default(true),
}));
export const expiringLotRow = z.object({
  uniqueid: z.number().int(),
  warehouseId: z.number().int(), warehouseName: z.string(),
  customerId: z.number().int(), customerName: z.string(),
  skuId: z.number().int(), skuCode: z.string(), skuDescription: z.string(),
  locationId: z.number().int(), locationCode: z.string(),
  lot: z.string(), pallet: z.string(), expiryDate: z.string(),
  daysToExpiry: z.number().int(), status: z.enum(['Expired', 'Expiring']),
  onHand: z.number().int(), allocated: z.number().int(),
});
export const expiringLotsResponse = listResponse(expiringLotRow);

const totals = { onHand: z.number().int(), allocated: z.number().int(), available: z.number().int() };
export const onHandBySkuRow = z.object({
  warehouseId: z.number().int(), warehouseName: z.string(), customerId: z.number().int(), customerName: z.string(),
  skuId: z.number().int(), skuCode: z.string(), skuDescription: z.string(), locationCount: z.number().int(), ...totals,
});
export const onHandByLocationRow = z.object({
  warehouseId: z.number().int(), warehouseName: z.string(), locationId: z.number().int(), locationCode: z.string(),
  locationType: z.string(), customerId: z.number().int(), customerName: z.string(), skuCount: z.number().int(), ...totals,
});
export const onHandByLotRow = z.object({
  warehouseId: z.number().int(), warehouseName: z.string(), customerId: z.number().int(), customerName: z.string(),
  skuId: z.number().int(), skuCode: z.string(), lot: z.string(), expiryDate: z.string().nullable(), locationCount: z.number().int(), ...totals,
});
export const onHandByPalletRow = palletRow;
export const availabilityRow = z.object({
  warehouseId: z.number().int(), warehouseName: z.string(), customerId: z.number().int(), customerName: z.string(),
  skuId: z.number().int(), skuCode: z.string(), skuDescription: z.string(), ...totals,
  /** Free stock in expired lots: on hand but never allocated. */
  expired: z.number().int(),
  /** What allocation can take: available less expired. */
  allocatable: z.number().int(),
});
export const AGING_BUCKETS = ['0-30', '31-60', '61-90', '91-180', '181+'] as const;
export const agingRow = z.object({
  uniqueid: z.number().int(),
  warehouseId: z.number().int(), warehouseName: z.string(), customerId: z.number().int(), customerName: z.string(),
  skuId: z.number().int(), skuCode: z.string(), locationId: z.number().int(), locationCode: z.string(),
  lot: z.string(), pallet: z.string(), receivedAt: z.string().nullable(), ageDays: z.number().int(), bucket: z.enum(AGING_BUCKETS),
  onHand: z.number().int(),
});
const stockAsOfFilters = z.object({
  ...reportFilters,
  /** A date (end of that day, UTC) or an ISO time in the past. */
  asOf: field.text(40, { error: 'Please choose a date' }).regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/, 'Use YYYY-MM-DD or an ISO time'),
}, { error: 'Please choose a date' });
/** Unlike other lists, the filters are required: the date is. */
export const stockAsOfRequest = listRequest(stockAsOfFilters).extend({ filters: stockAsOfFilters });
export const stockAsOfRow = z.object({
  warehouseId: z.number().int(), warehouseName: z.string(), customerId: z.number().int(), customerName: z.string(),
  skuId: z.number().int(), skuCode: z.string(), locationId: z.number().int(), locationCode: z.string(),
  lot: z.string(), pallet: z.string(), onHand: z.number().int(),
});
export const onHandBySkuResponse = listResponse(onHandBySkuRow);
export const onHandByLocationResponse = listResponse(onHandByLocationRow);
export const onHandByLotResponse = listResponse(onHandByLotRow);
export const onHandByPalletResponse = listResponse(onHandByPalletRow);
export const availabilityResponse = listResponse(availabilityRow);
export const agingResponse = listResponse(agingRow);
export const stockAsOfResponse = listResponse(stockAsOfRow);

