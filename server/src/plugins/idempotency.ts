import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/schema.js';
import type { Dialect } from '../db/dialect.js';
import { conflict, unprocessable, badRequest } from '../platform/errors.js';
import { sha256 } from '../platform/secrets.js';
import { MAX_FILES_PER_REQUEST, partsFingerprint, receiveParts, UPLOAD_MAX_BYTES } from '../platform/files.js';
import type { KeyClaim, TakenKey } from '../platform/idempotency-keys.js';
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
 * that writes the key with its answer last (platform/request-transaction.ts): of requests sharing a key, the first
 * to commit takes effect and the others answer its answer (header idempotent-replay), their own work rolled back —
 * a concurrent duplicate waits for the first's commit (on PostgreSQL at most `waitMs`, then 409). A key reused for a
 * different request (body, or an upload's fields and files) is refused. An error answer, or a crash before commit,
 * rolls everything back and keeps no key. An upload looks for its key before its handler reads the file.
 */
export const idempotencyPlugin = fp(async (app: FastifyInstance, opts: { db: Db; dialect: Dialect; waitMs?: number }) => {
  const deps = { db: opts.db, dialect: opts.dialect, waitMs: opts.waitMs ?? IDEMPOTENCY_WAIT_MS };

  // Callback style, so that the handler runs inside the keyed transaction's async context.
  app.addHook('preHandler', (request, reply, done) => {
    claimOf(request).then((claim) => {
      if (!claim) return done();
      const keyed = new RequestTransaction(deps, claim, { lookFirst: request.isMultipart() });
      request.keyed = keyed;
      keyed.run(() => {
        keyed.begin().then((taken) => {
          if (!taken) return done();
          let body: string;
          try {
            body = replayed(reply, claim, taken);
          } catch (err) {
            return done(err as Error);
          }
          void reply.send(body);
        }, done);
      });
    }, done);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const keyed = request.keyed;
    if (!keyed || keyed.isSettled) return payload;
    // A deferred session check (RoutePolicy.deferSession) that refused the caller, or never ran: nothing is kept,
    // and a key's answer is never given to a caller who was not let in.
    if (!request.principal) {
      await keyed.abort();
      return payload;
    }
    // An error answer keeps nothing and leaves its key free — unless the key was answered meanwhile: a replay
    // that failed because its first request took effect (the stock it wanted is gone) answers that request's answer.
    // A text (JSON) answer is kept with the key; a file (a download, which changes nothing) is not.
    const taken = reply.statusCode >= 400
      ? await keyed.refuse()
      : await keyed.commit(typeof payload === 'string' ? { statusCode: reply.statusCode, body: payload } : null);
    if (!taken) return payload;
    return replayed(reply, keyed.claim, taken);
  });

  // A request that ends without its answer passing onSend (it never replied) must not leave its transaction open.
  app.addHook('onResponse', async (request) => {
    if (request.keyed?.isOpen) await request.keyed.abort();
  });
});

/**
 * Makes the reply the key's first answer (its status and headers here, its body returned); 422 when the key was
 * used for a different request, 409 for a key left unanswered by a version before issue 10 (its request may have
 * taken effect: never run it again).
 */
function replayed(reply: FastifyReply, claim: KeyClaim, taken: TakenKey): string {
  if (taken.requestHash !== claim.requestHash) throw unprocessable('This Idempotency-Key was used for a different request');
  if (taken.statusCode == null) throw conflict('The first request with this Idempotency-Key never finished; send the action again with a new key');
  void reply.status(taken.statusCode).header('idempotent-replay', 'true').type('application/json; charset=utf-8');
  return taken.responseJson ?? '';
}

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
  const owner = request.principal ? keyOwner(request.principal) : request.deferredCaller?.userId;
  if (!MUTATING.has(request.method) || owner === undefined || key === undefined) return null;
  if (typeof key !== 'string' || !/^[\w.:-]{8,128}$/.test(key)) throw badRequest('Idempotency-Key must be 8–128 letters, digits or . _ : -');
  // A multipart body is still unread here: its parts are read now (the handler gets the same parts), so the
  // file is part of the fingerprint — a different file under the same key is refused like a different JSON body.
  const payload = request.isMultipart() ? partsFingerprint(await receiveParts(request, UPLOAD_MAX_BYTES, MAX_FILES_PER_REQUEST)) : request.body ?? null;
  return {
    userId: owner, key, method: request.method, path: request.url.slice(0, 500),
    requestHash: sha256(`${request.method} ${request.routeOptions.url} ${JSON.stringify(payload)}`),
  };
}
