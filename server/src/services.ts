import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { EventBus } from './platform/events.js';
import { ChangeRecorder } from './platform/change-recorder.js';
import { DomainEvents } from './platform/domain-events.js';
import { WarehouseTimeZones } from './platform/business-day.js';
import { StockEngine } from './platform/stock/stock-engine.js';
import { Mailer } from './platform/mail.js';
import { AccessTokens } from './platform/tokens.js';
import { FloorEvents } from './platform/floor-events.js';
import type { ServiceDeps } from './platform/service-deps.js';
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
import { OrderService } from './modules/orders/orders.service.js';
import { OrderAllocationService } from './modules/orders/allocation.service.js';
import { BackorderService, registerBackorderFilling } from './modules/orders/backorders.service.js';
import { KitService } from './modules/kits/kits.service.js';
import { PickingService } from './modules/picking/picking.service.js';
import { OrderReceipts } from './modules/orders/order-receipts.js';
import { OrderDocumentService } from './modules/orders/order-documents.service.js';
import { OrderUploadService } from './modules/orders/order-upload.service.js';
import { Jobs, Schedules, registerHousekeeping } from './platform/jobs/index.js';
import { JobService } from './modules/jobs/jobs.service.js';
import { ApiKeyService } from './modules/api-keys/api-keys.service.js';
import { registerUploadJobs } from './modules/uploads/upload-jobs.js';
import { BatchPrintService } from './modules/batch-print/batch-print.service.js';
import { FreightService } from './modules/freight/freight.service.js';
import { WaveService } from './modules/waves/waves.service.js';
import { PickJobService } from './modules/waves/pick-jobs.service.js';
import { PackingService } from './modules/packing/packing.service.js';
import { ShipConfirmService } from './modules/ship-confirm/ship-confirm.service.js';
import { BatchAllocationService, registerBatchAllocationJob } from './modules/waves/batch-allocation.service.js';
import { ShippingService } from './modules/shipping/shipping.service.js';
import { ManualShipmentService } from './modules/shipping/manual-shipments.js';
import { BillingService, registerBillingJobs } from './modules/billing/billing.service.js';
import { BillingReports } from './modules/billing/billing-reports.js';
import { StorageSnapshots, registerSnapshotSchedule } from './modules/billing/storage-snapshots.js';
import { registerAccrualSchedule } from './modules/billing/accrual.js';
import { registerReportRollups } from './modules/reports/report-rollups.js';
import { LabourService } from './modules/labour/labour.service.js';
import { ReportService } from './modules/reports/reports.service.js';
import { ReportJobs } from './modules/reports/report-jobs.js';
import { JobTrackingService } from './modules/job-tracking/job-tracking.service.js';
import { ReturnService, registerRmaExpiry } from './modules/returns/returns.service.js';
import { AssistantService } from './modules/assistant/assistant.service.js';
import { HelpDeskService } from './modules/helpdesk/helpdesk.service.js';
import { PalletService } from './modules/pallets/pallets.service.js';

/** The composition root: every service, built once per app from its dependencies. */
export function createServices(config: Config, database: Database, log: FastifyBaseLogger) {
  const { db, dialect } = database;
  const tokens = new AccessTokens(config.tokenSecret);
  const mailer = new Mailer(db, log, { smtpUrl: config.smtpUrl, from: config.mailFrom, logMail: config.demoData });
  const events = new EventBus(database);
  const domainEvents = new DomainEvents(log);
  const deps: ServiceDeps = { db, dialect, events, recorder: new ChangeRecorder(events, domainEvents), domainEvents, timeZones: new WarehouseTimeZones(db), mailer, tokens, config, log };
  // The one stock engine: every module that changes stock is handed this instance.
  const stock = new StockEngine(deps);
  // The floor's event log (picks, packs, ships): labour and billing read it.
  const floorEvents = new FloorEvents(deps.timeZones);
  // Background jobs and schedules: handlers register below; the worker starts in main.ts (tests start it on demand).
  const health = new HealthService(deps);
  const jobs = new Jobs({ db, dialect, events, log, metrics: health.jobMetrics });
  const schedules = new Schedules({ db, jobs, timeZones: deps.timeZones, log });
  // Orders: Transfer and Purchase orders make their receiving orders through the receiving service.
  const receiving = new ReceivingService(deps, stock, floorEvents);
  const orders = new OrderService(deps, new OrderReceipts(receiving));
  const orderDocuments = new OrderDocumentService(deps);
  // The floor: waves release orders into pick jobs; jobs give their orders back through the same release.
  const waves = new WaveService(deps, orders);
  const scans = new ScanService(deps);
  const cycleCounts = new CycleCountService(deps, stock);
  const pickJobs = new PickJobService(deps, waves.release);
  const allocation = new OrderAllocationService(deps, stock);
  const shipConfirm = new ShipConfirmService(deps, { stock, floorEvents, orders, allocation });
  // Parcel shipping ships through ship confirm; a shipment follows its order there.
  const shipping = new ShippingService(deps, { floorEvents, shipConfirm });
  shipping.followOrders(domainEvents);
  shipping.announceStatusChanges(domainEvents);
  // Billing: daily storage snapshots, rate cards, runs and invoices.
  const storageSnapshots = new StorageSnapshots(db, deps.timeZones);
  const billing = new BillingService(deps, jobs, storageSnapshots);
  const labour = new LabourService(deps);
  const inventoryReports = new InventoryReportService(deps);
  const reports = new ReportService(deps, labour, inventoryReports);
  const services = {
    tokens,
    mailer,
    events,
    stock,
    floorEvents,
    timeZones: deps.timeZones,
    recorder: deps.recorder,
    domainEvents,
    auth: new AuthService(deps),
    userModules: new UserModuleService(deps),
    dashboard: new DashboardService(deps, reports),
    audit: new AuditService(deps),
    health,
    scans,
    warehouses: new WarehouseService(deps),
    users: new UserService(deps),
    customers: new CustomerService(deps),
    apiKeys: new ApiKeyService(deps),
    skus: new SkuService(deps),
    locations: new LocationService(deps),
    inventory: new InventoryService(deps, stock),
    adjustments: new AdjustmentService(deps, stock),
    cycleCounts,
    replenishment: new ReplenishmentService(deps, stock),
    inventoryReports,
    receiving,
    orders,
    orderDocuments,
    orderUploads: new OrderUploadService(deps, orders, orderDocuments),
    allocation,
    backorders: new BackorderService(deps),
    kits: new KitService(deps, stock),
    waves,
    pickJobs,
    batchAllocation: new BatchAllocationService(deps, allocation, jobs),
    picking: new PickingService(deps, { stock, floorEvents, scans, cycleCounts, orders, pickJobs, waves }),
    packing: new PackingService(deps, { stock, floorEvents, orders, scans }),
    jobs,
    schedules,
    jobStatus: new JobService({ jobs }),
    uploadQueue: { jobs, db, backgroundBytes: config.backgroundUploadBytes },
    batchPrint: new BatchPrintService(deps),
    shipConfirm,
    shipping,
    billing,
    billingReports: new BillingReports(db, deps.dialect, storageSnapshots, billing),
    labour,
    reports,
    reportJobs: new ReportJobs({ db, dialect, jobs, mailer, retentionDays: config.reportFileRetentionDays }, reports),
    jobTracking: new JobTrackingService(deps),
    returns: new ReturnService(deps, { stock, floorEvents, scans }),
    manualShipments: new ManualShipmentService(deps, { stock, floorEvents, shipping }),
    freight: new FreightService(deps, floorEvents, shipConfirm),
    assistant: new AssistantService(deps),
    helpDesk: new HelpDeskService(deps),
    pallets: new PalletService(deps),
  };
  registerUploadJobs(jobs, database, services);
  registerHousekeeping(jobs, schedules, db);
  registerBackorderFilling(jobs, domainEvents, db, services.allocation, log);
  registerBatchAllocationJob(jobs, services);
  registerBillingJobs(jobs, billing);
  registerSnapshotSchedule(jobs, schedules, db, storageSnapshots);
  registerAccrualSchedule(jobs, schedules, db, deps.dialect);
  registerReportRollups(jobs, schedules, db, deps.dialect);
  registerRmaExpiry(jobs, schedules, services.returns);
  services.reportJobs.register(jobs, schedules, (userId, session) => services.auth.principalOfUser(userId, session));
  services.returns.followReturnLabels(domainEvents);
  return services;
}

export type Services = ReturnType<typeof createServices>;
export type { ServiceDeps };
