import { flattenModules, type Permission, type Role } from '@bolx/contracts';
import type { Executor } from '../schema.js';
import { hashPassword } from '../../platform/secrets.js';
import { moduleIdsByKey } from './base.js';

export interface NewUser {
  username: string;
  password: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  customerId?: number | null;
  timezone?: string;
  defaultAppId?: number | null;
  warehouseIds?: number[];
  customerIds?: number[];
  /** Module key → permission; a group key grants all its children. */
  modules?: Record<string, Permission>;
}

/** Inserts a user with warehouses, customers and modules. Used by the first-start admin, demo data and tests. */
export async function insertUser(tx: Executor, u: NewUser): Promise<number> {
  const now = new Date().toISOString();
  const { id } = await tx.insertInto('app_user').values({
    username: u.username.toLowerCase(), email: u.email.toLowerCase(), password_hash: await hashPassword(u.password),
    first_name: u.firstName, last_name: u.lastName, phone: null, timezone: u.timezone ?? 'UTC', role: u.role,
    customer_id: u.customerId ?? null, is_active: 1, email_verified: 0, default_app_id: u.defaultAppId ?? null,
    password_changed_at: now, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  if (u.warehouseIds?.length) await tx.insertInto('user_warehouse').values(u.warehouseIds.map((w) => ({ user_id: id, warehouse_id: w }))).execute();
  if (u.customerIds?.length) await tx.insertInto('user_customer').values(u.customerIds.map((c) => ({ user_id: id, customer_id: c }))).execute();
  const grants = expandModuleGrants(u.modules ?? {});
  if (grants.size) {
    const ids = await moduleIdsByKey(tx);
    const rows = [...grants].flatMap(([key, permission]) => {
      const m = ids.get(key);
      return m ? [{ user_id: id, module_id: m.id, permission }] : [];
    });
    if (rows.length) await tx.insertInto('user_module').values(rows).execute();
  }
  return id;
}

/** A grant on a group (or an app key) covers every module beneath it; a more specific grant wins. */
export function expandModuleGrants(grants: Record<string, Permission>): Map<string, Permission> {
  const all = flattenModules();
  const out = new Map<string, Permission>();
  const under = (key: string): string[] => {
    const kids = all.filter((x) => x.parentKey === key || (x.parentKey === null && x.app.key === key)).map((x) => x.module.key);
    return kids.flatMap((k) => [k, ...under(k)]);
  };
  // Broad grants first, so specific ones given later override them.
  for (const [key, perm] of Object.entries(grants)) for (const k of under(key)) out.set(k, perm);
  for (const [key, perm] of Object.entries(grants)) if (all.some((x) => x.module.key === key)) out.set(key, perm);
  return out;
}
