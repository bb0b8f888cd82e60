import type { Customer, CustomerDocument, CustomerInput, CustomerIntegration, FilterLabel } from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';
import { LIVE, NOTIFY } from '../../lib/hub/live-lists';
import type { ListPage, ListRequest } from '../../components/data-table/list-args';
import './messages';

export interface IntegrationType {
  uId: number;
  integrationId: number;
  integrationCode: string;
  integrationName: string;
}
export interface IntegrationProperty {
  uniqueid: number;
  integrationId: number;
  propertyKey: string;
  label: string;
  isSecret: boolean;
  isRequired: boolean;
}
export interface CustomerIntegrations {
  items: CustomerIntegration[];
  integrations: IntegrationType[];
}
export interface IntegrationBody {
  accountName: string;
  isActive: boolean;
  properties: { propertyId: number; value: string }[];
}
export interface DocumentType {
  uniqueid: number;
  documentTypeId: number;
  documentTypeName: string;
}
type Saved<T> = { message: string; data: T };

const api = baseApi.enhanceEndpoints({ addTagTypes: ['Customer', 'CustomerCarrier', 'CustomerChannel', 'CustomerDocument'] });
const base = 'Warehouse/Customer';

/** The customer screen's calls (spec section 7, Customer). */
export const customersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCustomers: build.query<ListPage<Customer>, ListRequest>({
      onCacheEntryAdded: LIVE.customers,
      query: (body) => ({ url: `${base}/GetCustomers`, method: 'POST', body }),
      // One tag for every cached page: a saved customer reaches the pages through the notify flag and the hub.
      providesTags: [{ type: 'Customer', id: 'LIST' }],
    }),
    getCustomerFiltersLabels: build.query<FilterLabel[], void>({
      query: () => `${base}/CustomerFiltersLabels`,
    }),
    getCustomerInfoById: build.query<Customer, number>({
      onCacheEntryAdded: LIVE.customer,
      query: (customerid) => ({ url: `${base}/GetCustomerInfoById`, params: { customerid } }),
      providesTags: (_r, _e, id) => [{ type: 'Customer', id }],
    }),
    addNewCustomer: build.mutation<Saved<Customer>, CustomerInput>({
      query: (body) => ({ url: `${base}/AddNewCustomer`, method: 'POST', body }),
      // The header's client list gains the new customer.
      invalidatesTags: [{ type: 'Customer', id: 'LIST' }, 'WarehouseClient'],
    }),
    updateCustomer: build.mutation<Saved<Customer>, CustomerInput & { customerId: number }>({
      query: (body) => ({ url: `${base}/UpdateCustomer`, method: 'POST', body }),
      // The notify flag: the saved record replaces its list entries (lists with filters or a search reload), so
      // the lists are not invalidated for this tab's own edit.
      onQueryStarted: NOTIFY.customer,
      invalidatesTags: (_r, _e, { customerId }) => [{ type: 'Customer', id: customerId }, 'WarehouseClient'],
    }),

    // Carrier accounts
    getAllCustomerCarrier: build.query<CustomerIntegrations, number>({
      query: (customerId) => ({ url: `${base}/GetAllCustomerCarrier`, params: { customerId } }),
      providesTags: (_r, _e, id) => [{ type: 'CustomerCarrier', id }],
    }),
    getCarrierIntegrationProperties: build.query<IntegrationProperty[], number>({
      query: (integrationId) => ({ url: `${base}/GetCarrierIntegrationProperties`, params: { integrationId } }),
    }),
    createIntegrationCarrier: build.mutation<Saved<CustomerIntegration>, IntegrationBody & { customerId: number; integrationId: number }>({
      query: (body) => ({ url: `${base}/CreateIntegrationCarrier`, method: 'POST', body }),
      invalidatesTags: (_r, _e, { customerId }) => [{ type: 'CustomerCarrier', id: customerId }],
    }),
    updateIntegrationCarrier: build.mutation<Saved<CustomerIntegration>, { id: number; customerId: number; body: IntegrationBody }>({
      query: ({ id, body }) => ({ url: `${base}/UpdateIntegrationCarrier`, method: 'PUT', params: { CarrierCustomerId: id }, body }),
      invalidatesTags: (_r, _e, { customerId }) => [{ type: 'CustomerCarrier', id: customerId }],
    }),
    deleteCarrier: build.mutation<{ message: string }, { customerId: number; id: number }>({
      query: (params) => ({ url: `${base}/DeleteCarrier`, method: 'DELETE', params }),
      invalidatesTags: (_r, _e, { customerId }) => [{ type: 'CustomerCarrier', id: customerId }],
    }),

    // Sales-channel integrations
    getAllCustomerChannel: build.query<CustomerIntegrations, number>({
      query: (customerId) => ({ url: `${base}/GetAllCustomerChannel`, params: { customerId } }),
      providesTags: (_r, _e, id) => [{ type: 'CustomerChannel', id }],
    }),
    getChannelProperties: build.query<IntegrationProperty[], number>({
      query: (integrationId) => ({ url: `${base}/GetChannelProperties`, params: { integrationId } }),
    }),
    createIntegrationSalesChannel: build.mutation<Saved<CustomerIntegration>, IntegrationBody & { customerId: number; integrationId: number }>({
      query: (body) => ({ url: `${base}/CreateIntegrationSalesChannel`, method: 'POST', body }),
      invalidatesTags: (_r, _e, { customerId }) => [{ type: 'CustomerChannel', id: customerId }],
    }),
    updateCustomerSalesChannel: build.mutation<Saved<CustomerIntegration>, { id: number; customerId: number; body: IntegrationBody }>({
      query: ({ id, body }) => ({ url: `${base}/UpdateCustomerSalesChannel`, method: 'PUT', params: { CustomerChannelId: id }, body }),
      invalidatesTags: (_r, _e, { customerId }) => [{ type: 'CustomerChannel', id: customerId }],
    }),
    deleteCustomerSalesChannel: build.mutation<{ message: string }, { customerId: number; integrationId: number; uniqueid: number }>({
      query: (params) => ({ url: `${base}/DeleteCustomersaleschannel`, method: 'DELETE', params }),
      invalidatesTags: (_r, _e, { customerId }) => [{ type: 'CustomerChannel', id: customerId }],
    }),

    // Documents
    getDocumentTypes: build.query<DocumentType[], void>({
      query: () => `${base}/GetDocumentTypes`,
      keepUnusedDataFor: 3600,
    }),
    getClientDocumentTypes: build.query<CustomerDocument[], number>({
      query: (CustomerId) => ({ url: `${base}/GetClientDocumentTypes`, params: { CustomerId } }),
      providesTags: (_r, _e, id) => [{ type: 'CustomerDocument', id }],
    }),
    /** multipart: file, customerId, documentTypeId, notes. */
    addCustomerDocument: build.mutation<Saved<CustomerDocument>, { customerId: number; form: FormData }>({
      query: ({ form }) => ({ url: `${base}/AddCustomerDocument`, method: 'POST', body: form }),
      invalidatesTags: (_r, _e, { customerId }) => [{ type: 'CustomerDocument', id: customerId }],
    }),
    /** multipart: documentId, documentTypeId, notes, optional file. */
    updateCustomerDocument: build.mutation<Saved<CustomerDocument>, { customerId: number; form: FormData }>({
      query: ({ form }) => ({ url: `${base}/UpdateCustomerDocument`, method: 'PUT', body: form }),
      invalidatesTags: (_r, _e, { customerId }) => [{ type: 'CustomerDocument', id: customerId }],
    }),
  }),
});

export const {
  useGetCustomersQuery, useGetCustomerFiltersLabelsQuery, useGetCustomerInfoByIdQuery, useAddNewCustomerMutation, useUpdateCustomerMutation,
  useGetAllCustomerCarrierQuery, useGetCarrierIntegrationPropertiesQuery, useCreateIntegrationCarrierMutation, useUpdateIntegrationCarrierMutation,
  useDeleteCarrierMutation, useGetAllCustomerChannelQuery, useGetChannelPropertiesQuery, useCreateIntegrationSalesChannelMutation,
  useUpdateCustomerSalesChannelMutation, useDeleteCustomerSalesChannelMutation, useGetDocumentTypesQuery, useGetClientDocumentTypesQuery,
  useAddCustomerDocumentMutation, useUpdateCustomerDocumentMutation,
} = customersApi;
