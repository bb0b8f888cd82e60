// Who may do what: the one rule both the server's route policies and the web's offers are checked by, so the
// web never shows an action (a screen, a button, an upload) that the server would refuse.
import { APPS, type AppDef, type ModuleDef, type Permission } from './apps.js';
import type { Role } from './roles.js';

/** What an action needs: one of these roles (any role when absent) and, when named, a module held with at least this permission. */
export interface AccessNeed {
  roles?: readonly Role[];
  module?: { key: string; permission: Permission };
}

/** The modules an account holds, by module key; a Super Administrator holds every one ('all'). */
export type HeldModules = ReadonlyMap<string, Permission> | 'all';

/** Write includes read. */
export function holdsModule(modules: HeldModules, key: string, need: Permission): boolean {
  if (modules === 'all') return true;
  const have = modules.get(key);
  return have === 'write' || (have === 'read' && need === 'read');
}

export function mayAccess(account: { role: Role; modules: HeldModules }, need: AccessNeed): boolean {
  if (need.roles && !need.roles.includes(account.role)) return false;
  return !need.module || holdsModule(account.modules, need.module.key, need.module.permission);
}

/** The leaf modules of the catalogue whose screen is `url` (no leading slash), with their app: one per app that has it. */
export function modulesAtUrl(url: string): { app: AppDef; module: ModuleDef }[] {
  const out: { app: AppDef; module: ModuleDef }[] = [];
  const walk = (app: AppDef, mods: ModuleDef[]) => {
    for (const m of mods) {
      if (m.children) walk(app, m.children);
      else if (m.url?.toLowerCase() === url.toLowerCase()) out.push({ app, module: m });
    }
  };
  for (const app of APPS) walk(app, app.modules);
  return out;
}

/** Billing (issue 16): only these roles, holding the Billing module, create rate cards, run billing, adjust drafts and finalise. */
export const BILLING_ROLES: readonly Role[] = ['SuperAdministrator', 'Administrator', 'WarehouseManager'];
