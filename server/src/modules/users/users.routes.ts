import { z } from 'zod';
import {
  ADMIN_ROLES, STAFF_ROLES, apiErrorSchema, createUserRequest, customersByWarehouseQuery, customersByWarehouseResponse,
  filterLabelsResponse, moduleWarehouseUsersResponse, mutationResult, setUserStatusQuery, updateUserRequest, userDetails,
  userIdQuery, userListRequest, userListResponse,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, sendXlsx, type RouteModule } from '../../http.js';

const tags = ['Users'];
/** Staff with the User module read; a Client account never lists the 3PL's users. */
const read: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'User', permission: 'read' }, scope: 'tenant' };
/** The form's options are what the caller may assign, so only administrators get them. */
const formOptions: RoutePolicy = { access: 'authenticated', roles: ADMIN_ROLES, module: { key: 'User', permission: 'read' }, scope: 'tenant' };
const write: RoutePolicy = { access: 'authenticated', roles: ADMIN_ROLES, module: { key: 'User', permission: 'write' }, scope: 'tenant' };
const writeErrors = { 409: apiErrorSchema, ...authErrors };

export const userRoutes: RouteModule = (api, { users }) => {
  api.get('/Warehouse/User/GetModuleWarehouseUsers', {
    schema: { tags, summary: 'The user form’s options: user types, modules, warehouses, time zones', response: { 200: moduleWarehouseUsersResponse, ...authErrors } },
    config: { policy: formOptions },
  }, (req) => users.formOptions(principalOf(req)));

  api.get('/Warehouse/User/GetCustomersByWarehouse', {
    schema: { tags, summary: 'Clients served by a warehouse', querystring: customersByWarehouseQuery, response: { 200: customersByWarehouseResponse, ...authErrors } },
    config: { policy: read },
  }, (req) => users.customersByWarehouse(principalOf(req), req.query.whid));

  api.post('/Warehouse/User/GetUsers', {
    schema: { tags, summary: 'Users in scope: filters, search, sort, paging', body: userListRequest, response: { 200: userListResponse, ...authErrors } },
    config: { policy: read },
  }, (req) => users.list(principalOf(req), req.body));

  api.post('/Warehouse/User/DownloadUserExcel', {
    schema: { tags, summary: 'The filtered user list as an Excel workbook', body: userListRequest, response: { 200: z.any().describe('xlsx file'), ...authErrors } },
    config: { policy: read },
  }, async (req, reply) => sendXlsx(reply, 'users', await users.download(principalOf(req), req.body)));

  api.get('/Warehouse/User/GetUserDetails', {
    schema: { tags, summary: 'One user with assignments and module permissions', querystring: userIdQuery, response: { 200: userDetails, ...authErrors } },
    config: { policy: read },
  }, (req) => users.details(principalOf(req), req.query.userId));

  api.get('/Warehouse/User/UserFiltersLabels', {
    schema: { tags, summary: 'The user list’s filters', response: { 200: filterLabelsResponse, ...authErrors } },
    config: { policy: read },
  }, (req) => users.filterLabels(principalOf(req)));

  api.post('/Warehouse/User/CreateUser', {
    schema: { tags, summary: 'Create a user', body: createUserRequest, response: { 200: mutationResult(userDetails), ...writeErrors } },
    config: { policy: write },
  }, (req) => users.create(principalOf(req), req.body, actorOf(req)));

  api.put('/Warehouse/User/UpdateUser', {
    schema: {
      tags, summary: 'Update a user, replacing their warehouses, clients and modules', querystring: userIdQuery, body: updateUserRequest,
      response: { 200: mutationResult(userDetails), ...writeErrors },
    },
    config: { policy: write },
  }, (req) => users.update(principalOf(req), req.query.userId, req.body, actorOf(req)));

  api.put('/Warehouse/User/SetUserStatus', {
    schema: { tags, summary: 'Enable or disable a user; disabling ends their sessions at once', querystring: setUserStatusQuery, response: { 200: mutationResult(userDetails), ...authErrors } },
    config: { policy: write },
  }, (req) => users.setStatus(principalOf(req), req.query.userId, req.query.isActive, actorOf(req)));
};
