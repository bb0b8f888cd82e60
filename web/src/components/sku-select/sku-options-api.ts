import type { Sku } from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';
import type { ListPage } from '../data-table/list-args';

/** Options offered at once: the first matches of what is typed, never the whole catalogue. */
export const SKU_OPTIONS_PAGE = 20;

export interface SkuOptionsRequest {
  /** 0 or absent: every client in the caller's scope. */
  customerId?: number;
  searchQuery: string;
}

/** The GetAllSkus body of a SKU dropdown: active SKUs matching the search, of one client when given. */
export function skuOptionsBody({ customerId, searchQuery }: SkuOptionsRequest) {
  return { filters: { ...(customerId ? { customerId } : {}), isActive: 'active' as const }, searchQuery, pageNumber: 1, pageSize: SKU_OPTIONS_PAGE };
}

/** Tagged with the SKU list, so a SKU added or edited elsewhere shows up in every open dropdown. */
export const skuOptionsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Sku'] }).injectEndpoints({
  endpoints: (build) => ({
    getSkuOptions: build.query<ListPage<Sku>, SkuOptionsRequest>({
      query: (req) => ({ url: 'warehouse/Sku/GetAllSkus', method: 'POST', body: skuOptionsBody(req) }),
      providesTags: [{ type: 'Sku', id: 'LIST' }],
    }),
  }),
});
export const { useGetSkuOptionsQuery } = skuOptionsApi;
