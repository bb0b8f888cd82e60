import { useEffect, useState } from 'react';
import { useAppDispatch } from '../../../lib/hooks';
import { usersApi, type CustomerOfWarehouse } from '../users-api';
import { uniqueCustomers } from '../user-form-model';

/**
 * The clients served by any of the chosen warehouses (GetCustomersByWarehouse per warehouse, cached by RTK Query),
 * one option per client.
 */
export function useCustomersForWarehouses(warehouseIds: number[]): { customers: CustomerOfWarehouse[]; loading: boolean } {
  const dispatch = useAppDispatch();
  const [state, setState] = useState<{ key: string; customers: CustomerOfWarehouse[] }>({ key: '', customers: [] });
  const key = [...warehouseIds].sort((a, b) => a - b).join(',');

  useEffect(() => {
    const ids = key ? key.split(',').map(Number) : [];
    const subscriptions = ids.map((id) => dispatch(usersApi.endpoints.getCustomersByWarehouse.initiate(id)));
    let cancelled = false;
    Promise.all(subscriptions.map((s) => s.unwrap().catch(() => [] as CustomerOfWarehouse[]))).then((lists) => {
      if (!cancelled) setState({ key, customers: uniqueCustomers(lists.flat()) });
    });
    return () => {
      cancelled = true;
      subscriptions.forEach((s) => s.unsubscribe());
    };
  }, [dispatch, key]);

  return { customers: state.key === key ? state.customers : [], loading: state.key !== key };
}
