import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/schema.js';
import { classifyDbError } from '../db/dialect.js';
import { conflict, unprocessable, badRequest } from '../platform/errors.js';
import { sha256 } from '../platform/secrets.js';
import { partsFingerprint, receiveParts } from '../platform/files.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A key whose first request never finished (crash, timeout) may be taken again after this. */
const ABANDONED_AFTER_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { userId: number; key: string };
  }
}

/**
 * Idempotency-Key on authenticated mutations: the first answer is stored per (user, key) and a replay
 * returns it without running the handler again. A key reused for a different request (body, or an upload's
 * fields and files) is refused.
 */
export const idempotencyPlugin = fp(async (app: FastifyInstance, opts: { db: Db }) => {
  const { db } = opts;

  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (!MUTATING.has(request.method) || !request.principal || key === undefined) return;
    if (typeof key !== 'string' || !/^[\w.:-]{8,128}$/.test(key)) throw badRequest('Idempotency-Key must be 8–128 letters, digits or . _ : -');
    const userId = request.principal.userId;
    const path = request.url.slice(0, 500);
    // A multipart body is still unread here: its parts are read now (the handler gets the same parts), so the
    // file is part of the fingerprint — a different file under the same key is refused like a different JSON body.
    const payload = request.isMultipart() ? partsFingerprint(await receiveParts(request)) : request.body ?? null;
    const requestHash = sha256(`${request.method} ${request.routeOptions.url} ${JSON.stringify(payload)}`);
    const now = new Date();
    try {
      await db.insertInto('idempotency_key').values({
        user_id: userId, key, method: request.method, path, request_hash: requestHash,
        status_code: null, response_json: null, created_at: now.toISOString(),
      }).execute();
      request.idempotency = { userId, key };
      return;
    } catch (err) {
      if (classifyDbError(err) !== 'unique') throw err;
    }
    const first = await db.selectFrom('idempotency_key').selectAll().where('user_id', '=', userId).where('key', '=', key).executeTakeFirstOrThrow();
    if (first.request_hash !== requestHash) throw unprocessable('This Idempotency-Key was used for a different request');
    if (first.status_code != null) {
      return reply.status(first.status_code).header('idempotent-replay', 'true').type('application/json; charset=utf-8').send(first.response_json);
    }
    // Still running, or abandoned: take it over only when abandoned.
    const takenOver = await db.updateTable('idempotency_key').set({ created_at: now.toISOString() })
      .where('user_id', '=', userId).where('key', '=', key).where('status_code', 'is', null)
      .where('created_at', '<', new Date(now.getTime() - ABANDONED_AFTER_MS).toISOString())
      .executeTakeFirst();
    if (Number(takenOver.numUpdatedRows) !== 1) throw conflict('A request with this Idempotency-Key is still in progress');
    request.idempotency = { userId, key };
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const idem = request.idempotency;
    if (!idem) return payload;
    if (reply.statusCode >= 500) {
      // A failure is not an answer worth replaying: free the key for a retry.
      await db.deleteFrom('idempotency_key').where('user_id', '=', idem.userId).where('key', '=', idem.key).execute();
    } else {
      await db.updateTable('idempotency_key')
        .set({ status_code: reply.statusCode, response_json: typeof payload === 'string' ? payload : JSON.stringify(payload ?? null) })
        .where('user_id', '=', idem.userId).where('key', '=', idem.key).execute();
    }
    return payload;
  });
});
