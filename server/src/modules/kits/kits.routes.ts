import {
  STAFF_ROLES, apiErrorSchema, createWorkOrderForOrderLineInput, createWorkOrderInput, kitAvailabilityRequest, kitAvailabilityResponse, mutationResult,
  workOrderByIdQuery, workOrderDetail, workOrderIdInput, workOrderListRequest, workOrderListResponse,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const tags = ['Kits'];
const BASE = '/Warehouse/Kit';
const MODULE = 'KitDashboard';
/** Anyone with the Kit Dashboard reads; a client account sees its own customer's kits and work orders only. */
const read: RoutePolicy = { access: 'authenticated', module: { key: MODULE, permission: 'read' }, scope: 'tenant' };
/** Building and taking kits apart is the warehouse's work. */
const write: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: MODULE, permission: 'write' }, scope: 'tenant' };
const errors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };

export const kitRoutes: RouteModule = (api, { kits }) => {
  api.post(`${BASE}/GetKitAvailability`, {
    schema: {
      tags, body: kitAvailabilityRequest, response: { 200: kitAvailabilityResponse, ...authErrors },
      summary: 'Kit SKUs per warehouse: built kits on hand and free, and how many the free components allow (naming the scarcest)',
    },
    config: { policy: read },
  }, (req) => kits.availability(principalOf(req), req.body));

  api.post(`${BASE}/GetWorkOrders`, {
    schema: {
      tags, body: workOrderListRequest, response: { 200: workOrderListResponse, ...authErrors },
      summary: 'Kit work orders with their component shortages: filters (warehouse, client, status, type, kit SKU), search by number or kit, sort, paging',
    },
    config: { policy: read },
  }, (req) => kits.list(principalOf(req), req.body));

  api.get(`${BASE}/GetWorkOrder`, {
    schema: { tags, summary: 'One work order: its components, what each still misses, and its status history', querystring: workOrderByIdQuery, response: { 200: workOrderDetail, ...authErrors } },
    config: { policy: read },
  }, (req) => kits.get(principalOf(req), req.query.workOrderId));

  api.post(`${BASE}/CreateWorkOrder`, {
    schema: {
      tags, body: createWorkOrderInput, response: { 200: mutationResult(workOrderDetail), ...errors },
      summary: 'Make a Build or Unbuild work order; a Build reserves its components (FEFO/FIFO, pickable) unless it names their source location',
    },
    config: { policy: write },
  }, (req) => kits.create(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/CreateWorkOrderForOrderLine`, {
    schema: {
      tags, body: createWorkOrderForOrderLineInput, response: { 200: mutationResult(workOrderDetail), ...errors },
      summary: 'Raise a Build for an order line of a kit SKU: the kits it still misses beyond those allocated and the free built kits',
    },
    config: { policy: write },
  }, (req) => kits.createForOrderLine(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/CompleteWorkOrder`, {
    schema: {
      tags, body: workOrderIdInput, response: { 200: mutationResult(workOrderDetail), ...errors },
      summary: 'Complete an open work order: one ledger posting consumes the components and produces the kits (or the reverse); 422 naming what is short',
    },
    config: { policy: write },
  }, (req) => kits.complete(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/CancelWorkOrder`, {
    schema: { tags, summary: 'Cancel an open work order, releasing its reserved components', body: workOrderIdInput, response: { 200: mutationResult(workOrderDetail), ...errors } },
    config: { policy: write },
  }, (req) => kits.cancel(principalOf(req), req.body, actorOf(req)));
};
