import { z } from 'zod';

/** The user types a BOLX account can have; the label is what the portal shows under the username. */
export const ROLES = ['SuperAdministrator', 'Administrator', 'WarehouseManager', 'WarehouseStaff', 'Client'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

export const ROLE_LABELS: Record<Role, string> = {
  SuperAdministrator: 'Super Administrator',
  Administrator: 'Administrator',
  WarehouseManager: 'Warehouse Manager',
  WarehouseStaff: 'Warehouse Staff',
  Client: 'Client',
};

export const ADMIN_ROLES: readonly Role[] = ['SuperAdministrator', 'Administrator'];
export const STAFF_ROLES: readonly Role[] = ['SuperAdministrator', 'Administrator', 'WarehouseManager', 'WarehouseStaff'];

export function roleFromLabel(label: string): Role | undefined {
  return (Object.keys(ROLE_LABELS) as Role[]).find((r) => ROLE_LABELS[r] === label);
}

/**
 * The web route table's roles (spec section 6: 'user' and 'admin'). Every signed-in account is a 'user';
 * administrators are also 'admin'.
 */
export function webRolesOf(usertype: string): string[] {
  const role = roleFromLabel(usertype);
  return role && ADMIN_ROLES.includes(role) ? ['user', 'admin'] : ['user'];
}
