import { z } from 'zod';
import { MSG } from './messages.js';
import { listRequest, listResponse } from './common.js';
import { activeFilter } from './lists.js';

export const warehouseSchema = z.object({
  uniqueid: z.number().int(),
  warehouseId: z.number().int(),
  warehouseCode: z.string(),
  warehouseName: z.string(),
  address1: z.string().nullable(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  country: z.string().nullable(),
  timezone: z.string(),
  capacity: z.number().int(),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Warehouse = z.infer<typeof warehouseSchema>;

const optionalText = (max: number, message: string) => z.string().trim().max(max, message).nullable().optional();

export const warehouseInput = z.object({
  warehouseCode: z.string({ error: 'Please enter warehouse code!' }).trim().min(1, 'Please enter warehouse code!').max(32)
    .regex(/^[A-Za-z0-9_-]+$/, 'Use letters, digits, - and _ only'),
  warehouseName: z.string({ error: MSG.name }).trim().min(1, MSG.name).max(100),
  address1: optionalText(200, 'Address is too long'),
  address2: optionalText(200, 'Address is too long'),
  city: z.string({ error: MSG.city }).trim().min(1, MSG.city).max(100).regex(/^[\p{L} .'-]+$/u, MSG.cityValid),
  state: z.string({ error: MSG.state }).trim().min(1, MSG.state).max(100, MSG.stateValid),
  zip: z.string({ error: MSG.zip }).trim().min(1, MSG.zip).regex(/^[A-Za-z0-9 -]{3,10}$/, MSG.zipValid),
  country: z.string({ error: MSG.country }).trim().min(1, MSG.country).max(100, MSG.countryValid),
  timezone: z.string().min(1).max(64).default('UTC'),
  capacity: z.number().int().min(0).max(10_000_000),
  isActive: z.boolean().optional().default(true),
});
export const updateWarehouseInput = warehouseInput.extend({ warehouseId: z.number().int().positive() });

export const warehouseFilters = z.object({ isActive: activeFilter, country: z.string().max(100).optional() });
export const warehouseListRequest = listRequest(warehouseFilters);
export const warehouseListQuery = z.object({
  Modules: z.string().max(50).optional(),
  searchQuery: z.string().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).optional().default(1),
  pageSize: z.coerce.number().int().min(1).max(500).optional().default(10),
  sortField: z.string().max(64).optional(),
  sortOrder: z.enum(['ascend', 'descend']).optional(),
  isActive: activeFilter,
});
export const tableColumn = z.object({ key: z.string(), title: z.string(), sortable: z.boolean() });
export const warehouseListWithColumns = listResponse(warehouseSchema).extend({ columns: z.array(tableColumn) });
