import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type {
  CodeSymbology, FilterLabel, Location, LocationInput, LocationPatternInput, LocationType, PrintLabelsRequest,
  UpdateLocationInput,
} from '@bolx/contracts';
import type { ListPage, ListRequest } from '../../components/data-table/list-args';
import { baseApi } from '../../lib/api/base-api';
import { LIVE, NOTIFY } from '../../lib/hub/live-lists';
import './messages';

const L = 'warehouse/Location';

/** A list call's body (DESIGN.md, Lists; filters as contracts' LocationFilters). */
export type LocationListArgs = ListRequest;
export type LocationList = ListPage<Location>;
/** The pattern form's values as sent (the server fills its defaults). */
export type LocationPatternArgs = Partial<Pick<LocationPatternInput, 'separator' | 'padding' | 'isPickable'>> &
  Omit<LocationPatternInput, 'separator' | 'padding' | 'isPickable'>;
export interface LocationPatternPreview {
  count: number;
  limit: number;
  withinLimit: boolean;
  sample: string[];
  lastCode: string | null;
  conflicts: string[];
  conflictCount: number;
}
export type PrintLabelsArgs = Partial<Pick<PrintLabelsRequest, 'labelSize' | 'symbology'>> & Omit<PrintLabelsRequest, 'labelSize' | 'symbology'>;
/** Locations picked on a list screen and sent to /PrintLocations (router state). */
export interface PrintSelection {
  warehouseId: number;
  locationIds: number[];
  codes: string[];
}
type SingleLocationArgs = Omit<LocationInput, 'isPickable' | 'isActive'> & Partial<Pick<LocationInput, 'isPickable' | 'isActive'>>;

/** The API_ERROR body a failed call answered with (the upload's row errors are in its details). */
export function errorBodyOf(error: unknown): { message?: string; details?: unknown } | undefined {
  const data = (error as FetchBaseQueryError | undefined)?.data;
  return typeof data === 'object' && data !== null ? (data as { message?: string; details?: unknown }) : undefined;
}

const LIST = { type: 'Location', id: 'LIST' } as const;
const OTHER_LIST = { type: 'Location', id: 'OTHER_LIST' } as const;
/** The list's filter options (its zones). */
const FILTERS = { type: 'Location', id: 'FILTERS' } as const;

/** Every /warehouse/Location call. Lists and records carry `Location` tags; every write invalidates them. */
export const locationsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Location', 'LocationTypes'] }).injectEndpoints({
  endpoints: (build) => ({
    getLocationTypes: build.query<LocationType[], void>({
      query: () => `${L}/GetLocationTypes`,
      providesTags: ['LocationTypes'],
    }),
    getLocations: build.query<LocationList, LocationListArgs>({
      query: (body) => ({ url: `${L}/GetLocations`, method: 'POST', body }),
      // One tag for every cached page: a saved location reaches the pages through the notify flag and the hub.
      providesTags: [LIST],
      onCacheEntryAdded: LIVE.locations,
    }),
    getOtherLocations: build.query<LocationList, LocationListArgs>({
      query: (body) => ({ url: `${L}/GetOtherLocations`, method: 'POST', body }),
      providesTags: [OTHER_LIST],
      onCacheEntryAdded: LIVE.otherLocations,
    }),
    getLocationFilterLabels: build.query<FilterLabel[], void>({
      query: () => `${L}/LocationFiltersLabels`,
      providesTags: [FILTERS],
    }),
    getLocationById: build.query<Location, number>({
      query: (locationId) => ({ url: `${L}/GetLocationById`, params: { locationId } }),
      providesTags: (_res, _err, id) => [{ type: 'Location', id }],
      onCacheEntryAdded: LIVE.location,
    }),
    createLocation: build.mutation<{ message: string; data: Location }, SingleLocationArgs>({
      query: (body) => ({ url: `${L}/CreateLocation`, method: 'POST', body }),
      invalidatesTags: [LIST, OTHER_LIST, FILTERS],
    }),
    updateLocation: build.mutation<{ message: string; data: Location }, UpdateLocationInput>({
      query: (body) => ({ url: `${L}/UpdateLocation`, method: 'PUT', body }),
      // The notify flag: the saved record replaces its list entries (lists with filters or a search reload), so
      // the lists are not invalidated for this tab's own edit.
      onQueryStarted: NOTIFY.location,
      invalidatesTags: (_res, _err, arg) => [FILTERS, { type: 'Location', id: arg.locationId }],
    }),
    // A query, not a mutation: the preview writes nothing and is cached per pattern while the form is edited.
    previewLocationPattern: build.query<LocationPatternPreview, LocationPatternArgs>({
      query: (body) => ({ url: `${L}/PreviewLocationPattern`, method: 'POST', body }),
      providesTags: [LIST],
      keepUnusedDataFor: 5,
    }),
    createLocationsByPattern: build.mutation<{ message: string; data: { count: number; firstCode: string; lastCode: string } }, LocationPatternArgs>({
      query: (body) => ({ url: `${L}/CreateLocationsByPattern`, method: 'POST', body }),
      invalidatesTags: [LIST, OTHER_LIST, FILTERS],
    }),
    uploadLocations: build.mutation<{ message: string; data: { count: number; fileName: string } }, { warehouseId: number; file: File }>({
      query: ({ warehouseId, file }) => {
        const body = new FormData();
        body.append('warehouseId', String(warehouseId));
        body.append('file', file, file.name);
        return { url: `${L}/UploadLocations`, method: 'POST', body };
      },
      invalidatesTags: [LIST, OTHER_LIST, FILTERS],
    }),
    /** The /QRCode screen's symbol as SVG text: cacheable per text and symbology, drawn without a second request. */
    getCodeSvg: build.query<string, { text: string; symbology: CodeSymbology }>({
      query: ({ text, symbology }) => ({
        url: `${L}/GetQRCode`,
        params: { text, symbology, format: 'svg' },
        responseHandler: (res) => (res.ok ? res.text() : res.json()),
      }),
    }),
  }),
});

export const {
  useGetLocationTypesQuery, useGetLocationsQuery, useGetOtherLocationsQuery, useGetLocationFilterLabelsQuery, useGetLocationByIdQuery,
  useCreateLocationMutation, useUpdateLocationMutation, usePreviewLocationPatternQuery, useCreateLocationsByPatternMutation,
  useUploadLocationsMutation, useGetCodeSvgQuery,
} = locationsApi;

/** File answers go through the shared download (components/download); these are their requests. */
export const locationFiles = {
  template: () => ({ url: `${L}/DownloadLocationTemplate` }),
  excel: (body: LocationListArgs) => ({ url: `${L}/DownloadLocationExcel`, method: 'POST', body }),
  otherExcel: (body: LocationListArgs) => ({ url: `${L}/DownloadOtherLocationExcel`, method: 'POST', body }),
  labels: (body: PrintLabelsArgs) => ({ url: `${L}/PrintLocationLabels`, method: 'POST', body }),
  codeImage: (params: { text: string; symbology: CodeSymbology }) => ({ url: `${L}/GetQRCode`, params: { ...params, format: 'png' } }),
};
