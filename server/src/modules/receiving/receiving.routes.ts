import { z } from 'zod';
import {
  queuedJobResult,
  STAFF_ROLES, apiErrorSchema, createReceivingOrderInput, dockLocationsQuery, dockLocationsResponse, filterLabelsResponse, mutationResult, putawayInput, putawayResult,
  putawaySuggestions, receiveAsExpectedInput, receiveAsExpectedResult, receiveItemInput, receiveItemResult, receivingOrderByIdQuery, receivingOrderDetail, receivingOrderIdInput,
  receivingOrderListRequest, receivingOrderListResponse, receivingOrderSummary, roDetailListResponse, roDocumentQuery, roInwardListResponse,
  RO_DOCUMENT_MAX_BYTES, roDocumentFields, suggestPutawayQuery, updateReceivingOrderInput, uploadReceivingOrderFields, uploadReceivingOrderResult,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, sendXlsx, type RouteModule } from '../../http.js';
import { parseFields, receiveUpload, sendStoredFile } from '../../platform/files.js';
import { UPLOAD_JOBS, uploadNowOrQueued } from '../uploads/upload-jobs.js';

const tags = ['Receiving'];
const BASE = '/Warehouse/Receiving';
/** Reading ROs and their reports: any role with the screen's module; a client account sees its own customer's only. */
const read = (key: string): RoutePolicy => ({ access: 'authenticated', module: { key, permission: 'read' }, scope: 'tenant' });
/** Receiving is staff work: a client account can see its ROs but never change one. */
const write: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'InBound', permission: 'write' }, scope: 'tenant' };
const writeErrors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };
const file = (description: string) => z.any().describe(description);

export const receivingRoutes: RouteModule = (api, { receiving, uploadQueue }) => {
  api.post(`${BASE}/GetReceivingOrders`, {
    schema: { tags, summary: 'Receiving orders with their totals: filters (warehouse, client, status, expected dates), search, sort, paging', body: receivingOrderListRequest, response: { 200: receivingOrderListResponse, ...authErrors } },
    config: { policy: read('InBound') },
  }, (req) => receiving.list(principalOf(req), req.body));

  api.get(`${BASE}/ReceivingOrderFiltersLabels`, {
    schema: { tags, summary: 'The receiving order list’s filters', response: { 200: filterLabelsResponse, ...authErrors } },
    config: { policy: read('InBound') },
  }, () => receiving.filterLabels());

  api.get(`${BASE}/GetReceivingOrderById`, {
    schema: { tags, summary: 'One receiving order with its lines (over/short), receipts, putaways and documents', querystring: receivingOrderByIdQuery, response: { 200: receivingOrderDetail, ...authErrors } },
    config: { policy: read('InBound') },
  }, (req) => receiving.get(principalOf(req), req.query.receivingOrderId));

  api.post(`${BASE}/CreateReceivingOrder`, {
    schema: { tags, summary: 'Create a receiving order (supplier, expected delivery date, SKU lines)', body: createReceivingOrderInput, response: { 200: mutationResult(receivingOrderSummary), ...writeErrors } },
    config: { policy: write },
  }, (req) => receiving.create(principalOf(req), req.body, actorOf(req)));

  api.put(`${BASE}/UpdateReceivingOrder`, {
    schema: { tags, summary: 'Change an Open or Receiving order’s header and lines (a line with receipts stays)', body: updateReceivingOrderInput, response: { 200: mutationResult(receivingOrderSummary), ...writeErrors } },
    config: { policy: write },
  }, (req) => receiving.update(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/UploadReceivingOrder`, {
    schema: {
      tags, summary: 'Create receiving orders from one CSV or XLSX sheet (multipart: warehouseId, customerId, supplier, expectedDeliveryDate, referenceNumber, file); rows sharing supplier, date and reference make one order; any bad row writes nothing (422 with row errors)',
      consumes: ['multipart/form-data'], response: { 200: mutationResult(uploadReceivingOrderResult), 202: mutationResult(queuedJobResult), ...writeErrors },
    },
    config: { policy: write, uploadFields: uploadReceivingOrderFields },
  }, async (req, reply) => {
    const upload = await receiveUpload(req, { maxBytes: RO_DOCUMENT_MAX_BYTES });
    const [principal, actor] = [principalOf(req), actorOf(req)];
    return uploadNowOrQueued(uploadQueue, reply, principal, actor, {
      name: UPLOAD_JOBS.receivingOrder, upload, maxBytes: RO_DOCUMENT_MAX_BYTES, scope: () => parseFields(uploadReceivingOrderFields, upload.fields),
    }, () => receiving.upload(principal, upload, actor));
  });

  api.get(`${BASE}/DownloadReceivingOrderTemplate`, {
    schema: { tags, summary: 'The RO upload template (xlsx)', response: { 200: file('xlsx file'), ...authErrors } },
    config: { policy: { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'InBound', permission: 'read' }, scope: 'none' } },
  }, async (_req, reply) => sendXlsx(reply, 'receiving-order-template', await receiving.template()));

  api.post(`${BASE}/AddReceivingOrderDocument`, {
    schema: { tags, summary: 'Keep a document (Excel or CSV, at most 3 per order) with a receiving order (multipart: receivingOrderId, file)', consumes: ['multipart/form-data'], response: { 200: mutationResult(receivingOrderSummary), ...writeErrors } },
    config: { policy: write, uploadFields: roDocumentFields },
  }, async (req) => receiving.addDocument(principalOf(req), await receiveUpload(req, { maxBytes: RO_DOCUMENT_MAX_BYTES }), actorOf(req)));

  api.get(`${BASE}/DownloadReceivingOrderDocument`, {
    schema: { tags, summary: 'A receiving order’s document', querystring: roDocumentQuery, response: { 200: file('the stored file'), ...authErrors } },
    config: { policy: read('InBound') },
  }, async (req, reply) => sendStoredFile(reply, await receiving.document(principalOf(req), req.query.documentId)));

  api.post(`${BASE}/ReceiveItem`, {
    schema: { tags, summary: 'Receive a scanned SKU, barcode or GTIN into a dock or staging location, with lot, expiry and pallet; good and damaged units', body: receiveItemInput, response: { 200: mutationResult(receiveItemResult), ...writeErrors } },
    config: { policy: write },
  }, (req) => receiving.receive(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/ReceiveAsExpected`, {
    schema: { tags, summary: 'Receive the whole order (or the lines chosen) as expected — quantities, lots and expiries from the order — into a dock or straight to putaway suggestions, optionally finalizing it; one transaction, one ledger document', body: receiveAsExpectedInput, response: { 200: mutationResult(receiveAsExpectedResult), ...writeErrors } },
    config: { policy: write },
  }, (req) => receiving.receiveAsExpected(principalOf(req), req.body, actorOf(req)));

  api.get(`${BASE}/GetDockLocations`, {
    schema: { tags, summary: 'A warehouse’s active dock and staging locations (to receive into) and quarantine and returns locations (for damaged units), for the receive panel', querystring: dockLocationsQuery, response: { 200: dockLocationsResponse, ...authErrors } },
    config: { policy: { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'InBound', permission: 'read' }, scope: 'tenant' } },
  }, (req) => receiving.dockLocations(principalOf(req), req.query.warehouseId));

  api.get(`${BASE}/SuggestPutaway`, {
    schema: { tags, summary: 'Where to put a line’s goods: locations already holding the SKU, else empty ones of a fitting type and capacity', querystring: suggestPutawayQuery, response: { 200: putawaySuggestions, ...authErrors } },
    config: { policy: { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'InBound', permission: 'read' }, scope: 'tenant' } },
  }, (req) => receiving.suggestPutaway(principalOf(req), req.query));

  api.post(`${BASE}/Putaway`, {
    schema: { tags, summary: 'Move received goods from the dock to a storage location through the ledger', body: putawayInput, response: { 200: mutationResult(putawayResult), ...writeErrors } },
    config: { policy: write },
  }, (req) => receiving.putaway(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/FinalizeReceivingOrder`, {
    schema: { tags, summary: 'End receiving: over, short and damaged are recorded; the order closes once everything is put away', body: receivingOrderIdInput, response: { 200: mutationResult(receivingOrderSummary), ...writeErrors } },
    config: { policy: write },
  }, (req) => receiving.finalize(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/CancelReceivingOrder`, {
    schema: { tags, summary: 'Cancel an Open order (nothing received yet)', body: receivingOrderIdInput, response: { 200: mutationResult(receivingOrderSummary), ...writeErrors } },
    config: { policy: write },
  }, (req) => receiving.cancel(principalOf(req), req.body, actorOf(req)));

  // ----- reports: /ROReport (summary), /ROReportDetails (lines), /ROInward (receipts) -----
  api.post(`${BASE}/GetROReport`, {
    schema: { tags, summary: 'RO summary report: one row per order with expected, received, damaged, over, short and put-away totals', body: receivingOrderListRequest, response: { 200: receivingOrderListResponse, ...authErrors } },
    config: { policy: read('ROReport') },
  }, (req) => receiving.list(principalOf(req), req.body));

  api.post(`${BASE}/DownloadROReport`, {
    schema: { tags, summary: 'The RO summary report as an Excel workbook', body: receivingOrderListRequest, response: { 200: file('xlsx file'), ...authErrors } },
    config: { policy: read('ROReport') },
  }, async (req, reply) => sendXlsx(reply, 'ro-report', await receiving.downloadSummary(principalOf(req), req.body)));

  api.post(`${BASE}/GetROReportDetails`, {
    schema: { tags, summary: 'RO details report: one row per order line', body: receivingOrderListRequest, response: { 200: roDetailListResponse, ...authErrors } },
    config: { policy: read('ROReportDetails') },
  }, (req) => receiving.details(principalOf(req), req.body));

  api.post(`${BASE}/DownloadROReportDetails`, {
    schema: { tags, summary: 'The RO details report as an Excel workbook', body: receivingOrderListRequest, response: { 200: file('xlsx file'), ...authErrors } },
    config: { policy: read('ROReportDetails') },
  }, async (req, reply) => sendXlsx(reply, 'ro-report-details', await receiving.downloadDetails(principalOf(req), req.body)));

  api.post(`${BASE}/GetROInward`, {
    schema: { tags, summary: 'RO inward log: one row per receipt at the dock (date range = receipt time)', body: receivingOrderListRequest, response: { 200: roInwardListResponse, ...authErrors } },
    config: { policy: read('ROInward') },
  }, (req) => receiving.inward(principalOf(req), req.body));

  api.post(`${BASE}/DownloadROInward`, {
    schema: { tags, summary: 'The RO inward log as an Excel workbook', body: receivingOrderListRequest, response: { 200: file('xlsx file'), ...authErrors } },
    config: { policy: read('ROInward') },
  }, async (req, reply) => sendXlsx(reply, 'ro-inward', await receiving.downloadInward(principalOf(req), req.body)));
};
