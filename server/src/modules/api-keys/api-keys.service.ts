import { randomBytes } from 'node:crypto';
import { API_KEY_MODULES, API_KEY_PATTERN, type ApiKey } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import { classifyDbError } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import { notFound, conflict, throttled, unauthenticated } from '../../platform/errors.js';
import type { Principal } from '../../platform/principal.js';
import { Scope } from '../../platform/scope.js';
import { safeEqualHex, sha256 } from '../../platform/secrets.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import { AttemptThrottle } from '../auth/attempt-throttle.js';
import { AUTH_RULES, THROTTLE_SETTINGS } from '../auth/auth.service.js';
import { requireCustomer } from '../customers/customer-access.js';
import { apiKeyRepository as repo } from './api-keys.repository.js';

/** API-key rules, in one place. */
export const API_KEY_RULES = {
  /** last_used_at is written at most this often per key, so a busy integration does not write on every call. */
  touchEveryMs: 60_000,
  /** Wrong keys from one address before it is blocked, as sign-ins are (AUTH_RULES' windows and block times). */
  failuresPerAddress: AUTH_RULES.addressFailuresBeforeBlock,
};

type ListedRow = Awaited<ReturnType<typeof repo.ofCustomer>>[number];

const shown = (prefix: string) => `bolx_${prefix}_…`;

function toApiKey(r: ListedRow): ApiKey {
  return {
    apiKeyId: Number(r.id), customerId: Number(r.customer_id), name: r.name, prefix: shown(r.key_prefix),
    createdAt: r.created_at, createdBy: r.created_by_name ?? null, lastUsedAt: r.last_used_at ?? null,
    revokedAt: r.revoked_at ?? null, revokedBy: r.revoked_by_name ?? null,
  };
}

/**
 * A customer's API keys: created (the whole key answered once; only the secret's SHA-256 kept), listed (never the
 * secret or its hash), revoked; and a key read into the Principal its requests run as. Administrators manage the
 * keys of the customers in their scope; a Client account holding the Customer module with write (its customer's
 * administrator) manages its own customer's; one with read may list them.
 */
export class ApiKeyService {
  private readonly db: Db;
  private readonly throttle: AttemptThrottle;

  constructor(private readonly deps: Pick<ServiceDeps, 'db' | 'recorder'>) {
    this.db = deps.db;
    this.throttle = new AttemptThrottle(deps.db, THROTTLE_SETTINGS);
  }

  async list(principal: Principal, customerId: number): Promise<ApiKey[]> {
    await requireCustomer(this.db, principal, customerId);
    return (await repo.ofCustomer(this.db, customerId)).map(toApiKey);
  }

  async create(principal: Principal, input: { customerId: number; name: string }, actor: Actor) {
    const customer = await requireCustomer(this.db, principal, input.customerId);
    for (let attempt = 1; ; attempt++) {
      const prefix = randomBytes(4).toString('hex');
      const secret = randomBytes(32).toString('hex');
      try {
        const id = await inTransaction(this.db, async (uow) => {
          const at = new Date().toISOString();
          const keyId = await repo.insert(uow.tx, { customerId: customer.id, name: input.name, prefix, hash: sha256(secret), createdBy: principal.userId, at });
          await this.deps.recorder.record(uow, actor, {
            audit: { action: 'create', entity: 'customer_api_key', entityId: keyId, customerId: customer.id, after: { name: input.name, prefix: shown(prefix) } },
          });
          return keyId;
        });
        const [row] = await repo.ofCustomer(this.db, customer.id, id);
        return { message: 'API key created. Copy it now: it is not shown again.', data: { ...toApiKey(row), apiKey: `bolx_${prefix}_${secret}` } };
      } catch (err) {
        // Two keys drew the same 8-character prefix (1 in 4 billion): draw again.
        if (classifyDbError(err) !== 'unique' || attempt >= 3) throw err;
      }
    }
  }

  async revoke(principal: Principal, input: { customerId: number; apiKeyId: number }, actor: Actor) {
    await requireCustomer(this.db, principal, input.customerId);
    const done = await inTransaction(this.db, async (uow) => {
      const at = new Date().toISOString();
      const revoked = await repo.revoke(uow.tx, input.customerId, input.apiKeyId, principal.userId, at);
      if (!revoked) return false;
      await this.deps.recorder.record(uow, actor, {
        audit: { action: 'revoke', entity: 'customer_api_key', entityId: input.apiKeyId, customerId: input.customerId, after: { revokedAt: at } },
      });
      return true;
    });
    if (!done) {
      if (await repo.exists(this.db, input.customerId, input.apiKeyId)) throw conflict('This API key is already revoked');
      throw notFound('API key');
    }
    const [row] = await repo.ofCustomer(this.db, input.customerId, input.apiKeyId);
    return { message: 'API key revoked', data: toApiKey(row) };
  }

  /**
   * The Principal of a request signed with `X-Api-Key`: a Client account of the key's customer (its warehouses,
   * API_KEY_MODULES). A wrong key (malformed, unknown prefix, wrong secret) counts against the caller's address
   * like a wrong password; an address that reaches the limit is blocked (429) for a growing while.
   */
  async principalFromKey(key: string, ip: string | null): Promise<Principal> {
    const address = { key: `api-key-ip:${ip ?? 'unknown'}`, limit: API_KEY_RULES.failuresPerAddress };
    const blocked = await this.throttle.blockedSeconds(address.key);
    if (blocked > 0) throw throttled(blocked);
    const parts = API_KEY_PATTERN.exec(key);
    const rows = parts ? await repo.forAuthentication(this.db, parts[1]) : [];
    const row = rows[0];
    if (!parts || !row || !safeEqualHex(row.key_hash, sha256(parts[2]))) {
      await this.throttle.spend(await this.throttle.claim([address]));
      throw unauthenticated('Invalid API key');
    }
    if (row.revoked_at) throw unauthenticated('This API key has been revoked');
    if (row.customer_active !== 1) throw unauthenticated('This API key’s client is inactive');
    const now = Date.now();
    if (!row.last_used_at || Date.parse(row.last_used_at) <= now - API_KEY_RULES.touchEveryMs) {
      await repo.touch(this.db, Number(row.id), new Date(now).toISOString(), new Date(now - API_KEY_RULES.touchEveryMs).toISOString());
    }
    return keyPrincipal(rows);
  }

  /**
   * The Principal a job queued by a key runs as: the key as it is now (its customer's warehouses today), never its
   * creator, who may see far more. Null when the key is gone, revoked or its client inactive: the job must not run.
   */
  async principalOfKey(apiKeyId: number): Promise<Principal | null> {
    const rows = await repo.forJob(this.db, apiKeyId);
    const row = rows[0];
    if (!row || row.revoked_at || row.customer_active !== 1) return null;
    return keyPrincipal(rows);
  }

  /** Who the caller is: an API key's (or a Client account's) customer and warehouses; a filter outside them is 403. */
  async whoAmI(principal: Principal, filter: { customerId?: number; warehouseId?: number }) {
    principal.scope.assert(filter);
    const customerId = principal.customerId;
    const modules = principal.modules === 'all' ? [] : [...principal.modules].map(([key, permission]) => ({ key, permission }));
    return {
      customerId,
      customerName: customerId == null ? null : await repo.customerName(this.db, customerId),
      warehouseIds: principal.scope.warehouses === 'all' ? [] : [...principal.scope.warehouses],
      apiKeyId: principal.apiKey?.id ?? null,
      prefix: principal.apiKey?.prefix ?? null,
      modules,
    };
  }
}

type KeyRows = Awaited<ReturnType<typeof repo.forJob>>;

/** A key's rows (one per warehouse serving its customer) as the Principal its work runs as: a Client account of that customer. */
function keyPrincipal(rows: KeyRows): Principal {
  const row = rows[0];
  const customerId = Number(row.customer_id);
  const warehouses = rows.filter((r) => r.warehouse_id != null).map((r) => Number(r.warehouse_id));
  return {
    userId: row.created_by == null ? 0 : Number(row.created_by),
    username: `api-key:${row.key_prefix}`,
    role: 'Client',
    sessionId: `api-key:${row.id}`,
    customerId,
    scope: new Scope(warehouses, [customerId]),
    modules: API_KEY_MODULES,
    apiKey: { id: Number(row.id), prefix: shown(row.key_prefix), name: row.name },
  };
}
