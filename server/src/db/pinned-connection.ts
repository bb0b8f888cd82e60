import { AsyncLocalStorage } from 'node:async_hooks';
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, Kysely, TransactionSettings } from 'kysely';

/**
 * One database connection kept for everything an async context (a request) does: while pinned, the first
 * connection the context acquires is handed to every later query of that context, through the root `db` too.
 * A request that is one transaction from start to answer (a keyed mutation, see platform/request-transaction.ts)
 * pins its connection, so the services' reads through `db` see the transaction's own writes — and on SQLite, whose
 * one connection is taken by the open transaction, they do not wait for themselves forever.
 */
export class ConnectionPin {
  private pinned = false;
  private acquiring: Promise<DatabaseConnection> | undefined;
  private connection: DatabaseConnection | undefined;

  /** Runs `fn` in this pin's context; the pin applies once `hold()` is called. */
  run<T>(fn: () => T): T {
    return pins.run(this, fn);
  }

  /** From now on the context's next connection is kept for all its queries, until `letGo()`. */
  hold(): void {
    this.pinned = true;
  }

  /** Stops keeping the connection: its holder (the transaction) releases it, and later queries use the pool again. */
  letGo(): void {
    this.pinned = false;
    this.acquiring = undefined;
    this.connection = undefined;
  }

  /** The pinned connection (acquired on first use), or a pooled one when not pinned. */
  async acquire(inner: Driver): Promise<DatabaseConnection> {
    if (!this.pinned) return inner.acquireConnection();
    this.acquiring ??= inner.acquireConnection().then(oneAtATime);
    this.connection = await this.acquiring;
    return this.connection;
  }

  /** Whether `connection` stays out for the pin's holder (its release is a no-op until then). */
  keeps(connection: DatabaseConnection): boolean {
    return this.pinned && this.connection === connection;
  }
}

const pins = new AsyncLocalStorage<ConnectionPin>();
const rawOf = new WeakMap<DatabaseConnection, DatabaseConnection>();

/**
 * A pinned connection is shared by queries a request runs at once (a service's Promise.all, which on the pool
 * would take several connections): they take turns, as one connection can run one statement at a time.
 */
function oneAtATime(raw: DatabaseConnection): DatabaseConnection {
  let tail: Promise<unknown> = Promise.resolve();
  const shared: DatabaseConnection = {
    executeQuery<R>(query: CompiledQuery) {
      const result = tail.then(() => raw.executeQuery<R>(query));
      tail = result.catch(() => undefined);
      return result;
    },
    streamQuery: (query, chunkSize) => raw.streamQuery(query, chunkSize),
  };
  rawOf.set(shared, raw);
  return shared;
}

/** The driver that honours pins; everything else is the engine's own driver. */
class PinningDriver implements Driver {
  constructor(private readonly inner: Driver) {}
  init() { return this.inner.init(); }
  acquireConnection() {
    const pin = pins.getStore();
    return pin ? pin.acquire(this.inner) : this.inner.acquireConnection();
  }
  async releaseConnection(connection: DatabaseConnection) {
    if (pins.getStore()?.keeps(connection)) return;
    await this.inner.releaseConnection(rawOf.get(connection) ?? connection);
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) { return this.inner.beginTransaction(connection, settings); }
  commitTransaction(connection: DatabaseConnection) { return this.inner.commitTransaction(connection); }
  rollbackTransaction(connection: DatabaseConnection) { return this.inner.rollbackTransaction(connection); }
  savepoint(...args: Parameters<NonNullable<Driver['savepoint']>>) { return this.inner.savepoint!(...args); }
  rollbackToSavepoint(...args: Parameters<NonNullable<Driver['rollbackToSavepoint']>>) { return this.inner.rollbackToSavepoint!(...args); }
  releaseSavepoint(...args: Parameters<NonNullable<Driver['releaseSavepoint']>>) { return this.inner.releaseSavepoint!(...args); }
  destroy() { return this.inner.destroy(); }
}

/** Wraps an engine's Kysely dialect so that its connections can be pinned. */
export function pinnable(dialect: Dialect): Dialect {
  return {
    createDriver: () => new PinningDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db: Kysely<any>) => dialect.createIntrospector(db),
  };
}
