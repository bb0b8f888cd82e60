import type { Db } from '../../db/schema.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import type { Principal } from '../../platform/principal.js';
import { occupancyPercent, sumPositions } from '../locations/occupancy.js';
import { dashboardRepository as repo } from './dashboard.repository.js';

export class DashboardService {
  private readonly db: Db;
  constructor(deps: Pick<ServiceDeps, 'db'>) {
    this.db = deps.db;
  }

  /** KPI tiles for the header's warehouse and customer (0 = all in the caller's scope). */
  async get(principal: Principal, filter: { warehouseId: number; customerId: number }) {
    const scope = principal.scope;
    scope.assert(filter);
    const [totals, skuCount, positions, byWarehouse, byCustomer, openReceipts, openOrders] = await Promise.all([
      repo.stockTotals(this.db, scope, filter),
      repo.skuCount(this.db, scope, filter),
      repo.locationOccupancy(this.db, scope, filter),
      repo.stockByWarehouse(this.db, scope, filter),
      repo.stockByCustomer(this.db, scope, filter),
      repo.openReceiptCount(this.db, scope, filter),
      repo.openOrderCount(this.db, scope, filter),
    ]);
    const { used: locationsUsed, total: locationsTotal } = sumPositions(positions);
    return {
      stockUnits: Number(totals.units),
      skuCount,
      locationsUsed,
      locationsTotal,
      occupancy: occupancyPercent(locationsUsed, locationsTotal),
      openOrders,
      openReceipts,
      stockByWarehouse: byWarehouse.map((r) => ({ warehouseName: r.warehouseName, units: Number(r.units) })),
      stockByCustomer: byCustomer.map((r) => ({ customerName: r.customerName, units: Number(r.units) })),
    };
  }
}
