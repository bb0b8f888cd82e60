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
  /** How long a claim waits for a concurrent request holding the same key before answering 409. */
  waitMs: number;
}

/**
 * A request with an Idempotency-Key is one database transaction: the key's claim is its first write, the request's
 * business work (every `inTransaction` of its handler) runs inside it, and the answer is stored as its last write
 * just before it commits. So a key whose transaction committed has its answer, and one whose transaction did not
 * commit (an error, a crash) left nothing; a concurrent duplicate's claim waits on the key until the first commits.
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

  constructor(private readonly deps: RequestTransactionDeps, readonly claim: KeyClaim) {}

  /** Runs `fn` (the rest of the request) with this transaction as the context's. */
  run<T>(fn: () => T): T {
    return this.pin.run(() => current.run(this, fn));
  }

  get isOpen(): boolean {
    return this.trx !== undefined;
  }

  uses(db: Db): boolean {
    return db === this.deps.db;
  }

  /**
   * Begins the transaction with the key's claim. When the key's first request has committed, nothing stays open
   * and its row is answered; when it is still running after the wait, 409.
   */
  async begin(): Promise<TakenKey | null> {
    for (let attempt = 1; attempt <= 3; attempt++) {
      this.pin.hold();
      let trx: ControlledTransaction<DB>;
      try {
        trx = await this.deps.db.startTransaction().execute();
      } catch (err) {
        this.pin.letGo();
        throw err;
      }
      try {
        await idempotencyKeys.claim(trx, this.deps.dialect, this.claim, this.deps.waitMs);
        this.trx = trx;
        this.units = 0;
        this.hooks = [];
        return null;
      } catch (err) {
        await this.rollback(trx);
        const kind = classifyDbError(err);
        if (kind === 'lock_timeout') throw conflict('A request with this Idempotency-Key is still in progress');
        if (kind !== 'unique') throw err;
      }
      const taken = await idempotencyKeys.find(this.deps.db, this.claim);
      if (taken) return taken;
      // Only a committed claim clashes, so its row is there; should it have gone meanwhile, claim again.
    }
    throw conflict('A request with this Idempotency-Key is still in progress');
  }

  /**
   * One unit of the handler's work (one `inTransaction`). The first runs in the request's transaction: when it
   * fails, the whole transaction is rolled back, claim included, as if the request had not begun (the next unit —
   * inTransaction's retry of a deadlock victim, or the handler going on — begins it again). Later ones (a handler
   * running several transactions) each run in a savepoint, so one failing undoes only itself, as its own
   * transaction would have.
   */
  async unit<T>(work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    if (!this.trx && (await this.begin())) throw conflict('A request with this Idempotency-Key was answered meanwhile');
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
   * Stores the answer (or, for an answer not kept, gives the key up) and commits; then runs the after-commit hooks.
   * A failure to commit rolls back and throws: the request then answers an error and its key stays free.
   */
  async commit(answer: { statusCode: number; body: string } | null): Promise<void> {
    const trx = this.trx;
    if (!trx) return;
    this.trx = undefined;
    try {
      if (answer) await idempotencyKeys.answer(trx, this.claim, answer.statusCode, answer.body);
      else await idempotencyKeys.giveUp(trx, this.claim);
      this.pin.letGo();
      await trx.commit().execute();
    } catch (err) {
      if (!trx.isCommitted) await this.rollback(trx);
      throw err;
    }
    const hooks = this.hooks;
    this.hooks = [];
    // Outside this request's context: a hook that writes runs on its own, never in the transaction that ended.
    current.exit(() => runAfterCommit(hooks));
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
