import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { accessPlugin } from './plugins/access.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { idempotencyPlugin } from './plugins/idempotency.js';
import { MAX_FILES_PER_REQUEST, UPLOAD_MAX_BYTES } from './platform/files.js';
import { loggerOptions } from './platform/log-redaction.js';
import { registerOpenApi } from './plugins/swagger.js';
import { registerWeb } from './plugins/web-static.js';
import { registerHub } from './plugins/hub.js';
import { createServices, type Services } from './services.js';
import type { RouteModule } from './http.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { userModuleRoutes } from './modules/user-module/user-module.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { scanRoutes } from './modules/scans/scans.routes.js';
import { warehouseRoutes } from './modules/warehouses/warehouses.routes.js';
import { userRoutes } from './modules/users/users.routes.js';
import { customerRoutes } from './modules/customers/customers.routes.js';
import { skuRoutes } from './modules/skus/skus.routes.js';
import { locationRoutes } from './modules/locations/locations.routes.js';
import { inventoryRoutes } from './modules/inventory/inventory.routes.js';
import { adjustmentRoutes } from './modules/adjustments/adjustments.routes.js';
import { cycleCountRoutes } from './modules/cycle-counts/cycle-counts.routes.js';
import { replenishmentRoutes } from './modules/replenishment/replenishment.routes.js';
import { inventoryReportRoutes } from './modules/inventory-reports/inventory-reports.routes.js';
import { receivingRoutes } from './modules/receiving/receiving.routes.js';
import { jobRoutes } from './modules/jobs/jobs.routes.js';
import { orderRoutes } from './modules/orders/orders.routes.js';
import { kitRoutes } from './modules/kits/kits.routes.js';
import { pickingRoutes } from './modules/picking/picking.routes.js';
import { apiKeyRoutes } from './modules/api-keys/api-keys.routes.js';
import { batchPrintRoutes } from './modules/batch-print/batch-print.routes.js';
import { waveRoutes } from './modules/waves/waves.routes.js';
import { packingRoutes } from './modules/packing/packing.routes.js';
import { shipConfirmRoutes } from './modules/ship-confirm/ship-confirm.routes.js';
import { batchAllocationRoutes } from './modules/waves/batch-allocation.routes.js';
import { shippingRoutes } from './modules/shipping/shipping.routes.js';
import { billingRoutes } from './modules/billing/billing.routes.js';
import { reportRoutes } from './modules/reports/reports.routes.js';
import { labourRoutes } from './modules/labour/labour.routes.js';
import { returnRoutes } from './modules/returns/returns.routes.js';
import { freightRoutes } from './modules/freight/freight.routes.js';
import { assistantRoutes } from './modules/assistant/assistant.routes.js';
import { jobTrackingRoutes } from './modules/job-tracking/job-tracking.routes.js';
import { helpDeskRoutes } from './modules/helpdesk/helpdesk.routes.js';
import { palletRoutes } from './modules/pallets/pallets.routes.js';

export const VERSION = '0.1.0';

/** Every area's routes. A new module adds its line here. */
const ROUTE_MODULES: RouteModule[] = [
  healthRoutes, authRoutes, userModuleRoutes, dashboardRoutes, auditRoutes, scanRoutes,
  warehouseRoutes, userRoutes, customerRoutes, skuRoutes, locationRoutes, inventoryRoutes,
  adjustmentRoutes, cycleCountRoutes, replenishmentRoutes, inventoryReportRoutes, receivingRoutes,
  jobRoutes, orderRoutes, apiKeyRoutes, kitRoutes, waveRoutes, batchAllocationRoutes, pickingRoutes, packingRoutes, shipConfirmRoutes, batchPrintRoutes,
  shippingRoutes,
  billingRoutes,
  reportRoutes, labourRoutes, jobTrackingRoutes,
  returnRoutes,
  freightRoutes,
  assistantRoutes,
  helpDeskRoutes, palletRoutes,
];

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    database: Database;
  }
}

export interface BuildOptions {
  /** An already open database (tests, bench); otherwise one is opened from the config and closed with the app. */
  database?: Database;
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream;
  /** How long a request waits for a concurrent one holding its Idempotency-Key (tests shorten it). */
  idempotencyWaitMs?: number;
}

const REQUEST_ID = /^[\w.:-]{1,64}$/;

/** Builds the HTTP app: plugins, then every module's routes. It never listens, so tests can inject into it. */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger === false ? false : loggerOptions(config.logLevel, opts.logStream),
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database = opts.database ?? openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.dbPoolSize });
  const services = createServices(config, database, app.log);
  // After-commit subscribers still at work finish before the database they use closes.
  app.addHook('onClose', async () => {
    await services.domainEvents.idle();
    if (!opts.database) await database.close();
  });
  app.decorate('services', services);
  app.decorate('database', database);

  // While shutting down, answers in flight close their keep-alive connection so the server can stop.
  let closing = false;
  app.addHook('preClose', async () => { closing = true; });
  // The job worker and schedules (when started) stop before the database closes; jobs in hand finish first.
  app.addHook('preClose', async () => { await services.schedules.stop(); await services.jobs.stop(); });
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close');
  });
  app.addHook('onResponse', async (request, reply) => {
    services.health.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });

  await app.register(errorHandlerPlugin);
  await app.register(accessPlugin, {
    resolve: (token: string) => services.auth.principalFromToken(token),
    resolveApiKey: (key: string, ip: string | null) => services.apiKeys.principalFromKey(key, ip),
    deferred: { claims: (token) => services.auth.tokenClaims(token), sendCheck: (db, claims) => services.auth.sendSessionCheck(db, claims) },
  });
  await app.register(idempotencyPlugin, { db: database.db, dialect: database.dialect, waitMs: opts.idempotencyWaitMs });
  // Uploads (documents, location and SKU sheets): bounded so a request cannot exhaust memory or disk.
  // One file part past receiveParts' own bound, so that bound answers first (a 400 naming it, not a bare 413).
  await app.register(fastifyMultipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: MAX_FILES_PER_REQUEST + 1, fields: 20, parts: 30 } });
  await registerOpenApi(app, VERSION);

  const api = app.withTypeProvider<ZodTypeProvider>();
  for (const register of ROUTE_MODULES) register(api, services);

  await registerHub(app, services);
  await registerWeb(app, config.webDist ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist'));
  return app;
}
