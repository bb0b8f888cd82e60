import { z } from 'zod';
import { field, INT_MAX } from './fields.js';
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

const optionalText = (max: number, message: string) => field.text(max, undefined, message).trim().nullable().optional();

export const warehouseInput = z.object({
  warehouseCode: field.text(32, { error: 'Please enter warehouse code!' }).trim().min(1, 'Please enter warehouse code!')
    .regex(/^[A-Za-z0-9_-]+$/, 'Use letters, digits, - and _ only'),
  warehouseName: field.text(100, { error: MSG.name }).trim().min(1, MSG.name),
  address1: optionalText(200, 'Address is too long'),
  address2: optionalText(200, 'Address is too long'),
  city: field.text(100, { error: MSG.city }).trim().min(1, MSG.city).regex(/^[\p{L} .'-]+$/u, MSG.cityValid),
  state: field.text(100, { error: MSG.state }, MSG.stateValid).trim().min(1, MSG.state),
  zip: field.text(10, { error: MSG.zip }).trim().min(1, MSG.zip).regex(/^[A-Za-z0-9 -]{3,10}$/, MSG.zipValid),
  country: field.text(100, { error: MSG.country }, MSG.countryValid).trim().min(1, MSG.country),
  timezone: field.text(64).min(1).default('UTC'),
  capacity: z.number().int().min(0).max(10_000_000),
  isActive: z.boolean().optional().default(true),
});
export const warehouseIdQuery = z.object({ warehouseId: field.idParam() });
export const updateWarehouseInput = warehouseInput.extend({ warehouseId: field.id() });

export const warehouseFilters = z.object({ isActive: activeFilter, country: field.text(100).optional() });
export const warehouseListRequest = listRequest(warehouseFilters);
export const warehouseListQuery = z.object({
  Modules: field.text(50).optional(),
  searchQuery: field.text(200).optional().default(''),
  pageNumber: field.intParam(1, INT_MAX).optional().default(1),
  pageSize: field.intParam(1, 500).optional().default(10),
  sortField: field.text(64).optional(),
  sortOrder: z.enum(['ascend', 'descend']).optional(),
  isActive: activeFilter,
});
export const tableColumn = z.object({ key: z.string(), title: z.string(), sortable: z.boolean() });
export const warehouseListWithColumns = listResponse(warehouseSchema).extend({ columns: z.array(tableColumn) });
