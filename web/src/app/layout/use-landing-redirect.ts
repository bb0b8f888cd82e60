import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useGetWarehouseClientQuery } from '../../lib/api/user-module-api';
import { useAppDispatch, useAppSelector } from '../../lib/hooks';
import { warehouseCleared, warehouseSelected } from '../../lib/state/auth-slice';
import { revalidateWarehouse } from '../../lib/state/header-filters';
import { selectWarehouseId } from '../../lib/state/selectors';
import { isAdministrator } from '../../lib/access';
import { decideLanding } from '../router/landing';

/** Applies the redirects after login (landing.ts) whenever the path or the selections change. */
export function useLandingRedirect(): void {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const service = useAppSelector((s) => s.auth.selectedServiceManagement);
  const usertype = useAppSelector((s) => s.auth.usertype);
  const warehouseId = useAppSelector(selectWarehouseId);
  const { data } = useGetWarehouseClientQuery();
  const warehouses = data?.warehouseData ?? null;

  // The user's warehouses changed under the selection (a live refresh of the header): keep it while valid.
  useEffect(() => {
    if (!warehouses) return;
    const next = revalidateWarehouse(warehouses, warehouseId, isAdministrator(usertype));
    if (next === null) dispatch(warehouseCleared());
    else if (next !== undefined) dispatch(warehouseSelected(next));
  }, [dispatch, warehouses, warehouseId, usertype]);

  useEffect(() => {
    const decision = decideLanding({ path: pathname, service, warehouseId, usertype, warehouses });
    if (decision.selectWarehouse !== null) dispatch(warehouseSelected(decision.selectWarehouse));
    if (decision.navigateTo) navigate(decision.navigateTo, { replace: true });
  }, [dispatch, navigate, pathname, service, warehouseId, usertype, warehouses]);
}
