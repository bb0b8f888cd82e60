import type { Country, UserApp, UserModulesResponse, WarehouseClientResponse } from '@bolx/contracts';
import { baseApi } from './base-api';
import { liveHeader } from '../hub/live-header';

/** The per-user data the shell needs: modules (sidebar), warehouses and customers (header), apps, time zones. */
export const userModuleApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getUserModules: build.query<UserModulesResponse, void>({
      query: () => 'Common/UserModule/GetUserModules',
      providesTags: ['UserModules'],
    }),
    getWarehouseClient: build.query<WarehouseClientResponse, void>({
      query: () => 'Common/UserModule/GetWarehouseClient',
      providesTags: ['WarehouseClient'],
      // Warehouses and customers added or renamed, and the user's own assignments, reach the header live.
      onCacheEntryAdded: liveHeader(),
    }),
    getAllUserApps: build.query<UserApp[], void>({
      query: () => 'Common/UserModule/GetAllUserApps',
      providesTags: ['UserApps'],
    }),
    getTimezones: build.query<string[], void>({
      query: () => 'Common/UserModule/GetTimezones',
    }),
    /** Address forms' country and state dropdowns (reference data, kept for the session). */
    getCountriesAndStates: build.query<Country[], void>({
      query: () => 'Common/UserModule/GetCountriesAndStates',
      keepUnusedDataFor: 3600,
    }),
    setDefaultApp: build.mutation<{ message: string }, number>({
      query: (appId) => ({ url: 'Common/UserModule/SetDefaultApp', method: 'PUT', params: { appId } }),
      // Spec section 4, Default app: the user modules are reloaded for the newly chosen app.
      invalidatesTags: ['UserModules', 'UserApps'],
    }),
  }),
});

export const {
  useGetUserModulesQuery,
  useGetWarehouseClientQuery,
  useGetAllUserAppsQuery,
  useGetTimezonesQuery,
  useGetCountriesAndStatesQuery,
  useSetDefaultAppMutation,
} = userModuleApi;
