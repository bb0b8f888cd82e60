import { jobTrackingRequest, jobTrackingResult } from '@bolx/contracts';
import { principalOf } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

export const jobTrackingRoutes: RouteModule = (api, { jobTracking }) => {
  api.post('/Warehouse/JobTracking/GetBoard', {
    schema: {
      tags: ['Reports'], summary: 'The live board of pick jobs: open, assigned, in progress, short and done, by picker and zone, with progress, age and stuck jobs',
      body: jobTrackingRequest, response: { 200: jobTrackingResult, ...authErrors },
    },
    config: { policy: { access: 'authenticated', module: { key: 'JobTracking', permission: 'read' }, scope: 'tenant' } },
  }, (req) => jobTracking.board(principalOf(req), req.body));
};
