import type {
  ApplyAbcResult, JobTrackingRequest, JobTrackingResult, LabourShift, QueuedJobResult, ReportArea, ReportFilters, ReportFormat, ReportKey, ReportResult, ReportSubscription, SavedReportView,
  SubscribeReportInput,
} from '@bolx/contracts';
import { baseApi } from './base-api';
import { liveAll, reloadOn } from '../hub/live-list';

type ReportArgs = { area: ReportArea; report: ReportKey; filters: ReportFilters };

/** The report screens' calls: one report at a time, the user's saved views, and labour punches. */
export const reportsApi = baseApi.enhanceEndpoints({ addTagTypes: ['ReportViews', 'LabourShifts', 'Reports', 'ReportSubscriptions'] }).injectEndpoints({
  endpoints: (build) => ({
    getReport: build.query<ReportResult, { area: ReportArea; report: ReportKey; filters: ReportFilters }>({
      query: ({ area, report, filters }) => ({ url: `Warehouse/${area}/GetReport`, method: 'POST', body: { report, filters } }),
      providesTags: ['LabourShifts', 'Reports'],
      // Stock and receiving reports stay live as the lists they replaced were: read again when the hub says they moved.
      onCacheEntryAdded: liveAll<ReportArgs>(
        reloadOn<'ReceiveInventoryData', ReportArgs>('ReceiveInventoryData', (_e, a) => a.area === 'InventoryReport'),
        reloadOn<'ReceiveReceivingData', ReportArgs>('ReceiveReceivingData', (_e, a) => a.area === 'InboundReport'),
      ),
    }),
    /**
     * /JobTracking: read again whenever a task of any kind changes in the user's scope — waves and pick jobs (the
     * warehouse's staff hear those), and the documents a client account hears too (orders, receipts, counts, ...).
     */
    getJobBoard: build.query<JobTrackingResult, JobTrackingRequest>({
      query: (body) => ({ url: 'Warehouse/JobTracking/GetBoard', method: 'POST', body }),
      onCacheEntryAdded: liveAll(
        reloadOn('ReceiveWaveData'), reloadOn('ReceiveOrderData'), reloadOn('ReceiveReceivingData'), reloadOn('ReceiveCycleCountData'),
        reloadOn('ReceiveReplenishmentData'), reloadOn('ReceiveKitData'), reloadOn('ReceiveRmaData'),
      ),
    }),
    /** Store the SKU velocity report's ABC classes on the SKUs; the report shows them as the SKUs' classes after. */
    applyAbcClasses: build.mutation<{ message: string; data: ApplyAbcResult }, { filters: ReportFilters }>({
      query: (body) => ({ url: 'Warehouse/OtherReport/ApplyAbcClasses', method: 'POST', body }),
      invalidatesTags: ['Reports'],
    }),
    getReportViews: build.query<SavedReportView[], ReportKey>({
      query: (report) => ({ url: 'Warehouse/Report/GetReportViews', params: { report } }),
      providesTags: (_r, _e, report) => [{ type: 'ReportViews', id: report }],
    }),
    saveReportView: build.mutation<{ message: string; data: SavedReportView }, { report: ReportKey; name: string; filters: ReportFilters }>({
      query: (body) => ({ url: 'Warehouse/Report/SaveReportView', method: 'POST', body }),
      invalidatesTags: (_r, _e, a) => [{ type: 'ReportViews', id: a.report }],
    }),
    deleteReportView: build.mutation<{ message: string }, { viewId: number; report: ReportKey }>({
      query: ({ viewId }) => ({ url: 'Warehouse/Report/DeleteReportView', method: 'POST', body: { viewId } }),
      invalidatesTags: (_r, _e, a) => [{ type: 'ReportViews', id: a.report }],
    }),
    /** A report past the on-screen range, run as a background job; its progress comes over the hub (ReceiveJobData). */
    runReportJob: build.mutation<{ message: string; data: QueuedJobResult }, { area: ReportArea; report: ReportKey; filters: ReportFilters; format: ReportFormat }>({
      query: ({ area, ...body }) => ({ url: `Warehouse/${area}/RunReportJob`, method: 'POST', body }),
    }),
    getReportSubscriptions: build.query<ReportSubscription[], void>({
      query: () => ({ url: 'Warehouse/Report/GetReportSubscriptions' }),
      providesTags: ['ReportSubscriptions'],
    }),
    subscribeReport: build.mutation<{ message: string; data: ReportSubscription }, SubscribeReportInput>({
      query: (body) => ({ url: 'Warehouse/Report/SubscribeReport', method: 'POST', body }),
      invalidatesTags: ['ReportSubscriptions'],
    }),
    cancelReportSubscription: build.mutation<{ message: string }, number>({
      query: (subscriptionId) => ({ url: 'Warehouse/Report/CancelReportSubscription', method: 'POST', body: { subscriptionId } }),
      invalidatesTags: ['ReportSubscriptions'],
    }),
    getShifts: build.query<LabourShift[], { warehouseId?: number; open?: boolean }>({
      query: ({ warehouseId, open }) => ({ url: 'Warehouse/Labor/GetShifts', params: { ...(warehouseId ? { warehouseId } : {}), ...(open ? { open: 'true' } : {}) } }),
      providesTags: ['LabourShifts'],
    }),
    punch: build.mutation<{ message: string; data: LabourShift | null }, { warehouseId: number; punch: 'clock-in' | 'clock-out' | 'break-start' | 'break-end' }>({
      query: (body) => ({ url: 'Warehouse/Labor/Punch', method: 'POST', body }),
      invalidatesTags: ['LabourShifts'],
    }),
  }),
});

export const {
  useGetReportQuery, useGetJobBoardQuery, useApplyAbcClassesMutation, useGetReportViewsQuery, useSaveReportViewMutation, useDeleteReportViewMutation, useGetShiftsQuery, usePunchMutation,
  useRunReportJobMutation, useGetReportSubscriptionsQuery, useSubscribeReportMutation, useCancelReportSubscriptionMutation,
} = reportsApi;
