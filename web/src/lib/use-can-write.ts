import type { NavModule } from '@bolx/contracts';
import { roleFromLabel } from '@bolx/contracts';
import { useAppSelector } from '../app/hooks';
import { useGetUserModulesQuery } from './api/user-module-api';

/** The module with this url anywhere in the user's module tree. */
export function findModule(modules: NavModule[], url: string): NavModule | undefined {
  for (const m of modules) {
    if (m.url?.toLowerCase() === url.toLowerCase()) return m;
    const found = findModule(m.childModules, url);
    if (found) return found;
  }
  return undefined;
}

/**
 * Whether the screen may offer add/edit/delete: never to a Client account (it reads its own data only), and
 * only with write permission on the screen's module when the user's module list names it. The server enforces
 * the same; this only hides buttons that would be refused.
 */
export function canWriteModule(usertype: string | null, modules: NavModule[] | undefined, url: string): boolean {
  if (roleFromLabel(usertype ?? '') === 'Client') return false;
  const module = modules ? findModule(modules, url) : undefined;
  return (module?.permission ?? 'write') !== 'read';
}

export function useCanWrite(url: string): boolean {
  const usertype = useAppSelector((s) => s.auth.usertype);
  const { data } = useGetUserModulesQuery();
  return canWriteModule(usertype, data?.modules, url);
}
