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
   * Writes the key with its answer as the last write of the transaction that did the request's work: one statement,
   * on PostgreSQL sent with the COMMIT (no round trip of its own), so its failure is the commit's: a unique violation
   * when another request with the key has committed (its answer stands, this work must be rolled back), and a lock
   * timeout when that request still holds the key uncommitted after `waitMs`.
   */
  remember(tx: Executor, d: Dialect, c: KeyClaim, answer: { statusCode: number; body: string }, waitMs: number): Promise<void> {
    return insertWaitingAtMost(d, tx, 'idempotency_key', {
      user_id: c.userId, key: c.key, method: c.method, path: c.path, request_hash: c.requestHash,
      status_code: answer.statusCode, response_json: answer.body, created_at: new Date().toISOString(),
    }, waitMs);
  },

  async find(db: Db, c: KeyClaim): Promise<TakenKey | undefined> {
    const row = await db.selectFrom('idempotency_key').select(['request_hash', 'status_code', 'response_json'])
      .where('user_id', '=', c.userId).where('key', '=', c.key).executeTakeFirst();
    return row && { requestHash: row.request_hash, statusCode: row.status_code, responseJson: row.response_json };
  },
};
