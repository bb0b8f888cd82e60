import { modulesAtUrl, type NavModule } from '@bolx/contracts';
import { staffWrite } from './access';
import { useMayAccess } from './use-access';

/** The module with this url anywhere in the user's module tree. */
export function findModule(modules: NavModule[], url: string): NavModule | undefined {
  for (const m of modules) {
    if (m.url?.toLowerCase() === url.toLowerCase()) return m;
    const found = findModule(m.childModules, url);
    if (found) return found;
  }
  return undefined;
}

/** The catalogue key of the screen's module (the url names it in the catalogue). */
export const moduleKeyOf = (url: string): string => modulesAtUrl(url)[0]?.module.key ?? url;

/**
 * Whether the screen may offer add/edit/delete: the server's usual write policy, staff (never a Client account)
 * holding write on the screen's module, decided by the same rule (lib/access). A screen whose writes need other
 * roles (administrators only) asks `useMayAccess` with that need.
 */
export function useCanWrite(url: string): boolean {
  return useMayAccess()(staffWrite(moduleKeyOf(url)));
}
