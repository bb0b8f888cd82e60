import { isAdministrator } from '../../lib/access';

/** Spec section 2, Redirects after login, as one pure decision. */
export const PATHS = {
  signIn: '/',
  serviceSelection: '/ServiceSelection',
  warehouseSelection: '/WarehouseSelection',
  dashboard: '/Dashboard',
} as const;

/** Pages a signed-in user passes through on the way in; elsewhere a chosen warehouse leaves the user where they are. */
const LANDING_PATHS = [PATHS.signIn, PATHS.serviceSelection].map((p) => p.toLowerCase());

export interface LandingInput {
  path: string;
  service: string | null;
  /** The selected warehouse (0 = all), null when none is chosen. */
  warehouseId: number | null;
  usertype: string | null;
  /** The user's warehouses; null while they are loading. */
  warehouses: readonly { warehouseId: number }[] | null;
}

export interface LandingDecision {
  /** Where to go (with replace), or null to stay. */
  navigateTo: string | null;
  /** A warehouse to select first, or null. */
  selectWarehouse: number | null;
}

const stay: LandingDecision = { navigateTo: null, selectWarehouse: null };
const go = (to: string, path: string, selectWarehouse: number | null = null): LandingDecision =>
  to.toLowerCase() === path.toLowerCase() && selectWarehouse === null ? stay : { navigateTo: to, selectWarehouse };


export function decideLanding(input: LandingInput): LandingDecision {
  const path = input.path.replace(/\/+$/, '') || '/';
  // No service selected: go to ServiceSelection.
  if (!input.service) return go(PATHS.serviceSelection, path);
  // Warehouse already chosen: go to Dashboard, unless already on another page.
  if (input.warehouseId !== null) return LANDING_PATHS.includes(path.toLowerCase()) ? go(PATHS.dashboard, path) : stay;
  if (input.warehouses === null) return stay;
  // One warehouse, any role: it is auto-selected, then Dashboard.
  if (input.warehouses.length === 1) return go(PATHS.dashboard, path, input.warehouses[0].warehouseId);
  // Administrator or Super Administrator with several: warehouse 0 (all), then Dashboard.
  if (input.warehouses.length > 1 && isAdministrator(input.usertype)) return go(PATHS.dashboard, path, 0);
  // Other roles with several (or none to pick from): WarehouseSelection.
  return go(PATHS.warehouseSelection, path);
}
