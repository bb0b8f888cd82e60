import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { mayAccess, type Permission, type Role } from '@bolx/contracts';
import { forbidden, unauthenticated } from '../platform/errors.js';
import { knownCaller, type Caller, type Principal } from '../platform/principal.js';
import type { Actor } from '../platform/actor.js';
import type { AccessClaims } from '../platform/tokens.js';
import type { Executor } from '../db/schema.js';

/**
 * How a route's data is held to the caller's warehouses and customers:
 * - 'none': not tenant data (reference lists, the caller's own session);
 * - 'self': only the caller's own record;
 * - 'tenant': tenant data; the service applies `principal.scope` to every query and checks ids it is given.
 */
export type ScopeRule = 'none' | 'self' | 'tenant';

export type RoutePolicy =
  | { access: 'public' }
  | {
    access: 'authenticated'; roles?: readonly Role[]; module?: { key: string; permission: Permission }; scope: ScopeRule;
    /**
     * Open to a customer's API key (`X-Api-Key`) as well as to signed-in users. A key is refused (403) on every
     * route without it, whatever its role and modules would let through: keys reach only what is meant for them.
     */
    apiKey?: true;
    /**
     * The session's check goes with the handler's first transaction statement instead of a round trip of its own
     * (a pick on the floor: one of four). The handler must take its caller through `callerOf` and check it in that
     * transaction before it writes (`caller.check(tx)`, then `principal()` after its first statement); `principalOf`
     * refuses such a request. Bearer tokens only (an API key is checked up front as usual); a keyed request's key
     * belongs to the token's user, and a caller the check refuses never gets a key's answer (plugins/idempotency.ts).
     */
    deferSession?: true;
  };

export const PUBLIC: RoutePolicy = { access: 'public' };

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: RoutePolicy;
    servesFiles?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** A deferSession route's caller, until its check has answered (then `principal` too). */
    deferredCaller: Caller | null;
    /** The actor handed out before a deferred check answered: named by the check (audit rows come after it). */
    deferredActor: Actor | null;
  }
  interface FastifyInstance {
    /** Every route registered, for the policy walk and the docs. */
    routeTable: RouteOptions[];
  }
}

/**
 * For a plugin context that only serves files (the API reader, the built web app): its routes carry no data,
 * so they are declared public here, and marked so the route walk knows they have no API schema.
 */
export function declareFileRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object), policy: PUBLIC, servesFiles: true };
  });
}

/** Reads the bearer token into a Principal. */
export type PrincipalResolver = (token: string) => Promise<Principal | null>;
/** For deferSession routes: a token's claims without its session, and the session's check sent with a statement. */
export interface DeferredSessions {
  claims(token: string): Promise<AccessClaims | null>;
  sendCheck(db: Executor, claims: AccessClaims): Promise<{ principal(): Promise<Principal | null> }>;
}
/**
 * Reads an `X-Api-Key` into its key's Principal; throws 401 for an unknown, malformed or revoked key (each
 * counted against the caller's address) and 429 while the address is blocked for guessing.
 */
export type ApiKeyResolver = (key: string, ip: string | null) => Promise<Principal>;

/** The `X-Api-Key` header of a request, when it has one (and no bearer token, which wins). */
export function apiKeyOf(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  return typeof header === 'string' && header.trim() ? header.trim() : null;
}

/**
 * The token of an API call: the Authorization header only. `?access_token=` is the hub's alone (browsers cannot
 * set headers on a WebSocket; see plugins/hub.ts): a token in a URL ends up in logs, history and Referer headers.
 */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null;
  return null;
}

export function actorOf(request: FastifyRequest): Actor {
  if (!request.principal && request.deferredCaller) {
    request.deferredActor ??= { userId: request.deferredCaller.userId, username: null, ip: request.ip ?? null, requestId: request.id };
    return request.deferredActor;
  }
  const key = request.principal?.apiKey;
  return {
    userId: request.principal?.userId ?? null,
    // A key's changes name the key (its shown prefix) as who made them; userId is the user who created it.
    username: key ? `api-key:${key.prefix}` : request.principal?.username ?? null,
    ip: request.ip ?? null,
    requestId: request.id,
  };
}

/** The caller of a route, checked already or (deferSession) to be checked in the handler's transaction. */
export function callerOf(request: FastifyRequest): Caller {
  return request.deferredCaller ?? knownCaller(principalOf(request));
}

/** The caller of an authenticated route (the policy hook has already refused anonymous calls). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthenticated();
  return request.principal;
}

/**
 * Whether a policy lets a signed-in caller in: its roles and its module permission. Requests are checked with it,
 * and so are live events, through the policy of the route that lists their record.
 */
export function admits(policy: RoutePolicy, principal: Principal): boolean {
  if (policy.access === 'public') return true;
  if (principal.apiKey && !policy.apiKey) return false;
  // The same rule the web offers its screens and actions by (contracts' mayAccess).
  return mayAccess(principal, policy);
}

/**
 * Who is calling: the bearer token's user, else the `X-Api-Key`'s key; 401 for an anonymous request. The one
 * place a request's credentials become a Principal.
 */
async function authenticate(request: FastifyRequest, opts: { resolve: PrincipalResolver; resolveApiKey?: ApiKeyResolver }): Promise<Principal> {
  const token = bearerToken(request);
  const key = token ? null : apiKeyOf(request);
  if (key && opts.resolveApiKey) return opts.resolveApiKey(key, request.ip ?? null);
  const principal = token ? await opts.resolve(token) : null;
  if (!principal) throw unauthenticated(token ? 'Session expired or invalid token' : 'Authentication required');
  return principal;
}

/**
 * A deferSession request's caller: its token's signature and expiry checked now, its session (revoked, user
 * disabled) and the policy's roles and module by `check` in the handler's transaction. Null: check it up front.
 */
async function deferredCaller(request: FastifyRequest, policy: RoutePolicy, sessions: DeferredSessions): Promise<Caller | null> {
  const token = bearerToken(request);
  if (!token) return null;
  const claims = await sessions.claims(token);
  if (!claims) throw unauthenticated('Session expired or invalid token');
  return {
    userId: claims.userId,
    check: async (db) => {
      const sent = await sessions.sendCheck(db, claims);
      return {
        principal: async () => {
          const principal = await sent.principal();
          if (!principal) throw unauthenticated('Session expired or invalid token');
          if (!admits(policy, principal)) throw forbidden();
          request.principal = principal;
          if (request.deferredActor) request.deferredActor.username = principal.username;
          return principal;
        },
      };
    },
  };
}

/**
 * The one place access is enforced: every route's `config.policy` is checked before its body is even read (a
 * deferSession route's session and roles in the handler's transaction, before it writes). A route without a
 * policy fails closed.
 */
export const accessPlugin = fp(async (app: FastifyInstance, opts: { resolve: PrincipalResolver; resolveApiKey?: ApiKeyResolver; deferred?: DeferredSessions }) => {
  app.decorateRequest('principal', null);
  app.decorateRequest('deferredCaller', null);
  app.decorateRequest('deferredActor', null);
  app.decorate('routeTable', [] as RouteOptions[]);
  app.addHook('onRoute', (route) => {
    app.routeTable.push(route);
  });
  app.addHook('onRequest', async (request) => {
    const policy = request.routeOptions.config?.policy;
    if (request.is404) return;
    if (!policy) throw forbidden('This route has no access policy');
    if (policy.access === 'public') return;
    if (policy.deferSession && opts.deferred) {
      request.deferredCaller = await deferredCaller(request, policy, opts.deferred);
      if (request.deferredCaller) return;
    }
    const principal = await authenticate(request, opts);
    request.principal = principal;
    if (!admits(policy, principal)) throw forbidden(principal.apiKey && !policy.apiKey ? 'This route is not open to API keys' : undefined);
  });
  // A deferSession handler that answered without checking its caller is a defect: never let it read as a success.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.deferredCaller && !request.principal && reply.statusCode < 400) {
      throw new Error(`${request.routeOptions.url} answered without checking its caller's session (deferSession)`);
    }
    return payload;
  });
});
