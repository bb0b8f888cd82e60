import { z } from 'zod';

/** One filter of a list screen's filter bar, as the …FiltersLabels calls describe them. */
export const filterLabel = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(['select', 'text', 'date', 'boolean']),
  placeholder: z.string().optional(),
  options: z.array(z.object({ label: z.string(), value: z.union([z.string(), z.number()]) })).optional(),
});
export type FilterLabel = z.infer<typeof filterLabel>;
export const filterLabelsResponse = z.array(filterLabel);

/**
 * A yes/no filter of a list body: a JSON boolean, as the filter bar's 'boolean' control sends it. Never the
 * strings 'true'/'false': every list takes one form.
 */
export const yesNoFilter = z.boolean().optional();

/** Active/inactive filter shared by the admin lists. */
export const activeFilter = z.enum(['all', 'active', 'inactive']).optional();
