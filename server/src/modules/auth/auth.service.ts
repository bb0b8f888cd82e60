import { randomUUID } from 'node:crypto';
import { ADMIN_ROLES, MSG, PIN_LENGTH, ROLE_LABELS, roleSchema, type Permission, type Role } from '@bolx/contracts';
import type { Actor } from '../../platform/actor.js';
import { AppError, badRequest, forbidden, notFound, unauthenticated, unprocessable } from '../../platform/errors.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import type { AccessClaims } from '../../platform/tokens.js';
import { sendAhead } from '../../db/pg-driver.js';
import type { Executor } from '../../db/schema.js';
import type { Principal } from '../../platform/principal.js';
import { Scope } from '../../platform/scope.js';
import {
  hashPassword, newOpaqueToken, newPin, safeEqualHex, sha256, verifyAgainstDummy, verifyPassword,
} from '../../platform/secrets.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { authRepository as repo } from './auth.repository.js';
import { AttemptThrottle, type ClaimedAttempt, type ThrottleSettings } from './attempt-throttle.js';

/** Sign-in rules. Figures a security reviewer will ask about, in one place. */
export const AUTH_RULES = {
  sessionHours: 12,
  rememberedSessionDays: 30,
  resetLinkMinutes: 30,
  pinMinutes: 10,
  pinMaxAttempts: 5,
  throttleWindowMinutes: 15,
  accountFailuresBeforeBlock: 5,
  addressFailuresBeforeBlock: 20,
  firstBlockSeconds: 30,
  maxBlockSeconds: 15 * 60,
  /** An attempt beyond the limit while others are still being checked waits this long for one to free the key. */
  throttleWaitMs: 3000,
  /** SendResetLink answers no sooner than this, found or not, so its timing tells nothing. */
  resetLinkAnswerMs: 400,
  /** Mails (reset links, pins) per account per throttle window, so nobody can flood a mailbox. */
  mailsPerWindow: 5,
  /** Reset-link requests per requested e-mail/username, and per address, before they are blocked like sign-ins. */
  resetRequestsPerName: 5,
  resetRequestsPerAddress: 20,
};

/** The block rules every throttled key of sign-in and reset requests follows. */
export const THROTTLE_SETTINGS: ThrottleSettings = {
  windowMinutes: AUTH_RULES.throttleWindowMinutes,
  firstBlockSeconds: AUTH_RULES.firstBlockSeconds,
  maxBlockSeconds: AUTH_RULES.maxBlockSeconds,
  waitMs: AUTH_RULES.throttleWaitMs,
};

/** What SendResetLink answers as `userId` when a link went out: non-zero, as the spec's screen needs, never the account's id. */
export const RESET_LINK_SENT = 1;

const INVALID_LOGIN = 'Invalid username or password';

export interface LoginInput { username: string; password: string; rememberMe: boolean }
export interface ClientInfo { ip: string | null; userAgent: string | null }

export class AuthService {
  private readonly throttle: AttemptThrottle;

  constructor(private readonly deps: Pick<ServiceDeps, 'config' | 'db' | 'mailer' | 'recorder' | 'tokens'>) {
    this.throttle = new AttemptThrottle(deps.db, THROTTLE_SETTINGS);
  }

  private get db() { return this.deps.db; }
  private get recorder() { return this.deps.recorder; }

  async login(input: LoginInput, client: ClientInfo, actor: Actor) {
    const account = { key: `acct:${input.username.trim().toLowerCase()}`, limit: AUTH_RULES.accountFailuresBeforeBlock };
    const address = { key: `ip:${client.ip ?? 'unknown'}`, limit: AUTH_RULES.addressFailuresBeforeBlock };
    // Counted before the password is checked, so concurrent guesses cannot all slip in under the limit.
    const attempts = await this.throttle.claim([account, address]);
    const addressAttempt = attempts[1]; // claims answer in the order of their rules

    const user = await repo.findUserByLogin(this.db, input.username);
    const passwordOk = user ? await verifyPassword(user.password_hash, input.password) : (await verifyAgainstDummy(input.password), false);

    if (!user || !passwordOk || user.is_active !== 1) {
      await this.throttle.spend(attempts);
      await this.recorder.recordAlone(this.db, { ...actor, userId: user?.id ?? null, username: input.username.slice(0, 100) },
        { action: 'login_failed', entity: 'user', entityId: user?.id ?? null });
      throw unauthenticated(INVALID_LOGIN);
    }

    const role = roleSchema.parse(user.role);
    const refreshToken = newOpaqueToken();
    const sessionId = randomUUID();
    const expiresAt = new Date(Date.now() + (input.rememberMe
      ? AUTH_RULES.rememberedSessionDays * 864e5 : AUTH_RULES.sessionHours * 36e5)).toISOString();
    const appName = await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      await this.throttle.clear(tx, account.key);
      await this.throttle.refund(tx, addressAttempt);
      await repo.createSession(tx, { id: sessionId, userId: user.id, expiresAt, ip: client.ip, userAgent: client.userAgent, remember: input.rememberMe });
      await repo.insertRefreshToken(tx, sessionId, sha256(refreshToken));
      await this.recorder.record(uow, { ...actor, userId: user.id, username: user.username },
        { audit: { action: 'login', entity: 'user', entityId: user.id, after: { sessionId, rememberMe: input.rememberMe } } });
      return repo.appName(tx, user.default_app_id);
    });
    return {
      accesstoken: await this.deps.tokens.sign({ userId: user.id, sessionId }),
      refreshtoken: refreshToken,
      username: user.username,
      usertype: ROLE_LABELS[role],
      userid: user.id,
      appName,
    };
  }

  /** Rotates a refresh token. A token used twice means it was stolen: its whole session is revoked. */
  async refresh(refreshToken: string, actor: Actor) {
    const found = await repo.findRefreshToken(this.db, sha256(refreshToken));
    if (!found) throw unauthenticated('Invalid refresh token');
    const next = newOpaqueToken();
    const outcome = await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      const who = { ...actor, userId: found.userId, username: found.username };
      if (!(await repo.consumeRefreshToken(tx, found.tokenId))) {
        await repo.revokeSession(tx, found.sessionId, 'refresh_token_reuse');
        await this.recorder.record(uow, who, { audit: { action: 'refresh_token_reuse', entity: 'session', entityId: found.sessionId } });
        return 'reused' as const;
      }
      if (found.revokedAt || found.expiresAt <= new Date().toISOString() || found.isActive !== 1) return 'ended' as const;
      await repo.insertRefreshToken(tx, found.sessionId, sha256(next));
      await repo.touchSession(tx, found.sessionId);
      await this.recorder.record(uow, who, { audit: { action: 'token_refresh', entity: 'session', entityId: found.sessionId } });
      return 'ok' as const;
    });
    if (outcome !== 'ok') throw unauthenticated(outcome === 'reused' ? 'Refresh token reuse detected; please sign in again' : 'Session ended; please sign in again');
    return { accesstoken: await this.deps.tokens.sign({ userId: found.userId, sessionId: found.sessionId }), refreshtoken: next };
  }

  async logout(principal: Principal, refreshToken: string | undefined, actor: Actor) {
    await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      await repo.revokeSession(tx, principal.sessionId, 'logout');
      await this.recorder.record(uow, actor, { audit: { action: 'logout', entity: 'session', entityId: principal.sessionId } });
    });
    void refreshToken; // the session (its whole token family) is what ends; the token itself needs no lookup
  }

  /**
   * Answers {userId}: 0 when unknown, RESET_LINK_SENT otherwise — never the account's id, which is no
   * business of an anonymous caller — no sooner than a fixed time either way. Requests are throttled per
   * requested name and per address like sign-ins; mails per account are capped on top.
   */
  async sendResetLink(emailOrUsername: string, client: ClientInfo, actor: Actor) {
    await this.throttle.spend(await this.throttle.claim([
      { key: `reset-name:${emailOrUsername.trim().toLowerCase()}`, limit: AUTH_RULES.resetRequestsPerName },
      { key: `reset-ip:${client.ip ?? 'unknown'}`, limit: AUTH_RULES.resetRequestsPerAddress },
    ]));
    const started = Date.now();
    const user = await repo.findUserByLogin(this.db, emailOrUsername);
    const token = newOpaqueToken();
    if (user && user.is_active === 1 && (await this.throttle.allow({ key: `mail-reset:${user.id}`, limit: AUTH_RULES.mailsPerWindow }))) {
      await inTransaction(this.db, async (uow) => {
        const { tx, afterCommit } = uow;
        const expiresAt = new Date(Date.now() + AUTH_RULES.resetLinkMinutes * 60_000).toISOString();
        await repo.insertPasswordReset(tx, user.id, sha256(token), expiresAt);
        const link = `${this.deps.config.publicUrl}/reset-password?userId=${user.id}&token=${token}`;
        await this.deps.mailer.enqueue(tx, {
          to: user.email,
          subject: 'Reset your BOLX-WMS password',
          body: `Hello ${user.first_name},\n\nSomeone asked to reset the password of your BOLX-WMS account "${user.username}".\n` +
            `Open this link within ${AUTH_RULES.resetLinkMinutes} minutes to choose a new password:\n\n${link}\n\n` +
            'If it was not you, ignore this message; your password stays as it is.',
        }, afterCommit);
        await this.recorder.record(uow, { ...actor, userId: user.id, username: user.username }, { audit: { action: 'password_reset_requested', entity: 'user', entityId: user.id } });
      });
    }
    const wait = AUTH_RULES.resetLinkAnswerMs - (Date.now() - started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    return user && user.is_active === 1
      ? { userId: RESET_LINK_SENT, message: 'A reset link has been sent to your e-mail address' }
      : { userId: 0, message: MSG.invalidEmailUsername };
  }

  async resetWithToken(input: { userId: number; token: string; newPassword: string }, actor: Actor) {
    const passwordHash = await hashPassword(input.newPassword);
    const ok = await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      if (!(await repo.consumePasswordReset(tx, input.userId, sha256(input.token)))) return false;
      await repo.setPassword(tx, input.userId, passwordHash);
      await repo.revokeUserSessions(tx, input.userId, 'password_reset');
      await this.recorder.record(uow, { ...actor, userId: input.userId }, { audit: { action: 'password_reset', entity: 'user', entityId: input.userId } });
      return true;
    });
    if (!ok) throw unprocessable('This reset link is invalid or has expired', 'Request a new link from the Forgot Password page');
    return { message: 'Your password has been reset. Please sign in.' };
  }

  /** Changing one's own password keeps the current session and ends the others; an administrator's reset ends all. */
  async changePassword(principal: Principal, input: { userId: number; previousPassword?: string; newPassword: string }, actor: Actor) {
    const self = input.userId === principal.userId;
    const target = await repo.findUserById(this.db, input.userId);
    if (!target) throw notFound('User');
    let attempts: ClaimedAttempt[] = [];
    if (self) {
      if (!input.previousPassword) throw badRequest(MSG.previousPassword, { previousPassword: MSG.previousPassword });
      // A signed-in session (perhaps a stolen one) may not guess the password any faster than the sign-in page.
      attempts = await this.throttle.claim([{ key: `password-check:${target.id}`, limit: AUTH_RULES.accountFailuresBeforeBlock }]);
      if (!(await verifyPassword(target.password_hash, input.previousPassword))) {
        await this.throttle.spend(attempts);
        throw unprocessable('The previous password is not correct', { previousPassword: 'The previous password is not correct' });
      }
    } else {
      await this.assertCanAdminister(principal, target.id);
    }
    const passwordHash = await hashPassword(input.newPassword);
    await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      await repo.setPassword(tx, target.id, passwordHash);
      for (const done of attempts) await this.throttle.clear(tx, done.rule.key);
      await repo.revokeUserSessions(tx, target.id, 'password_changed', self ? principal.sessionId : undefined);
      await this.recorder.record(uow, actor, { audit: { action: self ? 'password_change' : 'password_admin_reset', entity: 'user', entityId: target.id } });
    });
    return { message: 'Password changed successfully' };
  }

  /** An administrator may act on users who share a warehouse with them; a Super Administrator on anyone. */
  private async assertCanAdminister(principal: Principal, targetUserId: number) {
    if (!ADMIN_ROLES.includes(principal.role)) throw forbidden();
    if (principal.role === 'SuperAdministrator') return;
    const rows = await repo.accessRows(this.db, targetUserId, null);
    const shared = rows.some((r) => r.kind === 'w' && principal.scope.canSeeWarehouse(r.id));
    if (!shared) throw forbidden('This user is outside your warehouses');
  }

  async sendEmailPin(principal: Principal, actor: Actor) {
    const user = await repo.findUserById(this.db, principal.userId);
    if (!user) throw notFound('User');
    if (!(await this.throttle.allow({ key: `mail-pin:${user.id}`, limit: AUTH_RULES.mailsPerWindow }))) throw new AppError(429, 'THROTTLED', 'Too many pins requested. Please try again later.');
    const pin = newPin(PIN_LENGTH);
    await inTransaction(this.db, async (uow) => {
      const { tx, afterCommit } = uow;
      await repo.insertPin(tx, user.id, sha256(`${user.id}:${pin}`), new Date(Date.now() + AUTH_RULES.pinMinutes * 60_000).toISOString());
      await this.deps.mailer.enqueue(tx, {
        to: user.email,
        subject: 'Your BOLX-WMS verification pin',
        body: `Your verification pin is ${pin}. It expires in ${AUTH_RULES.pinMinutes} minutes and can be used once.`,
      }, afterCommit);
      await this.recorder.record(uow, actor, { audit: { action: 'email_pin_sent', entity: 'user', entityId: user.id } });
    });
    return { message: `A ${PIN_LENGTH}-digit pin has been sent to your e-mail address`, expiresInSeconds: AUTH_RULES.pinMinutes * 60 };
  }

  async verifyEmailPin(principal: Principal, pin: string, actor: Actor) {
    const result = await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      const live = await repo.attemptPin(tx, principal.userId);
      if (!live) return 'none' as const;
      if (live.attempts > AUTH_RULES.pinMaxAttempts) return 'exhausted' as const;
      if (!safeEqualHex(live.pin_hash, sha256(`${principal.userId}:${pin}`))) return 'wrong' as const;
      if (!(await repo.usePin(tx, live.id))) return 'none' as const;
      await repo.updateUser(tx, principal.userId, { email_verified: 1 });
      await this.recorder.record(uow, actor, { audit: { action: 'email_verified', entity: 'user', entityId: principal.userId } });
      return 'ok' as const;
    });
    if (result === 'ok') return { message: 'Your e-mail address is verified' };
    if (result === 'exhausted') throw new AppError(429, 'THROTTLED', 'Too many wrong pins. Request a new pin.');
    throw unprocessable(result === 'wrong' ? 'The pin is not correct. Please try again.' : 'The pin has expired or was already used. Request a new pin.');
  }

  async getProfile(principal: Principal) {
    const u = await repo.findUserById(this.db, principal.userId);
    if (!u) throw notFound('User');
    return {
      userId: u.id, username: u.username, email: u.email, firstName: u.first_name, lastName: u.last_name,
      phone: u.phone, timezone: u.timezone, usertype: ROLE_LABELS[roleSchema.parse(u.role)], emailVerified: u.email_verified === 1,
    };
  }

  async updateProfile(principal: Principal, input: { firstName: string; lastName: string; email: string; phone?: string | null; timezone: string }, actor: Actor) {
    if (!isTimeZone(input.timezone)) throw badRequest('Unknown time zone', { timezone: 'Unknown time zone' });
    const before = await this.getProfile(principal);
    const email = input.email.toLowerCase();
    await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      await repo.updateUser(tx, principal.userId, {
        first_name: input.firstName, last_name: input.lastName, email, phone: input.phone ?? null, timezone: input.timezone,
        ...(email !== before.email ? { email_verified: 0 } : {}),
      });
      await this.recorder.record(uow, actor, { audit: { action: 'update', entity: 'profile', entityId: principal.userId, before, after: { ...input, email } } });
    });
    return { message: 'Profile updated successfully', data: await this.getProfile(principal) };
  }

  /** Resolves an access token to the caller, checking the session and the user every time. */
  async principalFromToken(token: string): Promise<Principal | null> {
    const claims = await this.deps.tokens.verify(token);
    if (!claims) return null;
    // One statement: the session's user and its access rows together (see sessionPrincipalRows).
    return this.principalOfSession(await repo.sessionPrincipalRows(this.db, claims.sessionId, claims.userId), claims);
  }

  /** A token's claims when its signature and expiry are good: the session behind it is not checked yet. */
  tokenClaims(token: string): Promise<AccessClaims | null> {
    return this.deps.tokens.verify(token);
  }

  /**
   * The session check of principalFromToken for verified claims, sent on `db` with its next statement (on PostgreSQL
   * in a transaction: one round trip for both, db/pg-driver.ts sendAhead); `principal()` once that statement ran.
   */
  async sendSessionCheck(db: Executor, claims: AccessClaims): Promise<{ principal(): Promise<Principal | null> }> {
    const answer = await sendAhead(db, repo.sessionPrincipalQuery(db, claims.sessionId, claims.userId));
    return { principal: async () => this.principalOfSession(await answer.rows(), claims) };
  }

  /** The caller from sessionPrincipalRows' rows; null when the session is revoked or the user disabled. */
  private principalOfSession(rows: Awaited<ReturnType<typeof repo.sessionPrincipalRows>>, claims: AccessClaims): Principal | null {
    const user = rows[0];
    if (!user) return null;
    const role = roleSchema.safeParse(user.role);
    if (!role.success) return null;
    const access = rows.filter((r) => r.kind != null).map((r) => ({ kind: r.kind!, id: Number(r.ref), perm: r.perm ?? '' }));
    return this.principalOf(Number(user.id), user.username, role.data, user.customer_id == null ? null : Number(user.customer_id), claims.sessionId, access);
  }

  /**
   * An active user's principal with no session in hand: a background job running for its owner, with the owner's
   * access as it is now (null when the user was disabled meanwhile).
   */
  async principalOfUser(userId: number, sessionId: string): Promise<Principal | null> {
    const user = await repo.findUserById(this.db, userId);
    if (!user || !user.is_active) return null;
    const role = roleSchema.safeParse(user.role);
    if (!role.success) return null;
    const clientCustomer = role.data === 'Client' ? user.customer_id : null;
    const rows = role.data === 'SuperAdministrator' ? [] : await repo.accessRows(this.db, userId, clientCustomer);
    return this.principalOf(userId, user.username, role.data, user.customer_id, sessionId, rows.map((r) => ({ ...r, id: Number(r.id) })));
  }

  /** A Principal from the user and its access rows (warehouses 'w', customers 'c', modules 'm' as permission|key). */
  private principalOf(userId: number, username: string, role: Role, customerId: number | null, sessionId: string, rows: { kind: 'w' | 'c' | 'm'; id: number; perm: string }[]): Principal {
    if (role === 'SuperAdministrator') {
      return { userId, username, role, sessionId, customerId: null, scope: Scope.everything, modules: 'all' };
    }
    const clientCustomer = role === 'Client' ? customerId : null;
    const warehouses: number[] = [];
    const customers: number[] = [];
    const modules = new Map<string, Permission>();
    for (const r of rows) {
      if (r.kind === 'w') warehouses.push(Number(r.id));
      else if (r.kind === 'c') customers.push(Number(r.id));
      else {
        const [perm, key] = r.perm.split('|');
        modules.set(key, perm === 'write' ? 'write' : 'read');
      }
    }
    const scope = new Scope(warehouses, clientCustomer != null ? [clientCustomer] : customers);
    return { userId, username, role, sessionId, customerId: clientCustomer, scope, modules };
  }
}

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
