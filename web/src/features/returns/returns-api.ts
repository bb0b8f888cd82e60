import type { z } from 'zod';
import type {
  CreateManualShipmentInput, CreateReturnLabelInput, CreateRmaInput, ReturnItem, ReturnableOrder, ReturnsReport, RmaDetail, RmaSummary,
  ShipmentDetail, ShipmentSummary, returnLocation, returnSkuMatch, stockRow,
} from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';
import { liveAll, reloadOn } from '../../lib/hub/live-list';
import type { ListPage, ListRequest } from '../../components/data-table/list-args';
import './messages';

export type ReturnLocation = z.infer<typeof returnLocation>;
export type ReturnSkuMatch = z.infer<typeof returnSkuMatch>;
export type StockRow = z.infer<typeof stockRow>;
type Answer<T> = { message: string; data: T };
type Keyed<A> = A & { idempotencyKey: string };
const keyed = <A extends { idempotencyKey: string }>(url: string, { idempotencyKey, ...body }: A) => ({
  url, method: 'POST', body, headers: { 'Idempotency-Key': idempotencyKey },
});
const list = (url: string) => (body: ListRequest) => ({ url, method: 'POST', body }) as const;

const api = baseApi.enhanceEndpoints({ addTagTypes: ['Rma', 'ReturnItem', 'ManualShipment'] });
/** Every returns list follows the returns hub events. */
const live = liveAll(reloadOn('ReceiveRmaData'));

export const returnsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getRmas: build.query<ListPage<RmaSummary>, ListRequest>({ query: list('Warehouse/RMA/GetRmas'), providesTags: ['Rma'], onCacheEntryAdded: live }),
    getRma: build.query<RmaDetail, number>({ query: (rmaId) => ({ url: 'Warehouse/RMA/GetRma', params: { rmaId } }), providesTags: ['Rma', 'ReturnItem'] }),
    getReturnableOrder: build.query<ReturnableOrder, { warehouseId: number; customerId: number; code: string }>({
      query: (params) => ({ url: 'Warehouse/RMA/GetReturnableOrder', params }), providesTags: ['Rma'],
    }),
    createRma: build.mutation<Answer<RmaSummary>, Keyed<CreateRmaInput>>({ query: (a) => keyed('Warehouse/RMA/CreateRma', a), invalidatesTags: ['Rma'] }),
    setTracking: build.mutation<Answer<RmaSummary>, Keyed<{ rmaId: number; trackingNumber: string }>>({ query: (a) => keyed('Warehouse/RMA/SetTracking', a), invalidatesTags: ['Rma'] }),
    cancelRma: build.mutation<Answer<RmaSummary>, Keyed<{ rmaId: number }>>({ query: (a) => keyed('Warehouse/RMA/CancelRma', a), invalidatesTags: ['Rma'] }),
    closeRma: build.mutation<Answer<RmaSummary>, Keyed<{ rmaId: number }>>({ query: (a) => keyed('Warehouse/RMA/CloseRma', a), invalidatesTags: ['Rma'] }),
    scanReturn: build.mutation<{ code: string; rmas: RmaSummary[]; message?: string }, { warehouseId: number; code: string }>({
      query: (body) => ({ url: 'Warehouse/Returns/ScanReturn', method: 'POST', body }),
    }),
    receiveItem: build.mutation<Answer<RmaDetail>, Keyed<{ rmaId: number; code: string; quantity: number; locationId: number; lot?: string; approveOverReceipt?: boolean }>>({
      query: (a) => keyed('Warehouse/Returns/ReceiveItem', a), invalidatesTags: ['Rma', 'ReturnItem'],
    }),
    inspectItem: build.mutation<Answer<ReturnItem>, Keyed<{ itemId: number; condition: string; notes?: string }>>({
      query: (a) => keyed('Warehouse/Returns/InspectItem', a), invalidatesTags: ['Rma', 'ReturnItem'],
    }),
    addPhoto: build.mutation<Answer<ReturnItem>, { itemId: number; file: File }>({
      query: ({ itemId, file }) => {
        const form = new FormData();
        form.append('itemId', String(itemId));
        form.append('file', file);
        return { url: 'Warehouse/Returns/AddItemPhoto', method: 'POST', body: form };
      },
      invalidatesTags: ['Rma', 'ReturnItem'],
    }),
    disposeItem: build.mutation<Answer<ReturnItem>, Keyed<{ itemId: number; disposition: string; locationId?: number; reason?: string }>>({
      query: (a) => keyed('Warehouse/Returns/DisposeItem', a), invalidatesTags: ['Rma', 'ReturnItem'],
    }),
    getReturnLocations: build.query<ReturnLocation[], { warehouseId: number; purpose: string; search?: string }>({
      query: (params) => ({ url: 'Warehouse/Returns/GetReturnLocations', params }),
    }),
    findSku: build.query<ReturnSkuMatch[], { warehouseId: number; customerId?: number; code: string }>({
      query: (params) => ({ url: 'Warehouse/Returns/FindSku', params }),
    }),
    receiveManual: build.mutation<Answer<ReturnItem>, Keyed<{ warehouseId: number; customerId: number; skuId: number; quantity: number; locationId: number; reason: string; orderNumber?: string; lot?: string }>>({
      query: (a) => keyed('Warehouse/Returns/ReceiveManual', a), invalidatesTags: ['ReturnItem'],
    }),
    linkOrder: build.mutation<Answer<ReturnItem>, Keyed<{ itemId: number; orderNumber: string }>>({
      query: (a) => keyed('Warehouse/Returns/LinkOrder', a), invalidatesTags: ['ReturnItem'],
    }),
    getManualReturns: build.query<ListPage<ReturnItem>, ListRequest>({ query: list('Warehouse/Returns/GetManualReturns'), providesTags: ['ReturnItem'], onCacheEntryAdded: live }),
    getReturnsReport: build.query<ReturnsReport, { warehouseId?: number; customerId?: number; from: string; to: string }>({
      query: (body) => ({ url: 'Warehouse/Returns/GetReturnsReport', method: 'POST', body }), providesTags: ['ReturnItem'],
    }),
    // Manual shipping (the /RMA screen's third view) and return labels: shipments of the shipping module.
    getManualShipments: build.query<ListPage<ShipmentSummary>, ListRequest>({
      query: list('Warehouse/RMA/GetManualShipments'), providesTags: ['ManualShipment'], onCacheEntryAdded: liveAll(reloadOn('ReceiveShipmentData')),
    }),
    createManualShipment: build.mutation<Answer<ShipmentDetail>, Keyed<CreateManualShipmentInput>>({
      query: (a) => keyed('Warehouse/RMA/CreateManualShipment', a), invalidatesTags: ['ManualShipment', 'Rma'],
    }),
    createReturnLabel: build.mutation<Answer<ShipmentDetail>, Keyed<CreateReturnLabelInput>>({
      query: (a) => keyed('Warehouse/RMA/CreateReturnLabel', a), invalidatesTags: ['Rma'],
    }),
    /** Where the client's stock is free to ship, by SKU code or description. */
    getShippableStock: build.query<ListPage<StockRow>, ListRequest>({ query: list('Warehouse/Inventory/GetStockOnHand'), providesTags: ['ManualShipment'] }),
  }),
});

export const {
  useGetManualShipmentsQuery, useCreateManualShipmentMutation, useCreateReturnLabelMutation, useLazyGetShippableStockQuery,
  useGetRmasQuery, useGetRmaQuery, useLazyGetReturnableOrderQuery, useCreateRmaMutation, useSetTrackingMutation, useCancelRmaMutation,
  useCloseRmaMutation, useScanReturnMutation, useReceiveItemMutation, useInspectItemMutation, useAddPhotoMutation, useDisposeItemMutation,
  useGetReturnLocationsQuery, useLazyFindSkuQuery, useReceiveManualMutation, useLinkOrderMutation, useGetManualReturnsQuery, useGetReturnsReportQuery,
} = returnsApi;

