// Kits (spec: /KitDashboard): what each kit SKU has built and could build, and the work orders ('WO') that build
// kits from their components (Build) or take kits apart again (Unbuild), both through the stock ledger.
import { z } from 'zod';
import { field, INT_MAX, QUANTITY_MAX } from './fields.js';
import { listRequest, listResponse } from './common.js';

export const WORK_ORDER_TYPES = ['Build', 'Unbuild'] as const;
export type WorkOrderType = (typeof WORK_ORDER_TYPES)[number];

/** Open (components reserved, as far as stock allows) → Completed (posted to the ledger) or Cancelled (reservations released). */
export const WORK_ORDER_STATUSES = ['Open', 'Completed', 'Cancelled'] as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];

export const MSG_KITS = {
  type: 'Please select the work order type!',
  kitSku: 'Please select a kit SKU!',
  quantity: 'Please enter quantity!',
  location: 'Please select a location!',
} as const;

const id = field.id();
const optionalId = field.int(0, INT_MAX).optional();

// ---- Availability ----

export const kitAvailabilityFilters = z.object({
  warehouseId: optionalId,
  customerId: optionalId,
});
export type KitAvailabilityFilters = z.infer<typeof kitAvailabilityFilters>;

export const kitComponentAvailability = z.object({
  skuId: z.number().int(),
  skuCode: z.string(),
  /** Units of the component in one kit. */
  perKit: z.number().int(),
  /** Units allocatable now (pickable, unexpired, not held, not already reserved). */
  free: z.number().int(),
  /** Kits this component alone allows: floor(free / perKit). */
  buildable: z.number().int(),
});

/** One kit SKU in one warehouse: built units (on hand, free) and how many more its components allow. */
export const kitAvailability = z.object({
  uniqueid: z.string(),
  warehouseId: z.number().int(),
  warehouseName: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  kitSkuId: z.number().int(),
  kitSkuCode: z.string(),
  kitDescription: z.string().nullable(),
  /** Built kits in the warehouse. */
  onHand: z.number().int(),
  /** Built kits allocatable now. */
  free: z.number().int(),
  /** Kits the components allow now: the smallest of the components' own figures. */
  buildable: z.number().int(),
  /** The component that sets `buildable` (the scarcest for its quantity per kit); null for a kit without components. */
  limitingComponent: kitComponentAvailability.nullable(),
  components: z.array(kitComponentAvailability),
});
export type KitAvailability = z.infer<typeof kitAvailability>;
export const kitAvailabilityRequest = listRequest(kitAvailabilityFilters);
export const kitAvailabilityResponse = listResponse(kitAvailability);

// ---- Work orders ----

export const workOrderFilters = z.object({
  warehouseId: optionalId,
  customerId: optionalId,
  status: z.enum(WORK_ORDER_STATUSES).optional(),
  type: z.enum(WORK_ORDER_TYPES).optional(),
  kitSkuId: optionalId,
});
export type WorkOrderFilters = z.infer<typeof workOrderFilters>;

/** A component of a work order: what it needs, what is reserved for it, and what is still missing. */
export const workOrderComponent = z.object({
  skuId: z.number().int(),
  skuCode: z.string(),
  perKit: z.number().int(),
  /** Units for the whole work order (perKit × quantity). */
  quantity: z.number().int(),
  /** Build: units reserved for it (or free at the chosen source location). Unbuild: 0. */
  reserved: z.number().int(),
  /** Build, open: units still missing to complete it. */
  short: z.number().int(),
});
export type WorkOrderComponent = z.infer<typeof workOrderComponent>;

export const workOrderSummary = z.object({
  uniqueid: z.number().int(),
  workOrderId: z.number().int(),
  woNumber: z.string(),
  warehouseId: z.number().int(),
  warehouseName: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  type: z.enum(WORK_ORDER_TYPES),
  kitSkuId: z.number().int(),
  kitSkuCode: z.string(),
  kitDescription: z.string().nullable(),
  quantity: z.number().int(),
  /** Build: where the kits are put. Unbuild: where they are taken from. */
  locationId: z.number().int(),
  locationCode: z.string(),
  /** Build: the one location the components come from (none: reserved FEFO/FIFO anywhere pickable). Unbuild: where they go back (none: the kit location). */
  componentLocationId: z.number().int().nullable(),
  componentLocationCode: z.string().nullable(),
  status: z.enum(WORK_ORDER_STATUSES),
  notes: z.string().nullable(),
  /** The order line it was raised for, if any. */
  orderLineId: z.number().int().nullable(),
  soNumber: z.string().nullable(),
  components: z.array(workOrderComponent),
  /** Sum of the components' shortages (0: ready to complete). */
  shortQuantity: z.number().int(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  completedBy: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type WorkOrderSummary = z.infer<typeof workOrderSummary>;

export const workOrderHistoryEntry = z.object({
  fromStatus: z.string(), toStatus: z.string(), at: z.string(), username: z.string().nullable(), reason: z.string().nullable(),
});
export const workOrderDetail = workOrderSummary.extend({ history: z.array(workOrderHistoryEntry) });
export type WorkOrderDetail = z.infer<typeof workOrderDetail>;

export const workOrderListRequest = listRequest(workOrderFilters);
export const workOrderListResponse = listResponse(workOrderSummary);

export const createWorkOrderInput = z.object({
  warehouseId: id,
  customerId: id,
  type: z.enum(WORK_ORDER_TYPES, { error: MSG_KITS.type }),
  kitSkuId: field.id(MSG_KITS.kitSku),
  quantity: z.number({ error: MSG_KITS.quantity }).int('Quantity must be a whole number')
    .min(1, 'Quantity must be more than 0').max(QUANTITY_MAX, 'Quantity is too large'),
  locationId: field.id(MSG_KITS.location),
  componentLocationId: id.optional(),
  notes: field.text(500).trim().optional(),
});
export type CreateWorkOrderInput = z.infer<typeof createWorkOrderInput>;

/** Raise a Build for an order line of a kit SKU: as many kits as the line still misses beyond the free built kits. */
export const createWorkOrderForOrderLineInput = z.object({
  orderLineId: id,
  /** Where to build (default: where the first component is reserved). */
  locationId: id.optional(),
});

export const workOrderIdInput = z.object({ workOrderId: id, reason: field.text(255).trim().optional() });
export const workOrderByIdQuery = z.object({ workOrderId: field.idParam() });
