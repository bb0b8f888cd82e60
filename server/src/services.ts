import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { Db } from './db/schema.js';
import type { Dialect } from './db/dialect.js';
import { EventBus } from './platform/events.js';
import { ChangeRecorder } from './platform/change-recorder.js';
import { WarehouseTimeZones } from './platform/business-day.js';
import { Mailer } from './platform/mail.js';
import { AccessTokens } from './platform/tokens.js';
import { AuthService } from './modules/auth/auth.service.js';
import { UserModuleService } from './modules/user-module/user-module.service.js';
import { DashboardService } from './modules/dashboard/dashboard.service.js';
import { AuditService } from './modules/audit/audit.service.js';
import { HealthService } from './modules/health/health.service.js';
import { ScanService } from './modules/scans/scans.service.js';
import { WarehouseService } from './modules/warehouses/warehouses.service.js';
import { UserService } from './modules/users/users.service.js';
import { CustomerService } from './modules/customers/customers.service.js';
import { SkuService } from './modules/skus/skus.service.js';
import { LocationService } from './modules/locations/locations.service.js';
import { InventoryService } from './modules/inventory/inventory.service.js';
import { AdjustmentService } from './modules/adjustments/adjustments.service.js';
import { CycleCountService } from './modules/cycle-counts/cycle-counts.service.js';
import { ReplenishmentService } from './modules/replenishment/replenishment.service.js';
import { InventoryReportService } from './modules/inventory-reports/inventory-reports.service.js';
import { ReceivingService } from './modules/receiving/receiving.service.js';

/** What every service may depend on. Services take this one object, so wiring a new one is one line. */
export interface ServiceDeps {
  db: Db;
  dialect: Dialect;
  events: EventBus;
  /** The one way to write a change's audit rows and hub events. */
  recorder: ChangeRecorder;
  /** Warehouses' time zones, for the business day of a posting or a report bucket. */
  timeZones: WarehouseTimeZones;
  mailer: Mailer;
  tokens: AccessTokens;
  config: Config;
  log: FastifyBaseLogger;
}

/** The composition root: every service, built once per app from its dependencies. */
export function createServices(config: Config, database: Database, log: FastifyBaseLogger) {
  const { db, dialect } = database;
  const tokens = new AccessTokens(config.tokenSecret);
  const mailer = new Mailer(db, log, { smtpUrl: config.smtpUrl, from: config.mailFrom, logMail: config.demoData });
  const events = new EventBus(database);
  const deps: ServiceDeps = { db, dialect, events, recorder: new ChangeRecorder(events), timeZones: new WarehouseTimeZones(db), mailer, tokens, config, log };
  return {
    tokens,
    mailer,
    events,
    auth: new AuthService(deps),
    userModules: new UserModuleService(deps),
    dashboard: new DashboardService(deps),
    audit: new AuditService(deps),
    health: new HealthService(deps),
    scans: new ScanService(deps),
    warehouses: new WarehouseService(deps),
    users: new UserService(deps),
    customers: new CustomerService(deps),
    skus: new SkuService(deps),
    locations: new LocationService(deps),
    inventory: new InventoryService(deps),
    adjustments: new AdjustmentService(deps),
    cycleCounts: new CycleCountService(deps),
    replenishment: new ReplenishmentService(deps),
    inventoryReports: new InventoryReportService(deps),
    receiving: new ReceivingService(deps),
  };
}

export type Services = ReturnType<typeof createServices>;
