import { BILLING_ROLES } from '@bolx/contracts';
import { useAppSelector } from '../../lib/hooks';
import { selectCustomerId, selectWarehouseId } from '../../lib/state/selectors';
import { useAccount, useMayAccess } from '../../lib/use-access';
import { useClientOptions } from '../../lib/use-client-options';

/** The header's warehouse and client, that warehouse's clients, and what the user may do in billing (the server's rule). */
export function useBillingScope() {
  const warehouseId = useAppSelector(selectWarehouseId) ?? 0;
  const customerId = useAppSelector(selectCustomerId) || 0;
  const customers = useClientOptions(warehouseId);
  const may = useMayAccess();
  const account = useAccount();
  return {
    warehouseId, customerId, customers,
    isClient: account?.role === 'Client',
    canWrite: may({ roles: BILLING_ROLES, module: { key: 'Billing', permission: 'write' } }),
  };
}

/** Major units typed in a form (12.5) as minor units (1250): rounded, never a float kept. */
export const toMinor = (major: number | null | undefined) => Math.round((major ?? 0) * 100);
