import type { DashboardResponse } from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';

export const dashboardApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getDashboard: build.query<DashboardResponse, { warehouseId: number; customerId: number }>({
      query: (params) => ({ url: 'Warehouse/Dashboard/GetDashboard', params }),
      providesTags: ['Dashboard'],
    }),
  }),
});

export const { useGetDashboardQuery } = dashboardApi;
