import { sql, type SqlBool } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Executor, UserRow } from '../../db/schema.js';

/** sessionPrincipalRows' statement, compiled once: every authenticated request runs it. */
const sessionPrincipalOnce = compiledOnce(() => '', (db, _shape: null, sessionId: string, userId: number) => {
  const statement = sql<{ id: number; username: string; role: string; customer_id: number | null; kind: 'w' | 'c' | 'm' | null; ref: number | null; perm: string | null }>`
      with su as (
        select u.id, u.username, u.role, u.customer_id from auth_session s join app_user u on u.id = s.user_id
        where s.id = ${sessionId} and s.user_id = ${userId} and s.revoked_at is null and u.is_active = 1
      )
      select su.id, su.username, su.role, su.customer_id, a.kind, a.ref, a.perm from su left join (
        select 'w' as kind, uw.warehouse_id as ref, '' as perm from user_warehouse uw, su where uw.user_id = su.id and su.role <> 'Client'
        union all select 'w', cw.warehouse_id, '' from customer_warehouse cw, su where su.role = 'Client' and cw.customer_id = su.customer_id
        union all select 'c', uc.customer_id, '' from user_customer uc where uc.user_id = ${userId}
        union all select 'm', m.id, um.permission || '|' || m.key from user_module um join module m on m.id = um.module_id where um.user_id = ${userId}
      ) a on su.role <> 'SuperAdministrator'`;
  return { compile: () => statement.compile(db) };
});

/** Every query of sign-in, sessions, tokens, throttling, resets and pins. */
export const authRepository = {
  findUserByLogin(db: Executor, login: string): Promise<UserRow | undefined> {
    const value = login.trim().toLowerCase();
    return db.selectFrom('app_user').selectAll().where((eb) => eb.or([eb('username', '=', value), eb('email', '=', value)]))
      .executeTakeFirst();
  },

  findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
    return db.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirst();
  },

  appName(db: Executor, appId: number | null): Promise<string | null> {
    if (appId == null) return Promise.resolve(null);
    return db.selectFrom('app').select('name').where('id', '=', appId).executeTakeFirst().then((r) => r?.name ?? null);
  },

  async createSession(db: Executor, s: { id: string; userId: number; expiresAt: string; ip: string | null; userAgent: string | null; remember: boolean }) {
    const now = new Date().toISOString();
    await db.insertInto('auth_session').values({
      id: s.id, user_id: s.userId, created_at: now, last_used_at: now, expires_at: s.expiresAt,
      ip: s.ip, user_agent: s.userAgent?.slice(0, 255) ?? null, remember: s.remember ? 1 : 0,
    }).execute();
  },

  async insertRefreshToken(db: Executor, sessionId: string, tokenHash: string) {
    await db.insertInto('refresh_token').values({ session_id: sessionId, token_hash: tokenHash, created_at: new Date().toISOString() }).execute();
  },

  findRefreshToken(db: Executor, tokenHash: string) {
    return db.selectFrom('refresh_token as t')
      .innerJoin('auth_session as s', 's.id', 't.session_id')
      .innerJoin('app_user as u', 'u.id', 's.user_id')
      .select(['t.id as tokenId', 't.used_at as usedAt', 's.id as sessionId', 's.expires_at as expiresAt',
        's.revoked_at as revokedAt', 'u.id as userId', 'u.username', 'u.is_active as isActive'])
      .where('t.token_hash', '=', tokenHash)
      .executeTakeFirst();
  },

  /** Marks a refresh token used; false when it was used already (a replay). Race-free: one conditional UPDATE. */
  async consumeRefreshToken(db: Executor, tokenId: number): Promise<boolean> {
    const r = await db.updateTable('refresh_token').set({ used_at: new Date().toISOString() })
      .where('id', '=', tokenId).where('used_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  async touchSession(db: Executor, sessionId: string) {
    await db.updateTable('auth_session').set({ last_used_at: new Date().toISOString() }).where('id', '=', sessionId).execute();
  },

  async revokeSession(db: Executor, sessionId: string, reason: string) {
    await db.updateTable('auth_session').set({ revoked_at: new Date().toISOString(), revoked_reason: reason })
      .where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
  },

  /** Ends every session of a user, optionally keeping one (the caller's own). */
  async revokeUserSessions(db: Executor, userId: number, reason: string, keepSessionId?: string) {
    let q = db.updateTable('auth_session').set({ revoked_at: new Date().toISOString(), revoked_reason: reason })
      .where('user_id', '=', userId).where('revoked_at', 'is', null);
    if (keepSessionId) q = q.where('id', '<>', keepSessionId);
    await q.execute();
  },

  /** The caller behind an access token: the user, if active, and the session, if not revoked. */
  findActiveSessionUser(db: Executor, sessionId: string, userId: number) {
    return db.selectFrom('auth_session as s')
      .innerJoin('app_user as u', 'u.id', 's.user_id')
      .select(['u.id', 'u.username', 'u.role', 'u.customer_id'])
      .where('s.id', '=', sessionId).where('s.user_id', '=', userId)
      .where('s.revoked_at', 'is', null).where('u.is_active', '=', 1)
      .executeTakeFirst();
  },

  /**
   * The caller behind an access token and everything its principal needs, in one statement (every request
   * runs it): the active user of the unrevoked session, then one row per warehouse, customer and module it
   * holds (a Client's warehouses are its customer's; a Super Administrator's are not read — it sees all).
   * No row: no such session or user.
   */
  sessionPrincipalRows(db: Executor, sessionId: string, userId: number) {
    return sessionPrincipalOnce(db, null, sessionId, userId);
  },

  /** sessionPrincipalRows' statement, not run: for a caller that sends it with another (db/pg-driver.ts sendAhead). */
  sessionPrincipalQuery(db: Executor, sessionId: string, userId: number) {
    return sessionPrincipalOnce.compiled(db, null, sessionId, userId);
  },

  /** A user's warehouses, customers and modules in one round trip. */
  accessRows(db: Executor, userId: number, clientCustomerId: number | null) {
    const warehouses = clientCustomerId == null
      ? sql`select 'w' as kind, warehouse_id as id, '' as perm from user_warehouse where user_id = ${userId}`
      : sql`select 'w' as kind, warehouse_id as id, '' as perm from customer_warehouse where customer_id = ${clientCustomerId}`;
    return sql<{ kind: 'w' | 'c' | 'm'; id: number; perm: string }>`
      ${warehouses}
      union all select 'c', customer_id, '' from user_customer where user_id = ${userId}
      union all select 'm', m.id, um.permission || '|' || m.key from user_module um join module m on m.id = um.module_id
        where um.user_id = ${userId}`.execute(db).then((r) => r.rows);
  },

  getThrottle(db: Executor, keys: string[]) {
    return db.selectFrom('login_throttle').selectAll().where('key', 'in', keys).execute();
  },

  /**
   * Counts one attempt for a key in one statement, or refuses it (answer undefined, nothing changes). It is
   * let through when the key is not blocked and either has fewer than `limit` attempts in the window (failed
   * or still being checked), or holds a lapsed block: a lapsed block lets exactly one attempt through, as the
   * claim clears it. A lapsed window starts again at 1. Concurrent claims queue on the row, so each sees the
   * count the one before it left: however many arrive at once, no more than `limit` get through.
   */
  async claimAttempt(db: Executor, key: string, o: { now: string; windowStart: string; limit: number }): Promise<number | undefined> {
    const lapsed = sql<SqlBool>`login_throttle.window_started_at < ${o.windowStart}`;
    const row = await db.insertInto('login_throttle')
      .values({ key, failures: 1, window_started_at: o.now, blocked_until: null })
      .onConflict((oc) => oc.column('key')
        .doUpdateSet({
          failures: sql<number>`CASE WHEN ${lapsed} THEN 1 ELSE login_throttle.failures + 1 END`,
          window_started_at: sql<string>`CASE WHEN ${lapsed} THEN ${o.now} ELSE login_throttle.window_started_at END`,
          blocked_until: null,
        })
        .where((eb) => eb.and([
          eb.or([eb('login_throttle.blocked_until', 'is', null), eb('login_throttle.blocked_until', '<=', o.now)]),
          eb.or([lapsed, eb('login_throttle.failures', '<', o.limit), eb('login_throttle.blocked_until', 'is not', null)]),
        ])))
      .returning('failures')
      .executeTakeFirst();
    return row?.failures;
  },

  /** Blocks a key until the given time (after a failed attempt that reached its limit). */
  async block(db: Executor, key: string, until: string) {
    await db.updateTable('login_throttle').set({ blocked_until: until }).where('key', '=', key).execute();
  },

  /**
   * Takes one attempt back. When the key stays at or over its limit with no block, a lapsed block is left in
   * its place, so the next attempt is let through as it would have been.
   */
  async refundAttempt(db: Executor, key: string, limit: number) {
    await db.updateTable('login_throttle')
      .set({
        failures: sql`failures - 1`,
        blocked_until: sql`CASE WHEN blocked_until IS NULL AND failures - 1 >= ${limit} THEN window_started_at ELSE blocked_until END`,
      })
      .where('key', '=', key).where('failures', '>', 0)
      .execute();
  },

  /** Counts one use atomically, starting a new window when the old one has lapsed; returns the count. */
  async countUse(db: Executor, key: string, windowStartBefore: string): Promise<number> {
    const now = new Date().toISOString();
    const row = await db.insertInto('login_throttle')
      .values({ key, failures: 1, window_started_at: now, blocked_until: null })
      .onConflict((oc) => oc.column('key').doUpdateSet({
        failures: sql`CASE WHEN login_throttle.window_started_at < ${windowStartBefore} THEN 1 ELSE login_throttle.failures + 1 END`,
        window_started_at: sql`CASE WHEN login_throttle.window_started_at < ${windowStartBefore} THEN ${now} ELSE login_throttle.window_started_at END`,
      }))
      .returning('failures')
      .executeTakeFirstOrThrow();
    return row.failures;
  },

  async clearThrottle(db: Executor, key: string) {
    await db.deleteFrom('login_throttle').where('key', '=', key).execute();
  },

  async setPassword(db: Executor, userId: number, passwordHash: string) {
    const now = new Date().toISOString();
    await db.updateTable('app_user').set({ password_hash: passwordHash, password_changed_at: now, updated_at: now }).where('id', '=', userId).execute();
  },

  async insertPasswordReset(db: Executor, userId: number, tokenHash: string, expiresAt: string) {
    // A new link replaces any earlier one.
    await db.updateTable('password_reset').set({ used_at: new Date().toISOString() }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
    await db.insertInto('password_reset').values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt, created_at: new Date().toISOString() }).execute();
  },

  /** Uses a reset token if it is this user's, unused and unexpired; one conditional UPDATE, so single-use. */
  async consumePasswordReset(db: Executor, userId: number, tokenHash: string): Promise<boolean> {
    const now = new Date().toISOString();
    const r = await db.updateTable('password_reset').set({ used_at: now })
      .where('user_id', '=', userId).where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null).where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  async insertPin(db: Executor, userId: number, pinHash: string, expiresAt: string) {
    await db.updateTable('email_pin').set({ used_at: new Date().toISOString() }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
    await db.insertInto('email_pin').values({ user_id: userId, pin_hash: pinHash, expires_at: expiresAt, created_at: new Date().toISOString(), attempts: 0 }).execute();
  },

  /** Counts an attempt against the user's live pin and returns it (after the count), if there is one. */
  async attemptPin(db: Executor, userId: number) {
    const now = new Date().toISOString();
    return db.updateTable('email_pin').set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('user_id', '=', userId).where('used_at', 'is', null).where('expires_at', '>', now)
      .returning(['id', 'pin_hash', 'attempts'])
      .executeTakeFirst();
  },

  async usePin(db: Executor, pinId: number): Promise<boolean> {
    const r = await db.updateTable('email_pin').set({ used_at: new Date().toISOString() })
      .where('id', '=', pinId).where('used_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  async updateUser(db: Executor, userId: number, values: Partial<Pick<UserRow, 'first_name' | 'last_name' | 'email' | 'phone' | 'timezone' | 'email_verified' | 'default_app_id'>>) {
    await db.updateTable('app_user').set({ ...values, updated_at: new Date().toISOString() }).where('id', '=', userId).execute();
  },
};
