import { createServer, type Server } from 'node:http';
import type { HealthService } from './health.service.js';

/**
 * METRICS_PORT: a listener of its own that serves GET /metrics and nothing else, without a token — it is meant
 * to be reachable only from the monitoring network (bind it there, or firewall it).
 */
export function listenForMetrics(health: HealthService, port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    health.metrics().then(
      (body) => res.writeHead(200, { 'content-type': health.metricsContentType }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
