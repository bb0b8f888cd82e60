import { z } from 'zod';
import {
  ADMIN_ROLES, apiErrorSchema, filterLabelsResponse, mutationResult, updateWarehouseInput, warehouseInput, warehouseListQuery,
  warehouseIdQuery, warehouseListRequest, warehouseListWithColumns, warehouseSchema,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, sendXlsx, type RouteModule } from '../../http.js';

const tags = ['Warehouses'];
const read: RoutePolicy = { access: 'authenticated', module: { key: 'Warehouse', permission: 'read' }, scope: 'tenant' };
const write: RoutePolicy = { access: 'authenticated', roles: ADMIN_ROLES, module: { key: 'Warehouse', permission: 'write' }, scope: 'tenant' };

export const warehouseRoutes: RouteModule = (api, { warehouses }) => {
  api.get('/Warehouse/Warehouse/GetWarehouseListWithColumns', {
    schema: { tags, summary: 'Warehouses in scope with the table’s columns', querystring: warehouseListQuery, response: { 200: warehouseListWithColumns, ...authErrors } },
    config: { policy: read },
  }, (req) => {
    const q = req.query;
    return warehouses.list(principalOf(req), {
      filters: { isActive: q.isActive }, searchQuery: q.searchQuery, pageNumber: q.pageNumber, pageSize: q.pageSize,
      sort: q.sortField && q.sortOrder ? { field: q.sortField, order: q.sortOrder } : undefined,
    });
  });

  api.post('/Warehouse/Warehouse/GetWarehouses', {
    schema: { tags, summary: 'Warehouses in scope: filters, search, sort, paging', body: warehouseListRequest, response: { 200: warehouseListWithColumns, ...authErrors } },
    config: { policy: read },
  }, (req) => warehouses.list(principalOf(req), req.body));

  api.get('/Warehouse/Warehouse/GetWarehouseById', {
    schema: { tags, summary: 'One warehouse', querystring: warehouseIdQuery, response: { 200: warehouseSchema, ...authErrors } },
    config: { policy: read },
  }, (req) => warehouses.get(principalOf(req), req.query.warehouseId));

  api.get('/Warehouse/Warehouse/WarehouseFiltersLabels', {
    schema: { tags, summary: 'The warehouse list’s filters', response: { 200: filterLabelsResponse, ...authErrors } },
    config: { policy: read },
  }, () => warehouses.filterLabels());

  api.post('/Warehouse/Warehouse/DownloadWarehouseExcel', {
    schema: { tags, summary: 'The filtered list as an Excel workbook', body: warehouseListRequest, response: { 200: z.any().describe('xlsx file'), ...authErrors } },
    config: { policy: read },
  }, async (req, reply) => sendXlsx(reply, 'warehouses', await warehouses.download(principalOf(req), req.body)));

  api.post('/Warehouse/Warehouse/AddWarehouse', {
    schema: { tags, summary: 'Add a warehouse', body: warehouseInput, response: { 200: mutationResult(warehouseSchema), 409: apiErrorSchema, ...authErrors } },
    config: { policy: write },
  }, (req) => warehouses.add(principalOf(req), req.body, actorOf(req)));

  api.put('/Warehouse/Warehouse/UpdateWarehouse', {
    schema: { tags, summary: 'Update a warehouse', body: updateWarehouseInput, response: { 200: mutationResult(warehouseSchema), 409: apiErrorSchema, ...authErrors } },
    config: { policy: write },
  }, (req) => warehouses.update(principalOf(req), req.body, actorOf(req)));
};
