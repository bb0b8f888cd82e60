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
    schema: { tags: ['Operations'], summary: 'The database answers', response: { 200: status, 503: status } },
    config: { policy: PUBLIC },
  }, async (_req, reply) => ((await health.ready()) ? { status: 'ready' } : reply.status(503).send({ status: 'database unavailable' })));

  api.get('/metrics', {
    schema: { tags: ['Operations'], summary: 'Prometheus metrics', response: { 200: z.string() } },
    config: { policy: PUBLIC },
  }, async (_req, reply) => {
    void reply.type(health.metricsContentType);
    return health.metrics();
  });
};
