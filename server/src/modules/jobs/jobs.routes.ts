import { apiErrorSchema, cancelJobRequest, getJobQuery, jobView, mutationResult } from '@bolx/contracts';
import { principalOf } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

/** Any signed-in user may ask; the service answers only their own jobs (or, to an administrator, those in scope). */
const signedIn = { access: 'authenticated', scope: 'self' } as const;

export const JOB_STATUS_ROUTE = 'GET /Common/Job/GetJob';

export const jobRoutes: RouteModule = (api, { jobStatus }) => {
  api.get('/Common/Job/GetJob', {
    schema: {
      tags: ['Jobs'], summary: 'A background job’s status, progress and result (its owner, or an administrator)',
      querystring: getJobQuery, response: { 200: jobView, ...authErrors },
    },
    config: { policy: signedIn },
  }, (req) => jobStatus.get(principalOf(req), req.query.jobId));

  api.post('/Common/Job/CancelJob', {
    schema: {
      tags: ['Jobs'], summary: 'Cancel a background job that has not started (its owner, or an administrator); 409 once it runs',
      body: cancelJobRequest, response: { 200: mutationResult(jobView), 409: apiErrorSchema, ...authErrors },
    },
    config: { policy: signedIn },
  }, (req) => jobStatus.cancel(principalOf(req), req.body.jobId));
};
