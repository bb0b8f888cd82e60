import { useMemo } from 'react';
import { useAppSelector } from '../../lib/hooks';
import { selectWarehouseId } from '../../lib/state/selectors';

/**
 * The warehouses a location form may write to (the header's list), and the one to start with: the header's
 * choice, or the only warehouse; none when the header shows all of several.
 */
export function useWarehouseChoice() {
  const headerWarehouse = useAppSelector(selectWarehouseId);
  const warehouses = useAppSelector((s) => s.header.data?.warehouseData);
  return useMemo(() => {
    const list = warehouses ?? [];
    const options = list.map((w) => ({ value: w.warehouseId, label: w.warehouseName }));
    const initial = headerWarehouse && headerWarehouse > 0 ? headerWarehouse : list.length === 1 ? list[0].warehouseId : undefined;
    return { options, initial, loading: warehouses === undefined };
  }, [headerWarehouse, warehouses]);
}
