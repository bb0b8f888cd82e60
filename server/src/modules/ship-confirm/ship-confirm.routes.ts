import { STAFF_ROLES, apiErrorSchema, confirmShipmentInput, confirmShipmentResult, mutationResult } from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const tags = ['Ship confirm'];
/** Shipping is the warehouse's work, in the warehouses of the caller's scope. */
const write: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'BatchJob', permission: 'write' }, scope: 'tenant' };
const errors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };

export const shipConfirmRoutes: RouteModule = (api, { shipConfirm }) => {
  api.post('/Warehouse/Ship/ConfirmShipment', {
    schema: {
      tags, body: confirmShipmentInput, response: { 200: mutationResult(confirmShipmentResult), ...errors },
      summary: 'Ship packed orders (those named, or every Packed order of a carrier account in the warehouse), each in its own transaction: stock out (txn type ship), Shipped with the ship date, tracking numbers, backorders of what did not ship; refusals listed',
    },
    config: { policy: write },
  }, (req) => shipConfirm.confirm(principalOf(req), req.body, actorOf(req)));
};
