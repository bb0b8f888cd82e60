import { z } from 'zod';
import {
  APPROVER_ROLES, STAFF_ROLES, apiErrorSchema, closeDayInput, createLabelsInput, createManualShipmentInput, createReturnLabelInput, shippingDashboardQuery, labelsQuery, manifestQuery, manifestSummary, mutationResult,
  rateShopInput, rateShopResult, rateTableQuery, rateTableView, saveRateTableInput, shipShipmentsInput, shipShipmentsResult, shipmentByIdQuery, shipmentDetail,
  shipmentIdInput, shipmentListRequest, shipmentListResponse, shipmentTracking, shippingDashboard,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const tags = ['Shipping'];
const BASE = '/Warehouse/Shipping';
const MODULE = 'ShippingDashboard';
/** Shipments and manifests are read by whoever has /ShippingDashboard; a client account sees its own customer's alone. */
const read: RoutePolicy = { access: 'authenticated', module: { key: MODULE, permission: 'read' }, scope: 'tenant' };
/** Rating, labelling, shipping and closing the day are the warehouse's work. */
const write: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: MODULE, permission: 'write' }, scope: 'tenant' };
/** Rate tables are set by managers. */
const manage: RoutePolicy = { access: 'authenticated', roles: APPROVER_ROLES, module: { key: MODULE, permission: 'write' }, scope: 'tenant' };
const errors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };
const file = z.any().describe('application/pdf, text/csv or ZPL text');

/** Manual shipping is the /RMA screen's third view: stock out by hand is the warehouse's work. */
const manualShip: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'RMA', permission: 'write' }, scope: 'tenant' };
const manualRead: RoutePolicy = { access: 'authenticated', module: { key: 'RMA', permission: 'read' }, scope: 'tenant' };
/** A return label: whoever may write RMAs (staff, the client account for its own). */
const returnLabel: RoutePolicy = { access: 'authenticated', module: { key: 'RMA', permission: 'write' }, scope: 'tenant' };

export const shippingRoutes: RouteModule = (api, { shipping, manualShipments }) => {
  api.get(`${BASE}/GetDashboard`, {
    schema: { tags, querystring: shippingDashboardQuery, response: { 200: shippingDashboard, ...authErrors }, summary: 'A warehouse’s shipping dashboard: packed orders waiting by carrier and cut-off (with exceptions), shipped today, what an end-of-day close would take, recent manifests' },
    config: { policy: read },
  }, (req) => shipping.dashboard(principalOf(req), req.query.warehouseId, req.query.customerId || undefined));

  api.post(`${BASE}/GetShipments`, {
    schema: { tags, body: shipmentListRequest, response: { 200: shipmentListResponse, ...authErrors }, summary: 'Shipments: filters (warehouse, client, carrier account, status, ship day, manifest), search by number, reference or ship-to, sort, paging' },
    config: { policy: read },
  }, (req) => shipping.list(principalOf(req), req.body));

  api.get(`${BASE}/GetShipment`, {
    schema: { tags, querystring: shipmentByIdQuery, response: { 200: shipmentDetail, ...authErrors }, summary: 'One shipment with its packages (voided labels too): SSCC, tracking number, weight, charge' },
    config: { policy: read },
  }, (req) => shipping.get(principalOf(req), req.query.shipmentId));

  api.get(`${BASE}/Track`, {
    schema: { tags, querystring: shipmentByIdQuery, response: { 200: shipmentTracking, ...authErrors }, summary: 'A shipment’s tracking events per parcel, from its carrier’s adapter (the built-in carriers have none)' },
    config: { policy: read },
  }, (req) => shipping.track(principalOf(req), req.query.shipmentId));

  api.post(`${BASE}/RateShop`, {
    schema: { tags, body: rateShopInput, response: { 200: rateShopResult, ...errors }, summary: 'Price every service of the client’s carrier accounts for a packed order; the order’s requested service, else the cheapest that ships by its requested ship date, is chosen (with the reason) and kept on its shipment' },
    config: { policy: write },
  }, (req) => shipping.rateShop(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/CreateLabels`, {
    schema: { tags, body: createLabelsInput, response: { 200: mutationResult(shipmentDetail), ...errors }, summary: 'Label every closed carton of a packed order with one carrier service (SSCC per carton when the client has a GS1 prefix); the shipment becomes Labelled' },
    config: { policy: write },
  }, (req) => shipping.createLabels(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/VoidLabels`, {
    schema: { tags, body: shipmentIdInput, response: { 200: mutationResult(shipmentDetail), ...errors }, summary: 'Void a shipment’s labels before it ships (back to Open)' },
    config: { policy: write },
  }, (req) => shipping.voidLabels(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/CancelShipment`, {
    schema: { tags, body: shipmentIdInput, response: { 200: mutationResult(shipmentDetail), ...errors }, summary: 'Cancel an Open shipment' },
    config: { policy: write },
  }, (req) => shipping.cancel(principalOf(req), req.body, actorOf(req)));

  api.get(`${BASE}/Labels`, {
    schema: { tags, querystring: labelsQuery, response: { 200: file, ...errors }, summary: 'Labels of shipments (comma-separated ids) as one 4x6 PDF or ZPL text: carrier labels, or GS1-128 SSCC carton labels' },
    config: { policy: read },
  }, async (req, reply) => {
    const { shipmentIds, format, kind } = req.query;
    const body = await shipping.labels(principalOf(req), shipmentIds.split(',').map(Number), format, kind);
    const name = `${kind === 'sscc' ? 'sscc-labels' : 'labels'}.${format}`;
    return reply.type(format === 'pdf' ? 'application/pdf' : 'text/plain; charset=utf-8').header('content-disposition', `inline; filename="${name}"`).send(body);
  });

  api.post(`${BASE}/Ship`, {
    schema: { tags, body: shipShipmentsInput, response: { 200: mutationResult(shipShipmentsResult), ...errors }, summary: 'Ship labelled shipments through ship confirm (stock out, order Shipped, tracking numbers onto the cartons); refusals listed' },
    config: { policy: write },
  }, (req) => shipping.ship(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/CloseDay`, {
    schema: { tags, body: closeDayInput, response: { 200: mutationResult(manifestSummary), ...errors }, summary: 'End-of-day close of a carrier account in a warehouse: its shipped shipments go on a manifest and are locked (Closed); nothing to close: 409' },
    config: { policy: write },
  }, (req) => shipping.closeDay(principalOf(req), req.body, actorOf(req)));

  api.get(`${BASE}/Manifest`, {
    schema: { tags, querystring: manifestQuery, response: { 200: file, ...authErrors }, summary: 'A manifest as PDF or CSV: tracking numbers, weights, charges and totals' },
    config: { policy: read },
  }, async (req, reply) => {
    const doc = await shipping.manifestDocument(principalOf(req), req.query.manifestId, req.query.format);
    return reply.type(req.query.format === 'pdf' ? 'application/pdf' : 'text/csv; charset=utf-8')
      .header('content-disposition', `${req.query.format === 'pdf' ? 'inline' : 'attachment'}; filename="${doc.fileName}"`).send(doc.body);
  });

  api.get(`${BASE}/GetRateTable`, {
    schema: { tags, querystring: rateTableQuery, response: { 200: rateTableView, ...authErrors }, summary: 'A carrier account’s rate table (null: the account has none and is a manual carrier)' },
    config: { policy: write },
  }, (req) => shipping.rateTable(principalOf(req), req.query.carrierAccountId));

  api.post(`${BASE}/SaveRateTable`, {
    schema: { tags, body: saveRateTableInput, response: { 200: mutationResult(rateTableView), ...errors }, summary: 'Set a carrier account’s rate table: zones by postal prefix, services with cut-off, transit days and weight brackets per zone, dimensional divisor, fuel and residential surcharges' },
    config: { policy: manage },
  }, (req) => shipping.saveRateTable(principalOf(req), req.body, actorOf(req)));

  api.post('/Warehouse/RMA/GetManualShipments', {
    schema: { tags, body: shipmentListRequest, response: { 200: shipmentListResponse, ...authErrors }, summary: 'Shipments made by hand (the /RMA manual shipping view): filters, search by number, reference or ship-to, sort, paging' },
    config: { policy: manualRead },
  }, (req) => shipping.list(principalOf(req), { ...req.body, filters: { ...req.body.filters, kind: 'manual' } }));

  api.post('/Warehouse/RMA/CreateManualShipment', {
    schema: {
      tags, body: createManualShipmentInput, response: { 200: mutationResult(shipmentDetail), ...errors },
      summary: 'Ship stock by hand (a replacement, an exchange; optionally for an RMA): lines taken from their locations through the ledger (document SHIPMENT, never more than is free), labelled through the client’s carrier account or with a tracking number typed in, shipped at once',
    },
    config: { policy: manualShip },
  }, (req) => manualShipments.createManual(principalOf(req), req.body, actorOf(req)));

  api.post('/Warehouse/RMA/CreateReturnLabel', {
    schema: { tags, body: createReturnLabelInput, response: { 200: mutationResult(shipmentDetail), ...errors }, summary: 'A return label for an Authorised or In Transit RMA (consumer → warehouse) through the client’s carrier account or a tracking number typed in; the RMA becomes In Transit' },
    config: { policy: returnLabel },
  }, (req) => manualShipments.createReturnLabel(principalOf(req), req.body, actorOf(req)));
};
