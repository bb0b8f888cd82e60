import type { z } from 'zod';
import type {
  CartonType, CheckPickScanResult, ConfirmPickInput, DockLocation, PackItemResult, PackOrderView, PickJobDetail, PickResult, assignTotesInput, cartonTypeInput,
  closeCartonInput, openCartonInput, openPackInput, packItemInput, unpackItemInput,
} from '@bolx/contracts';
import type { ListPage } from '../../components/data-table/list-args';
import { baseApi } from '../../lib/api/base-api';
import { keyed, type Keyed } from '../../lib/api/keyed';
import type { ShortPickInput } from './pick-steps';
import './messages';

const PJ = 'Warehouse/PickJob';
const PACK = 'Warehouse/Pack';

export type { PickResult, PackItemResult };
export type PackResult = { message: string; order: PackOrderView };
type In<S extends z.ZodType> = z.input<S>;

const CARTON_TYPES = { type: 'CartonType', id: 'LIST' } as const;

/**
 * The picking screen's and the pack station's calls; those that move stock carry their scan's Idempotency-Key, so
 * a scan sent again after the Wi-Fi lost its answer is answered from the first instead of picking or packing twice.
 * A scan's answer carries what it changed (a pick: the stops, the job's totals; a pack: the carton line and order
 * line), which the screen merges into the job or order it read once, so it shows what the server says after each
 * scan without refetching; the station's other answers carry the whole order. Nothing here is cached across screens
 * except the carton types.
 */
export const handheldApi = baseApi.enhanceEndpoints({ addTagTypes: ['CartonType'] }).injectEndpoints({
  endpoints: (build) => ({
    getPickJob: build.query<PickJobDetail, number>({
      query: (jobId) => ({ url: `${PJ}/GetJob`, params: { jobId } }),
      keepUnusedDataFor: 0,
    }),
    assignTotes: build.mutation<unknown, In<typeof assignTotesInput>>({
      query: (body) => ({ url: `${PJ}/AssignTotes`, method: 'POST', body }),
    }),
    /** The next open job for this picker; the answer names the job (its shape differs between answers, see jobIdOf). */
    pickerTakeNextJob: build.mutation<unknown, { warehouseId: number }>({
      query: (body) => ({ url: `${PJ}/TakeNextJob`, method: 'POST', body }),
    }),
    checkPickScan: build.mutation<CheckPickScanResult, { jobId: number; stopSeq: number; step: 'location' | 'item' | 'lot' | 'tote'; code: string }>({
      query: (body) => ({ url: `${PJ}/CheckPickScan`, method: 'POST', body }),
    }),
    confirmPick: build.mutation<PickResult, Keyed<ConfirmPickInput>>({
      query: (a) => keyed(`${PJ}/ConfirmPick`, a),
    }),
    shortPick: build.mutation<PickResult, Keyed<ShortPickInput>>({
      query: (a) => keyed(`${PJ}/ShortPick`, a),
    }),
    undoPick: build.mutation<PickResult, Keyed<{ jobId: number }>>({
      query: (a) => keyed(`${PJ}/UndoPick`, a),
    }),
    /** The warehouse's active staging and dock locations a pack station may stand at (the receiving list's). */
    getPackStationLocations: build.query<DockLocation[], number>({
      query: (warehouseId) => ({ url: 'Warehouse/Receiving/GetDockLocations', method: 'GET', params: { warehouseId } }),
      transformResponse: (rows: DockLocation[]) => rows.filter((r) => r.locationType === 'staging' || r.locationType === 'dock'),
    }),
    /** An order named in the URL (?order=): its SO number opens the pack station on it. */
    getOrderForPack: build.query<{ orderId: number; soNumber: string; warehouseId: number }, number>({
      query: (orderId) => ({ url: 'Warehouse/Order/GetOrder', params: { orderId } }),
      keepUnusedDataFor: 0,
    }),
    getCartonTypes: build.query<ListPage<CartonType>, { warehouseId: number; active?: boolean }>({
      query: ({ warehouseId, active }) => ({
        url: `${PACK}/GetCartonTypes`, method: 'POST',
        body: { filters: { warehouseId, ...(active !== undefined ? { active } : {}) }, pageNumber: 1, pageSize: 200 },
      }),
      providesTags: [CARTON_TYPES],
    }),
    saveCartonType: build.mutation<{ message: string }, In<typeof cartonTypeInput>>({
      query: (body) => ({ url: `${PACK}/SaveCartonType`, method: 'POST', body }),
      invalidatesTags: [CARTON_TYPES],
    }),
    openPack: build.mutation<PackOrderView, In<typeof openPackInput>>({
      query: (body) => ({ url: `${PACK}/OpenPack`, method: 'POST', body }),
    }),
    openCarton: build.mutation<PackResult, In<typeof openCartonInput>>({
      query: (body) => ({ url: `${PACK}/OpenCarton`, method: 'POST', body }),
    }),
    packItem: build.mutation<PackItemResult, Keyed<In<typeof packItemInput>>>({
      query: (a) => keyed(`${PACK}/PackItem`, a),
    }),
    unpackItem: build.mutation<PackResult, Keyed<In<typeof unpackItemInput>>>({
      query: (a) => keyed(`${PACK}/UnpackItem`, a),
    }),
    closeCarton: build.mutation<PackResult, Keyed<In<typeof closeCartonInput>>>({
      query: (a) => keyed(`${PACK}/CloseCarton`, a),
    }),
  }),
});

export const {
  useGetPickJobQuery, useAssignTotesMutation, usePickerTakeNextJobMutation, useCheckPickScanMutation, useConfirmPickMutation,
  useShortPickMutation, useUndoPickMutation, useGetPackStationLocationsQuery, useGetOrderForPackQuery, useGetCartonTypesQuery, useSaveCartonTypeMutation,
  useOpenPackMutation, useOpenCartonMutation, usePackItemMutation, useUnpackItemMutation, useCloseCartonMutation,
} = handheldApi;
