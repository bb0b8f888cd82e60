import { z } from 'zod';
import {
  filterLabelsResponse, APPROVER_ROLES, STAFF_ROLES, apiErrorSchema, approveCycleCountRequest, createCycleCountRequest, cycleCountDetail, cycleCountIdBody, cycleCountIdQuery,
  cycleCountListRequest, cycleCountListResponse, enterCountsRequest, mutationResult, stockMovementResult,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, sendXlsx, type RouteModule } from '../../http.js';

const tags = ['Cycle counts'];
const read: RoutePolicy = { access: 'authenticated', module: { key: 'CycleCount', permission: 'read' }, scope: 'tenant' };
const count: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'CycleCount', permission: 'write' }, scope: 'tenant' };
/** Approving posts stock differences; cancelling releases held locations: a manager's decisions. */
const decide: RoutePolicy = { access: 'authenticated', roles: APPROVER_ROLES, module: { key: 'CycleCount', permission: 'write' }, scope: 'tenant' };
const errors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };

export const cycleCountRoutes: RouteModule = (api, { cycleCounts }) => {
  api.post('/Warehouse/CycleCount/CreateCycleCount', {
    schema: {
      tags, summary: 'Create a count of a client’s stock by location range, SKU or ABC class; its locations are held until it closes',
      body: createCycleCountRequest, response: { 200: mutationResult(cycleCountDetail), ...errors },
    },
    config: { policy: count },
  }, (req) => cycleCounts.create(principalOf(req), req.body, actorOf(req)));

  api.post('/Warehouse/CycleCount/GetCycleCounts', {
    schema: { tags, summary: 'Cycle counts: filters, search, sort, paging', body: cycleCountListRequest, response: { 200: cycleCountListResponse, ...authErrors } },
    config: { policy: read },
  }, (req) => cycleCounts.list(principalOf(req), req.body));

  api.post('/Warehouse/CycleCount/DownloadCycleCountsExcel', {
    schema: { tags, summary: 'The filtered cycle counts as an Excel workbook', body: cycleCountListRequest, response: { 200: z.any().describe('xlsx file'), ...authErrors } },
    config: { policy: read },
  }, async (req, reply) => sendXlsx(reply, 'cycle-counts', await cycleCounts.download(principalOf(req), req.body)));

  api.get('/Warehouse/CycleCount/GetCycleCountLines', {
    schema: { tags, summary: 'A count and its lines (a blind count hides expected quantities from counters)', querystring: cycleCountIdQuery, response: { 200: cycleCountDetail, ...authErrors } },
    config: { policy: read },
  }, (req) => cycleCounts.detail(principalOf(req), req.query.cycleCountId));

  api.get('/Warehouse/CycleCount/DownloadCountSheetExcel', {
    schema: { tags, summary: 'A count’s sheet for counters (no expected quantities when blind)', querystring: cycleCountIdQuery, response: { 200: z.any().describe('xlsx file'), ...authErrors } },
    config: { policy: read },
  }, async (req, reply) => {
    const sheet = await cycleCounts.countSheet(principalOf(req), req.query.cycleCountId);
    return sendXlsx(reply, `count-sheet-${sheet.countNo}`, sheet.workbook);
  });

  api.post('/Warehouse/CycleCount/EnterCounts', {
    schema: { tags, summary: 'Enter counted quantities (or recounts of lines with a variance)', body: enterCountsRequest, response: { 200: mutationResult(cycleCountDetail), ...errors } },
    config: { policy: count },
  }, (req) => cycleCounts.enterCounts(principalOf(req), req.body, actorOf(req)));

  api.post('/Warehouse/CycleCount/ApproveCycleCount', {
    schema: { tags, summary: 'Approve a counted count (not by anyone who counted it, but a Super Administrator giving an overrideReason): each difference is posted through the ledger', body: approveCycleCountRequest, response: { 200: mutationResult(stockMovementResult), ...errors } },
    config: { policy: decide },
  }, (req) => cycleCounts.approve(principalOf(req), req.body, actorOf(req)));

  api.post('/Warehouse/CycleCount/CancelCycleCount', {
    schema: { tags, summary: 'Cancel an open count: nothing is posted and its locations are released', body: cycleCountIdBody, response: { 200: mutationResult(cycleCountIdBody), ...errors } },
    config: { policy: decide },
  }, (req) => cycleCounts.cancel(principalOf(req), req.body, actorOf(req)));

  api.get('/Warehouse/CycleCount/CycleCountFiltersLabels', {
    schema: { tags, summary: 'The cycle count list’s filters', response: { 200: filterLabelsResponse, ...authErrors } },
    config: { policy: { access: 'authenticated', module: { key: 'CycleCount', permission: 'read' }, scope: 'none' } },
  }, () => cycleCounts.filterLabels());
};
