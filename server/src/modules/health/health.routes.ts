import { z } from 'zod';
import { PUBLIC } from '../../plugins/access.js';
import type { RouteModule } from '../../http.js';

const status = z.object({ status: z.string() });

export const healthRoutes: RouteModule = (api, { health }) => {
  api.get('/health', {
    schema: { tags: ['Operations'], summary: 'The process is alive', response: { 200: status } },
    config: { policy: PUBLIC },
  }, () => ({ status: 'ok' }));

  api.get('/ready', {
    schema: { tags: ['Operations'], summary: 'The database answers and the node is not shutting down', response: { 200: status, 503: status } },
    config: { policy: PUBLIC },
  }, async (_req, reply) => {
    const readiness = await health.readiness();
    return readiness === 'ready' ? { status: readiness } : reply.status(503).send({ status: readiness });
  });

  api.get('/metrics', {
    schema: { tags: ['Operations'], summary: 'Prometheus metrics (bearer METRICS_TOKEN)', response: { 200: z.string() } },
    // Public to the access policy (the token is not a user's); the service checks METRICS_TOKEN.
    config: { policy: PUBLIC },
  }, async (req, reply) => {
    health.assertMetricsAccess(req.headers.authorization);
    void reply.type(health.metricsContentType);
    return health.metrics();
  });
};
