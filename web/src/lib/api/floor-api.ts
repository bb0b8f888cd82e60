import type {
  BatchRuleCriteria, BatchRulePreview, ConfirmShipmentResult, CreateWaveInput, HubEventMap, JobView, OrderCarrierAccount, OrderSummary, PickJobDetail, PickJobSummary,
  SavedBatchRule, UserListItem, WaveSummary, createWaveResult,
} from '@bolx/contracts';
import type { z } from 'zod';
import type { ListPage, ListRequest } from '../../components/data-table/list-args';
import { baseApi } from './base-api';
import { liveAll, liveList, reloadOn } from '../hub/live-list';
import type { LiveChange } from '../hub/list-rules';

/**
 * The floor's calls (/BatchAllocation, /BatchJob, and the order drawer's release, pick, pack and ship): shared by
 * the floor screens and the order drawer, so a wave released from either shows in the other at once.
 */

export type CreateWaveResult = z.infer<typeof createWaveResult>;
type Done<T> = { message: string; data: T };

export const WAVE = 'Warehouse/Wave';
export const PICK_JOB = 'Warehouse/PickJob';
export const BATCH_ALLOCATION = 'Warehouse/BatchAllocation';

const WAVES = { type: 'Wave', id: 'LIST' } as const;
const JOBS = { type: 'PickJob', id: 'LIST' } as const;
const RULES = { type: 'BatchRule', id: 'LIST' } as const;
const ORDERS = { type: 'Order', id: 'LIST' } as const;
const order = (id: number) => ({ type: 'Order' as const, id });

/** A hub payload as the record it carries (null for anything that is not an object). */
const recordOf = <T>(payload: unknown): T | null => (payload && typeof payload === 'object' ? (payload as T) : null);

type WaveEvent = HubEventMap['ReceiveWaveData'];

/** What a floor event means for a waves list: a wave's own event upserts it; a job's progress moves its wave's counts. */
export function waveListChange(event: WaveEvent): LiveChange<WaveSummary> | 'reload' {
  if (event.subEvent === 'UpdateJob') return 'reload';
  const wave = recordOf<WaveSummary>(event.payload);
  return wave && typeof wave.waveId === 'number' ? { type: 'upsert', item: wave } : 'reload';
}

/** What a floor event means for a jobs list: a job's event upserts it; a new or changed wave may bring or end jobs. */
export function jobListChange(event: WaveEvent): LiveChange<PickJobSummary> | 'reload' {
  if (event.subEvent !== 'UpdateJob') return 'reload';
  const job = recordOf<PickJobSummary>(event.payload);
  return job && typeof job.jobId === 'number' ? { type: 'upsert', item: job } : 'reload';
}

/** Waves: an added or changed wave carries its summary, upserted by the list rules. */
const liveWaves = liveList<'ReceiveWaveData', WaveSummary, ListRequest>({
  event: 'ReceiveWaveData',
  idOf: (w) => w.waveId,
  toChange: waveListChange,
});
/** Jobs: a changed job carries its summary; a new wave brings new jobs (only the server knows them). */
const liveJobs = liveList<'ReceiveWaveData', PickJobSummary, ListRequest>({
  event: 'ReceiveWaveData',
  idOf: (j) => j.jobId,
  toChange: jobListChange,
});

/** The orders a floor list shows follow every order event (release, pick, pack, ship). */
const liveFloorOrders = liveAll(reloadOn('ReceiveOrderData'), reloadOn('ReceiveWaveData'));

/** The most rows one floor overview fetches (the server's page size limit). */
export const FLOOR_PAGE_MAX = 500;

export const floorApi = baseApi.enhanceEndpoints({ addTagTypes: ['Wave', 'PickJob', 'BatchRule', 'Order'] }).injectEndpoints({
  endpoints: (build) => ({
    previewBatchRule: build.query<BatchRulePreview, BatchRuleCriteria>({
      query: (body) => ({ url: `${BATCH_ALLOCATION}/PreviewRule`, method: 'POST', body }),
      // Other users' allocations and releases change what a rule matches.
      providesTags: [ORDERS],
      onCacheEntryAdded: reloadOn('ReceiveOrderData'),
    }),
    /** The answer is the queued background job (its progress and summary come over the hub). */
    runBatchAllocation: build.mutation<(JobView & { message?: string }) | Done<JobView>, { criteria: BatchRuleCriteria; ruleId?: number }>({
      query: (body) => ({ url: `${BATCH_ALLOCATION}/RunBatchAllocation`, method: 'POST', body }),
      invalidatesTags: [RULES],
    }),
    getBatchRules: build.query<ListPage<SavedBatchRule>, { warehouseId?: number }>({
      query: ({ warehouseId }) => ({ url: `${BATCH_ALLOCATION}/GetRules`, method: 'POST', body: { filters: warehouseId ? { warehouseId } : {}, pageSize: 500 } }),
      providesTags: [RULES],
    }),
    saveBatchRule: build.mutation<Done<SavedBatchRule>, { ruleId?: number; name: string; criteria: BatchRuleCriteria }>({
      query: (body) => ({ url: `${BATCH_ALLOCATION}/SaveRule`, method: 'POST', body }),
      invalidatesTags: [RULES],
    }),
    deleteBatchRule: build.mutation<{ message: string }, { ruleId: number }>({
      query: (body) => ({ url: `${BATCH_ALLOCATION}/DeleteRule`, method: 'POST', body }),
      invalidatesTags: [RULES],
    }),
    /** A client's carrier accounts, for a rule's carrier (the order form reads the same route). */
    getRuleCarrierAccounts: build.query<OrderCarrierAccount[], number>({
      query: (customerId) => ({ url: 'Warehouse/Order/GetCarrierAccounts', params: { customerId } }),
    }),

    createWave: build.mutation<Done<CreateWaveResult>, CreateWaveInput>({
      query: (body) => ({ url: `${WAVE}/CreateWave`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => [WAVES, JOBS, ORDERS, ...(arg.orderIds ?? []).map(order)],
    }),
    getWaves: build.query<ListPage<WaveSummary>, ListRequest>({
      query: (body) => ({ url: `${WAVE}/GetWaves`, method: 'POST', body }),
      providesTags: [WAVES],
      onCacheEntryAdded: liveWaves,
    }),
    cancelWave: build.mutation<Done<WaveSummary>, { waveId: number; reason?: string }>({
      query: (body) => ({ url: `${WAVE}/CancelWave`, method: 'POST', body }),
      invalidatesTags: [WAVES, JOBS, ORDERS],
    }),
    getPickJobList: build.query<ListPage<PickJobSummary>, ListRequest>({
      query: (body) => ({ url: `${PICK_JOB}/GetJobs`, method: 'POST', body }),
      providesTags: [JOBS],
      onCacheEntryAdded: liveJobs,
    }),
    getPickJobDetail: build.query<PickJobDetail, number>({
      query: (jobId) => ({ url: `${PICK_JOB}/GetJob`, params: { jobId } }),
      providesTags: (_r, _e, id) => [{ type: 'PickJob', id }],
      onCacheEntryAdded: reloadOn('ReceiveWaveData', (e, jobId) => recordOf<{ jobId?: number }>(e.payload)?.jobId === jobId),
    }),
    assignPickJob: build.mutation<Done<PickJobSummary>, { jobId: number; userId?: number }>({
      query: (body) => ({ url: `${PICK_JOB}/AssignJob`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => [JOBS, WAVES, { type: 'PickJob', id: arg.jobId }],
    }),
    /** The answer names the job taken: the job itself, or a mutation answer carrying it (floor-model's jobIdOf reads both). */
    takeNextJob: build.mutation<{ message?: string; jobId?: number; data?: { jobId?: number } }, { warehouseId: number }>({
      query: (body) => ({ url: `${PICK_JOB}/TakeNextJob`, method: 'POST', body }),
      invalidatesTags: [JOBS, WAVES],
    }),
    cancelPickJob: build.mutation<Done<PickJobSummary>, { jobId: number; reason?: string }>({
      query: (body) => ({ url: `${PICK_JOB}/CancelJob`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => [JOBS, WAVES, ORDERS, { type: 'PickJob', id: arg.jobId }],
    }),

    /** The warehouse's packed orders, waiting to ship (the Ship section groups them by carrier). */
    getPackedOrders: build.query<ListPage<OrderSummary>, { warehouseId: number; customerId?: number }>({
      query: ({ warehouseId, customerId }) => ({
        url: 'Warehouse/Order/GetOrders', method: 'POST',
        body: { filters: { warehouseId, status: 'Packed', ...(customerId ? { customerId } : {}) }, pageSize: FLOOR_PAGE_MAX, sort: { field: 'soNumber', order: 'ascend' } },
      }),
      providesTags: [ORDERS],
      onCacheEntryAdded: liveFloorOrders,
    }),
    /** The warehouse's active users, to assign a job to (read under the User module: without it, no choice is offered). */
    getFloorUsers: build.query<ListPage<UserListItem>, number>({
      query: (warehouseId) => ({ url: 'Warehouse/User/GetUsers', method: 'POST', body: { filters: { warehouseId, isActive: 'active' }, pageSize: FLOOR_PAGE_MAX } }),
    }),
    confirmShipment: build.mutation<Done<ConfirmShipmentResult>, { warehouseId: number; orderIds?: number[]; carrierAccountId?: number }>({
      query: (body) => ({ url: 'Warehouse/Ship/ConfirmShipment', method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => [ORDERS, ...(arg.orderIds ?? []).map(order)],
    }),
  }),
});

export const {
  usePreviewBatchRuleQuery, useRunBatchAllocationMutation, useGetBatchRulesQuery, useSaveBatchRuleMutation, useDeleteBatchRuleMutation,
  useGetRuleCarrierAccountsQuery, useCreateWaveMutation, useGetWavesQuery, useCancelWaveMutation, useGetPickJobListQuery, useGetPickJobDetailQuery,
  useAssignPickJobMutation, useTakeNextJobMutation, useCancelPickJobMutation, useGetPackedOrdersQuery, useGetFloorUsersQuery,
  useConfirmShipmentMutation,
} = floorApi;
