import { z } from 'zod';
import {
  STAFF_ROLES, apiErrorSchema, createFreightShipmentInput, freightClassesResponse, freightShipmentByIdQuery, freightShipmentDetail,
  freightShipmentListRequest, freightShipmentListResponse, mutationResult, POD_MAX_BYTES, proofOfDeliveryFields, setFreightStatusInput,
  suggestHandlingUnitsInput, suggestedHandlingUnits, updateFreightShipmentInput,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';
import { parseFields, receiveUpload, sendStoredFile } from '../../platform/files.js';

const tags = ['Freight'];
const BASE = '/Freight/FreightShipment';
const MODULE = 'FreightShipment';
/** Anyone with the Freight Shipment module reads; a client account sees its own customer's shipments only. */
const read: RoutePolicy = { access: 'authenticated', module: { key: MODULE, permission: 'read' }, scope: 'tenant' };
/** Planning, booking and delivering freight is the warehouse's work. */
const write: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: MODULE, permission: 'write' }, scope: 'tenant' };
const errors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };
const file = (description: string) => z.any().describe(description);

export const freightRoutes: RouteModule = (api, { freight }) => {
  api.get(`${BASE}/GetFreightClasses`, {
    schema: { tags, summary: 'The NMFC freight classes and the density scale (lb/ft³ → class) in force today', response: { 200: freightClassesResponse, ...authErrors } },
    config: { policy: read },
  }, () => freight.classes());

  api.post(`${BASE}/GetFreightShipments`, {
    schema: {
      tags, body: freightShipmentListRequest, response: { 200: freightShipmentListResponse, ...authErrors },
      summary: 'Freight shipments with their orders and handling units: filters (warehouse, client, status, SCAC), search by number, BOL, PRO, consignee or carrier, sort, paging',
    },
    config: { policy: read },
  }, (req) => freight.list(principalOf(req), req.body));

  api.get(`${BASE}/GetFreightShipment`, {
    schema: { tags, summary: 'One freight shipment with its status history', querystring: freightShipmentByIdQuery, response: { 200: freightShipmentDetail, ...authErrors } },
    config: { policy: read },
  }, (req) => freight.get(principalOf(req), req.query.shipmentId));

  api.post(`${BASE}/SuggestHandlingUnits`, {
    schema: {
      tags, body: suggestHandlingUnitsInput, response: { 200: suggestedHandlingUnits, ...errors },
      summary: 'Pallets built from the packed orders’ closed cartons (48×40 in, up to 180 cm high), each with its density and the NMFC class the scale in force suggests; nothing is written',
    },
    config: { policy: write },
  }, (req) => freight.suggestUnits(principalOf(req), req.body));

  api.post(`${BASE}/CreateFreightShipment`, {
    schema: {
      tags, body: createFreightShipmentInput, response: { 200: mutationResult(freightShipmentDetail), ...errors },
      summary: 'Plan an LTL shipment of one client’s packed orders: consignee, bill-to, carrier and SCAC, PRO (unique per carrier), handling units with NMFC class; SSCC per pallet when the client has a GS1 prefix',
    },
    config: { policy: write },
  }, (req) => freight.create(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/UpdateFreightShipment`, {
    schema: {
      tags, body: updateFreightShipmentInput, response: { 200: mutationResult(freightShipmentDetail), ...errors },
      summary: 'Change a shipment until it is picked up (Planned, Tendered, Booked); pallets kept by id keep their SSCC',
    },
    config: { policy: write },
  }, (req) => freight.update(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/SetFreightShipmentStatus`, {
    schema: {
      tags, body: setFreightStatusInput, response: { 200: mutationResult(freightShipmentDetail), ...errors },
      summary: 'Tender, book (needs a PRO number), pick up (records the freight-ship activity), in transit, back to planned, or cancel a shipment',
    },
    config: { policy: write },
  }, (req) => freight.setStatus(principalOf(req), req.body, actorOf(req)));

  api.get(`${BASE}/PrintBillOfLading`, {
    schema: { tags, querystring: freightShipmentByIdQuery, response: { 200: file('application/pdf'), ...authErrors }, summary: 'The VICS bill of lading as a PDF, then a GS1-128 SSCC label per pallet' },
    config: { policy: read },
  }, async (req, reply) => {
    const { pdf, shipNumber } = await freight.billOfLading(principalOf(req), req.query.shipmentId);
    return reply.type('application/pdf').header('content-disposition', `inline; filename="bol-${shipNumber}.pdf"`).send(pdf);
  });

  api.post(`${BASE}/UploadProofOfDelivery`, {
    schema: {
      tags, consumes: ['multipart/form-data'], response: { 200: mutationResult(freightShipmentDetail), ...errors },
      summary: 'Proof of delivery (multipart: shipmentId, signedBy, signedAt, file: PNG, JPEG or PDF): delivers a shipment picked up or in transit; 409 for any other',
    },
    config: { policy: write, uploadFields: proofOfDeliveryFields },
  }, async (req) => {
    const upload = await receiveUpload(req, { maxBytes: POD_MAX_BYTES });
    return freight.uploadPod(principalOf(req), { fields: parseFields(proofOfDeliveryFields, upload.fields), file: upload.file }, actorOf(req));
  });

  api.get(`${BASE}/GetProofOfDelivery`, {
    schema: { tags, querystring: freightShipmentByIdQuery, response: { 200: file('the stored proof of delivery'), ...authErrors }, summary: 'A delivered shipment’s proof of delivery (a client account: its own)' },
    config: { policy: read },
  }, async (req, reply) => sendStoredFile(reply, await freight.podFile(principalOf(req), req.query.shipmentId)));
};
