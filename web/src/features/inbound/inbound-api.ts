import type { z } from 'zod';
import type {
  CreateReceivingOrderInput, DockLocation, FilterLabel, ReceivingOrderDetail, ReceivingOrderSummary, UpdateReceivingOrderInput,
  putawaySuggestions, roDetailRow, roInwardRow, roLine, uploadReceivingOrderResult,
} from '@bolx/contracts';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { ListPage, ListRequest } from '../../components/data-table/list-args';
import { baseApi } from '../../lib/api/base-api';
import { keyed } from '../../lib/api/keyed';
import { liveList } from '../../lib/hub/live-list';
import './messages';

export const R = 'Warehouse/Receiving';

export type RoLine = z.infer<typeof roLine>;
export type RoDetailRow = z.infer<typeof roDetailRow>;
export type RoInwardRow = z.infer<typeof roInwardRow>;
export type PutawaySuggestions = z.infer<typeof putawaySuggestions>;
export type UploadReceivingOrderResult = z.infer<typeof uploadReceivingOrderResult>;
type Done<T> = { message: string; data: T };

/** ReceiveItem's body as the receiving panel sends it, with the Idempotency-Key of the one user action. */
export interface ReceiveItemArgs {
  idempotencyKey: string;
  receivingOrderId: number;
  scanCode: string;
  locationId: number;
  lot?: string;
  expiryDate?: string;
  pallet?: string;
  quantity: number;
  damagedQuantity: number;
  damagedLocationId?: number;
  /** The receiver confirmed a lot past its expiry (the server asked with a 409). */
  confirmExpired?: boolean;
}
/** ReceiveAsExpected's body, with the Idempotency-Key of the one user action. */
export interface ReceiveAsExpectedArgs {
  idempotencyKey: string;
  receivingOrderId: number;
  locationId: number;
  putaway: boolean;
  finalize: boolean;
  confirmExpired?: boolean;
}
export interface PutawayArgs {
  idempotencyKey: string;
  receivingOrderId: number;
  lineId: number;
  fromLocationId: number;
  toLocationId: number;
  lot: string;
  pallet: string;
  quantity: number;
}
export interface UploadRoArgs {
  warehouseId: number;
  customerId: number;
  supplier?: string;
  expectedDeliveryDate?: string;
  referenceNumber?: string;
  file: File;
}

/** The API_ERROR body a failed call answered with (an upload's row errors are in its details). */
export function errorBodyOf(error: unknown): { message?: string; details?: unknown } | undefined {
  const data = (error as FetchBaseQueryError | undefined)?.data;
  return typeof data === 'object' && data !== null ? (data as { message?: string; details?: unknown }) : undefined;
}

const LIST = { type: 'ReceivingOrder', id: 'LIST' } as const;
const REPORTS = { type: 'ReceivingOrder', id: 'REPORTS' } as const;
const one = (id: number) => ({ type: 'ReceivingOrder' as const, id });
/** Every change of an RO moves its row in the list and the reports, and its detail. */
const changed = (id: number) => [LIST, REPORTS, one(id)];

/** The RO's id in a hub event's payload (the RO summary). */
const roIdOf = (payload: unknown) => Number((payload as { receivingOrderId?: unknown } | null)?.receivingOrderId);

/** Another tab's or user's receipt, putaway or status change: the lists reload (their totals moved). */
const liveRoList = liveList<'ReceiveReceivingData', ReceivingOrderSummary, ListRequest>({
  event: 'ReceiveReceivingData',
  idOf: (o) => o.receivingOrderId,
  toChange: () => 'reload',
});
/** The open RO follows the events of that RO. */
const liveRo = liveList<'ReceiveReceivingData', unknown, number>({
  event: 'ReceiveReceivingData',
  idOf: () => 0,
  isFiltered: () => false,
  toChange: (event, id) => (roIdOf(event.payload) === id ? 'reload' : null),
});

/** Every /Warehouse/Receiving call: receiving orders, receipts, putaway, documents and the RO reports. */
export const inboundApi = baseApi.enhanceEndpoints({ addTagTypes: ['ReceivingOrder'] }).injectEndpoints({
  endpoints: (build) => ({
    getReceivingOrders: build.query<ListPage<ReceivingOrderSummary>, ListRequest>({
      query: (body) => ({ url: `${R}/GetReceivingOrders`, method: 'POST', body }),
      providesTags: (res) => [LIST, ...(res?.items ?? []).map((o) => one(o.receivingOrderId))],
      onCacheEntryAdded: liveRoList,
    }),
    getReceivingOrderFilterLabels: build.query<FilterLabel[], void>({
      query: () => `${R}/ReceivingOrderFiltersLabels`,
    }),
    getReceivingOrderById: build.query<ReceivingOrderDetail, number>({
      query: (receivingOrderId) => ({ url: `${R}/GetReceivingOrderById`, params: { receivingOrderId } }),
      providesTags: (_res, _err, id) => [one(id)],
      onCacheEntryAdded: liveRo,
    }),
    createReceivingOrder: build.mutation<Done<ReceivingOrderSummary>, CreateReceivingOrderInput>({
      query: (body) => ({ url: `${R}/CreateReceivingOrder`, method: 'POST', body }),
      invalidatesTags: [LIST, REPORTS],
    }),
    updateReceivingOrder: build.mutation<Done<ReceivingOrderSummary>, UpdateReceivingOrderInput>({
      query: (body) => ({ url: `${R}/UpdateReceivingOrder`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, arg) => changed(arg.receivingOrderId),
    }),
    cancelReceivingOrder: build.mutation<Done<ReceivingOrderSummary>, { receivingOrderId: number; reason?: string }>({
      query: (body) => ({ url: `${R}/CancelReceivingOrder`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => changed(arg.receivingOrderId),
    }),
    finalizeReceivingOrder: build.mutation<Done<ReceivingOrderSummary>, { receivingOrderId: number }>({
      query: (body) => ({ url: `${R}/FinalizeReceivingOrder`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => changed(arg.receivingOrderId),
    }),
    /** One scan at the dock. The key makes a double submit (Enter twice, a retry) post once. */
    receiveItem: build.mutation<Done<{ line: RoLine; matchedBy: string }>, ReceiveItemArgs>({
      query: (a) => keyed(`${R}/ReceiveItem`, a),
      invalidatesTags: (_r, _e, arg) => changed(arg.receivingOrderId),
    }),
    /** The whole order as expected, in one request (see the server's ReceiveAsExpected). */
    receiveAsExpected: build.mutation<Done<{ lineCount: number; quantity: number }>, ReceiveAsExpectedArgs>({
      query: (a) => keyed(`${R}/ReceiveAsExpected`, a),
      invalidatesTags: (_r, _e, arg) => changed(arg.receivingOrderId),
    }),
    suggestPutaway: build.query<PutawaySuggestions, { receivingOrderId: number; lineId: number; quantity?: number; pallet?: string; lot?: string }>({
      query: (params) => ({ url: `${R}/SuggestPutaway`, params }),
      providesTags: (_res, _err, arg) => [one(arg.receivingOrderId)],
    }),
    putaway: build.mutation<Done<{ line: RoLine }>, PutawayArgs>({
      query: (a) => keyed(`${R}/Putaway`, a),
      invalidatesTags: (_r, _e, arg) => changed(arg.receivingOrderId),
    }),
    uploadReceivingOrder: build.mutation<Done<UploadReceivingOrderResult>, UploadRoArgs>({
      query: ({ file, ...fields }) => {
        const body = new FormData();
        // Fields first, the file last: the server reads the parts in order.
        for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== '') body.append(k, String(v));
        body.append('file', file, file.name);
        return { url: `${R}/UploadReceivingOrder`, method: 'POST', body };
      },
      invalidatesTags: [LIST, REPORTS],
    }),
    addReceivingOrderDocument: build.mutation<Done<ReceivingOrderSummary>, { receivingOrderId: number; file: File }>({
      query: ({ receivingOrderId, file }) => {
        const body = new FormData();
        body.append('receivingOrderId', String(receivingOrderId));
        body.append('file', file, file.name);
        return { url: `${R}/AddReceivingOrderDocument`, method: 'POST', body };
      },
      invalidatesTags: (_r, _e, arg) => [one(arg.receivingOrderId)],
    }),
    getROReport: build.query<ListPage<ReceivingOrderSummary>, ListRequest>({
      query: (body) => ({ url: `${R}/GetROReport`, method: 'POST', body }),
      providesTags: [REPORTS],
      onCacheEntryAdded: liveRoList,
    }),
    getROReportDetails: build.query<ListPage<RoDetailRow>, ListRequest>({
      query: (body) => ({ url: `${R}/GetROReportDetails`, method: 'POST', body }),
      providesTags: [REPORTS],
      onCacheEntryAdded: liveRoList,
    }),
    getROInward: build.query<ListPage<RoInwardRow>, ListRequest>({
      query: (body) => ({ url: `${R}/GetROInward`, method: 'POST', body }),
      providesTags: [REPORTS],
      onCacheEntryAdded: liveRoList,
    }),
    /** The receive panel's docks, staging and damaged-goods places (read under InBound, not the Location module). */
    getDockLocations: build.query<DockLocation[], number>({
      query: (warehouseId) => ({ url: `${R}/GetDockLocations`, method: 'GET', params: { warehouseId } }),
    }),
  }),
});

export const {
  useGetReceivingOrdersQuery, useGetReceivingOrderFilterLabelsQuery, useGetReceivingOrderByIdQuery, useCreateReceivingOrderMutation,
  useUpdateReceivingOrderMutation, useCancelReceivingOrderMutation, useFinalizeReceivingOrderMutation, useReceiveItemMutation, useReceiveAsExpectedMutation,
  useSuggestPutawayQuery, usePutawayMutation, useUploadReceivingOrderMutation, useAddReceivingOrderDocumentMutation,
  useGetROReportQuery, useGetROReportDetailsQuery, useGetROInwardQuery, useGetDockLocationsQuery,
} = inboundApi;

/** File calls (through useDownload). */
export const inboundFiles = {
  template: () => ({ url: `${R}/DownloadReceivingOrderTemplate`, method: 'GET' as const }),
  document: (documentId: number) => ({ url: `${R}/DownloadReceivingOrderDocument`, method: 'GET' as const, params: { documentId } }),
};
