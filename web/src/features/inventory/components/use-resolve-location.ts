import { useCallback } from 'react';
import { useLazyFindLocationsQuery } from '../inventory-api';

/**
 * A typed or scanned location code → the location (exact code, any case) in the warehouse, or undefined.
 * Scanners type the code and Enter, so forms take the code as text and resolve it on submit.
 */
export function useResolveLocation() {
  const [find] = useLazyFindLocationsQuery();
  return useCallback(
    async (warehouseId: number, code: string) => {
      const wanted = code.trim().toUpperCase();
      if (!wanted) return undefined;
      const page = await find({ warehouseId, search: wanted }, true).unwrap().catch(() => undefined);
      return page?.items.find((l) => l.locationCode.toUpperCase() === wanted && l.warehouseId === warehouseId);
    },
    [find],
  );
}
