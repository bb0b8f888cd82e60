import { z } from 'zod';
import {
  filterLabelsResponse, STAFF_ROLES, apiErrorSchema, completeTaskRequest, generateTasksRequest, generateTasksResult, mutationResult, replenishmentRuleInput,
  replenishmentRuleListRequest, replenishmentRuleListResponse, replenishmentRuleRow, replenishmentTaskListRequest,
  replenishmentTaskListResponse, stockMovementResult, taskIdBody,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, sendXlsx, type RouteModule } from '../../http.js';

const tags = ['Replenishment'];
const read: RoutePolicy = { access: 'authenticated', module: { key: 'ProductReplenishment', permission: 'read' }, scope: 'tenant' };
const write: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'ProductReplenishment', permission: 'write' }, scope: 'tenant' };
const errors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };

export const replenishmentRoutes: RouteModule = (api, { replenishment }) => {
  api.post('/Warehouse/Replenishment/SaveReplenishmentRule', {
    schema: { tags, summary: 'Set min/max for a SKU at a pick location (creates or updates)', body: replenishmentRuleInput, response: { 200: mutationResult(replenishmentRuleRow), ...errors } },
    config: { policy: write },
  }, (req) => replenishment.saveRule(principalOf(req), req.body, actorOf(req)));

  api.post('/Warehouse/Replenishment/GetReplenishmentRules', {
    schema: { tags, summary: 'Min/max rules with what is on hand at each pick location', body: replenishmentRuleListRequest, response: { 200: replenishmentRuleListResponse, ...authErrors } },
    config: { policy: read },
  }, (req) => replenishment.rules(principalOf(req), req.body));

  api.post('/Warehouse/Replenishment/GenerateTasks', {
    schema: { tags, summary: 'Make a task from bulk storage for every pick location below its min', body: generateTasksRequest, response: { 200: mutationResult(generateTasksResult), ...errors } },
    config: { policy: write },
  }, (req) => replenishment.generate(principalOf(req), req.body, actorOf(req)));

  api.post('/Warehouse/Replenishment/GetReplenishmentTasks', {
    schema: { tags, summary: 'Replenishment tasks: filters, search, sort, paging', body: replenishmentTaskListRequest, response: { 200: replenishmentTaskListResponse, ...authErrors } },
    config: { policy: read },
  }, (req) => replenishment.tasks(principalOf(req), req.body));

  api.post('/Warehouse/Replenishment/DownloadReplenishmentTasksExcel', {
    schema: { tags, summary: 'The filtered tasks as an Excel workbook', body: replenishmentTaskListRequest, response: { 200: z.any().describe('xlsx file'), ...authErrors } },
    config: { policy: read },
  }, async (req, reply) => sendXlsx(reply, 'replenishment-tasks', await replenishment.downloadTasks(principalOf(req), req.body)));

  api.post('/Warehouse/Replenishment/CompleteTask', {
    schema: { tags, summary: 'Complete a task: its stock moves to the pick location through the ledger', body: completeTaskRequest, response: { 200: mutationResult(stockMovementResult), ...errors } },
    config: { policy: write },
  }, (req) => replenishment.complete(principalOf(req), req.body, actorOf(req)));

  api.post('/Warehouse/Replenishment/CancelTask', {
    schema: { tags, summary: 'Cancel an open task, releasing its source stock', body: taskIdBody, response: { 200: mutationResult(taskIdBody), ...errors } },
    config: { policy: write },
  }, (req) => replenishment.cancel(principalOf(req), req.body, actorOf(req)));

  api.get('/Warehouse/Replenishment/ReplenishmentTaskFiltersLabels', {
    schema: { tags, summary: 'The replenishment task list’s filters', response: { 200: filterLabelsResponse, ...authErrors } },
    config: { policy: { access: 'authenticated', module: { key: 'ProductReplenishment', permission: 'read' }, scope: 'none' } },
  }, () => replenishment.filterLabels());
};
