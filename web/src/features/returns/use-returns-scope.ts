import { useAppSelector } from '../../lib/hooks';
import { selectCustomerId, selectWarehouseId } from '../../lib/state/selectors';
import { useCanWrite } from '../../lib/use-can-write';

/** The header's warehouse and client, the clients of that warehouse, and whether the user may write on a screen. */
export function useReturnsScope(url: string) {
  const warehouseId = useAppSelector(selectWarehouseId) ?? 0;
  const customerId = useAppSelector(selectCustomerId) || 0;
  const data = useAppSelector((s) => s.header.data);
  const customers = (data?.customerData ?? []).filter((c, i, all) =>
    (warehouseId === 0 || c.warehouseId === warehouseId) && all.findIndex((x) => x.customerId === c.customerId) === i);
  return { warehouseId, customerId, customers, canWrite: useCanWrite(url) };
}
