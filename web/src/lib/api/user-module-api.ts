import type { UserApp, UserModulesResponse, WarehouseClientResponse } from '@bolx/contracts';
import { baseApi } from './base-api';

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
    }),
    getAllUserApps: build.query<UserApp[], void>({
      query: () => 'Common/UserModule/GetAllUserApps',
      providesTags: ['UserApps'],
    }),
    getTimezones: build.query<string[], void>({
      query: () => 'Common/UserModule/GetTimezones',
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
  useSetDefaultAppMutation,
} = userModuleApi;
