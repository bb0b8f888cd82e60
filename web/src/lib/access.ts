import {
  ADMIN_ROLES, APPS, STAFF_ROLES, holdsModule, mayAccess, modulesAtUrl, roleFromLabel,
  type AccessNeed, type HeldModules, type NavModule, type Permission, type Role, type UserModulesResponse,
} from '@bolx/contracts';

/**
 * The signed-in account as the server's access policies see it: its role and the modules it holds. The shell
 * offers a screen or an action only when contracts' `mayAccess` says the server would allow it.
 */
export interface Account {
  role: Role;
  modules: HeldModules;
}

/**
 * The account from what the shell has: the usertype label and GetUserModules (the selected app's modules, named
 * by url; the catalogue gives their keys). A Super Administrator holds every module, as on the server. Null until
 * both are known.
 */
export function accountOf(usertype: string | null, userModules: UserModulesResponse | undefined): Account | null {
  const role = roleFromLabel(usertype ?? '');
  if (!role) return null;
  if (role === 'SuperAdministrator') return { role, modules: 'all' };
  if (!userModules) return null;
  const app = APPS.find((a) => a.id === userModules.appId);
  const held = new Map<string, Permission>();
  const walk = (nodes: NavModule[]) => {
    for (const n of nodes) {
      const def = n.url && !n.childModules.length ? modulesAtUrl(n.url).find((m) => m.app.id === app?.id) : undefined;
      if (def) held.set(def.module.key, n.permission.toLowerCase() === 'read' ? 'read' : 'write');
      walk(n.childModules);
    }
  };
  walk(userModules.modules);
  return { role, modules: held };
}

export const mayDo = (account: Account | null, need: AccessNeed): boolean => account !== null && mayAccess(account, need);

/** The server's write policy of most screens: staff (never a Client account) with write on the screen's module. */
export const staffWrite = (moduleKey: string): AccessNeed => ({ roles: STAFF_ROLES, module: { key: moduleKey, permission: 'write' } });

/**
 * Screens whose every action writes (a form and nothing to read): to an account that may only read the module, or
 * a Client account, the screen would be a form the server refuses, so it is refused like a module not held.
 */
const WRITE_ONLY_SCREENS = new Set(['CreateLocation', 'LocationUpload']);

/** Whether the screen at this url only writes, so a module held to read gives nothing there (the menu leaves it out). */
export const isWriteOnlyScreen = (url: string): boolean => modulesAtUrl(url.replace(/^\/+/, '')).some((h) => WRITE_ONLY_SCREENS.has(h.module.key));

export type ScreenAccess =
  | { kind: 'allow' }
  | { kind: 'forbidden' }
  /** The screen belongs to another of the user's apps (services): offer to switch to it. */
  | { kind: 'otherService'; appId: number; appName: string }
  /** Only another app has the screen, and the user's apps are still loading. */
  | { kind: 'pending' };

/**
 * Whether the screen at `path` may show. A screen that is no module's (profile, the selection pages) always; a
 * module's screen when the selected app has that module and the account holds it (read is enough to see it);
 * a screen only another app has, when the user may use that app, offers the switch; anything else is refused.
 * The user's apps (null while loading) are needed for that last case only, so a screen of the chosen app starts
 * loading without waiting for them.
 */
export function screenAccess(path: string, selectedAppId: number | null, account: Account, userAppIds: readonly number[] | null): ScreenAccess {
  const homes = modulesAtUrl(path.replace(/^\/+/, ''));
  if (!homes.length) return { kind: 'allow' };
  const here = homes.find((h) => h.app.id === selectedAppId);
  if (here) {
    const key = here.module.key;
    const may = WRITE_ONLY_SCREENS.has(key) ? mayAccess(account, staffWrite(key)) : holdsModule(account.modules, key, 'read');
    return may ? { kind: 'allow' } : { kind: 'forbidden' };
  }
  if (!userAppIds) return { kind: 'pending' };
  const elsewhere = homes.find((h) => userAppIds.includes(h.app.id));
  return elsewhere ? { kind: 'otherService', appId: elsewhere.app.id, appName: elsewhere.app.name } : { kind: 'forbidden' };
}

/** An Administrator or Super Administrator (the header's all-warehouses choice, the admin screens). */
export const isAdministrator = (usertype: string | null): boolean => {
  const role = usertype ? roleFromLabel(usertype) : undefined;
  return role !== undefined && ADMIN_ROLES.includes(role);
};
