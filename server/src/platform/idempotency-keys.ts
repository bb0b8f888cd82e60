import type { Db, Executor } from '../db/schema.js';
import { insertWaitingAtMost, type Dialect } from '../db/dialect.js';

/** One request's claim on an Idempotency-Key: who, which key, and the fingerprint of what was asked. */
export interface KeyClaim {
  userId: number;
  key: string;
  method: string;
  path: string;
  requestHash: string;
}

/** A key as its first request left it: always answered, except for keys left by versions before issue 10. */
export interface TakenKey {
  requestHash: string;
  statusCode: number | null;
  responseJson: string | null;
}

/** The idempotency_key table's statements. */
export const idempotencyKeys = {
  /**
   * Claims the key as the first write of the caller's transaction. Throws a unique violation when the key's first
   * request has committed, and a lock timeout when it is still running after `waitMs`.
   */
  claim(tx: Executor, d: Dialect, c: KeyClaim, waitMs: number): Promise<void> {
    return insertWaitingAtMost(d, tx, 'idempotency_key', {
      user_id: c.userId, key: c.key, method: c.method, path: c.path, request_hash: c.requestHash,
      status_code: null, response_json: null, created_at: new Date().toISOString(),
    }, waitMs);
  },

  /** Keeps the answer, as the last write of the transaction that claimed the key. */
  async answer(tx: Executor, c: KeyClaim, statusCode: number, body: string): Promise<void> {
    await tx.updateTable('idempotency_key').set({ status_code: statusCode, response_json: body })
      .where('user_id', '=', c.userId).where('key', '=', c.key).execute();
  },

  /** Gives the key up in the transaction that claimed it (an answer not worth keeping): it is never seen taken. */
  async giveUp(tx: Executor, c: KeyClaim): Promise<void> {
    await tx.deleteFrom('idempotency_key').where('user_id', '=', c.userId).where('key', '=', c.key).execute();
  },

  async find(db: Db, c: KeyClaim): Promise<TakenKey | undefined> {
    const row = await db.selectFrom('idempotency_key').select(['request_hash', 'status_code', 'response_json'])
      .where('user_id', '=', c.userId).where('key', '=', c.key).executeTakeFirst();
    return row && { requestHash: row.request_hash, statusCode: row.status_code, responseJson: row.response_json };
  },
};
