import type { z } from 'zod';
import type {
  DimensionRow, FilterLabel, Hazmat, KitComponent, PackageNode, Sku, SkuAttribute, SkuBarcode, SkuPackage,
  dimensionListRequest, kitComponentInput, skuAttributeInput, skuBarcodeInput, skuInput, skuListRequest, skuPackageInput,
  updateDimensionsInput, updateKitComponentInput, updateSkuAttributeInput, updateSkuBarcodeInput, updateSkuInput,
  updateSkuPackageInput,
} from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';
import { LIVE, NOTIFY } from '../../lib/hub/live-lists';
import './messages';

/** Every SKU call lives under this base (spec section 7, SKU). */
const BASE = 'warehouse/Sku';

type Mutation<T> = { message: string; data: T };
type List<T> = { items: T[]; totalCount: number };
export type SkuListRequest = z.input<typeof skuListRequest>;
export type DimensionListRequest = z.input<typeof dimensionListRequest>;
export type SkuForm = z.input<typeof skuInput>;
export type SkuUpdate = z.input<typeof updateSkuInput>;
export type KitComponentForm = z.input<typeof kitComponentInput>;
export type KitComponentUpdate = z.input<typeof updateKitComponentInput>;
export type PackageForm = z.input<typeof skuPackageInput>;
export type PackageUpdate = z.input<typeof updateSkuPackageInput>;
export type BarcodeForm = z.input<typeof skuBarcodeInput>;
export type BarcodeUpdate = z.input<typeof updateSkuBarcodeInput>;
export type AttributeForm = z.input<typeof skuAttributeInput>;
export type AttributeUpdate = z.input<typeof updateSkuAttributeInput>;
export type DimensionsUpdate = z.input<typeof updateDimensionsInput>;

/**
 * Cache tags: one LIST tag per list and one tag per record, so a mutation refetches exactly the lists and
 * records it changed. A SKU's parts are tagged by the SKU they belong to (`{type: 'SkuBarcode', id: skuId}`),
 * since each part list is loaded per SKU.
 */
const SKU_TAGS = ['Sku', 'SkuKit', 'SkuPackage', 'SkuBarcode', 'SkuAttribute', 'Dimension'] as const;
const LIST = 'LIST' as const;
/** The filter bar's options (clients, categories) change when a SKU is added or edited. */
const FILTERS = 'FILTERS' as const;
/** A customer's kit SKUs (the kit component picker). */
const KITS = 'KITS' as const;

export const skusApi = baseApi.enhanceEndpoints({ addTagTypes: SKU_TAGS }).injectEndpoints({
  endpoints: (build) => ({
    // --- SKUs -------------------------------------------------------------------------------------------
    getSkus: build.query<List<Sku>, SkuListRequest>({
      onCacheEntryAdded: LIVE.skus,
      query: (body) => ({ url: `${BASE}/GetAllSkus`, method: 'POST', body }),
      // One tag for every cached page: a saved SKU reaches the pages through the notify flag and the hub.
      providesTags: [{ type: 'Sku', id: LIST }],
    }),
    getSkuFilterLabels: build.query<FilterLabel[], void>({
      query: () => `${BASE}/SkuFiltersLabels`,
      providesTags: [{ type: 'Sku', id: FILTERS }],
    }),
    getSku: build.query<Sku, number>({
      onCacheEntryAdded: LIVE.sku,
      query: (skuid) => ({ url: `${BASE}/GetSKUInfoById`, params: { skuid } }),
      providesTags: (_r, _e, skuid) => [{ type: 'Sku', id: skuid }],
    }),
    getUoms: build.query<{ uomCode: string; uomName: string }[], void>({
      query: () => `${BASE}/GetUOMs`,
    }),
    getHazmats: build.query<Hazmat[], void>({
      query: () => `${BASE}/GetHazmats`,
    }),
    addSku: build.mutation<Mutation<Sku>, SkuForm>({
      query: (body) => ({ url: `${BASE}/AddNewSku`, method: 'POST', body }),
      invalidatesTags: [{ type: 'Sku', id: LIST }, { type: 'Sku', id: FILTERS }, { type: 'Sku', id: KITS }, { type: 'Dimension', id: LIST }],
    }),
    updateSku: build.mutation<Mutation<Sku>, SkuUpdate>({
      query: (body) => ({ url: `${BASE}/UpdateSku`, method: 'PUT', body }),
      // The notify flag: the saved record replaces its list entries (lists with filters or a search reload), so
      // the lists are not invalidated for this tab's own edit.
      onQueryStarted: NOTIFY.sku,
      invalidatesTags: (_r, _e, arg) => [
        { type: 'Sku', id: arg.skuId }, { type: 'Sku', id: FILTERS }, { type: 'Sku', id: KITS }, { type: 'Dimension', id: LIST },
      ],
    }),

    // --- Kit components -----------------------------------------------------------------------------------
    getKitItemsByCustomer: build.query<Sku[], number>({
      query: (customerid) => ({ url: `${BASE}/GetKitItemsByCustomerid`, params: { customerid } }),
      providesTags: [{ type: 'Sku', id: KITS }],
    }),
    getKitComponents: build.query<KitComponent[], number>({
      onCacheEntryAdded: LIVE.skuKitComponents,
      query: (skuId) => ({ url: `${BASE}/GetAllKitCompBySkuId`, params: { skuId } }),
      providesTags: (_r, _e, skuId) => [{ type: 'SkuKit', id: skuId }],
    }),
    addKitComponent: build.mutation<Mutation<KitComponent>, KitComponentForm>({
      query: (body) => ({ url: `${BASE}/AddKitComponent`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'SkuKit', id: arg.kitSkuId }],
    }),
    updateKitComponent: build.mutation<Mutation<KitComponent>, KitComponentUpdate & { kitSkuId: number }>({
      query: ({ kitSkuId: _kit, ...body }) => ({ url: `${BASE}/UpdateKitComponent`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'SkuKit', id: arg.kitSkuId }],
    }),
    deleteKitComponent: build.mutation<Mutation<KitComponent>, { kitid: number; kitSkuId: number }>({
      query: ({ kitid }) => ({ url: `${BASE}/DeleteKitComponent`, method: 'DELETE', params: { kitid } }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'SkuKit', id: arg.kitSkuId }],
    }),

    // --- Packages -----------------------------------------------------------------------------------------
    getPackageTree: build.query<PackageNode[], { skuid?: number; customerid?: number }>({
      onCacheEntryAdded: LIVE.skuPackageTree,
      query: (params) => ({ url: `${BASE}/GetParentAndChildPackages`, params }),
      providesTags: (_r, _e, arg) => [{ type: 'SkuPackage', id: arg.skuid ?? LIST }],
    }),
    getPackages: build.query<SkuPackage[], number>({
      onCacheEntryAdded: LIVE.skuPackages,
      query: (skuid) => ({ url: `${BASE}/GetSkuPackagesbySkuid`, params: { skuid } }),
      providesTags: (_r, _e, skuid) => [{ type: 'SkuPackage', id: skuid }],
    }),
    addPackage: build.mutation<Mutation<SkuPackage>, PackageForm>({
      query: (body) => ({ url: `${BASE}/CreateSkuPackage`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'SkuPackage', id: arg.skuId }, { type: 'SkuPackage', id: LIST }, { type: 'Dimension', id: LIST }],
    }),
    updatePackage: build.mutation<Mutation<SkuPackage>, { SkuPackId: number; skuId: number; body: PackageUpdate }>({
      query: ({ SkuPackId, body }) => ({ url: `${BASE}/UpdateSkuPackage`, method: 'PUT', params: { SkuPackId }, body }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'SkuPackage', id: arg.skuId }, { type: 'SkuPackage', id: LIST }, { type: 'Dimension', id: LIST }],
    }),
    deletePackage: build.mutation<Mutation<SkuPackage>, { packageid: number; skuId: number }>({
      query: ({ packageid }) => ({ url: `${BASE}/DeleteSkuPackageByid`, method: 'DELETE', params: { packageid } }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'SkuPackage', id: arg.skuId }, { type: 'SkuPackage', id: LIST }, { type: 'Dimension', id: LIST }],
    }),

    // --- Barcodes -----------------------------------------------------------------------------------------
    getBarcodes: build.query<SkuBarcode[], number>({
      onCacheEntryAdded: LIVE.skuBarcodes,
      query: (skuid) => ({ url: `${BASE}/GetSkuBarcodebySkuid`, params: { skuid } }),
      providesTags: (_r, _e, skuid) => [{ type: 'SkuBarcode', id: skuid }],
    }),
    addBarcode: build.mutation<Mutation<SkuBarcode>, BarcodeForm>({
      query: (body) => ({ url: `${BASE}/CreateSkuBarcode`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'SkuBarcode', id: arg.skuId }],
    }),
    updateBarcode: build.mutation<Mutation<SkuBarcode>, { skuBarcodeId: number; skuId: number; body: BarcodeUpdate }>({
      query: ({ skuBarcodeId, body }) => ({ url: `${BASE}/UpdateSkuBarcode`, method: 'PUT', params: { skuBarcodeId }, body }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'SkuBarcode', id: arg.skuId }],
    }),
    /** The spec's spelling: DeletsSkuBarcode. */
    deleteBarcode: build.mutation<Mutation<SkuBarcode>, { barcodeid: number; skuId: number }>({
      query: ({ barcodeid }) => ({ url: `${BASE}/DeletsSkuBarcode`, method: 'DELETE', params: { barcodeid } }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'SkuBarcode', id: arg.skuId }],
    }),

    // --- Attributes -----------------------------------------------------------------------------------------
    getAttributes: build.query<SkuAttribute[], number>({
      onCacheEntryAdded: LIVE.skuAttributes,
      query: (skuid) => ({ url: `${BASE}/GetAttributesBySkuid`, params: { skuid } }),
      providesTags: (_r, _e, skuid) => [{ type: 'SkuAttribute', id: skuid }],
    }),
    addAttribute: build.mutation<Mutation<SkuAttribute>, AttributeForm>({
      query: (body) => ({ url: `${BASE}/CreateAttribute`, method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'SkuAttribute', id: arg.skuId }],
    }),
    updateAttribute: build.mutation<Mutation<SkuAttribute>, { attributeid: number; skuId: number; body: AttributeUpdate }>({
      query: ({ attributeid, body }) => ({ url: `${BASE}/UpdateAttribute`, method: 'PUT', params: { attributeid }, body }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'SkuAttribute', id: arg.skuId }],
    }),
    deleteAttribute: build.mutation<Mutation<SkuAttribute>, { attributeid: number; skuId: number }>({
      query: ({ attributeid }) => ({ url: `${BASE}/DeleteAttribute`, method: 'DELETE', params: { attributeid } }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'SkuAttribute', id: arg.skuId }],
    }),

    // --- Dimensions (/Dimensions) ---------------------------------------------------------------------------
    getDimensions: build.query<List<DimensionRow>, DimensionListRequest>({
      onCacheEntryAdded: LIVE.dimensions,
      query: (body) => ({ url: `${BASE}/GetDimensions`, method: 'POST', body }),
      providesTags: (result) => [{ type: 'Dimension', id: LIST }, ...(result?.items ?? []).map((d) => ({ type: 'Dimension' as const, id: d.uniqueId }))],
    }),
    updateDimensions: build.mutation<Mutation<{ sku: Sku; package: SkuPackage | null }>, DimensionsUpdate>({
      query: (body) => ({ url: `${BASE}/UpdateDimensions`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, arg) => [
        { type: 'Dimension', id: LIST }, { type: 'Sku', id: arg.skuId }, { type: 'Sku', id: LIST }, { type: 'SkuPackage', id: arg.skuId },
      ],
    }),
  }),
});

export const {
  useGetSkusQuery, useGetSkuFilterLabelsQuery, useGetSkuQuery, useGetUomsQuery, useGetHazmatsQuery, useAddSkuMutation, useUpdateSkuMutation,
  useGetKitItemsByCustomerQuery, useGetKitComponentsQuery, useAddKitComponentMutation, useUpdateKitComponentMutation, useDeleteKitComponentMutation,
  useGetPackageTreeQuery, useGetPackagesQuery, useAddPackageMutation, useUpdatePackageMutation, useDeletePackageMutation,
  useGetBarcodesQuery, useAddBarcodeMutation, useUpdateBarcodeMutation, useDeleteBarcodeMutation,
  useGetAttributesQuery, useAddAttributeMutation, useUpdateAttributeMutation, useDeleteAttributeMutation,
  useGetDimensionsQuery, useUpdateDimensionsMutation,
} = skusApi;

/** Where the SKU list's Excel download is posted (the filtered list, spec section 7). */
export const SKU_EXCEL_PATH = `${BASE}/DownloadSKUExcel`;
