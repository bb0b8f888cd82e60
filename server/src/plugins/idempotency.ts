import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/schema.js';
import type { Dialect } from '../db/dialect.js';
import { conflict, unprocessable, badRequest } from '../platform/errors.js';
import { sha256 } from '../platform/secrets.js';
import { MAX_FILES_PER_REQUEST, partsFingerprint, receiveParts, UPLOAD_MAX_BYTES } from '../platform/files.js';
import type { KeyClaim } from '../platform/idempotency-keys.js';
import { RequestTransaction } from '../platform/request-transaction.js';
import type { Principal } from '../platform/principal.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** How long a request waits for a concurrent one holding its key to finish before answering 409 (PostgreSQL). */
export const IDEMPOTENCY_WAIT_MS = 10_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** A keyed mutation's one transaction: the key's claim, the handler's work, the answer. */
    keyed?: RequestTransaction;
  }
}

/**
 * Idempotency-Key on authenticated mutations: a key has at most one effect. The request runs as one transaction
 * that claims the key first and stores the answer last (platform/request-transaction.ts); a replay returns the
 * stored answer without running the handler, a concurrent duplicate waits for the first (on PostgreSQL at most
 * `waitMs`, then 409) and replays it. A key reused for a different request (body, or an upload's fields and
 * files) is refused. An error answer, or a crash before commit, rolls everything back and keeps no key.
 */
export const idempotencyPlugin = fp(async (app: FastifyInstance, opts: { db: Db; dialect: Dialect; waitMs?: number }) => {
  const deps = { db: opts.db, dialect: opts.dialect, waitMs: opts.waitMs ?? IDEMPOTENCY_WAIT_MS };

  // Callback style, so that the handler runs inside the keyed transaction's async context.
  app.addHook('preHandler', (request, reply, done) => {
    claimOf(request).then((claim) => {
      if (!claim) return done();
      const keyed = new RequestTransaction(deps, claim);
      request.keyed = keyed;
      keyed.run(() => {
        keyed.begin().then((taken) => {
          if (!taken) return done();
          if (taken.requestHash !== claim.requestHash) return done(unprocessable('This Idempotency-Key was used for a different request'));
          // Only keys left by versions before issue 10 lack an answer: their request may have taken effect, so never run it again.
          if (taken.statusCode == null) return done(conflict('The first request with this Idempotency-Key never finished; send the action again with a new key'));
          void reply.status(taken.statusCode).header('idempotent-replay', 'true').type('application/json; charset=utf-8').send(taken.responseJson ?? '');
        }, done);
      });
    }, done);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const keyed = request.keyed;
    if (!keyed?.isOpen) return payload;
    // An error answer: the request changed nothing it keeps, and its key stays free for a retry.
    if (reply.statusCode >= 400) {
      await keyed.abort();
      return payload;
    }
    // A text (JSON) answer is kept with the key; a file (a download, which changes nothing) is not: its key is given up.
    await keyed.commit(typeof payload === 'string' ? { statusCode: reply.statusCode, body: payload } : null);
    return payload;
  });

  // A request that ends without its answer passing onSend (it never replied) must not leave its transaction open.
  app.addHook('onResponse', async (request) => {
    if (request.keyed?.isOpen) await request.keyed.abort();
  });
});

/**
 * Whose Idempotency-Keys a request's belong to: its user's, or for an API key's request that key's alone (stored
 * as minus the key's id, which no user id is), so two keys, or a key and the user who made it, never share one.
 */
export function keyOwner(principal: Principal): number {
  return principal.apiKey ? -principal.apiKey.id : principal.userId;
}

/** The key's claim for a keyed authenticated mutation; null for any other request. */
async function claimOf(request: FastifyRequest): Promise<KeyClaim | null> {
  const key = request.headers['idempotency-key'];
  if (!MUTATING.has(request.method) || !request.principal || key === undefined) return null;
  if (typeof key !== 'string' || !/^[\w.:-]{8,128}$/.test(key)) throw badRequest('Idempotency-Key must be 8–128 letters, digits or . _ : -');
  // A multipart body is still unread here: its parts are read now (the handler gets the same parts), so the
  // file is part of the fingerprint — a different file under the same key is refused like a different JSON body.
  const payload = request.isMultipart() ? partsFingerprint(await receiveParts(request, UPLOAD_MAX_BYTES, MAX_FILES_PER_REQUEST)) : request.body ?? null;
  return {
    userId: keyOwner(request.principal), key, method: request.method, path: request.url.slice(0, 500),
    requestHash: sha256(`${request.method} ${request.routeOptions.url} ${JSON.stringify(payload)}`),
  };
}
