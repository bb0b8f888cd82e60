import type { ManifestSummary, OrderCarrierAccount, RateShopResult, RateTableDefinition, ShipmentDetail, ShipmentTracking, ShippingDashboard, rateTableView, shipShipmentsResult } from '@bolx/contracts';
import type { z } from 'zod';
import type { DownloadRequest } from './download';
import { baseApi } from './base-api';
import { liveAll, reloadOn } from '../hub/live-list';

/** Parcel shipping's calls (/ShippingDashboard): the dashboard, rate shopping, labels, ship, end-of-day close. */
export const SHIPPING = 'Warehouse/Shipping';
type Done<T> = { message: string; data: T };
export type ShipShipmentsResult = z.infer<typeof shipShipmentsResult>;
export type RateTableView = z.infer<typeof rateTableView>;
const TAG = { type: 'Shipping', id: 'DASHBOARD' } as const;

export const shippingApi = baseApi.enhanceEndpoints({ addTagTypes: ['Shipping'] }).injectEndpoints({
  endpoints: (build) => ({
    getShippingDashboard: build.query<ShippingDashboard, { warehouseId: number; customerId?: number }>({
      query: (params) => ({ url: `${SHIPPING}/GetDashboard`, params }),
      providesTags: [TAG],
      // Packing and shipping elsewhere (the pack station, ship confirm) change what waits; labels, voids, manual
      // shipments and closes (another screen's, another user's) change what shipped and what is left to close.
      onCacheEntryAdded: liveAll(reloadOn('ReceiveOrderData'), reloadOn('ReceiveShipmentData')),
    }),
    /** One shipment of any day by id (its view: a ticket's link, a dashboard row), read again when it moves. */
    getShipment: build.query<ShipmentDetail, number>({
      query: (shipmentId) => ({ url: `${SHIPPING}/GetShipment`, params: { shipmentId } }),
      providesTags: (_r, _e, id) => [TAG, { type: 'Shipping', id: `SHIPMENT-${id}` }],
      onCacheEntryAdded: reloadOn('ReceiveShipmentData', (e, id: number) => e.payload.shipmentId === id),
    }),
    /** Its parcels' tracking events from the carrier's adapter (the built-in carriers have none). */
    getShipmentTracking: build.query<ShipmentTracking, number>({
      query: (shipmentId) => ({ url: `${SHIPPING}/Track`, params: { shipmentId } }),
      providesTags: (_r, _e, id) => [{ type: 'Shipping', id: `SHIPMENT-${id}` }],
    }),
    rateShop: build.mutation<RateShopResult, { orderId: number; residential?: boolean }>({
      query: (body) => ({ url: `${SHIPPING}/RateShop`, method: 'POST', body }),
      invalidatesTags: [TAG],
    }),
    createLabels: build.mutation<Done<ShipmentDetail>, { orderId: number; carrierAccountId?: number; serviceCode?: string; residential?: boolean; tracking?: { cartonId: number; trackingNumber: string }[] }>({
      query: (body) => ({ url: `${SHIPPING}/CreateLabels`, method: 'POST', body }),
      invalidatesTags: [TAG],
    }),
    voidLabels: build.mutation<Done<ShipmentDetail>, { shipmentId: number }>({
      query: (body) => ({ url: `${SHIPPING}/VoidLabels`, method: 'POST', body }),
      invalidatesTags: [TAG],
    }),
    shipShipments: build.mutation<Done<ShipShipmentsResult>, { shipmentIds: number[] }>({
      query: (body) => ({ url: `${SHIPPING}/Ship`, method: 'POST', body }),
      invalidatesTags: [TAG],
    }),
    closeDay: build.mutation<Done<ManifestSummary>, { warehouseId: number; carrierAccountId: number }>({
      query: (body) => ({ url: `${SHIPPING}/CloseDay`, method: 'POST', body }),
      invalidatesTags: [TAG],
    }),
    /** A client's active carrier accounts (the order form's route). */
    getCarrierAccounts: build.query<OrderCarrierAccount[], number>({ query: (customerId) => ({ url: 'Warehouse/Order/GetCarrierAccounts', params: { customerId } }) }),
    getRateTable: build.query<RateTableView, number>({
      query: (carrierAccountId) => ({ url: `${SHIPPING}/GetRateTable`, params: { carrierAccountId } }),
      providesTags: (_r, _e, id) => [{ type: 'Shipping', id: `RATES-${id}` }],
    }),
    saveRateTable: build.mutation<Done<RateTableView>, { carrierAccountId: number; definition: RateTableDefinition }>({
      query: (body) => ({ url: `${SHIPPING}/SaveRateTable`, method: 'POST', body }),
      invalidatesTags: (_r, _e, a) => [TAG, { type: 'Shipping', id: `RATES-${a.carrierAccountId}` }],
    }),
  }),
});

export const {
  useGetCarrierAccountsQuery, useGetRateTableQuery, useSaveRateTableMutation,
  useGetShippingDashboardQuery, useGetShipmentQuery, useGetShipmentTrackingQuery, useRateShopMutation, useCreateLabelsMutation, useVoidLabelsMutation, useShipShipmentsMutation, useCloseDayMutation,
} = shippingApi;

/** The printable files, downloaded with the session's token. */
export const shippingFiles = {
  labels: (shipmentIds: number[], format: 'pdf' | 'zpl' = 'pdf', kind: 'carrier' | 'sscc' = 'carrier'): DownloadRequest => ({
    url: `${SHIPPING}/Labels`, params: { shipmentIds: shipmentIds.join(','), format, kind },
  }),
  manifest: (manifestId: number, format: 'pdf' | 'csv'): DownloadRequest => ({ url: `${SHIPPING}/Manifest`, params: { manifestId, format } }),
};
