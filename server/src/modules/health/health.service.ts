import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sql } from 'kysely';
import type { Config } from '../../config.js';
import type { Db } from '../../db/schema.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import type { JobMetrics } from '../../platform/jobs/jobs.js';
import { ping } from '../../db/database.js';
import { ERROR_CODES } from '@bolx/contracts';
import { AppError, forbidden } from '../../platform/errors.js';

/** HTTP methods counted by name; anything else a client sends counts as OTHER, so the label cannot grow. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Liveness, readiness and the Prometheus figures. Every label is from a closed set — a route's pattern (never the
 * URL), a method, a status class, a job handler's name — so the number of series cannot explode.
 */
export class HealthService {
  readonly registry = new Registry();
  private readonly httpDuration = new Histogram({
    name: 'bolx_http_request_duration_seconds',
    help: 'HTTP request duration by route pattern, method and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  private readonly jobsFinished = new Counter({
    name: 'bolx_jobs_finished_total',
    help: 'Background job runs ended on this node, by job and outcome (succeeded, retrying, failed)',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly jobDuration = new Histogram({
    name: 'bolx_job_duration_seconds',
    help: 'Background job run time on this node, by job',
    labelNames: ['job'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 1800],
    registers: [this.registry],
  });

  /** What the job worker reports as runs end. */
  readonly jobMetrics: JobMetrics = {
    finished: (job, outcome, seconds) => {
      this.jobsFinished.inc({ job, outcome });
      this.jobDuration.observe({ job }, seconds);
    },
  };

  private readonly db: Db;
  private readonly config: Pick<Config, 'metricsToken' | 'metricsPort'>;
  constructor(deps: Pick<ServiceDeps, 'db' | 'config'>) {
    this.db = deps.db;
    this.config = deps.config;
    collectDefaultMetrics({ register: this.registry });
    const db = this.db;
    // Waiting and running jobs across all nodes (the table is shared), read when scraped.
    new Gauge({
      name: 'bolx_jobs',
      help: 'Background jobs queued or running (all nodes), by job and status',
      labelNames: ['job', 'status'] as const,
      registers: [this.registry],
      async collect() {
        const rows = await db.selectFrom('job').select(['name', 'status', sql<number>`count(*)`.as('n')])
          .where('status', 'in', ['queued', 'running']).groupBy(['name', 'status']).execute();
        this.reset();
        for (const r of rows) this.set({ job: r.name, status: r.status }, Number(r.n));
      },
    });
  }

  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    this.httpDuration.observe({
      method: METHODS.has(method) ? method : 'OTHER',
      route: route ?? 'unmatched',
      status_class: `${Math.floor(status / 100)}xx`,
    }, seconds);
  }

  get metricsContentType() {
    return this.registry.contentType;
  }

  metrics() {
    return this.registry.metrics();
  }

  /**
   * /metrics on the main port answers only a request bearing METRICS_TOKEN; without one configured it is closed
   * there (METRICS_PORT serves it apart, or nothing does).
   */
  assertMetricsAccess(authorization: string | undefined): void {
    const expected = this.config.metricsToken;
    if (!expected) {
      throw forbidden(this.config.metricsPort
        ? 'Metrics are served on the metrics port (METRICS_PORT)'
        : 'Metrics are off: set METRICS_TOKEN (a bearer token for the scraper) or METRICS_PORT (a listener of their own)');
    }
    const given = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : '';
    if (!given) throw new AppError(401, ERROR_CODES.UNAUTHENTICATED, 'A bearer token is required for metrics', undefined, { 'www-authenticate': 'Bearer' });
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw forbidden('This token does not open metrics');
  }

  private draining = false;

  /** Shutdown has begun: /ready fails from now on, so a load balancer sends new requests to other nodes. */
  startDraining(): void {
    this.draining = true;
  }

  /** Whether this node should be sent requests: not while it drains, nor when its database does not answer. */
  async readiness(): Promise<'ready' | 'draining' | 'database unavailable'> {
    if (this.draining) return 'draining';
    try {
      await ping(this.db);
      return 'ready';
    } catch {
      return 'database unavailable';
    }
  }
}
