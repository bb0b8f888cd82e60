import { z } from 'zod';
import {
  MAX_ORDER_DOCUMENTS, ORDER_DOCUMENT_MAX_BYTES, ORDER_UPLOAD_MAX_BYTES, orderDocumentFields, orderDocumentIdInput, orderDocumentQuery, queuedJobResult,
  uploadOrdersFields, uploadOrdersResult,
  STAFF_ROLES, allocationResult, apiErrorSchema, backorderListRequest, backorderListResponse, createOrderInput, mutationResult, orderBatchInput,
  orderBatchResult, orderByIdQuery, orderDetail, orderIdInput, orderIntakeResult, orderListRequest, orderListResponse, orderStatusCounts,
  orderStatusCountsRequest, orderSummary, orderCarrierAccount, orderCarrierAccountsQuery,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, sendXlsx, type RouteModule } from '../../http.js';
import { badRequest } from '../../platform/errors.js';
import { parseFields, receiveFiles, receiveParts, sendStoredFile, tooLarge } from '../../platform/files.js';
import { UPLOAD_JOBS, uploadNowOrQueued } from '../uploads/upload-jobs.js';

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

const file = (description: string) => z.any().describe(description);

export const orderRoutes: RouteModule = (api, { orders, allocation, backorders, orderDocuments, orderUploads, uploadQueue }) => {
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
  }, (req) => allocation.hold(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/ReleaseHold`, {
    schema: { tags, summary: 'Release a held order: it goes back to New for allocation', body: orderIdInput, response: { 200: mutationResult(orderSummary), ...errors } },
    config: { policy: staff },
  }, (req) => allocation.releaseHold(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/CancelOrder`, {
    schema: { tags, summary: 'Cancel an order picking has not started (a client account or key: one not yet released)', body: orderIdInput, response: { 200: mutationResult(orderSummary), ...errors }, security },
    config: { policy: keyWrite },
  }, (req) => allocation.cancel(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/AllocateOrders`, {
    schema: {
      tags, body: orderBatchInput, response: { 200: allocationResult, ...errors },
      summary: 'Allocate orders from free pickable stock: each ends Allocated, Partially Allocated or Backordered, each short line with its reason; one order’s refusal never stops the others',
    },
    config: { policy: staff },
  }, (req) => allocation.allocate(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/UnallocateOrders`, {
    schema: { tags, summary: 'Give back everything the orders hold: each goes back to New', body: orderBatchInput, response: { 200: orderBatchResult, ...errors } },
    config: { policy: staff },
  }, (req) => allocation.unallocate(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/HoldOrders`, {
    schema: { tags, summary: 'Put orders on hold (what they hold is given back)', body: orderBatchInput, response: { 200: orderBatchResult, ...errors } },
    config: { policy: staff },
  }, (req) => allocation.holdMany(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/ReleaseHolds`, {
    schema: { tags, summary: 'Release held orders: each goes back to New for allocation', body: orderBatchInput, response: { 200: orderBatchResult, ...errors } },
    config: { policy: staff },
  }, (req) => allocation.releaseHolds(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/CancelOrders`, {
    schema: { tags, summary: 'Cancel orders picking has not started, giving back what they hold (a client account: only before release)', body: orderBatchInput, response: { 200: orderBatchResult, ...errors } },
    config: { policy: write },
  }, (req) => allocation.cancelMany(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/GetBackorders`, {
    schema: {
      tags, body: backorderListRequest, response: { 200: backorderListResponse, ...authErrors },
      summary: '/BKO: lines of Backordered and Partially Allocated orders waiting for stock, with how long they wait, the free stock now and why they are short',
    },
    config: { policy: read },
  }, (req) => backorders.list(principalOf(req), req.body));

  // ----- the Add Data panel's Orders card, and an order's documents -----

  api.post(`${BASE}/UploadOrders`, {
    schema: {
      tags, consumes: ['multipart/form-data'], response: { 200: mutationResult(uploadOrdersResult), 202: mutationResult(queuedJobResult), ...errors },
      summary: 'Take orders in from one CSV or XLSX sheet (multipart: warehouseId, customerId, orderType, orderDate, referenceNumber, file; '
        + `optional documents: up to ${MAX_ORDER_DOCUMENTS} PDF/Excel/CSV files kept with each new order). Rows sharing a Reference Number make one order; `
        + 'any bad row writes nothing (422 with every row’s errors); a reference already used answers its order (a duplicate). A large sheet runs as a job (202), its documents kept with it',
    },
    config: { policy: write, uploadFields: uploadOrdersFields },
  }, async (req, reply) => {
    const parts = await receiveParts(req, ORDER_UPLOAD_MAX_BYTES, 1 + MAX_ORDER_DOCUMENTS);
    const sheets = parts.files.filter((f) => f.fieldname === 'file');
    const documents = parts.files.filter((f) => f.fieldname === 'documents');
    if (sheets.length > 1 || sheets.length + documents.length !== parts.files.length) throw badRequest('Send one sheet as `file` and documents as `documents`', { file: 'Upload one file at a time' });
    if (parts.files.some((f) => f.oversized || f.bytes.length > ORDER_UPLOAD_MAX_BYTES)) throw tooLarge(ORDER_UPLOAD_MAX_BYTES);
    const upload = { fields: parts.fields, file: sheets[0] ? { fileName: sheets[0].fileName, bytes: sheets[0].bytes } : null };
    const [principal, actor] = [principalOf(req), actorOf(req)];
    const now = () => orderUploads.upload(principal, { ...upload, documents }, actor);
    // Documents are checked now (a wrong kind answers at once); a large sheet's job keeps them and attaches them to its orders.
    if (documents.length) orderDocuments.check(documents);
    return uploadNowOrQueued(uploadQueue, reply, principal, actor, {
      name: UPLOAD_JOBS.orders, upload, maxBytes: ORDER_UPLOAD_MAX_BYTES, scope: () => parseFields(uploadOrdersFields, upload.fields),
      attachments: documents.map((d) => ({ fileName: d.fileName, bytes: d.bytes })),
    }, now);
  });

  api.get(`${BASE}/DownloadOrderTemplate`, {
    schema: { tags, summary: 'The orders upload template (xlsx): one row per line, rows grouped into orders by Reference Number; instructions on its second sheet', response: { 200: file('xlsx file'), ...authErrors } },
    config: { policy: { ...write, scope: 'none' } },
  }, async (_req, reply) => sendXlsx(reply, 'order-template', await orderUploads.template()));

  api.post(`${BASE}/AddOrderDocuments`, {
    schema: {
      tags, consumes: ['multipart/form-data'], response: { 200: mutationResult(orderSummary), ...errors },
      summary: `Keep files with an order not yet shipped (multipart: orderId, files: PDF, Excel or CSV by content; at most ${MAX_ORDER_DOCUMENTS} an order). All or none`,
    },
    config: { policy: write, uploadFields: orderDocumentFields },
  }, async (req) => orderDocuments.add(principalOf(req), await receiveFiles(req, { maxBytes: ORDER_DOCUMENT_MAX_BYTES, maxFiles: MAX_ORDER_DOCUMENTS + 1, fileField: 'files' }), actorOf(req)));

  api.post(`${BASE}/DeleteOrderDocument`, {
    schema: { tags, summary: 'Remove a document from an order not yet shipped', body: orderDocumentIdInput, response: { 200: mutationResult(orderSummary), ...errors } },
    config: { policy: write },
  }, (req) => orderDocuments.remove(principalOf(req), req.body.documentId, actorOf(req)));

  api.get(`${BASE}/DownloadOrderDocument`, {
    schema: { tags, summary: 'An order’s document (a client account or key: its own customer’s only)', querystring: orderDocumentQuery, response: { 200: file('the stored file'), ...authErrors }, security },
    config: { policy: keyRead },
  }, async (req, reply) => sendStoredFile(reply, await orderDocuments.file(principalOf(req), req.query.documentId)));

  api.get(`${BASE}/GetCarrierAccounts`, {
    schema: {
      tags, summary: 'A client’s active carrier accounts, for the order form’s carrier choice', querystring: orderCarrierAccountsQuery,
      response: { 200: z.array(orderCarrierAccount), ...authErrors },
    },
    config: { policy: read },
  }, (req) => orders.carrierAccounts(principalOf(req), req.query.customerId));
};
