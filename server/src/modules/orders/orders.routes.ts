import {
  STAFF_ROLES, apiErrorSchema, createOrderInput, mutationResult, orderByIdQuery, orderDetail, orderIdInput, orderIntakeResult, orderListRequest,
  orderCarrierAccount, orderCarrierAccountsQuery, orderListResponse, orderStatusCounts, orderStatusCountsRequest, orderSummary,
} from '@bolx/contracts';
import { z } from 'zod';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const tags = ['Orders'];
const BASE = '/Warehouse/Order';
const MODULE = 'OrderDashboard';
/** Orders are read by anyone with the Order Dashboard; a client account sees its own customer's only. */
const read: RoutePolicy = { access: 'authenticated', module: { key: MODULE, permission: 'read' }, scope: 'tenant' };
/** A client account takes in and cancels its own customer's orders too (the service holds it to its customer). */
const write: RoutePolicy = { access: 'authenticated', module: { key: MODULE, permission: 'write' }, scope: 'tenant' };
/** Holding an order is the warehouse's decision. */
const staff: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: MODULE, permission: 'write' }, scope: 'tenant' };
/** The client API: a customer's key (X-Api-Key) creates, reads and cancels its own orders, as its client account would. */
const keyRead: RoutePolicy = { ...read, apiKey: true };
const keyWrite: RoutePolicy = { ...write, apiKey: true };
const security: Record<string, string[]>[] = [{ apiKey: [] }, { bearer: [] }];
const errors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };

export const orderRoutes: RouteModule = (api, { orders }) => {
  api.post(`${BASE}/CreateOrder`, {
    schema: {
      tags, body: createOrderInput, response: { 200: mutationResult(orderIntakeResult), ...errors },
      summary: 'Take an order in; a reference the client already used answers that order (duplicate: true) and creates nothing',
      security,
    },
    config: { policy: keyWrite },
  }, (req) => {
    const principal = principalOf(req);
    return orders.intake(principal, req.body, actorOf(req), principal.apiKey ? 'api' : 'screen');
  });

  api.post(`${BASE}/GetOrders`, {
    schema: {
      tags, body: orderListRequest, response: { 200: orderListResponse, ...authErrors },
      summary: 'Orders with their totals: filters (warehouse, client, type, status, order dates, priority, carrier), search by number, reference or ship-to, sort, paging',
      security,
    },
    config: { policy: keyRead },
  }, (req) => orders.list(principalOf(req), req.body));

  api.get(`${BASE}/GetOrder`, {
    schema: { tags, summary: 'One order: header, lines and status history', querystring: orderByIdQuery, response: { 200: orderDetail, ...authErrors }, security },
    config: { policy: keyRead },
  }, (req) => orders.get(principalOf(req), req.query.orderId));

  api.post(`${BASE}/GetOrderStatusCounts`, {
    schema: { tags, summary: 'How many orders are in each status, for the dashboard’s top row', body: orderStatusCountsRequest, response: { 200: orderStatusCounts, ...authErrors } },
    config: { policy: read },
  }, (req) => orders.statusCounts(principalOf(req), req.body));

  api.post(`${BASE}/HoldOrder`, {
    schema: { tags, summary: 'Put an order on hold (before picking starts)', body: orderIdInput, response: { 200: mutationResult(orderSummary), ...errors } },
    config: { policy: staff },
  }, (req) => orders.hold(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/ReleaseHold`, {
    schema: { tags, summary: 'Release a held order: it goes back to New for allocation', body: orderIdInput, response: { 200: mutationResult(orderSummary), ...errors } },
    config: { policy: staff },
  }, (req) => orders.releaseHold(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/CancelOrder`, {
    schema: { tags, summary: 'Cancel an order picking has not started (a client account or key: one not yet released)', body: orderIdInput, response: { 200: mutationResult(orderSummary), ...errors }, security },
    config: { policy: keyWrite },
  }, (req) => orders.cancel(principalOf(req), req.body, actorOf(req)));

  api.get(`${BASE}/GetCarrierAccounts`, {
    schema: {
      tags, summary: 'A client’s active carrier accounts, for the order form’s carrier choice', querystring: orderCarrierAccountsQuery,
      response: { 200: z.array(orderCarrierAccount), ...authErrors },
    },
    config: { policy: read },
  }, (req) => orders.carrierAccounts(principalOf(req), req.query.customerId));
};
