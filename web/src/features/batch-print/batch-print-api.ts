import type { OrderSummary, PickJobSummary } from '@bolx/contracts';
import type { ListPage, ListRequest } from '../../components/data-table/list-args';
import type { DownloadRequest } from '../../lib/api/download';
import { baseApi } from '../../lib/api/base-api';
import { liveAll, reloadOn } from '../../lib/hub/live-list';
import './messages';

const list = (url: string) => (body: ListRequest) => ({ url, method: 'POST', body }) as const;

/** The lists /BatchPrint chooses from: the warehouse's pick jobs (live as they are assigned and picked) and orders. */
export const batchPrintApi = baseApi.enhanceEndpoints({ addTagTypes: ['BatchPrint'] }).injectEndpoints({
  endpoints: (build) => ({
    getPrintJobs: build.query<ListPage<PickJobSummary>, ListRequest>({
      query: list('Warehouse/PickJob/GetJobs'), providesTags: ['BatchPrint'], onCacheEntryAdded: liveAll(reloadOn('ReceiveWaveData')),
    }),
    getPrintOrders: build.query<ListPage<OrderSummary>, ListRequest>({
      query: list('Warehouse/Order/GetOrders'), providesTags: ['BatchPrint'], onCacheEntryAdded: liveAll(reloadOn('ReceiveOrderData')),
    }),
  }),
});

export const { useGetPrintJobsQuery, useGetPrintOrdersQuery } = batchPrintApi;

const P = 'Warehouse/BatchPrint';
/** The PDFs, downloaded (never cached: a Blob is not serialisable). */
export const printFiles = {
  pickLists: (body: { jobIds: number[] }): DownloadRequest => ({ url: `${P}/PickLists`, method: 'POST', body }),
  packingSlips: (body: { jobIds: number[] } | { orderIds: number[] }): DownloadRequest => ({ url: `${P}/PackingSlips`, method: 'POST', body }),
  packingSlip: (orderId: number): DownloadRequest => ({ url: `${P}/PackingSlip`, params: { orderId } }),
};
