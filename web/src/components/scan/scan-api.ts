import type { ScanResolveRequest, ScanResolveResponse } from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';

/**
 * The server's scan resolution (POST /Warehouse/Scan/Resolve): what a code is in a warehouse. Never cached — a
 * pallet's lines or a location's state may have changed since the last scan of the same code.
 */
export const scanApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    resolveScan: build.query<ScanResolveResponse, ScanResolveRequest>({
      query: (body) => ({ url: 'Warehouse/Scan/Resolve', method: 'POST', body }),
      keepUnusedDataFor: 0,
    }),
  }),
});
export const { useLazyResolveScanQuery } = scanApi;
