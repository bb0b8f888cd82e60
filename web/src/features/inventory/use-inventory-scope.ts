import { APPROVER_ROLES, roleFromLabel } from '@bolx/contracts';
import { useAppSelector } from '../../lib/hooks';
import { selectCustomerId, selectWarehouseId } from '../../lib/state/selectors';
import { useCanWrite } from '../../lib/use-can-write';

/**
 * The header's warehouse and customer, the choices behind them, and what the user may do on a stock screen:
 * a client account reads its own stock only; approvals are a manager's.
 */
export function useInventoryScope(moduleUrl: string) {
  const warehouseId = useAppSelector(selectWarehouseId) ?? 0;
  const customerId = useAppSelector(selectCustomerId);
  const data = useAppSelector((s) => s.header.data);
  const usertype = useAppSelector((s) => s.auth.usertype);
  const role = roleFromLabel(usertype ?? '');
  const canWrite = useCanWrite(moduleUrl);
  const warehouses = data?.warehouseData ?? [];
  return {
    warehouseId,
    customerId,
    warehouses,
    canWrite,
    canApprove: canWrite && role !== undefined && APPROVER_ROLES.includes(role),
  };
}
