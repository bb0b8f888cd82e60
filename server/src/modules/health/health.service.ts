import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { Db } from '../../db/schema.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { ping } from '../../db/database.js';

export class HealthService {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'bolx_http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  private readonly db: Db;
  constructor(deps: Pick<ServiceDeps, 'db'>) {
    this.db = deps.db;
    collectDefaultMetrics({ register: this.registry });
  }

  get metricsContentType() {
    return this.registry.contentType;
  }

  metrics() {
    return this.registry.metrics();
  }

  async ready(): Promise<boolean> {
    try {
      await ping(this.db);
      return true;
    } catch {
      return false;
    }
  }
}
