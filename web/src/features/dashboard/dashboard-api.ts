import type { DashboardResponse } from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';
import { liveAll, reloadOn } from '../../lib/hub/live-list';

/** The tiles sum stock, SKUs, locations, receipts, orders and picks: any of those changing in the user's scope refetches them. */
const liveDashboard = liveAll(
  reloadOn('ReceiveOrderData'),
  reloadOn('ReceiveWaveData'),
  reloadOn('ReceiveInventoryData'),
  reloadOn('ReceiveSkuData', (e) => e.subEvent === 'SkuAdd' || e.subEvent === 'SkuUpdate'),
  reloadOn('ReceiveLocationData'),
  reloadOn('ReceiveReceivingData'),
);

export const dashboardApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getDashboard: build.query<DashboardResponse, { warehouseId: number; customerId: number }>({
      query: (params) => ({ url: 'Warehouse/Dashboard/GetDashboard', params }),
      providesTags: ['Dashboard'],
      onCacheEntryAdded: liveDashboard,
    }),
  }),
});

export const { useGetDashboardQuery } = dashboardApi;
