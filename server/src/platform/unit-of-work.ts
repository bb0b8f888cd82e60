import type { Db, Tx } from '../db/schema.js';
import { classifyDbError } from '../db/dialect.js';
import { currentRequestTransaction } from './request-transaction.js';

export interface UnitOfWork {
  tx: Tx;
  /** Runs after the transaction commits (never after a rollback). */
  afterCommit(fn: () => void): void;
}

/** Tries of a deadlock victim: with every writer committing at once (no NOTIFY lock between them, platform/events.ts), a
 * hot row can make the same transaction a victim three times running under load (the chaos suite saw it once). */
const ATTEMPTS = 6;

/**
 * The transaction helper: one transaction, with after-commit hooks for events and mail delivery. A transaction
 * that PostgreSQL aborts as a deadlock or serialization victim is run again (it changed nothing), a few times.
 *
 * In a request with an Idempotency-Key the work joins that request's one transaction instead (its key's claim
 * first, its answer last: platform/request-transaction.ts) and commits with it, when the answer is sent.
 */
export async function inTransaction<T>(db: Db, work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  const request = currentRequestTransaction();
  for (let attempt = 1; ; attempt++) {
    try {
      if (request?.uses(db)) return await request.unit(work);
      const hooks: (() => void)[] = [];
      const result = await db.transaction().execute((tx) => work({ tx, afterCommit: (fn) => hooks.push(fn) }));
      runAfterCommit(hooks);
      return result;
    } catch (err) {
      if (attempt >= ATTEMPTS || classifyDbError(err) !== 'serialization') throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 10 * 2 ** attempt)); // spread out, more each time
    }
  }
}

/** Runs a committed transaction's hooks. */
export function runAfterCommit(hooks: (() => void)[]): void {
  for (const hook of hooks) {
    try {
      hook();
    } catch {
      // an after-commit hook must not turn a committed change into a failed request
    }
  }
}
