import { AsyncLocalStorage } from 'node:async_hooks';
import type { ControlledTransaction } from 'kysely';
import type { DB, Db } from '../db/schema.js';
import { classifyDbError, type Dialect } from '../db/dialect.js';
import { ConnectionPin } from '../db/pinned-connection.js';
import { conflict } from './errors.js';
import { idempotencyKeys, type KeyClaim, type TakenKey } from './idempotency-keys.js';
import { runAfterCommit, type UnitOfWork } from './unit-of-work.js';

const current = new AsyncLocalStorage<RequestTransaction>();

/** The keyed request whose handler is running in this async context, if any: `inTransaction` joins it. */
export function currentRequestTransaction(): RequestTransaction | undefined {
  return current.getStore();
}

export interface RequestTransactionDeps {
  db: Db;
  dialect: Dialect;
  /** How long the key's write waits for a concurrent request holding the same key uncommitted before answering 409. */
  waitMs: number;
}

export interface RequestTransactionOptions {
  /**
   * Look for the key's answer before any work (one read): for work too costly to run only to learn at its end that
   * it was a replay (an upload's sheet, a background job's import). Without it, a replay is found by writing the key.
   */
  lookFirst?: boolean;
}

/**
 * A request with an Idempotency-Key is one database transaction: the request's business work (every `inTransaction`
 * of its handler) runs inside it, and the key is written with its answer as the last write just before it commits —
 * one statement. The key is unique, so of two requests with one key only one commits: the other's key write fails
 * (it waits for the first to commit, on PostgreSQL at most `waitMs`, then 409), everything it did is rolled back, and
 * it answers the first's answer. So a key whose transaction committed has its answer, one whose transaction did not
 * commit (an error, a crash) left nothing, and a key never has two effects. A replay runs the handler again inside
 * the transaction it then rolls back; one that fails instead (the first took the stock it wanted) looks for the key
 * on its error path and answers the first's answer too.
 *
 * The transaction's connection is pinned to the request (db/pinned-connection.ts): the handler's reads through the
 * root `db` run on it and see its writes.
 */
export class RequestTransaction {
  private readonly pin = new ConnectionPin();
  private trx: ControlledTransaction<DB> | undefined;
  /** Units of work run in the open transaction: the first runs in it directly, later ones in savepoints. */
  private units = 0;
  private hooks: (() => void)[] = [];
  private ended = false;

  constructor(private readonly deps: RequestTransactionDeps, readonly claim: KeyClaim, private readonly options: RequestTransactionOptions = {}) {}

  /** Runs `fn` (the rest of the request) with this transaction as the context's. */
  run<T>(fn: () => T): T {
    return this.pin.run(() => current.run(this, fn));
  }

  get isOpen(): boolean {
    return this.trx !== undefined;
  }

  /** Whether the request's answer is settled: committed with its key, refused, or answered from the key. */
  get isSettled(): boolean {
    return this.ended;
  }

  uses(db: Db): boolean {
    return db === this.deps.db;
  }

  /**
   * Begins the transaction. With `lookFirst`, a key already answered is returned instead and nothing is opened.
   */
  async begin(): Promise<TakenKey | null> {
    if (this.options.lookFirst) {
      const taken = await idempotencyKeys.find(this.deps.db, this.claim);
      if (taken) {
        this.ended = true;
        return taken;
      }
    }
    await this.open();
    return null;
  }

  private async open(): Promise<void> {
    this.pin.hold();
    try {
      this.trx = await this.deps.db.startTransaction().execute();
    } catch (err) {
      this.pin.letGo();
      throw err;
    }
    this.units = 0;
    this.hooks = [];
  }

  /**
   * One unit of the handler's work (one `inTransaction`). The first runs in the request's transaction: when it
   * fails, the whole transaction is rolled back, as if the request had not begun (the next unit — inTransaction's
   * retry of a deadlock victim, or the handler going on — begins it again). Later ones (a handler running several
   * transactions) each run in a savepoint, so one failing undoes only itself, as its own transaction would have.
   */
  async unit<T>(work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    if (!this.trx) await this.open();
    const trx = this.trx!;
    if (this.units++ === 0) {
      try {
        return await work({ tx: trx, afterCommit: (fn) => this.hooks.push(fn) });
      } catch (err) {
        await this.abort();
        throw err;
      }
    }
    const name = `unit_${this.units}`;
    const savepoint = await trx.savepoint(name).execute();
    const hooks: (() => void)[] = [];
    try {
      const result = await work({ tx: savepoint, afterCommit: (fn) => hooks.push(fn) });
      await savepoint.releaseSavepoint(name).execute();
      this.hooks.push(...hooks);
      return result;
    } catch (err) {
      await savepoint.rollbackToSavepoint(name).execute();
      throw err;
    }
  }

  /**
   * Writes the key with its answer (no key for an answer not kept: a file) and commits; then runs the after-commit
   * hooks. When another request with this key committed first, everything is rolled back and that request's key is
   * returned: its answer is this request's. 409 when that request still holds the key after the wait. Any other
   * failure to commit rolls back and throws: the request then answers an error and its key stays free.
   */
  async commit(answer: { statusCode: number; body: string } | null): Promise<TakenKey | null> {
    this.ended = true;
    // A handler may answer 2xx after its only unit failed and was rolled back (a batch listing its refusals): that
    // answer is kept with the key all the same, in a transaction of its own, so a replay answers it and does nothing.
    if (!this.trx && answer) await this.open();
    const trx = this.trx;
    if (!trx) return null;
    this.trx = undefined;
    try {
      if (answer) await idempotencyKeys.remember(trx, this.deps.dialect, this.claim, answer, this.deps.waitMs);
      this.pin.letGo();
      await trx.commit().execute();
    } catch (err) {
      if (!trx.isCommitted) await this.rollback(trx);
      const kind = classifyDbError(err);
      if (kind === 'lock_timeout') throw conflict('A request with this Idempotency-Key is still in progress');
      const taken = kind === 'unique' ? await idempotencyKeys.find(this.deps.db, this.claim) : undefined;
      if (taken) return taken;
      throw err;
    }
    const hooks = this.hooks;
    this.hooks = [];
    // Outside this request's context: a hook that writes runs on its own, never in the transaction that ended.
    current.exit(() => runAfterCommit(hooks));
    return null;
  }

  /**
   * An error answer: rolls everything back (the request changed nothing, and its key stays free), then looks for the
   * key — a replay of a request that took effect may fail because of that effect, and then answers its answer.
   */
  async refuse(): Promise<TakenKey | null> {
    this.ended = true;
    await this.abort();
    return (await idempotencyKeys.find(this.deps.db, this.claim)) ?? null;
  }

  /** Rolls everything back: the request changed nothing, and its key stays free. */
  async abort(): Promise<void> {
    const trx = this.trx;
    this.trx = undefined;
    this.hooks = [];
    if (trx) await this.rollback(trx);
  }

  private async rollback(trx: ControlledTransaction<DB>): Promise<void> {
    this.pin.letGo();
    try {
      await trx.rollback().execute();
    } catch {
      // a failed rollback (a dead connection) leaves nothing to undo: the server ends the transaction with it
    }
  }
}
