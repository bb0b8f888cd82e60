import { BILLING_ROLES } from '@bolx/contracts';
import { useAppSelector } from '../../lib/hooks';
import { selectCustomerId, selectWarehouseId } from '../../lib/state/selectors';
import { useAccount, useMayAccess } from '../../lib/use-access';

/** The header's warehouse and client, that warehouse's clients, and what the user may do in billing (the server's rule). */
export function useBillingScope() {
  const warehouseId = useAppSelector(selectWarehouseId) ?? 0;
  const customerId = useAppSelector(selectCustomerId) || 0;
  const data = useAppSelector((s) => s.header.data);
  const customers = (data?.customerData ?? []).filter((c, i, all) =>
    (warehouseId === 0 || c.warehouseId === warehouseId) && all.findIndex((x) => x.customerId === c.customerId) === i);
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
