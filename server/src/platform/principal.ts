import { holdsModule, type Permission, type Role } from '@bolx/contracts';
import { Scope } from './scope.js';
import type { Executor } from '../db/schema.js';

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
  /**
   * Set when the caller is a customer's API key (`X-Api-Key`), not a signed-in user: it acts as a Client account
   * of that customer (role Client, its warehouses, the modules of API_KEY_MODULES) on routes open to keys alone.
   * `userId` is then the key's creator (so "by" columns stay valid); `sessionId` is `api-key:<id>`. Work done
   * later for the caller (a job re-reading its owner's access by user id) must carry the key, not the creator:
   * the creator may see far more than the key.
   */
  apiKey?: { id: number; prefix: string; name: string };
}

export function hasModule(p: Principal, key: string, need: Permission): boolean {
  return holdsModule(p.modules, key, need);
}

/**
 * The caller of a route whose session check travels with its transaction's first statement (RoutePolicy
 * `deferSession`): the signed token's user id at once, the principal once the check has answered.
 */
export interface Caller {
  /** From the access token, whose signature was checked: it may key what the first statement reads or locks. */
  readonly userId: number;
  /**
   * Sends the session's check on `db` with the next statement there (PostgreSQL, in a transaction: one round trip;
   * elsewhere it runs now). `principal()` once that statement ran: the caller, or a 401/403 to roll back on.
   */
  check(db: Executor): Promise<{ principal(): Promise<Principal> }>;
}

/** A caller already checked (a request without the deferral, the demo seed). */
export const knownCaller = (principal: Principal): Caller => ({
  userId: principal.userId,
  check: async () => ({ principal: async () => principal }),
});
