import { z } from 'zod';
import { field, INT_MAX } from './fields.js';

export const dashboardQuery = z.object({
  warehouseId: field.intParam(0, INT_MAX).optional().default(0),
  customerId: field.intParam(0, INT_MAX).optional().default(0),
});
export const dashboardResponse = z.object({
  stockUnits: z.number(),
  skuCount: z.number().int(),
  locationsUsed: z.number().int(),
  locationsTotal: z.number().int(),
  occupancy: z.number(),
  openOrders: z.number().int().nullable(),
  openReceipts: z.number().int().nullable(),
  stockByWarehouse: z.array(z.object({ warehouseName: z.string(), units: z.number() })),
  stockByCustomer: z.array(z.object({ customerName: z.string(), units: z.number() })),
});
export type DashboardResponse = z.infer<typeof dashboardResponse>;
