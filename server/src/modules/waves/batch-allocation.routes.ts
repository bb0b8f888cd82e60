import {
  STAFF_ROLES, apiErrorSchema, batchRuleCriteria, batchRuleIdInput, batchRuleListRequest, batchRuleListResponse, batchRulePreview, jobView, mutationResult,
  runBatchAllocationInput, saveBatchRuleInput, savedBatchRule,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const tags = ['Batch allocation'];
const BASE = '/Warehouse/BatchAllocation';
const read: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'BatchAllocation', permission: 'read' }, scope: 'tenant' };
const write: RoutePolicy = { ...read, module: { key: 'BatchAllocation', permission: 'write' } };
const errors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };

export const batchAllocationRoutes: RouteModule = (api, { batchAllocation }) => {
  api.post(`${BASE}/PreviewRule`, {
    schema: {
      tags, body: batchRuleCriteria, response: { 200: batchRulePreview, ...authErrors },
      summary: 'What a rule matches: orders, lines and units by status (waiting for stock, or allocated and ready to release), with the first 50 orders',
    },
    config: { policy: read },
  }, (req) => batchAllocation.preview(principalOf(req), req.body));

  api.post(`${BASE}/RunBatchAllocation`, {
    schema: {
      tags, body: runBatchAllocationInput, response: { 202: mutationResult(jobView), ...errors },
      summary: 'Allocate the rule’s New, Partially Allocated and Backordered orders as a background job (progress over the hub; its result is the summary)',
    },
    config: { policy: write },
  }, async (req, reply) => {
    const answer = await batchAllocation.run(principalOf(req), req.body, actorOf(req));
    void reply.code(202);
    return answer;
  });

  api.post(`${BASE}/GetRules`, {
    schema: { tags, summary: 'Saved batch-allocation rules of the caller’s warehouses', body: batchRuleListRequest, response: { 200: batchRuleListResponse, ...authErrors } },
    config: { policy: read },
  }, (req) => batchAllocation.listRules(principalOf(req), req.body));

  api.post(`${BASE}/SaveRule`, {
    schema: { tags, summary: 'Save a rule to run again (its name unique in its warehouse)', body: saveBatchRuleInput, response: { 200: mutationResult(savedBatchRule), ...errors } },
    config: { policy: write },
  }, (req) => batchAllocation.saveRule(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/DeleteRule`, {
    schema: { tags, summary: 'Delete a saved rule', body: batchRuleIdInput, response: { 200: mutationResult(savedBatchRule), ...errors } },
    config: { policy: write },
  }, (req) => batchAllocation.deleteRule(principalOf(req), req.body, actorOf(req)));
};
