import type { z } from 'zod';
import type { CreateWorkOrderInput, kitAvailability, workOrderDetail, workOrderSummary } from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';
import { liveAll, reloadOn } from '../../lib/hub/live-list';
import type { ListPage, ListRequest } from '../../components/data-table/list-args';
import './messages';

export type KitAvailability = z.infer<typeof kitAvailability>;
export type WorkOrder = z.infer<typeof workOrderSummary>;
export type WorkOrderDetail = z.infer<typeof workOrderDetail>;

/** Every work order call carries the user action's Idempotency-Key, so a double submit builds once. */
type Keyed<A> = A & { idempotencyKey: string };
type Answer<T> = { message: string; data: T };
const keyed = <A extends { idempotencyKey: string }>(url: string, { idempotencyKey, ...body }: A) => ({
  url, method: 'POST', body, headers: { 'Idempotency-Key': idempotencyKey },
});
const list = (url: string) => (body: ListRequest) => ({ url, method: 'POST', body }) as const;

const api = baseApi.enhanceEndpoints({ addTagTypes: ['Kit'] });
/** Both lists follow work orders and any stock change (components arriving change what can be built). */
const live = liveAll(reloadOn('ReceiveKitData'), reloadOn('ReceiveInventoryData'));

export const kitsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getKitAvailability: build.query<ListPage<KitAvailability>, ListRequest>({ query: list('Warehouse/Kit/GetKitAvailability'), providesTags: ['Kit'], onCacheEntryAdded: live }),
    getWorkOrders: build.query<ListPage<WorkOrder>, ListRequest>({ query: list('Warehouse/Kit/GetWorkOrders'), providesTags: ['Kit'], onCacheEntryAdded: live }),
    createWorkOrder: build.mutation<Answer<WorkOrderDetail>, Keyed<CreateWorkOrderInput>>({
      query: (a) => keyed('Warehouse/Kit/CreateWorkOrder', a), invalidatesTags: ['Kit', 'Dashboard'],
    }),
    completeWorkOrder: build.mutation<Answer<WorkOrderDetail>, Keyed<{ workOrderId: number }>>({
      query: (a) => keyed('Warehouse/Kit/CompleteWorkOrder', a), invalidatesTags: ['Kit', 'Dashboard'],
    }),
    cancelWorkOrder: build.mutation<Answer<WorkOrderDetail>, Keyed<{ workOrderId: number }>>({
      query: (a) => keyed('Warehouse/Kit/CancelWorkOrder', a), invalidatesTags: ['Kit', 'Dashboard'],
    }),
  }),
});

export const {
  useGetKitAvailabilityQuery, useGetWorkOrdersQuery, useCreateWorkOrderMutation, useCompleteWorkOrderMutation, useCancelWorkOrderMutation,
} = kitsApi;
