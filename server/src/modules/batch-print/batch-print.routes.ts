import { z } from 'zod';
import { STAFF_ROLES, apiErrorSchema, orderByIdQuery, printPackingSlipsInput, printPickListsInput } from '@bolx/contracts';
import { principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const tags = ['Batch print'];
const BASE = '/Warehouse/BatchPrint';
/** Printing a batch of jobs or orders is staff work. */
const staff: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'BatchPrint', permission: 'read' }, scope: 'tenant' };
/** One order's packing slip: whoever may read the order, a client account for its own customer's orders too. */
const orderReader: RoutePolicy = { access: 'authenticated', module: { key: 'OrderDashboard', permission: 'read' }, scope: 'tenant' };
const errors = { 422: apiErrorSchema, ...authErrors };
const pdf = z.any().describe('application/pdf');

export const batchPrintRoutes: RouteModule = (api, { batchPrint }) => {
  api.post(`${BASE}/PickLists`, {
    schema: {
      tags, body: printPickListsInput, response: { 200: pdf, ...errors },
      summary: 'Pick lists of pick jobs as one PDF: job, wave, picker and totes, then each stop in pick-path order with its location and SKU as Code 128',
    },
    config: { policy: staff },
  }, async (req, reply) => {
    const body = await batchPrint.pickLists(principalOf(req), req.body);
    return reply.type('application/pdf').header('content-disposition', 'inline; filename="pick-lists.pdf"').send(body);
  });

  api.post(`${BASE}/PackingSlips`, {
    schema: {
      tags, body: printPackingSlipsInput, response: { 200: pdf, ...errors },
      summary: 'Packing slips as one PDF, one order per slip: the orders named, the orders of pick jobs, or the orders of a wave',
    },
    config: { policy: staff },
  }, async (req, reply) => {
    const body = await batchPrint.packingSlips(principalOf(req), req.body);
    return reply.type('application/pdf').header('content-disposition', 'inline; filename="packing-slips.pdf"').send(body);
  });

  api.get(`${BASE}/PackingSlip`, {
    schema: { tags, querystring: orderByIdQuery, response: { 200: pdf, ...authErrors }, summary: 'One order’s packing slip as a PDF (a client account: its own orders)' },
    config: { policy: orderReader },
  }, async (req, reply) => {
    const body = await batchPrint.packingSlip(principalOf(req), req.query.orderId);
    return reply.type('application/pdf').header('content-disposition', `inline; filename="packing-slip-${req.query.orderId}.pdf"`).send(body);
  });
};
