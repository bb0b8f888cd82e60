import type { z } from 'zod';
import type {
  FilterLabel, adjustmentResult, adjustmentRow, cycleCountDetail, cycleCountSchema, expiringLotRow,
  generateTasksResult, palletRow, replenishmentRuleRow, replenishmentTaskRow,
  stockMovementResult, stockRow, ADJUSTMENT_REASONS,
} from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';
import { keyed, type Keyed } from '../../lib/api/keyed';
import { liveAll, reloadOn } from '../../lib/hub/live-list';
import type { ListPage, ListRequest } from '../../components/data-table/list-args';
import './messages';

export type StockRow = z.infer<typeof stockRow>;
export type PalletRow = z.infer<typeof palletRow>;
export type AdjustmentRow = z.infer<typeof adjustmentRow>;
export type AdjustmentResult = z.infer<typeof adjustmentResult>;
export type CycleCount = z.infer<typeof cycleCountSchema>;
export type CycleCountDetail = z.infer<typeof cycleCountDetail>;
export type CycleCountLine = CycleCountDetail['lines'][number];
export type ReplenishmentRule = z.infer<typeof replenishmentRuleRow>;
export type ReplenishmentTask = z.infer<typeof replenishmentTaskRow>;
export type ExpiringLot = z.infer<typeof expiringLotRow>;
export type Movement = z.infer<typeof stockMovementResult>;
export type ReasonCode = (typeof ADJUSTMENT_REASONS)[number];

type Answer<T> = { message: string; data: T };

export interface Place { warehouseId: number; customerId: number; skuId: number; locationId: number; lot?: string; pallet?: string }

const api = baseApi.enhanceEndpoints({ addTagTypes: ['Stock', 'Pallet', 'Adjustment', 'CycleCount', 'Replenishment', 'StockReport'] });

/** Everything a stock change can alter: lists, reports, the dashboard tiles. */
const STOCK_TAGS = ['Stock', 'Pallet', 'StockReport', 'Replenishment', 'Dashboard'] as const;

/** Lists of stock fetch again (debounced) when the hub reports stock changed in the user's scope. */
const liveStock = reloadOn('ReceiveInventoryData');
/** A cycle count's sheet follows the events of that count. */
const liveCountSheet = reloadOn<'ReceiveCycleCountData', number>('ReceiveCycleCountData', (e, id) => e.payload.cycleCountId === id);
/** Rules show each pick face's on-hand and whether it is below its minimum: stock changes move them too. */
const liveRules = liveAll(reloadOn('ReceiveReplenishmentData'), liveStock);

const list = (url: string) => (body: ListRequest) => ({ url, method: 'POST', body }) as const;
type ListArgs = ListRequest;

export const inventoryApi = api.injectEndpoints({
  endpoints: (build) => ({
    // ---- stock on hand and moves
    getStockOnHand: build.query<ListPage<StockRow>, ListArgs>({ query: list('Warehouse/Inventory/GetStockOnHand'), providesTags: ['Stock'], onCacheEntryAdded: liveStock }),
    moveItems: build.mutation<Answer<Movement>, Keyed<Place & { toLocationId: number; quantity: number; note?: string }>>({
      query: (a) => keyed('Warehouse/Move/MoveItems', a),
      invalidatesTags: [...STOCK_TAGS],
    }),
    getPallets: build.query<ListPage<PalletRow>, ListArgs>({ query: list('Warehouse/MovePallet/GetPallets'), providesTags: ['Pallet'], onCacheEntryAdded: liveStock }),
    movePallet: build.mutation<Answer<Movement>, Keyed<{ warehouseId: number; pallet: string; fromLocationId: number; toLocationId: number; note?: string }>>({
      query: (a) => keyed('Warehouse/MovePallet/MovePallet', a),
      invalidatesTags: [...STOCK_TAGS],
    }),

    // ---- adjustments
    getReasonCodes: build.query<{ code: ReasonCode; name: string }[], void>({ query: () => 'Warehouse/Adjustment/GetReasonCodes' }),
    getAdjustments: build.query<ListPage<AdjustmentRow>, ListArgs>({ query: list('Warehouse/Adjustment/GetAdjustments'), providesTags: ['Adjustment'], onCacheEntryAdded: reloadOn('ReceiveAdjustmentData') }),
    getAdjustmentFilters: build.query<FilterLabel[], void>({ query: () => 'Warehouse/Adjustment/AdjustmentFiltersLabels' }),
    createAdjustment: build.mutation<Answer<AdjustmentResult>, Keyed<Place & { quantityChange: number; reasonCode: ReasonCode; expiryDate?: string; note?: string }>>({
      query: (a) => keyed('Warehouse/Adjustment/CreateAdjustment', a),
      invalidatesTags: ['Adjustment', ...STOCK_TAGS],
    }),
    approveAdjustment: build.mutation<Answer<AdjustmentResult>, Keyed<{ adjustmentId: number; note?: string }>>({
      query: (a) => keyed('Warehouse/Adjustment/ApproveAdjustment', a),
      invalidatesTags: ['Adjustment', ...STOCK_TAGS],
    }),
    rejectAdjustment: build.mutation<Answer<{ adjustmentId: number }>, Keyed<{ adjustmentId: number; note?: string }>>({
      query: (a) => keyed('Warehouse/Adjustment/RejectAdjustment', a),
      invalidatesTags: ['Adjustment'],
    }),

    // ---- cycle counts
    getCycleCounts: build.query<ListPage<CycleCount>, ListArgs>({ query: list('Warehouse/CycleCount/GetCycleCounts'), providesTags: ['CycleCount'], onCacheEntryAdded: reloadOn('ReceiveCycleCountData') }),
    getCycleCountFilters: build.query<FilterLabel[], void>({ query: () => 'Warehouse/CycleCount/CycleCountFiltersLabels' }),
    getCycleCountLines: build.query<CycleCountDetail, number>({
      query: (cycleCountId) => ({ url: 'Warehouse/CycleCount/GetCycleCountLines', params: { cycleCountId } }),
      providesTags: (_r, _e, id) => [{ type: 'CycleCount', id }],
      onCacheEntryAdded: liveCountSheet,
    }),
    createCycleCount: build.mutation<Answer<CycleCountDetail>, Keyed<Record<string, unknown>>>({
      query: (a) => keyed('Warehouse/CycleCount/CreateCycleCount', a),
      invalidatesTags: ['CycleCount'],
    }),
    enterCounts: build.mutation<Answer<CycleCountDetail>, Keyed<{ cycleCountId: number; counts: { lineId: number; quantity: number }[] }>>({
      query: (a) => keyed('Warehouse/CycleCount/EnterCounts', a),
      invalidatesTags: (_r, _e, a) => ['CycleCount', { type: 'CycleCount', id: a.cycleCountId }],
    }),
    approveCycleCount: build.mutation<Answer<Movement>, Keyed<{ cycleCountId: number; overrideReason?: string }>>({
      query: (a) => keyed('Warehouse/CycleCount/ApproveCycleCount', a),
      invalidatesTags: (_r, _e, a) => ['CycleCount', { type: 'CycleCount', id: a.cycleCountId }, ...STOCK_TAGS],
    }),
    cancelCycleCount: build.mutation<Answer<{ cycleCountId: number }>, Keyed<{ cycleCountId: number }>>({
      query: (a) => keyed('Warehouse/CycleCount/CancelCycleCount', a),
      invalidatesTags: (_r, _e, a) => ['CycleCount', { type: 'CycleCount', id: a.cycleCountId }],
    }),

    // ---- replenishment
    getReplenishmentRules: build.query<ListPage<ReplenishmentRule>, ListArgs>({ query: list('Warehouse/Replenishment/GetReplenishmentRules'), providesTags: ['Replenishment'], onCacheEntryAdded: liveRules }),
    getReplenishmentTasks: build.query<ListPage<ReplenishmentTask>, ListArgs>({ query: list('Warehouse/Replenishment/GetReplenishmentTasks'), providesTags: ['Replenishment'], onCacheEntryAdded: reloadOn('ReceiveReplenishmentData') }),
    getReplenishmentTaskFilters: build.query<FilterLabel[], void>({ query: () => 'Warehouse/Replenishment/ReplenishmentTaskFiltersLabels' }),
    saveReplenishmentRule: build.mutation<Answer<ReplenishmentRule>, Keyed<{ warehouseId: number; customerId: number; skuId: number; locationId: number; minQty: number; maxQty: number; isActive: boolean }>>({
      query: (a) => keyed('Warehouse/Replenishment/SaveReplenishmentRule', a),
      invalidatesTags: ['Replenishment'],
    }),
    generateTasks: build.mutation<Answer<z.infer<typeof generateTasksResult>>, Keyed<{ warehouseId: number; customerId?: number }>>({
      query: (a) => keyed('Warehouse/Replenishment/GenerateTasks', a),
      invalidatesTags: ['Replenishment', ...STOCK_TAGS],
    }),
    completeTask: build.mutation<Answer<Movement>, Keyed<{ taskId: number; quantity?: number }>>({
      query: (a) => keyed('Warehouse/Replenishment/CompleteTask', a),
      invalidatesTags: ['Replenishment', ...STOCK_TAGS],
    }),
    cancelTask: build.mutation<Answer<{ taskId: number }>, Keyed<{ taskId: number }>>({
      query: (a) => keyed('Warehouse/Replenishment/CancelTask', a),
      invalidatesTags: ['Replenishment', ...STOCK_TAGS],
    }),

    // ---- expiry and reports
    getExpiringLots: build.query<ListPage<ExpiringLot>, ListArgs>({ query: list('Warehouse/Inventory/GetExpiringLots'), providesTags: ['StockReport'], onCacheEntryAdded: liveStock }),
  }),
});

export const {
  useGetStockOnHandQuery, useMoveItemsMutation, useGetPalletsQuery, useMovePalletMutation,
  useGetReasonCodesQuery, useGetAdjustmentsQuery, useGetAdjustmentFiltersQuery, useCreateAdjustmentMutation, useApproveAdjustmentMutation, useRejectAdjustmentMutation,
  useGetCycleCountsQuery, useGetCycleCountFiltersQuery, useGetCycleCountLinesQuery, useCreateCycleCountMutation, useEnterCountsMutation,
  useApproveCycleCountMutation, useCancelCycleCountMutation,
  useGetReplenishmentRulesQuery, useGetReplenishmentTasksQuery, useGetReplenishmentTaskFiltersQuery, useSaveReplenishmentRuleMutation,
  useGenerateTasksMutation, useCompleteTaskMutation, useCancelTaskMutation,
  useGetExpiringLotsQuery,
} = inventoryApi;
