import { z } from 'zod';
import {
  RETURN_PHOTO_MAX_BYTES, STAFF_ROLES, apiErrorSchema, createRmaInput, disposeReturnInput, inspectReturnInput, linkReturnInput, manualReturnInput,
  mutationResult, receiveReturnInput, returnItem, returnItemListRequest, returnItemListResponse, returnPhotoFields, returnScanInput, returnScanResult,
  returnSkuMatch, returnSkuQuery, returnableOrder, returnableOrderQuery, returnsReport, returnsReportRequest, rmaDetail, rmaIdInput, rmaIdQuery,
  rmaListRequest, rmaListResponse, rmaSummary, rmaTrackingInput, returnLocation, returnLocationsQuery,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, sendXlsx, type RouteModule } from '../../http.js';
import { parseFields, receiveUpload, sendStoredFile } from '../../platform/files.js';

const tags = ['Returns'];
const RMA = '/Warehouse/RMA';
const RET = '/Warehouse/Returns';
/** RMAs: staff and the client account (its own customer's), and the client's API key. */
const rmaRead: RoutePolicy = { access: 'authenticated', module: { key: 'RMA', permission: 'read' }, scope: 'tenant', apiKey: true };
const rmaWrite: RoutePolicy = { access: 'authenticated', module: { key: 'RMA', permission: 'write' }, scope: 'tenant', apiKey: true };
/** Receiving, inspecting and disposing of returns is the warehouse's work. */
const receive: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'Returns', permission: 'write' }, scope: 'tenant' };
const returnsRead: RoutePolicy = { access: 'authenticated', module: { key: 'Returns', permission: 'read' }, scope: 'tenant' };
const manual: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'ManualReturns', permission: 'write' }, scope: 'tenant' };
const manualRead: RoutePolicy = { access: 'authenticated', module: { key: 'ManualReturns', permission: 'read' }, scope: 'tenant' };
/** The report: a client account sees its own customer's returns. */
const report: RoutePolicy = { access: 'authenticated', module: { key: 'Return', permission: 'read' }, scope: 'tenant' };
const security: Record<string, string[]>[] = [{ apiKey: [] }, { bearer: [] }];
const errors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };
const file = (description: string) => z.any().describe(description);

export const returnRoutes: RouteModule = (api, { returns }) => {
  // ----- RMAs -----
  api.post(`${RMA}/GetRmas`, {
    schema: { tags, body: rmaListRequest, response: { 200: rmaListResponse, ...authErrors }, summary: 'RMAs: filters (warehouse, client, status, order), search by RMA, order, reference or tracking number, sort, paging', security },
    config: { policy: rmaRead },
  }, (req) => returns.list(principalOf(req), req.body));

  api.get(`${RMA}/GetRma`, {
    schema: { tags, querystring: rmaIdQuery, response: { 200: rmaDetail, ...authErrors }, summary: 'One RMA: lines, returned items with inspection and disposition, status history', security },
    config: { policy: rmaRead },
  }, (req) => returns.get(principalOf(req), req.query.rmaId));

  api.get(`${RMA}/GetReturnableOrder`, {
    schema: { tags, querystring: returnableOrderQuery, response: { 200: returnableOrder, ...errors }, summary: 'A shipped order by number or reference: what each line shipped and may still be returned', security },
    config: { policy: rmaRead },
  }, (req) => returns.returnable(principalOf(req), req.query));

  api.post(`${RMA}/CreateRma`, {
    schema: {
      tags, body: createRmaInput, response: { 200: mutationResult(rmaSummary), ...errors }, security,
      summary: 'Authorise a return against a shipped order: each line at most what it shipped less what is already returned or authorised (across every RMA, checked with the order locked)',
    },
    config: { policy: rmaWrite },
  }, (req) => {
    const principal = principalOf(req);
    return returns.create(principal, req.body, actorOf(req), principal.apiKey ? 'api' : 'screen');
  });

  api.post(`${RMA}/SetTracking`, {
    schema: { tags, body: rmaTrackingInput, response: { 200: mutationResult(rmaSummary), ...errors }, summary: 'A return label’s tracking number, entered by hand: the RMA is In Transit', security },
    config: { policy: rmaWrite },
  }, (req) => returns.setTracking(principalOf(req), req.body, actorOf(req)));

  api.post(`${RMA}/CancelRma`, {
    schema: { tags, body: rmaIdInput, response: { 200: mutationResult(rmaSummary), ...errors }, summary: 'Cancel an RMA before anything arrived', security },
    config: { policy: rmaWrite },
  }, (req) => returns.cancel(principalOf(req), req.body, actorOf(req)));

  api.post(`${RMA}/CloseRma`, {
    schema: { tags, body: rmaIdInput, response: { 200: mutationResult(rmaSummary), ...errors }, summary: 'Close an RMA with what came back (every received unit disposed of)' },
    config: { policy: receive },
  }, (req) => returns.close(principalOf(req), req.body, actorOf(req)));

  // Whoever reads an RMA sees its items' photos (GetRma lists them), the client account and its API key included.
  api.get(`${RMA}/GetItemPhoto`, {
    schema: { tags, querystring: z.object({ photoId: rmaIdQuery.shape.rmaId }), response: { 200: file('the image'), ...authErrors }, summary: 'An inspection photo of an RMA’s returned item', security },
    config: { policy: rmaRead },
  }, async (req, reply) => sendStoredFile(reply, await returns.photoFile(principalOf(req), req.query.photoId, true)));

  // ----- /Returns -----
  api.post(`${RET}/ScanReturn`, {
    schema: { tags, body: returnScanInput, response: { 200: returnScanResult, ...authErrors }, summary: 'The open RMAs a scan names: RMA number, order number or reference, or tracking number' },
    config: { policy: returnsRead },
  }, (req) => returns.scan(principalOf(req), req.body));

  api.post(`${RET}/ReceiveItem`, {
    schema: {
      tags, body: receiveReturnInput, response: { 200: mutationResult(rmaDetail), ...errors },
      summary: 'Receive a scanned item on an RMA into a returns location (ledger return); over-receipt only with a manager’s approval, never more than shipped',
    },
    config: { policy: receive },
  }, (req) => returns.receive(principalOf(req), req.body, actorOf(req)));

  api.post(`${RET}/InspectItem`, {
    schema: { tags, body: inspectReturnInput, response: { 200: mutationResult(returnItem), ...errors }, summary: 'Inspect a returned item: condition and notes' },
    config: { policy: receive },
  }, (req) => returns.inspect(principalOf(req), req.body, actorOf(req)));

  api.post(`${RET}/AddItemPhoto`, {
    schema: {
      tags, consumes: ['multipart/form-data'], response: { 200: mutationResult(returnItem), ...errors },
      summary: `An inspection photo (multipart: itemId, file: PNG or JPEG by content, at most ${RETURN_PHOTO_MAX_BYTES / (1024 * 1024)} MB)`,
    },
    config: { policy: receive, uploadFields: returnPhotoFields },
  }, async (req) => {
    const upload = await receiveUpload(req, { maxBytes: RETURN_PHOTO_MAX_BYTES });
    const { itemId } = parseFields(returnPhotoFields, upload.fields);
    return returns.addPhoto(principalOf(req), itemId, upload.file, actorOf(req));
  });

  api.get(`${RET}/GetItemPhoto`, {
    schema: { tags, querystring: z.object({ photoId: rmaIdQuery.shape.rmaId }), response: { 200: file('the image'), ...authErrors }, summary: 'An inspection photo' },
    config: { policy: returnsRead },
  }, async (req, reply) => sendStoredFile(reply, await returns.photoFile(principalOf(req), req.query.photoId)));

  api.post(`${RET}/DisposeItem`, {
    schema: {
      tags, body: disposeReturnInput, response: { 200: mutationResult(returnItem), ...errors },
      summary: 'An inspected item’s disposition: restock (storage location, ledger return), quarantine (held), refurbish (work location, held) or dispose (ledger dispose, with a reason)',
    },
    config: { policy: receive },
  }, (req) => returns.dispose(principalOf(req), req.body, actorOf(req)));

  api.get(`${RET}/GetReturnLocations`, {
    schema: { tags, querystring: returnLocationsQuery, response: { 200: z.array(returnLocation), ...authErrors }, summary: 'The locations a returns step may use: receive (returns), restock (storage), quarantine, refurbish (work locations); by code' },
    config: { policy: returnsRead },
  }, (req) => returns.locations(principalOf(req), req.query));

  api.post(`${RET}/GetReturnItems`, {
    schema: { tags, body: returnItemListRequest, response: { 200: returnItemListResponse, ...authErrors }, summary: 'Returned items: filters (warehouse, client, status, without RMA, RMA, period), search, sort, paging' },
    config: { policy: returnsRead },
  }, (req) => returns.listItems(principalOf(req), req.body));

  // ----- /ManualReturns -----
  api.get(`${RET}/FindSku`, {
    schema: { tags, querystring: returnSkuQuery, response: { 200: z.array(returnSkuMatch), ...authErrors }, summary: 'The items a scanned or typed code is, with their clients (for a parcel without an RMA)' },
    config: { policy: manualRead },
  }, (req) => returns.findSkus(principalOf(req), req.query));

  api.post(`${RET}/ReceiveManual`, {
    schema: { tags, body: manualReturnInput, response: { 200: mutationResult(returnItem), ...errors }, summary: 'Receive a parcel without an RMA: the client’s item into a returns location (ledger return, document RETURN)' },
    config: { policy: manual },
  }, (req) => returns.receiveManual(principalOf(req), req.body, actorOf(req)));

  api.post(`${RET}/LinkOrder`, {
    schema: { tags, body: linkReturnInput, response: { 200: mutationResult(returnItem), ...errors }, summary: 'Link a parcel received without an RMA to its shipped order, once found' },
    config: { policy: manual },
  }, (req) => returns.link(principalOf(req), req.body, actorOf(req)));

  api.post(`${RET}/GetManualReturns`, {
    schema: { tags, body: returnItemListRequest, response: { 200: returnItemListResponse, ...authErrors }, summary: 'Parcels received without an RMA' },
    config: { policy: manualRead },
  }, (req) => returns.listItems(principalOf(req), { ...req.body, filters: { ...req.body.filters, manual: true } }));

  // ----- /Return: the report -----
  api.post(`${RET}/GetReturnsReport`, {
    schema: { tags, body: returnsReportRequest, response: { 200: returnsReport, ...authErrors }, summary: 'Processed returns per client and period: units by reason and disposition, return rate per SKU (returned / shipped)' },
    config: { policy: report },
  }, (req) => returns.report(principalOf(req), req.body));

  api.post(`${RET}/DownloadReturnsReport`, {
    schema: { tags, body: returnsReportRequest, response: { 200: file('xlsx file'), ...authErrors }, summary: 'The returns report as Excel' },
    config: { policy: report },
  }, async (req, reply) => sendXlsx(reply, 'returns-report', await returns.reportXlsx(principalOf(req), req.body)));
};
