import type { CreatePalletInput, Pallet } from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';
import { reloadOn } from '../../lib/hub/live-list';
import type { ListPage, ListRequest } from '../../components/data-table/list-args';

const api = baseApi.enhanceEndpoints({ addTagTypes: ['PalletRegister'] });

/** The pallet register (licence plates with type, size and place): its list follows the hub's pallet events. */
export const palletRegisterApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPalletRegister: build.query<ListPage<Pallet>, ListRequest>({
      query: (body) => ({ url: 'Warehouse/Pallet/GetPallets', method: 'POST', body }), providesTags: ['PalletRegister'], onCacheEntryAdded: reloadOn('ReceivePalletData'),
    }),
    createPallet: build.mutation<{ message: string; data: { palletId: string } }, CreatePalletInput>({
      query: (body) => ({ url: 'Warehouse/Pallet/CreatePallet', method: 'POST', body }), invalidatesTags: ['PalletRegister'],
    }),
  }),
});

export const { useGetPalletRegisterQuery, useCreatePalletMutation } = palletRegisterApi;
