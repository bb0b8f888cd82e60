import { z } from 'zod';
import { field } from './fields.js';

/** Spec section 3, Navigation module. */
export interface NavModule {
  moduleId: number;
  url: string | null;
  moduleName: string;
  permission: string;
  permissionId: number;
  childModules: NavModule[];
}
export const navModuleSchema: z.ZodType<NavModule> = z.lazy(() =>
  z.object({
    moduleId: z.number().int(),
    url: z.string().nullable(),
    moduleName: z.string(),
    permission: z.string(),
    permissionId: z.number().int(),
    childModules: z.array(navModuleSchema),
  }),
);
export const userModulesResponse = z.object({
  appId: z.number().int().nullable(),
  appName: z.string().nullable(),
  modules: z.array(navModuleSchema),
});
export type UserModulesResponse = z.infer<typeof userModulesResponse>;

export const headerWarehouse = z.object({
  uniqueid: z.number().int(),
  warehouseId: z.number().int(),
  warehouseName: z.string(),
  warehouseCode: z.string(),
  city: z.string().nullable(),
  /** The warehouse's IANA time zone: its business day (billing periods, the day a charge or a report counts in). */
  timeZone: z.string(),
  capacity: z.number().int(),
  /** Storage positions holding the caller's stock, of all the warehouse's storage positions: occupancy = used / total. */
  usedLocations: z.number().int(),
  totalLocations: z.number().int(),
  occupancy: z.number(),
});
export type HeaderWarehouse = z.infer<typeof headerWarehouse>;
/** One row per customer and warehouse it is served from. */
export const headerCustomer = z.object({
  customerId: z.number().int(),
  customerName: z.string(),
  warehouseId: z.number().int(),
});
export type HeaderCustomer = z.infer<typeof headerCustomer>;
export const warehouseClientResponse = z.object({
  warehouseData: z.array(headerWarehouse),
  customerData: z.array(headerCustomer),
});
export type WarehouseClientResponse = z.infer<typeof warehouseClientResponse>;

export const countrySchema = z.object({
  uniqueid: z.number().int(),
  name: z.string(),
  code: z.string(),
  states: z.array(z.object({ uniqueid: z.number().int(), name: z.string(), code: z.string() })),
});
export const countriesResponse = z.array(countrySchema);
export type Country = z.infer<typeof countrySchema>;

export const userAppSchema = z.object({
  appId: z.number().int(),
  appName: z.string(),
  appKey: z.string(),
  description: z.string(),
  isDefault: z.boolean(),
});
export type UserApp = z.infer<typeof userAppSchema>;
/** PUT /Common/UserModule/SetDefaultApp?appId */
export const defaultAppQuery = z.object({ appId: field.idParam() });
export const userAppsResponse = z.array(userAppSchema);
