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
  /** Today is each warehouse's business day. Open orders whose requested ship date is today, or already past. */
  dueToday: z.number().int(),
  lateOrders: z.number().int(),
  /** Orders waiting for stock (status Backordered). */
  backorders: z.number().int(),
  shippedToday: z.number().int(),
  unitsPickedToday: z.number().int(),
  /** Units picked today per hour of picking (gaps over the idle limit left out); null before the first timed pick. */
  unitsPickedPerHour: z.number().nullable(),
  /**
   * The last 7 days (the reports' preset): orders shipped on or before their requested ship date, as a percentage of
   * those shipped with one (the /OrderReports on-time rate); null when none was.
   */
  onTimeRate: z.number().nullable(),
  /** Orders shipped in those days with a requested ship date: what the on-time rate is taken over. */
  onTimeRated: z.number().int(),
  /** Median hours from a receiving order's first receipt to its last putaway, put away in the last 7 days (/OtherReports' dock-to-stock); null when none was. */
  dockToStockHours: z.number().nullable(),
  stockByWarehouse: z.array(z.object({ warehouseName: z.string(), units: z.number() })),
  stockByCustomer: z.array(z.object({ customerName: z.string(), units: z.number() })),
});
export type DashboardResponse = z.infer<typeof dashboardResponse>;
