import { useMemo } from 'react';
import { useAppSelector } from './hooks';
import { customersOfWarehouse, type FilterOption } from './state/header-filters';

/**
 * The clients served from a warehouse (0 or none: every client), one option each, by name — the header's own rule.
 * A client served from several warehouses is offered at each of them.
 */
export function useClientOptions(warehouseId: number | null | undefined): FilterOption[] {
  const customerData = useAppSelector((s) => s.header.data?.customerData);
  return useMemo(() => customersOfWarehouse(customerData ?? [], warehouseId ?? null), [customerData, warehouseId]);
}
