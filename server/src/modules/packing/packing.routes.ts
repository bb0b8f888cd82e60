import {
  APPROVER_ROLES, STAFF_ROLES, apiErrorSchema, cartonType, cartonTypeInput, cartonTypeListRequest, cartonTypeListResponse, closeCartonInput, mutationResult,
  openCartonInput, openPackInput, packItemInput, packItemResult, packOrderView, packResult, unpackItemInput,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const tags = ['Packing'];
const BASE = '/Warehouse/Pack';
const MODULE = 'BatchJob';
/** The floor's lists: anyone with /BatchJob, held to their warehouses. */
const read: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: MODULE, permission: 'read' }, scope: 'tenant' };
/** Packing is the warehouse's work. */
const write: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: MODULE, permission: 'write' }, scope: 'tenant' };
/** Carton types are set up by managers and administrators. */
const manage: RoutePolicy = { access: 'authenticated', roles: APPROVER_ROLES, module: { key: MODULE, permission: 'write' }, scope: 'tenant' };
const errors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };

export const packingRoutes: RouteModule = (api, { packing }) => {
  api.post(`${BASE}/GetCartonTypes`, {
    schema: { tags, summary: 'Carton types of the warehouses in scope: inner dimensions, tare and maximum weight; filter by warehouse and active, search by code or name', body: cartonTypeListRequest, response: { 200: cartonTypeListResponse, ...authErrors } },
    config: { policy: read },
  }, (req) => packing.cartonTypes(principalOf(req), req.body));

  api.post(`${BASE}/SaveCartonType`, {
    schema: { tags, summary: 'Add or change a carton type of a warehouse (its code unique in the warehouse: 409)', body: cartonTypeInput, response: { 200: mutationResult(cartonType), ...errors } },
    config: { policy: manage },
  }, (req) => packing.saveCartonType(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/OpenPack`, {
    schema: { tags, summary: 'Open the pack station on a tote, an SO number or an order reference: the Picked order with its lines, totes and cartons (409 naming any other status)', body: openPackInput, response: { 200: packOrderView, ...errors } },
    config: { policy: write },
  }, (req) => packing.openPack(principalOf(req), req.body));

  api.post(`${BASE}/OpenCarton`, {
    schema: { tags, summary: 'Open a carton of a carton type for a Picked order (CTN number, the type’s dimensions)', body: openCartonInput, response: { 200: packResult, ...errors } },
    config: { policy: write },
  }, (req) => packing.openCarton(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/PackItem`, {
    schema: { tags, summary: 'Scan an item into an open carton, or into a new carton of a type opened by the accepted scan (SKU, UPC, barcode or package GTIN × its units); not on the order, another client’s, or more than picked: 422, nothing written (no carton opened). Answers what changed: the carton, its line, the order line', body: packItemInput, response: { 200: packItemResult, ...errors } },
    config: { policy: write },
  }, (req) => packing.packItem(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/UnpackItem`, {
    schema: { tags, summary: 'Take units of an order line back out of an open carton', body: unpackItemInput, response: { 200: packResult, ...errors } },
    config: { policy: write },
  }, (req) => packing.unpackItem(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/CloseCarton`, {
    schema: { tags, summary: 'Close a carton with its weight: its units move from the totes to the pack station location (pack_out/pack_in); the order is Packed when every picked unit is in a closed carton', body: closeCartonInput, response: { 200: packResult, ...errors } },
    config: { policy: write },
  }, (req) => packing.closeCarton(principalOf(req), req.body, actorOf(req)));
};
