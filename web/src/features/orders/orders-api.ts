import type { z } from 'zod';
import type {
  AllocationResult, createWorkOrderForOrderLineInput, BackorderLine, CreateOrderInput, OrderBatchInput, OrderBatchResult, OrderCarrierAccount, OrderDetail, OrderFilters, OrderSummary,
  SkuPackage, orderIntakeResult, orderStatusCounts,
} from '@bolx/contracts';
import type { ListPage, ListRequest } from '../../components/data-table/list-args';
import { baseApi } from '../../lib/api/base-api';
import { keyed } from '../../lib/api/keyed';
import { liveList } from '../../lib/hub/live-list';
import './messages';

export const O = 'Warehouse/Order';

export type OrderStatusCounts = z.infer<typeof orderStatusCounts>;
export type OrderIntakeResult = z.infer<typeof orderIntakeResult>;
type Done<T> = { message: string; data: T };

const LIST = { type: 'Order', id: 'LIST' } as const;
const BACKORDERS = { type: 'Order', id: 'BACKORDERS' } as const;
const one = (id: number) => ({ type: 'Order' as const, id });
/** A batch moves the orders' rows, the counts and /BKO, and each order's drawer (by filters: any order's). */
const batchChanged = (arg: OrderBatchInput) => (arg.orderIds ? [LIST, BACKORDERS, ...arg.orderIds.map(one)] : ['Order' as const]);

const orderIdOf = (payload: unknown) => Number((payload as { orderId?: unknown } | null)?.orderId);

/** Another user's intake, allocation or status move: the lists and counts reload (only the server can place them). */
const liveOrders = liveList<'ReceiveOrderData', unknown, unknown>({ event: 'ReceiveOrderData', idOf: () => 0, toChange: () => 'reload' });
/** The open order follows the events of that order. */
const liveOrder = liveList<'ReceiveOrderData', unknown, number>({
  event: 'ReceiveOrderData',
  idOf: () => 0,
  isFiltered: () => false,
  toChange: (event, id) => (orderIdOf(event.payload) === id ? 'reload' : null),
});

/** Every /Warehouse/Order call of the Order Dashboard and /BKO. */
export const ordersApi = baseApi.enhanceEndpoints({ addTagTypes: ['Order', 'Kit'] }).injectEndpoints({
  endpoints: (build) => ({
    getOrders: build.query<ListPage<OrderSummary>, ListRequest>({
      query: (body) => ({ url: `${O}/GetOrders`, method: 'POST', body }),
      providesTags: (res) => [LIST, ...(res?.items ?? []).map((o) => one(o.orderId))],
      onCacheEntryAdded: liveOrders,
    }),
    getOrderStatusCounts: build.query<OrderStatusCounts, { filters: Omit<OrderFilters, 'status'> }>({
      query: (body) => ({ url: `${O}/GetOrderStatusCounts`, method: 'POST', body }),
      providesTags: [LIST],
      onCacheEntryAdded: liveOrders,
    }),
    getOrder: build.query<OrderDetail, number>({
      query: (orderId) => ({ url: `${O}/GetOrder`, params: { orderId } }),
      providesTags: (_r, _e, id) => [one(id)],
      onCacheEntryAdded: liveOrder,
    }),
    getCarrierAccounts: build.query<OrderCarrierAccount[], number>({
      query: (customerId) => ({ url: `${O}/GetCarrierAccounts`, params: { customerId } }),
    }),
    /** A SKU's package levels, for an order line's package level (read under the SKU module, as the SKU dropdown). */
    getSkuPackages: build.query<SkuPackage[], number>({
      query: (skuId) => ({ url: 'warehouse/Sku/GetSkuPackagesbySkuid', params: { skuid: skuId } }),
    }),
    createOrder: build.mutation<Done<OrderIntakeResult>, CreateOrderInput>({
      query: (body) => ({ url: `${O}/CreateOrder`, method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    /** One order's moves from its drawer (the bulk ones below take many). */
    holdOrder: build.mutation<Done<OrderSummary>, { orderId: number; reason?: string }>({
      query: (body) => ({ url: `${O}/HoldOrder`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => [LIST, BACKORDERS, one(arg.orderId)],
    }),
    releaseHold: build.mutation<Done<OrderSummary>, { orderId: number; reason?: string }>({
      query: (body) => ({ url: `${O}/ReleaseHold`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => [LIST, BACKORDERS, one(arg.orderId)],
    }),
    cancelOrder: build.mutation<Done<OrderSummary>, { orderId: number; reason?: string }>({
      query: (body) => ({ url: `${O}/CancelOrder`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => [LIST, BACKORDERS, one(arg.orderId)],
    }),
    allocateOrders: build.mutation<AllocationResult, OrderBatchInput>({
      query: (body) => ({ url: `${O}/AllocateOrders`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => batchChanged(arg),
    }),
    unallocateOrders: build.mutation<OrderBatchResult, OrderBatchInput>({
      query: (body) => ({ url: `${O}/UnallocateOrders`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => batchChanged(arg),
    }),
    holdOrders: build.mutation<OrderBatchResult, OrderBatchInput>({
      query: (body) => ({ url: `${O}/HoldOrders`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => batchChanged(arg),
    }),
    releaseHolds: build.mutation<OrderBatchResult, OrderBatchInput>({
      query: (body) => ({ url: `${O}/ReleaseHolds`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => batchChanged(arg),
    }),
    cancelOrders: build.mutation<OrderBatchResult, OrderBatchInput>({
      query: (body) => ({ url: `${O}/CancelOrders`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => batchChanged(arg),
    }),
    /** "Build kits" on an order's kit line: a Build work order for the kits it misses (the Kit Dashboard's route). */
    createWorkOrderForOrderLine: build.mutation<Done<{ workOrderId: number; woNumber: string }>, z.infer<typeof createWorkOrderForOrderLineInput> & { orderId: number; idempotencyKey: string }>({
      query: ({ orderId: _orderId, ...a }) => keyed('Warehouse/Kit/CreateWorkOrderForOrderLine', a),
      invalidatesTags: (_r, _e, arg) => [one(arg.orderId), 'Kit', 'Dashboard'],
    }),
    getBackorders: build.query<ListPage<BackorderLine>, ListRequest>({
      query: (body) => ({ url: `${O}/GetBackorders`, method: 'POST', body }),
      providesTags: [BACKORDERS],
      onCacheEntryAdded: liveOrders,
    }),
  }),
});

export const {
  useGetOrdersQuery, useGetOrderStatusCountsQuery, useGetOrderQuery, useGetCarrierAccountsQuery, useGetSkuPackagesQuery, useCreateOrderMutation, useHoldOrderMutation, useReleaseHoldMutation,
  useCancelOrderMutation,
  useAllocateOrdersMutation, useUnallocateOrdersMutation, useHoldOrdersMutation, useReleaseHoldsMutation, useCancelOrdersMutation, useGetBackordersQuery,
  useCreateWorkOrderForOrderLineMutation,
} = ordersApi;
