import { z } from 'zod';
import { queuedJobResult, APPROVER_ROLES, INVENTORY_UPLOAD_MAX_BYTES, STAFF_ROLES, apiErrorSchema, uploadInventoryFields, uploadInventoryResult, moveItemsRequest, movePalletRequest, mutationResult, reconcileQuery, reconcileResponse, stockListRequest, stockListResponse, stockMovementResult } from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, sendXlsx, type RouteModule } from '../../http.js';
import { parseFields, receiveUpload } from '../../platform/files.js';
import { UPLOAD_JOBS, uploadNowOrQueued } from '../uploads/upload-jobs.js';

const tags = ['Inventory'];
const reports: RoutePolicy = { access: 'authenticated', module: { key: 'InventoryReports', permission: 'read' }, scope: 'tenant' };
/** Stock changes are staff work: a client account can see its stock but never change it. */
const writes = (key: string): RoutePolicy => ({ access: 'authenticated', roles: STAFF_ROLES, module: { key, permission: 'write' }, scope: 'tenant' });
/**
 * Importing stock skips the adjustment approval threshold, so only those who may approve adjustments may do
 * it (never a client account).
 */
const importer: RoutePolicy = { access: 'authenticated', roles: APPROVER_ROLES, module: { key: 'Adjustment', permission: 'write' }, scope: 'tenant' };
const movementErrors = { 422: apiErrorSchema, 409: apiErrorSchema, ...authErrors };

export const inventoryRoutes: RouteModule = (api, { inventory, uploadQueue }) => {
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

  api.post('/Warehouse/Inventory/UploadInventory', {
    schema: {
      tags, summary: 'Opening stock (adds) or a stock count (sets; the difference is posted) from one CSV or XLSX sheet into one location (multipart: warehouseId, customerId, inventoryType, locationId, countDate, file); all rows in one ledger transaction, any bad row writes nothing (422 with row errors)',
      consumes: ['multipart/form-data'], response: { 200: mutationResult(uploadInventoryResult), 202: mutationResult(queuedJobResult), ...movementErrors },
    },
    config: { policy: importer, uploadFields: uploadInventoryFields },
  }, async (req, reply) => {
    const upload = await receiveUpload(req, { maxBytes: INVENTORY_UPLOAD_MAX_BYTES });
    const [principal, actor] = [principalOf(req), actorOf(req)];
    return uploadNowOrQueued(uploadQueue, reply, principal, actor, {
      name: UPLOAD_JOBS.inventory, upload, maxBytes: INVENTORY_UPLOAD_MAX_BYTES, scope: () => parseFields(uploadInventoryFields, upload.fields),
    }, () => inventory.importStock(principal, upload, actor));
  });

  api.get('/Warehouse/Inventory/DownloadInventoryTemplate', {
    schema: { tags, summary: 'The inventory count sheet template (xlsx)', response: { 200: z.any().describe('xlsx file'), ...authErrors } },
    config: { policy: { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'Adjustment', permission: 'read' }, scope: 'none' } },
  }, async (_req, reply) => sendXlsx(reply, 'inventory-template', await inventory.importTemplate()));

  // CreateAdjustment lives in the adjustments module: above a client's threshold it waits for approval.

  api.post('/Warehouse/MovePallet/MovePallet', {
    schema: { tags, summary: 'Move a whole pallet (licence plate) between two locations in one transaction', body: movePalletRequest, response: { 200: mutationResult(stockMovementResult), ...movementErrors } },
    config: { policy: writes('MovePallet') },
  }, (req) => inventory.movePallet(principalOf(req), req.body, actorOf(req)));
};
