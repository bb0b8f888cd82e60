import { z } from 'zod';
import {
  ADMIN_ROLES, API_KEY_HEADER, apiErrorSchema, apiKeySchema, apiKeysQuery, apiKeyWhoAmIQuery, apiKeyWhoAmISchema,
  createApiKeyInput, createdApiKeySchema, mutationResult, revokeApiKeyInput, type Role,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const base = '/Warehouse/Customer';
const tags = ['Customer API keys'];
/** Administrators (in their customer scope), and a Client account for its own customer. */
const KEY_ROLES: readonly Role[] = [...ADMIN_ROLES, 'Client'];
/** Listing needs the Customer module (read): a plain Client user may see its customer's keys and their last use. */
const read: RoutePolicy = { access: 'authenticated', roles: KEY_ROLES, module: { key: 'Customer', permission: 'read' }, scope: 'tenant' };
/** Creating and revoking need it with write: an administrator, or the Client account its customer's administrator. */
const manage: RoutePolicy = { access: 'authenticated', roles: KEY_ROLES, module: { key: 'Customer', permission: 'write' }, scope: 'tenant' };
/** What a key itself may call here: who it is (anyone holding the Orders screen may ask). */
const asKey: RoutePolicy = { access: 'authenticated', module: { key: 'OrderDashboard', permission: 'read' }, scope: 'tenant', apiKey: true };

export const apiKeyRoutes: RouteModule = (api, { apiKeys }) => {
  api.post(`${base}/CreateApiKey`, {
    schema: {
      tags, summary: 'Create an API key for a customer; the whole key is in this answer only',
      description: `Send it as the \`${API_KEY_HEADER}\` header (no Authorization header). Only its SHA-256 is stored: a lost key cannot be shown again, only revoked and replaced.`,
      body: createApiKeyInput, response: { 200: mutationResult(createdApiKeySchema), ...authErrors },
    },
    config: { policy: manage },
  }, (req) => apiKeys.create(principalOf(req), req.body, actorOf(req)));

  api.get(`${base}/GetApiKeys`, {
    schema: { tags, summary: 'A customer’s API keys: name, prefix, created, last used, revoked (never the secret)', querystring: apiKeysQuery, response: { 200: z.array(apiKeySchema), ...authErrors } },
    config: { policy: read },
  }, (req) => apiKeys.list(principalOf(req), req.query.customerId));

  api.post(`${base}/RevokeApiKey`, {
    schema: { tags, summary: 'Revoke an API key: its next request answers 401', body: revokeApiKeyInput, response: { 200: mutationResult(apiKeySchema), ...authErrors, 409: apiErrorSchema } },
    config: { policy: manage },
  }, (req) => apiKeys.revoke(principalOf(req), req.body, actorOf(req)));

  api.get(`${base}/ApiKeyWhoAmI`, {
    schema: {
      tags, summary: 'The customer and warehouses an API key (or a Client account) acts for; staff get no customer',
      description: `Call it with \`${API_KEY_HEADER}\` to check a key. customerId / warehouseId outside the key's customer answer 403.`,
      querystring: apiKeyWhoAmIQuery, response: { 200: apiKeyWhoAmISchema, ...authErrors },
      security: [{ apiKey: [] }, { bearer: [] }],
    },
    config: { policy: asKey },
  }, (req) => apiKeys.whoAmI(principalOf(req), req.query));
};
