import { LABOUR_IDLE_GAP_SECONDS } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import type { Principal } from '../../platform/principal.js';
import { occupancyPercent, sumPositions } from '../locations/occupancy.js';
import type { ReportService } from '../reports/reports.service.js';
import { dashboardRepository as repo } from './dashboard.repository.js';

/** The range of the dashboard's report figures (on-time rate, dock-to-stock): the reports' own 'last 7 days'. */
export const DASHBOARD_REPORT_PRESET = 'last7' as const;
const figure = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export class DashboardService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect'>, private readonly reports: ReportService) {
    this.db = deps.db;
    this.dialect = deps.dialect;
  }

  /** KPI tiles for the header's warehouse and customer (0 = all in the caller's scope). */
  async get(principal: Principal, filter: { warehouseId: number; customerId: number }, now = new Date()) {
    const scope = principal.scope;
    scope.assert(filter);
    const at = now.toISOString();
    // The on-time and dock-to-stock figures are the /OrderReports and /OtherReports totals, one definition each.
    const week = { warehouseId: filter.warehouseId, customerId: filter.customerId, preset: DASHBOARD_REPORT_PRESET };
    const [totals, skuCount, positions, byWarehouse, byCustomer, openReceipts, openOrders, today, picks, onTime, dockToStock] = await Promise.all([
      repo.stockTotals(this.db, scope, filter),
      repo.skuCount(this.db, scope, filter),
      repo.locationOccupancy(this.db, scope, filter),
      repo.stockByWarehouse(this.db, scope, filter),
      repo.stockByCustomer(this.db, scope, filter),
      repo.openReceiptCount(this.db, scope, filter),
      repo.openOrderCount(this.db, scope, filter),
      repo.orderToday(this.db, this.dialect, scope, filter, at),
      repo.picksToday(this.db, this.dialect, scope, filter, at, LABOUR_IDLE_GAP_SECONDS),
      this.reports.totals(principal, 'on-time-shipping', week, now),
      this.reports.totals(principal, 'dock-to-stock', week, now),
    ]);
    const pickSeconds = Number(picks.seconds);
    const { used: locationsUsed, total: locationsTotal } = sumPositions(positions);
    return {
      stockUnits: Number(totals.units),
      skuCount,
      locationsUsed,
      locationsTotal,
      occupancy: occupancyPercent(locationsUsed, locationsTotal),
      openOrders,
      openReceipts,
      dueToday: Number(today.due), lateOrders: Number(today.late), backorders: Number(today.backordered), shippedToday: Number(today.shipped),
      unitsPickedToday: Number(picks.units),
      unitsPickedPerHour: pickSeconds > 0 ? Math.round((Number(picks.units) / (pickSeconds / 3600)) * 10) / 10 : null,
      onTimeRate: figure(onTime.onTimeRate), onTimeRated: Number(onTime.withDate),
      dockToStockHours: figure(dockToStock.medianHours),
      stockByWarehouse: byWarehouse.map((r) => ({ warehouseName: r.warehouseName, units: Number(r.units) })),
      stockByCustomer: byCustomer.map((r) => ({ customerName: r.customerName, units: Number(r.units) })),
    };
  }
}
