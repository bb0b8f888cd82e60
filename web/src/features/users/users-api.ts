import type {
  CreateUserRequest, FilterLabel, ModuleWarehouseUsersResponse, UpdateUserRequest, UserDetails, UserListItem,
} from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';
import { LIVE, NOTIFY } from '../../lib/hub/live-lists';
import type { ListPage, ListRequest } from '../../components/data-table/list-args';
import './messages';

export interface CustomerOfWarehouse {
  uniqueid: number;
  customerId: number;
  customerName: string;
  warehouseId: number;
}
type Saved = { message: string; data: UserDetails };

const api = baseApi.enhanceEndpoints({ addTagTypes: ['User'] });

/** The user screen's calls (spec section 7, Warehouse and user). */
export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getUsers: build.query<ListPage<UserListItem>, ListRequest>({
      onCacheEntryAdded: LIVE.users,
      query: (body) => ({ url: 'Warehouse/User/GetUsers', method: 'POST', body }),
      // One tag for every cached page: a saved user reaches the pages through the notify flag and the hub.
      providesTags: [{ type: 'User', id: 'LIST' }],
    }),
    getUserFiltersLabels: build.query<FilterLabel[], void>({
      query: () => 'Warehouse/User/UserFiltersLabels',
    }),
    /** The form's options: user types, modules, warehouses, time zones. */
    getModuleWarehouseUsers: build.query<ModuleWarehouseUsersResponse, void>({
      query: () => 'Warehouse/User/GetModuleWarehouseUsers',
    }),
    getCustomersByWarehouse: build.query<CustomerOfWarehouse[], number>({
      query: (whid) => ({ url: 'Warehouse/User/GetCustomersByWarehouse', params: { whid } }),
    }),
    getUserDetails: build.query<UserDetails, number>({
      query: (userId) => ({ url: 'Warehouse/User/GetUserDetails', params: { userId } }),
      providesTags: (_r, _e, userId) => [{ type: 'User', id: userId }],
    }),
    createUser: build.mutation<Saved, CreateUserRequest>({
      query: (body) => ({ url: 'Warehouse/User/CreateUser', method: 'POST', body }),
      invalidatesTags: [{ type: 'User', id: 'LIST' }],
    }),
    updateUser: build.mutation<Saved, { userId: number; body: UpdateUserRequest }>({
      query: ({ userId, body }) => ({ url: 'Warehouse/User/UpdateUser', method: 'PUT', params: { userId }, body }),
      // The notify flag: the saved record replaces its list entries (lists with filters or a search reload), so
      // the lists are not invalidated for this tab's own edit.
      onQueryStarted: NOTIFY.user,
      invalidatesTags: (_r, _e, { userId }) => [{ type: 'User', id: userId }],
    }),
    /** Enable or disable; disabling ends the user's sessions at once. */
    setUserStatus: build.mutation<Saved, { userId: number; isActive: boolean }>({
      query: ({ userId, isActive }) => ({ url: 'Warehouse/User/SetUserStatus', method: 'PUT', params: { userId, isActive: String(isActive) } }),
      onQueryStarted: NOTIFY.user,
      invalidatesTags: (_r, _e, { userId }) => [{ type: 'User', id: userId }],
    }),
    /** An administrator sets a user's password (PUT /Common/Auth/reset-password without the previous one). */
    adminResetPassword: build.mutation<{ message: string }, { userId: number; newPassword: string }>({
      query: (body) => ({ url: 'Common/Auth/reset-password', method: 'PUT', body }),
    }),
  }),
});

export const {
  useGetUsersQuery, useGetUserFiltersLabelsQuery, useGetModuleWarehouseUsersQuery, useGetUserDetailsQuery,
  useCreateUserMutation, useUpdateUserMutation, useSetUserStatusMutation, useAdminResetPasswordMutation,
} = usersApi;
