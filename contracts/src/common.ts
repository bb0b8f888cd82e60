import { z } from 'zod';
import { field, INT_MAX } from './fields.js';

export const DEFAULT_PAGE_SIZE = 10;
export const FIRST_PAGE = 1;
export const MAX_PAGE_SIZE = 500;

/** A mutation's answer: the web shows `message` as the success toast. */
export const mutationResult = <T extends z.ZodTypeAny>(data: T) => z.object({ message: z.string(), data });
export const messageOnly = z.object({ message: z.string() });

export const sortSchema = z.object({ field: field.text(64), order: z.enum(['ascend', 'descend']) });

/** Every list call: POST …/GetX with this body → {items, totalCount}. */
export const listRequest = <F extends z.ZodTypeAny>(filters: F) =>
  z.object({
    filters: filters.optional(),
    searchQuery: field.text(200).optional().default(''),
    pageNumber: field.intParam(1, INT_MAX).optional().default(FIRST_PAGE),
    pageSize: field.intParam(1, MAX_PAGE_SIZE).optional().default(DEFAULT_PAGE_SIZE),
    sort: sortSchema.optional(),
  });
export const listResponse = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ items: z.array(item), totalCount: z.number().int() });

/** An id in a querystring or a multipart field. */
export const idParam = field.idParam();
