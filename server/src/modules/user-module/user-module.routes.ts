import { z } from 'zod';
import { countriesResponse, defaultAppQuery, messageOnly, userAppsResponse, userModulesResponse, warehouseClientResponse } from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const tags = ['User modules'];
const own: RoutePolicy = { access: 'authenticated', scope: 'self' };
const reference: RoutePolicy = { access: 'authenticated', scope: 'none' };

export const userModuleRoutes: RouteModule = (api, { userModules }) => {
  api.get('/Common/UserModule/GetUserModules', {
    schema: { tags, summary: 'The sidebar modules of the caller’s default app', response: { 200: userModulesResponse, ...authErrors } },
    config: { policy: own },
  }, (req) => userModules.getUserModules(principalOf(req)));

  api.get('/Common/UserModule/GetWarehouseClient', {
    schema: { tags, summary: 'The caller’s warehouses (with occupancy) and their customers', response: { 200: warehouseClientResponse, ...authErrors } },
    config: { policy: { access: 'authenticated', scope: 'tenant' } },
  }, (req) => userModules.getWarehouseClient(principalOf(req)));

  api.get('/Common/UserModule/GetCountriesAndStates', {
    schema: { tags, summary: 'Countries with their states', response: { 200: countriesResponse, ...authErrors } },
    config: { policy: reference },
  }, () => userModules.getCountriesAndStates());

  api.get('/Common/UserModule/GetTimezones', {
    schema: { tags, summary: 'IANA time zones', response: { 200: z.array(z.string()), ...authErrors } },
    config: { policy: reference },
  }, () => userModules.timezones());

  api.get('/Common/UserModule/GetAllUserApps', {
    schema: { tags, summary: 'The apps the caller may use', response: { 200: userAppsResponse, ...authErrors } },
    config: { policy: own },
  }, (req) => userModules.getAllUserApps(principalOf(req)));

  api.put('/Common/UserModule/SetDefaultApp', {
    schema: { tags, summary: 'Choose the caller’s default app', querystring: defaultAppQuery, response: { 200: messageOnly, ...authErrors } },
    config: { policy: own },
  }, (req) => userModules.setDefaultApp(principalOf(req), req.query.appId, actorOf(req)));
};
