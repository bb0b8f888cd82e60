import { useCallback, useRef } from 'react';
import { useAppSelector } from '../../lib/hooks';
import { runMutation } from '../../lib/api/mutation-toast';
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

/**
 * Runs a work order mutation as one user action: a double click reuses the action's Idempotency-Key, so the
 * server builds once; once answered, the next action gets a new key.
 */
export function useKitAction() {
  const keys = useRef(new Map<string, string>()).current;
  return useCallback(async <T extends { message?: string }>(action: string, call: (idempotencyKey: string) => { unwrap(): Promise<T> }) => {
    const key = keys.get(action) ?? `${action}:${Date.now()}:${Math.random().toString(36).slice(2)}`;
    keys.set(action, key);
    try {
      return await runMutation(call(key));
    } finally {
      keys.delete(action);
    }
  }, [keys]);
}
