import type { Warehouse, FilterLabel } from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';
import { LIVE, NOTIFY } from '../../lib/hub/live-lists';
import type { ListPage, ListRequest } from '../../components/data-table/list-args';
import './messages';

export interface WarehouseColumn {
  key: string;
  title: string;
  sortable: boolean;
}
export type WarehouseList = ListPage<Warehouse> & { columns: WarehouseColumn[] };
export type WarehouseValues = Omit<Warehouse, 'uniqueid' | 'warehouseId' | 'createdAt' | 'updatedAt'>;

const api = baseApi.enhanceEndpoints({ addTagTypes: ['Warehouse'] });

/** The warehouse screen's calls (spec section 7, Warehouse and user). */
export const warehousesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET Warehouse/Warehouse/GetWarehouseListWithColumns?Modules=Warehouse, with the list's state as query parameters. */
    getWarehouseList: build.query<WarehouseList, ListRequest>({
      onCacheEntryAdded: LIVE.warehouses,
      query: ({ filters, searchQuery, pageNumber, pageSize, sort }) => ({
        url: 'Warehouse/Warehouse/GetWarehouseListWithColumns',
        params: {
          Modules: 'Warehouse',
          searchQuery,
          pageNumber,
          pageSize,
          ...(filters.isActive ? { isActive: filters.isActive } : {}),
          ...(sort ? { sortField: sort.field, sortOrder: sort.order } : {}),
        },
      }),
      // One tag for every cached page: a saved warehouse reaches the pages through the notify flag and the hub.
      providesTags: [{ type: 'Warehouse', id: 'LIST' }],
    }),
    getWarehouseFiltersLabels: build.query<FilterLabel[], void>({
      query: () => 'Warehouse/Warehouse/WarehouseFiltersLabels',
    }),
    addWarehouse: build.mutation<{ message: string; data: Warehouse }, WarehouseValues>({
      query: (body) => ({ url: 'Warehouse/Warehouse/AddWarehouse', method: 'POST', body }),
      // The header's warehouse list and the user form's options include the new one.
      invalidatesTags: [{ type: 'Warehouse', id: 'LIST' }, 'WarehouseClient'],
    }),
    updateWarehouse: build.mutation<{ message: string; data: Warehouse }, WarehouseValues & { warehouseId: number }>({
      query: (body) => ({ url: 'Warehouse/Warehouse/UpdateWarehouse', method: 'PUT', body }),
      // The notify flag: the saved record replaces its list entries (lists with filters or a search reload), so
      // the lists are not invalidated for this tab's own edit.
      onQueryStarted: NOTIFY.warehouse,
      invalidatesTags: ['WarehouseClient'],
    }),
  }),
});

export const { useGetWarehouseListQuery, useGetWarehouseFiltersLabelsQuery, useAddWarehouseMutation, useUpdateWarehouseMutation } = warehousesApi;
