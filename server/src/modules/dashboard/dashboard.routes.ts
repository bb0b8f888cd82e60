import { dashboardQuery, dashboardResponse } from '@bolx/contracts';
import { principalOf } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

export const dashboardRoutes: RouteModule = (api, { dashboard }) => {
  api.get('/Warehouse/Dashboard/GetDashboard', {
    schema: { tags: ['Dashboard'], summary: 'KPI tiles for a warehouse and customer (0 = all)', querystring: dashboardQuery, response: { 200: dashboardResponse, ...authErrors } },
    config: { policy: { access: 'authenticated', module: { key: 'Dashboard', permission: 'read' }, scope: 'tenant' } },
  }, (req) => dashboard.get(principalOf(req), req.query));
};
