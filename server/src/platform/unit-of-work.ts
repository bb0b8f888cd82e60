import type { Db, Tx } from '../db/schema.js';
import { classifyDbError } from '../db/dialect.js';

export interface UnitOfWork {
  tx: Tx;
  /** Runs after the transaction commits (never after a rollback). */
  afterCommit(fn: () => void): void;
}

const ATTEMPTS = 3;

/**
 * The transaction helper: one transaction, with after-commit hooks for events and mail delivery. A transaction
 * that PostgreSQL aborts as a deadlock or serialization victim is run again (it changed nothing), a few times.
 */
export async function inTransaction<T>(db: Db, work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  let hooks: (() => void)[] = [];
  let result: T;
  for (let attempt = 1; ; attempt++) {
    hooks = [];
    try {
      result = await db.transaction().execute((tx) => work({ tx, afterCommit: (fn) => hooks.push(fn) }));
      break;
    } catch (err) {
      if (attempt >= ATTEMPTS || classifyDbError(err) !== 'serialization') throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
    }
  }
  for (const hook of hooks) {
    try {
      hook();
    } catch {
      // an after-commit hook must not turn a committed change into a failed request
    }
  }
  return result;
}
