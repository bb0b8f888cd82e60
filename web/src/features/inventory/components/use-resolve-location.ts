import { useCallback } from 'react';
import { useScan } from '../../../components/scan/use-scan';

/**
 * A typed or scanned location code → the location in the warehouse (any type: rack, dock, staging, returns,
 * quarantine…), or the message to show at the field. Resolved by the server's scan resolution, so it needs no
 * Location module. Scanners type the code and Enter, so forms take the code as text and resolve it on submit.
 */
export function useResolveLocation() {
  const scan = useScan();
  return useCallback(
    async (warehouseId: number, code: string) => {
      const result = await scan({ warehouseId, code }, ['location'] as const);
      // An unknown code keeps the field's own message (callers fall back to it); a SKU code says what it is.
      return result.match ? { location: result.match } : { error: result.unknown ? undefined : result.error };
    },
    [scan],
  );
}
