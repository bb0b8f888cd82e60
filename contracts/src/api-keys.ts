// A customer's API keys (issue 12 item 2): what a client's integration signs its order calls with.
import { z } from 'zod';
import { field } from './fields.js';
import type { Permission } from './apps.js';

/** The header an API call carries its key in (with no `Authorization: Bearer`). */
export const API_KEY_HEADER = 'X-Api-Key';
/** A key as handed out: `bolx_<prefix>_<secret>`; the prefix (8 characters) is shown, the secret only once. */
export const API_KEY_PATTERN = /^bolx_([0-9a-f]{8})_([0-9a-f]{64})$/;
/** An example key for the API reference (not a real one). */
export const API_KEY_EXAMPLE = 'bolx_3f9a2c41_' + '0123456789abcdef'.repeat(4);
/**
 * What a key may do: it acts as a Client account of its customer holding these modules, and only on routes whose
 * policy opens them to keys (`apiKey: true`): the Orders screen's module, read and write, and the RMA screen's (a client's returns, issue 15).
 */
export const API_KEY_MODULES: ReadonlyMap<string, Permission> = new Map([['OrderDashboard', 'write'], ['RMA', 'write']]);

const keyName = field.text(100, { error: 'Please enter a name for the key!' }).trim().min(1, 'Please enter a name for the key!');

/** A key as listed: never its secret nor its hash. */
export const apiKeySchema = z.object({
  apiKeyId: z.number().int(),
  customerId: z.number().int(),
  name: z.string(),
  /** The key's visible start, e.g. `bolx_3f9a2c41_…`. */
  prefix: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** CreateApiKey's answer: the key with its full value, shown this once and never again. */
export const createdApiKeySchema = apiKeySchema.extend({
  apiKey: z.string().describe('The whole key. It is shown only in this answer; store it now.').meta({ example: API_KEY_EXAMPLE }),
});

export const createApiKeyInput = z.object({ customerId: field.id(), name: keyName });
export const revokeApiKeyInput = z.object({ customerId: field.id(), apiKeyId: field.id() });
export const apiKeysQuery = z.object({ customerId: field.idParam() });

/** ApiKeyWhoAmI: an optional header-filter customer/warehouse, held to the caller's scope like a list's. */
export const apiKeyWhoAmIQuery = z.object({
  customerId: field.idParam().optional(),
  warehouseId: field.idParam().optional(),
});
export const apiKeyWhoAmISchema = z.object({
  /** The caller's customer; null for staff, who act for many. */
  customerId: z.number().int().nullable(),
  customerName: z.string().nullable(),
  /** The warehouses in scope; empty for a caller who sees them all. */
  warehouseIds: z.array(z.number().int()),
  apiKeyId: z.number().int().nullable(),
  prefix: z.string().nullable(),
  modules: z.array(z.object({ key: z.string(), permission: z.enum(['read', 'write']) })),
});
