import type { CustomerIntegration } from '@bolx/contracts';
import { CARRIER_DELETE_FAILED } from '@bolx/contracts';
import type { ApiError } from '../../../lib/api/api-error';
import { errorToastText } from '../../../lib/api/api-error';
import {
  useCreateIntegrationCarrierMutation, useCreateIntegrationSalesChannelMutation, useDeleteCarrierMutation, useDeleteCustomerSalesChannelMutation,
  useGetAllCustomerCarrierQuery, useGetAllCustomerChannelQuery, useGetCarrierIntegrationPropertiesQuery, useGetChannelPropertiesQuery,
  useUpdateCustomerSalesChannelMutation, useUpdateIntegrationCarrierMutation,
} from '../customers-api';

/**
 * Carrier accounts and sales-channel integrations share one shape and one tab; this names each kind's calls and
 * texts (message ids under `customer.<kind>.…`).
 */
/** A delete call as the tab needs it: something runMutation can unwrap. */
type RemoveCall = (item: CustomerIntegration) => { unwrap(): Promise<{ message: string }> };

export const CARRIERS = {
  textPrefix: 'customer.carriers',
  useList: useGetAllCustomerCarrierQuery,
  useProperties: useGetCarrierIntegrationPropertiesQuery,
  useCreate: useCreateIntegrationCarrierMutation,
  useUpdate: useUpdateIntegrationCarrierMutation,
  useDelete: (): RemoveCall => {
    const [remove] = useDeleteCarrierMutation();
    return (item) => remove({ customerId: item.customerId, id: item.uniqueid });
  },
  /** Spec section 8: a failed carrier deletion without a server reason says 'Failed to delete carrier'. */
  deleteErrorText: (e: ApiError) => (e.status >= 400 && e.status < 500 ? errorToastText(e) : CARRIER_DELETE_FAILED),
};

export const CHANNELS: typeof CARRIERS = {
  textPrefix: 'customer.channels',
  useList: useGetAllCustomerChannelQuery,
  useProperties: useGetChannelPropertiesQuery,
  useCreate: useCreateIntegrationSalesChannelMutation,
  useUpdate: useUpdateCustomerSalesChannelMutation,
  useDelete: (): RemoveCall => {
    const [remove] = useDeleteCustomerSalesChannelMutation();
    return (item) => remove({ customerId: item.customerId, integrationId: item.integrationId, uniqueid: item.uniqueid });
  },
  deleteErrorText: errorToastText,
};

export type IntegrationKind = typeof CARRIERS;
