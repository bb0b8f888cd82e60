import type { z } from 'zod';
import type {
  CreateFreightShipmentInput, UpdateFreightShipmentInput, freightClassesResponse, freightShipmentDetail, freightShipmentSummary, suggestedHandlingUnits,
} from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';
import { keyed, type Keyed } from '../../lib/api/keyed';
import { reloadOn } from '../../lib/hub/live-list';
import type { ListPage, ListRequest } from '../../components/data-table/list-args';
import './messages';

export type FreightShipment = z.infer<typeof freightShipmentSummary>;
export type FreightShipmentDetail = z.infer<typeof freightShipmentDetail>;
export type SuggestedUnit = z.infer<typeof suggestedHandlingUnits>[number];
export interface PackedOrder { orderId: number; soNumber: string; referenceNumber: string; customerId: number; status: string }

type Answer<T> = { message: string; data: T };
const F = 'Freight/FreightShipment';

const api = baseApi.enhanceEndpoints({ addTagTypes: ['Freight'] });
/** The dashboard and an open shipment follow every freight change over the hub. */
const live = reloadOn('ReceiveFreightData');
/** The packed orders a shipment may take change as orders are packed or shipped. */
const liveOrders = reloadOn('ReceiveOrderData');

export const freightApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFreightShipments: build.query<ListPage<FreightShipment>, ListRequest>({
      query: (body) => ({ url: `${F}/GetFreightShipments`, method: 'POST', body }), providesTags: ['Freight'], onCacheEntryAdded: live,
    }),
    getFreightShipment: build.query<FreightShipmentDetail, number>({
      query: (shipmentId) => ({ url: `${F}/GetFreightShipment`, params: { shipmentId } }), providesTags: ['Freight'], onCacheEntryAdded: live,
    }),
    getFreightClasses: build.query<z.infer<typeof freightClassesResponse>, void>({ query: () => ({ url: `${F}/GetFreightClasses` }) }),
    /** A client's packed orders in a warehouse: what a shipment can carry. */
    getPackedOrders: build.query<PackedOrder[], { warehouseId: number; customerId: number }>({
      query: ({ warehouseId, customerId }) => ({
        url: 'Warehouse/Order/GetOrders', method: 'POST', body: { filters: { warehouseId, customerId, status: 'Packed' }, pageSize: 500, pageNumber: 1, searchQuery: '' },
      }),
      transformResponse: (page: ListPage<PackedOrder>) => page.items,
      onCacheEntryAdded: liveOrders,
    }),
    suggestHandlingUnits: build.mutation<SuggestedUnit[], { warehouseId: number; customerId: number; orderIds: number[] }>({
      query: (body) => ({ url: `${F}/SuggestHandlingUnits`, method: 'POST', body }),
    }),
    createFreightShipment: build.mutation<Answer<FreightShipmentDetail>, Keyed<CreateFreightShipmentInput>>({
      query: (a) => keyed(`${F}/CreateFreightShipment`, a), invalidatesTags: ['Freight'],
    }),
    updateFreightShipment: build.mutation<Answer<FreightShipmentDetail>, Keyed<UpdateFreightShipmentInput>>({
      query: (a) => keyed(`${F}/UpdateFreightShipment`, a), invalidatesTags: ['Freight'],
    }),
    setFreightShipmentStatus: build.mutation<Answer<FreightShipmentDetail>, Keyed<{ shipmentId: number; status: string; reason?: string }>>({
      query: (a) => keyed(`${F}/SetFreightShipmentStatus`, a), invalidatesTags: ['Freight'],
    }),
  }),
});

export const FREIGHT_PATHS = {
  billOfLading: (shipmentId: number) => ({ url: `${F}/PrintBillOfLading`, method: 'GET' as const, params: { shipmentId } }),
  proofOfDelivery: (shipmentId: number) => ({ url: `${F}/GetProofOfDelivery`, method: 'GET' as const, params: { shipmentId } }),
  uploadPod: `${F}/UploadProofOfDelivery`,
};

export const {
  useGetFreightShipmentsQuery, useGetFreightShipmentQuery, useGetFreightClassesQuery, useGetPackedOrdersQuery, useSuggestHandlingUnitsMutation,
  useCreateFreightShipmentMutation, useUpdateFreightShipmentMutation, useSetFreightShipmentStatusMutation,
} = freightApi;
