import { STAFF_ROLES, apiErrorSchema, moveItemsRequest, movePalletRequest, mutationResult, reconcileQuery, reconcileResponse, stockListRequest, stockListResponse, stockMovementResult } from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const tags = ['Inventory'];
const reports: RoutePolicy = { access: 'authenticated', module: { key: 'InventoryReports', permission: 'read' }, scope: 'tenant' };
/** Stock changes are staff work: a client account can see its stock but never change it. */
const writes = (key: string): RoutePolicy => ({ access: 'authenticated', roles: STAFF_ROLES, module: { key, permission: 'write' }, scope: 'tenant' });
const movementErrors = { 422: apiErrorSchema, 409: apiErrorSchema, ...authErrors };

export const inventoryRoutes: RouteModule = (api, { inventory }) => {
  api.post('/Warehouse/Inventory/GetStockOnHand', {
    schema: { tags, summary: 'Stock on hand by place (warehouse, client, SKU, location, lot, pallet)', body: stockListRequest, response: { 200: stockListResponse, ...authErrors } },
    config: { policy: reports },
  }, (req) => inventory.stockOnHand(principalOf(req), req.body));

  api.get('/Warehouse/Inventory/Reconcile', {
    schema: { tags, summary: 'Proves the ledger sums to the balances; names any difference', querystring: reconcileQuery, response: { 200: reconcileResponse, ...authErrors } },
    config: { policy: reports },
  }, (req) => inventory.reconcile(principalOf(req), req.query));

  api.post('/Warehouse/Move/MoveItems', {
    schema: { tags, summary: 'Move a quantity between two locations of a warehouse', body: moveItemsRequest, response: { 200: mutationResult(stockMovementResult), ...movementErrors } },
    config: { policy: writes('Move') },
  }, (req) => inventory.move(principalOf(req), req.body, actorOf(req)));

  // CreateAdjustment lives in the adjustments module: above a client's threshold it waits for approval.

  api.post('/Warehouse/MovePallet/MovePallet', {
    schema: { tags, summary: 'Move a whole pallet (licence plate) between two locations in one transaction', body: movePalletRequest, response: { 200: mutationResult(stockMovementResult), ...movementErrors } },
    config: { policy: writes('MovePallet') },
  }, (req) => inventory.movePallet(principalOf(req), req.body, actorOf(req)));
};
