import { z } from 'zod';
import {
  filterLabelsResponse, APPROVER_ROLES, STAFF_ROLES, adjustmentListRequest, adjustmentListResponse, adjustmentRequest, adjustmentResult, apiErrorSchema,
  decideAdjustmentRequest, mutationResult, reasonCodesResponse,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, sendXlsx, type RouteModule } from '../../http.js';

const tags = ['Adjustments'];
const read: RoutePolicy = { access: 'authenticated', module: { key: 'Adjustment', permission: 'read' }, scope: 'tenant' };
/** Stock changes are staff work; deciding a held adjustment is a manager's. */
const write: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'Adjustment', permission: 'write' }, scope: 'tenant' };
const decide: RoutePolicy = { access: 'authenticated', roles: APPROVER_ROLES, module: { key: 'Adjustment', permission: 'write' }, scope: 'tenant' };
const errors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };

export const adjustmentRoutes: RouteModule = (api, { adjustments }) => {
  api.get('/Warehouse/Adjustment/GetReasonCodes', {
    schema: { tags, summary: 'The adjustment reason codes', response: { 200: reasonCodesResponse, ...authErrors } },
    config: { policy: { access: 'authenticated', module: { key: 'Adjustment', permission: 'read' }, scope: 'none' } },
  }, () => adjustments.reasonCodes());

  api.post('/Warehouse/Adjustment/CreateAdjustment', {
    schema: {
      tags, summary: 'Add or remove stock with a reason; above the client’s threshold it waits for approval',
      body: adjustmentRequest, response: { 200: mutationResult(adjustmentResult), ...errors },
    },
    config: { policy: write },
  }, (req) => adjustments.create(principalOf(req), req.body, actorOf(req)));

  api.post('/Warehouse/Adjustment/GetAdjustments', {
    schema: { tags, summary: 'Every adjustment: posted at once, or held for approval (pending, approved, rejected)', body: adjustmentListRequest, response: { 200: adjustmentListResponse, ...authErrors } },
    config: { policy: read },
  }, (req) => adjustments.list(principalOf(req), req.body));

  api.post('/Warehouse/Adjustment/DownloadAdjustmentsExcel', {
    schema: { tags, summary: 'The filtered adjustments as an Excel workbook', body: adjustmentListRequest, response: { 200: z.any().describe('xlsx file'), ...authErrors } },
    config: { policy: read },
  }, async (req, reply) => sendXlsx(reply, 'adjustments', await adjustments.download(principalOf(req), req.body)));

  api.post('/Warehouse/Adjustment/ApproveAdjustment', {
    schema: { tags, summary: 'Approve a pending adjustment (never one’s own request): it is posted to the ledger', body: decideAdjustmentRequest, response: { 200: mutationResult(adjustmentResult), ...errors } },
    config: { policy: decide },
  }, (req) => adjustments.approve(principalOf(req), req.body, actorOf(req)));

  api.post('/Warehouse/Adjustment/RejectAdjustment', {
    schema: { tags, summary: 'Reject a pending adjustment (never one’s own request): nothing is posted', body: decideAdjustmentRequest, response: { 200: mutationResult(z.object({ adjustmentId: z.number().int() })), ...errors } },
    config: { policy: decide },
  }, (req) => adjustments.reject(principalOf(req), req.body, actorOf(req)));

  api.get('/Warehouse/Adjustment/AdjustmentFiltersLabels', {
    schema: { tags, summary: 'The adjustment list’s filters', response: { 200: filterLabelsResponse, ...authErrors } },
    config: { policy: { access: 'authenticated', module: { key: 'Adjustment', permission: 'read' }, scope: 'none' } },
  }, () => adjustments.filterLabels());
};
