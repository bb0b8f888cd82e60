import { createSelector } from '@reduxjs/toolkit';
import { webRolesOf } from '@bolx/contracts';
import type { RootState } from './root-state';
import { parseWarehouseId, showHeaderFilters } from './header-filters';

export const selectAuth = (s: RootState) => s.auth;
export const selectIsAuthenticated = (s: RootState) => s.auth.isAuthentication;
export const selectService = (s: RootState) => s.auth.selectedServiceManagement;
export const selectWarehouseId = (s: RootState) => parseWarehouseId(s.auth.selectedWarehouse);
export const selectCustomerId = (s: RootState) => s.header.clientsSelectedIDs;
export const selectShowHeaderFilters = (s: RootState) =>
  showHeaderFilters(s.auth.selectedServiceManagement, s.auth.selectedWarehouse);
/** The route table's roles ('user', plus 'admin' for administrators). */
export const selectWebRoles = createSelector(
  [(s: RootState) => s.auth.isAuthentication, (s: RootState) => s.auth.usertype],
  (authenticated, usertype): string[] => (authenticated ? webRolesOf(usertype ?? '') : []),
);
/** The header warehouse's time zone (undefined with all warehouses or before the header's data arrives). */
export const selectWarehouseTimeZone = (s: RootState) => {
  const id = parseWarehouseId(s.auth.selectedWarehouse);
  return id ? s.header.data?.warehouseData.find((w) => w.warehouseId === id)?.timeZone : undefined;
};
