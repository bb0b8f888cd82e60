import { useAppSelector } from '../../lib/hooks';
import { selectCustomerId, selectWarehouseId } from '../../lib/state/selectors';
import { useCanWrite } from '../../lib/use-can-write';
import { useClientOptions } from '../../lib/use-client-options';

/** The header's warehouse and client, the clients of that warehouse, and whether the user may build (staff with write). */
export function useKitScope() {
  const warehouseId = useAppSelector(selectWarehouseId) ?? 0;
  const customerId = useAppSelector(selectCustomerId) || 0;
  const customers = useClientOptions(warehouseId);
  return { warehouseId, customerId, customers, canWrite: useCanWrite('KitDashboard') };
}
