import { z } from 'zod';

export const DEFAULT_PAGE_SIZE = 10;
export const FIRST_PAGE = 1;
export const MAX_PAGE_SIZE = 500;

/** A mutation's answer: the web shows `message` as the success toast. */
export const mutationResult = <T extends z.ZodTypeAny>(data: T) => z.object({ message: z.string(), data });
export const messageOnly = z.object({ message: z.string() });

export const sortSchema = z.object({ field: z.string().max(64), order: z.enum(['ascend', 'descend']) });

/** Every list call: POST …/GetX with this body → {items, totalCount}. */
export const listRequest = <F extends z.ZodTypeAny>(filters: F) =>
  z.object({
    filters: filters.optional(),
    searchQuery: z.string().max(200).optional().default(''),
    pageNumber: z.coerce.number().int().min(1).optional().default(FIRST_PAGE),
    pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional().default(DEFAULT_PAGE_SIZE),
    sort: sortSchema.optional(),
  });
export const listResponse = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ items: z.array(item), totalCount: z.number().int() });

export const idParam = z.coerce.number().int().positive();
