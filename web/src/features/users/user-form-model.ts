import type { AssignableModule, UserDetails } from '@bolx/contracts';

/** Pure rules of the user form, kept apart from React so they are unit-tested. */
export type Permission = 'read' | 'write';
export type GrantMap = Record<number, Permission | undefined>;

export const CLIENT_USERTYPE = 'Client';
export const SUPER_ADMIN_USERTYPE = 'Super Administrator';

/** The modules a grant is set on: the leaves (a group shows in the menu when any child is held). */
export function leafModules(modules: AssignableModule[]): AssignableModule[] {
  return modules.flatMap((m) => (m.childModules.length ? leafModules(m.childModules) : [m]));
}

/** The details' grants as the form's map, leaves only (stored group grants are already spread to their leaves). */
export function grantsFromDetails(details: Pick<UserDetails, 'modules'>, leafIds: Set<number>): GrantMap {
  const map: GrantMap = {};
  for (const g of details.modules) if (leafIds.has(g.moduleId)) map[g.moduleId] = g.permission;
  return map;
}

/** The form's map as the request's `modules`. */
export function grantsToRequest(map: GrantMap | undefined): { moduleId: number; permission: Permission }[] {
  return Object.entries(map ?? {})
    .filter((e): e is [string, Permission] => e[1] === 'read' || e[1] === 'write')
    .map(([id, permission]) => ({ moduleId: Number(id), permission }))
    .sort((a, b) => a.moduleId - b.moduleId);
}

/** Sets every leaf under a group (or one leaf) to a permission; undefined removes the grant. */
export function setGrants(map: GrantMap, modules: AssignableModule[], permission: Permission | undefined): GrantMap {
  const next = { ...map };
  for (const leaf of leafModules(modules)) {
    if (permission) next[leaf.moduleId] = permission;
    else delete next[leaf.moduleId];
  }
  return next;
}

/** The permission all leaves under a group share, 'mixed' when they differ, undefined when none is granted. */
export function groupPermission(map: GrantMap, group: AssignableModule): Permission | 'mixed' | undefined {
  const values = new Set(leafModules([group]).map((l) => map[l.moduleId]));
  if (values.size !== 1) return 'mixed';
  return [...values][0];
}

/** Selected clients that the chosen warehouses still serve (the rest are dropped when warehouses change). */
export function keepServedCustomers(selected: number[], offered: { customerId: number }[]): number[] {
  const served = new Set(offered.map((c) => c.customerId));
  return selected.filter((id) => served.has(id));
}

/** One option per client, however many of the chosen warehouses serve it. */
export function uniqueCustomers<C extends { customerId: number; customerName: string }>(rows: C[]): C[] {
  const seen = new Map<number, C>();
  for (const r of rows) if (!seen.has(r.customerId)) seen.set(r.customerId, r);
  return [...seen.values()].sort((a, b) => a.customerName.localeCompare(b.customerName));
}
