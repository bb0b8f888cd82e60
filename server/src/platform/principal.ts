import { holdsModule, type Permission, type Role } from '@bolx/contracts';
import { Scope } from './scope.js';

/** The signed-in caller, loaded fresh on every request so a disabled user or revoked session stops at once. */
export interface Principal {
  userId: number;
  username: string;
  role: Role;
  sessionId: string;
  /** Set for a Client account: the one customer it belongs to. */
  customerId: number | null;
  scope: Scope;
  /** Module key → permission. Super Administrators hold every module with write. */
  modules: ReadonlyMap<string, Permission> | 'all';
}

export function hasModule(p: Principal, key: string, need: Permission): boolean {
  return holdsModule(p.modules, key, need);
}
